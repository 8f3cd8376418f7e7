"""The Selection Curve widget: how many of the best attributes to keep, by
a learner's cross-validated score, the attributes ranked inside each
fold."""
import numpy as np
import pyqtgraph as pg

from AnyQt.QtCore import Qt

from Orange.base import Learner
from Orange.data import Domain, Table
from Orange.preprocess.preprocess import Preprocess
from Orange.preprocess.score import Scorer
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.core.options import N_FOLDS
from orangecontrib.relief.curve import (LOG_SCALE_FROM, SCORES,
                                        default_score, selection_curve)
from orangecontrib.relief.preprocess import SelectReliefFeatures
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.resampled import attribute_scores
from orangecontrib.relief.scorers import VLS, MultiSURF, ReliefF, TuRF, fits
from orangecontrib.relief.core.registry import TURF as TURF_VARIANT
from orangecontrib.relief.core.registry import VLS as VLS_VARIANT
from orangecontrib.relief.variants import (METHOD_GROUPS, METHODS,
                                           default_method, fitting_methods,
                                           make_scorer)
from orangecontrib.relief.widgets.common import (
    NO_CLASS, GroupedComboBox, PlainPlot, known_choices, known_flags,
    shut_down_at_once, start_over, task_progress, with_class_and_attributes,
    within_ranges)

#: the methods of the combo: the variants, TuRF around MultiSURF and VLS
#: around ReliefF (name -> the wrapper and the scorer it wraps)
TURF = "TuRF (MultiSURF)"
VLS_RELIEFF = "VLS (ReliefF)"
WRAPPED = {TURF: (TuRF, MultiSURF), VLS_RELIEFF: (VLS, ReliefF)}
METHOD_NAMES = list(METHODS) + list(WRAPPED)
KEEP_LABELS = ("Fewest as good as the best", "This many:")
#: the words of the scores (:data:`SCORES`)
SCORE_LABELS = {"CA": "Accuracy", "AUC": "Area under ROC", "R2": "R\u00b2"}
MEAN_PEN = pg.mkPen("#1f77b4", width=2)
BAND_BRUSH = pg.mkBrush(31, 119, 180, 50)
MARK_PEN = pg.mkPen("#d62728", width=2)
TURF_PEN = pg.mkPen("#2ca02c", width=1.5)


def make_method(name):
    """The scorer of the combo's method `name` (defaults of the variant)."""
    if name in WRAPPED:
        wrapper, scorer = WRAPPED[name]
        return wrapper(scorer())
    return make_scorer(name)


def method_fits(name, class_var):
    """Whether the combo's method `name` can rank data with `class_var`."""
    return (fits(WRAPPED[name][1], class_var) if name in WRAPPED
            else name in fitting_methods(class_var))


def scorer_name(scorer):
    """A scorer's name: its column's in Rank, else its own."""
    return (getattr(scorer, "name", None)
            or getattr(scorer, "friendly_name", type(scorer).__name__))


def compute_curve(data, learner, scorer, score, n_folds, state: TaskState):
    """The selection curve and the attributes' scores on all the data
    (runs in a worker thread; the progress bar follows the folds, and a
    cancelled task stops at the next fit)."""
    state.set_status("Cross-validating ...")
    curve = selection_curve(data, learner, scorer, score=score,
                            n_folds=n_folds,
                            progress_callback=task_progress(state, 0, 0.95))
    state.set_status("Ranking on all the data ...")
    return curve, attribute_scores(scorer, data)


def curve_legend(turf):
    """The plot's legend (in its title)."""
    first = ['<span style="color:#1f77b4">&#9473;</span> mean score',
             '<span style="color:#7fafd6">&#9608;</span> \u00b1 standard '
             'error over the folds',
             '<span style="color:#808080">&#9477;</span> best \u2212 '
             'standard error']
    second = ['<span style="color:#d62728">&#9675;</span> best',
              '<span style="color:#d62728">&#9679;</span> chosen',
              '<span style="color:#404040">&#9474;</span> kept']
    if turf:
        second.append('<span style="color:#2ca02c">&#9633;</span> '
                      "TuRF's rounds")
    return "&nbsp;&nbsp;".join(first) + "<br>" + "&nbsp;&nbsp;".join(second)


