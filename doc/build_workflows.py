"""Write the example workflows of orangecontrib/relief/tutorials/*.ows.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/build_workflows.py``

The workflows are built with orangecanvas' scheme API from the widget
registry (Orange's widgets and this add-on's, found through their entry
points), so every node, channel and setting is one the canvas knows.  The
canvas lists them under Help > Example Workflows (entry point
``orange.widgets.tutorials``).

Every node stores its widget's complete settings: the workflow is opened
in Orange's own workflow (:mod:`orangecontrib.relief.tutorials.loading`)
with the widgets' defaults of a fresh installation (no settings of the
builder's earlier work), its data flow through it, and each widget's
settings, its contexts for its data included, are packed as the canvas
packs them on saving; the settings a tutorial chooses are set on top.  A
workflow opened later therefore shows what its notes describe, whatever
the person did before.

Every workflow fits the canvas's first window (852 x 534 on a 1280 x 800
screen): the builder says which nodes or notes lie beyond it
(:func:`~orangecontrib.relief.tutorials.canvas.beyond_first_view`).
"""
import copy
import io
import logging
import os
import tempfile

from orangecontrib.relief.tutorials.canvas import (TUTORIALS,
                                                   beyond_first_view)


FILE = "Orange.widgets.data.owfile.OWFile"
RANK = "Orange.widgets.data.owrank.OWRank"
TREE = "Orange.widgets.model.owtree.OWTreeLearner"
KNN = "Orange.widgets.model.owknn.OWKNNLearner"
TEST = "Orange.widgets.evaluate.owtestandscore.OWTestAndScore"
RELIEF = "orangecontrib.relief.widgets.owrelief.OWRelief"
RFSM = "orangecontrib.relief.widgets.owrfsm.OWRFSM"
GENERATOR = "orangecontrib.relief.widgets.owgenerator.OWReliefGenerator"
SEPARABILITY = "orangecontrib.relief.widgets.owseparability.OWSeparability"
CLASSDEP = "orangecontrib.relief.widgets.owclassdepknn.OWClassDependentKNN"
TABLE = "Orange.widgets.data.owtable.OWTable"
STEPS = "orangecontrib.relief.widgets.owstepbystep.OWReliefSteps"
CURVE = "orangecontrib.relief.widgets.owselectioncurve.OWSelectionCurve"
CONSENSUS = "orangecontrib.relief.widgets.owconsensus.OWConsensus"
INTERACTIONS = "orangecontrib.relief.widgets.owinteractions.OWInteractions"
RANDOMIZE = "Orange.widgets.data.owrandomize.OWRandomize"
LOGISTIC = "Orange.widgets.model.owlogisticregression.OWLogisticRegression"
#: the seconds a workflow's widgets get to finish their work while the
#: builder packs their settings
SETTLE = 600


def registry():
    """The widget registry as the canvas builds it."""
    from Orange.canvas.config import Config
    from orangecanvas.registry import WidgetRegistry

    config = Config()
    reg = WidgetRegistry()
    config.widget_discovery(reg).run(config.widgets_entry_points())
    return reg


def file_settings(name):
    """Settings of a File widget that opens the add-on's data set `name`
    (in orangecontrib/relief/datasets), stored relative to the workflow's
    folder: the canvas resolves such a path against the folder it opened
    the workflow from (its "basedir"), in a clone and in an installation
    alike."""
    from Orange.widgets.data.owfile import OWFile
    from orangewidget.utils.filedialogs import RecentPath

    relative = f"../datasets/{name}"
    return {"recent_paths": [RecentPath(relative, "basedir", relative)],
            "source": OWFile.LOCAL_FILE, "__version__": OWFile.settings_version}


