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


class TestOWRFSM(SendAndWaitMixin, base.WidgetTest):
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
        self.wait_until_finished()
        self.assertTrue(self.widget.Information.default_learner.is_shown())
        learner = KNNLearner(n_neighbors=5)
        self.send_signal(self.widget.Inputs.learner, learner)
        self.wait_until_finished()
        self.assertFalse(self.widget.Information.default_learner.is_shown())
        expected = select(data, "Wrapper", learner=learner).selected
        names = [data.domain.attributes[i].name for i in sorted(expected)]
        self.assertEqual(self.output_names(), names)

    def test_the_wrapper_says_what_it_measures(self):
        """A numeric class: the default tree is a regression tree and the
        values are negative mean squared errors, not accuracies."""
        widget = self.widget
        simulate.combobox_activate_item(widget.controls.measure, "Wrapper")
        housing = Table("housing")[:100]
        housing = housing.transform(Domain(housing.domain.attributes[:4],
                                           housing.domain.class_var))
        self.send_and_wait(housing)
        info = widget.Information.default_learner.formatted
        self.assertNotIn("a classification tree;", info)
        self.assertIn("regression", info)
        axis = widget.plot.getPlotItem().getAxis("left").labelText
        self.assertIn("MSE", axis)
        self.assertIn("MSE", widget.summary.text())
        self.send_and_wait(self.zoo[::2].transform(Domain(
            self.zoo.domain.attributes[:4], self.zoo.domain.class_var)))
        self.assertIn("accuracy",
                      widget.plot.getPlotItem().getAxis("left").labelText)
        self.assertIn("accuracy", widget.summary.text())
        simulate.combobox_activate_item(widget.controls.measure, "RFSM")
        self.wait_until_finished()
        self.assertEqual(
            widget.plot.getPlotItem().getAxis("left").labelText, "RFSM")
        widget.send_report()

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
            self.wait_until_finished()
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


class TestTraceAPersonCanRead(SendAndWaitMixin, base.WidgetTest):
    """The trace is not squashed by the empty set, branch and bound draws
    the best set of each size against its bound, the slow wrapper shows
    that it works, and every control says what it does."""

    def setUp(self):
        self.widget = self.create_widget(OWRFSM)

    def test_the_empty_set_does_not_squash_the_trace(self):
        from orangecontrib.relief.core.subsets import SearchResult
        from orangecontrib.relief.core.subsets.searches import SearchStep
        plot = self.widget.plot
        trace = [SearchStep(0, -10.0), SearchStep(1, 0.20, 0),
                 SearchStep(2, 0.25, 1), SearchStep(3, 0.24, 2, False)]
        result = SearchResult([0, 1], 0.25, trace, 4, True)
        plot.set_trace(result, ["a", "b", "c"], 2)
        low, high = plot.getViewBox().viewRange()[1]
        self.assertGreater(low, -1)
        self.assertLess(high, 1)
        self.assertEqual(plot.empty_set_note.toPlainText(),
                         "no attributes: -10 (below the plot)")
        # the counts of attributes are whole, the marks in a legend
        ticks = plot.getAxis("bottom")._tickLevels[0]
        self.assertEqual([label for _, label in ticks], ["0", "1", "2", "3"])
        title = plot.getPlotItem().titleLabel.text
        self.assertIn("step taken", title)
        self.assertIn("refused", title)
        self.assertIn("chosen", title)
        # an empty set near the others stays on the scale
        trace[0] = SearchStep(0, 0.18)
        plot.set_trace(SearchResult([0, 1], 0.25, trace, 4, True),
                       ["a", "b", "c"], 2)
        self.assertIsNone(plot.empty_set_note)

    def test_many_sizes_get_few_whole_ticks(self):
        ticks = owrfsm.whole_ticks(0, 60)
        self.assertLessEqual(len(ticks), owrfsm.MAX_TICKS)
        self.assertEqual(ticks[0], (0, "0"))
        self.assertTrue(all(isinstance(value, int) for value, _ in ticks))
        self.assertEqual([v for v, _ in owrfsm.whole_ticks(3, 5)], [3, 4, 5])

    def test_an_attribute_without_values_is_named(self):
        data = Table(path("zoo")).copy()
        with data.unlocked():
            data.X[:, 2] = np.nan
        self.send_and_wait(data)
        warning = self.widget.Warning.empty_columns
        self.assertTrue(warning.is_shown())
        self.assertIn(data.domain.attributes[2].name, warning.formatted)
        self.assertIsNotNone(self.get_output(self.widget.Outputs.reduced_data))
        self.send_and_wait(Table(path("zoo")))
        self.assertFalse(warning.is_shown())

    def test_branch_and_bound_shows_sizes_and_its_bound(self):
        widget = self.widget
        widget.measure = "Liu's consistency"
        widget.search = "branch and bound"
        self.send_and_wait(generators.corral(seed=0))
        plot = widget.plot
        texts = [point.data() for item in plot.getPlotItem().items
                 if isinstance(item, owrfsm.pg.ScatterPlotItem)
                 for point in item.points()]
        self.assertTrue(all(text.startswith("best set of ")
                            for text in texts))
        self.assertEqual(len(set(texts)), len(texts))
        bounds = [item for item in plot.getPlotItem().items
                  if isinstance(item, owrfsm.pg.InfiniteLine)
                  and item.angle == 0]
        self.assertEqual(len(bounds), 1)

    def test_the_status_counts_evaluated_sets(self):
        statuses = []

        class State(FakeState):
            def set_status(self, text):
                statuses.append(text)

        owrfsm.run_selection(Table(path("zoo")), "Wrapper", "greedy forward",
                             KNNLearner(), dict(folds=2),
                             State(interrupted=False))
        counted = [s for s in statuses if "evaluated" in s]
        self.assertGreater(len(counted), 10)
        self.assertIn(f"{len(counted)} attribute set(s)", counted[-1])

    def test_every_control_says_what_it_does(self):
        from AnyQt.QtWidgets import QCheckBox, QComboBox, QSpinBox
        controls = [w for kind in (QCheckBox, QComboBox, QSpinBox)
                    for w in self.widget.controlArea.findChildren(kind)]
        self.assertGreaterEqual(len(controls), 6)
        for control in controls:
            self.assertTrue(control.toolTip(), control)
