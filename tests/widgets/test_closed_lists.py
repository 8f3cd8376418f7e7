"""Every choice of every list of the add-on's widgets can be read in the
closed list at the widget's opening size: a list of methods shows the
chosen name (its description is in the list that opens), the others a
text that fits."""
from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import (QApplication, QComboBox, QStyle,
                             QStyleOptionComboBox, QTabWidget)
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief.widgets.common import GroupedComboBox
from tests.widgets.test_stored_settings import WIDGETS


def shown_text(combo):
    """The text the closed `combo` shows."""
    if isinstance(combo, GroupedComboBox):
        return combo.shown_text()
    return combo.currentText()


def room(combo):
    """The width the closed `combo` has for its text."""
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    return combo.style().subControlRect(
        QStyle.CC_ComboBox, option, QStyle.SC_ComboBoxEditField,
        combo).width()


def shown_lists(widget):
    """Every list of `widget`'s control area, each while it is shown (the
    page of its tab made current)."""
    tabs = widget.controlArea.findChildren(QTabWidget)
    pages = [(tab, index) for tab in tabs for index in range(tab.count())]
    seen = set()
    for tab, index in pages or [(None, None)]:
        if tab is not None:
            tab.setCurrentIndex(index)
        QApplication.processEvents()
        for combo in widget.controlArea.findChildren(QComboBox):
            if combo.isVisible() and id(combo) not in seen:
                seen.add(id(combo))
                yield combo


class TestClosedLists(WidgetTest):
    def test_every_choice_fits_the_closed_list(self):
        cut, checked = [], 0
        for widget_class in WIDGETS:
            widget = self.create_widget(widget_class)
            widget.show()
            for combo in shown_lists(widget):
                for row in range(combo.count()):
                    if not combo.model().flags(
                            combo.model().index(row, 0)) & Qt.ItemIsEnabled:
                        continue  # a heading
                    combo.setCurrentIndex(row)
                    text = shown_text(combo)
                    checked += 1
                    if combo.fontMetrics().horizontalAdvance(text) \
                            > room(combo):
                        cut.append(f"{widget_class.name}: {text!r}")
            widget.hide()
        self.assertEqual(cut, [])
        self.assertGreater(checked, 50)  # the census saw the lists
