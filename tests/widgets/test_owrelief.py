"""The Relief widget (run with QT_QPA_PLATFORM=offscreen)."""
import threading
from unittest.mock import patch

import numpy as np
from Orange.data import ContinuousVariable, Domain, Table
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base
from orangewidget.tests.utils import simulate

from orangecontrib.relief import DReliefF, PDReliefF, Relief, ReliefF, RReliefF
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.datasets import path
from orangecontrib.relief.widgets import owrelief
from orangecontrib.relief.widgets.owrelief import OWRelief
from tests.widgets.widget_helpers import FakeState, SendAndWaitMixin

# generous: the first computation compiles the numba core, and the machine
# may be busy
TIMEOUT_MS = 120_000


def weights_by_name(table):
    """Return {attribute name: weight} of the widget's Weights output."""
    return dict(zip(table.get_column("attribute"), table.get_column("weight")))


def expected_by_name(scorer, data):
    """Return {attribute name: weight} computed by the script."""
    return {attr.name: weight
            for attr, weight in zip(data.domain.attributes, scorer(data))}


class TestOWRelief(SendAndWaitMixin, base.WidgetTest):
    timeout_ms = TIMEOUT_MS

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table(path("heart_disease"))
        cls.cpu = Table(path("cpu"))
        cls.zoo = Table(path("zoo"))

    def setUp(self):
        self.widget = self.create_widget(OWRelief)

    def assert_weights(self, expected, table, delta=1e-9):
        self.assert_same_weights(expected, weights_by_name(table), delta)

    def assert_same_weights(self, expected, got, delta=1e-9):
        self.assertEqual(got.keys(), expected.keys())
        for name, weight in expected.items():
            self.assertAlmostEqual(got[name], weight, delta=delta)

    def test_weights_output_sorted_and_equal_to_script(self):
        self.send_and_wait(self.heart)
        self.assertEqual(self.widget.method, "ReliefF")
        table = self.get_output(self.widget.Outputs.weights)
        self.assertEqual(len(table), len(self.heart.domain.attributes))
        weights = table.get_column("weight")
        np.testing.assert_array_equal(weights, np.sort(weights)[::-1])
        self.assert_weights(expected_by_name(ReliefF(k_nearest=10),
                                             self.heart), table)

    def test_scorer_in_rank_shows_the_scripts_numbers(self):
        self.send_and_wait(self.heart)
        scorer = self.get_output(self.widget.Outputs.scorer)
        rank = self.create_widget(OWRank)
        self.send_signal(rank.Inputs.data, self.heart, widget=rank)
        self.send_signal(rank.Inputs.scorer, scorer, 0, widget=rank)
        self.wait_until_finished(widget=rank, timeout=TIMEOUT_MS)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        # the scorer's column, next to Orange's default methods
        self.assertIn("ReliefF", [v.name for v in scores.domain.attributes])
        got = dict(zip(scores.get_column("Feature"),
                       scores.get_column("ReliefF")))
        self.assert_same_weights(expected_by_name(ReliefF(), self.heart), got)

    def test_regression_uses_rrelieff(self):
        self.send_and_wait(self.cpu)
        self.assertEqual(self.widget.method, "RReliefF")
        model = self.widget.method_combo.model()
        enabled = [model.item(row).isEnabled() for row in range(3)]
        self.assertEqual(enabled, [False, False, True])
        self.assert_weights(expected_by_name(RReliefF(k_nearest=50), self.cpu),
                            self.get_output(self.widget.Outputs.weights))
        self.assertIs(self.get_output(self.widget.Outputs.scorer).class_type,
                      ContinuousVariable)

    def test_classification_after_regression_returns_to_relieff(self):
        self.send_and_wait(self.cpu)
        self.send_and_wait(self.heart)
        self.assertEqual(self.widget.method, "ReliefF")

    def test_options_reach_the_scorer(self):
        widget = self.widget
        self.send_and_wait(self.zoo)
        widget.k_relieff = 3
        widget.sample_references = True
        widget.n_iterations = 40
        widget.random_seed = 7
        widget.diff = "ramp"
        widget.t_eq, widget.t_diff = 0.1, 0.3
        widget.commit.now()
        self.wait_until_finished(timeout=TIMEOUT_MS)
        expected = ReliefF(k_nearest=3, n_iterations=40, random_state=7,
                           diff="ramp", t_eq=0.1, t_diff=0.3)
        self.assert_weights(expected_by_name(expected, self.zoo),
                            self.get_output(widget.Outputs.weights))

    def test_relief_on_two_classes(self):
        self.send_and_wait(Table(path("voting")))
        simulate.combobox_activate_item(self.widget.controls.method, "Relief")
        self.wait_until_finished(timeout=TIMEOUT_MS)
        self.assertEqual(self.widget.k_stack.currentIndex(), 2)
        self.assert_weights(expected_by_name(Relief(), Table(path("voting"))),
                            self.get_output(self.widget.Outputs.weights))

    def test_double_variants(self):
        voting = Table(path("voting"))
        widget = self.widget
        self.send_and_wait(voting)
        for name, scorer in (("DReliefF", DReliefF), ("PDReliefF", PDReliefF)):
            simulate.combobox_activate_item(widget.controls.method, name)
            self.wait_until_finished(timeout=TIMEOUT_MS)
            self.assertEqual(widget.k_stack.currentIndex(), 0)  # ReliefF's k
            self.assert_weights(
                expected_by_name(scorer(k_nearest=widget.k_relieff), voting),
                self.get_output(widget.Outputs.weights), delta=1e-12)
        widget.k_relieff = 4
        widget.commit.now()
        self.wait_until_finished(timeout=TIMEOUT_MS)
        self.assertEqual(
            self.get_output(widget.Outputs.scorer).scorer.k_nearest, 4)

    def test_relief_is_not_offered_for_many_classes(self):
        self.widget.method = "Relief"
        self.send_and_wait(self.zoo)
        self.assertEqual(self.widget.method, "ReliefF")
        self.assertFalse(self.widget.Error.relief.is_shown())
        item = self.widget.method_combo.model().item(0)
        self.assertEqual(item.text(), "Relief")
        self.assertFalse(item.isEnabled())
        self.assertIn("two classes", item.toolTip())
        self.assertIsNotNone(self.get_output(self.widget.Outputs.weights))

    def test_ramp_thresholds_enabled_only_for_ramp(self):
        self.assertFalse(any(s.isEnabled() for s in self.widget.ramp_spins))
        simulate.combobox_activate_item(self.widget.controls.diff, "ramp")
        self.assertTrue(all(s.isEnabled() for s in self.widget.ramp_spins))

    def test_string_metas(self):
        self.assertIn("name", [m.name for m in self.zoo.domain.metas])
        self.send_and_wait(self.zoo)
        self.assertFalse(self.widget.Error.active)
        self.assertEqual(len(self.get_output(self.widget.Outputs.weights)),
                         len(self.zoo.domain.attributes))

    def test_no_class(self):
        no_class = self.heart.transform(
            Domain(self.heart.domain.attributes))
        self.send_and_wait(no_class)
        self.assertTrue(self.widget.Error.no_class.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))
        self.assertIsNotNone(self.get_output(self.widget.Outputs.scorer))
        self.send_and_wait(None)
        self.assertFalse(self.widget.Error.no_class.is_shown())

    def test_empty_table(self):
        self.send_and_wait(self.heart[:0])
        self.assertTrue(self.widget.Error.relief.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))
        self.send_and_wait(self.heart)
        self.assertFalse(self.widget.Error.relief.is_shown())

    def test_one_class(self):
        one_class = self.heart[self.heart.Y == 0]
        self.send_and_wait(one_class)
        self.assertTrue(self.widget.Error.relief.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))

    def test_all_nan_column_and_missing_class(self):
        data = self.heart.copy()
        with data.unlocked():
            data.X[:, 0] = np.nan
            data.Y[:5] = np.nan
        self.send_and_wait(data)
        self.assertTrue(self.widget.Warning.empty_columns.is_shown())
        self.assertIn(data.domain.attributes[0].name,
                      str(self.widget.Warning.empty_columns))
        self.assertTrue(self.widget.Warning.missing_class.is_shown())
        self.assertIn("5 instance", str(self.widget.Warning.missing_class))
        weights = weights_by_name(self.get_output(self.widget.Outputs.weights))
        self.assertEqual(weights[data.domain.attributes[0].name], 0)
        self.send_and_wait(self.heart)
        self.assertFalse(self.widget.Warning.active)

    def test_new_data_while_running_discards_the_old_task(self):
        release = threading.Event()
        compute = owrelief.compute_weights

        def blocking(scorer, data, state):
            release.wait(10)
            return compute(scorer, data, state)

        with patch.object(owrelief, "compute_weights", blocking):
            self.send_signal(self.widget.Inputs.data, self.heart)
            self.assertTrue(self.widget.task is not None)
            self.send_signal(self.widget.Inputs.data, self.cpu)
            release.set()
            self.wait_until_finished(timeout=TIMEOUT_MS)
        self.assert_weights(expected_by_name(RReliefF(), self.cpu),
                            self.get_output(self.widget.Outputs.weights))

    def test_removing_data_while_running_cancels(self):
        release = threading.Event()

        def blocking(scorer, data, state):
            release.wait(10)
            return np.zeros(len(data.domain.attributes))

        with patch.object(owrelief, "compute_weights", blocking):
            self.send_signal(self.widget.Inputs.data, self.heart)
            self.send_signal(self.widget.Inputs.data, None)
            release.set()
            self.wait_until_finished(timeout=TIMEOUT_MS)
        self.assertIsNone(self.widget.task)
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))

    def test_interruption_stops_the_core(self):
        with self.assertRaises(Interrupted):
            owrelief.compute_weights(ReliefF(), self.heart, FakeState())

    def test_settings_persist(self):
        widget = self.widget
        widget.method = "Relief"
        widget.k_rrelieff = 20
        widget.sample_references = True
        widget.n_iterations = 33
        widget.random_seed = 5
        widget.diff = "squared"
        settings = widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWRelief, stored_settings=settings)
        for name in ("method", "k_rrelieff", "sample_references",
                     "n_iterations", "random_seed", "diff"):
            self.assertEqual(getattr(restored, name), getattr(widget, name))
        self.assertEqual(restored.controls.method.currentText(), "Relief")

    def test_report(self):
        self.widget.send_report()
        self.send_and_wait(self.heart)
        self.widget.send_report()
        self.widget.diff = "ramp"
        self.widget.send_report()

    def test_many_attributes_show_the_best(self):
        domain = Domain([ContinuousVariable(f"x{i}") for i in range(80)],
                        self.heart.domain.class_var)
        rng = np.random.default_rng(0)
        data = Table.from_numpy(domain, rng.random((60, 80)),
                                rng.integers(0, 2, 60))
        self.send_and_wait(data)
        self.assertIn(f"{owrelief.MAX_BARS} best of 80",
                      self.widget.plot_info.text())


class TestPreparingTheCore(base.WidgetTest):
    """While numba compiles the compiled engine (first use only), the
    widget says so; the message goes with the result."""

    def test_message_while_compiling(self):
        widget = self.create_widget(OWRelief)
        with patch.object(owrelief.engine, "needs_compiling",
                          return_value=True):
            self.send_signal(widget.Inputs.data, Table(path("heart_disease")),
                             widget=widget)
            self.assertTrue(widget.Information.preparing.is_shown())
            self.wait_until_finished(widget=widget, timeout=60000)
        self.assertFalse(widget.Information.preparing.is_shown())
        self.assertIsNotNone(self.get_output(widget.Outputs.weights,
                                             widget=widget))
