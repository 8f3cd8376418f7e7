"""The Relief widget: weight attributes with Relief, ReliefF or RReliefF."""
import numpy as np
import pyqtgraph as pg

from AnyQt.QtWidgets import QStackedWidget

from Orange.data import ContinuousVariable, Domain, StringVariable, Table
from Orange.preprocess.score import Scorer
from Orange.statistics.util import countnans
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.core import engine
from orangecontrib.relief.core.options import DIFF, RANDOM_STATE, T_DIFF, T_EQ
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.variants import (
    DEFAULT_K, DIFFS, K_SHARED, METHODS, default_method, fitting_methods,
    make_scorer)
from orangecontrib.relief.widgets.common import (
    NO_CLASS, PlainPlot, known_choices, shut_down_at_once, within_ranges,
    work_progress)

#: The plot shows at most this many of the best attributes.
MAX_BARS = 50
#: The setting holding k of each variant that takes k, in the order of the
#: pages of the k control (whose last page is for Relief).
K_SETTINGS = {"ReliefF": "k_relieff", "RReliefF": "k_rrelieff"}
POSITIVE_BRUSH = pg.mkBrush("#1f77b4")
NEGATIVE_BRUSH = pg.mkBrush("#a0a0a0")


def compute_weights(scorer, data, state: TaskState):
    """Return the weights of `scorer` on `data` (runs in a worker thread).

    The core reports the fraction of the neighbour search done; the task
    shows it as progress and stops there once the widget cancelled it.
    """
    with work_progress(state, "Weighting attributes ...", data.X,
                       scorer.n_iterations) as progress:
        return np.asarray(scorer(data, progress_callback=progress),
                          dtype=float)


def weights_table(attributes, weights):
    """Return a table with one row per attribute, best weight first.

    Columns: the numeric "weight" and the attribute name as a string meta.
    """
    order = np.argsort(-weights, kind="stable")
    domain = Domain([ContinuousVariable("weight")],
                    metas=[StringVariable("attribute")])
    names = np.array([[attributes[i].name] for i in order], dtype=object)
    table = Table.from_numpy(domain, weights[order][:, None], metas=names)
    table.name = "Relief weights"
    return table


