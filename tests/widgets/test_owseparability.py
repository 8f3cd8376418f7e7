"""Widgets of issue 4: Relief Data Generator, Separability, and the double
ReliefF variants in the Relief widget (run with QT_QPA_PLATFORM=offscreen)."""
import threading
from unittest.mock import patch

import numpy as np
from numpy.testing import assert_array_equal
from Orange.data import Table
from Orange.widgets.tests import base
from orangewidget.tests.utils import simulate

from orangecontrib.relief import DReliefF, PDReliefF
from orangecontrib.relief import generators
from orangecontrib.relief.datasets import path
from orangecontrib.relief.experiments import separability as sep
from orangecontrib.relief.widgets import owseparability
from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator
from orangecontrib.relief.widgets.owrelief import OWRelief
from orangecontrib.relief.widgets.owseparability import OWSeparability

from widget_helpers import FakeState


class TestOWReliefGenerator(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWReliefGenerator)

    def test_outputs_the_chosen_problem(self):
        data = self.get_output(self.widget.Outputs.data)
        self.assertEqual(self.widget.problem, "MajorityN")
        self.assertEqual(len(data), 100)
        assert_array_equal(generators.relevant_mask(data.domain),
                           [True] * 5 + [False] * 5)
        expected = generators.majority(100, 5, 5, seed=0)
        assert_array_equal(data.X, expected.X)
        assert_array_equal(data.Y, expected.Y)

    def test_every_problem_and_its_controls(self):
        widget = self.widget
        for name, generator in generators.GENERATORS.items():
            simulate.combobox_activate_item(widget.problem_combo, name)
            data = self.get_output(widget.Outputs.data)
            self.assertIsInstance(data, Table)
            self.assertEqual(widget.description_label.text(),
                             generator.description)
            for parameter, spin in widget.spins.items():
                self.assertEqual(spin.box.isEnabled(),
                                 parameter in generator.parameters)
            self.assertIn("instances", widget.info_label.text())

    def test_parameters_and_seed(self):
        widget = self.widget
        simulate.combobox_activate_item(widget.problem_combo, "ModuloP")
        widget.controls.p.setValue(4)
        widget.controls.n_relevant.setValue(2)
        widget.controls.n_irrelevant.setValue(1)
        widget.controls.random_seed.setValue(7)
        data = self.get_output(widget.Outputs.data)
        self.assertEqual(len(data.domain.attributes), 3)
        assert_array_equal(data.Y, data.X[:, :2].sum(axis=1) % 4)
        assert_array_equal(data.X, generators.modulo(100, 2, 1, p=4,
                                                     seed=7).X)

    def test_settings_and_report(self):
        widget = self.widget
        widget.problem = "RandomRBF"
        widget.n_centroids = 12
        settings = widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWReliefGenerator,
                                      stored_settings=settings)
        self.assertEqual(restored.problem, "RandomRBF")
        self.assertEqual(restored.controls.problem.currentText(), "RandomRBF")
        self.assertEqual(restored.n_centroids, 12)
        restored.send_report()


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
        widget.send_report()

    def test_stop_cancels_the_run(self):
        release = threading.Event()
        run_design = owseparability.run_design

        def blocking(design, state):
            release.wait(10)
            return run_design(design, state)

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
        with self.assertRaises(sep.Interrupted):
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


class TestReliefWidgetOffersDoubleVariants(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWRelief)
        self.voting = Table(path("voting"))

    def test_double_variants_in_the_relief_widget(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.voting)
        self.wait_until_finished()
        for name, scorer in (("DReliefF", DReliefF), ("PDReliefF", PDReliefF)):
            simulate.combobox_activate_item(widget.controls.method, name)
            self.wait_until_finished()
            self.assertEqual(widget.k_stack.currentIndex(), 0)  # ReliefF's k
            table = self.get_output(widget.Outputs.weights)
            got = dict(zip(table.get_column("attribute"),
                           table.get_column("weight")))
            expected = scorer(k_nearest=widget.k_relieff)(self.voting)
            for attr, weight in zip(self.voting.domain.attributes, expected):
                self.assertAlmostEqual(got[attr.name], weight, delta=1e-12)
        widget.k_relieff = 4
        widget.commit.now()
        self.wait_until_finished()
        self.assertEqual(
            self.get_output(widget.Outputs.scorer).scorer.k_nearest, 4)
