"""Write the example workflows of orangecontrib/relief/tutorials/*.ows.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/build_workflows.py``

The workflows are built with orangecanvas' scheme API from the widget
registry (Orange's widgets and this add-on's, found through their entry
points), so every node, channel and setting is one the canvas knows.  The
canvas lists them under Help > Example Workflows (entry point
``orange.widgets.tutorials``).
"""
import os
from pathlib import Path

TUTORIALS = (Path(__file__).resolve().parent.parent
             / "orangecontrib" / "relief" / "tutorials")

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


def registry():
    """The widget registry as the canvas builds it."""
    from Orange.canvas.config import Config
    from orangecanvas.registry import WidgetRegistry

    config = Config()
    reg = WidgetRegistry()
    config.widget_discovery(reg).run(config.widgets_entry_points())
    return reg


def file_settings(name):
    """Settings of a File widget that opens Orange's sample data set."""
    from Orange.widgets.data.owfile import OWFile
    from orangewidget.utils.filedialogs import RecentPath

    return {"recent_paths": [RecentPath("", "sample-datasets", name)],
            "source": 0, "__version__": OWFile.settings_version}


class Builder:
    """A scheme with helpers to add nodes, links and notes."""

    def __init__(self, reg, title, description):
        from orangecanvas.scheme import Scheme

        self.reg = reg
        self.scheme = Scheme(title=title, description=description)

    def node(self, qualified_name, position, title=None, settings=None):
        from orangecanvas.scheme import SchemeNode

        description = self.reg.widget(qualified_name)
        node = SchemeNode(description, title=title or description.name,
                          position=position, properties=settings or {})
        self.scheme.add_node(node)
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
        from orangecanvas.scheme.readwrite import scheme_to_ows_stream

        path = TUTORIALS / filename
        with open(path, "wb") as stream:
            scheme_to_ows_stream(self.scheme, stream, pretty=True,
                                 pickle_fallback=True)
        return path


def learners(builder, x, y):
    tree = builder.node(TREE, (x, y), "Tree")
    knn = builder.node(KNN, (x, y + 110), "kNN (k = 21)",
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
                "with the same learners on all.")
    data = b.node(GENERATOR, (60, 200), "Parity3+3",
                  {"problem": "Parity3+3", "n_instances": 64,
                   "random_seed": 0})
    rfsm, tree, knn = rfsm_with_learners(b, data, (240, 120), 300)
    knn5 = b.node(KNN, (240, 520), "kNN (k = 5)", {"n_neighbors": 5})
    selected = test_and_score(b, (460, 120), "Test & Score (RFSM)")
    everything = test_and_score(b, (460, 330), "Test & Score (all)")
    b.link(rfsm, "Reduced Data", selected, "Data")
    b.link(data, "Data", everything, "Data")
    b.link_all((tree, knn, knn5), "Learner", (selected, everything),
               "Learner")
    b.note((20, 20, 400, 70),
           "RFSM Selection finds the neighbours with all attributes and "
           "evaluates sets of attributes with them. Check 'Find neighbours "
           "within the set only' to see the search stop after one bit.")
    b.note((620, 120, 330, 210),
           "Why kNN (k = 21) scores 0.000 on the three selected bits: the 64 "
           "instances hold each of the 8 patterns 8 times; an instance's "
           "nearest are the 7 others with its pattern (its class) and then "
           "24 at distance one, which differ in one bit of the parity and "
           "so all have the other class. 21 neighbours are 7 of its class "
           "and 14 of the other: every vote is wrong. With k = 5 every vote "
           "is right (1.000). The paper's k = 21 suits larger data.")
    return b.write("rfsm-parity.ows")


def rfsm_zoo(reg):
    b = Builder(reg, "RFSM, Liu and the wrapper on zoo",
                "Select attributes of the zoo data with RFSM and a greedy "
                "search, then cross-validate a tree and kNN (k = 21) on "
                "them. Change the measure in RFSM Selection to Liu's "
                "consistency or to the wrapper (which uses the learner "
                "connected to it) to compare.")
    data = b.node(FILE, (60, 200), "File (zoo)", file_settings("zoo.tab"))
    rfsm, tree, knn = rfsm_with_learners(b, data, (240, 200), 330)
    # not stratified: zoo has a class of 4 animals, fewer than 10 folds
    score = test_and_score(b, (460, 200), "Test & Score", stratified=False)
    b.link(rfsm, "Reduced Data", score, "Data")
    b.link(tree, "Learner", rfsm, "Learner")
    b.link_all((tree, knn), "Learner", (score,), "Learner")
    b.note((200, 40, 330, 80),
           "The search trace in RFSM Selection shows the measure after "
           "each added attribute; the search stops when it does not grow. "
           "Test & Score does not stratify its 10 folds: one zoo class has "
           "only 4 animals.")
    return b.write("rfsm-zoo.ows")


