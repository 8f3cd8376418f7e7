"""The installed distribution is an add-on that Orange's canvas discovers."""
from importlib.metadata import entry_points

from orangecanvas.registry import WidgetRegistry
from orangewidget.workflow.discovery import WidgetDiscovery

WIDGETS = {"Relief", "Relief Data Generator", "Separability",
           "RFSM Selection", "Class-Dependent kNN"}


def _relief_entry_points(group):
    return [ep for ep in entry_points(group=group)
            if ep.value.startswith("orangecontrib.relief")]


def test_the_canvas_discovers_the_category_and_its_widgets():
    points = _relief_entry_points("orange.widgets")
    assert [ep.name for ep in points] == ["Relief"]
    registry = WidgetRegistry()
    WidgetDiscovery(registry).run(points)
    category = registry.category("Relief")
    assert category.icon.endswith(".svg")
    widgets = {widget.name: widget for widget in registry.widgets("Relief")}
    assert WIDGETS <= set(widgets)
    assert all(widget.icon.endswith(".svg") for widget in widgets.values())


def test_addon_help_and_tutorial_entry_points_are_installed():
    for group in ("orange3.addon", "orange.canvas.help",
                  "orange.widgets.tutorials", "console_scripts"):
        assert _relief_entry_points(group), group
