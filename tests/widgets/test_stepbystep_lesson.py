"""Relief, step by step as a lesson in a classroom (run with
QT_QPA_PLATFORM=offscreen): the size it opens at, keys for its buttons, a
speed and a k control, the misses that carry the update, the end of a
pass with the Relief widget's weights, a foldable table, presentation
size."""
import numpy as np
from AnyQt.QtCore import QRect, Qt
from AnyQt.QtGui import QFont, QFontMetrics
from AnyQt.QtTest import QTest
from AnyQt.QtWidgets import QApplication
from Orange.data import Table
from Orange.widgets.tests import base

from orangecontrib.relief.generators import parity
from orangecontrib.relief.widgets.owrelief import OWRelief
from orangecontrib.relief.widgets.owstepbystep import (
    DEFAULT_SIZE, MOST_UPDATE, NEAREST_CLASS, SPEEDS, SPEEDS_OF_VERSION_1,
    TABLE_ROWS, OWReliefSteps, moving_class, opening_size, shown_neighbours)


def weights_by_name(table):
    return dict(zip(table.get_column("attribute"),
                    table.get_column("weight")))


class TestTheLesson(base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.parity = parity(64, seed=0)
        cls.zoo = Table("zoo")

    def setUp(self):
        self.widget = self.create_widget(OWReliefSteps)

    def test_it_opens_at_its_size_not_at_two_thirds_of_the_screen(self):
        laptop, projector = QRect(0, 0, 1280, 800), QRect(0, 0, 1024, 768)
        self.assertEqual(opening_size(laptop), DEFAULT_SIZE)
        size = opening_size(projector)
        self.assertEqual(size.height(), DEFAULT_SIZE.height())
        self.assertGreater(size.width(), 0.9 * projector.width())
        self.assertLessEqual(size.width(), projector.width())
        widget = self.widget
        widget.show()
        self.assertEqual(widget.size(), opening_size(
            widget.screen().availableGeometry()))
        widget.hide()
        resized = self.create_widget(OWReliefSteps)
        resized.resize(700, 500)  # a size given before it is shown stays
        resized.show()
        self.assertEqual((resized.width(), resized.height()), (700, 500))
        resized.hide()

    def test_keys_press_the_buttons(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        widget.show()
        widget.activateWindow()
        QTest.qWaitForWindowActive(widget)
        QTest.keyClick(widget, Qt.Key_Right)
        self.assertEqual((len(widget.steps), widget.stage), (1, "reference"))
        QTest.keyClick(widget, Qt.Key_N)
        self.assertEqual(widget.stage, "neighbours")
        QTest.keyClick(widget, Qt.Key_Left)
        self.assertEqual(widget.stage, "reference")
        QTest.keyClick(widget, Qt.Key_Right, Qt.ShiftModifier)
        self.assertEqual((len(widget.steps), widget.stage), (1, "update"))
        QTest.keyClick(widget, Qt.Key_R)
        self.assertTrue(widget.timer.isActive())
        QTest.keyClick(widget, Qt.Key_R)
        self.assertFalse(widget.timer.isActive())
        for button in (widget.stage_button, widget.whole_button,
                       widget.back_button, widget.run_button):
            self.assertIn("Key", button.toolTip())
        widget.hide()

    def test_the_speed_slider_sets_the_pace_of_run(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        slider = widget.controls.speed_index
        self.assertEqual((slider.minimum(), slider.maximum()),
                         (0, len(SPEEDS) - 1))
        widget.run_button.click()
        for place in (0, len(SPEEDS) - 1):
            slider.setValue(place)
            self.assertEqual(widget.timer.interval(), SPEEDS[place][1])
            self.assertEqual(widget.speed_label.text(), SPEEDS[place][0])
        widget.run_button.click()
        # a workflow of the three speeds keeps its speed
        for old, new in enumerate(SPEEDS_OF_VERSION_1):
            restored = self.create_widget(OWReliefSteps, stored_settings={
                "speed_index": old, "__version__": 1})
            self.assertEqual(SPEEDS[restored.speed_index][1],
                             (2000, 500, 100)[old])
            self.assertEqual(restored.speed_index, new)

    def test_the_k_slider_shows_how_k_moves_the_weights(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        widget.variant_buttons.buttons[1].click()  # ReliefF
        for _ in range(6):
            widget.whole_button.click()
        with_3 = widget.stepper.weights(widget.lesson.applied)
        widget.controls.k_nearest.setValue(7)
        self.assertEqual(widget.stepper.k_nearest, 7)
        with_7 = widget.stepper.weights(widget.lesson.applied)
        self.assertFalse(np.allclose(with_3, with_7))
        self.assertIn("k = 7 instead of 3", widget.narration.text())
        dashed = [item for item in widget.bars.getPlotItem().items
                  if getattr(item, "opts", {}).get("brush", 1) is None]
        self.assertEqual(len(dashed), 1)  # the weights with k = 3
        np.testing.assert_allclose(dashed[0].opts["width"], with_3)
        self.assertIn("with k = 3", widget.bars.getPlotItem().titleLabel.text)
        widget.stage_button.click()  # the lesson goes on: the effect goes
        self.assertNotIn("instead of", widget.narration.text())

    def test_the_misses_shown_are_those_that_move_the_weights(self):
        """Zoo, ReliefF with k = 5: the nearest miss may be of a small
        class, whose misses count little; by default the views show the
        class whose misses move the weights most."""
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.zoo)
        self.assertEqual(widget.miss_choice, MOST_UPDATE)
        widget.controls.k_nearest.setValue(5)
        differs = 0
        for reference in range(0, len(self.zoo), 10):
            widget.choose_reference(reference)
            widget.whole_button.click()
            step = widget.steps[-1]
            shown = widget._shown(step) & ~step.is_hit
            self.assertTrue((step.classes[shown] == moving_class(step)).all())
            moves = {klass: (step.coefficients * step.distances)[
                ~step.is_hit & (step.classes == klass)].sum()
                for klass in np.unique(step.classes[~step.is_hit])}
            self.assertEqual(max(moves.values()),
                             moves[moving_class(step)])
            nearest = shown_neighbours(step, NEAREST_CLASS) & ~step.is_hit
            differs += not np.array_equal(nearest, shown)
        self.assertGreater(differs, 0)  # zoo shows why it matters

    def test_the_end_of_a_pass_gives_the_relief_widgets_weights(self):
        widget = self.widget
        data = self.parity[:20]  # a pass of 20 steps: every stage shown
        self.send_signal(widget.Inputs.data, data)
        widget.variant_buttons.buttons[1].click()  # ReliefF, k = 3
        for _ in range(len(data) - 1):
            widget.whole_button.click()
        self.assertFalse(widget.pass_complete())
        self.assertNotIn("End of", widget.narration.text())
        widget.whole_button.click()
        self.assertTrue(widget.pass_complete())
        self.assertIn("End of the pass", widget.narration.text())
        self.assertIn("final weights",
                      widget.bars.getPlotItem().titleLabel.text)
        relief = self.create_widget(OWRelief, stored_settings={
            "method": "ReliefF", "k_relieff": 3})
        self.send_signal(relief.Inputs.data, data, widget=relief)
        self.wait_until_finished(widget=relief)
        self.assertEqual(
            weights_by_name(self.get_output(widget.Outputs.weights)),
            weights_by_name(self.get_output(relief.Outputs.weights,
                                            widget=relief)))
        widget.stage_button.click()  # a second pass begins
        self.assertNotIn("End of", widget.narration.text())

    def test_the_table_folds_and_keeps_its_rows_at_presentation_size(self):
        """At the default size and the canvas's text size (9 pt; the
        offscreen platform's is larger): the table folds away, and at
        presentation size it keeps :data:`TABLE_ROWS` rows in view."""
        font = QApplication.font()
        self.addCleanup(QApplication.setFont, QFont(font))
        font.setPointSizeF(9)
        QApplication.setFont(font)
        widget = self.create_widget(OWReliefSteps)
        widget.resize(DEFAULT_SIZE)
        widget.show()
        self.send_signal(widget.Inputs.data, self.zoo)
        widget.whole_button.click()
        self.process_events()
        plots = widget.scatter.height()
        widget.table_button.click()  # fold the table away
        self.process_events()
        self.assertFalse(widget.table.isVisibleTo(widget))
        self.assertGreater(widget.scatter.height(), plots + 60)
        widget.table_button.click()
        widget.controls.presentation.click()
        self.process_events()
        table = widget.table
        rows = table.viewport().height() // table.rowHeight(2)
        self.assertGreaterEqual(rows, TABLE_ROWS)
        tip = widget.scatter.points.opts["tip"](x=0, y=0, data=3)
        self.assertIn("font-size", tip)  # large on a projector
        # the bars' names do not overlap: as many bars as the panel holds
        widget.whole_button.click()
        self.process_events()
        bars = widget.bars
        names = bars.getAxis("left")._tickLevels[0]
        line = QFontMetrics(bars.getAxis("left").style["tickFont"]).height()
        self.assertLessEqual(len(names) * line,
                             bars.getViewBox().height())
        self.assertIn("best", bars.getAxis("bottom").labelText)
        widget.hide()
