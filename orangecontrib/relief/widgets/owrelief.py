"""The Relief widget: weight attributes with a Relief variant and, when
asked, test which of them are significant and how stable their ranking
is; its Preprocessor selects by the weights inside cross-validation."""
from collections import namedtuple

import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QListView, QSizePolicy, QStackedWidget

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.preprocess.preprocess import Preprocess
from Orange.preprocess.score import Scorer
from Orange.statistics.util import countnans
from Orange.widgets import gui
from Orange.widgets.settings import (ContextSetting, DomainContextHandler,
                                     Setting)
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.itemmodels import DomainModel
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.formulas.target_sets import LABEL_DISTANCES
from orangecontrib.relief.multitarget import (MultiLabelReliefF,
                                              MultiTargetRReliefF,
                                              target_scorer)
from orangecontrib.relief.core.options import (ADJUSTMENT, ALPHA,
                                               CONFIDENCE, CONVENTION, DIFF,
                                               ITER_ROUNDS, ITER_TOL,
                                               N_PERMUTATIONS, N_RESAMPLES,
                                               PARAMETERS, R_COMPATIBLE,
                                               RANDOM_STATE,
                                               T_DIFF, T_EQ, TIES, TOP_K)
from orangecontrib.relief.preprocess import SelectReliefFeatures
from orangecontrib.relief.rank import RankScorer, column_name
from orangecontrib.relief.scorers import (NPDR, Iter, convergence_note,
                                          task_of)
from orangecontrib.relief.significance import (SIGNIFICANCE_COLUMN, TESTS,
                                               Significance)
from orangecontrib.relief.stability import ranking_stability
from orangecontrib.relief.variants import (
    CONVENTIONS, DEFAULT_K, DIFFS, K_OF_TASK, METHOD_GROUPS, METHODS,
    TAKE_CONVENTION, TAKE_TIES, TIE_RULES, default_method, fitting_methods,
    make_scorer, no_k)
from orangecontrib.relief.widgets.common import (
    NO_CLASS, choice_combo, class_present, fitting_choice, item_tips,
    known_choices, known_flags, method_combo, preparing_line,
    show_fitting_methods, show_page, shut_down_at_once, start_over,
    within_ranges, work_progress)
from orangecontrib.relief.widgets.weights import (
    RELEVANT_MARK, WeightsPlot, is_relevant, weights_table)

#: bars the plot shows at first (the best attributes); the user may choose
DEFAULT_BARS = 20
#: the most bars the plot shows (more would not be readable)
MAX_BARS = 50
#: The setting holding the k of the variants of each task, by the variant
#: whose k it is (:data:`~orangecontrib.relief.variants.K_OF_TASK`), in
#: the order of the pages of the k control
K_SETTINGS = {K_OF_TASK["classification"]: "k_relieff",
              K_OF_TASK["regression"]: "k_rrelieff"}
#: the largest k of the k sliders without data (with data: the instances
#: less one, beyond which no k changes the weights)
SLIDER_K = 100
#: what the k control says for the variants without k, a page each
NO_K = list(dict.fromkeys(no_k(name) for name in METHODS
                          if name not in DEFAULT_K))
ADJUSTMENTS = PARAMETERS["adjustment"].allowed
#: the words of the tests (:data:`TESTS`) and of the adjustments
TEST_LABELS = ("STIR: a fast t-test", "Shuffled class", "NPDR's own p-values")
ADJUSTMENT_LABELS = ("Benjamini-Hochberg", "Holm", "Bonferroni")
#: what the check box of R's pairs does (its tooltip), and why it is off
#: for the methods whose pairs R does not find
R_COMPATIBLE_TIP = ("STIR's pairs as the authors' R package (insilico/stir) "
                    "finds them, to match a published R analysis: the "
                    "misses of all other classes pooled, R's handling of "
                    "identical rows of different classes. Off: the paper's "
                    "definitions.")
NO_R_PAIRS_TIP = ("The authors' R package has no weighted neighbours: STIR "
                  "tests {}'s pairs as the paper defines them.")
#: what each adjustment controls (the tooltips of its entry)
ADJUSTMENT_TIPS = ("Keeps the share of false discoveries among the "
                   "significant attributes below the level.",
                   "Keeps the chance of any false one below the level "
                   "(stricter).",
                   "Keeps the chance of any false one below the level "
                   "(the strictest).")
#: the words of the differences of two numbers (:data:`DIFFS`) and what
#: they mean
DIFF_LABELS = {"linear": "In proportion to the range",
               "squared": "Squared",
               "ramp": "Ramp between two thresholds"}
DIFF_TIPS = {"linear": "|a \u2212 b| divided by the attribute's range.",
             "squared": "(|a \u2212 b| / range)\u00b2: small differences "
                        "count less.",
             "ramp": "0 below one share of the range, 1 above another, in "
                     "proportion between them."}
#: the words of the tie rules (:data:`TIE_RULES`) and what they do
TIE_LABELS = {"share": "Tied neighbours share places",
              "lower-index": "Tied: earlier rows first"}
TIE_TIPS = {"share": "The instances tied at the k-th distance take an "
                     "equal part of the places left each, so that the "
                     "weights do not depend on the order of the rows (the "
                     "default).",
            "lower-index": "Of the instances tied at the k-th distance, "
                           "those of the lower row numbers take the places "
                           "left, as a stable sort by distance does."}
#: the words of the conventions (:data:`CONVENTIONS`) of the methods that
#: take one, and what they do
CONVENTION_LABELS = {"add-on": "The add-on's conventions",
                     "scikit-rebate": "As scikit-rebate 0.8"}
CONVENTION_TIPS = {
    "add-on": "Where scikit-rebate 0.8 departs from the method's "
              "definition, follow the definition: tied instances share "
              "places, a reference is never its own neighbour, the misses "
              "weighed by the class priors (the default).",
    "scikit-rebate": "The weights of scikit-rebate 0.8.4, to compare "
                     "with it: its order of tied instances, its far "
                     "scores and its weighting of the classes (the "
                     "method's page of the documentation says where it "
                     "differs)."}
#: how the Preprocessor output selects, and the words of its choices
SELECTIONS = ("k", "fraction", "threshold", "significance")
SELECTION_LABELS = ("the best", "the best share (%)", "weight above",
                    "the significant")
#: the entry of the method list that computes each scorer of several
#: targets (its method of one target)
TARGET_METHODS = {MultiTargetRReliefF: "RReliefF",
                  MultiLabelReliefF: "ReliefF"}
#: the words of multi-label ReliefF's label-set distances
#: (:data:`LABEL_DISTANCES`) and what they measure
LABEL_DISTANCE_LABELS = {"hamming": "Hamming loss",
                         "accuracy": "1 \u2212 accuracy",
                         "f1": "1 \u2212 F1",
                         "subset": "1 \u2212 subset accuracy"}
