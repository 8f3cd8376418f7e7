"""The RFSM Selection widget (run with QT_QPA_PLATFORM=offscreen)."""
import threading
from unittest.mock import patch

import numpy as np
from Orange.classification import KNNLearner
from Orange.data import Domain, Table
from Orange.widgets.tests import base
from orangewidget.tests.utils import simulate

from orangecontrib.relief import generators
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.core.subsets import SetMeasure
from orangecontrib.relief.datasets import path
from orangecontrib.relief.selection import select
from orangecontrib.relief.widgets import owrfsm
from orangecontrib.relief.widgets.owrfsm import OWRFSM
from tests.widgets.widget_helpers import FakeState, SendAndWaitMixin

TIMEOUT_MS = 30000


class TestOWRFSM(SendAndWaitMixin, base.WidgetTest):
    timeout_ms = TIMEOUT_MS

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.zoo = Table(path("zoo"))
        cls.parity = generators.parity(seed=0)

    def setUp(self):
        self.widget = self.create_widget(OWRFSM)

    def output_names(self):
        out = self.get_output(self.widget.Outputs.reduced_data)
        return [var.name for var in out.domain.attributes]

    def test_greedy_rfsm_on_parity_keeps_three_bits(self):
        self.send_and_wait(self.parity)
        self.assertEqual(self.output_names(), ["x1", "x2", "x3"])
        out = self.get_output(self.widget.Outputs.reduced_data)
        self.assertEqual(len(out), len(self.parity))
        self.assertEqual(out.domain.class_var, self.parity.domain.class_var)
        self.assertEqual(self.widget.chosen_list.count(), 3)
        self.assertIn("3 of 12 attributes", self.widget.summary.text())
        # the plot has the trace: accepted steps and the refused one
        self.assertGreaterEqual(len(self.widget.plot.getPlotItem().items), 2)

    def test_output_equals_the_script(self):
        self.send_and_wait(self.zoo)
        expected = select(self.zoo, "RFSM").selected
        names = [self.zoo.domain.attributes[i].name for i in sorted(expected)]
        self.assertEqual(self.output_names(), names)

    def test_neighbours_within_option(self):
        self.widget.neighbours_within = True
        self.send_and_wait(self.parity)
        self.assertEqual(len(self.output_names()), 1)

    def test_consistency_and_backward_search(self):
        simulate.combobox_activate_item(self.widget.controls.measure,
                                        "Liu's consistency")
        simulate.combobox_activate_item(self.widget.controls.search,
                                        "backward elimination")
        self.send_and_wait(self.zoo)
        expected = select(self.zoo, "Consistency", "backward elimination")
        names = [self.zoo.domain.attributes[i].name
                 for i in expected.selected]
        self.assertEqual(self.output_names(), names)
        self.assertFalse(self.widget.rfsm_box.isVisibleTo(self.widget))

    def test_wrapper_uses_the_learner_input(self):
        simulate.combobox_activate_item(self.widget.controls.measure,
                                        "Wrapper")
        data = self.zoo[::2].transform(Domain(
            self.zoo.domain.attributes[:6], self.zoo.domain.class_var))
        self.send_signal(self.widget.Inputs.data, data)
        self.wait_until_finished(timeout=TIMEOUT_MS)
        self.assertTrue(self.widget.Information.default_learner.is_shown())
        learner = KNNLearner(n_neighbors=5)
        self.send_signal(self.widget.Inputs.learner, learner)
        self.wait_until_finished(timeout=TIMEOUT_MS)
        self.assertFalse(self.widget.Information.default_learner.is_shown())
        expected = select(data, "Wrapper", learner=learner).selected
        names = [data.domain.attributes[i].name for i in sorted(expected)]
        self.assertEqual(self.output_names(), names)

    def test_no_class_and_no_data(self):
        self.send_and_wait(self.zoo.transform(
            Domain(self.zoo.domain.attributes)))
        self.assertTrue(self.widget.Error.no_class.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.reduced_data))
        self.send_and_wait(None)
        self.assertFalse(self.widget.Error.no_class.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.reduced_data))

    def test_single_class_shows_core_error(self):
        self.send_and_wait(self.zoo[self.zoo.Y == 0])  # one class
        self.assertTrue(self.widget.Error.selection.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.reduced_data))

    def test_new_data_cancels_running_task(self):
        release = threading.Event()
        original = owrfsm.run_selection

        def blocking(*args):
            release.wait(10)
            return original(*args)

        with patch.object(owrfsm, "run_selection", blocking):
            self.send_signal(self.widget.Inputs.data, self.zoo)
            self.send_signal(self.widget.Inputs.data, self.parity)
            release.set()
            self.wait_until_finished(timeout=TIMEOUT_MS)
        self.assertEqual(self.output_names(), ["x1", "x2", "x3"])

    def test_interruption_stops_the_search(self):
        with self.assertRaises(Interrupted):
            owrfsm.run_selection(self.zoo, "Consistency", "greedy forward",
                                 None, {}, FakeState())

    def test_checked_measure_delegates(self):
        class Count(SetMeasure):
            n_attributes = 3

            def evaluate(self, subset):
                return float(len(subset))

        checked = owrfsm._Checked(Count(), FakeState(interrupted=False))
        np.testing.assert_array_equal(checked.forward_values([0], [1, 2]),
                                      [2, 2])
        np.testing.assert_array_equal(checked.backward_values([0, 1]), [1, 1])

    def test_settings_persist(self):
        widget = self.widget
        widget.measure = "Wrapper"
        widget.search = "branch and bound"
        widget.k_nearest = 3
        settings = widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWRFSM, stored_settings=settings)
        self.assertEqual(restored.controls.measure.currentText(), "Wrapper")
        self.assertEqual(restored.controls.search.currentText(),
                         "branch and bound")
        self.assertEqual(restored.k_nearest, 3)

    def test_report(self):
        self.widget.send_report()
        self.send_and_wait(self.parity)
        self.widget.send_report()
