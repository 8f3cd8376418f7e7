"""Relief, step by step: one reference instance at a time, its nearest hits
and misses, the diffs it reads and how it moves the weights (for teaching)."""
import numpy as np
import pyqtgraph as pg

from AnyQt.QtCore import Qt, QTimer, pyqtSignal as Signal
from AnyQt.QtGui import QBrush, QColor, QFont
from AnyQt.QtWidgets import (QAbstractItemView, QHeaderView, QSizePolicy,
                             QSplitter, QTableWidget, QTableWidgetItem)

from Orange.data import ContinuousVariable, DiscreteVariable, Table
from Orange.widgets import gui
from Orange.widgets.settings import (ContextSetting, DomainContextHandler,
                                     Setting)
from Orange.widgets.utils.itemmodels import DomainModel
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.visualize.owscatterplotgraph import AxisItem
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.steps import VARIANTS, ReliefSteps, references
from orangecontrib.relief.widgets.common import (NO_CLASS, PlainPlot,
                                                 within_ranges)
from orangecontrib.relief.widgets.weights import (WeightsPlot, is_relevant,
                                                  weights_table)

#: (label, milliseconds between two steps) of the Run button's speeds
SPEEDS = (("Slow (2 s a step)", 2000), ("Medium (0.5 s a step)", 500),
          ("Fast (0.1 s a step)", 100))
#: a nominal attribute's points spread this far around its value
JITTER = 0.3
HIT_PEN = pg.mkPen("#2a2a2a", width=2.5)
MISS_PEN = pg.mkPen("#2a2a2a", width=2.5, style=Qt.DashLine)
#: the background of an update that raises (lowers) a weight
UP, DOWN = QColor("#d8ecd0"), QColor("#f6d5d0")

EXPLANATION = (
    "A step takes a reference, finds its nearest hits (same class) and "
    "misses (other class) with all attributes, and moves each weight down "
    "by how much the attribute differs on the hits, up by how much it "
    "differs on the misses.")
EXPLANATION_WIDTH = 230
#: the most bars the narrow weights panel shows (the best weights)
MAX_BARS = 20


def plot_coordinates(data, var, jitter):
    """The positions of `data`'s instances along `var`: numeric values, or
    the value codes of a nominal attribute spread by `jitter` (n,)."""
    values = data.get_column(var).astype(float)
    return values + jitter if var.is_discrete else values


def styled(item, italic=False, bold=False):
    """`item` (a table cell) with its font in italics or bold."""
    font = QFont(item.font())
    font.setItalic(italic)
    font.setBold(bold)
    item.setFont(font)
    return item


