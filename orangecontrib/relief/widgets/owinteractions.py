"""The Interactions widget: which attributes act together, as the Relief
interaction map of the best attributes shows it (a heat map), and a pair
of them against each other."""
import html

import numpy as np
import scipy.sparse as sp

from AnyQt.QtCore import QSize, Qt
from AnyQt.QtWidgets import QSplitter

from Orange.data import ContinuousVariable, Domain, StringVariable, Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.core.interactions import (TOP_K, clustered_order,
                                                    strongest_pairs)
from orangecontrib.relief.core.options import (ADJUSTMENT, ALPHA,
                                               MAX_PERMUTATIONS,
                                               N_PERMUTATIONS, TIES)
from orangecontrib.relief.interactions import (MAP_METHODS, interactions,
                                               pairs_table)
from orangecontrib.relief.scorers import task_of
from orangecontrib.relief.variants import (DEFAULT_K, METHOD_GROUPS, METHODS,
                                           TAKE_TIES, TIE_RULES,
                                           default_method, fitting_methods,
                                           needs)
from orangecontrib.relief.widgets.common import (
    NO_CLASS, choice_combo, class_present, fitting_choice, item_tips,
    known_choices, known_flags, method_combo, scaled_font,
    show_fitting_methods, shut_down_at_once, start_over, within_ranges,
    work_progress)
from orangecontrib.relief.widgets.interaction_plots import (HeatMap,
                                                            PairPlot,
                                                            class_legend)
from orangecontrib.relief.widgets.owrelief import (ADJUSTMENT_LABELS,
                                                   ADJUSTMENTS, TIE_LABELS,
                                                   TIE_TIPS)

try:  # the Network output, where the Network add-on is installed
    from orangecontrib.network import Network
    from orangecontrib.network.network.base import UndirectedEdges
except ImportError:
    Network = None

#: the most attributes the map takes (a larger one is not readable)
MAX_TOP_K = 100
#: the methods whose neighbour pairs the map reads, as the Relief widget
#: groups them
MAP_GROUPS = tuple((heading, [name for name in names if name in MAP_METHODS])
                   for heading, names in METHOD_GROUPS)
#: the setting of the k of the methods that take one
K_SETTINGS = {"ReliefF": "k_relieff", "RReliefF": "k_rrelieff"}
#: the tests of the pairs, their labels and tooltips
TESTS = ("t", "permutation")
TEST_LABELS = {"t": "t test (quick)", "permutation": "Label permutations"}
TEST_TIPS = {
    "t": "A t of the pair's interaction over the instances whose "
         "neighbours make it: quick, but optimistic (an instance is the "
         "neighbour of many), so read it as a ranking; a categorical "
         "class only.",
    "permutation": "The map computed again for many random permutations "
                   "of the class (or of a numeric target): a pair is "
                   "marked when its interaction is beyond nearly all the "
                   "permuted ones. Holds its level, takes a while; "
                   "ReliefF searches the neighbours again for every "
                   "permutation."}
ADJUSTMENT_TIPS = ("Keeps the share of false discoveries among the marked "
                   "pairs below the level.",
                   "Keeps the chance of any false one below the level "
                   "(stricter).",
                   "Keeps the chance of any false one below the level "
                   "(the strictest).")


def compute_map(data, options, state):
    """The :class:`~orangecontrib.relief.interactions.TableInteractions` of
    `data` with `options` (runs in a worker thread; the core reports its
    progress, and stops there once the widget cancelled the task).
    `options["variant"]`, the registry's name of the method, says which
    parts of the compiled engine it waits for."""
    options = dict(options)
    parts = METHODS[options.pop("variant")].parts
    with work_progress(state, "Finding neighbours and mapping pairs ...",
                       data.X, parts=parts) as progress:
        return interactions(data, progress_callback=progress, **options)


def pair_data(data, first, second):
    """`data` with only the attributes `first` and `second` (the class and
    the meta attributes kept)."""
    return data.transform(Domain([first, second], data.domain.class_vars,
                                 data.domain.metas))


def interaction_network(found, alpha):
    """The mapped attributes as a network (orange3-network): a node per
    attribute (its name and weight), an edge of weight |interaction|
    between every two whose q is at most `alpha` or, on a map without a
    test, between the strongest pairs, as many as there are attributes."""
    result = found.map
    size = len(found.variables)
    first, second = np.triu_indices(size, 1)
    strength = np.abs(result.interaction[first, second])
    if result.test is None:
        keep = np.argsort(-strength, kind="stable")[:size]
    else:
        keep = np.flatnonzero(result.q[first, second] <= alpha)
    edges = sp.csr_matrix((strength[keep], (first[keep], second[keep])),
                          shape=(size, size))
    domain = Domain([ContinuousVariable("weight")],
                    metas=[StringVariable("attribute")])
    nodes = Table.from_numpy(
        domain, result.weights[result.attributes][:, None],
        metas=np.array([[var.name] for var in found.variables], object))
    return Network(nodes, UndirectedEdges(edges), name="interactions")


