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


class TestRankColumnsAStudentCanRead(base.WidgetTest):
    """The add-on's columns in Rank: their names fit Rank's default column
    width (in the canvas's bold header font), higher is better in every
    one (Rank sorts descending), and a covariate NPDR does not weigh is
    not available (NaN) in both of its columns, not minus infinity."""

    def test_names_fit_rank_s_columns(self):
        """No wider than Rank's own default columns' names, which the
        canvas shows whole (a sorted column's arrow elides any)."""
        from AnyQt.QtGui import QFontMetrics
        from Orange.widgets.data.owrank import SCORES

        from orangecontrib.relief.significance import SIGNIFICANCE_COLUMN
        from orangecontrib.relief.variants import METHODS, make_scorer
        from orangecontrib.relief.widgets.owconsensus import CONSENSUS

        rank = self.create_widget(OWRank)
        font = rank.ranksView.horizontalHeader().font()
        font.setBold(True)
        width = QFontMetrics(font).horizontalAdvance
        room = max(width(score.shortname) for score in SCORES
                   if score.is_default)
        names = [RankScorer(make_scorer(name)).name for name in METHODS]
        names += [SIGNIFICANCE_COLUMN, CONSENSUS,
                  RankScorer(RFSMScorer()).name]
        for name in names:
            self.assertLessEqual(width(name), room, name)

    def test_higher_is_better_and_covariates_are_not_available(self):
        from orangecontrib.relief import NPDR, Significance

        data = Table(path("heart_disease"))
        rank = self.create_widget(OWRank)
        npdr = NPDR(covariates=["age"])
        significance = Significance(npdr, test="regression")
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer, RankScorer(npdr), 0, widget=rank)
        self.send_signal(rank.Inputs.scorer, RankScorer(significance), 1,
                         widget=rank)
        self.wait_until_finished(rank)
        model = rank.ranksModel
        rows = {model.data(model.index(row, 0)):
                [model.data(model.index(row, column), Qt.EditRole)
                 for column in (model.columnCount() - 2,
                                model.columnCount() - 1)]
                for row in range(model.rowCount())}
        # shown NA, sorted last: not weighed, not tested
        self.assertTrue(np.isnan(rows["age"]).all())
        self.assertTrue(np.isfinite([v for name, values in rows.items()
                                     if name != "age" for v in values]).all())
        # the most significant has the highest -log10 q
        result = significance.result(data)
        most = data.domain.attributes[np.nanargmin(result.q)].name
        self.assertEqual(max((name for name in rows if name != "age"),
                             key=lambda name: rows[name][1]), most)
