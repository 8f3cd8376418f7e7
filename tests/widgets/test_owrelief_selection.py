"""The Relief widget's Preprocessor output and its stability option (run
with QT_QPA_PLATFORM=offscreen)."""
import numpy as np
from Orange.data import Table
from Orange.widgets.tests import base

from orangecontrib.relief import MultiSURF, ReliefF, Significance
from orangecontrib.relief.datasets import path
from orangecontrib.relief.preprocess import SelectReliefFeatures
from orangecontrib.relief.stability import (STABILITY_COLUMNS,
                                            ranking_stability)
from orangecontrib.relief.widgets.owrelief import SELECTIONS, OWRelief
from tests.widgets.widget_helpers import SendAndWaitMixin


def kept(preprocessor, data):
    return [var.name for var in preprocessor(data).domain.attributes]


class TestReliefSelection(SendAndWaitMixin, base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table(path("heart_disease"))

    def setUp(self):
        self.widget = self.create_widget(OWRelief)

    def preprocessor(self):
        return self.get_output(self.widget.Outputs.preprocessor)

    def choose(self, selection, **settings):
        for name, value in settings.items():
            setattr(self.widget, name, value)
        self.widget.selection_index = SELECTIONS.index(selection)
        self.widget._on_option_changed()

    def test_the_preprocessor_selects_as_the_controls_say(self):
        """Each criterion keeps what a script's selection with the
        widget's scorer keeps."""
        self.send_and_wait(self.heart)
        self.assertIsInstance(self.preprocessor(), SelectReliefFeatures)
        self.widget.method = "MultiSURF"
        for selection, settings, script in (
                ("k", dict(select_k=4), dict(k=4)),
                ("fraction", dict(select_percent=30), dict(fraction=0.3)),
                ("threshold", dict(select_threshold=0.02),
                 dict(threshold=0.02)),
                ("significance", dict(alpha=0.01),
                 dict(significance="stir", alpha=0.01))):
            self.choose(selection, **settings)
            expected = SelectReliefFeatures(MultiSURF(), **script)
            self.assertEqual(kept(self.preprocessor(), self.heart),
                             kept(expected, self.heart), selection)
        self.assertIn("significant by stir at q <= 0.01",
                      self.preprocessor().criteria)

    def test_selection_by_stir_without_its_pairs_warns(self):
        self.widget.method = "DReliefF"
        self.choose("significance")
        self.assertIsNone(self.preprocessor())
        self.assertTrue(self.widget.Warning.no_stir.is_shown())
        self.widget.test_index = 1  # permutations
        self.choose("significance")
        self.assertEqual(self.preprocessor().tester.test, "permutation")

    def test_stability_adds_its_columns_notes_and_index(self):
        self.widget.stability = True
        self.widget.n_resamples = 12
        self.widget.stability_k = 4
        self.widget.random_seed = 3
        self.send_and_wait(self.heart)
        table = self.get_output(self.widget.Outputs.weights)
        expected = ranking_stability(self.heart, ReliefF(), n_resamples=12,
                                     top_k=4, random_state=3)
        names = [a.name for a in self.heart.domain.attributes]
        order = [names.index(name) for name in table.get_column("attribute")]
        for column, values in zip(STABILITY_COLUMNS, (
                expected.frequency, expected.median_rank, expected.rank_low,
                expected.rank_high)):
            np.testing.assert_array_equal(table.get_column(column),
                                          values[order])
        ticks = self.widget.plot.getAxis("right")._tickLevels[0]
        self.assertEqual(len(ticks), 13)
        self.assertIn("ranks", ticks[0][1])
        self.assertIn(f"{expected.index.value:.2f}",
                      self.widget.plot_info.text())
        self.widget.send_report()

    def test_stability_of_more_selected_than_attributes_is_named(self):
        """Heart disease has 13 attributes: the best 20 cannot be
        selected; the weights come, the stability does not, and a warning
        names the setting."""
        self.widget.stability = True
        self.widget.n_resamples = 3
        self.widget.stability_k = 20
        self.send_and_wait(self.heart)
        self.assertIn("'Selected: the best' 20 is more than the 13",
                      str(self.widget.Warning.stability_k))
        table = self.get_output(self.widget.Outputs.weights)
        self.assertEqual(len(table), 13)
        self.assertNotIn(STABILITY_COLUMNS[0], table.domain)
        self.widget.stability_k = 4
        self.widget.commit.now()
        self.wait_until_finished()
        self.assertFalse(self.widget.Warning.stability_k.is_shown())

    def test_the_significance_selection_tests_the_training_data_alone(self):
        self.choose("significance")
        data = self.heart[::2]
        expected = Significance(ReliefF(), test="stir").result(data)
        self.assertEqual(
            kept(self.preprocessor(), data),
            [a.name for a, s in zip(data.domain.attributes,
                                    expected.significant) if s])
