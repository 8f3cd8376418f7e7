"""Relief, step by step at its default size, 1024 x 640 (run with
QT_QPA_PLATFORM=offscreen): through a step's stages on iris, zoo and
Parity3+3 no control is cut off, the legend is a strip above the plot,
never over its points, and the table shows the stage's columns."""
from AnyQt.QtCore import QPoint, QRect
from AnyQt.QtWidgets import (QAbstractButton, QAbstractSpinBox, QComboBox,
                             QScrollArea)
from Orange.data import Table
from Orange.widgets.tests import base

from orangecontrib.relief.generators import parity
from orangecontrib.relief.widgets.owstepbystep import (DEFAULT_SIZE,
                                                       OWReliefSteps)

CONTROLS = (QAbstractButton, QAbstractSpinBox, QComboBox)


def rect_in(widget, ancestor):
    """`widget`'s rectangle in the coordinates of `ancestor`."""
    return QRect(widget.mapTo(ancestor, QPoint(0, 0)), widget.size())


class TestDefaultSize(base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.data = {"iris": Table("iris"), "zoo": Table("zoo"),
                    "Parity3+3": parity(64, seed=0)}

    def setUp(self):
        self.widget = self.create_widget(OWReliefSteps)
        self.widget.resize(DEFAULT_SIZE)
        self.widget.show()

    def tearDown(self):
        self.widget.hide()
        super().tearDown()

    def settle(self):
        self.process_events()
        self.process_events()

    def assert_no_control_cut_off(self, case):
        widget = self.widget
        scroll = widget.controlArea.parentWidget().parentWidget()
        self.assertIsInstance(scroll, QScrollArea)
        viewport = scroll.viewport()
        shown = [control for control in widget.controlArea.findChildren(
            CONTROLS) if control.isVisible()]
        self.assertGreater(len(shown), 10)
        for control in shown:
            self.assertTrue(viewport.rect().contains(
                rect_in(control, viewport)), (case, control.text()
                                              if hasattr(control, "text")
                                              else control))
        for control in widget.mainArea.findChildren(CONTROLS):
            if control.isVisible() and control.parent() is not None \
                    and not isinstance(control.parentWidget(), QScrollArea):
                self.assertTrue(widget.rect().contains(
                    rect_in(control, widget)), (case, control))

    def assert_legend_outside(self, case):
        widget = self.widget
        strip = widget.legend_strip
        self.assertTrue(strip.isVisible(), case)
        self.assertIn("reference", strip.text(), case)
        self.assertLessEqual(rect_in(strip, widget).bottom(),
                             rect_in(widget.scatter, widget).top(), case)
        self.assertIsNone(widget.scatter.getPlotItem().legend, case)

    def assert_columns_visible(self, case, columns):
        table = self.widget.table
        width = table.viewport().width()
        for column in columns:
            left = table.columnViewportPosition(column)
            self.assertGreaterEqual(left, 0, (case, column))
            self.assertLessEqual(left + table.columnWidth(column), width,
                                 (case, column))

    def test_a_step_at_the_default_size(self):
        widget = self.widget
        self.assertEqual(widget.sizeHint(), DEFAULT_SIZE)
        for case, data in self.data.items():
            self.send_signal(widget.Inputs.data, data)
            for _ in range(4):
                widget.stage_button.click()
                self.settle()
                self.assertEqual(widget.size(), DEFAULT_SIZE)
                stage = f"{case}, {widget.stage}"
                self.assert_no_control_cut_off(stage)
                self.assert_legend_outside(stage)
                step = widget.steps[-1]
                shown = int(widget._shown(step).sum())
                n_columns = widget.table.columnCount()
                if widget.stage == "neighbours":  # the reference and them
                    self.assertEqual(n_columns, 1 + shown)
                    self.assert_columns_visible(stage, range(n_columns))
                elif widget.stage == "diffs":
                    self.assertEqual(n_columns, shown)
                    self.assert_columns_visible(stage, range(n_columns))
                elif widget.stage == "update":  # the update and the weight
                    self.assert_columns_visible(
                        stage, [n_columns - 2, n_columns - 1])

    def test_the_legend_stays_outside_with_every_entry(self):
        widget = self.widget
        widget.controls.show_runners_up.click()
        widget.controls.presentation.click()
        for case, data in self.data.items():
            self.send_signal(widget.Inputs.data, data)
            widget.whole_button.click()
            self.settle()
            self.assert_legend_outside(case)
            self.assert_no_control_cut_off(case)