def log_ticks(high):
    """Ticks at 1, 2, 3, 5, 10, 20, 30, 50, ... up to `high` (a count has
    no 2.5), as (position on a log10 axis, label)."""
    ticks, decade = [], 1
    while decade <= high:
        ticks += [(np.log10(value), str(value))
                  for value in (decade, 2 * decade, 3 * decade, 5 * decade)
                  if value <= high]
        decade *= 10
    return ticks


class CurvePlot(PlainPlot):
    """The mean score against the number of attributes kept, in a band of
    one standard error, on a log scale from :data:`LOG_SCALE_FROM`
    attributes on; a click on the plot chooses a count."""

    def __init__(self, parent=None, clicked=None):
        super().__init__(parent, grid_y=True)
        self.clicked = clicked
        self.counts = None
        self.log = False
        item = self.getPlotItem()
        item.getAxis("bottom").setLabel("attributes kept")
        self.scene().sigMouseClicked.connect(self._click)

    def position(self, counts):
        """Where `counts` lie on the horizontal axis."""
        counts = np.asarray(counts, dtype=float)
        return np.log10(counts) if self.log else counts

    def set_curve(self, curve, kept):
        """Show `curve`, with a line at the `kept` count."""
        self.clear()
        self.counts = curve.counts
        self.log = bool(curve.counts[-1] >= LOG_SCALE_FROM)
        x = self.position(curve.counts)
        upper = pg.PlotCurveItem(x, curve.mean + curve.error, pen=None)
        lower = pg.PlotCurveItem(x, curve.mean - curve.error, pen=None)
        self.addItem(pg.FillBetweenItem(upper, lower, brush=BAND_BRUSH))
        self.plot(x, curve.mean, pen=MEAN_PEN, symbol="o", symbolSize=5,
                  symbolBrush="#1f77b4", symbolPen=None)
        at = list(curve.counts).index
        best = at(curve.best)
        self.addItem(pg.InfiniteLine(
            curve.mean[best] - curve.error[best], angle=0,
            pen=pg.mkPen("#808080", style=Qt.DashLine)))
        self.plot(self.position([curve.best]), [curve.mean[best]], pen=None,
                  symbol="o", symbolSize=13, symbolBrush=None,
                  symbolPen=MARK_PEN)
        self.plot(self.position([curve.chosen]),
                  [curve.mean[at(curve.chosen)]], pen=None, symbol="o",
                  symbolSize=9, symbolBrush="#d62728", symbolPen=None)
        if curve.turf_counts is not None:
            rounds = [at(count) for count in curve.turf_counts]
            self.plot(self.position(curve.turf_counts), curve.mean[rounds],
                      pen=TURF_PEN, symbol="s", symbolSize=9,
                      symbolBrush=None, symbolPen=TURF_PEN)
        self.addItem(pg.InfiniteLine(self.position([kept])[0], angle=90,
                                     pen=pg.mkPen("#404040", width=1)))
        self.getAxis("bottom").setTicks(
            [log_ticks(curve.counts[-1]), []] if self.log else None)
        self.getPlotItem().getAxis("left").setLabel(
            f"{curve.score} ({len(curve.folds)}-fold cross-validation)")
        self.setTitle(curve_legend(curve.turf_counts is not None),
                      color="#404040", size="9pt")
        self.setXRange(x[0], x[-1], padding=0.04)
        self.setYRange(np.nanmin(curve.mean - curve.error),
                       np.nanmax(curve.mean + curve.error), padding=0.08)

    def show_message(self, text):
        """No curve, only `text` as the title."""
        self.clear()
        self.counts = None
        self.setTitle(text, color="#606060")

    def _click(self, event):
        """Choose the count nearest the click (on the axis's scale)."""
        if self.counts is None or self.clicked is None:
            return
        x = self.getViewBox().mapSceneToView(event.scenePos()).x()
        nearest = int(np.argmin(np.abs(self.position(self.counts) - x)))
        self.clicked(int(self.counts[nearest]))


