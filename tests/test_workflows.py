"""The example workflows, as a person meets them: every .ows in
orangecontrib/relief/tutorials opens through Orange's own loading code
(the canvas's workflow, its base directory the tutorials' folder), its File
widgets read the add-on's data sets, every node stores its widget's
complete settings, the workflow fits the canvas's first window, and the
outputs are those its notes promise."""
import ast
import base64
import importlib
import io
import pickle
import unittest

import numpy as np

import pytest
from AnyQt.QtCore import Qt
from orangecanvas.registry import (CategoryDescription, WidgetDescription,
                                   WidgetRegistry)
from orangecanvas.scheme import Scheme
from orangecanvas.scheme.readwrite import parse_ows_stream, scheme_load
from Orange.data import Table
from Orange.evaluation import CA
from Orange.widgets.settings import ContextSetting
from orangewidget.tests.base import GuiTest

from orangecontrib.relief.datasets import path
from orangecontrib.relief.interactions import pairs_table
from orangecontrib.relief.multitarget import MultiTargetRReliefF
from orangecontrib.relief.significance import SIGNIFICANCE_COLUMN
from orangecontrib.relief.tutorials.canvas import (TUTORIALS,
                                                   beyond_first_view,
                                                   close_workflow,
                                                   open_workflow, settle,
                                                   widget_of)
from tests.waiting import HANG_GUARD_S

WORKFLOWS = sorted(TUTORIALS.glob("*.ows"))
#: Orange's own settings of a widget that a workflow need not hold
ORANGES_OWN = {"savedWidgetGeometry", "controlAreaVisible"}


def widget_class(qualified_name):
    module, _, name = qualified_name.rpartition(".")
    return getattr(importlib.import_module(module), name)


def registry_of(qualified_names):
    """A registry with just these widgets (the canvas' discovery of all
    installed widgets takes long)."""
    reg = WidgetRegistry()
    for qualified_name in sorted(set(qualified_names)):
        description = WidgetDescription(
            **widget_class(qualified_name).get_widget_description())
        if not reg.has_category(description.category):
            reg.register_category(CategoryDescription(
                name=description.category))
        reg.register_widget(description)
    return reg


def description_of(workflow):
    return parse_ows_stream(io.BytesIO((TUTORIALS / workflow).read_bytes()))


def registry_for(workflow):
    return registry_of(node.qualified_name
                       for node in description_of(workflow).nodes)


def stored_settings(node):
    """The settings a parsed node stores."""
    data = node.data
    if data is None:
        return {}
    if data.format == "literal":
        return ast.literal_eval(data.data)
    return pickle.loads(base64.b64decode(data.data))  # noqa: S301 (ours)


def test_workflows_are_shipped():
    names = {workflow.name for workflow in WORKFLOWS}
    # one for each widget of the add-on
    assert {"rfsm-parity.ows", "rfsm-zoo.ows", "relief-rank.ows",
            "relief-step-by-step.ows", "relief-significance.ows",
            "generator-relief.ows", "separability.ows",
            "classdep-knn.ows", "relief-preprocess.ows",
            "selection-curve.ows", "relief-stability.ows",
            "consensus-rank.ows", "interactions-xor.ows",
            "multitarget-collembola.ows", "multilabel-yeast.ows"} <= names


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_loads_with_its_widgets(workflow):
    content = workflow.read_bytes()
    description = parse_ows_stream(io.BytesIO(content))
    qualified = [node.qualified_name for node in description.nodes]
    scheme = Scheme()
    errors = []
    scheme_load(scheme, io.BytesIO(content), registry=registry_of(qualified),
                error_handler=errors.append)
    assert not errors
    assert len(scheme.nodes) == len(description.nodes)
    assert len(scheme.links) == len(description.links)  # channels exist
    assert scheme.title and scheme.description


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_node_stores_all_its_settings(workflow):
    """A node that stores only some settings opens with the others of
    the person's last work (Orange keeps every widget's last settings as
    its defaults): a tutorial's Relief would open with a test its notes
    never mention."""
    for node in description_of(workflow.name).nodes:
        settings = stored_settings(node)
        provider = widget_class(node.qualified_name).settingsHandler.provider
        wanted = {name for name, setting in provider.settings.items()
                  if not isinstance(setting, ContextSetting)} - ORANGES_OWN
        assert wanted <= set(settings), (node.title,
                                         wanted - set(settings))


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_the_files_are_the_add_ons_data_sets(workflow):
    """A File node names its data set relative to the workflow's folder,
    where the canvas resolves it: the add-on's own data sets, which every
    installation has (Orange's sample data sets vary by version)."""
    for node in description_of(workflow.name).nodes:
        if node.qualified_name.endswith("OWFile"):
            recent = stored_settings(node)["recent_paths"][0]
            assert recent.prefix == "basedir"
            assert (TUTORIALS / recent.relpath).resolve().parent == \
                TUTORIALS.parent / "datasets"
            assert (TUTORIALS / recent.relpath).exists()


