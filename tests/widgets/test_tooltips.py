"""The census of tooltips: every control of every widget of the add-on
(a button, a check box, a combo box, a spin box, a list, a slider, in
the control area or the main area) says what it does when the mouse
rests on it."""
from AnyQt.QtWidgets import (QAbstractButton, QAbstractItemView,
                             QAbstractSpinBox, QComboBox, QListView, QSlider,
                             QTabBar)
from Orange.widgets.tests.base import WidgetTest

from tests.widgets.test_stored_settings import WIDGETS

#: what counts as a control
CONTROLS = (QAbstractButton, QComboBox, QAbstractSpinBox, QListView, QSlider)
#: the parts of Qt's compound controls, which are not controls of their own
#: (a combo box's list, a table's corner button, a tab bar's arrows)
PARTS_OF = (QComboBox, QAbstractItemView, QTabBar, QAbstractSpinBox)


def controls(widget):
    """The controls of `widget`'s control and main areas."""
    found = []
    for area in (widget.controlArea, widget.mainArea):
        if area is None:
            continue
        for kind in CONTROLS:
            found += [control for control in area.findChildren(kind)
                      if not part_of_another(control, area)]
    return found


def part_of_another(control, area):
    parent = control.parent()
    while parent is not None and parent is not area:
        if isinstance(parent, PARTS_OF):
            return True
        parent = parent.parent()
    return False


def describe(control):
    text = control.text() if hasattr(control, "text") else ""
    return f"{type(control).__name__} {text!r}"


class TestEveryControlHasATooltip(WidgetTest):
    def test_census(self):
        counts = {}
        for widget_class in WIDGETS:
            widget = self.create_widget(widget_class)
            found = controls(widget)
            missing = [describe(c) for c in found if not c.toolTip().strip()]
            counts[widget_class.name] = len(found)
            self.assertEqual(missing, [], widget_class.name)
        # the census counts every widget's controls, not an empty list
        self.assertTrue(all(count >= 3 for count in counts.values()), counts)
