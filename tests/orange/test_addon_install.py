"""The installed distribution is an add-on that Orange's canvas discovers."""
import importlib
from importlib.metadata import entry_points

import numpy as np
from orangecanvas.registry import WidgetRegistry
from orangewidget.workflow.discovery import WidgetDiscovery

#: the widgets in the order of the category (by priority)
WIDGETS = ["Relief", "Interactions", "Selection Curve", "Consensus Ranking",
           "Relief Data Generator", "Separability", "RFSM Selection",
           "Class-Dependent kNN", "Relief, step by step"]


def _relief_entry_points(group):
    return [ep for ep in entry_points(group=group)
            if ep.value.startswith("orangecontrib.relief")]


def _registry():
    """The canvas' registry of the add-on's widgets, as discovery makes it."""
    registry = WidgetRegistry()
    WidgetDiscovery(registry).run(_relief_entry_points("orange.widgets"))
    return registry


def test_the_canvas_discovers_the_category_and_its_widgets():
    points = _relief_entry_points("orange.widgets")
    assert [ep.name for ep in points] == ["Relief"]
    registry = _registry()
    category = registry.category("Relief")
    assert category.icon.endswith(".svg")
    widgets = {widget.name: widget for widget in registry.widgets("Relief")}
    assert set(WIDGETS) <= set(widgets)
    assert all(widget.icon.endswith(".svg") for widget in widgets.values())


def test_the_icons_are_symbolic_for_the_dark_theme():
    """The canvas draws an icon whose file ends in -symbolic in the
    palette's text colour (light on a dark theme): each widget's and the
    category's icon is found as one."""
    from orangecanvas.resources import icon_loader

    registry = _registry()
    descriptions = [registry.category("Relief")] + list(
        registry.widgets("Relief"))
    for description in descriptions:
        loader = icon_loader.from_description(description)
        found = loader.find(description.icon)
        assert found is not None, description.name
        assert [path.rpartition("/")[2] for path in loader.icon_glob(found)] \
            == [description.icon.rpartition("/")[2].replace(
                ".svg", "-symbolic.svg")], description.name


def test_widgets_are_ordered_by_priority_and_versioned():
    widgets = sorted(_registry().widgets("Relief"), key=lambda w: w.priority)
    assert [w.name for w in widgets] == WIDGETS
    assert [w.priority for w in widgets] == [10, 12, 15, 17, 20, 30, 40, 50, 60]
    for widget in widgets:
        module, _, name = widget.qualified_name.rpartition(".")
        widget_class = getattr(importlib.import_module(module), name)
        assert widget_class.settings_version >= 1, widget.name


def test_addon_help_and_tutorial_entry_points_are_installed():
    for group in ("orange3.addon", "orange.canvas.help",
                  "orange.widgets.tutorials", "console_scripts"):
        assert _relief_entry_points(group), group


def test_every_shipped_data_set_has_a_class_to_score_by():
    from Orange.data import Table

    from orangecontrib.relief.datasets import names, path

    for name in names():
        assert Table(path(name)).domain.class_vars, name


def test_the_data_sets_of_several_targets_read_as_their_papers_describe():
    """yeast (gzipped): 2,417 genes, 103 numeric attributes, 14 labels of
    Elisseeff & Weston's counts (a header that named the labels first
    would swap attributes and labels); emotions (gzipped): 593 songs, 72
    numeric attributes, the 6 emotions of Trohidis et al.'s counts;
    collembola: 393 samples, 47
    attributes with 3,618 values missing, three numeric targets."""
    from Orange.data import Table

    from orangecontrib.relief.datasets import names, path

    assert {"yeast", "emotions", "collembola"} <= set(names())
    assert path("yeast") == path("yeast.tab.gz")
    yeast = Table(path("yeast"))
    assert yeast.X.shape == (2417, 103) and yeast.Y.shape == (2417, 14)
    assert all(var.values == ("0", "1") for var in yeast.domain.class_vars)
    assert list(yeast.Y.sum(axis=0)) == [762, 1038, 983, 862, 722, 597, 428,
                                         480, 178, 253, 289, 1816, 1799, 34]
    emotions = Table(path("emotions"))
    assert emotions.X.shape == (593, 72) and emotions.Y.shape == (593, 6)
    assert not np.isnan(emotions.X).any()
    assert [var.name for var in emotions.domain.class_vars] == [
        "amazed-suprised", "happy-pleased", "relaxing-calm", "quiet-still",
        "sad-lonely", "angry-aggresive"]
    assert all(var.values == ("0", "1")
               for var in emotions.domain.class_vars)
    assert list(emotions.Y.sum(axis=0)) == [173, 166, 264, 148, 168, 189]
    assert emotions.domain.attributes[-1].name == "BHSUM3"
    collembola = Table(path("collembola"))
    assert collembola.X.shape == (393, 47)
    assert int(np.isnan(collembola.X).sum()) == 3618
    assert [var.name for var in collembola.domain.class_vars] == [
        "class_spec", "class_ind", "class_fols"]
    assert all(var.is_continuous for var in collembola.domain.class_vars)
