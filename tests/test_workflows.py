"""The example workflows: every .ows in orangecontrib/relief/tutorials
parses, names widgets that import, and links channels the widgets have."""
import ast
import base64
import importlib
import io
import pickle
from pathlib import Path

import numpy as np

import pytest
from orangecanvas.registry import (CategoryDescription, WidgetDescription,
                                   WidgetRegistry)
from orangecanvas.scheme import Scheme
from AnyQt.QtCore import Qt
from orangecanvas.scheme.readwrite import parse_ows_stream, scheme_load
from Orange.data import Table
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief import tutorials
from orangecontrib.relief.datasets import path
from orangecontrib.relief.widgets.owrelief import OWRelief

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted(Path(tutorials.__file__).parent.glob("*.ows"))


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


def test_workflows_are_shipped():
    names = {path.name for path in WORKFLOWS}
    # one for each widget of the add-on
    assert {"rfsm-parity.ows", "rfsm-zoo.ows", "relief-rank.ows",
            "relief-step-by-step.ows", "relief-significance.ows",
            "generator-relief.ows", "separability.ows",
            "classdep-knn.ows", "relief-preprocess.ows",
            "selection-curve.ows", "relief-stability.ows",
            "consensus-rank.ows"} <= names


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_loads_with_its_widgets(path):
    content = path.read_bytes()
    description = parse_ows_stream(io.BytesIO(content))
    qualified = [node.qualified_name for node in description.nodes]
    for name in qualified:
        widget_class(name)  # every widget exists
    scheme = Scheme()
    errors = []
    scheme_load(scheme, io.BytesIO(content), registry=registry_of(qualified),
                error_handler=errors.append)
    assert not errors
    assert len(scheme.nodes) == len(description.nodes)
    assert len(scheme.links) == len(description.links)  # channels exist
    assert scheme.title and scheme.description


def test_rfsm_workflows_have_the_papers_learners():
    for name in ("rfsm-parity.ows", "rfsm-zoo.ows"):
        description = parse_ows_stream(
            io.BytesIO((Path(tutorials.__file__).parent / name).read_bytes()))
        names = {node.qualified_name for node in description.nodes}
        assert "orangecontrib.relief.widgets.owrfsm.OWRFSM" in names
        assert "Orange.widgets.evaluate.owtestandscore.OWTestAndScore" in names
        knn = next(node for node in description.nodes
                   if node.qualified_name.endswith("OWKNNLearner"))
        assert knn.data.format == "literal"
        assert ast.literal_eval(knn.data.data)["n_neighbors"] == 21


def test_entry_point_and_package_data():
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '"orange.widgets.tutorials"' in setup
    assert "orangecontrib.relief.tutorials" in setup
    assert '"*.ows"' in setup


def node_settings(workflow, qualified_name):
    """The stored settings of `workflow`'s node of that widget."""
    description = parse_ows_stream(io.BytesIO(
        (Path(tutorials.__file__).parent / workflow).read_bytes()))
    node = next(n for n in description.nodes
                if n.qualified_name == qualified_name)
    data = node.data
    if data is None:  # a node of default settings
        return {}
    if data.format == "literal":
        return ast.literal_eval(data.data)
    return pickle.loads(base64.b64decode(data.data))  # noqa: S301 (ours)


