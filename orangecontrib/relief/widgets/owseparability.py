"""The Separability widget: ReliefF, dReliefF and pdReliefF on the artificial
problems of Prat & Belanche (2006), their Fig. 7 and 8."""
import numpy as np
import pyqtgraph as pg

from AnyQt.QtWidgets import QGridLayout, QListWidget, QListWidgetItem
from AnyQt.QtCore import Qt

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Msg, Output, OWWidget

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.experiments import separability as sep
from orangecontrib.relief.generators import GENERATORS
from orangecontrib.relief.widgets.common import (
    PlainPlot, engine_status, known_flags, shut_down_at_once, within_ranges)

#: setting, label, lowest and highest value of the design's controls
DESIGN = (("max_relevant", "Relevant attributes, up to:", 1, 50),
          ("irrelevant_factor", "Irrelevant per relevant, up to:", 1, 5),
          ("n_datasets", "Data sets per combination:", 1, 100),
          ("n_instances", "Instances:", 10, 10000),
          ("k_nearest", "Neighbours (k):", 1, 100),
          ("seed", "Random seed:", 0, 2 ** 31 - 1))
#: what each control of the design does
DESIGN_TIPS = {
    "max_relevant": "Data sets are made with 1, 2, ... up to this many "
                    "relevant attributes (the paper: 50).",
    "irrelevant_factor": "For n relevant attributes, data sets get 1, 2, "
                         "... up to this many times n irrelevant ones (the "
                         "paper: 2; Prat & Belanche 2006, section 5).",
    "n_datasets": "How many random data sets are weighted for every number "
                  "of relevant and irrelevant attributes (the paper: 10).",
    "n_instances": "Instances of each generated data set.",
    "k_nearest": "How many nearest hits, and nearest misses of each other "
                 "class, the three ReliefF variants take.",
    "seed": "Seed of the generated data: the same seed, the same curves."}
#: what the plots show (their tooltips)
PLOT_TIPS = (
    "Separability: the largest weight of a relevant attribute minus the "
    "largest weight of an irrelevant one, the mean over the data sets with "
    "that many attributes. Above 0 the best attribute is a relevant one "
    "(Prat & Belanche 2006, eq. 5.1 and Fig. 7).",
    "Accumulated separability: the running sum of the separability from "
    "the fewest attributes on; a higher, steeper curve is a better "
    "algorithm (Prat & Belanche 2006, Fig. 8).")

PENS = {name: pg.mkPen(colour, width=2)
        for name, colour in sep.COLOURS.items()}


def legend_html():
    """The algorithms' names beside their curves' colours: the legend, in
    the plots' titles (where it covers no curve)."""
    return "&nbsp;&nbsp;&nbsp;".join(
        f'<span style="color:{colour}">&#9472;&#9472;</span> {name}'
        for name, colour in sep.COLOURS.items())


def run_design(settings, state: TaskState):
    """Run the design of `settings` in a worker thread, reporting progress
    to `state`."""
    def progress(fraction):
        state.set_progress_value(100 * fraction)

    state.set_status(engine_status("Weighting ...",
                                   not engines.preparation.is_ready()))
    return sep.run(settings, progress_callback=progress,
                   should_stop=state.is_interruption_requested)


def results_table(results):
    """The results as an Orange table: one row per data set."""
    problems = list(dict.fromkeys(results.columns["problem"]))
    problem_var = DiscreteVariable("problem", values=problems)
    numbers = [ContinuousVariable(name, number_of_decimals=0)
               for name in ("n_relevant", "n_irrelevant", "n_attributes",
                            "dataset")]
    algorithms = [ContinuousVariable(name) for name in sep.ALGORITHMS]
    domain = Domain([problem_var] + numbers + algorithms)
    columns = results.columns
    problem_codes = np.array([problems.index(p) for p in columns["problem"]])
    X = np.column_stack(
        [problem_codes] + [columns[var.name] for var in numbers + algorithms])
    table = Table.from_numpy(domain, X.astype(float))
    table.name = "Separability"
    return table