def relief_rank(reg):
    b = Builder(reg, "Relief weights in Rank",
                "The Relief widget weights the attributes of the heart "
                "disease data with ReliefF and sends its scorer to Rank, "
                "which shows the weights next to its own scores and can "
                "select the best attributes.")
    data = b.node(FILE, (60, 150), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    relief = b.node(RELIEF, (240, 60), "Relief")
    rank = b.node(RANK, (420, 150), "Rank")
    b.link(data, "Data", relief, "Data")
    b.link(relief, "Scorer", rank, "Scorer")
    b.link(data, "Data", rank, "Data")
    return b.write("relief-rank.ows")


#: Rank's own methods in the significance workflow (one at least: with
#: none Rank takes its defaults), whose columns come before those of its
#: Scorer inputs, which come in the order of their links (Relief's
#: weights, then the significance): the significance column, counted from
#: 0 among the scores, is found by its place, whatever its name
RANK_METHODS = {"Information Gain"}
SIGNIFICANCE_COLUMN = len(RANK_METHODS) + 1
DESCENDING = 1  # Qt.DescendingOrder


def relief_significance(reg):
    b = Builder(reg, "Which attributes are significant",
                "The Relief widget weights the attributes of the heart "
                "disease data with ReliefF and tests which weights are "
                "significant (STIR, Benjamini-Hochberg, q <= 0.05). Rank "
                "shows the weights beside the significance and sorts by "
                "the significance; the Data Table gets the data with only "
                "the significant attributes.")
    data = b.node(FILE, (60, 200), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    relief = b.node(RELIEF, (280, 200), "Relief (significance)",
                    {"method": "ReliefF", "test_significance": True,
                     "__version__": 1})
    rank = b.node(RANK, (540, 50), "Rank (by significance)",
                  {"selected_methods": RANK_METHODS,
                   "sorting": (SIGNIFICANCE_COLUMN, DESCENDING),
                   "__version__": 4})
    table = b.node(TABLE, (540, 340), "Data Table (significant only)")
    b.link(data, "Data", relief, "Data")
    b.link(data, "Data", rank, "Data")
    b.link(relief, "Scorer", rank, "Scorer")
    b.link(relief, "Significance Scorer", rank, "Scorer")
    b.link(relief, "Significant Data", table, "Data")
    b.note((20, 320, 360, 170),
           "In Relief, 'Test which attributes are significant' is checked: "
           "every weight gets a p-value, adjusted for testing 13 attributes "
           "at once (q). The significant ones come first in its plot, "
           "above a dashed line; pale bars are not significant.")
    b.note((680, 10, 330, 150),
           "Rank: Information Gain, the ReliefF weights and the "
           "significance ('STIR -log10 q': 1.3 is q = 0.05, higher is "
           "more significant), sorted by the significance. Choose 'Best "
           "ranked' to send the top attributes on.")
    b.note((680, 320, 330, 110),
           "The Data Table gets Relief's 'Significant Data': the data with "
           "only the significant attributes (the class and metas kept), "
           "ready for a learner.")
    return b.write("relief-significance.ows")


def generator_relief(reg):
    b = Builder(reg, "Generated data with known relevant attributes",
                "The Relief Data Generator makes the papers' artificial "
                "problems, whose relevant attributes are known. The Relief "
                "widget stars them, so one sees whether Relief found them; "
                "the Data Table shows the generated data.")
    data = b.node(GENERATOR, (60, 180), "Relief Data Generator",
                  {"problem": "MajorityN", "n_instances": 300,
                   "random_seed": 0})
    relief = b.node(RELIEF, (280, 100), "Relief",
                    {"method": "MultiSURF", "test_significance": True,
                     "__version__": 1})
    table = b.node(TABLE, (280, 280), "Data Table")
    b.link(data, "Data", relief, "Data")
    b.link(data, "Data", table, "Data")
    b.note((430, 40, 330, 150),
           "MajorityN: the class is the majority of the relevant bits. In "
           "Relief, the relevant attributes carry a star and a red outline; "
           "with 'Test which attributes are significant' checked (STIR), "
           "the significant ones come first, above a dashed line. Try other "
           "problems and more irrelevant attributes in the generator.")
    return b.write("generator-relief.ows")


def separability_results(reg):
    b = Builder(reg, "Separability of the ReliefF variants",
                "The Separability widget repeats Prat & Belanche's "
                "experiment on its artificial problems: how well ReliefF, "
                "dReliefF and pdReliefF separate relevant from irrelevant "
                "attributes as irrelevant ones are added. Press Run.")
    separability = b.node(SEPARABILITY, (80, 150), "Separability",
                          {"problems": ["MajorityN", "NonMonotonic"],
                           "max_relevant": 3, "n_datasets": 3,
                           "__version__": 1})
    table = b.node(TABLE, (320, 150), "Data Table (results)")
    b.link(separability, "Results", table, "Data")
    b.note((20, 20, 420, 90),
           "A small design that runs in seconds; raise the relevant "
           "attributes and the data sets per cell for the paper's curves. "
           "Above zero, relevant attributes outweigh irrelevant ones; the "
           "results table has one row per problem and design cell.")
    return b.write("separability.ows")


def classdep_knn(reg):
    b = Builder(reg, "Class-dependent kNN against kNN",
                "Class-Dependent kNN learns one attribute weight vector per "
                "class (IWCDRelief) and classifies with weighted distances. "
                "Test & Score compares it with Orange's kNN by "
                "cross-validation; Rank shows the weights of each class.")
    data = b.node(FILE, (60, 180), "File (heart disease)",
                  file_settings("heart_disease.tab"))
    classdep = b.node(CLASSDEP, (260, 80), "Class-Dependent kNN")
    knn = b.node(KNN, (260, 280), "kNN")
    score = b.node(TEST, (480, 180), "Test & Score",
                   {"resampling": 0, "n_folds": 3, "__version__": 4})
    rank = b.node(RANK, (480, 20), "Rank (weights per class)")
    b.link(data, "Data", classdep, "Data")
    b.link(data, "Data", score, "Data")
    b.link_all((classdep, knn), "Learner", (score,), "Learner")
    b.link(classdep, "Scorer", rank, "Scorer")
    b.link(data, "Data", rank, "Data")
    b.note((620, 120, 320, 130),
           "By default the threshold of IWCDRelief is chosen by a "
           "cross-validation on the training data, where equal weights "
           "compete: the learner is not worse than a plain kNN where the "
           "learnt weights do not help. Rank: a column per class.")
    return b.write("classdep-knn.ows")


def relief_step_by_step(reg):
    b = Builder(reg, "Relief, step by step, on Parity3+3",
                "A lesson: the class of Parity3+3 is x1 xor x2 xor x3. "
                "Alone, no bit says anything about the class, so Information "
                "Gain scores the relevant bits 0; Relief finds them because "
                "the nearest neighbours, found with all attributes, see the "
                "bits together. Step through Relief to watch it happen, then "
                "compare the two rankings in Rank.")
    data = b.node(GENERATOR, (60, 230), "Parity3+3",
                  {"problem": "Parity3+3", "n_instances": 64,
                   "random_seed": 0})
    steps = b.node(STEPS, (320, 110), "Relief, step by step",
                   {"variant_index": 0, "k_nearest": 5, "speed_index": 1,
                    "__version__": 1})
    relief = b.node(RELIEF, (320, 350), "ReliefF",
                    {"method": "ReliefF", "k_relieff": 5, "__version__": 1})
    rank = b.node(RANK, (600, 400), "Rank (Information Gain and ReliefF)",
                  {"selected_methods": {"Information Gain"},
                   "__version__": 4})
    b.link_all((data,), "Data", (steps, relief, rank), "Data")
    b.link(relief, "Scorer", rank, "Scorer")
    b.note((20, 300, 220, 150),
           "Parity3+3: the class is x1 xor x2 xor x3. x1_copy, x2_copy and "
           "x3_copy repeat the three bits; irr1 ... irr6 are random. 64 "
           "instances: every combination equally often.")
    b.note((440, 0, 500, 230),
           "1. Open 'Relief, step by step'. With x1 and x2 on the axes both "
           "classes sit in every corner: no single bit tells the class.\n"
           "2. Press 'Choose a reference' and follow the button through the "
           "stages of a step. The near hit (solid line) has the reference's "
           "x1, x2 and x3 and differs in random bits only; the near miss "
           "(dashed) differs in one of the three bits (and its copy), and "
           "in most steps in a random bit too. The table shows distances "
           "and diffs, the bars the weights after each update.\n"
           "3. Run one pass: the relevant bits gain in every step and end "
           "on top; the random bits gain now and then but lose more often. "
           "Try ReliefF with k = 5.")
    b.note((700, 360, 300, 120),
           "4. Open Rank: Information Gain scores x1, x2, x3 (and copies) 0 "
           "and puts random bits above them; the ReliefF column ranks the "
           "six relevant bits first.")
    return b.write("relief-step-by-step.ows")


def main():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from AnyQt.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])  # noqa: F841
    reg = registry()
    for build in (rfsm_parity, rfsm_zoo, relief_rank, relief_step_by_step,
                  relief_significance, generator_relief, separability_results,
                  classdep_knn):
        print(build(reg))


if __name__ == "__main__":
    main()