class TestSignificanceWorkflow(WidgetTest):
    """The significance workflow does what its notes say: Rank sorts by
    Relief's significance column, whatever its name, and the Data Table
    gets only the significant attributes."""
    WORKFLOW = "relief-significance.ows"

    def test_rank_sorts_by_the_significance(self):
        relief = self.create_widget(OWRelief, stored_settings=node_settings(
            self.WORKFLOW, "orangecontrib.relief.widgets.owrelief.OWRelief"))
        data = Table(path("heart_disease"))
        self.send_signal(relief.Inputs.data, data, widget=relief)
        self.wait_until_finished(widget=relief)
        scorer = self.get_output(relief.Outputs.scorer, widget=relief)
        significance = self.get_output(relief.Outputs.significance,
                                       widget=relief)
        self.assertIsNotNone(significance)
        significant = self.get_output(relief.Outputs.significant_data,
                                      widget=relief)
        tested = relief.scores.tested
        self.assertEqual(
            [a.name for a in significant.domain.attributes],
            [a.name for a, s in zip(data.domain.attributes,
                                    tested.significant) if s])
        self.assertTrue(0 < len(significant.domain.attributes)
                        < len(data.domain.attributes))
        rank = self.create_widget(OWRank, stored_settings=node_settings(
            self.WORKFLOW, "Orange.widgets.data.owrank.OWRank"))
        self.send_signal(rank.Inputs.data, data, widget=rank)
        # in the order of the workflow's links: the weights, then the test
        self.send_signal(rank.Inputs.scorer, scorer, 0, widget=rank)
        self.send_signal(rank.Inputs.scorer, significance, 1, widget=rank)
        self.wait_until_finished(widget=rank)
        header = rank.ranksView.horizontalHeader()
        column = header.sortIndicatorSection()
        self.assertEqual(rank.ranksModel.headerData(column, Qt.Horizontal),
                         significance.name)
        self.assertEqual(header.sortIndicatorOrder(), Qt.DescendingOrder)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        ranked = [rank.ranksModel.data(rank.ranksModel.index(row, 0))
                  for row in range(rank.ranksModel.rowCount())]
        order = np.argsort(-significance_column(significance, data),
                           kind="stable")
        top = [data.domain.attributes[i].name for i in order]
        self.assertEqual(set(ranked[:len(significant.domain.attributes)]),
                         set(top[:len(significant.domain.attributes)]))
        self.assertIsNotNone(scores)


def significance_column(scorer, data):
    """The significance column of `scorer` on `data` (-log10 q)."""
    return np.asarray(scorer.score_data(data))[0]


RELIEF = "orangecontrib.relief.widgets.owrelief.OWRelief"