class TestTheFirstWindow(GuiTest):
    @pytest.mark.filterwarnings("ignore")
    def test_every_workflow_fits_the_canvas_first_window(self):
        for workflow in WORKFLOWS:
            self.assertEqual(
                beyond_first_view(workflow, registry_for(workflow.name)), [],
                workflow.name)


class OpenedWorkflow(GuiTest):
    """A tutorial opened as the canvas opens it (``WORKFLOW``), its data
    read and its widgets' work done."""
    WORKFLOW = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if cls.WORKFLOW is None:
            raise unittest.SkipTest("the class of the tutorials' tests")
        cls.scheme = open_workflow(cls.WORKFLOW, registry_for(cls.WORKFLOW))
        cls.settle()

    @classmethod
    def settle(cls):
        """Let the signals pass and every widget finish its work."""
        assert settle(cls.scheme, HANG_GUARD_S)

    @classmethod
    def tearDownClass(cls):
        close_workflow(cls.scheme)
        super().tearDownClass()

    def widget(self, title):
        return widget_of(self.scheme, title)

    def sent(self, title, channel):
        """What the node titled `title` sends on its output `channel`."""
        link = next(link for link in self.scheme.links
                    if link.source_node.title == title
                    and link.source_channel.name == channel)
        contents = self.scheme.signal_manager.link_contents(link)
        return next(iter(contents.values()), None)

    def accuracy(self, title):
        """{learner's name: accuracy} of the Test & Score node `title`."""
        score = self.widget(title)
        return {slot.learner.name: CA(slot.results.value)[0]
                for slot in score.learners.values()}

    def rank_columns(self, title):
        """{column: {attribute name: score}} of the Rank node `title`,
        and its attributes from the top."""
        rank = self.widget(title)
        model = rank.ranksModel
        headers = [model.headerData(c, Qt.Horizontal)
                   for c in range(model.columnCount())]
        rows = [[model.data(model.index(r, c), Qt.EditRole)
                 for c in range(model.columnCount())]
                for r in range(model.rowCount())]
        names = [row[0].name for row in rows]
        return ({header: {name: row[c] for name, row in zip(names, rows)}
                 for c, header in enumerate(headers) if c >= 2}, names)


class TestReliefRank(OpenedWorkflow):
    WORKFLOW = "relief-rank.ows"

    def test_rank_shows_relieffs_weights_beside_information_gain(self):
        columns, _ = self.rank_columns("Rank")
        self.assertIn("Info. gain", columns)
        relief = self.widget("Relief")
        data = Table(path("heart_disease"))
        weights = dict(zip([a.name for a in data.domain.attributes],
                           relief.scores.weights))
        self.assertEqual(columns["ReliefF\u2081\u2080"], weights)