class Builder:
    """A scheme with helpers to add nodes, links and notes; it remembers
    the settings each node chooses, which stay on top of the complete
    settings the builder packs (:func:`complete_settings`)."""

    def __init__(self, reg, title, description):
        from orangecanvas.scheme import Scheme

        self.reg = reg
        self.scheme = Scheme(title=title, description=description)
        self.chosen = {}

    def node(self, qualified_name, position, title=None, settings=None):
        from orangecanvas.scheme import SchemeNode

        description = self.reg.widget(qualified_name)
        node = SchemeNode(description, title=title or description.name,
                          position=position, properties=settings or {})
        self.scheme.add_node(node)
        # a copy: a widget changes its settings' lists in place (the File
        # widget resolves its paths)
        self.chosen[node.title] = copy.deepcopy(settings or {})
        return node

    def link(self, source, output, sink, input_):
        from orangecanvas.scheme import SchemeLink

        self.scheme.add_link(SchemeLink(source, output, sink, input_))

    def link_all(self, sources, output, sinks, input_):
        """Link every source to every sink (by source, then by sink)."""
        for source in sources:
            for sink in sinks:
                self.link(source, output, sink, input_)

    def note(self, rect, text):
        from orangecanvas.scheme import SchemeTextAnnotation

        self.scheme.add_annotation(SchemeTextAnnotation(rect, text))

    def write(self, filename):
        """Write the workflow with every widget's complete settings as
        TUTORIALS / `filename`; return its path."""
        from orangecanvas.scheme.readwrite import scheme_to_ows_stream

        draft = io.BytesIO()
        scheme_to_ows_stream(self.scheme, draft, pretty=True,
                             pickle_fallback=True)
        path = TUTORIALS / filename
        path.write_bytes(complete_settings(draft.getvalue(), self.reg,
                                           self.chosen))
        outside = beyond_first_view(path, self.reg)
        if outside:
            print(f"{filename}: beyond the first window: {outside}")
        return path


def complete_settings(content, reg, chosen):
    """The workflow `content` (bytes) with every node's complete settings:
    opened in Orange's own workflow, its data passed along its links and
    its widgets' work done, each widget's settings packed as the canvas
    packs them, then `chosen[title]` set on top."""
    from orangecanvas.scheme.readwrite import scheme_to_ows_stream

    from orangecontrib.relief.tutorials.canvas import (close_workflow,
                                                       open_workflow, settle)

    scheme = open_workflow(content, reg)
    settle(scheme, SETTLE)
    scheme.sync_node_properties()
    for node in scheme.nodes:
        node.properties.update(chosen[node.title])
    result = io.BytesIO()
    # contexts are no literals: pickled, as the canvas saves them, without
    # its log of each attempt; written as they are now (the scheme's own
    # save_to would pack the widgets' settings again)
    logging.getLogger("orangecanvas.scheme.readwrite").setLevel(
        logging.CRITICAL)
    scheme_to_ows_stream(scheme, result, pretty=True, pickle_fallback=True)
    close_workflow(scheme)
    return result.getvalue()


def learners(builder, x, y):
    tree = builder.node(TREE, (x, y), "Tree")
    knn = builder.node(KNN, (x, y + 100), "kNN (k = 21)",
                       {"n_neighbors": 21})
    return tree, knn


def rfsm_with_learners(builder, data, position, learners_y):
    """RFSM Selection at `position` reading `data`, with a tree and kNN
    below it (at height `learners_y`) to score what it selects."""
    rfsm = builder.node(RFSM, position, "RFSM Selection")
    tree, knn = learners(builder, position[0], learners_y)
    builder.link(data, "Data", rfsm, "Data")
    return rfsm, tree, knn


def test_and_score(builder, position, title, stratified=True):
    # 10-fold cross-validation, as in the RFSM paper
    return builder.node(TEST, position, title,
                        {"resampling": 0, "n_folds": 3,
                         "cv_stratified": stratified, "__version__": 4})