class WeightsPlot(PlainPlot):
    """Horizontal bars of attribute weights, the best attribute on top."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.getPlotItem().getAxis("bottom").setLabel("weight")
        self.getViewBox().invertY(True)

    def set_weights(self, names, weights):
        """Show the attributes `names` with their `weights` (best first)."""
        self.clear()
        brushes = [POSITIVE_BRUSH if w >= 0 else NEGATIVE_BRUSH
                   for w in weights]
        positions = np.arange(len(weights))
        self.addItem(pg.BarGraphItem(
            x0=0, y=positions, width=weights, height=0.7, brushes=brushes,
            pen=pg.mkPen(None)))
        self.getAxis("left").setTicks([list(zip(positions, names)), []])
        self.setYRange(-0.5, len(weights) - 0.5, padding=0.02)
        low, high = min(0.0, np.min(weights)), max(0.0, np.max(weights))
        self.setXRange(low, high if high > low else low + 1)

    def clear_weights(self):
        """Remove the bars and the attribute names."""
        self.clear()
        self.getAxis("left").setTicks(None)


class OWRelief(OWWidget, ConcurrentWidgetMixin):
    name = "Relief"
    description = ("Weight attributes by how well they tell near instances "
                   "of different classes (or targets) apart: Relief, "
                   "ReliefF, RReliefF.")
    icon = "icons/Relief.svg"
    priority = 10
    settings_version = 1
    keywords = "relief, relieff, rrelieff, feature weighting, rank, scorer"

    class Inputs:
        data = Input("Data", Table)

    class Outputs:
        scorer = Output("Scorer", Scorer)
        weights = Output("Weights", Table)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        relief = Msg("{}")

    class Warning(OWWidget.Warning):
        missing_class = Msg("{} instance(s) with an unknown class are "
                            "skipped.")
        empty_columns = Msg("Attribute(s) without known values get weight "
                            "0: {}")

    class Information(OWWidget.Information):
        preparing = Msg(engine.PREPARING)

    method = Setting("ReliefF")
    k_relieff = Setting(DEFAULT_K["ReliefF"])
    k_rrelieff = Setting(DEFAULT_K["RReliefF"])
    sample_references = Setting(False)
    n_iterations = Setting(100)
    random_seed = Setting(RANDOM_STATE)
    diff = Setting(DIFF)
    t_eq = Setting(T_EQ)
    t_diff = Setting(T_DIFF)
    auto_apply = Setting(True)

    graph_name = "plot.plotItem"

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        known_choices(self, {"method": METHODS, "diff": DIFFS})
        within_ranges(self, {"k_relieff": (1, 10000), "k_rrelieff": (1, 10000),
                             "n_iterations": (1, 1000000),
                             "random_seed": (0, 2 ** 31 - 1),
                             "t_eq": (0.0, 1.0), "t_diff": (0.0, 1.0)})
        self.data = None
        self.weights = None
        self._build_controls()
        self.plot = WeightsPlot(self)
        self.mainArea.layout().addWidget(self.plot)
        self.plot_info = gui.widgetLabel(self.mainArea, "")
        self._update_controls()

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Method")
        self.method_combo = gui.comboBox(
            box, self, "method", items=list(METHODS), sendSelectedValue=True,
            callback=self._on_option_changed)
        self.k_stack = QStackedWidget()
        box.layout().addWidget(self.k_stack)
        for setting in K_SETTINGS.values():
            page = gui.hBox(None)
            gui.spin(page, self, setting, 1, 10000, label="Neighbours (k):",
                     callback=self.commit.deferred)
            self.k_stack.addWidget(page)
        self.k_stack.addWidget(
            gui.widgetLabel(None, "One nearest hit and miss."))

        box = gui.vBox(self.controlArea, "References")
        gui.spin(box, self, "n_iterations", 1, 1000000,
                 checked="sample_references", label="Sampled references:",
                 callback=self.commit.deferred,
                 checkCallback=self._on_option_changed)
        self.seed_spin = gui.spin(
            box, self, "random_seed", 0, 2 ** 31 - 1, label="Random seed:",
            callback=self.commit.deferred)
        gui.widgetLabel(box, "Unchecked: every instance once.")

        box = gui.vBox(self.controlArea, "Numeric difference")
        gui.comboBox(box, self, "diff", items=DIFFS, sendSelectedValue=True,
                     callback=self._on_option_changed)
        self.ramp_spins = [
            gui.doubleSpin(box, self, setting, 0, 1, 0.01, label=label,
                           decimals=3, callback=self.commit.deferred)
            for setting, label in (("t_eq", "Equal up to (t_eq):"),
                                   ("t_diff", "Different from (t_diff):"))]

        gui.rubber(self.controlArea)
        gui.auto_apply(self.buttonsArea, self, "auto_apply")

    def _update_controls(self):
        """Enable the controls that apply to the current options."""
        fitting = (fitting_methods(self.data.domain.class_var)
                   if self.data is not None else list(METHODS))
        model = self.method_combo.model()
        for row, name in enumerate(METHODS):
            model.item(row).setEnabled(name in fitting)
            model.item(row).setToolTip(
                "" if name in fitting else "Does not fit the class of the "
                "data: Relief needs exactly two classes, RReliefF a numeric "
                "class, the others a categorical one.")
        pages = list(K_SETTINGS)
        page = K_SHARED.get(self.method, self.method)
        self.k_stack.setCurrentIndex(
            pages.index(page) if page in pages else len(pages))
        self.seed_spin.setEnabled(self.sample_references)
        for spin in self.ramp_spins:
            spin.setEnabled(self.diff == "ramp")

    def _on_option_changed(self):
        self._update_controls()
        self.commit.deferred()

    # --- input ------------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        """Check the data, pick a fitting variant and schedule the scoring."""
        self.cancel()
        self.Error.clear()
        self.Warning.clear()
        self.data = data
        if data is not None:
            self._check_data(data)
        self._update_controls()
        self._clear_results()
        self.commit.now()

    def _check_data(self, data):
        """Show messages about `data`; choose a variant fitting its class."""
        class_var = data.domain.class_var
        if class_var is None:
            self.Error.no_class()
            return
        if self.method not in fitting_methods(class_var):
            self.method = default_method(class_var)
        n_missing = int(np.sum(np.isnan(data.get_column(class_var))))
        self.Warning.missing_class(n_missing, shown=n_missing > 0)
        if len(data):
            unknown = countnans(data.X, axis=0) == len(data)
            names = [attr.name for attr, empty
                     in zip(data.domain.attributes, unknown) if empty]
            self.Warning.empty_columns(", ".join(names), shown=bool(names))

    def _can_score(self):
        return self.data is not None and not self.Error.no_class.is_shown()

    # --- output -----------------------------------------------------------

    def _k_nearest(self):
        """Return k of the current variant, None for Relief."""
        setting = K_SETTINGS.get(K_SHARED.get(self.method, self.method))
        return None if setting is None else getattr(self, setting)

    def make_scorer(self):
        """Return the scorer configured by the controls."""
        return make_scorer(
            self.method, k_nearest=self._k_nearest(),
            n_iterations=self.n_iterations if self.sample_references else None,
            random_state=self.random_seed, diff=self.diff, t_eq=self.t_eq,
            t_diff=self.t_diff)

    @gui.deferred
    def commit(self):
        """Send the scorer and, given usable data, start computing weights."""
        self.cancel()
        self.Error.relief.clear()
        scorer = self.make_scorer()
        self.Outputs.scorer.send(RankScorer(scorer))
        self.Information.preparing.clear()
        if self._can_score():
            self.Information.preparing(shown=engine.needs_compiling(
                self.data.X, scorer.n_iterations))
            self.start(compute_weights, scorer, self.data)
        else:
            self._clear_results()

    def on_done(self, result):
        self.Information.preparing.clear()
        self.weights = result
        self._show_weights()
        self.Outputs.weights.send(
            weights_table(self.data.domain.attributes, result))

    def on_exception(self, ex):
        self.Information.preparing.clear()
        if not isinstance(ex, ValueError):  # ReliefInputError and the like
            raise ex
        self.Error.relief(str(ex))
        self._clear_results()

    def on_partial_result(self, result):
        pass

    def _show_weights(self):
        order = np.argsort(-self.weights, kind="stable")[:MAX_BARS]
        names = [self.data.domain.attributes[i].name for i in order]
        self.plot.set_weights(names, self.weights[order])
        n_attributes = len(self.weights)
        self.plot_info.setText(
            f"The {len(order)} best of {n_attributes} attributes."
            if n_attributes > MAX_BARS else "")

    def _clear_results(self):
        self.weights = None
        self.plot.clear_weights()
        self.plot_info.setText("")
        self.Outputs.weights.send(None)

    # --- widget life ------------------------------------------------------

    def send_report(self):
        items = [("Method", self.method)]
        if self._k_nearest() is not None:
            items.append(("Neighbours (k)", self._k_nearest()))
        items.append(("References",
                      f"{self.n_iterations} sampled (seed {self.random_seed})"
                      if self.sample_references else "every instance"))
        diff = self.diff
        if diff == "ramp":
            diff += f" (t_eq {self.t_eq:g}, t_diff {self.t_diff:g})"
        items.append(("Numeric difference", diff))
        self.report_items("Settings", items)
        if self.data is not None:
            self.report_data("Data", self.data)
        if self.weights is not None:
            self.report_plot("Weights", self.plot.plotItem)

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief.datasets import path
    WidgetPreview(OWRelief).run(Table(path("heart_disease")))