class TestSignificance(OpenedWorkflow):
    WORKFLOW = "relief-significance.ows"

    def test_rank_sorts_by_the_significance_the_table_gets_the_rest(self):
        relief = self.widget("Relief (significance)")
        tested = relief.scores.tested
        self.assertEqual(tested.test, "stir")
        data = Table(path("heart_disease"))
        significant = [a.name for a, s in zip(data.domain.attributes,
                                              tested.significant) if s]
        self.assertTrue(0 < len(significant) < len(data.domain.attributes))
        table = self.sent("Relief (significance)", "Significant Data")
        self.assertEqual([a.name for a in table.domain.attributes],
                         significant)
        columns, order = self.rank_columns("Rank (by significance)")
        rank = self.widget("Rank (by significance)")
        header = rank.ranksView.horizontalHeader()
        self.assertEqual(rank.ranksModel.headerData(
            header.sortIndicatorSection(), Qt.Horizontal),
            SIGNIFICANCE_COLUMN)
        self.assertEqual(header.sortIndicatorOrder(), Qt.DescendingOrder)
        self.assertEqual(set(order[:len(significant)]), set(significant))
        scores = columns[SIGNIFICANCE_COLUMN]
        self.assertTrue(all(scores[name] > -np.log10(0.05)
                            for name in significant))


class TestStability(OpenedWorkflow):
    WORKFLOW = "relief-stability.ows"

    def test_chest_pain_is_always_among_the_best_five(self):
        weights = self.sent("Relief (stability)", "Weights")
        frequency = dict(zip(weights.get_column("attribute"),
                             weights.get_column("selected")))
        self.assertEqual(frequency["chest pain"], 1)
        stable = self.widget("Relief (stability)").scores.stable
        self.assertEqual(len(stable.resamples), 100)
        self.assertEqual(stable.top_k, 5)
        self.assertLess(stable.index.value, 1)


class TestSelectionInsideCrossValidation(OpenedWorkflow):
    WORKFLOW = "relief-preprocess.ows"

    def test_inside_stays_at_chance_first_seems_to_learn(self):
        noise = self.sent("Randomize", "Data")
        self.assertEqual(len(noise.domain.attributes), 500)
        preprocessor = self.sent("Relief (best 5)", "Preprocessor")
        self.assertEqual(preprocessor.k, 5)
        chosen_first = self.sent("Rank (best 5)", "Reduced Data")
        self.assertEqual(
            {a.name for a in chosen_first.domain.attributes},
            {a.name for a in preprocessor(noise).domain.attributes})
        inside, = self.accuracy("Test & Score (inside)").values()
        first, = self.accuracy("Test & Score (first)").values()
        shown = (f"accuracy {inside:.2f} with the Preprocessor, {first:.2f} "
                 f"with the attributes chosen first")
        self.assertLess(abs(inside - 0.5), 0.1, shown)
        self.assertGreater(first, inside + 0.15, shown)


class TestSelectionCurve(OpenedWorkflow):
    WORKFLOW = "selection-curve.ows"

    def test_the_curve_chooses_few_and_its_preprocessor_keeps_them(self):
        curve = self.widget("Selection Curve").result[0]
        self.assertLess(curve.chosen, 10)
        selected = self.sent("Selection Curve", "Selected Data")
        self.assertEqual(len(selected.domain.attributes), curve.chosen)
        # Test & Score, the attributes chosen inside its folds, estimates
        # what the curve found for that many
        accuracy, = self.accuracy("Test & Score").values()
        estimate = curve.mean[list(curve.counts).index(curve.chosen)]
        self.assertLess(abs(accuracy - estimate), 0.05,
                        (accuracy, estimate))


class TestConsensus(OpenedWorkflow):
    WORKFLOW = "consensus-rank.ows"

    def test_rank_gets_one_positive_consensus_column(self):
        consensus = self.widget("Consensus Ranking")
        self.assertEqual(len(consensus.names), 4)  # and Information Gain
        columns, order = self.rank_columns("Rank")
        counts = columns["Outranks"]
        self.assertTrue(all(0 <= count <= 12 for count in counts.values()))
        # sorted by the consensus, the best first
        self.assertEqual(order[0], max(counts, key=counts.get))
        # the consensus widget's table has the same best
        self.assertEqual(consensus.model.item(0, 0).text(), order[0])


