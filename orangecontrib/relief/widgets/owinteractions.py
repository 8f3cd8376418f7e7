"""The Interactions widget: which attributes act together, as the Relief
interaction map of the best attributes or their reGAIN network shows it
(a heat map), and a pair of them against each other."""
import html
from collections import namedtuple

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

from orangecontrib.relief.core.networks.interactions import (
    TOP_K, clustered_order, strongest_pairs)
from orangecontrib.relief.core.options import (ADJUSTMENT, ALPHA,
                                               MAX_PERMUTATIONS,
                                               N_PERMUTATIONS, TIES)
from orangecontrib.relief.interactions import (MAP_METHODS, interactions,
                                               pairs_table)
from orangecontrib.relief.regain import (best_attributes, pair_order,
                                         ranking_table, regain_network,
                                         regain_pairs_table)
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
#: the kinds of map, their labels and tooltips
MAP_KINDS = ("relief", "regain")
MAP_KIND_LABELS = {"relief": "Relief interaction map",
                   "regain": "reGAIN (a regression per pair)"}
MAP_KIND_TIPS = {
    "relief": "From the neighbour pairs of the Relief method: whether two "
              "attributes differ together between near instances of "
              "different classes more or less often than each alone. "
              "Sees an XOR without noise; any class.",
    "regain": "reGAIN (Davis et al. 2013): a logistic (two classes) or "
              "linear (a number) regression of the class on each pair "
              "and its product; the z of the product's coefficient. The "
              "attributes are the best by the Relief method's weights. "
              "Ranks the attributes by EpistasisRank or EpistasisKatz."}
#: the centralities of the reGAIN network that rank the attributes
CENTRALITIES = ("EpistasisRank", "EpistasisKatz")
CENTRALITY_TIPS = {
    "EpistasisRank": "PageRank of the network of the pairs' z, the main "
                     "effects as the teleportation: an attribute ranks "
                     "high by its own effect and its interactions. Ranked "
                     "by magnitude, as the authors' R code does.",
    "EpistasisKatz": "Katz centrality of the network without its "
                     "diagonal, the main effects as the base: an "
                     "attribute ranks high by its interactions with "
                     "attributes that rank high."}
#: reGAIN's check boxes: setting, (label, tooltip)
REGAIN_FLAGS = {
    "main_effects": ("Main effects in every model",
                     "A pair's model has the two attributes and their "
                     "product (the authors' default), or the product "
                     "alone."),
    "covariates": ("Meta attributes as covariates",
                   "The data's numeric and categorical meta attributes "
                   "(age, sex, batch) enter every model and are not "
                   "scored; move a column among the metas with Select "
                   "Columns.")}
ADJUSTMENT_TIPS = ("Keeps the share of false discoveries among the marked "
                   "pairs below the level.",
                   "Keeps the chance of any false one below the level "
                   "(stricter).",
                   "Keeps the chance of any false one below the level "
                   "(the strictest).")


MapView = namedtuple("MapView", [
    "variables",   # the attributes mapped, in the map's order
    "matrix",      # (K, K) the interactions shown: Delta, or reGAIN's z
    "q",           # (K, K) the pairs' adjusted p-values (NaN: untested)
    "tested",      # whether the pairs are tested
    "scores",      # (K,) each attribute's weight, or its centrality
    "score_name",  # "weight", "EpistasisRank" or "EpistasisKatz"
    "strongest",   # the (first, second) positions of the strongest pair
])


def relief_view(found):
    """The :class:`MapView` of a Relief map (a TableInteractions)."""
    result = found.map
    return MapView(found.variables, result.interaction, result.q,
                   result.test is not None,
                   result.weights[result.attributes], "weight",
                   strongest_pairs(result)[0])


def regain_view(found, centrality):
    """The :class:`MapView` of a reGAIN network (a TableRegain), the
    attributes scored by `centrality`."""
    scores = (found.epistasis_rank if centrality == "EpistasisRank"
              else found.epistasis_katz)
    return MapView(found.variables, found.network.statistic, found.q, True,
                   scores, centrality, pair_order(found)[0])


def regain_ranking(found, centrality):
    """:func:`~orangecontrib.relief.regain.ranking_table` of `found` in
    the order of `centrality` (by magnitude)."""
    table = ranking_table(found)
    order = np.argsort(-np.abs(np.nan_to_num(
        table.get_column(centrality))), kind="stable")
    ranked = table[order]
    ranked.name = centrality
    return ranked