def rfsm_parity(reg):
    b = Builder(reg, "RFSM on Parity3+3",
                "The class of Parity3+3 is the parity of three bits; the "
                "three bits are duplicated and six random bits added. RFSM "
                "with a greedy forward search keeps exactly three bits, one "
                "of each pair; Test & Score compares a tree and kNN (k = 21, "
                "as in the RFSM paper, and k = 5) on the selected attributes "
                "with the same learners on all. RFSM Selection finds the "
                "neighbours with all attributes and evaluates sets of "
                "attributes with them: check 'Find neighbours within the "
                "set only' to see the search stop after one bit.")
    data = b.node(GENERATOR, (50, 160), "Parity3+3",
                  {"problem": "Parity3+3", "n_instances": 64,
                   "random_seed": 0})
    rfsm, tree, knn = rfsm_with_learners(b, data, (200, 50), 150)
    knn5 = b.node(KNN, (200, 350), "kNN (k = 5)", {"n_neighbors": 5})
    selected = test_and_score(b, (430, 50), "Test & Score (RFSM)")
    everything = test_and_score(b, (430, 200), "Test & Score (all)")
    b.link(rfsm, "Reduced Data", selected, "Data")
    b.link(data, "Data", everything, "Data")
    b.link_all((tree, knn, knn5), "Learner", (selected, everything),
               "Learner")
    b.note((262, 318, 263, 155),
           "kNN (k = 21) scores 0.000 on the three bits RFSM keeps: each "
           "pattern comes 8 times, so of 21 neighbours 7 share the class "
           "and 14, one bit off, have the other. With k = 5 every vote is "
           "right (1.000).")
    return b.write("rfsm-parity.ows")


def rfsm_zoo(reg):
    b = Builder(reg, "RFSM, Liu and the wrapper on zoo",
                "Select attributes of the zoo data with RFSM and a greedy "
                "search, then cross-validate a tree and kNN (k = 21) on "
                "them. Change the measure in RFSM Selection to Liu's "
                "consistency or to the wrapper (which uses the learner "
                "connected to it) to compare.")
    data = b.node(FILE, (60, 150), "File (zoo)", file_settings("zoo.tab"))
    rfsm, tree, knn = rfsm_with_learners(b, data, (220, 60), 200)
    # not stratified: zoo has a class of 4 animals, fewer than 10 folds
    score = test_and_score(b, (430, 150), "Test & Score", stratified=False)
    b.link(rfsm, "Reduced Data", score, "Data")
    b.link(tree, "Learner", rfsm, "Learner")
    b.link_all((tree, knn), "Learner", (score,), "Learner")
    b.note((10, 360, 510, 110),
           "RFSM Selection's plot shows the measure after each attribute "
           "the search adds; the search stops when it does not grow. Test & "
           "Score does not stratify its 10 folds: one zoo class has only 4 "
           "animals.")
    return b.write("rfsm-zoo.ows")


#: Rank's own methods beside the add-on's columns (one at least: with none
#: Rank takes its defaults); their columns come before those of its Scorer
#: inputs, which come in the order of their links
RANK_METHODS = {"Information Gain"}
#: no method of Rank's own for a categorical class, where Rank has room
#: for the add-on's columns only: a method of Rank's for a numeric class,
#: which Rank neither offers nor shows for these data
NONE_OF_RANKS = {"Univariate Regression"}
#: the column of Rank's first Scorer input (Relief's weights, the
#: consensus) after Rank's own method
RELIEF_COLUMN = len(RANK_METHODS)
DESCENDING = 1  # Qt.DescendingOrder


