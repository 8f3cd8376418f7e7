"""Workflows saved by another version, or edited by hand, open: stored
settings outside their controls' ranges are brought into them."""
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief.widgets.owclassdepknn import OWClassDependentKNN
from orangecontrib.relief.widgets.owconsensus import OWConsensus
from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator
from orangecontrib.relief.widgets.owrelief import OWRelief
from orangecontrib.relief.widgets.owrfsm import OWRFSM
from orangecontrib.relief.widgets.owselectioncurve import (TURF,
                                                           OWSelectionCurve)
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

    def test_relief_selection_and_stability_out_of_range(self):
        widget = self.create_widget(OWRelief, stored_settings={
            "selection_index": 9, "select_percent": 0, "n_resamples": 1,
            "stability_k": "many"})
        self.assertEqual((widget.selection_index, widget.select_percent),
                         (3, 1))
        self.assertEqual((widget.n_resamples, widget.stability_k), (2, 1))

    def test_selection_curve_with_unknown_choices(self):
        widget = self.create_widget(OWSelectionCurve, stored_settings={
            "method": "Gone", "score": "F1", "n_folds": 1, "keep_index": 5})
        self.assertEqual((widget.method, widget.score), ("ReliefF", "CA"))
        self.assertEqual((widget.n_folds, widget.keep_index), (2, 1))
        widget = self.create_widget(OWSelectionCurve,
                                    stored_settings={"method": TURF})
        self.assertEqual(widget.method, TURF)

    def test_consensus_with_unknown_scorers(self):
        widget = self.create_widget(OWConsensus, stored_settings={
            "orange_scorers": ["ANOVA", "Gone"], "method_index": 7})
        self.assertEqual(widget.orange_scorers, ["ANOVA"])
        self.assertEqual(widget.method_index, 1)