def weights_ranking(found):
    """The mapped attributes of a Relief map by their weights, best
    first: the name as a meta column, the weight."""
    result = found.map
    domain = Domain([ContinuousVariable("weight")],
                    metas=[StringVariable("attribute")])
    table = Table.from_numpy(
        domain, result.weights[result.attributes][:, None],
        metas=np.array([[var.name] for var in found.variables], object))
    table.name = "weights"
    return table


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


def compute_regain(data, options, state):
    """The :class:`~orangecontrib.relief.regain.TableRegain` of `data`:
    the best attributes by the Relief weights, then their network (runs
    in a worker thread, as :func:`compute_map`)."""
    options = dict(options)
    parts = METHODS[options.pop("variant")].parts
    choice = options.pop("choice")
    with work_progress(state, "Choosing attributes and fitting pairs ...",
                       data.X, parts=parts) as progress:
        attributes = best_attributes(data, covariates=[
            var.name for var in options["covariates"]], **choice)
        return regain_network(data, attributes=attributes,
                              progress_callback=progress, **options)


def covariates_of(data):
    """The meta attributes of `data` that can enter reGAIN's models as
    covariates (numeric or categorical ones)."""
    return [var for var in data.domain.metas
            if var.is_continuous or var.is_discrete]


def pair_data(data, first, second):
    """`data` with only the attributes `first` and `second` (the class and
    the meta attributes kept)."""
    return data.transform(Domain([first, second], data.domain.class_vars,
                                 data.domain.metas))


def interaction_network(view, alpha):
    """The mapped attributes of a :class:`MapView` as a network
    (orange3-network): a node per attribute (its name and score), an edge
    of weight |interaction| between every two whose q is at most `alpha`
    or, on a map without a test, between the strongest pairs, as many as
    there are attributes."""
    size = len(view.names)
    first, second = np.triu_indices(size, 1)
    strength = np.abs(view.matrix[first, second])
    if view.tested:
        keep = np.flatnonzero(view.q[first, second] <= alpha)
    else:
        keep = np.argsort(-strength, kind="stable")[:size]
    edges = sp.csr_matrix((strength[keep], (first[keep], second[keep])),
                          shape=(size, size))
    domain = Domain([ContinuousVariable(view.score_name)],
                    metas=[StringVariable("attribute")])
    nodes = Table.from_numpy(
        domain, view.scores[:, None],
        metas=np.array([[name] for name in view.names], object))
    return Network(nodes, UndirectedEdges(edges), name="interactions")


