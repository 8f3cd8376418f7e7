"""The RFSM Selection widget: choose a set of attributes with a set measure
(RFSM, Liu's consistency or a wrapper) and a search."""
import pyqtgraph as pg

from AnyQt.QtWidgets import QListWidget, QSizePolicy

from Orange.base import Learner
from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.core.subsets import SEARCHES, SetMeasure
from orangecontrib.relief.selection import make_measure, reduce_data
from orangecontrib.relief.widgets.common import (
    NO_CLASS, PlainPlot, known_choices, shut_down_at_once, start_over,
    task_progress, known_flags, unknown_columns, with_class_and_attributes,
    within_ranges, work_progress)

#: label in the widget (the setting's value) -> measure of make_measure
MEASURES = {"RFSM": "RFSM", "Liu's consistency": "Consistency",
            "Wrapper": "Wrapper"}
SEARCH_NAMES = tuple(SEARCHES)
#: a trace of at most this many steps shows the attributes' names
MAX_LABELS = 12
ACCEPTED_PEN = pg.mkPen("#1f77b4", width=2)
ACCEPTED_BRUSH = pg.mkBrush("#1f77b4")
REJECTED_BRUSH = pg.mkBrush("#d62728")
#: the most ticks of the number of attributes (whole numbers only)
MAX_TICKS = 12