class CurvesPlot(PlainPlot):
    """One curve per algorithm against the number of attributes, the
    legend in the title; before there are curves, a message and no
    axes."""

    def __init__(self, parent, y_label):
        super().__init__(parent, interactive=True, grid_y=True)
        item = self.getPlotItem()
        item.setLabel("bottom", "attributes (relevant + irrelevant)")
        item.setLabel("left", y_label)
        self.message = pg.TextItem(anchor=(0.5, 0.5), color="#606060")
        self.curves = []

    def set_curves(self, x, per_algorithm, which, title):
        self.clear()
        self.curves = []
        self._show_axes(True)
        # the problem above the legend: on one line they would not fit
        # the window the canvas opens on a projector
        self.getPlotItem().setTitle(f"{title}<br/>{legend_html()}")
        self.addItem(pg.InfiniteLine(0, angle=0, pen=pg.mkPen("#999999")))
        for name in sep.ALGORITHMS:
            curve = self.plot(x, per_algorithm[name][which], pen=PENS[name],
                              name=name)
            self.curves.append(curve)
        self.enableAutoRange()

    def clear_curves(self, message="Press Run to compute the curves."):
        """No curves: a `message` in the middle, no axes."""
        self.clear()
        self.curves = []
        self.getPlotItem().setTitle(None)
        self._show_axes(False)
        self.message.setText(message)
        self.addItem(self.message)
        self.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
        self.message.setPos(0.5, 0.5)

    def _show_axes(self, shown):
        for name in ("left", "bottom"):
            self.getPlotItem().showAxis(name, shown)