class NeighbourhoodPlot(PlainPlot):
    """The instances on two attributes coloured by class; a step's reference
    (a star) joined to its hits by solid lines and to its misses by dashed
    ones.  Clicking an instance emits its index."""
    instance_clicked = Signal(int)

    def __init__(self, parent=None):
        # Orange's scatter plot's axes: they can show dates and times
        super().__init__(parent, grid_y=True,
                         axis_items={side: AxisItem(side)
                                     for side in ("bottom", "left")})
        self.points = pg.ScatterPlotItem(size=10, pen=pg.mkPen("#ffffff"))
        self.points.sigClicked.connect(self._on_clicked)
        self.hit_lines = pg.PlotCurveItem(connect="pairs", pen=HIT_PEN)
        self.miss_lines = pg.PlotCurveItem(connect="pairs", pen=MISS_PEN)
        self.neighbour_marks = pg.ScatterPlotItem(
            size=17, brush=None, pen=pg.mkPen("#2a2a2a", width=2))
        self.reference_mark = pg.ScatterPlotItem(
            size=26, symbol="star", pen=pg.mkPen("#000000", width=1.5))
        for item in (self.hit_lines, self.miss_lines, self.points,
                     self.neighbour_marks, self.reference_mark):
            self.addItem(item)
        self.legend = self.getPlotItem().addLegend(
            offset=(-5, 5), colCount=3, brush=pg.mkBrush(255, 255, 255, 230),
            pen=pg.mkPen("#c0c0c0"), labelTextColor="#202020")

    def set_instances(self, x, y, colours, class_names, class_colours,
                      names):
        """Show instances at (`x`, `y`) (NaN: not shown) with `colours`;
        the legend lists the classes; `names` are the axis labels."""
        shown = np.flatnonzero(~(np.isnan(x) | np.isnan(y)))
        self.points.setData(
            x=x[shown], y=y[shown], data=shown,
            brush=[pg.mkBrush(colours[i]) for i in shown])
        self.clear_step()
        self.legend.clear()
        for name, colour in zip(class_names, class_colours):
            self.legend.addItem(pg.ScatterPlotItem(
                brush=pg.mkBrush(colour), pen=pg.mkPen("#ffffff"), size=10),
                name)
        self.legend.addItem(self.reference_mark, "reference")
        self.legend.addItem(self.hit_lines, "hit (same class)")
        self.legend.addItem(self.miss_lines, "miss (other class)")
        for axis, name in zip(("bottom", "left"), names):
            self.getAxis(axis).setLabel(name)
        if len(shown):
            self._fit(x[shown], y[shown])

    def _fit(self, x, y):
        """Show every point, with room for the legend above them."""
        (left, right), (low, high) = ((v.min(), v.max()) for v in (x, y))
        width, height = max(right - left, 1e-9), max(high - low, 1e-9)
        self.setXRange(left - 0.05 * width, right + 0.05 * width, padding=0)
        self.setYRange(low - 0.05 * height, high + 0.3 * height, padding=0)

    def set_ticks(self, axis, values, time=False):
        """Label `axis` with nominal `values` at their codes (None: the
        numeric axis's own ticks, as dates and times if `time`)."""
        item = self.getAxis(axis)
        item.use_time(time)
        item.enableAutoSIPrefix(False)  # use_time(False) turns it on
        item.setTicks(None if values is None
                      else [list(enumerate(values)), []])

    def show_step(self, x, y, reference, neighbours, is_hit, colour):
        """Mark `reference` (in `colour`) and join it to its `neighbours`
        (hits where `is_hit`); instances at NaN are left out."""
        def joined(members):
            ends = [(x[reference], y[reference], x[j], y[j]) for j in members]
            ends = np.array([e for e in ends if not np.isnan(e).any()]
                            ).reshape(-1, 4)
            return (np.column_stack([ends[:, 0], ends[:, 2]]).ravel(),
                    np.column_stack([ends[:, 1], ends[:, 3]]).ravel())
        for lines, members in ((self.hit_lines, neighbours[is_hit]),
                               (self.miss_lines, neighbours[~is_hit])):
            lines.setData(*joined(members))
        self.neighbour_marks.setData(x=x[neighbours], y=y[neighbours],
                                     symbol=["o" if h else "s"
                                             for h in is_hit])
        self.reference_mark.setData(x=x[[reference]], y=y[[reference]],
                                    brush=pg.mkBrush(colour))

    def clear_step(self):
        for item in (self.hit_lines, self.miss_lines):
            item.setData([], [])
        for item in (self.neighbour_marks, self.reference_mark):
            item.setData([], [])

    def _on_clicked(self, _, points, *__):
        if len(points):
            self.instance_clicked.emit(int(points[0].data()))