class TestSelectionWorkflows(WidgetTest):
    """The workflows of selection do what their notes say."""

    def widget_of(self, workflow, qualified_name, kind=None):
        """A widget of `workflow`'s node of that widget, with its
        settings (`kind`: the class, imported here where given)."""
        return self.create_widget(
            kind or widget_class(qualified_name),
            stored_settings=node_settings(workflow, qualified_name))

    def output(self, widget, name):
        self.wait_until_finished(widget=widget)
        return self.get_output(getattr(widget.Outputs, name), widget=widget)

    def accuracy(self, data, preprocessor=None):
        """Test & Score's accuracy of kNN on `data`, as the workflow's
        Test & Score nodes are set (10-fold)."""
        from Orange.evaluation import CA
        from Orange.modelling import KNNLearner
        from Orange.widgets.evaluate.owtestandscore import OWTestAndScore

        score = self.create_widget(OWTestAndScore, stored_settings=node_settings(
            "relief-preprocess.ows",
            "Orange.widgets.evaluate.owtestandscore.OWTestAndScore"))
        self.send_signal(score.Inputs.train_data, data, widget=score)
        self.send_signal(score.Inputs.learner, KNNLearner(), 0, widget=score)
        self.send_signal(score.Inputs.preprocessor, preprocessor,
                         widget=score)
        return CA(self.output(score, "evaluations_results"))[0]

    def test_selection_inside_cross_validation_stays_at_chance(self):
        from Orange.widgets.data.owrandomize import OWRandomize

        workflow = "relief-preprocess.ows"
        generator = self.widget_of(
            workflow,
            "orangecontrib.relief.widgets.owgenerator.OWReliefGenerator")
        randomize = self.widget_of(
            workflow, "Orange.widgets.data.owrandomize.OWRandomize",
            OWRandomize)
        self.send_signal(randomize.Inputs.data,
                         self.output(generator, "data"), widget=randomize)
        noise = self.output(randomize, "data")
        self.assertEqual(len(noise.domain.attributes), 500)
        relief = self.widget_of(workflow, RELIEF)
        self.send_signal(relief.Inputs.data, noise, widget=relief)
        preprocessor = self.output(relief, "preprocessor")
        self.assertEqual(preprocessor.k, 5)
        rank = self.widget_of(workflow, "Orange.widgets.data.owrank.OWRank",
                              OWRank)
        self.send_signal(rank.Inputs.data, noise, widget=rank)
        self.send_signal(rank.Inputs.scorer,
                         self.output(relief, "scorer"), 0, widget=rank)
        chosen_first = self.output(rank, "reduced_data")
        self.assertEqual(
            {a.name for a in chosen_first.domain.attributes},
            {a.name for a in preprocessor(noise).domain.attributes})
        inside = self.accuracy(noise, preprocessor)
        first = self.accuracy(chosen_first)
        shown = (f"accuracy {inside:.2f} with the Preprocessor, {first:.2f} "
                 f"with the attributes chosen first")
        self.assertLess(abs(inside - 0.5), 0.1, shown)
        self.assertGreater(first, inside + 0.15, shown)

    def test_the_selection_curve_chooses_and_its_preprocessor_keeps(self):
        from orangecontrib.relief.widgets.owselectioncurve import (
            OWSelectionCurve)

        curve = self.widget_of("selection-curve.ows",
                               "orangecontrib.relief.widgets."
                               "owselectioncurve.OWSelectionCurve",
                               OWSelectionCurve)
        data = Table(path("ionosphere"))
        self.send_signal(curve.Inputs.data, data, widget=curve)
        selected = self.output(curve, "selected_data")
        chosen = curve.result[0].chosen
        self.assertEqual(len(selected.domain.attributes), chosen)
        self.assertLess(chosen, 10)
        self.assertGreater(self.accuracy(data, self.output(
            curve, "preprocessor")), 0.85)

    def test_the_stability_workflow_adds_its_columns(self):
        relief = self.widget_of("relief-stability.ows", RELIEF)
        self.send_signal(relief.Inputs.data, Table(path("heart_disease")),
                         widget=relief)
        weights = self.output(relief, "weights")
        frequency = dict(zip(weights.get_column("attribute"),
                             weights.get_column("selected")))
        self.assertEqual(frequency["chest pain"], 1)
        self.assertLess(relief.scores.stable.index.value, 1)

    def test_the_consensus_reaches_rank_as_one_column(self):
        from orangecontrib.relief.rank import RankScorer
        from orangecontrib.relief.widgets.owconsensus import OWConsensus

        data = Table(path("heart_disease"))
        consensus = self.widget_of(
            "consensus-rank.ows",
            "orangecontrib.relief.widgets.owconsensus.OWConsensus",
            OWConsensus)
        for index, method in enumerate(("ReliefF", "MultiSURF")):
            relief = self.create_widget(OWRelief, stored_settings={
                "method": method})
            self.send_signal(relief.Inputs.data, data, widget=relief)
            self.send_signal(consensus.Inputs.scorers,
                             self.output(relief, "scorer"), index,
                             widget=consensus)
        self.send_signal(consensus.Inputs.data, data, widget=consensus)
        scorer = self.output(consensus, "scorer")
        self.assertIsInstance(scorer, RankScorer)
        self.assertEqual(len(scorer.scorer.scorers), 3)  # and Information Gain
        rank = self.create_widget(OWRank, stored_settings=node_settings(
            "consensus-rank.ows", "Orange.widgets.data.owrank.OWRank"))
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer, scorer, 0, widget=rank)
        scores = self.output(rank, "scores")
        self.assertIn("Consensus", [v.name for v in scores.domain.attributes])