class TestGeneratedData(OpenedWorkflow):
    WORKFLOW = "generator-relief.ows"

    def test_relief_stars_the_relevant_bits_and_finds_them(self):
        relief = self.widget("Relief")
        self.assertEqual(relief.method, "MultiSURF")
        ticks = [label for _, label in
                 relief.plot.getAxis("left")._tickLevels[0]]
        starred = [label for label in ticks if label.startswith("\u2605")]
        self.assertEqual(len(starred), 5)
        # the relevant bits are significant and on top
        self.assertTrue(all(label.startswith("\u2605")
                            for label in ticks[:5]))
        self.assertEqual(int(relief.scores.tested.significant.sum()), 5)


class TestSeparability(OpenedWorkflow):
    WORKFLOW = "separability.ows"

    def test_run_gives_the_results_table(self):
        widget = self.widget("Separability")
        widget.run_button.click()
        self.settle()
        results = self.sent("Separability", "Results")
        self.assertEqual(set(results.domain["problem"].values),
                         {"MajorityN", "NonMonotonic"})
        self.assertEqual(len(widget.plot_separability.curves), 3)


class TestClassDependentKNN(OpenedWorkflow):
    WORKFLOW = "classdep-knn.ows"

    def test_test_and_score_compares_and_rank_has_a_column_per_class(self):
        accuracy = self.accuracy("Test & Score")
        self.assertEqual(len(accuracy), 2)
        # not worse than a plain kNN
        self.assertGreaterEqual(accuracy["Class-Dependent kNN"],
                                accuracy["kNN"])
        columns, _ = self.rank_columns("Rank (per class)")
        self.assertEqual(
            [c for c in columns if c.startswith("IWCDRelief for class")],
            [f"IWCDRelief for class {value}" for value in
             Table(path("heart_disease")).domain.class_var.values])


class TestRFSMOnParity(OpenedWorkflow):
    WORKFLOW = "rfsm-parity.ows"

    def test_rfsm_keeps_three_bits_and_knn_of_21_votes_wrong(self):
        reduced = self.sent("RFSM Selection", "Reduced Data")
        names = sorted(a.name for a in reduced.domain.attributes)
        self.assertEqual([name.removesuffix("_copy") for name in names],
                         ["x1", "x2", "x3"])
        accuracy = self.accuracy("Test & Score (RFSM)")
        self.assertEqual(accuracy["kNN (k = 21)"], 0)
        self.assertEqual(accuracy["kNN (k = 5)"], 1)


class TestRFSMOnZoo(OpenedWorkflow):
    WORKFLOW = "rfsm-zoo.ows"

    def test_the_search_keeps_few_and_stops_where_the_measure_stops(self):
        rfsm = self.widget("RFSM Selection")
        reduced = self.sent("RFSM Selection", "Reduced Data")
        self.assertEqual({a.name for a in reduced.domain.attributes},
                         {rfsm.data.domain.attributes[i].name
                          for i in rfsm.result.selected})
        self.assertLess(len(rfsm.result.selected), 10)
        self.assertIn("sets evaluated", rfsm.summary.text())
        # both learners scored on what it kept, not stratified (a class
        # of 4 animals)
        score = self.widget("Test & Score")
        self.assertFalse(score.cv_stratified)
        self.assertEqual(len(self.accuracy("Test & Score")), 2)


