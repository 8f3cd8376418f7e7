"""Workflows saved by another version, or edited by hand, open: stored
settings outside their controls' ranges are brought into them."""
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief.widgets.owclassdepknn import OWClassDependentKNN
from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator
from orangecontrib.relief.widgets.owrelief import OWRelief
from orangecontrib.relief.widgets.owrfsm import OWRFSM
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

    def test_relief_with_unknown_choices_and_odd_numbers(self):
        widget = self.create_widget(OWRelief, stored_settings={
            "method": "Foo", "diff": "cubic", "k_relieff": -3,
            "n_iterations": "x", "t_eq": 7.0})
        self.assertEqual((widget.method, widget.diff), ("ReliefF", "linear"))
        self.assertEqual((widget.k_relieff, widget.n_iterations), (1, 1))
        self.assertEqual(widget.t_eq, 1.0)

    def test_rfsm_with_unknown_choices(self):
        widget = self.create_widget(OWRFSM, stored_settings={
            "measure": "Foo", "search": "bar", "k_nearest": 0})
        self.assertEqual((widget.measure, widget.search),
                         ("RFSM", "greedy forward"))
        self.assertEqual(widget.k_nearest, 1)

    def test_class_dependent_knn_with_indices_out_of_range(self):
        widget = self.create_widget(OWClassDependentKNN, stored_settings={
            "method_index": 99, "update_index": 7, "k": -1})
        self.assertEqual((widget.method_index, widget.update_index),
                         (3, 1))
        self.assertEqual(widget.k, 1)