class OWReliefSteps(OWWidget):
    name = "Relief, step by step"
    description = ("Watch Relief or ReliefF at work: one reference instance "
                   "at a time, its nearest hits and misses and how they "
                   "move the attribute weights.")
    icon = "icons/StepByStep.svg"
    priority = 60
    settings_version = 1
    keywords = "relief, relieff, step, teaching, neighbours, hit, miss"

    class Inputs:
        data = Input("Data", Table)

    class Outputs:
        weights = Output("Weights", Table)
        neighbourhood = Output("Neighbourhood", Table)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        numeric_class = Msg("The class is numeric; Relief, step by step "
                            "needs a categorical class.")
        relief = Msg("{}")

    class Warning(OWWidget.Warning):
        missing_class = Msg("{} instance(s) with an unknown class are left "
                            "out.")

    class Information(OWWidget.Information):
        not_plotted = Msg("{} instance(s) with a missing value on the "
                          "plotted attributes are not shown.")

    settingsHandler = DomainContextHandler()
    attr_x = ContextSetting(None)
    attr_y = ContextSetting(None)
    variant_index = Setting(0)
    k_nearest = Setting(5)
    sampled = Setting(0)
    random_seed = Setting(0)
    speed_index = Setting(1)

    graph_name = "scatter.plotItem"

    def __init__(self):
        super().__init__()
        within_ranges(self, {"variant_index": (0, len(VARIANTS) - 1),
                             "k_nearest": (1, 100), "sampled": (0, 1),
                             "random_seed": (0, 2 ** 31 - 1),
                             "speed_index": (0, len(SPEEDS) - 1)})
        self.data = None      # the instances with a known class
        self.input_rows = None  # their rows in the input
        self.stepper = None   # ReliefSteps of self.data
        self.steps = []       # the Step of each reference so far
        #: whether Relief, chosen, gave way to ReliefF for data of other
        #: than two classes (it comes back with two, unless another choice)
        self.relief_displaced = False
        self.jitter = None    # (n, 2) spread of nominal coordinates
        self.timer = QTimer(self, timeout=self._run_step)
        self.run_until = 0
        self._build_controls()
        self._build_main_area()
        self._update_controls()

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Method")
        self.variant_buttons = gui.radioButtons(
            box, self, "variant_index", btnLabels=VARIANTS,
            tooltips=["Kira & Rendell (1992): one nearest hit and one "
                      "nearest miss; two classes only.",
                      "Kononenko (1994): the k nearest hits and the k "
                      "nearest misses of every other class, each class "
                      "weighted by its share of the data."],
            callback=self._on_variant_chosen)
        self.k_spin = gui.spin(
            box, self, "k_nearest", 1, 100, label="Neighbours per class (k):",
            callback=self._on_method_changed,
            tooltip="How many nearest hits, and nearest misses of each other "
                    "class, ReliefF takes.")

        box = gui.vBox(self.controlArea, "Next reference")
        gui.radioButtons(
            box, self, "sampled", btnLabels=("Next in order", "Random"),
            tooltips=["The instances in their order: after a pass over all "
                      "of them the weights are those of the Relief widget.",
                      "Drawn at random with the seed below, as the Relief "
                      "widget's sampled references."],
            callback=self._update_controls)
        self.seed_spin = gui.spin(
            box, self, "random_seed", 0, 2 ** 31 - 1, label="Random seed:",
            tooltip="The same seed gives the same references.")
        gui.widgetLabel(box, "Or click a point in the plot.")

        box = gui.vBox(self.controlArea, "Steps")
        row = gui.hBox(box)
        self.step_button = gui.button(
            row, self, "Step", callback=self.step, autoDefault=False,
            tooltip="Take the next reference and update the weights.")
        self.back_button = gui.button(
            row, self, "Step back", callback=self.step_back,
            autoDefault=False, tooltip="Undo the last step.")
        row = gui.hBox(box)
        self.run_button = gui.button(
            row, self, "Run", callback=self.toggle_run, autoDefault=False,
            tooltip="Step on its own until every instance had a turn (one "
                    "pass); press again to stop.")
        gui.comboBox(row, self, "speed_index", items=[s for s, _ in SPEEDS],
                     callback=self._on_speed_changed,
                     tooltip="Time between two steps while running.")
        self.reset_button = gui.button(
            box, self, "Reset", callback=self.reset, autoDefault=False,
            tooltip="Forget the steps: every weight back to 0.")
        self.step_label = gui.widgetLabel(box, "")
        self.step_label.setWordWrap(True)

        box = gui.vBox(self.controlArea, "How it works")
        label = gui.widgetLabel(box, EXPLANATION)
        label.setWordWrap(True)
        label.setFixedWidth(EXPLANATION_WIDTH)
        label.setFixedHeight(label.heightForWidth(EXPLANATION_WIDTH))
        gui.rubber(self.controlArea)

    def _build_main_area(self):
        row = gui.hBox(self.mainArea)
        self.var_model = DomainModel(
            DomainModel.ATTRIBUTES,
            valid_types=(ContinuousVariable, DiscreteVariable))
        for name, label in (("attr_x", "Horizontal:"),
                            ("attr_y", "Vertical:")):
            gui.comboBox(row, self, name, label=label, model=self.var_model,
                         orientation=Qt.Horizontal, callback=self._plot,
                         tooltip="The attribute the plot shows on this "
                                 "axis; the neighbours are found with all.",
                         sizePolicy=(QSizePolicy.MinimumExpanding,
                                     QSizePolicy.Fixed))
        splitter = QSplitter(Qt.Vertical)
        plots = QSplitter(Qt.Horizontal)
        self.scatter = NeighbourhoodPlot(self)
        self.scatter.instance_clicked.connect(self.step_with)
        self.scatter.setToolTip("Click a point to make it the next reference.")
        self.bars = WeightsPlot(self, name_width=120)  # a narrow panel
        self.bars.setToolTip("The weights after the steps so far.")
        plots.addWidget(self.scatter)
        plots.addWidget(self.bars)
        plots.setSizes([600, 300])
        self.table = QTableWidget(
            editTriggers=QAbstractItemView.NoEditTriggers,
            toolTip="This step's diffs: how much each attribute differs "
                    "between the reference and each neighbour (0 the same, "
                    "1 as different as can be).")
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeToContents)
        splitter.addWidget(plots)
        splitter.addWidget(self.table)
        splitter.setSizes([420, 260])
        self.mainArea.layout().addWidget(splitter)

    def _update_controls(self):
        """Enable the controls that apply now."""
        two_classes = (self.stepper is None
                       or self.stepper.data.n_groups == 2)
        relief = self.variant_buttons.buttons[0]
        relief.setEnabled(two_classes)
        self.k_spin.setEnabled(VARIANTS[self.variant_index] == "ReliefF")
        self.seed_spin.setEnabled(bool(self.sampled))
        running = self.timer.isActive()
        ready = self.stepper is not None
        self.step_button.setEnabled(ready and not running)
        self.back_button.setEnabled(bool(self.steps) and not running)
        self.run_button.setEnabled(ready)
        self.run_button.setText("Stop" if running else "Run")
        self.reset_button.setEnabled(bool(self.steps))

    # --- input ------------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        """Check the data, choose the plotted attributes and start over."""
        self.stop()
        self.closeContext()
        self.Error.clear()
        self.Warning.clear()
        self.data = self.stepper = None
        self.steps = []
        self.var_model.set_domain(None)
        self.attr_x = self.attr_y = None
        if data is not None and self._check_class(data):
            known = ~np.isnan(data.get_column(data.domain.class_var))
            self.Warning.missing_class(int((~known).sum()),
                                       shown=not known.all())
            self.data = data[known]
            self.input_rows = np.flatnonzero(known)
            self.var_model.set_domain(data.domain)
            if self.var_model:
                self.attr_x = self.var_model[0]
                self.attr_y = self.var_model[min(1, len(self.var_model) - 1)]
            self.openContext(data.domain)
            self.jitter = np.random.default_rng(0).uniform(
                -JITTER, JITTER, (len(self.data), 2))
            self._make_stepper()
        self._plot()
        self._show()

    def _check_class(self, data):
        class_var = data.domain.class_var
        if class_var is None:
            self.Error.no_class()
        elif not class_var.is_discrete:
            self.Error.numeric_class()
        return class_var is not None and class_var.is_discrete

    def _make_stepper(self):
        """A ReliefSteps of the data for the chosen method (Relief needs
        two classes: ReliefF otherwise), and the steps of the references so
        far with it."""
        self.Error.relief.clear()
        refs = [s.reference for s in self.steps]
        self.stepper, self.steps = None, []
        relief, relieff = VARIANTS.index("Relief"), VARIANTS.index("ReliefF")
        two_classes = len(self.data.domain.class_var.values) == 2
        if not two_classes and self.variant_index == relief:
            self.variant_index, self.relief_displaced = relieff, True
        elif two_classes and self.relief_displaced:
            self.variant_index, self.relief_displaced = relief, False
        try:
            arrays = table_arrays(self.data, "Relief, step by step")
            self.stepper = ReliefSteps(
                arrays.X, arrays.y, arrays.discrete,
                variant=VARIANTS[self.variant_index],
                k_nearest=self.k_nearest)
        except (ReliefInputError, ValueError) as error:
            self.Error.relief(str(error))
            return
        self.steps = self.stepper.steps(refs)

    def _on_variant_chosen(self):
        """The user's choice of variant: it stays."""
        self.relief_displaced = False
        self._on_method_changed()

    def _on_method_changed(self):
        """The same references again with the new method."""
        if self.data is not None:
            self._make_stepper()
        self._show()

    # --- steps ------------------------------------------------------------

    def next_reference(self):
        """The reference of the next step, by the chosen order."""
        t = len(self.steps)
        return references(self.stepper.n_instances, t + 1,
                          sampled=bool(self.sampled),
                          random_state=self.random_seed)[t]

    def step(self):
        """One step with the next reference."""
        if self.stepper is not None:
            self.step_with(self.next_reference())

    def step_with(self, reference):
        """One step with instance `reference` as the reference."""
        if self.stepper is None:
            return
        self.steps.append(self.stepper.step(reference))
        self._show()

    def step_back(self):
        if self.steps:
            self.steps.pop()
            self._show()

    def reset(self):
        self.stop()
        self.steps = []
        self._show()

    def toggle_run(self):
        if self.timer.isActive():
            self.stop()
        elif self.stepper is not None:
            n = self.stepper.n_instances
            self.run_until = (len(self.steps) // n + 1) * n
            self.timer.start(SPEEDS[self.speed_index][1])
            self._update_controls()

    def stop(self):
        self.timer.stop()
        self._update_controls()

    def _run_step(self):
        self.step()
        if self.stepper is None or len(self.steps) >= self.run_until:
            self.stop()

    def _on_speed_changed(self):
        if self.timer.isActive():
            self.timer.setInterval(SPEEDS[self.speed_index][1])

    # --- views and outputs --------------------------------------------------

    def _coordinates(self):
        """The plotted (x, y) of every instance."""
        return tuple(plot_coordinates(self.data, var, self.jitter[:, i])
                     for i, var in enumerate((self.attr_x, self.attr_y)))

    def _plot(self):
        """Show the instances on the chosen attributes."""
        self.Information.not_plotted.clear()
        if self.data is None or self.attr_x is None:
            self.scatter.set_instances(np.zeros(0), np.zeros(0), [], [], [],
                                       ("", ""))
            for axis in ("bottom", "left"):
                self.scatter.set_ticks(axis, None)
            return
        class_var = self.data.domain.class_var
        colours = [QColor(*c) for c in class_var.colors]
        codes = self.data.get_column(class_var).astype(int)
        x, y = self._coordinates()
        self.scatter.set_instances(
            x, y, [colours[c] for c in codes],
            [f"{class_var.name} = {value}" for value in class_var.values],
            colours,
            (self.attr_x.name, self.attr_y.name))
        for axis, var in (("bottom", self.attr_x), ("left", self.attr_y)):
            self.scatter.set_ticks(axis,
                                   var.values if var.is_discrete else None,
                                   time=var.is_time)
        hidden = int((np.isnan(x) | np.isnan(y)).sum())
        self.Information.not_plotted(hidden, shown=hidden > 0)
        self._show_step()

    def _show(self):
        """Show the last step and the weights; send them."""
        self._update_controls()
        self._show_step()
        self._show_table()
        self._show_weights()
        self._send()

    def _row_name(self, instance):
        """How the views name an instance: its row number in the input
        (as the Data Table widget numbers rows, from 1)."""
        return f"row {self.input_rows[instance] + 1}"

    def _class_of(self, instance):
        return int(self.data.get_column(self.data.domain.class_var)[instance])

    def _show_step(self):
        if not self.steps or self.attr_x is None:
            self.scatter.clear_step()
            return
        step = self.steps[-1]
        colour = self.data.domain.class_var.colors[
            self._class_of(step.reference)]
        x, y = self._coordinates()
        self.scatter.show_step(x, y, step.reference, step.neighbours,
                               step.is_hit, QColor(*colour))

    def _show_table(self):
        """This step's multipliers, diffs, update and the running weights."""
        table = self.table
        table.clear()
        if not self.steps:
            table.setRowCount(0)
            table.setColumnCount(0)
            self.step_label.setText("No steps yet: press Step or Run, or "
                                    "click a point."
                                    if self.stepper is not None else "")
            return
        step = self.steps[-1]
        attributes = self.data.domain.attributes
        weights = self.stepper.weights(self.steps)
        values = self.data.domain.class_var.values
        headers, tips = [], []
        for number, (j, klass) in enumerate(zip(step.neighbours,
                                                step.classes)):
            kind = "hit" if step.is_hit[number] else "miss"
            rank = (step.classes[:number + 1] == klass).sum()
            headers.append(f"{kind} {rank}\n{self._row_name(j)}\n"
                           f"(class {values[klass]})")
            tips.append(f"diff(A, reference, near {kind}), times "
                        f"{step.coefficients[number]:+.4f} in the update")
        headers += ["update", "weight"]
        tips += ["This step's move of each weight: the diffs times their "
                 "multipliers, added (a hit's diff lowers the weight, a "
                 "miss's raises it).",
                 f"The mean of the {len(self.steps)} steps' updates."]
        table.setColumnCount(len(headers))
        table.setRowCount(len(attributes) + 1)
        for column, (header, tip) in enumerate(zip(headers, tips)):
            item = QTableWidgetItem(header)
            item.setToolTip(tip)
            table.setHorizontalHeaderItem(column, item)
        table.setVerticalHeaderLabels(
            ["multiplier"] + [attr.name for attr in attributes])
        for column, value in enumerate(step.coefficients):
            styled(self._set_cell(0, column, f"{value:+.3f}"), italic=True)
        n_diffs = len(step.neighbours)
        for row, numbers in enumerate(
                np.column_stack([step.diffs, step.update, weights]), start=1):
            for column, value in enumerate(numbers):
                self._set_cell(row, column, f"{value:.3f}")
            if step.update[row - 1]:
                update = self.table.item(row, n_diffs)
                styled(update, bold=True)
                update.setBackground(
                    QBrush(UP if step.update[row - 1] > 0 else DOWN))
        self.step_label.setText(
            f"Step {len(self.steps)}: reference "
            f"{self._row_name(step.reference)} (class "
            f"{values[self._class_of(step.reference)]}), "
            f"{len(step.hits)} hit(s), {len(step.misses)} miss(es).")

    def _set_cell(self, row, column, text):
        item = QTableWidgetItem(text)
        item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
        self.table.setItem(row, column, item)
        return item

    def _show_weights(self):
        if not self.steps:
            self.bars.show_message("Press Step.")
            return
        attributes = self.data.domain.attributes
        weights = self.stepper.weights(self.steps)
        shown = np.arange(len(attributes))  # in the order of the data
        best = ""
        if len(attributes) > MAX_BARS:  # more would not be readable
            shown = np.argsort(-weights, kind="stable")[:MAX_BARS]
            best = f"best {MAX_BARS} of {len(attributes)}<br>"
        self.bars.set_weights(
            [attributes[i].name for i in shown], weights[shown],
            [f"{attributes[i].name}\nweight {weights[i]:.4f}"
             for i in shown],
            [is_relevant(attributes[i]) for i in shown])
        self.bars.getAxis("bottom").setLabel(
            f"weight, {best}{len(self.steps)} step(s)")

    def _send(self):
        if not self.steps:
            self.Outputs.weights.send(None)
            self.Outputs.neighbourhood.send(None)
            return
        step = self.steps[-1]
        self.Outputs.weights.send(weights_table(
            self.data.domain.attributes, self.stepper.weights(self.steps)))
        rows = np.concatenate([[step.reference], step.neighbours])
        subset = self.data[rows]
        subset.name = "Neighbourhood"
        self.Outputs.neighbourhood.send(subset)

    # --- widget life ------------------------------------------------------

    def send_report(self):
        variant = VARIANTS[self.variant_index]
        items = [("Method", variant)]
        if variant == "ReliefF":
            items.append(("Neighbours per class (k)", self.k_nearest))
        items.append(("Next reference",
                      f"random (seed {self.random_seed})" if self.sampled
                      else "in order"))
        items.append(("Steps", len(self.steps)))
        self.report_items("Settings", items)
        if self.data is None:
            return
        self.report_data("Data", self.data)
        self.report_plot("Instances", self.scatter.plotItem)
        if self.steps:
            self.report_caption(self.step_label.text())
            self.report_table("This step", self.table)
            self.report_plot("Weights", self.bars.plotItem)

    def onDeleteWidget(self):
        self.timer.stop()
        super().onDeleteWidget()


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief.generators import parity
    WidgetPreview(OWReliefSteps).run(parity(64, seed=0))