class TestStepByStep(OpenedWorkflow):
    WORKFLOW = "relief-step-by-step.ows"

    def test_information_gain_misses_the_bits_relieff_finds(self):
        steps = self.widget("Relief, step by step")
        self.assertIsNotNone(steps.stepper)
        columns, _ = self.rank_columns("Rank")
        relevant = {"x1", "x2", "x3", "x1_copy", "x2_copy", "x3_copy"}
        gain = columns["Info. gain"]
        self.assertTrue(all(gain[name] < 0.01 for name in relevant))
        relieff = columns["ReliefF\u2085"]
        best = sorted(relieff, key=relieff.get, reverse=True)[:6]
        self.assertEqual(set(best), relevant)


class TestXORLesson(OpenedWorkflow):
    WORKFLOW = "interactions-xor.ows"

    def test_gain_ranks_the_bits_last_relieff_first_the_map_pairs_them(self):
        columns, order = self.rank_columns("Rank")
        # sorted by Information Gain, the XOR bits last
        self.assertEqual(set(order[-2:]), {"a0", "a1"})
        relieff = columns["ReliefF\u2081\u2080"]
        self.assertEqual(set(sorted(relieff, key=relieff.get,
                                    reverse=True)[:2]), {"a0", "a1"})
        strongest = pairs_table(self.widget("Interactions").found)[0]
        self.assertEqual({str(strongest["attribute 1"]),
                          str(strongest["attribute 2"])}, {"a0", "a1"})
        self.assertLess(strongest["interaction"], 0)  # the deep blue cell
        self.assertLess(strongest["q"], 0.05)
        pair = self.sent("Interactions", "Selected Pair")
        self.assertEqual({a.name for a in pair.domain.attributes},
                         {"a0", "a1"})
        self.assertEqual(len(pair), 60)

    def test_a_large_k_makes_relieff_myopic(self):
        relief = self.widget("ReliefF")
        self.assertEqual(relief.k_relieff, 10)
        slider = relief.k_sliders["k_relieff"]
        self.assertEqual(slider.maximum(), 59)
        slider.setValue(59)  # as a drag ends at the slider's right end
        try:
            self.settle()
            columns, _ = self.rank_columns("Rank")
            relieff = columns["ReliefF\u2085\u2089"]
            self.assertEqual(set(sorted(relieff, key=relieff.get)[:2]),
                             {"a0", "a1"})
        finally:
            slider.setValue(10)
            self.settle()


class TestSeveralNumericTargets(OpenedWorkflow):
    WORKFLOW = "multitarget-collembola.ows"

    def test_the_table_has_the_overall_weights_and_each_targets(self):
        relief = self.widget("Relief (every target)")
        self.assertEqual(relief.method, "RReliefF")
        self.assertTrue(relief.label_distance_box.isHidden())
        data = Table(path("collembola"))
        expected = MultiTargetRReliefF().target_rankings(data)
        weights = self.sent("Relief (every target)", "Weights")
        names = ["overall", "class_spec", "class_ind", "class_fols"]
        self.assertEqual([var.name for var in weights.domain.attributes],
                         names)
        for name in names:
            np.testing.assert_allclose(
                dict_order(weights, name, expected.get_column("attribute")),
                expected.get_column(name), rtol=0, atol=1e-12)


class TestSeveralLabels(OpenedWorkflow):
    WORKFLOW = "multilabel-yeast.ows"

    def test_the_labels_are_weighed_by_the_hamming_loss_offered(self):
        relief = self.widget("Relief (every label)")
        self.assertEqual(relief.method, "ReliefF")
        self.assertFalse(relief.label_distance_box.isHidden())
        self.assertEqual(relief.make_scorer().distance, "hamming")
        weights = self.sent("Relief (every label)", "Weights")
        self.assertEqual([var.name for var in weights.domain.attributes],
                         ["overall"] + [f"Class{i}" for i in range(1, 15)])
        self.assertEqual(len(weights), 103)
        self.assertEqual(relief.scores.targets.shape, (14, 103))


def dict_order(table, column, attributes):
    """`table`'s `column`, its rows in the order of `attributes`."""
    by_name = dict(zip(table.get_column("attribute"),
                       table.get_column(column)))
    return [by_name[name] for name in attributes]
