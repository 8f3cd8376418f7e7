"""The Consensus Ranking widget (run with QT_QPA_PLATFORM=offscreen)."""
import numpy as np
from Orange.classification import LogisticRegressionLearner
from Orange.data import Table
from Orange.preprocess.score import InfoGain
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base

from orangecontrib.relief import Consensus, MultiSURF, ReliefF, RReliefF
from orangecontrib.relief.datasets import path
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.widgets.owconsensus import OWConsensus
from tests.orange.test_input_matrix import Answer


class TestOWConsensus(base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table(path("heart_disease"))

    def setUp(self):
        self.widget = self.create_widget(OWConsensus)

    def send_scorers(self, *scorers):
        for index, scorer in enumerate(scorers):
            self.send_signal(self.widget.Inputs.scorers, scorer, index)

    def test_the_inputs_and_orange_s_scorers_in_one_column_for_rank(self):
        self.send_scorers(RankScorer(ReliefF()), LogisticRegressionLearner())
        self.send_signal(self.widget.Inputs.data, self.heart)
        self.wait_until_finished()
        scorer = self.get_output(self.widget.Outputs.scorer)
        expected = Consensus([ReliefF(), LogisticRegressionLearner(),
                              InfoGain()], "borda")
        np.testing.assert_array_equal(scorer(self.heart),
                                      expected(self.heart))
        ranks = self.get_output(self.widget.Outputs.ranks)
        self.assertEqual([var.name for var in ranks.domain.attributes],
                         ["outranks", "mean rank",
                          "rank by ReliefF\u2081\u2080",
                          "rank by logistic regression",
                          "rank by Information Gain"])
        np.testing.assert_array_equal(
            ranks.X[:, 2:],
            expected.ranks(self.heart).T[np.argsort(
                expected.ranks(self.heart).mean(axis=0), kind="stable")])
        self.assertEqual(self.widget.model.rowCount(), 13)
        rank = self.create_widget(OWRank)
        self.send_signal(rank.Inputs.data, self.heart, widget=rank)
        self.send_signal(rank.Inputs.scorer, scorer, widget=rank)
        self.wait_until_finished(widget=rank)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        self.assertIn("Outranks", [v.name for v in scores.domain.attributes])
        self.widget.send_report()

    def test_rank_gets_a_positive_count_the_best_on_top(self):
        self.widget.orange_scorers = []
        self.send_scorers(RankScorer(ReliefF()), RankScorer(MultiSURF()))
        self.send_signal(self.widget.Inputs.data, self.heart)
        self.wait_until_finished()
        ranks = self.get_output(self.widget.Outputs.ranks)
        consensus = ranks.get_column("outranks")
        np.testing.assert_array_equal(
            consensus, 13 - ranks.get_column("mean rank"))
        np.testing.assert_array_equal(consensus, np.sort(consensus)[::-1])
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertEqual(scorer.name, "Outranks")
        column = scorer.score_data(self.heart)[0]
        self.assertTrue((column >= 0).all())
        self.assertEqual(self.heart.domain.attributes[np.argmax(column)].name,
                         ranks.get_column("attribute")[0])

    def test_every_scorer_check_box_says_what_it_measures(self):
        for name, check in self.widget.orange_boxes.items():
            self.assertGreater(len(check.toolTip()), 40, name)

    def test_a_workflow_of_the_mean_rank_opens(self):
        widget = self.create_widget(OWConsensus, stored_settings={
            "method_index": 0, "__version__": 1})
        self.assertFalse(hasattr(widget, "method_index"))

    def test_too_few_scorers_and_those_that_do_not_fit(self):
        self.widget.orange_boxes["Information Gain"].setChecked(False)
        self.send_scorers(RankScorer(ReliefF()))
        self.assertTrue(self.widget.Warning.too_few.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.scorer))
        self.send_scorers(RankScorer(ReliefF()), RankScorer(RReliefF()),
                          RankScorer(MultiSURF()))
        self.send_signal(self.widget.Inputs.data, self.heart)
        self.wait_until_finished()
        self.assertIn("RReliefF", str(self.widget.Warning.misfit))
        self.assertEqual(len(self.get_output(
            self.widget.Outputs.scorer).scorer.scorers), 2)
        self.send_signal(self.widget.Inputs.scorers, None, 0)
        self.assertEqual(len(self.widget.inputs), 2)

    def test_a_scorer_of_the_wrong_length_is_named(self):
        self.send_scorers(RankScorer(ReliefF()), Answer(
            lambda n: np.zeros(n - 1)))
        self.send_signal(self.widget.Inputs.data, self.heart)
        self.wait_until_finished()
        self.assertIn("gave 12 scores, shape (12,), for 13 attributes",
                      str(self.widget.Error.ranking))
        self.assertIsNone(self.get_output(self.widget.Outputs.ranks))

    def test_scorers_of_one_name_get_two_columns(self):
        self.send_scorers(RankScorer(ReliefF()),
                          RankScorer(ReliefF(n_iterations=50)))
        self.assertEqual(list(self.widget.scorers())[:2],
                         ["ReliefF\u2081\u2080", "ReliefF\u2081\u2080 (2)"])