LABEL_DISTANCE_TIPS = {
    "hamming": "The share of the labels on which two instances differ "
               "(the default).",
    "accuracy": "1 \u2212 |A \u2229 B| / |A \u222a B|: 1 less the share "
                "of the labels either instance has that both have.",
    "f1": "1 \u2212 2 |A \u2229 B| / (|A| + |B|): as accuracy, the "
          "labels both have counting twice.",
    "subset": "0 for equal label sets, 1 for any difference: the label "
              "set as one class."}
#: what Iter's rounds control does
ROUNDS_TIP = (f"The most rounds of Iter; they stop sooner once no weight "
              f"moves by {ITER_TOL:g}.")
#: the methods Iter can wrap: those that weight their distance
ITERABLE = tuple(name for name, variant in METHODS.items()
                 if "distance_weights" in variant.parameters)

#: what a task computes: the weights and, when asked, their significance
#: and the stability of their ranking; what NPDR's warning of fits that did
#: not converge says (a worker thread cannot catch the warning: catching
#: warnings is not thread-safe)
Scores = namedtuple("Scores", ["weights", "tested", "stable", "unconverged",
                               "targets"],
                    defaults=[None, None, None])


def compute_weights(scorer, data, state: TaskState, tester=None,
                    stability=None):
    """The :data:`Scores` of `scorer` on `data` and, with `tester` (a
    :class:`~orangecontrib.relief.significance.Significance`), its test,
    with `stability` (the options of
    :func:`~orangecontrib.relief.stability.ranking_stability`) the
    stability of its ranking (runs in a worker thread).

    The core reports the fraction of its work done; the task shows it as
    progress and stops there once the widget cancelled it.  A test that
    computes the weights in its own pass (STIR of the SURF and the SWRF
    families, NPDR's regressions) gives them; otherwise the weights come
    first and are a partial result while the test or the resamples run,
    so that a person sees the ranking as soon as it is known.
    """
    together = tester is not None and tester.scores_too
    parts = 1 + (tester is not None and not together) + (stability is not None)
    tested = stable = unconverged = None
    if together:
        with work_progress(state, "Weighting and testing attributes ...",
                           data.X, scorer.n_iterations, end=1 / parts,
                           parts=engine_parts(scorer)) as progress:
            weights, tested = tester.scores_and_result(data, progress)
        if tested.test == "regression":  # NPDR's note of its fits
            unconverged = tested.note
    else:
        with work_progress(state, "Weighting attributes ...", data.X,
                           scorer.n_iterations, end=1 / parts,
                           parts=engine_parts(scorer)) as progress:
            weights, unconverged = weigh(scorer, data, progress)
    weights = np.asarray(weights, dtype=float)
    if parts > 1:
        state.set_partial_result(Scores(weights, tested,
                                        unconverged=unconverged))
    if tester is not None and not together:
        with work_progress(state, "Testing significance ...", start=1 / parts,
                           end=2 / parts) as progress:
            tested = tester.result(data, progress)
    if stability is not None:
        with work_progress(state, "Scoring resamples ...",
                           start=1 - 1 / parts) as progress:
            stable = ranking_stability(data, scorer, progress_callback=progress,
                                       **stability)
    return Scores(weights, tested, stable, unconverged)


def compute_target_weights(scorer, data, state: TaskState):
    """The :data:`Scores` of a scorer of several targets on `data`: the
    overall weights and, in `targets`, each target's (a row each; runs in
    a worker thread)."""
    with work_progress(state, "Weighting attributes by every target ...",
                       data.X, scorer.n_iterations) as progress:
        weights = scorer.weights(data, progress)
    return Scores(np.asarray(weights.overall, dtype=float), None,
                  targets=np.asarray(weights.per_target, dtype=float))


def weigh(scorer, data, progress):
    """`scorer`'s weights of `data` and, of NPDR, what its warning of fits
    that did not converge says (None: all converged, or another
    method)."""
    if not isinstance(scorer, NPDR):
        return scorer.score_table(data, progress), None
    result = scorer.result(data, progress)
    return result.coefficient, convergence_note(result, data)


def engine_parts(scorer):
    """The parts of the compiled engine's preparation that `scorer`'s
    work needs: those of the variant it computes, or wraps (Iter)."""
    variant = getattr(getattr(scorer, "scorer", scorer), "variant", None)
    return () if variant is None else variant.parts


def rank_column(scorer):
    """The name of `scorer`'s column in Rank, that of the method Iter
    wraps in brackets ("Iter(ReliefF₁₀)")."""
    if isinstance(scorer, Iter):
        return f"{column_name(scorer)}({column_name(scorer.scorer)})"
    return column_name(scorer)


def significant_data(data, tested):
    """`data` with only the significant attributes (class and metas kept)."""
    attributes = [a for a, s in zip(data.domain.attributes,
                                    tested.significant) if s]
    domain = Domain(attributes, data.domain.class_vars, data.domain.metas)
    return data.transform(domain)



def several_targets(class_vars):
    """What the widget says of data with several class variables: the
    method that weighs by all of them, and which entry of the list computes
    it (None: none fits, the message says why)."""
    try:
        scorer = target_scorer(class_vars)
    except ValueError as error:
        return None, f"The methods here weigh by one class. {error}"
    method = TARGET_METHODS[type(scorer)]
    return method, (f"{len(class_vars)} targets: {method} weighs by all of "
                    f"them at once ({scorer.friendly_name}); the weights "
                    f"output has the overall weight and one per target. "
                    f"The other methods weigh by one class.")


