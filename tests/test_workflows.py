"""The example workflows: every .ows in orangecontrib/relief/tutorials
parses, names widgets that import, and links channels the widgets have."""
import ast
import importlib
import io
from pathlib import Path

import pytest
from orangecanvas.registry import (CategoryDescription, WidgetDescription,
                                   WidgetRegistry)
from orangecanvas.scheme import Scheme
from orangecanvas.scheme.readwrite import parse_ows_stream, scheme_load

from orangecontrib.relief import tutorials

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
            "relief-step-by-step.ows", "generator-relief.ows",
            "separability.ows", "classdep-knn.ows"} <= names


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