class OWSelectionCurve(OWWidget, ConcurrentWidgetMixin):
    name = "Selection Curve"
    description = ("How many of the best attributes to keep: a learner's "
                   "cross-validated score against their number, the "
                   "attributes ranked inside each fold.")
    icon = "icons/SelectionCurve.svg"
    priority = 15
    settings_version = 1
    keywords = ("selection curve, how many features, number of features, "
                "feature count, one standard error, cross-validation, turf")

    class Inputs:
        data = Input("Data", Table)
        learner = Input("Learner", Learner)
        scorer = Input("Scorer", Scorer)

    class Outputs:
        selected_data = Output("Selected Data", Table, default=True)
        preprocessor = Output("Preprocessor", Preprocess)
        curve = Output("Curve", Table)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        no_attributes = Msg("Data has no attributes.")
        curve = Msg("{}")

    class Warning(OWWidget.Warning):
        scorer_misfit = Msg("The scorer on the input cannot rank data with "
                            "this class; the method chosen here ranks.")

    class Information(OWWidget.Information):
        default_learner = Msg("No learner on the input: kNN is scored; "
                              "connect a learner to score another.")

    method = Setting("ReliefF")
    n_folds = Setting(N_FOLDS)
    score = Setting("CA")
    keep_index = Setting(0)
    n_keep = Setting(5)
    auto_apply = Setting(True)

    graph_name = "plot.plotItem"

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        known_choices(self, {"method": METHOD_NAMES, "score": SCORES})
        known_flags(self)
        within_ranges(self, {"n_folds": (2, 50), "keep_index": (0, 1),
                             "n_keep": (1, 100000)})
        self.data = self.learner = self.input_scorer = None
        self.result = None
        self._build_controls()
        self.plot = CurvePlot(self, clicked=self._on_plot_click)
        self.mainArea.layout().addWidget(self.plot)
        self.summary = gui.widgetLabel(self.mainArea, "")
        self.summary.setWordWrap(True)
        self.plot.show_message("No data.")
        self._update_controls()

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Ranking")
        self.method_combo = GroupedComboBox(
            [(heading, [(name, f"{name}: {METHODS[name].short}",
                         f"{name}: {METHODS[name].summary}.")
                        for name in names])
             for heading, names in METHOD_GROUPS]
            + [("Rounds", [(TURF, f"{TURF}: drops the worst, again and "
                                  f"again", f"TuRF: {TURF_VARIANT.summary}."),
                           (VLS_RELIEFF, f"{VLS_RELIEFF}: subsets that hold "
                                         f"every pair",
                            f"VLS: {VLS_VARIANT.summary}.")])],
            tooltip="The method that ranks the attributes on the training "
                    "part of each fold (its default settings; connect the "
                    "Relief widget's Scorer for others). TuRF drops the "
                    "worst half and ranks the rest again, round by round: "
                    "the plot marks the sets of its rounds. VLS ranks "
                    "subsets of a third of the attributes that hold every "
                    "pair together; an attribute's best weight counts.",
            names=True)
        self.method_combo.bind(self, "method", self._on_option_changed)
        box.layout().addWidget(self.method_combo)
        self.scorer_label = gui.widgetLabel(box, "")

        box = gui.vBox(self.controlArea, "Cross-validation")
        gui.spin(box, self, "n_folds", 2, 50, label="Folds:",
                 callback=self._on_option_changed,
                 tooltip="Folds of the stratified cross-validation; each "
                         "ranks the attributes on its training part only.")
        row = gui.hBox(box)
        gui.widgetLabel(row, "Score:")
        self.score_combo = GroupedComboBox(
            [(None, [(name, SCORE_LABELS[name], f"{name}: {words}.")
                     for name, (_, _, words) in SCORES.items()])],
            tooltip="How the learner's predictions on the test part of each "
                    "fold are scored: accuracy (the share classified "
                    "right), the area under the ROC curve (how well the "
                    "predicted probabilities order the classes, 0.5 by "
                    "chance) or, for a numeric class, R\u00b2 (the share "
                    "of the class's variance explained).")
        self.score_combo.bind(self, "score", self._on_option_changed)
        row.layout().addWidget(self.score_combo)

        box = gui.vBox(self.controlArea, "Keep")
        buttons = gui.radioButtons(box, self, "keep_index",
                                   callback=self._on_keep_changed)
        gui.appendRadioButton(
            buttons, KEEP_LABELS[0],
            tooltip="The fewest attributes whose mean score is within one "
                    "standard error of the best score: the smallest set "
                    "the folds cannot tell from the best (the hollow "
                    "circle is the best, the filled one the chosen).")
        row = gui.hBox(box)
        gui.appendRadioButton(
            buttons, KEEP_LABELS[1], insertInto=row,
            tooltip="Exactly the number beside, or the number clicked in "
                    "the plot.")
        gui.spin(row, self, "n_keep", 1, 100000,
                 callback=self._on_count_changed,
                 tooltip="Keep this many of the best attributes (a click "
                         "on the plot chooses too).")
        box.setToolTip("How many attributes the outputs keep: the fewest "
                       "whose mean score is within one standard error of "
                       "the best (the simplest the folds cannot tell from "
                       "the best), or the number chosen here. Selected "
                       "Data keeps the best by the ranking on all the "
                       "data; the Preprocessor ranks on the data it gets, "
                       "inside each fold of Test & Score.")

        gui.rubber(self.controlArea)
        gui.auto_apply(self.buttonsArea, self, "auto_apply")

    def _update_controls(self):
        class_var = None if self.data is None else self.data.domain.class_var
        for name in METHOD_NAMES:
            self.method_combo.item_of(name).setEnabled(
                class_var is None or method_fits(name, class_var))
        for name, (_, kind, _) in SCORES.items():
            self.score_combo.item_of(name).setEnabled(
                class_var is None or isinstance(class_var, kind))
        self.method_combo.select(self.method)
        self.score_combo.select(self.score)
        scorer = self._input_scorer()
        misfit = (scorer is not None and class_var is not None
                  and not fits(scorer, class_var))
        self.Warning.scorer_misfit(shown=misfit)
        self.method_combo.setEnabled(scorer is None or misfit)
        self.scorer_label.setText(
            "" if scorer is None or misfit else
            f"Ranked by the input's {scorer_name(self.input_scorer)}.")
        self.scorer_label.setVisible(bool(self.scorer_label.text()))
        self.Information.default_learner(shown=self.learner is None)

    def _on_option_changed(self):
        self._update_controls()
        self._start()

    def _on_keep_changed(self):
        if self.result is not None:
            self._show_curve()
        self.commit.deferred()

    def _on_count_changed(self):
        self.keep_index = 1
        self._on_keep_changed()

    def _on_plot_click(self, count):
        self.n_keep = count
        self._on_count_changed()

    # --- inputs -----------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        start_over(self)
        self.data = with_class_and_attributes(self, data)
        if self.data is not None:
            class_var = data.domain.class_var
            if not method_fits(self.method, class_var):
                self.method = default_method(class_var)
            if not isinstance(class_var, SCORES[self.score][1]):
                self.score = default_score(class_var)

    @Inputs.learner
    def set_learner(self, learner):
        self.learner = learner

    @Inputs.scorer
    def set_scorer(self, scorer):
        self.input_scorer = scorer

    def handleNewSignals(self):
        self._update_controls()
        self._start()

    # --- work -------------------------------------------------------------

    def _input_scorer(self):
        """The scorer on the input (the scorer inside the Relief widget's
        column for Rank), or None."""
        if isinstance(self.input_scorer, RankScorer):
            return self.input_scorer.scorer
        return self.input_scorer

    def _scorer(self):
        """The scorer that ranks: the input's where it fits the class."""
        scorer = self._input_scorer()
        if scorer is None or not fits(scorer, self.data.domain.class_var):
            return make_method(self.method)
        return scorer

    def _learner(self):
        if self.learner is not None:
            return self.learner
        from Orange.modelling import KNNLearner
        return KNNLearner()

    def _start(self):
        """Compute the curve anew (the inputs or its options changed)."""
        self.cancel()
        self.Error.curve.clear()
        self.result = None
        self.Outputs.curve.send(None)
        if self.data is None:
            self.plot.show_message("No data.")
            self.summary.setText("")
            self.commit.now()
            return
        self.plot.show_message("Computing ...")
        self.summary.setText("")
        self.start(compute_curve, self.data, self._learner(), self._scorer(),
                   self.score, self.n_folds)

    def on_done(self, result):
        self.result = result
        curve, _ = result
        self.Outputs.curve.send(curve.table())
        self._show_curve()
        self.commit.now()

    def on_exception(self, ex):
        if not isinstance(ex, ValueError):
            raise ex
        self.Error.curve(str(ex))
        self.plot.show_message("No curve.")
        self.summary.setText("")
        self.commit.now()

    def on_partial_result(self, result):
        pass

    def kept_count(self):
        """The number of attributes the output keeps."""
        curve, _ = self.result
        if self.keep_index == 0:
            return curve.chosen
        return min(self.n_keep, len(self.data.domain.attributes))

    def kept(self):
        """The indices of the attributes the output keeps, best first."""
        _, scores = self.result
        return SelectReliefFeatures(k=self.kept_count()).choose(scores)

    @gui.deferred
    def commit(self):
        """Send the data with the kept attributes (in their order) and the
        preprocessor that keeps as many, ranked on the data it gets."""
        if self.result is None:
            self.Outputs.selected_data.send(None)
            self.Outputs.preprocessor.send(None)
            return
        self.Outputs.preprocessor.send(SelectReliefFeatures(
            self._scorer(), k=self.kept_count()))
        keep = set(self.kept())
        domain = self.data.domain
        self.Outputs.selected_data.send(self.data.transform(
            Domain([a for i, a in enumerate(domain.attributes) if i in keep],
                   domain.class_vars, domain.metas)))

    def _show_curve(self):
        curve, _ = self.result
        count = self.kept_count()
        self.plot.set_curve(curve, count)
        names = [self.data.domain.attributes[i].name for i in self.kept()]
        self.summary.setText(
            f"Best mean {curve.score} with {curve.best} attributes; within "
            f"one standard error of it with {curve.chosen}. Kept: the best "
            f"{count} of {len(self.data.domain.attributes)} by the ranking "
            f"on all the data: {', '.join(names)}.")

    # --- widget life ------------------------------------------------------

    def send_report(self):
        ranking = self.method
        if self.data is not None and self._scorer() is self._input_scorer():
            ranking = scorer_name(self.input_scorer)
        items = [("Ranking", ranking),
                 ("Learner", getattr(self._learner(), "name", "kNN")),
                 ("Cross-validation", f"{self.n_folds} folds, {self.score}")]
        self.report_items("Settings", items)
        if self.data is not None:
            self.report_data("Data", self.data)
        if self.result is not None:
            self.report_plot("Selection curve", self.plot.plotItem)
            self.report_paragraph("Result", self.summary.text())

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief.datasets import path
    WidgetPreview(OWSelectionCurve).run(Table(path("ionosphere")))