def whole_ticks(low, high):
    """Ticks at whole numbers from `low` to `high`, at most MAX_TICKS of
    them (a count has no 2.5)."""
    step = max(1, -(-(high - low + 1) // MAX_TICKS))
    return [(value, str(value)) for value in range(low, high + 1, step)]


def trace_legend(refused, by_bound):
    """The plot's legend (in its title): the marks of the steps taken and
    refused (if any), the chosen set's line and the bound's (if drawn)."""
    entries = [f'<span style="color:#1f77b4">&#9679;</span> '
               f'{"best set of a size" if by_bound else "step taken"}']
    if refused:
        entries.append('<span style="color:#d62728">&#10005;</span> '
                       'refused')
    entries.append('<span style="color:#808080">&#9478;</span> chosen')
    if by_bound:
        entries.append('<span style="color:#808080">&#8943;</span> bound')
    # short and close: the title must fit a projector's narrow window
    return "&nbsp;&nbsp;".join(entries)


def measure_name(measure, class_var):
    """What the value of `measure` (a label of :data:`MEASURES`) is, for
    data with `class_var`: the wrapper's is the accuracy, or the negative
    mean squared error for a numeric class."""
    if measure == "Wrapper":
        return ("\u2212MSE (cross-validated)" if class_var.is_continuous
                else "accuracy (cross-validated)")
    return {"RFSM": "RFSM", "Liu's consistency": "consistency"}[measure]


class _Checked(SetMeasure):
    """A measure that checks for cancellation before every evaluation and
    reports progress within a search step (the wrapper is slow)."""

    def __init__(self, measure, state):
        self.measure = measure
        self.state = state
        self.evaluated = 0
        self.n_attributes = measure.n_attributes
        self.monotone = measure.monotone
        self._fast = (type(measure).forward_values
                      is not SetMeasure.forward_values)

    def _check(self):
        if self.state.is_interruption_requested():
            raise Interrupted

    def evaluate(self, subset):
        """The measure of `subset`; the status counts the sets evaluated,
        so that a slow measure (the wrapper's cross-validation) shows that
        it works between the search's progress reports."""
        self._check()
        self.evaluated += 1
        self.state.set_status(f"Searching: {self.evaluated} attribute "
                              f"set(s) evaluated ...")
        return self.measure.evaluate(subset)

    def forward_values(self, subset, candidates):
        self._check()
        if self._fast:
            return self.measure.forward_values(subset, candidates)
        return super().forward_values(subset, candidates)

    def backward_values(self, subset, candidates=None):
        self._check()
        if type(self.measure).backward_values is not SetMeasure.backward_values:
            return self.measure.backward_values(subset, candidates)
        return super().backward_values(subset, candidates)


def run_selection(data, measure, search, learner, options, state: TaskState):
    """Build the measure on `data` and run the search (a worker thread).

    Returns the :class:`SearchResult`.  The measure's preparation (RFSM's
    neighbour search) is the first 30 % of the progress.
    """
    with work_progress(state, "Preparing the measure ...",
                       data.X if measure == "RFSM" else None,
                       end=0.3) as progress:
        if measure == "RFSM":
            options = dict(options, progress_callback=progress)
        elif measure == "Wrapper":
            options = dict(options,
                           should_stop=state.is_interruption_requested)
        built = make_measure(measure, data, learner=learner, **options)
    state.set_status("Searching ...")
    return SEARCHES[search](_Checked(built, state),
                            progress_callback=task_progress(state, 0.3, 1))


class TracePlot(PlainPlot):
    """The value of the measure against the number of attributes."""

    def __init__(self, parent=None):
        super().__init__(parent, grid_y=True)
        item = self.getPlotItem()
        item.getAxis("bottom").setLabel("number of attributes")
        item.getAxis("left").setLabel("measure")

    def set_trace(self, result, names, selected_size, value_name="measure"):
        """Plot the steps of `result`; `names[i]` labels attribute i in the
        points' tooltips (and next to the points when there are few);
        `value_name` labels the vertical axis.

        A search from the empty set leaves the empty set's value off the
        vertical scale when it lies far below the others (it would squash
        them); branch and bound's trace is the best set of each size, drawn
        with its bound (the full set's value)."""
        self.clear()
        self.getPlotItem().getAxis("left").setLabel(value_name)
        trace = result.trace
        by_bound = len(trace) > 1 and all(s.attribute is None for s in trace)
        self.plot([s.size for s in trace if s.accepted],
                  [s.value for s in trace if s.accepted], pen=ACCEPTED_PEN)
        points = pg.ScatterPlotItem(hoverable=True, tip=self._tip, size=9)
        for step in trace:
            text = self._step_text(step, trace, names, by_bound)
            points.addPoints(
                [dict(pos=(step.size, step.value), data=text,
                      brush=ACCEPTED_BRUSH if step.accepted
                      else REJECTED_BRUSH,
                      symbol="o" if step.accepted else "x",
                      pen=pg.mkPen("w" if step.accepted else "#d62728"))])
            if len(trace) <= MAX_LABELS and step.attribute is not None:
                # alternately above and below the points: a levelling
                # trace puts neighbouring labels side by side
                above = step.size % 2 == 1
                label = pg.TextItem(text.replace(" (refused)", ""),
                                    color="#404040",
                                    anchor=(0.5, 1.2) if above else (0.5, -0.2))
                label.setFont(self._label_font())
                label.setPos(step.size, step.value)
                self.addItem(label)
        self.addItem(points)
        self.addItem(pg.InfiniteLine(
            selected_size, angle=90,
            pen=pg.mkPen("#808080", style=pg.QtCore.Qt.DashLine)))
        if by_bound:
            self.addItem(pg.InfiniteLine(
                trace[0].value, angle=0, label="bound: the full set's value",
                labelOpts=dict(position=0.25, color="#808080"),
                pen=pg.mkPen("#808080", style=pg.QtCore.Qt.DotLine)))
        sizes = [s.size for s in trace]
        self.setXRange(min(sizes) - 0.3, max(sizes) + 0.5, padding=0.02)
        self.getAxis("bottom").setTicks(
            [whole_ticks(min(sizes), max(sizes)), []])
        self.setTitle(trace_legend(not all(s.accepted for s in trace),
                                   by_bound), color="#404040")
        self._set_value_range(trace)

    def _set_value_range(self, trace):
        """The vertical range of the values, the empty set's left out when
        it lies more than the others' spread below them (noted instead)."""
        self.empty_set_note = None
        rest = [s.value for s in trace if s.size > 0]
        start = trace[0]
        low, high = (min(rest), max(rest)) if rest else (0.0, 0.0)
        spread = high - low if high > low else max(abs(high), 1.0)
        if start.size == 0 and rest and start.value < low - spread:
            self.setYRange(low - 0.15 * spread, high + 0.15 * spread)
            self.empty_set_note = pg.TextItem(
                f"no attributes: {start.value:.3g} (below the plot)",
                color="#808080", anchor=(0, 1))
            self.empty_set_note.setPos(start.size, low - 0.12 * spread)
            self.addItem(self.empty_set_note)
        else:
            self.enableAutoRange(axis="y")

    @staticmethod
    def _step_text(step, trace, names, by_bound):
        if by_bound:
            return f"best set of {step.size} attributes"
        if step.attribute is None:
            return "start"
        sign = "+" if trace[0].size <= step.size else "\u2212"
        text = f"{sign}{names[step.attribute]}"
        return text if step.accepted else text + " (refused)"

    def _label_font(self):
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 0.8)
        return font

    @staticmethod
    def _tip(x, y, data):
        return f"{data}: {y:.4g} ({x:g} attributes)"

    def clear_trace(self):
        self.clear()
        self.setTitle(None)
        self.getAxis("bottom").setTicks(None)
        self.getPlotItem().getAxis("left").setLabel("measure")


class OWRFSM(OWWidget, ConcurrentWidgetMixin):
    name = "RFSM Selection"
    description = ("Select a set of attributes with the Relief feature set "
                   "measure, Liu's consistency or a wrapper, searched "
                   "greedily or otherwise.")
    icon = "icons/RFSM.svg"
    priority = 40
    settings_version = 1
    keywords = "rfsm, feature subset selection, wrapper, consistency, greedy"

    class Inputs:
        data = Input("Data", Table)
        learner = Input("Learner", Learner)

    class Outputs:
        reduced_data = Output("Reduced Data", Table, default=True)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        no_attributes = Msg("Data has no attributes.")
        selection = Msg("{}")

    class Warning(OWWidget.Warning):
        incomplete = Msg("Branch and bound ran out of its budget; the set "
                         "is the smallest found so far.")
        empty_columns = Msg("Attribute(s) without known values cannot tell "
                            "instances apart: {}")

    class Information(OWWidget.Information):
        default_learner = Msg("The wrapper uses a tree (a classification "
                              "or a regression tree, as the class); "
                              "connect a learner to use another.")

    measure = Setting("RFSM")
    search = Setting("greedy forward")
    k_nearest = Setting(1)
    neighbours_within = Setting(False)
    relieff_priors = Setting(False)
    n_bins = Setting(4)
    wrapper_folds = Setting(5)
    auto_apply = Setting(True)

    graph_name = "plot.plotItem"

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        known_choices(self, {"measure": MEASURES, "search": SEARCH_NAMES})
        known_flags(self)
        within_ranges(self, {"k_nearest": (1, 100), "n_bins": (2, 20),
                             "wrapper_folds": (2, 20)})
        self.data = None
        self.learner = None
        self.result = None
        self.value_name = "measure"
        self._build_controls()
        self.plot = TracePlot(self)
        self.mainArea.layout().addWidget(self.plot, stretch=1)
        box = gui.vBox(self.mainArea, "Chosen attributes",
                       sizePolicy=(QSizePolicy.Preferred,
                                   QSizePolicy.Maximum))
        self.chosen_list = QListWidget(
            toolTip="The attributes the search kept, in the order it added "
                    "them, each with how much it raised the measure.")
        self.chosen_list.setMaximumHeight(110)
        box.layout().addWidget(self.chosen_list)
        self.summary = gui.widgetLabel(box, "")
        self._update_controls()

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Measure")
        self.measure_combo = gui.comboBox(
            box, self, "measure", items=list(MEASURES),
            sendSelectedValue=True, callback=self._on_option_changed,
            tooltip="How good a set of attributes is: RFSM (the Relief "
                    "measure of a set), Liu's consistency (how few "
                    "instances with equal values disagree in class) or a "
                    "wrapper (a learner's cross-validated accuracy).")
        self.rfsm_box = gui.vBox(box)
        gui.spin(self.rfsm_box, self, "k_nearest", 1, 100,
                 label="Neighbours (k):", callback=self.commit.deferred,
                 tooltip="How many nearest hits, and nearest misses of each "
                         "other class, every instance is compared with.")
        gui.checkBox(self.rfsm_box, self, "neighbours_within",
                     "Find neighbours within the set only",
                     callback=self.commit.deferred,
                     tooltip="Measure distances with the set's attributes "
                             "only (else with all attributes).")
        gui.checkBox(self.rfsm_box, self, "relieff_priors",
                     "Weight misses by their class's frequency",
                     callback=self.commit.deferred,
                     tooltip="Weight the misses of each class by its share "
                             "of the data, as ReliefF does: P(C) / (1 \u2212 "
                             "P(class of the instance)); unchecked, by P(C), "
                             "as the RFSM paper's eq. 2 writes it.")
        self.bins_spin = gui.spin(
            box, self, "n_bins", 2, 20, label="Intervals of numeric "
            "attributes:", callback=self.commit.deferred,
            tooltip="Consistency compares values: numeric attributes are "
                    "cut into this many equal-frequency intervals.")
        self.folds_spin = gui.spin(
            box, self, "wrapper_folds", 2, 20,
            label="Cross-validation folds:", callback=self.commit.deferred,
            tooltip="Folds of the wrapper's cross-validation of each set.")

        box = gui.vBox(self.controlArea, "Search")
        gui.comboBox(box, self, "search", items=SEARCH_NAMES,
                     sendSelectedValue=True, callback=self.commit.deferred,
                     tooltip="Greedy forward: add the best attribute while "
                             "the measure grows; backward: remove the "
                             "least useful; branch and bound: the smallest "
                             "set as good as all attributes (consistency).")

        gui.rubber(self.controlArea)
        gui.auto_apply(self.buttonsArea, self, "auto_apply")

    def _update_controls(self):
        self.rfsm_box.setVisible(self.measure == "RFSM")
        # the priors weigh the misses of classes: none for a numeric class
        self.controls.relieff_priors.setEnabled(
            self.data is None or self.data.domain.class_var is None
            or self.data.domain.class_var.is_discrete)
        self.bins_spin.box.setVisible(self.measure == "Liu's consistency")
        self.folds_spin.box.setVisible(self.measure == "Wrapper")
        self.Information.default_learner(
            shown=self.measure == "Wrapper" and self.learner is None)

    def _on_option_changed(self):
        self._update_controls()
        self.commit.deferred()

    # --- inputs -----------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        start_over(self, self.Warning.empty_columns)
        self.data = with_class_and_attributes(self, data)
        if self.data is not None:
            names = unknown_columns(data)
            self.Warning.empty_columns(", ".join(names), shown=bool(names))

    @Inputs.learner
    def set_learner(self, learner):
        self.learner = learner

    def handleNewSignals(self):
        self._update_controls()
        self.commit.now()

    # --- work -------------------------------------------------------------

    def _options(self):
        if self.measure == "RFSM":
            # the priors weigh the misses of classes: none for a number
            classes = self.data.domain.class_var.is_discrete
            return dict(k_nearest=self.k_nearest,
                        neighbours="within" if self.neighbours_within
                        else "all",
                        priors="relieff" if self.relieff_priors and classes
                        else "eq2")
        if self.measure == "Liu's consistency":
            return dict(n_bins=self.n_bins)
        return dict(folds=self.wrapper_folds)

    def _wrapper_learner(self):
        if self.learner is not None:
            return self.learner
        from Orange.modelling import TreeLearner
        return TreeLearner()

    @gui.deferred
    def commit(self):
        self.cancel()
        self.Error.selection.clear()
        self.Warning.incomplete.clear()
        self._clear_results()
        if self.data is None:
            self.Outputs.reduced_data.send(None)
            return
        learner = self._wrapper_learner() if self.measure == "Wrapper" else None
        # the name of the values of this run, whatever the combo says later
        self.value_name = measure_name(self.measure,
                                       self.data.domain.class_var)
        self.start(run_selection, self.data, MEASURES[self.measure],
                   self.search, learner, self._options())

    def on_done(self, result):
        self.result = result
        self.Warning.incomplete(shown=not result.complete)
        self._show_result()
        self.Outputs.reduced_data.send(
            reduce_data(self.data, result.selected))

    def on_exception(self, ex):
        if isinstance(ex, Interrupted):
            return
        if not isinstance(ex, ValueError):
            raise ex
        self.Error.selection(str(ex))
        self._clear_results()
        self.Outputs.reduced_data.send(None)

    def on_partial_result(self, result):
        pass

    def _show_result(self):
        result = self.result
        names = [var.name for var in self.data.domain.attributes]
        value_name = self.value_name
        self.plot.set_trace(result, names, len(result.selected), value_name)
        self.chosen_list.clear()
        forward = result.trace[0].size == 0 and self.search == "greedy forward"
        if forward:
            for position, (attribute, gain) in enumerate(
                    zip(result.selected, result.gains), start=1):
                self.chosen_list.addItem(
                    f"{position}. {names[attribute]}  (+{gain:.4g})")
        else:
            for attribute in result.selected:
                self.chosen_list.addItem(names[attribute])
        self.summary.setText(
            f"{len(result.selected)} of {len(names)} attributes, "
            f"{value_name} {result.value:.4g}; {result.n_evaluations} sets "
            f"evaluated.")

    def _clear_results(self):
        self.result = None
        self.plot.clear_trace()
        self.chosen_list.clear()
        self.summary.setText("")

    # --- widget life ------------------------------------------------------

    def send_report(self):
        items = [("Measure", self.measure),
                 ("Search", self.search)]
        if self.measure == "RFSM":
            items.append(("Neighbours (k)", self.k_nearest))
        self.report_items("Settings", items)
        if self.data is not None:
            self.report_data("Data", self.data)
        if self.result is not None:
            names = [self.data.domain.attributes[i].name
                     for i in self.result.selected]
            self.report_items("Chosen attributes",
                              [("Attributes", ", ".join(names) or "none")])
            self.report_plot("Search trace", self.plot.plotItem)

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief.datasets import path
    WidgetPreview(OWRFSM).run(Table(path("zoo")))