class OWInteractions(OWWidget, ConcurrentWidgetMixin):
    name = "Interactions"
    description = ("Which attributes act together: a heat map of the Relief "
                   "interaction map of the best attributes or of their "
                   "reGAIN network, with a test of every pair; a click "
                   "plots the pair (a mosaic of two discrete attributes).")
    icon = "icons/Interactions.svg"
    priority = 12
    settings_version = 2
    keywords = ("interaction, epistasis, xor, pairs, heat map, relief, "
                "relieff, multisurf, surf, stir, regain, epistasisrank, "
                "katz, network")

    class Inputs:
        data = Input("Data", Table)

    class Outputs:
        pairs = Output("Interactions", Table)
        selected_data = Output("Selected Pair", Table, default=True)
        ranking = Output("Ranking", Table)
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
        covariates = Msg("{}")

    map_kind = Setting("relief")
    centrality = Setting("EpistasisRank")
    covariates = Setting(False)
    main_effects = Setting(True)
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
        known_choices(self, {"map_kind": MAP_KINDS,
                             "centrality": CENTRALITIES,
                             "method": MAP_METHODS, "ties": TIE_RULES,
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
        #: the map of the data (TableInteractions or TableRegain), what
        #: is shown of it (MapView) and its clustered order
        self.found = self.view = self.order = None
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
        box = gui.vBox(self.controlArea, "Map")
        self.kind_combo = choice_combo(
            self, box, "map_kind",
            (tuple(MAP_KIND_LABELS), MAP_KIND_LABELS, MAP_KIND_TIPS),
            "What the map shows of each pair of attributes. Hover over a "
            "choice for what it does.", self._on_option_changed)
        self.regain_box = gui.vBox(box, spacing=2)
        gui.widgetLabel(self.regain_box, "Rank the attributes by:")
        self.centrality_combo = choice_combo(
            self, self.regain_box, "centrality",
            (tuple(CENTRALITIES), {name: name for name in CENTRALITIES},
             CENTRALITY_TIPS),
            "Which centrality of the reGAIN network ranks the attributes "
            "(the Ranking output, the network's nodes). Hover over a choice "
            "for what it does.", self._show_map)
        for setting, (label, tip) in REGAIN_FLAGS.items():
            gui.checkBox(self.regain_box, self, setting, label,
                         callback=self.commit.deferred, tooltip=tip)

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
        regain = self.map_kind == "regain"
        self.regain_box.setVisible(regain)
        tested = regain or self._test() is not None
        for control in self.test_controls:
            control.setEnabled(tested)
        self.test_combo.setVisible(not regain)
        self.permutations_spin.box.setVisible(
            not regain and self.test == "permutation")
        if self.data is not None and not self.Error.active:
            self.Information.untested(shown=not tested)
        self._note_covariates()

    def _note_covariates(self):
        """Say which covariates reGAIN's models hold, or that the data's
        meta attributes could be."""
        available = ([] if self.data is None or self.map_kind != "regain"
                     else covariates_of(self.data))
        names = ", ".join(var.name for var in available)
        if not available:
            self.Information.covariates.clear()
        elif self.covariates:
            self.Information.covariates(
                f"Covariates in every model: {names}.")
        else:
            self.Information.covariates(
                f"The meta attributes {names} could enter every model as "
                f"covariates (Meta attributes as covariates).")

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

    def regain_options(self):
        """The options of :func:`compute_regain` the controls give: the
        Relief method's choice of the best attributes, the covariates,
        the main effects and the adjustment."""
        options = self.map_options()
        choice = dict(top_k=options["top_k"], method=options["method"],
                      absolute=self.absolute,
                      k_nearest=options.get("k_nearest"))
        if "ties" in options:
            choice["ties"] = options["ties"]
        return dict(variant=options["variant"], choice=choice,
                    covariates=(covariates_of(self.data) if self.covariates
                                else []),
                    main_effects=self.main_effects,
                    adjustment=options["adjustment"])

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
        if self.map_kind == "regain":
            self.start(compute_regain, self.data, self.regain_options())
        else:
            self.start(compute_map, self.data, self.map_options())

    def on_done(self, result):
        self.found = result
        regain = hasattr(result, "network")
        self.view = self._view()
        self.order = clustered_order(self.view.matrix)
        notes = result.notes if regain else result.map.notes
        self.Information.notes("; ".join(notes), shown=bool(notes))
        self.Outputs.pairs.send(regain_pairs_table(result) if regain
                                else pairs_table(result))
        self._show_map()  # and the ranking and network of its pairs
        pair = self._stored_pair()
        self._choose_pair(*(pair if pair is not None
                            else self.view.strongest))

    def _view(self):
        """What is shown of the map found (:class:`MapView`)."""
        if hasattr(self.found, "network"):
            return regain_view(self.found, self.centrality)
        return relief_view(self.found)

    def on_exception(self, ex):
        if not isinstance(ex, ValueError):  # ReliefInputError and the like
            raise ex
        self.Error.map(str(ex))
        self._clear_results()

    def _show_map(self):
        """Draw the map in its clustered order, the pairs of q at most
        alpha marked, say what the colours and the marks mean, and send
        the ranking and the network of the marked pairs."""
        if self.found is None:
            return
        self.view = view = self._view()
        order = self.order
        names = [view.variables[i].name for i in order]
        square = np.ix_(order, order)
        marked = view.q[square] <= self.alpha
        self.heat_map.set_map(view.matrix[square], names, self._tooltips(),
                              marked)
        if self._stored_pair() is not None:
            self.heat_map.choose(*self._cell_of(self.selected_pair))
        self.legend.setText(self._legend_text(int(np.sum(marked)) // 2))
        self.Outputs.ranking.send(
            regain_ranking(self.found, self.centrality)
            if hasattr(self.found, "network") else weights_ranking(self.found))
        if Network is not None:
            self.Outputs.network.send(interaction_network(view, self.alpha))

    def _tooltips(self):
        """The text of every cell of the map, in its clustered order."""
        if hasattr(self.found, "network"):
            return regain_tooltips(self.found, self.order)
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
        k = len(self.found.variables)
        adjustment = ADJUSTMENT_LABELS[self.adjustment_index]
        if hasattr(self.found, "network"):
            return regain_legend(self.found, self.main_effects, self.alpha,
                                 adjustment, n_marked)
        result = self.found.map
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
                     f"{adjustment} for the "
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
        caption = f"<b>{html.escape(a.name)} \u00d7 {html.escape(b.name)}</b>: "
        if hasattr(self.found, "network"):
            caption += regain_numbers(self.found, first, second)
        else:
            result = self.found.map
            caption += f"\u0394 = {result.interaction[first, second]:.3g}"
            if result.test is not None:
                caption += ", " + tested_numbers(result, first, second)
        self.pair_caption.setText(
            f"{caption}<br>{class_legend(self.data)}")
        self.pair_plot.set_pair(self.data, a, b)
        self.Outputs.selected_data.send(pair_data(self.data, a, b))

    def _clear_results(self):
        self.found = self.view = self.order = None
        self.heat_map.show_message("No data." if self.data is None
                                   else "No map.")
        self.pair_plot.show_message("Click a cell of the map.")
        self.pair_caption.setText("")
        self.legend.setText("")
        self.Outputs.pairs.send(None)
        self.Outputs.selected_data.send(None)
        self.Outputs.ranking.send(None)
        if Network is not None:
            self.Outputs.network.send(None)

    # --- widget life ------------------------------------------------------

    def send_report(self):
        items = [("Map", MAP_KIND_LABELS[self.map_kind])]
        if self.map_kind == "regain":
            items += [("Ranking", self.centrality),
                      ("Main effects", "yes" if self.main_effects else "no"),
                      ("Covariates", ", ".join(
                          var.name for var in covariates_of(self.data))
                       if self.covariates and self.data is not None
                       else "none")]
        items.append(("Attributes chosen by" if self.map_kind == "regain"
                      else "Method", self.method))
        if self.method in K_SETTINGS:
            items.append(("Neighbours (k)",
                          getattr(self, K_SETTINGS[self.method])))
        if self.method in TAKE_TIES:
            items.append(("Ties", TIE_LABELS[self.ties]))
        items.append(("Attributes mapped",
                      f"the best {self.top_k} by "
                      + ("the magnitude of their " if self.absolute else "")
                      + "weight"))
        test = "regain" if self.map_kind == "regain" else self._test()
        if test == "regain":
            items.append(("Marked", f"q \u2264 {self.alpha:g} "
                                    f"({ADJUSTMENT_LABELS[self.adjustment_index]})"))
        elif test is not None:
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

    @classmethod
    def migrate_settings(cls, settings, version):
        """Workflows saved before the map had a kind drew the Relief
        map."""
        if version is None or version < 2:
            settings.setdefault("map_kind", "relief")

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


def regain_numbers(found, first, second):
    """The numbers of the pair (`first`, `second`) of the reGAIN network
    `found`: its z (or t), coefficient, p and q."""
    network = found.network
    statistic = "z" if network.regression == "logistic" else "t"
    return (f"{statistic} = {network.statistic[first, second]:.3g}, "
            f"coefficient {network.coefficient[first, second]:.3g}, "
            f"p = {network.p[first, second]:.3g}, "
            f"q = {found.q[first, second]:.3g}")


def regain_tooltips(found, order):
    """The text of every cell of the reGAIN map `found`, in the clustered
    `order`: a pair's numbers, an attribute's main effect and
    centralities on the diagonal."""
    network, variables = found.network, found.variables
    statistic = "z" if network.regression == "logistic" else "t"
    tips = []
    for a in order:
        row = []
        for b in order:
            if a == b:
                row.append(f"{variables[a].name}\nmain effect {statistic} = "
                           f"{network.statistic[a, a]:.3g}\nEpistasisRank "
                           f"{found.epistasis_rank[a]:.4g}, EpistasisKatz "
                           f"{found.epistasis_katz[a]:.4g}")
            else:
                row.append(f"{variables[a].name} \u00d7 {variables[b].name}"
                           f"\n{regain_numbers(found, a, b)}")
        tips.append(row)
    return tips


def regain_legend(found, main_effects, alpha, adjustment, n_marked):
    """What the colours and dots of the reGAIN map `found` (fitted with
    or without the `main_effects`) mean."""
    network = found.network
    k = len(found.variables)
    target = ("the odds of the second class" if network.regression ==
              "logistic" else "the target")
    statistic = "z" if network.regression == "logistic" else "t"
    covariates = ", ".join(var.name for var in found.covariates)
    return (f"reGAIN: the {statistic} of each pair's product in a "
            f"{network.regression} regression"
            + (" with the two main effects" if main_effects else "")
            + (f" and the covariates {covariates}" if covariates else "")
            + f". Red: the product raises {target}; blue: lowers it. "
            f"\u25cf: q \u2264 {alpha:g}, adjusted by {adjustment} for the "
            f"{k * (k - 1) // 2} pairs ({n_marked} marked). "
            "Click a cell to plot the pair.")


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