class OWInteractions(OWWidget, ConcurrentWidgetMixin):
    name = "Interactions"
    description = ("Which attributes act together: a heat map of the Relief "
                   "interaction map of the best attributes, with a test of "
                   "every pair; a click plots the pair (a mosaic of two "
                   "discrete attributes).")
    icon = "icons/Interactions.svg"
    priority = 12
    settings_version = 1
    keywords = ("interaction, epistasis, xor, pairs, heat map, relief, "
                "relieff, multisurf, surf, stir")

    class Inputs:
        data = Input("Data", Table)

    class Outputs:
        pairs = Output("Interactions", Table)
        selected_data = Output("Selected Pair", Table, default=True)
        if Network is not None:
            network = Output("Network", Network, auto_summary=False)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        few_attributes = Msg("The map needs at least two attributes; the "
                             "data have {}.")
        map = Msg("{}")

    class Warning(OWWidget.Warning):
        method_replaced = Msg("{} needs {}: the map uses {}.")
        missing_class = Msg("{} instance(s) with an unknown class are "
                            "skipped.")

    class Information(OWWidget.Information):
        top_k = Msg("The data have {1} attributes, fewer than the {0} "
                    "asked for: all are mapped.")
        untested = Msg("A numeric class: the pairs are not tested (the t "
                       "compares near instances of the same class with "
                       "those of other classes); the permutation test "
                       "tests them.")
        notes = Msg("{}")

    method = Setting("ReliefF")
    k_relieff = Setting(DEFAULT_K["ReliefF"])
    k_rrelieff = Setting(DEFAULT_K["RReliefF"])
    ties = Setting(TIES)
    top_k = Setting(TOP_K)
    absolute = Setting(False)
    test = Setting("t")
    n_permutations = Setting(N_PERMUTATIONS)
    adjustment_index = Setting(ADJUSTMENTS.index(ADJUSTMENT))
    alpha = Setting(ALPHA)
    #: the names of the pair shown, kept with the workflow
    selected_pair = Setting((), schema_only=True)
    auto_apply = Setting(True)

    graph_name = "heat_map.plotItem"

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        known_choices(self, {"method": MAP_METHODS, "ties": TIE_RULES,
                             "test": TESTS})
        known_flags(self)
        within_ranges(self, {"k_relieff": (1, 10000),
                             "k_rrelieff": (1, 10000),
                             "top_k": (2, MAX_TOP_K),
                             "n_permutations": (1, MAX_PERMUTATIONS),
                             "adjustment_index": (0, len(ADJUSTMENTS) - 1),
                             "alpha": (0.0001, 0.5)})
        self.selected_pair = named_pair(self.selected_pair)
        self.data = None
        #: the map of the data (TableInteractions) and its clustered order
        self.found = self.order = None
        #: (the method chosen, the default that replaced it)
        self._displaced = (None, None)
        self._build_controls()
        splitter = QSplitter(Qt.Horizontal)
        self.heat_map = HeatMap()
        self.heat_map.cell_clicked.connect(self._on_cell_clicked)
        self.pair_plot = PairPlot()
        self.heat_map.setMinimumSize(280, 280)
        self.pair_plot.setMinimumSize(180, 180)
        splitter.addWidget(self.heat_map)
        pair_box = gui.vBox(None, spacing=0)
        #: what the pair plot shows, and its colours
        self.pair_caption = gui.widgetLabel(pair_box, "")
        self.pair_caption.setWordWrap(True)
        self.pair_caption.setTextFormat(Qt.RichText)
        pair_box.layout().addWidget(self.pair_plot)
        splitter.addWidget(pair_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        self.mainArea.layout().addWidget(splitter)
        self.legend = gui.widgetLabel(self.mainArea, "")
        self.legend.setWordWrap(True)
        self.legend.setFont(scaled_font(0.85))
        self._update_controls()

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Neighbour pairs")
        self.method_combo = method_combo(
            MAP_GROUPS,
            tooltip="Whose neighbour pairs the map reads: the pairs of near "
                    "instances that the method's weights are made of. "
                    "Hover over a method for its paper.")
        self.method_combo.bind(self, "method", self._on_option_changed)
        box.layout().addWidget(self.method_combo)
        self.k_spins = {
            method: gui.spin(
                box, self, setting, 1, 10000, label="Neighbours (k):",
                callback=self.commit.deferred,
                tooltip="How many nearest neighbours each instance is "
                        "paired with (of each class, for a categorical "
                        "class).")
            for method, setting in K_SETTINGS.items()}
        self.ties_combo = choice_combo(
            self, box, "ties", (TIE_RULES, TIE_LABELS, TIE_TIPS),
            "Several instances may lie as far as the k-th nearest "
            "neighbour, and not all fit among the k. Hover over a choice "
            "for what it does.", self.commit.deferred)

        box = gui.vBox(self.controlArea, "Attributes")
        gui.spin(box, self, "top_k", 2, MAX_TOP_K, label="Map the best:",
                 callback=self.commit.deferred,
                 tooltip="How many attributes the map shows: those of the "
                         "best weights by the method (K; the map has "
                         "K (K \u2212 1) / 2 pairs).")
        gui.checkBox(box, self, "absolute", "Best by the weights' magnitude",
                     callback=self.commit.deferred,
                     tooltip="Choose the attributes by the size of their "
                             "weights, negative ones too: the bits of an "
                             "XOR of three or more can weigh negative.")

        box = gui.vBox(self.controlArea, "Test of every pair")
        box.setToolTip("A test of each pair's interaction: a t over the "
                       "instances whose neighbours make it (a categorical "
                       "class only), or permutations of the class.")
        self.test_combo = choice_combo(
            self, box, "test", (TESTS, TEST_LABELS, TEST_TIPS),
            "How each pair is tested. Hover over a choice for what it does.",
            self._on_option_changed)
        self.permutations_spin = gui.spin(
            box, self, "n_permutations", 1, MAX_PERMUTATIONS, step=100,
            label="Permutations:", callback=self.commit.deferred,
            tooltip="How many permutations of the class: the smallest "
                    "p-value is 1 / (permutations + 1), and the map is "
                    "computed again for each (seeded: the same data give "
                    "the same p-values).")
        self.test_controls = [
            adjustments := gui.comboBox(
                box, self, "adjustment_index", items=ADJUSTMENT_LABELS,
                label="Correct for testing many:", orientation=Qt.Vertical,
                callback=self.commit.deferred,
                tooltip="Testing K (K \u2212 1) / 2 pairs at once, some "
                        "look significant by chance; the p-values are "
                        "adjusted (q)."),
            gui.doubleSpin(box, self, "alpha", 0.0001, 0.5, 0.01,
                           label="Mark pairs with q \u2264", decimals=4,
                           callback=self._show_map,
                           tooltip="A dot marks the pairs whose adjusted "
                                   "p-value (q) is at most this.")]
        item_tips(adjustments, ADJUSTMENT_TIPS)
        gui.rubber(self.controlArea)
        gui.auto_apply(self.buttonsArea, self, "auto_apply")

    def _update_controls(self):
        """Enable the methods that fit the data, show k and the tie rule
        of the methods that take them, the test's controls for a
        categorical class."""
        show_fitting_methods(self.method_combo, self.data, self.method)
        for method, spin in self.k_spins.items():
            spin.box.setVisible(method == self.method)
        self.ties_combo.setVisible(self.method in TAKE_TIES)
        tested = self._test() is not None
        for control in self.test_controls:
            control.setEnabled(tested)
        self.permutations_spin.box.setVisible(self.test == "permutation")
        if self.data is not None and not self.Error.active:
            self.Information.untested(shown=not tested)

    def _test(self):
        """The test of the map: the one chosen, but no t of a numeric
        class."""
        numeric = self.data is not None and task_of(
            self.data.domain.class_var) == "regression"
        return None if numeric and self.test == "t" else self.test

    def _on_option_changed(self):
        self._update_controls()
        self.commit.deferred()

    # --- input ------------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        """Check the data, pick a fitting method and schedule the map."""
        start_over(self, self.Warning, self.Information)
        self.data = data
        if data is not None:
            self._check_data(data)
        self._update_controls()
        self._clear_results()
        self.commit.now()

    def _check_data(self, data):
        class_var = data.domain.class_var
        if class_var is None:
            self.Error.no_class()
            return
        n_attributes = len(data.domain.attributes)
        if n_attributes < 2:
            self.Error.few_attributes(n_attributes)
            return
        self._choose_method(class_present(data))
        n_missing = int(np.sum(np.isnan(data.get_column(class_var))))
        self.Warning.missing_class(n_missing, shown=n_missing > 0)

    def _choose_method(self, class_var):
        """Keep the chosen method if it fits `class_var`, else take the
        default and say so (:func:`.common.fitting_choice`)."""
        chosen = self.method
        self.method, self._displaced = fitting_choice(
            chosen, self._displaced, fitting_methods(class_var),
            default_method(class_var))
        if self._displaced == (chosen, self.method):  # not given back
            self.Warning.method_replaced(chosen, needs(chosen), self.method)

    def _can_map(self):
        return self.data is not None and not self.Error.active

    # --- output -----------------------------------------------------------

    def map_options(self):
        """The options of :func:`~orangecontrib.relief.interactions.
        interactions` the controls give for the data (K clipped to the
        attributes, with a warning)."""
        n_attributes = len(self.data.domain.attributes)
        self.Information.top_k(self.top_k, n_attributes,
                           shown=self.top_k > n_attributes)
        options = dict(variant=self.method, method=MAP_METHODS[self.method],
                       top_k=min(self.top_k, n_attributes),
                       absolute=self.absolute,
                       test=self._test(),
                       adjustment=ADJUSTMENTS[self.adjustment_index])
        if options["test"] == "permutation":
            options["n_permutations"] = self.n_permutations
        if self.method in K_SETTINGS:
            options["k_nearest"] = getattr(self, K_SETTINGS[self.method])
        if self.method in TAKE_TIES:
            options["ties"] = self.ties
        return options

    @gui.deferred
    def commit(self):
        """Start mapping the data (or clear the outputs without data)."""
        self.cancel()
        self.Error.map.clear()
        self.Information.top_k.clear()
        self.Information.notes.clear()
        if not self._can_map():
            self._clear_results()
            return
        if self.found is not None:
            self.heat_map.mark_outdated()
        else:
            self.heat_map.show_message("Computing ...")
        self.start(compute_map, self.data, self.map_options())

    def on_done(self, result):
        self.found = result
        self.order = clustered_order(result.map.interaction)
        notes = result.map.notes
        self.Information.notes("; ".join(notes), shown=bool(notes))
        self.Outputs.pairs.send(pairs_table(result))
        self._show_map()  # and the network of its marked pairs
        pair = self._stored_pair()
        self._choose_pair(*(pair if pair is not None
                            else strongest_pairs(result.map)[0]))

    def on_exception(self, ex):
        if not isinstance(ex, ValueError):  # ReliefInputError and the like
            raise ex
        self.Error.map(str(ex))
        self._clear_results()

    def _show_map(self):
        """Draw the map in its clustered order, the pairs of q at most
        alpha marked, say what the colours and the marks mean, and send
        the network of the marked pairs."""
        if self.found is None:
            return
        result, order = self.found.map, self.order
        names = [self.found.variables[i].name for i in order]
        square = np.ix_(order, order)
        marked = result.q[square] <= self.alpha
        self.heat_map.set_map(result.interaction[square], names,
                              self._tooltips(), marked)
        if self._stored_pair() is not None:
            self.heat_map.choose(*self._cell_of(self.selected_pair))
        self.legend.setText(self._legend_text(int(np.sum(marked)) // 2))
        if Network is not None:
            self.Outputs.network.send(
                interaction_network(self.found, self.alpha))

    def _tooltips(self):
        """The text of every cell of the map, in its clustered order."""
        result, variables = self.found.map, self.found.variables
        tips = []
        for a in self.order:
            row = []
            for b in self.order:
                if a == b:
                    row.append(f"{variables[a].name}\nweight "
                               f"{result.weights[result.attributes[a]]:.4f}")
                    continue
                text = (f"{variables[a].name} \u00d7 {variables[b].name}\n"
                        f"interaction \u0394 = {result.interaction[a, b]:.4g}"
                        f"\nco-difference I = "
                        f"{result.co_difference[a, b]:.4g}")
                if result.test is not None:
                    text += "\n" + tested_numbers(result, a, b)
                row.append(text)
            tips.append(row)
        return tips

    def _legend_text(self, n_marked):
        """What the map's colours and dots mean."""
        result = self.found.map
        k = len(self.found.variables)
        text = ("Blue: near instances of different classes differ in the two "
                "attributes together less often than near instances of the "
                "same class, beyond what each does alone (an XOR pair is "
                "deep blue); red: more often. Attributes that interact "
                "stand together. ")
        if result.test is None:
            text += "No test (a numeric class). "
        else:
            test = ("a t test of the pair" if result.test == "t" else
                    f"{result.n_permutations} permutations of the class")
            text += (f"\u25cf: q \u2264 {self.alpha:g}, {test} adjusted by "
                     f"{ADJUSTMENT_LABELS[self.adjustment_index]} for the "
                     f"{k * (k - 1) // 2} pairs ({n_marked} marked"
                     + ("; optimistic: read it as a ranking). "
                        if result.test == "t" else "). "))
        return text + "Click a cell to plot the pair."

    def _stored_pair(self):
        """The (first, second) positions in the map of the stored pair, or
        None where it is not in the map."""
        names = [var.name for var in self.found.variables]
        if len(self.selected_pair) != 2 \
                or not set(self.selected_pair) <= set(names):
            return None
        return tuple(names.index(name) for name in self.selected_pair)

    def _cell_of(self, names):
        """The (row, column) in the clustered order of the pair `names`:
        the second's row, the first's column."""
        positions = [var.name for var in self.found.variables]
        shown = list(self.order)
        first, second = (shown.index(positions.index(name)) for name in names)
        return second, first

    def _on_cell_clicked(self, row, column):
        """A cell of the map (in its clustered order) was clicked: its
        column's attribute on the horizontal axis of the pair plot, its
        row's on the vertical one."""
        self._choose_pair(int(self.order[column]), int(self.order[row]))

    def _choose_pair(self, first, second):
        """Show and send the pair of the map's positions `first` (on the
        horizontal axis) and `second`."""
        a, b = self.found.variables[first], self.found.variables[second]
        self.selected_pair = (a.name, b.name)
        self.heat_map.choose(*self._cell_of(self.selected_pair))
        result = self.found.map
        caption = (f"<b>{html.escape(a.name)} \u00d7 "
                   f"{html.escape(b.name)}</b>: \u0394 = "
                   f"{result.interaction[first, second]:.3g}")
        if result.test is not None:
            caption += ", " + tested_numbers(result, first, second)
        self.pair_caption.setText(
            f"{caption}<br>{class_legend(self.data)}")
        self.pair_plot.set_pair(self.data, a, b)
        self.Outputs.selected_data.send(pair_data(self.data, a, b))

    def _clear_results(self):
        self.found = self.order = None
        self.heat_map.show_message("No data." if self.data is None
                                   else "No map.")
        self.pair_plot.show_message("Click a cell of the map.")
        self.pair_caption.setText("")
        self.legend.setText("")
        self.Outputs.pairs.send(None)
        self.Outputs.selected_data.send(None)
        if Network is not None:
            self.Outputs.network.send(None)

    # --- widget life ------------------------------------------------------

    def send_report(self):
        items = [("Method", self.method)]
        if self.method in K_SETTINGS:
            items.append(("Neighbours (k)",
                          getattr(self, K_SETTINGS[self.method])))
        if self.method in TAKE_TIES:
            items.append(("Ties", TIE_LABELS[self.ties]))
        items.append(("Attributes mapped",
                      f"the best {self.top_k} by "
                      + ("the magnitude of their " if self.absolute else "")
                      + "weight"))
        test = self._test()
        if test is not None:
            items.append(("Test", TEST_LABELS[test] + (
                f", {self.n_permutations}" if test == "permutation" else "")))
            items.append(("Marked", f"q \u2264 {self.alpha:g} "
                                    f"({ADJUSTMENT_LABELS[self.adjustment_index]})"))
        self.report_items("Settings", items)
        if self.data is not None:
            self.report_data("Data", self.data)
        if self.found is not None:
            self.report_plot("Interaction map", self.heat_map.plotItem)
            self.report_caption(self.legend.text())
            if self.selected_pair:
                self.report_plot(" \u00d7 ".join(self.selected_pair),
                                 self.pair_plot.plotItem)
                self.report_caption(self.pair_caption.text())

    def sizeHint(self):
        return super().sizeHint().expandedTo(QSize(1080, 620))

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()


def tested_numbers(result, first, second):
    """The test's numbers of the pair (`first`, `second`) of the map
    `result`: t (of the t test), p and q."""
    t = (f"t = {result.statistic[first, second]:.3g}, "
         if result.test == "t" else "")
    return (f"{t}p = {result.p[first, second]:.3g}, "
            f"q = {result.q[first, second]:.3g}")


def named_pair(value):
    """A stored pair of names as a tuple of two strings (anything else:
    no pair)."""
    if isinstance(value, (tuple, list)) and len(value) == 2 \
            and all(isinstance(name, str) for name in value):
        return tuple(value)
    return ()


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief.generators import xor
    WidgetPreview(OWInteractions).run(xor(100, n_relevant=2, n_irrelevant=8,
                                          seed=1))