def relief_rank(reg):
    b = Builder(reg, "Relief weights in Rank",
                "The Relief widget weights the attributes of the heart "
                "disease data with ReliefF and sends its scorer to Rank, "
                "which shows the weights next to its own scores and can "
                "select the best attributes.")
    data = b.node(FILE, (90, 150), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    relief = b.node(RELIEF, (250, 60), "Relief")
    rank = b.node(RANK, (430, 150), "Rank",
                  {"selected_methods": RANK_METHODS, "__version__": 4})
    b.link(data, "Data", relief, "Data")
    b.link(relief, "Scorer", rank, "Scorer")
    b.link(data, "Data", rank, "Data")
    b.note((20, 270, 490, 80),
           "Rank shows Relief's weights as the column ReliefF\u2081\u2080 "
           "(ReliefF with k = 10) beside Information Gain, which scores "
           "each attribute alone.")
    return b.write("relief-rank.ows")


def relief_significance(reg):
    b = Builder(reg, "Which attributes are significant",
                "The Relief widget weights the attributes of the heart "
                "disease data with ReliefF and tests which weights are "
                "significant (STIR, Benjamini-Hochberg, q <= 0.05). Rank "
                "shows the weights beside the significance and sorts by "
                "the significance (-log10 q); the Data Table gets the data with only "
                "the significant attributes.")
    data = b.node(FILE, (90, 150), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    relief = b.node(RELIEF, (250, 150), "Relief (significance)",
                    {"method": "ReliefF", "test_significance": True,
                     "test_index": 0, "__version__": 2})
    # the weights, then the significance: Rank's columns 0 and 1
    rank = b.node(RANK, (430, 50), "Rank (by significance)",
                  {"selected_methods": NONE_OF_RANKS,
                   "sorting": (1, DESCENDING), "__version__": 4})
    table = b.node(TABLE, (430, 250), "Data Table (significant)")
    b.link(data, "Data", relief, "Data")
    b.link(data, "Data", rank, "Data")
    b.link(relief, "Scorer", rank, "Scorer")
    b.link(relief, "Significance Scorer", rank, "Scorer")
    b.link(relief, "Significant Data", table, "Data")
    b.note((10, 240, 260, 235),
           "Relief tests every weight: a p-value, adjusted for testing 13 "
           "attributes at once (q). Its plot shows the significant first, "
           "above a dashed line; pale bars are not significant.")
    b.note((290, 330, 230, 145),
           "Rank sorts by \u2212log\u2081\u2080q: 1.3 is q = 0.05, "
           "higher is more significant. The Data Table gets the data with "
           "only the significant attributes.")
    return b.write("relief-significance.ows")


def generator_relief(reg):
    b = Builder(reg, "Generated data with known relevant attributes",
                "The Relief Data Generator makes the papers' artificial "
                "problems, whose relevant attributes are known. The Relief "
                "widget stars them, so one sees whether Relief found them; "
                "the Data Table shows the generated data.")
    data = b.node(GENERATOR, (100, 150), "Relief Data Generator",
                  {"problem": "MajorityN", "n_instances": 300,
                   "random_seed": 0})
    relief = b.node(RELIEF, (250, 60), "Relief",
                    {"method": "MultiSURF", "test_significance": True,
                     "test_index": 0, "__version__": 2})
    table = b.node(TABLE, (250, 250), "Data Table")
    b.link(data, "Data", relief, "Data")
    b.link(data, "Data", table, "Data")
    b.note((335, 20, 190, 330),
           "MajorityN: the class is the majority of the relevant bits. In "
           "Relief, the relevant attributes carry a star and a red outline; "
           "the significant ones (STIR's test) come first, above a dashed "
           "line. Try other problems and more irrelevant attributes in the "
           "generator.")
    return b.write("generator-relief.ows")


def separability_results(reg):
    b = Builder(reg, "Separability of the ReliefF variants",
                "The Separability widget repeats Prat & Belanche's "
                "experiment on its artificial problems: how well ReliefF, "
                "dReliefF and pdReliefF separate relevant from irrelevant "
                "attributes as irrelevant ones are added. Press Run.")
    separability = b.node(SEPARABILITY, (80, 170), "Separability",
                          {"problems": ["MajorityN", "NonMonotonic"],
                           "max_relevant": 3, "n_datasets": 3,
                           "__version__": 1})
    table = b.node(TABLE, (300, 170), "Data Table (results)")
    b.link(separability, "Results", table, "Data")
    b.note((20, 20, 420, 90),
           "Open Separability and press Run: a small design that runs in "
           "seconds; raise the relevant attributes and the data sets per "
           "combination for the paper's curves. Above zero, relevant "
           "attributes outweigh irrelevant ones.")
    return b.write("separability.ows")


def classdep_knn(reg):
    b = Builder(reg, "Class-dependent kNN against kNN",
                "Class-Dependent kNN learns one attribute weight vector per "
                "class (IWCDRelief) and classifies with weighted distances. "
                "Test & Score compares it with Orange's kNN by "
                "cross-validation; Rank shows the weights of each class.")
    data = b.node(FILE, (90, 170), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    classdep = b.node(CLASSDEP, (250, 80), "Class-Dependent kNN")
    knn = b.node(KNN, (250, 260), "kNN")
    score = b.node(TEST, (440, 260), "Test & Score",
                   {"resampling": 0, "n_folds": 3, "__version__": 4})
    rank = b.node(RANK, (440, 80), "Rank (per class)",
                  {"selected_methods": NONE_OF_RANKS, "__version__": 4})
    b.link(data, "Data", classdep, "Data")
    b.link(data, "Data", score, "Data")
    b.link_all((classdep, knn), "Learner", (score,), "Learner")
    b.link(classdep, "Scorer", rank, "Scorer")
    b.link(data, "Data", rank, "Data")
    b.note((10, 340, 510, 130),
           "A cross-validation on the training data chooses IWCDRelief's "
           "border threshold, with equal weights competing: the learner is "
           "not worse than a plain kNN where the learnt weights do not "
           "help. Rank shows a column of weights per class.")
    return b.write("classdep-knn.ows")


def relief_step_by_step(reg):
    b = Builder(reg, "Relief, step by step, on Parity3+3",
                "A lesson: the class of Parity3+3 is x1 xor x2 xor x3; "
                "x1_copy, x2_copy and x3_copy repeat the three bits and "
                "irr1 ... irr6 are random (64 instances: every combination "
                "equally often). Alone, no bit says anything about the "
                "class, so Information Gain scores the relevant bits 0; "
                "Relief finds them because the nearest neighbours, found "
                "with all attributes, see the bits together. Step through "
                "Relief to watch it happen: the near hit has the "
                "reference's x1, x2 and x3 and differs in random bits "
                "only, the near miss differs in one of the three bits. Then "
                "compare the two rankings in Rank.")
    data = b.node(GENERATOR, (60, 170), "Parity3+3",
                  {"problem": "Parity3+3", "n_instances": 64,
                   "random_seed": 0})
    steps = b.node(STEPS, (230, 60), "Relief, step by step",
                   {"variant_index": 0, "k_nearest": 5, "speed_index": 2,
                    "__version__": 2})
    relief = b.node(RELIEF, (230, 280), "ReliefF",
                    {"method": "ReliefF", "k_relieff": 5, "__version__": 2})
    rank = b.node(RANK, (430, 280), "Rank",
                  {"selected_methods": {"Information Gain"},
                   "__version__": 4})
    b.link_all((data,), "Data", (steps, relief, rank), "Data")
    b.link(relief, "Scorer", rank, "Scorer")
    b.note((325, 10, 200, 230),
           "1. Open 'Relief, step by step' and follow its first button "
           "through the stages of a step: a reference, its nearest hit and "
           "miss, their differences, the update.\n"
           "2. Run a pass: x1, x2, x3 and their copies end on top.")
    b.note((10, 360, 510, 110),
           "3. Open Rank: Information Gain scores x1, x2, x3 and their "
           "copies 0, each alone saying nothing; the ReliefF column ranks "
           "these six first. Parity3+3: the class is x1 xor x2 xor x3, "
           "irr1 ... irr6 are random.")
    return b.write("relief-step-by-step.ows")


#: the attributes the selection keeps in the workflow of selection inside
#: cross-validation (Relief's Preprocessor and Rank's best ranked)
KEPT = 5


def relief_preprocess(reg):
    b = Builder(reg, "Selection inside cross-validation",
                "Noise: 500 random attributes and a class shuffled at "
                "random, so nothing can be learnt. Test & Score with the "
                "Relief widget's Preprocessor selects the five best "
                "attributes on the training folds only and finds chance "
                "accuracy. Selecting the five on all the data first (Rank) "
                "lets the test folds choose the attributes, and the same "
                "kNN seems to learn.")
    data = b.node(GENERATOR, (50, 190), "Generator",
                  {"problem": "MajorityN", "n_instances": 100,
                   "n_relevant": 5, "n_irrelevant": 495, "random_seed": 0})
    noise = b.node(RANDOMIZE, (165, 190), "Randomize",
                   {"shuffle_class": True, "shuffle_attrs": False,
                    "shuffle_metas": False, "scope_prop": 100,
                    "random_seed": True})
    relief = b.node(RELIEF, (290, 70), "Relief (best 5)",
                    {"method": "ReliefF", "selection_index": 0,
                     "select_k": KEPT, "__version__": 2})
    knn = b.node(KNN, (290, 190), "kNN")
    rank = b.node(RANK, (290, 300), "Rank (best 5)",
                  {"selected_methods": RANK_METHODS,
                   "sorting": (RELIEF_COLUMN, DESCENDING), "__version__": 4})
    inside = test_and_score(b, (432, 130), "Test & Score (inside)")
    first = test_and_score(b, (432, 250), "Test & Score (first)")
    b.link(data, "Data", noise, "Data")
    b.link_all((noise,), "Data", (relief, rank, inside), "Data")
    b.link(relief, "Preprocessor", inside, "Preprocessor")
    b.link(relief, "Scorer", rank, "Scorer")
    b.link(rank, "Reduced Data", first, "Data")
    b.link_all((knn,), "Learner", (inside, first), "Learner")
    b.note((10, 365, 515, 110),
           "The class is shuffled: all is noise. Inside: Relief's "
           "Preprocessor keeps the best 5 of each training fold: accuracy "
           "about 0.5, as it must be. First: Rank keeps the best 5 of all "
           "the data: accuracy well above 0.5, and false.")
    return b.write("relief-preprocess.ows")


def selection_curve(reg):
    b = Builder(reg, "How many attributes to keep",
                "Selection Curve cross-validates kNN on the best 1, 2, ... "
                "34 attributes of the ionosphere data, ranked by ReliefF on "
                "each training fold, and chooses the fewest within one "
                "standard error of the best. Its Preprocessor keeps that "
                "many inside Test & Score, for an honest estimate; the Data "
                "Table shows the data with the chosen attributes. Choose "
                "TuRF in Selection Curve to see the sets of its rounds.")
    data = b.node(FILE, (80, 150), "File (ionosphere)",
                  file_settings("ionosphere.tab"))
    knn = b.node(KNN, (130, 300), "kNN")
    curve = b.node(CURVE, (250, 150), "Selection Curve")
    table = b.node(TABLE, (440, 60), "Data Table")
    score = test_and_score(b, (440, 250), "Test & Score")
    b.link(data, "Data", curve, "Data")
    b.link(knn, "Learner", curve, "Learner")
    b.link(curve, "Selected Data", table, "Data")
    b.link(data, "Data", score, "Data")
    b.link(curve, "Preprocessor", score, "Preprocessor")
    b.link(knn, "Learner", score, "Learner")
    b.note((160, 362, 365, 113),
           "The curve: mean accuracy over 10 folds, a band of one standard "
           "error; hollow: the best count, filled: the chosen. Click to "
           "keep another. Test & Score keeps as many in its folds.")
    return b.write("selection-curve.ows")


def relief_stability(reg):
    b = Builder(reg, "How stable a ranking is",
                "The Relief widget weighs the heart disease data again on "
                "100 bootstrap samples: beside each bar, how often the "
                "attribute was among the best 5 and the range of its ranks; "
                "under the plot, how much the best five of the samples "
                "agree (the stability index). The Data Table shows the "
                "Weights output with these columns.")
    data = b.node(FILE, (90, 100), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    relief = b.node(RELIEF, (250, 100), "Relief (stability)",
                    {"method": "ReliefF", "stability": True,
                     "n_resamples": 100, "stability_k": 5,
                     "__version__": 2})
    table = b.node(TABLE, (430, 100), "Data Table (weights)")
    b.link(data, "Data", relief, "Data")
    b.link(relief, "Weights", table, "Data")
    b.note((60, 200, 420, 130),
           "Chest pain is among the best five in every resample; the fifth "
           "place goes to different attributes in different resamples. An "
           "index near 1 says the resamples agree; near 0, that the best "
           "five are as good as drawn at random.")
    return b.write("relief-stability.ows")


def consensus_rank(reg):
    b = Builder(reg, "One ranking from several scorers",
                "ReliefF, MultiSURF, logistic regression and Information "
                "Gain rank the heart disease attributes on scales that do "
                "not compare. Consensus Ranking averages their ranks and "
                "gives Rank one consensus column.")
    data = b.node(FILE, (90, 170), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    relieff = b.node(RELIEF, (220, 40), "ReliefF",
                     {"method": "ReliefF", "__version__": 2})
    multisurf = b.node(RELIEF, (220, 150), "MultiSURF",
                       {"method": "MultiSURF", "__version__": 2})
    logistic = b.node(LOGISTIC, (220, 270), "Logistic Regression")
    consensus = b.node(CONSENSUS, (380, 150), "Consensus Ranking")
    rank = b.node(RANK, (460, 270), "Rank",
                  {"selected_methods": RANK_METHODS,
                   "sorting": (RELIEF_COLUMN, DESCENDING), "__version__": 4})
    b.link_all((data,), "Data", (relieff, multisurf, consensus, rank),
               "Data")
    b.link(relieff, "Scorer", consensus, "Scorer")
    b.link(multisurf, "Scorer", consensus, "Scorer")
    b.link(logistic, "Learner", consensus, "Scorer")
    b.link(consensus, "Scorer", rank, "Scorer")
    b.note((10, 350, 510, 120),
           "Consensus Ranking also ranks by Information Gain (checked in "
           "it); its table lists every scorer's rank of every attribute. "
           "Rank sorts by its column Outranks, the consensus: how many "
           "attributes the scorers rank below each, on average (12 would be "
           "first for every scorer).")
    return b.write("consensus-rank.ows")


#: the XOR lesson's data: the class is a0 xor a1, a2 .. a7 random bits, few
#: instances (a seed whose Information Gain ranks a0 and a1 last, apart
#: from the random bits, and ReliefF first)
XOR_LESSON = {"problem": "XOR", "n_instances": 60, "n_relevant": 2,
              "n_irrelevant": 6, "random_seed": 25}


def interactions_xor(reg):
    b = Builder(reg, "XOR: attributes that matter only together",
                "A lesson: the class is a0 xor a1, and a2 ... a7 are random "
                "bits (60 instances). Alone, neither a0 nor a1 says "
                "anything about the class, so Information Gain ranks them "
                "last; ReliefF, whose nearest neighbours are found with all "
                "the attributes, ranks them first. Interactions shows why: "
                "the pair a0 x a1 is the strongest of its map, and its plot "
                "shows the four corners of the XOR. With a large k (the "
                "slider beside ReliefF's k) ReliefF becomes as myopic as "
                "Information Gain on these few instances (McKinney et al. "
                "2013).")
    data = b.node(GENERATOR, (60, 180), "XOR", XOR_LESSON)
    relief = b.node(RELIEF, (230, 50), "ReliefF",
                    {"method": "ReliefF", "__version__": 2})
    rank = b.node(RANK, (430, 100), "Rank",
                  {"selected_methods": RANK_METHODS,
                   "sorting": (0, DESCENDING), "__version__": 4})
    # all eight attributes mapped
    interactions = b.node(INTERACTIONS, (230, 285), "Interactions",
                          {"top_k": 8, "__version__": 1})
    table = b.node(TABLE, (430, 285), "Data Table (the pair)")
    b.link_all((data,), "Data", (relief, rank, interactions), "Data")
    b.link(relief, "Scorer", rank, "Scorer")
    b.link(interactions, "Selected Pair", table, "Data")
    b.note((300, 160, 225, 100),
           "1. Open Rank, sorted by Information Gain: a0 and a1 come last. "
           "ReliefF gives them the two largest weights.")
    b.note((10, 340, 515, 135),
           "2. Open Interactions: the deep blue cell is a0 x a1, the pair "
           "that acts together. Its plot of a0 against a1 has the classes "
           "in opposite corners; other cells mix them.\n"
           "3. In ReliefF, drag the k slider to its right end: every "
           "instance is a neighbour, and Rank shows a0 and a1 last, as "
           "Information Gain does.")
    return b.write("interactions-xor.ows")


def weights_of_targets(builder, name, title, settings):
    """File (the add-on's data set `name`, of several targets) -> Relief
    (`title`, `settings`) -> a Data Table of its weights, in a row."""
    from orangecontrib.relief.datasets import path

    data = builder.node(FILE, (90, 120), f"File ({name})",
                        file_settings(os.path.basename(path(name))))
    relief = builder.node(RELIEF, (250, 120), title, settings)
    table = builder.node(TABLE, (430, 120), "Data Table (weights)")
    builder.link(data, "Data", relief, "Data")
    builder.link(relief, "Weights", table, "Data")


def multitarget_collembola(reg):
    b = Builder(reg, "Several numeric targets: soil and springtails",
                "The collembola data (Kampichler, Dzeroski & Wieland 2000): "
                "393 soil samples, 47 attributes of the soil and the field "
                "(many values missing) and three numeric targets of the "
                "springtail community, class_spec, class_ind and "
                "class_fols. With several numeric targets the Relief "
                "widget weighs the attributes by all of them at once, by "
                "multi-target RReliefF (Petkovic, Kocev & Dzeroski 2020): "
                "an overall ranking and one per target, from one search "
                "for the neighbours. The Data Table shows them side by "
                "side.")
    weights_of_targets(b, "collembola", "Relief (every target)",
                       {"method": "RReliefF", "__version__": 2})
    b.note((10, 230, 515, 150),
           "1. Open Relief: only RReliefF is offered, for every target at "
           "once; the bars are the overall weights (the targets' "
           "differences averaged), and hovering over a bar shows each "
           "target's weight.\n"
           "2. Open the Data Table: a row per attribute, the column "
           "overall and a column per target. An attribute may matter for "
           "one target and not for the others.\n"
           "3. In File, make a target an attribute (or skip it) to weigh "
           "by the others.")
    return b.write("multitarget-collembola.ows")


def multilabel_yeast(reg):
    b = Builder(reg, "Several labels: the functions of yeast genes",
                "The yeast data (Elisseeff & Weston 2001, Mulan's copy): "
                "2,417 genes, 103 numeric attributes (expression and "
                "phylogenetic profiles) and 14 functional classes, each "
                "0 or 1, a gene having several. With several binary "
                "targets the Relief widget weighs the attributes by all "
                "the labels at once, by multi-label ReliefF (Reyes, Morell "
                "& Ventura 2015): the overall ranking by a distance of two "
                "genes' label sets, and each label's own ReliefF ranking. "
                "The Data Table shows them side by side.")
    weights_of_targets(b, "yeast", "Relief (every label)",
                       {"method": "ReliefF", "label_distance": "hamming",
                        "__version__": 2})
    b.note((10, 230, 515, 170),
           "1. Open Relief: 'Label sets differ by' chooses how far apart "
           "two genes' label sets are: the Hamming loss (the share of the "
           "labels on which they differ), 1 - accuracy, 1 - F1, or 1 - "
           "subset accuracy (any difference counts fully). Hover over a "
           "bar for each label's weight.\n"
           "2. Open the Data Table: the overall weight and each label's "
           "ReliefF weight, a column per label.\n"
           "3. The documentation's page on several targets compares the "
           "best attributes of this ranking with the label powerset's.")
    return b.write("multilabel-yeast.ows")


def main():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from orangewidget.settings import set_widget_settings_dir_components
    from AnyQt.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])  # noqa: F841
    with tempfile.TemporaryDirectory() as fresh:
        # the widgets' defaults of a fresh installation, not the builder's
        # (set before the registry imports the widgets, which read them)
        set_widget_settings_dir_components(fresh, "")
        reg = registry()
        for build in (rfsm_parity, rfsm_zoo, relief_rank,
                      relief_step_by_step, relief_significance,
                      generator_relief, separability_results, classdep_knn,
                      relief_preprocess, selection_curve, relief_stability,
                      consensus_rank, interactions_xor,
                      multitarget_collembola, multilabel_yeast):
            print(build(reg), flush=True)


if __name__ == "__main__":
    main()
