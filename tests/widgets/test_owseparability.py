"""The Separability widget (run with QT_QPA_PLATFORM=offscreen)."""
import threading
from unittest.mock import patch

import numpy as np
from numpy.testing import assert_array_equal
from Orange.widgets.tests import base
from orangewidget.tests.utils import simulate

from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.experiments import separability as sep
from orangecontrib.relief.widgets import owseparability
from orangecontrib.relief.widgets.owseparability import OWSeparability
from tests.widgets.widget_helpers import FakeState


class TestOWSeparability(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(
            OWSeparability, stored_settings=dict(
                problems=["MajorityN", "NonMonotonic"], max_relevant=2,
                n_datasets=2, n_instances=30, k_nearest=4))

    def run_and_wait(self):
        self.widget.toggle_run()
        self.wait_until_finished()

    def test_run_outputs_results_and_plots(self):
        widget = self.widget
        self.assertIn("24 data sets", widget.design_info.text())
        self.run_and_wait()
        table = self.get_output(widget.Outputs.results)
        self.assertEqual(len(table), 2 * 6 * 2)
        names = [var.name for var in table.domain.attributes]
        self.assertEqual(names[0], "problem")
        for name in sep.ALGORITHMS:
            self.assertIn(name, names)
        expected = sep.run(widget.design())
        assert_array_equal(table.get_column("DReliefF"),
                           expected.columns["DReliefF"])
        self.assertEqual(len(widget.plot_separability.curves), 3)
        self.assertEqual(len(widget.plot_accumulated.curves), 3)
        x, y = widget.plot_accumulated.curves[0].getData()
        assert_array_equal(x, np.arange(2, 7))
        self.assertEqual(widget.shown_combo.count(), 2)
        simulate.combobox_activate_index(widget.shown_combo, 1)
        self.assertIn("NonMonotonic",
                      widget.plot_separability.getPlotItem().titleLabel.text)
        self.assertEqual(widget.run_button.text(), "Run")
        widget.report_html = ""
        widget.send_report()  # every problem's curves, not the shown only
        for problem in ("MajorityN", "NonMonotonic"):
            self.assertIn(f"Accumulated separability, {problem}",
                          widget.report_html)
        self.assertEqual(widget.shown_problem, 1)
        self.assertIn("NonMonotonic",
                      widget.plot_separability.getPlotItem().titleLabel.text)

    def test_says_when_the_vectorised_engine_stands_in(self):
        widget = self.widget
        with patch.object(owseparability.engines.preparation, "is_ready",
                          return_value=False):
            widget.toggle_run()
            self.assertTrue(widget.Information.preparing.is_shown())
            self.assertIn("vectorised engine",
                          str(widget.Information.preparing).lower())
            self.assertEqual(widget.plot_separability.message.toPlainText(),
                             "Computing ...")
            self.wait_until_finished()
        self.assertFalse(widget.Information.preparing.is_shown())
        self.assertIsNotNone(self.get_output(widget.Outputs.results))

    def test_stop_cancels_the_run(self):
        release = threading.Event()
        run_design = owseparability.run_design

        def blocking(settings, state):
            release.wait(10)
            return run_design(settings, state)

        widget = self.widget
        with patch.object(owseparability, "run_design", blocking):
            widget.toggle_run()
            self.assertEqual(widget.run_button.text(), "Stop")
            widget.toggle_run()
            release.set()
            self.wait_until_finished()
        self.assertIsNone(widget.task)
        self.assertTrue(widget.Information.cancelled.is_shown())
        self.assertEqual(widget.run_button.text(), "Run")
        self.assertIsNone(self.get_output(widget.Outputs.results))

    def test_interruption_stops_the_experiment(self):
        with self.assertRaises(Interrupted):
            owseparability.run_design(self.widget.design(), FakeState())

    def test_no_problem_disables_run(self):
        widget = self.widget
        for row in range(widget.problem_list.count()):
            widget.problem_list.item(row).setCheckState(0)
        self.assertEqual(widget.problems, [])
        self.assertFalse(widget.run_button.isEnabled())
        widget.problem_list.item(3).setCheckState(2)
        self.assertEqual(widget.problems, ["MajorityN"])
        self.assertTrue(widget.run_button.isEnabled())

    def test_settings_persist(self):
        widget = self.widget
        widget.max_relevant = 7
        settings = widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWSeparability, stored_settings=settings)
        self.assertEqual(restored.max_relevant, 7)
        self.assertEqual(restored.problems, ["MajorityN", "NonMonotonic"])
        checked = [restored.problem_list.item(row).checkState() == 2
                   for row in range(restored.problem_list.count())]
        self.assertEqual(checked, [p in ("MajorityN", "NonMonotonic")
                                   for p in sep.PROBLEMS])

    def test_a_stop_after_results_clears_them(self):
        """After Stop the widget neither shows nor sends the earlier run's
        results while saying there are none."""
        widget = self.widget
        self.run_and_wait()
        self.assertIsNotNone(self.get_output(widget.Outputs.results))
        release = threading.Event()
        run_design = owseparability.run_design

        def blocking(settings, state):
            release.wait(10)
            return run_design(settings, state)

        with patch.object(owseparability, "run_design", blocking):
            widget.toggle_run()
            widget.toggle_run()
            release.set()
            self.wait_until_finished()
        self.assertTrue(widget.Information.cancelled.is_shown())
        self.assertIsNone(self.get_output(widget.Outputs.results))
        self.assertEqual(widget.plot_separability.curves, [])
        self.assertEqual(widget.shown_combo.count(), 0)

    def test_each_plot_has_its_legend_and_no_empty_axes(self):
        """Before Run the plots say what to do and show no empty axes;
        after it each plot's title holds the legend, so that it is in the
        report's pictures and covers no curve."""
        widget = self.widget
        self.assertTrue(widget.run_button.toolTip())
        plots = (widget.plot_separability, widget.plot_accumulated)
        for plot in plots:
            item = plot.getPlotItem()
            self.assertFalse(item.getAxis("bottom").isVisible())
            self.assertIn("Run", plot.message.toPlainText())
            self.assertTrue(plot.toolTip())
        self.run_and_wait()
        for plot in plots:
            item = plot.getPlotItem()
            self.assertTrue(item.getAxis("bottom").isVisible())
            self.assertIsNone(item.legend)
            title = item.titleLabel.text
            for name in sep.ALGORITHMS:
                self.assertIn(name, title)
                self.assertIn(sep.COLOURS[name], title)
        widget.report_html = ""
        widget.send_report()
        self.assertIn("Data sets per combination", widget.report_html)