class OWRelief(OWWidget, ConcurrentWidgetMixin):
    name = "Relief"
    description = ("Weight attributes by how well they tell near instances "
                   "of different classes (or targets) apart, and test "
                   "which are significant.")
    icon = "icons/Relief.svg"
    priority = 10
    settings_version = 2
    keywords = ("relief, relieff, rrelieff, multisurf, surf, stir, npdr, "
                "covariates, significance, feature weighting, rank, scorer, "
                "feature selection, preprocessor, cross-validation, "
                "stability, bootstrap")

    class Inputs:
        data = Input("Data", Table)

    class Outputs:
        scorer = Output("Scorer", Scorer)
        significance = Output("Significance Scorer", Scorer)
        preprocessor = Output("Preprocessor", Preprocess)
        weights = Output("Weights", Table)
        significant_data = Output("Significant Data", Table)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        relief = Msg("{}")

    class Warning(OWWidget.Warning):
        missing_class = Msg("{} instance(s) with an unknown class are "
                            "skipped.")
        stability_k = Msg("No stability: 'Selected: the best' {} is more "
                          "than the {} attributes.")
        empty_columns = Msg("Attribute(s) without known values get weight "
                            "0: {}")
        no_stir = Msg("STIR cannot test {}: choose the test 'Shuffled "
                      "class'.")
        no_regression = Msg("NPDR's own p-values are NPDR's: choose NPDR, "
                            "or the test 'Shuffled class' for {}.")
        stir_unequal = Msg("{} Choose the test 'Shuffled class' for these "
                           "data.")
        no_test = Msg("No significance test: {}")
        few_permutations = Msg(
            "With {} shuffles and {}, no attribute can reach "
            "q \N{LESS-THAN OR EQUAL TO} {:g} (the least q possible is "
            "{:.3g}); {}.")
        no_verdict = Msg("{}")
        one_class_only = Msg("{} are for one class: not computed for "
                             "several targets.")
        unconverged = Msg("{}")

    class Information(OWWidget.Information):
        preparing = Msg("{}")
        several_targets = Msg("{}")

    settingsHandler = DomainContextHandler()
    #: NPDR's covariates, kept per domain
    covariates = ContextSetting([])
    method = Setting("ReliefF")
    k_relieff = Setting(DEFAULT_K["ReliefF"])
    k_rrelieff = Setting(DEFAULT_K["RReliefF"])
    ties = Setting(TIES)
    convention = Setting(CONVENTION)
    sample_references = Setting(False)
    n_iterations = Setting(100)
    iterate = Setting(False)
    iter_rounds = Setting(ITER_ROUNDS)
    random_seed = Setting(RANDOM_STATE)
    diff = Setting(DIFF)
    label_distance = Setting(LABEL_DISTANCES[0])
    t_eq = Setting(T_EQ)
    t_diff = Setting(T_DIFF)
    test_significance = Setting(False)
    test_index = Setting(0)
    n_permutations = Setting(N_PERMUTATIONS)
    r_compatible = Setting(R_COMPATIBLE)
    adjustment_index = Setting(ADJUSTMENTS.index(ADJUSTMENT))
    alpha = Setting(ALPHA)
    selection_index = Setting(0)
    select_k = Setting(TOP_K)
    select_percent = Setting(50)
    select_threshold = Setting(0.0)
    stability = Setting(False)
    n_resamples = Setting(N_RESAMPLES)
    stability_k = Setting(TOP_K)
    n_bars = Setting(DEFAULT_BARS)
    auto_apply = Setting(True)

    graph_name = "plot.plotItem"

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        known_choices(self, {"method": METHODS, "diff": DIFFS,
                             "ties": TIE_RULES,
                             "label_distance": LABEL_DISTANCES,
                             "convention": CONVENTIONS})
        known_flags(self)
        within_ranges(self, {"k_relieff": (1, 10000), "k_rrelieff": (1, 10000),
                             "n_iterations": (1, 1000000),
                             "iter_rounds": (1, 100),
                             "random_seed": (0, 2 ** 31 - 1),
                             "t_eq": (0.0, 1.0), "t_diff": (0.0, 1.0),
                             "test_index": (0, len(TESTS) - 1),
                             "n_permutations": (1, 100000),
                             "adjustment_index": (0, len(ADJUSTMENTS) - 1),
                             "alpha": (0.0001, 0.5),
                             "selection_index": (0, len(SELECTIONS) - 1),
                             "select_k": (1, 10000),
                             "select_percent": (1, 100),
                             "select_threshold": (-1.0, 1.0),
                             "n_resamples": (2, 10000),
                             "stability_k": (1, 10000),
                             "n_bars": (1, MAX_BARS)})
        self.data = None
        self.scores = None
        #: (the variant chosen, the default that replaced it) while data
        #: that the choice does not fit are shown
        self._displaced = (None, None)
        #: whether NPDR's own p-values replaced the STIR chosen
        self._stir_displaced = False
        #: the method that weighs data of several targets by all of them
        #: (None: data of one class, or no data)
        self._target_method = None
        self._build_controls()
        self.plot = WeightsPlot(self)
        self.mainArea.layout().addWidget(self.plot)
        self.plot_info = gui.widgetLabel(self.mainArea, "")
        self.plot_info.setWordWrap(True)
        self._update_controls()

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        """Three tabs, each short enough for the window's opening size:
        how the weights are computed, how they are tested, what the
        outputs and the plot keep."""
        tabs = gui.tabWidget(self.controlArea)
        self._build_method(gui.createTabPage(tabs, "Weights"))
        self._build_tests(gui.createTabPage(tabs, "Tests"))
        page = gui.createTabPage(tabs, "Output")
        self._build_selection(gui.vBox(page, "Preprocessor output"))
        box = gui.vBox(page, "Plot")
        gui.spin(box, self, "n_bars", 1, MAX_BARS, label="Bars shown:",
                 callback=self._show_scores,
                 tooltip="How many of the best attributes the plot shows.")
        gui.rubber(page)
        gui.auto_apply(self.buttonsArea, self, "auto_apply")

    def _build_method(self, page):
        """The method, its neighbours and covariates, the references and
        the difference of numbers: a box each."""
        self._build_method_box(gui.vBox(page, "Method"))
        self._build_references(gui.vBox(page, "Reference instances"))
        self._build_diff(gui.vBox(page, "Difference of two numbers"))
        gui.rubber(page)  # the room left is below the boxes, not in one

    def _build_method_box(self, box):
        """The method, over the stack of what it takes (:meth:`_build_k_pages`,
        :meth:`_build_covariates`), its ties and convention, and Iter."""
        self.method_combo = method_combo(
            METHOD_GROUPS,
            tooltip="How the attributes are weighed. Every method compares "
                    "each reference instance with its nearest neighbours: "
                    "an attribute gains weight where neighbours of other "
                    "classes differ in it, and loses where neighbours of "
                    "the same class do. Hover over a method for its "
                    "paper.")
        self.method_combo.bind(self, "method", self._on_option_changed)
        box.layout().addWidget(self.method_combo)
        self.k_stack = QStackedWidget()
        # its sentences wrap to the width the other controls take
        self.k_stack.setSizePolicy(QSizePolicy.Ignored,
                                   QSizePolicy.Preferred)
        box.layout().addWidget(self.k_stack)
        self._build_k_pages()
        self._build_covariates()
        # the tie rule of the methods of a k-th neighbour: one control,
        # moved under the k (or Relief's sentence) of the page shown
        self.ties_combo = choice_combo(
            self, None, "ties", (TIE_RULES, TIE_LABELS, TIE_TIPS),
            "Several instances may lie as far from the reference as its "
            "k-th nearest neighbour (often, where attributes have few "
            "values, as SNPs do), and not all fit among the k. Hover over "
            "a choice for what it does.", self.commit.deferred)
        # the SWRF family's and mu-Relief's convention, moved as the ties
        self.convention_combo = choice_combo(
            self, None, "convention",
            (CONVENTIONS, CONVENTION_LABELS, CONVENTION_TIPS),
            "Where scikit-rebate 0.8 computes this method otherwise than "
            "its definition says, which of the two to follow. Hover over a "
            "choice for what it does.", self._on_option_changed)
        # multi-label ReliefF's distance of two label sets, shown under
        # the k for data of several binary targets
        self.label_distance_box = gui.hBox(None)
        gui.widgetLabel(self.label_distance_box, "Label sets differ by:")
        self.label_distance_combo = choice_combo(
            self, self.label_distance_box, "label_distance",
            (LABEL_DISTANCES, LABEL_DISTANCE_LABELS, LABEL_DISTANCE_TIPS),
            "Multi-label data: how far apart two instances' label sets "
            "are, the difference of targets that multi-label ReliefF "
            "weighs the attributes by (Reyes, Morell & Ventura 2015). "
            "Hover over a choice for its formula.", self.commit.deferred)
        self._checked_spin(
            box, "iter_rounds", 100, "iterate", "Iter, at most rounds:",
            ROUNDS_TIP,
            "Checked: Iter (Draper et al. 2003, as scikit-rebate 0.8): the "
            "method again, its distance weighted by the weights of the "
            "round before, so that noise attributes blur it less. For the "
            "methods whose distance sums the attributes' differences.")

    def _build_k_pages(self):
        """The stack's page of each k (a spin box and a slider) and of each
        sentence that stands for a k."""
        #: the setting of each k slider (a spin box beside it)
        self.k_sliders = {}
        for setting in K_SETTINGS.values():
            page_k = gui.vBox(None)  # its row on top, as the others' texts
            row = gui.hBox(page_k)
            gui.spin(row, self, setting, 1, 10000, label="Neighbours (k):",
                     callback=self.commit.deferred,
                     tooltip="How many nearest neighbours each reference "
                             "instance compares with (of each class, for a "
                             "categorical class).")
            # the same k, to drag through its range and watch the weights
            self.k_sliders[setting] = slider = gui.hSlider(
                row, self, setting, minValue=1, maxValue=SLIDER_K,
                createLabel=False, callback=self.commit.deferred,
                tooltip="Drag to change k and watch the weights follow. On "
                        "small data a large k makes Relief myopic: with "
                        "neighbours from all over the data, attributes "
                        "that matter only together (an XOR) lose their "
                        "weight (McKinney et al. 2013, ReliefSeq). The "
                        "slider reaches as far as the data have instances.")
            slider.setTracking(False)  # k changes where the drag ends
            gui.rubber(page_k)
            self.k_stack.addWidget(page_k)
        for text in NO_K:
            page_text = gui.vBox(None)
            label = gui.widgetLabel(page_text, text)
            label.setWordWrap(True)
            gui.rubber(page_text)
            self.k_stack.addWidget(page_text)

    def _build_covariates(self):
        """NPDR's page of the stack (it takes no k): its covariates."""
        self.covariate_box = gui.vBox(None)
        gui.widgetLabel(self.covariate_box, "Covariates, taken out:") \
            .setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)
        self.k_stack.addWidget(self.covariate_box)
        #: the variables NPDR may take as covariates
        self.covariate_model = DomainModel(
            order=(DomainModel.ATTRIBUTES, DomainModel.METAS),
            valid_types=(DiscreteVariable, ContinuousVariable))
        self.covariate_list = gui.listView(
            self.covariate_box, self, "covariates",
            model=self.covariate_model,
            selectionMode=QListView.MultiSelection,
            callback=self.commit.deferred,
            tooltip="NPDR only: variables whose effect is taken out of "
                    "every attribute's weight (age, sex, a batch), so that "
                    "an attribute that only follows them loses its weight. "
                    "A chosen attribute is not weighed itself.")
        # four rows of the list (a variable's icon and name, with their
        # margins), not the height of a long list
        self.covariate_list.setSizePolicy(QSizePolicy.Expanding,
                                          QSizePolicy.Ignored)
        self.covariate_list.setMinimumHeight(
            4 * (self.covariate_list.fontMetrics().height() + 10))

    def _build_references(self, box):
        """The sample of reference instances and its seed."""
        box.setToolTip("A method looks at one instance at a time, the "
                       "reference, and at its neighbours; the weights are "
                       "the mean of what every reference adds.")
        self._checked_spin(
            box, "n_iterations", 1000000, "sample_references",
            "A random sample of",
            "How many instances are drawn at random as references.",
            "Checked: only this many instances, drawn at random, are "
            "references (faster, approximate). Unchecked: every instance "
            "once (exact, the same every time).")
        self.seed_spin = gui.spin(
            box, self, "random_seed", 0, 2 ** 31 - 1, label="Random seed:",
            callback=self.commit.deferred,
            tooltip="The seed of the random sample, of the shuffled classes "
                    "and of the resamples: the same seed gives the same "
                    "result.")
        gui.widgetLabel(box, "Unchecked: every instance once.")

    def _build_diff(self, box):
        """The difference of two numbers and the ramp's thresholds."""
        self.diff_combo = choice_combo(
            self, box, "diff", (DIFFS, DIFF_LABELS, DIFF_TIPS),
            "How much two values of a numeric attribute differ, from 0 "
            "(equal) to 1 (the attribute's whole range apart).",
            self._on_option_changed)
        self.ramp_spins = [
            gui.doubleSpin(box, self, setting, 0, 1, 0.01, label=label,
                           decimals=3, callback=self.commit.deferred,
                           tooltip=tooltip)
            for setting, label, tooltip in (
                ("t_eq", "Equal below:",
                 "Ramp: two values closer than this share of the range "
                 "count as equal (t_eq of Robnik-Sikonja & Kononenko)."),
                ("t_diff", "Fully different above:",
                 "Ramp: two values farther apart than this share of the "
                 "range count as completely different (t_diff)."))]

    def _checked_spin(self, box, setting, high, checked, label, tooltip,
                      check_tooltip):
        """A spin box of `setting` (1 to `high`) beside the check box of
        `checked`, each with its tooltip."""
        gui.spin(box, self, setting, 1, high, checked=checked, label=label,
                 callback=self.commit.deferred,
                 checkCallback=self._on_option_changed, tooltip=tooltip)
        getattr(self.controls, checked).setToolTip(check_tooltip)

    def _build_tests(self, page):
        """The significance test and the stability of the ranking."""
        box = gui.vBox(page, "Significance")
        gui.checkBox(box, self, "test_significance",
                     "Test which attributes are significant",
                     callback=self._on_option_changed,
                     tooltip="Compute a p-value for every attribute, adjust "
                             "them for testing many attributes at once and "
                             "mark the significant ones: those whose weight "
                             "is unlikely to come from chance alone.")
        self.test_combo = gui.comboBox(
            box, self, "test_index", items=TEST_LABELS,
            label="Test:", orientation=Qt.Horizontal,
            callback=self._on_option_changed,
            tooltip=f"STIR (Le et al. 2019): a t-test of the differences "
                    f"to neighbours of other classes against those to "
                    f"neighbours of the same class; fast, for a categorical "
                    f"class with {significance.STIR_METHODS}. Shuffled "
                    f"class: weigh again with the class shuffled, many "
                    f"times; any method, slower. NPDR's own p-values: of "
                    f"its regressions, with its covariates.")
        self.significance_controls = [
            self.test_combo,
            gui.checkBox(box, self, "r_compatible",
                         "STIR as the authors' R package",
                         callback=self.commit.deferred,
                         tooltip=R_COMPATIBLE_TIP),
            gui.spin(box, self, "n_permutations", 1, 100000,
                     label="Shuffles:", callback=self.commit.deferred,
                     tooltip="How many times the class is shuffled and the "
                             "attributes weighed again (the smallest "
                             "p-value is 1 / (shuffles + 1))."),
            adjustments := gui.comboBox(
                         box, self, "adjustment_index",
                         items=ADJUSTMENT_LABELS,
                         label="Correct for testing many:",
                         orientation=Qt.Vertical,
                         callback=self.commit.deferred,
                         tooltip="Testing many attributes at once, some "
                                 "look significant by chance; the p-values "
                                 "are adjusted (q). Benjamini-Hochberg "
                                 "keeps the share of false discoveries "
                                 "among the significant attributes below "
                                 "the level; Holm and Bonferroni the chance "
                                 "of any false one (stricter)."),
            gui.doubleSpin(box, self, "alpha", 0.0001, 0.5, 0.01,
                           label="Significant if adjusted p \u2264",
                           decimals=4, callback=self.commit.deferred,
                           tooltip="An attribute whose adjusted p-value (q) "
                                   "is at most this is significant.")]
        item_tips(adjustments, ADJUSTMENT_TIPS)

        box = gui.vBox(page, "Stability")
        box.setToolTip("Weigh the attributes again on resamples of the "
                       "instances (drawn with replacement, class by class) "
                       "and show how often each is among the best, the "
                       "range of its ranks and how much the best sets "
                       "agree.")
        _, samples = gui.spin(
            box, self, "n_resamples", 2, 10000, checked="stability",
            label="Resamples:", callback=self.commit.deferred,
            checkCallback=self._on_option_changed,
            tooltip="How many resamples (bootstrap samples: as many "
                    "instances drawn with replacement) are weighed, with "
                    "the random seed of the Weights tab.")
        self.controls.stability.setToolTip(
            "Checked: weigh the attributes again on resamples of the data "
            "and show how stable their ranking is.")
        self.stability_controls = [samples, gui.spin(
            box, self, "stability_k", 1, 10000, label="Count the best:",
            callback=self.commit.deferred,
            tooltip="In each resample the attributes with this many best "
                    "weights count as selected: the plot says how often "
                    "each was, and the stability index how much these sets "
                    "agree (1: always the same, 0: as by chance).")]
        gui.rubber(page)

    def _build_selection(self, box):
        """The controls of the Preprocessor output's selection: what it
        keeps, and the number, share or weight of that choice."""
        box.setToolTip("Which attributes the Preprocessor output keeps. "
                       "Connected to a learner or to Test & Score, it "
                       "weighs and selects on the training data of each "
                       "fold only, so that the test data do not choose the "
                       "attributes.")
        gui.comboBox(box, self, "selection_index", label="Keep:",
                     orientation=Qt.Horizontal, items=SELECTION_LABELS,
                     callback=self._on_option_changed,
                     tooltip="What the Preprocessor output keeps: the "
                             "attributes of the best weights (a number or "
                             "a share of them), those of a weight above a "
                             "threshold, or the significant ones.")
        self.selection_stack = QStackedWidget()
        box.layout().addWidget(self.selection_stack)
        for setting, low, high, tooltip in (
                ("select_k", 1, 10000, "How many of the best to keep."),
                ("select_percent", 1, 100,
                 "The share of the attributes to keep, the best (in %).")):
            self.selection_stack.addWidget(gui.spin(
                None, self, setting, low, high, tooltip=tooltip,
                callback=self.commit.deferred))
        self.selection_stack.addWidget(gui.doubleSpin(
            None, self, "select_threshold", -1.0, 1.0, 0.005, decimals=3,
            callback=self.commit.deferred,
            tooltip="Keep the attributes whose weight is above this."))
        self.selection_stack.addWidget(gui.widgetLabel(
            None, "by the Tests tab's test"))

    def _update_controls(self):
        """Enable the controls that apply to the current options."""
        show_fitting_methods(self.method_combo, self.data, self.method)
        if self._target_method is not None:
            self._show_target_method()
        self.diff_combo.select(self.diff)
        self.label_distance_combo.select(self.label_distance)
        setting = self._k_setting()
        show_page(self.k_stack, self.covariate_box
                  if self.method == "NPDR" else self.k_stack.widget(
                      list(K_SETTINGS.values()).index(setting) if setting
                      is not None else len(K_SETTINGS) + NO_K.index(
                          no_k(self.method))))
        self._place_under_k(self.ties_combo, self.method in TAKE_TIES)
        self._place_under_k(self.convention_combo,
                            self.method in TAKE_CONVENTION)
        self._place_under_k(self.label_distance_box, self._multilabel())
        # scikit-rebate orders tied instances by its own sort
        self.ties_combo.setEnabled(not self._as_scikit_rebate())
        for spin in self.ramp_spins:  # shown for the ramp only
            spin.setEnabled(self.diff == "ramp")
            spin.box.setVisible(self.diff == "ramp")
        self._update_tests()
        by_significance = SELECTIONS[self.selection_index] == "significance"
        for control in self.significance_controls:
            control.setEnabled(self.test_significance or by_significance)
        permutations = (self._testing("permutation") or by_significance
                        and TESTS[self.test_index] == "permutation")
        self.controls.n_permutations.setEnabled(permutations)
        weighted = self._weighted_pairs()
        self.controls.r_compatible.setEnabled(
            (self.test_significance or by_significance)
            and TESTS[self.test_index] == "stir" and not weighted)
        self.controls.r_compatible.setToolTip(
            NO_R_PAIRS_TIP.format(self.method) if weighted
            else R_COMPATIBLE_TIP)
        self.seed_spin.setEnabled(self.sample_references or permutations
                                  or self.stability)
        for control in self.stability_controls:
            control.setEnabled(self.stability)
        self._update_iter()
        self.selection_stack.setCurrentIndex(self.selection_index)

    def _show_target_method(self):
        """Of data of several targets, enable only the method that weighs
        by all of them; say on the others' entries why not."""
        fitting = self._target_method
        for name in self.method_combo.values():
            item = self.method_combo.item_of(name)
            item.setEnabled(name == fitting)
            item.setToolTip(
                f"{name}: weighs by every target at once "
                f"({type(self.make_scorer()).friendly_name})."
                if name == fitting else
                f"{name} weighs by one class; of these targets, {fitting} "
                f"weighs by all.")
        self.method_combo.select(self.method)

    def _update_iter(self):
        """Offer Iter for the methods that weight their distance; say why
        not for the others."""
        fits = self.method in ITERABLE and self._target_method is None
        self.controls.iterate.setEnabled(fits)
        self.controls.iter_rounds.setEnabled(fits and self.iterate)
        self.controls.iter_rounds.setToolTip(
            ROUNDS_TIP if fits else
            f"Iter weights the distance of {', '.join(ITERABLE)} of one "
            f"class; {self.method} does not weight its distance"
            + (" by every target." if self._target_method else "."))

    def _multilabel(self):
        """Whether the data's targets are labels that multi-label ReliefF
        weighs by (several class variables, every one binary)."""
        return (self._target_method is not None and
                MultiLabelReliefF.fits_targets(self.data.domain.class_vars))

    def _iterates(self):
        """Whether Iter wraps the chosen method (of one class)."""
        return (self.iterate and self.method in ITERABLE
                and self._target_method is None)

    def _place_under_k(self, combo, shown):
        """Show `combo` under the k (or the sentence that stands for it)
        of the method's page where `shown`, and nowhere else."""
        page = self.k_stack.currentWidget()
        if shown and combo.parent() is not page:  # above the page's stretch
            page.layout().insertWidget(page.layout().count() - 1, combo)
        combo.setVisible(shown)

    def _as_scikit_rebate(self):
        """Whether the method is computed by scikit-rebate's convention."""
        return (self.method in TAKE_CONVENTION
                and self.convention == "scikit-rebate")

    def _update_tests(self):
        """Offer the tests that can test the method: STIR for the
        methods whose neighbour pairs it knows, NPDR's own p-values for
        NPDR, shuffled classes for all.  NPDR takes its own p-values
        where STIR was chosen, and gives STIR back when another method is
        chosen (unless another test was chosen meanwhile)."""
        npdr = self.method == "NPDR"
        stir, own = TESTS.index("stir"), TESTS.index("regression")
        if npdr and self.test_index == stir:
            self.test_index, self._stir_displaced = own, True
        elif not npdr and self._stir_displaced and self.test_index == own:
            self.test_index, self._stir_displaced = stir, False
        elif not npdr:
            self._stir_displaced = False
        model = self.test_combo.model()
        fits = {"stir": self._stir_fits(),
                "permutation": True, "regression": npdr}
        for row, test in enumerate(TESTS):
            model.item(row).setEnabled(fits[test])
            model.item(row).setToolTip(
                "" if fits[test] else
                f"{TEST_LABELS[row]} cannot test {self.method_name()}.")

    def _stir_fits(self):
        """Whether STIR can test the method: it knows its neighbour pairs
        (not those of Iter's weighted distance)."""
        return METHODS[self.method].stir is not None and not self._iterates()

    def _weighted_pairs(self):
        """Whether STIR tests the method's weighted neighbours (the SWRF
        family's), whose pairs the authors' R package does not find."""
        stir = METHODS[self.method].stir
        return stir is not None and stir not in significance.R_NEIGHBOURHOODS

    def _r_pairs(self):
        """Whether STIR takes R's pairs: asked for, and the method's."""
        return self.r_compatible and not self._weighted_pairs()

    def method_name(self):
        """The method's name, in Iter where Iter wraps it."""
        if self._target_method is not None:
            return type(self.make_scorer()).friendly_name
        return f"Iter ({self.method})" if self._iterates() else self.method

    def r_compatible_label(self):
        """What the report adds to STIR's name when it takes R's pairs."""
        return (" as the authors' R package" if self._r_pairs()
                and TESTS[self.test_index] == "stir" else "")

    def _testing(self, test):
        return self.test_significance and TESTS[self.test_index] == test

    def _on_option_changed(self):
        self._update_controls()
        self.commit.deferred()

    # --- input ------------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        """Check the data, pick a fitting variant and schedule the scoring."""
        start_over(self, self.Warning, self.Information.several_targets)
        self._target_method = None
        self.closeContext()
        self.data = data
        self.covariates = []
        self.covariate_model.set_domain(None if data is None else data.domain)
        self.openContext(data)
        if data is not None:
            self._check_data(data)
        self._set_slider_range()
        self._update_controls()
        self._clear_results()
        self.commit.now()

    def _set_slider_range(self):
        """The k sliders reach k = instances - 1 of the data (beyond it
        each instance's neighbours are all the others); a stored k beyond
        stays k (the slider shows its end)."""
        top = SLIDER_K if self.data is None else \
            min(10000, max(2, len(self.data) - 1))
        for setting, slider in self.k_sliders.items():
            # a maximum below the value moves the slider, not the setting
            slider.blockSignals(True)
            slider.setMaximum(top)
            slider.setValue(getattr(self, setting))
            slider.blockSignals(False)

    def _check_data(self, data):
        """Show messages about `data`; choose a variant fitting its class."""
        class_var = data.domain.class_var
        if class_var is None:
            self._check_targets(data.domain.class_vars)
            return
        self._choose_method(class_present(data))
        n_missing = int(np.sum(np.isnan(data.get_column(class_var))))
        self.Warning.missing_class(n_missing, shown=n_missing > 0)
        if len(data):
            unknown = countnans(data.X, axis=0) == len(data)
            names = [attr.name for attr, empty
                     in zip(data.domain.attributes, unknown) if empty]
            self.Warning.empty_columns(", ".join(names), shown=bool(names))

    def _check_targets(self, class_vars):
        """Data without a single class: of several targets that a method
        weighs by all at once, choose it; else an error (and why no
        method fits several)."""
        if len(class_vars) < 2:
            self.Error.no_class()
            return
        method, text = several_targets(class_vars)
        self.Information.several_targets(text)
        if method is None:
            self.Error.no_class()
            return
        self._target_method = method
        self.method, self._displaced = fitting_choice(
            self.method, self._displaced, [method], method)

    def _choose_method(self, class_var):
        """Keep the chosen variant if it fits `class_var`, else take the
        default (:func:`.common.fitting_choice`)."""
        self.method, self._displaced = fitting_choice(
            self.method, self._displaced, fitting_methods(class_var),
            default_method(class_var))

    def _can_score(self):
        return self.data is not None and not self.Error.no_class.is_shown()

    # --- output -----------------------------------------------------------

    def _k_setting(self):
        """The setting of the current variant's k (None: it takes none):
        that of the task of the data's class, or of its first task."""
        variant = METHODS[self.method]
        if not variant.takes_k:
            return None
        task = (task_of(self.data.domain.class_var) if self.data is not None
                else None)
        return K_SETTINGS[K_OF_TASK[task if task in variant.tasks
                                    else variant.tasks[0]]]

    def _k_nearest(self):
        """Return k of the current variant, None for the variants without
        k."""
        setting = self._k_setting()
        return None if setting is None else getattr(self, setting)

    def make_scorer(self):
        """Return the scorer configured by the controls (the ramp's
        thresholds with the ramp only)."""
        ramp = (dict(t_eq=self.t_eq, t_diff=self.t_diff)
                if self.diff == "ramp" else {})
        if self._target_method is not None:
            distance = ({"distance": self.label_distance}
                        if self._multilabel() else {})
            return target_scorer(
                self.data.domain.class_vars, k_nearest=self._k_nearest(),
                ties=self.ties,
                n_iterations=(self.n_iterations if self.sample_references
                              else None),
                random_state=self.random_seed, diff=self.diff, **ramp,
                **distance)
        scorer = make_scorer(
            self.method, k_nearest=self._k_nearest(),
            ties=(self.ties if self.method in TAKE_TIES
                  and not self._as_scikit_rebate() else None),
            convention=(self.convention if self.method in TAKE_CONVENTION
                        else None),
            n_iterations=self.n_iterations if self.sample_references else None,
            random_state=self.random_seed, diff=self.diff,
            **ramp, **self._covariates())
        if self._iterates():
            return Iter(scorer, max_rounds=self.iter_rounds)
        return scorer

    def _covariates(self):
        """NPDR's option of the chosen covariates (none for the others)."""
        if self.method != "NPDR":
            return {}
        return {"covariates": [var.name for var in self.covariates]}

    def make_tester(self, scorer):
        """The significance test the controls ask for (None: no test, or
        STIR where it cannot run, with a warning)."""
        self.Warning.no_stir.clear()
        self.Warning.no_regression.clear()
        self.Warning.stir_unequal.clear()
        self.Warning.few_permutations.clear()
        self.Warning.no_test.clear()
        if not self.test_significance:
            return None
        if self._target_method is not None:
            return None  # commit says so
        test = TESTS[self.test_index]
        options = dict(adjustment=ADJUSTMENTS[self.adjustment_index],
                       alpha=self.alpha, random_state=self.random_seed,
                       **self._test_options(test))
        if test == "stir" and not self._stir_fits():
            self.Warning.no_stir(self.method_name())
            return None
        if test == "regression" and not isinstance(scorer, NPDR):
            self.Warning.no_regression(self.method)
            return None
        try:
            tester = Significance(scorer, test=test, **options)
        except ValueError as error:  # options the test refuses
            self.Warning.no_test(str(error))
            return None
        if self.data is None or self.data.domain.class_var is None:
            return tester
        if not tester.fits(self.data.domain.class_var):
            self.Warning.no_stir("a numeric class")
            return None
        if test == "permutation":
            self._check_permutations()
        elif test == "stir":
            caveat = significance.stir_caveat(self.data.Y)
            self.Warning.stir_unequal(caveat, shown=caveat is not None)
        return tester

    def _test_options(self, test):
        """The options of `test` alone: the number of permutations for the
        test that permutes, R's pairs for STIR."""
        return {"permutation": {"n_permutations": self.n_permutations},
                "stir": {"r_compatible": self._r_pairs()}}.get(test, {})

    def make_preprocessor(self, scorer):
        """The Preprocessor output: selection by `scorer`'s weights as the
        Selection box says."""
        by = SELECTIONS[self.selection_index]
        if by == "significance" and self._target_method is not None:
            return None  # commit says so
        criterion = {"k": {"k": self.select_k},
                     "fraction": {"fraction": self.select_percent / 100},
                     "threshold": {"threshold": self.select_threshold},
                     "significance": {
                         "significance": TESTS[self.test_index],
                         "alpha": self.alpha,
                         "adjustment": ADJUSTMENTS[self.adjustment_index],
                         "random_state": self.random_seed,
                         **self._test_options(TESTS[self.test_index])}}[by]
        try:
            return SelectReliefFeatures(scorer, **criterion)
        except ValueError:  # STIR for a variant without its pairs
            self.Warning.no_stir(self.method_name())
            return None

    def stability_options(self):
        """The options of the stability task, or None (not asked, or
        asking to select more attributes than there are, with a
        warning)."""
        self.Warning.stability_k.clear()
        if not self.stability or self._target_method is not None:
            return None
        n_attributes = len(self.data.domain.attributes)
        if self.stability_k > n_attributes:
            self.Warning.stability_k(self.stability_k, n_attributes)
            return None
        return dict(n_resamples=self.n_resamples, top_k=self.stability_k,
                    random_state=self.random_seed)

    def _check_permutations(self):
        """Warn if the permutations are too few for any attribute to be
        significant, and say how many would do."""
        n_attributes = len(self.data.domain.attributes)
        if not n_attributes:
            return
        shortfall = significance.permutation_shortfall(
            n_attributes, self.n_permutations, self.alpha,
            ADJUSTMENTS[self.adjustment_index])
        if shortfall is None:
            return
        smallest, needed = shortfall
        self.Warning.few_permutations(
            self.n_permutations, ADJUSTMENT_LABELS[self.adjustment_index],
            self.alpha, smallest,
            "no number of shuffles can" if needed is None else
            f"at least {needed} can")

    @gui.deferred
    def commit(self):
        """Send the scorers and, given usable data, start computing."""
        self.cancel()
        self.Error.relief.clear()
        self.Warning.no_verdict.clear()
        self.Warning.unconverged.clear()
        self._check_one_class_only()
        scorer = self.make_scorer()
        tester = self.make_tester(scorer)
        self.Outputs.scorer.send(RankScorer(scorer, rank_column(scorer)))
        self.Outputs.preprocessor.send(self.make_preprocessor(scorer))
        self.Outputs.significance.send(
            None if tester is None else RankScorer(tester))
        self.Information.preparing.clear()
        if self._can_score():
            line = preparing_line(self.data.X, scorer.n_iterations,
                                  engine_parts(scorer))
            if line is not None:
                self.Information.preparing(line)
            if self.scores is not None:
                self.plot.mark_outdated()
            else:
                self.plot.show_message("Computing ...")
            if self._target_method is not None:
                self.start(compute_target_weights, scorer, self.data)
            else:
                self.start(compute_weights, scorer, self.data, tester=tester,
                           stability=self.stability_options())
        else:
            self._clear_results()

    def on_done(self, result):
        self.Information.preparing.clear()
        self.scores = result
        self._show_scores()
        attributes = self.data.domain.attributes
        self.Outputs.weights.send(
            weights_table(attributes, result.weights, result.tested,
                          result.stable, targets=None if result.targets is None
                          else (self._target_names(), result.targets)))
        self.Outputs.significant_data.send(
            None if result.tested is None
            else significant_data(self.data, result.tested))
        note = None if result.tested is None else result.tested.note
        # NPDR's note of its fits is the warning below
        self.Warning.no_verdict(note, shown=note not in (
            None, result.unconverged))

    def _target_names(self):
        return [var.name for var in self.data.domain.class_vars]

    def _check_one_class_only(self):
        """Warn where the options ask for what only data of one class get:
        significance, stability, selection by significance."""
        asked = [what for what, on in (
            ("Significance tests", self.test_significance
             or SELECTIONS[self.selection_index] == "significance"),
            ("Stability", self.stability)) if on]
        self.Warning.one_class_only(
            " and ".join(asked),
            shown=bool(asked) and self._target_method is not None)

    def on_exception(self, ex):
        self.Information.preparing.clear()
        if not isinstance(ex, ValueError):  # ReliefInputError and the like
            raise ex
        self.Error.relief(str(ex))
        self._clear_results()

    def on_partial_result(self, result):
        """The weights, shown while their test or stability is computed
        (the outputs wait for the whole result)."""
        self.scores = result
        self._show_scores()
        rest = ("Their significance is being tested ..."
                if result.tested is None and self.test_significance else
                "The stability of their ranking is being measured ...")
        self.plot_info.setText(f"{self.plot_info.text()} {rest}".strip())

    def _show_scores(self):
        """Plot the best `n_bars` attributes (the significant first when
        tested) and say what the plot shows."""
        if self.scores is None:
            return
        weights, tested, stable, unconverged, targets = self.scores
        self.Warning.unconverged(unconverged, shown=unconverged is not None)
        attributes = self.data.domain.attributes
        if tested is None:
            order = np.argsort(-weights, kind="stable")
        else:  # significant first, then by weight
            order = np.lexsort((-weights, ~tested.significant))
        # NPDR's covariates are not weighed (NaN): no bar, a note
        order = order[~np.isnan(weights[order])][:self.n_bars]
        relevant = [is_relevant(attributes[i]) for i in order]
        tooltips = []
        for i in order:
            text = f"{attributes[i].name}\nweight {weights[i]:.4f}"
            if targets is not None:
                text = f"{attributes[i].name}\noverall weight " \
                       f"{weights[i]:.4f}" + "".join(
                           f"\n{name}: {weight:.4f}" for name, weight
                           in zip(self._target_names(), targets[:, i]))
            if tested is not None:
                text += f"\np = {tested.p[i]:.3g}, q = {tested.q[i]:.3g}"
            if stable is not None:
                text += (f"\namong the best {stable.top_k} in "
                         f"{stable.frequency[i]:.0%} of "
                         f"{len(stable.resamples)} bootstrap samples; "
                         f"median rank {stable.median_rank[i]:g}, "
                         f"{CONFIDENCE:.0%} of its ranks {stable.rank_low[i]}\u2013"
                         f"{stable.rank_high[i]}")
            if is_relevant(attributes[i]):
                text += "\nrelevant by construction (generated data)"
            tooltips.append(text)
        faded = cutoff = None
        if tested is not None:
            faded = ~tested.significant[order]
            cutoff = int(tested.significant.sum())
            # a line only between significant and other bars
            if not 0 < cutoff < len(order):
                cutoff = None
        notes = None if stable is None else [
            f"{stable.frequency[i]:4.0%}  ranks {stable.rank_low[i]}"
            f"\u2013{stable.rank_high[i]}" for i in order]
        self.plot.set_weights([attributes[i].name for i in order],
                              weights[order], tooltips, relevant, faded,
                              cutoff, notes=notes)
        self.plot_info.setText(" ".join(filter(None, (
            self._plot_text(len(order), tested, any(relevant),
                            dashed_line=cutoff is not None),
            stability_text(stable)))))

    def _plot_text(self, shown, tested, relevant, dashed_line):
        weights = self.scores.weights
        unweighed = [attr.name for attr, weight
                     in zip(self.data.domain.attributes, weights)
                     if np.isnan(weight)]
        n_attributes = len(weights) - len(unweighed)
        parts = [f"The {shown} best of {n_attributes} attributes."
                 if n_attributes > shown else ""]
        if self.scores.targets is not None:
            parts.append("The overall weights by every target (hover over "
                         "a bar for each target's).")
        if unweighed:
            parts.append(f"Covariates, not weighed (NA in Rank): "
                         f"{', '.join(unweighed)}.")
        if tested is not None:
            n_significant = int(tested.significant.sum())
            at = f"(adjusted p-value q \u2264 {tested.alpha:g}"
            if not n_significant:
                parts.append(f"No attribute is significant {at}; all bars "
                             f"pale).")
            else:
                where = ("dark bars, above the dashed line" if dashed_line
                         else "dark bars")
                parts.append(f"{n_significant} significant {at}; {where}).")
            parts.append(f"In Rank: {SIGNIFICANCE_COLUMN} (1.3 is q = 0.05,"
                         f" 2 is q = 0.01; higher, more significant).")
        if relevant:
            parts.append(f"{RELEVANT_MARK.strip()} and a red outline: "
                         "relevant by construction of the generated data.")
        return " ".join(part for part in parts if part)

    def _clear_results(self):
        self.scores = None
        self.Warning.unconverged.clear()
        self.plot.show_message("No data." if self.data is None
                               else "No weights.")
        self.plot_info.setText("")
        self.Outputs.weights.send(None)
        self.Outputs.significant_data.send(None)

    # --- widget life ------------------------------------------------------

    def send_report(self):
        items = [("Method", self.method_name())]
        covariates = self._covariates().get("covariates")
        if covariates:
            items.append(("Covariates", ", ".join(covariates)))
        if self._k_nearest() is not None:
            items.append(("Neighbours (k)", self._k_nearest()))
        if self.method in TAKE_TIES and not self._as_scikit_rebate():
            items.append(("Ties", TIE_LABELS[self.ties]))
        if self.method in TAKE_CONVENTION:
            items.append(("Convention", CONVENTION_LABELS[self.convention]))
        if self._iterates():
            items.append(("Iter", f"at most {self.iter_rounds} rounds"))
        if self._multilabel():
            items.append(("Label-set distance",
                          LABEL_DISTANCE_LABELS[self.label_distance]))
        items.append(("References",
                      f"{self.n_iterations} sampled (seed {self.random_seed})"
                      if self.sample_references else "every instance"))
        diff = self.diff
        if diff == "ramp":
            diff += f" (same below {self.t_eq:g}, different above " \
                    f"{self.t_diff:g})"
        items.append(("Numeric difference", diff))
        if self.test_significance:
            items.append(("Significance",
                          f"{TEST_LABELS[self.test_index]}"
                          f"{self.r_compatible_label()}, "
                          f"{ADJUSTMENT_LABELS[self.adjustment_index]}, "
                          f"q \u2264 {self.alpha:g}"))
        preprocessor = self.make_preprocessor(self.make_scorer())
        if preprocessor is not None:
            items.append(("Preprocessor keeps", preprocessor.criteria))
        if self.stability:
            items.append(("Stability", f"the best {self.stability_k} over "
                                       f"{self.n_resamples} bootstrap "
                                       f"samples"))
        self.report_items("Settings", items)
        if self.data is not None:
            self.report_data("Data", self.data)
        if self.scores is not None:
            self.report_plot("Weights", self.plot.plotItem)
            if self.scores.stable is not None:
                self.report_paragraph("Stability",
                                      stability_text(self.scores.stable))

    @classmethod
    def migrate_settings(cls, settings, version):
        """Workflows saved before the label-set distance was a choice
        weighed multi-label data by the Hamming loss: they still do."""
        if version < 2:
            settings.setdefault("label_distance", "hamming")

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()


def stability_text(stable):
    """What the plot's stability notes mean, and the stability index."""
    if stable is None:
        return ""
    samples = f"{len(stable.resamples)} bootstrap samples"
    index = stable.index
    value = ("undefined (every sample selects every attribute)"
             if index is None else
             f"{index.value:.2f} ({index.confidence:.0%} interval "
             f"{index.low:.2f} to {index.high:.2f}; 1: always the same "
             f"attributes, 0: as by chance)")
    return (f"Right of the bars: how often each attribute was among the "
            f"best {stable.top_k} in {samples}, and the range of "
            f"{CONFIDENCE:.0%} of its ranks. Stability of the best "
            f"{stable.top_k}: {value}.")


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief.datasets import path
    WidgetPreview(OWRelief).run(Table(path("heart_disease")))
