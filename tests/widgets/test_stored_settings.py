"""Workflows saved by another version, or edited by hand, open: stored
settings outside their controls' ranges are brought into them."""
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator
from orangecontrib.relief.widgets.owseparability import OWSeparability


class TestStoredSettings(WidgetTest):
    def test_generator_with_an_unknown_problem(self):
        widget = self.create_widget(OWReliefGenerator, stored_settings={
            "problem": "No such problem", "n_instances": -5,
            "n_classes": "many"})
        self.assertEqual(widget.problem, "MajorityN")
        self.assertEqual(widget.n_instances, 1)
        self.assertEqual(widget.n_classes, 2)
        self.assertIsNotNone(self.get_output(widget.Outputs.data,
                                             widget=widget))

    def test_separability_with_one_instance_and_unknown_problems(self):
        widget = self.create_widget(OWSeparability, stored_settings={
            "n_instances": 1, "problems": ["MajorityN", "Gone"],
            "k_nearest": 0})
        self.assertEqual(widget.n_instances, 10)
        self.assertEqual(widget.k_nearest, 1)
        self.assertEqual(widget.problems, ["MajorityN"])
        self.assertIsNotNone(widget.design())
