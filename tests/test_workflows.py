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
            "classdep-knn.ows"} <= names


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
        self.wait_until_finished(widget=relief, timeout=60000)
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
        self.wait_until_finished(widget=rank, timeout=60000)
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
