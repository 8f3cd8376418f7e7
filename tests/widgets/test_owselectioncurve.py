"""The Selection Curve widget (run with QT_QPA_PLATFORM=offscreen)."""
import numpy as np
from AnyQt.QtCore import QPointF
from Orange.classification import LogisticRegressionLearner
from Orange.data import Table
from Orange.modelling import KNNLearner
from Orange.widgets.tests import base

from orangecontrib.relief import MultiSURF, ReliefF, RReliefF
from orangecontrib.relief.curve import selection_curve
from orangecontrib.relief.datasets import path
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.widgets.owselectioncurve import (
    TURF, VLS_RELIEFF, OWSelectionCurve, method_fits)
from tests.widgets.widget_helpers import SendAndWaitMixin


def names(table):
    return [var.name for var in table.domain.attributes]


class ClickAt:
    """A stand-in for a mouse click on the plot at the view's (x, y)."""

    def __init__(self, plot, x, y):
        self.position = plot.getViewBox().mapViewToScene(QPointF(x, y))

    def scenePos(self):
        return self.position


class TestOWSelectionCurve(SendAndWaitMixin, base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table(path("heart_disease"))
        cls.ionosphere = Table(path("ionosphere"))

    def setUp(self):
        self.widget = self.create_widget(OWSelectionCurve)

    def selected(self):
        return self.get_output(self.widget.Outputs.selected_data)

    def test_the_chosen_count_of_the_best_attributes_on_all_the_data(self):
        self.widget.n_folds = 5
        self.send_and_wait(self.heart)
        curve, _ = self.widget.result
        expected = selection_curve(self.heart, KNNLearner(), ReliefF(),
                                   n_folds=5)
        np.testing.assert_array_equal(curve.mean, expected.mean)
        weights = ReliefF()(self.heart)
        best = {self.heart.domain.attributes[i].name
                for i in np.argsort(-weights, kind="stable")[:curve.chosen]}
        self.assertEqual(set(names(self.selected())), best)
        preprocessor = self.get_output(self.widget.Outputs.preprocessor)
        self.assertEqual((preprocessor.k, type(preprocessor.scorer)),
                         (curve.chosen, ReliefF))
        self.assertEqual(set(names(preprocessor(self.heart))), best)
        table = self.get_output(self.widget.Outputs.curve)
        np.testing.assert_array_equal(table.X[:, 0], curve.counts)
        self.assertTrue(self.widget.Information.default_learner.is_shown())
        self.widget.send_report()

    def test_a_count_chosen_by_hand_or_by_a_click(self):
        self.widget.n_folds = 3
        self.send_and_wait(self.ionosphere)
        self.widget.n_keep = 3
        self.widget._on_count_changed()
        self.assertEqual(len(names(self.selected())), 3)
        plot = self.widget.plot
        self.assertTrue(plot.log)  # 34 attributes: a log scale
        target = plot.counts[-4]  # a click near a count of the grid
        plot._click(ClickAt(plot, np.log10(target) + 0.01, 0.8))
        self.assertEqual(self.widget.n_keep, target)
        self.assertEqual(len(names(self.selected())), target)
        self.widget.keep_index = 0
        self.widget._on_keep_changed()
        curve, _ = self.widget.result
        self.assertEqual(len(names(self.selected())), curve.chosen)

    def test_the_learner_the_score_and_a_scorer_on_the_input(self):
        self.widget.n_folds = 3
        self.widget.score = "AUC"
        self.send_signal(self.widget.Inputs.learner,
                         LogisticRegressionLearner())
        self.send_signal(self.widget.Inputs.scorer, RankScorer(MultiSURF()))
        self.send_and_wait(self.heart)
        curve, _ = self.widget.result
        expected = selection_curve(self.heart, LogisticRegressionLearner(),
                                   MultiSURF(), n_folds=3, score="AUC")
        np.testing.assert_array_equal(curve.mean, expected.mean)
        self.assertFalse(self.widget.method_combo.isEnabled())
        self.assertIn("MultiSURF", self.widget.scorer_label.text())

    def test_a_scorer_that_does_not_fit_gives_way_to_the_method(self):
        self.widget.n_folds = 3
        self.send_signal(self.widget.Inputs.scorer, RankScorer(RReliefF()))
        self.send_and_wait(self.heart)
        self.assertTrue(self.widget.Warning.scorer_misfit.is_shown())
        self.assertIsNotNone(self.selected())

    def test_turf_marks_its_rounds(self):
        self.widget.n_folds = 3
        self.widget.method = TURF
        self.send_and_wait(self.heart)
        curve, _ = self.widget.result
        self.assertIsNotNone(curve.turf_counts)
        self.assertIn("TuRF", self.widget.plot.getPlotItem().titleLabel.text)

    def test_vls_ranks_as_its_scorer(self):
        self.widget.n_folds = 3
        self.widget.method = VLS_RELIEFF
        self.send_and_wait(self.heart)
        curve, scores = self.widget.result
        self.assertIsNone(curve.turf_counts)
        self.assertEqual(len(scores), len(self.heart.domain.attributes))
        self.assertFalse(method_fits(VLS_RELIEFF,
                                     Table(path("cpu")).domain.class_var))

    def test_a_numeric_class_takes_rrelieff_and_r2(self):
        self.widget.n_folds = 3
        self.send_and_wait(Table(path("cpu")))
        self.assertEqual((self.widget.method, self.widget.score),
                         ("RReliefF", "R2"))
        self.assertIsNotNone(self.selected())

    def test_data_without_a_class(self):
        no_class = self.heart.transform(self.heart.domain.select_columns(
            self.heart.domain.attributes))
        self.send_and_wait(no_class)
        self.assertTrue(self.widget.Error.no_class.is_shown())
        self.assertIsNone(self.selected())
