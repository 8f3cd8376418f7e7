"""Orange's Rank widget with the add-on's scorers on its Scorer input (run
with QT_QPA_PLATFORM=offscreen)."""
import numpy as np
import pytest
from AnyQt.QtCore import Qt
from Orange.data import Table
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base

from orangecontrib.relief import (ClassDependentRankScorer, IWCDRelief,
                                  RankScorer, RFSMScorer)
from orangecontrib.relief.datasets import path


class TestRankWithTheAddonsScorers(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWRank)

    def scores(self, data, scorer):
        """Rank's Scores output with `scorer` on `data`."""
        rank = self.widget
        self.send_signal(rank.Inputs.data, data)
        self.send_signal(rank.Inputs.scorer, scorer, 1)
        self.wait_until_finished(rank)
        return self.get_output(rank.Outputs.scores)

    def test_rfsm_scorer_in_rank(self):
        data = Table(path("zoo"))
        scores = self.scores(data, RankScorer(RFSMScorer()))
        got = dict(zip(scores.get_column("Feature"),
                       scores.get_column("RFSM\u2081")))
        expected = dict(zip([v.name for v in data.domain.attributes],
                            RFSMScorer()(data)))
        assert got.keys() == expected.keys()
        for name in got:
            assert got[name] == pytest.approx(expected[name])

    def test_rank_shows_one_column_per_class_value(self):
        data = Table(path("heart_disease"))
        rank = self.widget
        rank.selected_methods = set()
        scorer = ClassDependentRankScorer(IWCDRelief(threshold=0.3))
        scores = self.scores(data, scorer)
        model = rank.ranksModel
        headers = [model.headerData(i, 1) for i in range(model.columnCount())]
        values = data.domain.class_var.values
        expected = [f"IWCDRelief for class {v}" for v in values]
        self.assertEqual(headers[-2:], expected)
        # the narrow header shows the whole name on hover
        self.assertEqual(model.headerData(len(headers) - 1, 1, Qt.ToolTipRole),
                         expected[-1])
        # the columns hold the class rows of the matrix
        self.assertEqual([v.name for v in scores.domain.attributes][-2:],
                         expected)
        matrix = scorer.scorer.class_weights(data)
        np.testing.assert_allclose(scores.X[:, -2:], matrix.T)
