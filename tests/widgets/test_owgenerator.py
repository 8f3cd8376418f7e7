"""The Relief Data Generator widget (run with QT_QPA_PLATFORM=offscreen)."""
from numpy.testing import assert_array_equal
from Orange.data import Table
from Orange.widgets.tests import base

from orangecontrib.relief import generators
from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator
from tests.widgets.widget_helpers import choose


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
            choose(widget.problem_combo, name)
            data = self.get_output(widget.Outputs.data)
            self.assertIsInstance(data, Table)
            self.assertEqual(widget.description_label.text(),
                             generator.description)
            for parameter, spin in widget.spins.items():
                self.assertEqual(spin.box.isEnabled(),
                                 parameter in generator.parameters)
            self.assertIn("instances", widget.info_label.text())

    def test_xor_by_name_and_the_papers_in_tooltips(self):
        widget = self.widget
        choose(widget.problem_combo, "XOR")
        widget.controls.n_relevant.setValue(3)
        data = self.get_output(widget.Outputs.data)
        self.assertEqual(data.name, "XOR")
        assert_array_equal(data.Y, data.X[:, :3].sum(axis=1) % 2)
        self.assertFalse(widget.spins["p"].box.isEnabled())
        for name, generator in generators.GENERATORS.items():
            item = widget.problem_combo.item_of(name)
            self.assertEqual(item.toolTip(), generator.source)
            self.assertTrue(generator.source)
            # a few plain words beside the name
            self.assertEqual(item.text().strip(),
                             f"{name}: {generator.short}")
            # the papers' equations are in the tooltips, not the texts
            self.assertNotIn("eq.", generator.description)

    def test_parameters_and_seed(self):
        widget = self.widget
        choose(widget.problem_combo, "ModuloP")
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
        self.assertEqual(restored.problem_combo.value(), "RandomRBF")
        self.assertEqual(restored.n_centroids, 12)
        restored.send_report()