class OWSeparability(OWWidget, ConcurrentWidgetMixin):
    name = "Separability"
    description = ("Compare ReliefF, double ReliefF and progressively "
                   "weighted double ReliefF: how well they separate "
                   "relevant from irrelevant attributes of artificial "
                   "problems as irrelevant attributes are added.")
    icon = "icons/Separability.svg"
    priority = 30
    settings_version = 1
    keywords = "separability, drelieff, pdrelieff, double relief, experiment"

    class Outputs:
        results = Output("Results", Table)

    class Error(OWWidget.Error):
        failed = Msg("{}")

    class Information(OWWidget.Information):
        cancelled = Msg("The run was stopped; no results.")
        preparing = Msg("{}")

    problems = Setting(list(sep.PROBLEMS))
    max_relevant = Setting(5)
    irrelevant_factor = Setting(2)
    n_datasets = Setting(3)
    n_instances = Setting(100)
    k_nearest = Setting(10)
    seed = Setting(0)
    shown_problem = Setting(0)

    graph_name = "plot_separability.plotItem"

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        # stored settings of another version or edited by hand
        if not isinstance(self.problems, list):
            self.problems = list(sep.PROBLEMS)
        self.problems = [name for name in self.problems
                         if name in sep.PROBLEMS]
        known_flags(self)
        within_ranges(self, {"shown_problem": (0, len(sep.PROBLEMS) - 1)}
                      | {name: (low, high) for name, _, low, high in DESIGN})
        self.results = None
        self.curve_data = {}
        self._build_controls()
        grid = QGridLayout()
        self.plot_separability = CurvesPlot(self, "separability")
        self.plot_accumulated = CurvesPlot(self, "accumulated separability")
        for row, (plot, tip) in enumerate(zip(
                (self.plot_separability, self.plot_accumulated), PLOT_TIPS)):
            plot.setToolTip(tip)
            plot.clear_curves()
            grid.addWidget(plot, row, 0)
        self.mainArea.layout().addLayout(grid)
        self._update_design_info()

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Problems")
        self.problem_list = QListWidget()
        self.problem_list.setMaximumHeight(130)
        for name in sep.PROBLEMS:
            generator = GENERATORS[name]
            item = QListWidgetItem(f"{name}: {generator.short}")
            item.setToolTip(f"{generator.description} (Called "
                            f"{sep.PAPER_NAMES[name]} in Prat & Belanche's "
                            f"Fig. 7 and 8.)")
            item.setData(Qt.UserRole, name)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if name in self.problems
                               else Qt.Unchecked)
            self.problem_list.addItem(item)
        self.problem_list.setToolTip(
            "The artificial problems to run (the same names as in the "
            "Relief Data Generator and on the command line); hover over "
            "one for how its class depends on its attributes.")
        self.problem_list.itemChanged.connect(self._on_problems_changed)
        box.layout().addWidget(self.problem_list)

        box = gui.vBox(self.controlArea, "Design")
        for name, label, low, high in DESIGN:
            gui.spin(box, self, name, low, high, label=label,
                     callback=self._update_design_info, controlWidth=70,
                     tooltip=DESIGN_TIPS[name])
        self.design_info = gui.widgetLabel(box, "")
        self.run_button = gui.button(
            self.controlArea, self, "Run", callback=self.toggle_run,
            tooltip="Generate the data sets of the design, weight their "
                    "attributes with ReliefF, dReliefF and pdReliefF and "
                    "plot the curves (in the background; press again to "
                    "stop).")

        box = gui.vBox(self.controlArea, "Plot")
        self.shown_combo = gui.comboBox(
            box, self, "shown_problem", callback=self._show_curves,
            tooltip="The problem whose curves the plots show.")
        gui.rubber(self.controlArea)

    def _on_problems_changed(self):
        self.problems = [
            self.problem_list.item(row).data(Qt.UserRole)
            for row in range(self.problem_list.count())
            if self.problem_list.item(row).checkState() == Qt.Checked]
        self._update_design_info()

    def design(self):
        """The design of the controls, or None without problems."""
        if not self.problems:
            return None
        return sep.Settings(problems=tuple(self.problems),
                            max_relevant=self.max_relevant,
                            irrelevant_factor=self.irrelevant_factor,
                            n_datasets=self.n_datasets,
                            n_instances=self.n_instances,
                            k_nearest=self.k_nearest, seed=self.seed)

    def _update_design_info(self):
        design = self.design()
        if design is None:
            self.design_info.setText("Choose at least one problem.")
        else:
            self.design_info.setText(
                f"{design.n_runs} data sets, each weighted by "
                f"{len(sep.ALGORITHMS)} algorithms")
        self.run_button.setEnabled(design is not None or self.task is not None)

    # --- running ----------------------------------------------------------

    def toggle_run(self):
        """Start a run, or stop the one in progress."""
        if self.task is not None:
            self.cancel()
            self.Information.cancelled()
            self._set_running(False)
            self.set_results(None)  # no results shown or sent after a stop
            return
        design = self.design()
        if design is None:
            return
        self.Error.clear()
        self.Information.clear()
        if not engines.preparation.is_ready():
            self.Information.preparing(engines.preparation_status())
        self._set_running(True)
        for plot in (self.plot_separability, self.plot_accumulated):
            plot.clear_curves("Computing ...")
        self.start(run_design, design)

    def _set_running(self, running):
        if not running:
            self.Information.preparing.clear()
        self.run_button.setText("Stop" if running else "Run")
        self._update_design_info()

    def on_done(self, result):
        self._set_running(False)
        self.set_results(result)

    def on_exception(self, ex):
        self._set_running(False)
        if isinstance(ex, Interrupted):
            self.Information.cancelled()
            self.set_results(None)
            return
        self.Error.failed(str(ex))

    def on_partial_result(self, result):
        pass

    def set_results(self, results):
        """Show and send `results` (None clears)."""
        self.results = results
        self.curve_data = {} if results is None else sep.curves(results)
        self.shown_combo.clear()
        self.shown_combo.addItems(
            list(self.curve_data))
        if self.curve_data:
            self.shown_problem = min(self.shown_problem,
                                     len(self.curve_data) - 1)
            self.shown_combo.setCurrentIndex(self.shown_problem)
        self._show_curves()
        self.Outputs.results.send(
            None if results is None else results_table(results))

    def _show_curves(self):
        if not self.curve_data:
            self.plot_separability.clear_curves()
            self.plot_accumulated.clear_curves()
            return
        problem = list(self.curve_data)[self.shown_problem]
        x, per_algorithm = self.curve_data[problem]
        title = problem
        self.plot_separability.set_curves(x, per_algorithm, 0, title)
        self.plot_accumulated.set_curves(x, per_algorithm, 1, title)

    # --- widget life ------------------------------------------------------

    def send_report(self):
        design = self.design()
        if design is not None:
            self.report_items("Design", [
                ("Problems", ", ".join(design.problems)),
                ("Relevant attributes", f"1 to {design.max_relevant}"),
                ("Irrelevant attributes",
                 f"1 to {design.irrelevant_factor} times the relevant"),
                ("Data sets per combination", design.n_datasets),
                ("Instances", design.n_instances),
                ("Neighbours (k)", design.k_nearest)])
        shown = self.shown_problem
        for self.shown_problem, problem in enumerate(self.curve_data):
            self._show_curves()
            self.report_plot(f"Separability, {problem}",
                             self.plot_separability.plotItem)
            self.report_plot(f"Accumulated separability, {problem}",
                             self.plot_accumulated.plotItem)
        self.shown_problem = shown
        self._show_curves()

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWSeparability).run()
