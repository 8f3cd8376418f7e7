"""The Relief widget (run with QT_QPA_PLATFORM=offscreen)."""
import threading
from unittest.mock import patch

import numpy as np
import pyqtgraph as pg
from AnyQt.QtCore import QItemSelectionModel
from AnyQt.QtWidgets import QLabel
from Orange.data import ContinuousVariable, Domain, Table
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base

from orangecontrib.relief import (DReliefF, Iter, MultiSWRFstar, MuRelief,
                                  NPDR, PDReliefF, Relief, ReliefF, RReliefF)
from orangecontrib.relief.core import engines
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.core.registry import offered
from orangecontrib.relief.datasets import path
from orangecontrib.relief.multitarget import (MultiLabelReliefF,
                                              MultiTargetRReliefF)
from orangecontrib.relief.widgets import owrelief, weights
from orangecontrib.relief.widgets.owrelief import OWRelief
from tests.degenerate_evidence import CASES, degenerate_table
from tests.orange.test_npdr import (confounded_table, separated_table,
                                     with_ages)
from tests.widgets.widget_helpers import (FakeState, SendAndWaitMixin,
                                          choose)


def weights_by_name(table):
    """Return {attribute name: weight} of the widget's Weights output."""
    return dict(zip(table.get_column("attribute"), table.get_column("weight")))


def expected_by_name(scorer, data):
    """Return {attribute name: weight} computed by the script."""
    return {attr.name: weight
            for attr, weight in zip(data.domain.attributes, scorer(data))}


class TestOWRelief(SendAndWaitMixin, base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table(path("heart_disease"))
        cls.cpu = Table(path("cpu"))
        cls.zoo = Table(path("zoo"))

    def setUp(self):
        self.widget = self.create_widget(OWRelief)

    def assert_weights(self, expected, table, delta=1e-9):
        self.assert_same_weights(expected, weights_by_name(table), delta)

    def assert_same_weights(self, expected, got, delta=1e-9):
        self.assertEqual(got.keys(), expected.keys())
        for name, weight in expected.items():
            self.assertAlmostEqual(got[name], weight, delta=delta)

    def test_weights_output_sorted_and_equal_to_script(self):
        self.send_and_wait(self.heart)
        self.assertEqual(self.widget.method, "ReliefF")
        table = self.get_output(self.widget.Outputs.weights)
        self.assertEqual(len(table), len(self.heart.domain.attributes))
        weights = table.get_column("weight")
        np.testing.assert_array_equal(weights, np.sort(weights)[::-1])
        self.assert_weights(expected_by_name(ReliefF(k_nearest=10),
                                             self.heart), table)

    def test_scorer_in_rank_shows_the_scripts_numbers(self):
        self.send_and_wait(self.heart)
        scorer = self.get_output(self.widget.Outputs.scorer)
        rank = self.create_widget(OWRank)
        self.send_signal(rank.Inputs.data, self.heart, widget=rank)
        self.send_signal(rank.Inputs.scorer, scorer, 0, widget=rank)
        self.wait_until_finished(widget=rank)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        # the scorer's column, next to Orange's default methods, named
        # apart from Orange's own ReliefF: its k as a subscript
        self.assertIn("ReliefF\u2081\u2080",
                      [v.name for v in scores.domain.attributes])
        got = dict(zip(scores.get_column("Feature"),
                       scores.get_column("ReliefF\u2081\u2080")))
        self.assert_same_weights(expected_by_name(ReliefF(), self.heart), got)

    def test_regression_uses_rrelieff(self):
        self.send_and_wait(self.cpu)
        self.assertEqual(self.widget.method, "RReliefF")
        combo = self.widget.method_combo
        enabled = [combo.item_of(name).isEnabled()
                   for name in ("Relief", "ReliefF", "RReliefF")]
        self.assertEqual(enabled, [False, False, True])
        self.assert_weights(expected_by_name(RReliefF(k_nearest=50), self.cpu),
                            self.get_output(self.widget.Outputs.weights))
        self.assertIs(self.get_output(self.widget.Outputs.scorer).class_type,
                      ContinuousVariable)

    def test_classification_after_regression_returns_to_relieff(self):
        self.send_and_wait(self.cpu)
        self.send_and_wait(self.heart)
        self.assertEqual(self.widget.method, "ReliefF")

    def test_options_reach_the_scorer(self):
        widget = self.widget
        self.send_and_wait(self.zoo)
        widget.k_relieff = 3
        widget.sample_references = True
        widget.n_iterations = 40
        widget.random_seed = 7
        widget.diff = "ramp"
        widget.t_eq, widget.t_diff = 0.1, 0.3
        widget.commit.now()
        self.wait_until_finished()
        expected = ReliefF(k_nearest=3, n_iterations=40, random_state=7,
                           diff="ramp", t_eq=0.1, t_diff=0.3)
        self.assert_weights(expected_by_name(expected, self.zoo),
                            self.get_output(widget.Outputs.weights))

    def test_iter_wraps_the_method_with_its_rounds(self):
        widget = self.widget
        self.send_and_wait(self.zoo)
        widget.k_relieff = 5
        widget.iterate, widget.iter_rounds = True, 3
        widget._on_option_changed()
        self.wait_until_finished()
        expected = Iter(ReliefF(k_nearest=5), max_rounds=3)
        self.assert_weights(expected_by_name(expected, self.zoo),
                            self.get_output(widget.Outputs.weights))
        self.assertEqual(self.get_output(widget.Outputs.scorer).friendly_name,
                         "Iter(ReliefF\u2085)")
        # STIR knows the plain method's pairs, not those of Iter's distance
        stir = owrelief.TESTS.index("stir")
        self.assertFalse(widget.test_combo.model().item(stir).isEnabled())
        widget.send_report()

    def test_iter_is_off_for_methods_that_do_not_weight_distance(self):
        widget = self.widget
        self.send_and_wait(self.heart)
        widget.iterate = True
        for method in ("MultiSWRF", "NPDR"):
            choose(widget.method_combo, method)
            self.wait_until_finished()
            self.assertFalse(widget.controls.iterate.isEnabled())
            self.assertIn("does not weight its distance",
                          widget.controls.iter_rounds.toolTip())
            self.assertNotIsInstance(widget.make_scorer(), Iter)
        choose(widget.method_combo, "MultiSURF")
        self.wait_until_finished()
        self.assertTrue(widget.controls.iterate.isEnabled())
        self.assertIsInstance(widget.make_scorer(), Iter)

    def test_npdr_fits_that_do_not_converge_are_a_warning(self):
        """The warning of the worker thread's fits reaches the widget with
        its result, naming the attribute, with or without NPDR's own
        p-values; data whose fits converge clear it."""
        separated = separated_table()
        widget = self.widget
        widget.method = "NPDR"
        for test in (False, True):
            widget.test_significance = test
            widget.test_index = owrelief.TESTS.index("regression")
            self.send_and_wait(separated)
            self.assertTrue(widget.Warning.unconverged.is_shown())
            self.assertIn("did not converge for attribute 'sep'",
                          str(widget.Warning.unconverged))
            self.assertFalse(widget.Warning.no_verdict.is_shown())
            self.assertIsNotNone(self.get_output(widget.Outputs.weights))
            self.send_and_wait(self.heart)
            self.assertFalse(widget.Warning.unconverged.is_shown())

    def test_npdr_with_a_covariate_from_the_metas(self):
        data = confounded_table()
        widget = self.widget
        self.send_and_wait(data)
        widget.method = "NPDR"
        widget._update_controls()
        self.assertTrue(widget.covariate_box.isEnabled())
        sex = data.domain["sex"]
        self.assertIn(sex, widget.covariate_model)
        widget.covariates = [sex]
        widget.test_significance = True
        widget.test_index = owrelief.TESTS.index("regression")
        widget.commit.now()
        self.wait_until_finished()
        self.assert_weights(expected_by_name(NPDR(covariates=["sex"]), data),
                            self.get_output(widget.Outputs.weights))
        significant = self.get_output(widget.Outputs.significant_data)
        self.assertNotIn("x0", [a.name for a in
                                significant.domain.attributes])
        widget.send_report()

    def test_npdr_leaves_its_covariates_out_of_the_plot_and_says_so(self):
        data = confounded_table(sex_as_attribute=True)
        widget = self.widget
        widget.test_significance = True  # the default test: STIR
        self.send_and_wait(data)
        widget.method = "NPDR"
        widget.covariates = [data.domain["sex"]]
        widget._on_option_changed()
        self.wait_until_finished()
        # NPDR's own p-values, not a warning to choose another test
        self.assertEqual(owrelief.TESTS[widget.test_index], "regression")
        self.assertFalse(widget.Warning.no_stir.is_shown())
        self.assertIsNotNone(widget.scores.tested)
        ticks = [label for _, label in
                 widget.plot.getAxis("left")._tickLevels[0]]
        self.assertNotIn("sex", ticks)
        low, high = widget.plot.getViewBox().viewRange()[0]
        self.assertTrue(np.isfinite([low, high]).all())
        self.assertLess(low, np.nanmin(widget.scores.weights) + 1e-9)
        self.assertIn("Covariates, not weighed", widget.plot_info.text())
        self.assertIn("sex", widget.plot_info.text())
        significance = self.get_output(widget.Outputs.significance)
        column = significance.score_data(data)[0]
        self.assertTrue(np.isnan(column[-1]))  # NA in Rank, not -inf
        self.assertFalse(np.isinf(column).any())
        # another method gets STIR back
        widget.method = "MultiSURF"
        widget._on_option_changed()
        self.assertEqual(owrelief.TESTS[widget.test_index], "stir")
        self.wait_until_finished()

    def test_collinear_covariates_are_named(self):
        data = with_ages()
        widget = self.widget
        self.send_and_wait(data)
        widget.method = "NPDR"
        widget.covariates = [data.domain["age"], data.domain["months"]]
        widget.commit.now()
        self.wait_until_finished()
        self.assertIn("covariate 'months' over the neighbour pairs are a "
                      "linear combination of those of covariate 'age'",
                      str(widget.Error.relief))
        self.assertIsNone(self.get_output(widget.Outputs.weights))
        widget.covariates = [data.domain["age"]]
        widget.commit.now()
        self.wait_until_finished()
        self.assertFalse(widget.Error.relief.is_shown())

    def test_covariates_are_kept_per_domain(self):
        data = confounded_table()
        widget = self.widget
        self.send_and_wait(data)
        widget.method = "NPDR"
        model = widget.covariate_model
        widget.covariate_list.selectionModel().select(
            model.index(list(model).index(data.domain["sex"])),
            QItemSelectionModel.Select)
        self.assertEqual(widget._covariates(), {"covariates": ["sex"]})
        self.send_and_wait(self.zoo)
        self.assertEqual(widget.covariates, [])
        self.send_and_wait(data)
        self.assertEqual(widget._covariates(), {"covariates": ["sex"]})
        settings = self.widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWRelief, stored_settings=settings)
        self.send_and_wait(data, widget=restored)
        self.assertEqual([var.name for var in restored.covariates], ["sex"])
        self.send_and_wait(self.zoo, widget=restored)
        self.assertEqual(restored.covariates, [])

    def test_relief_on_two_classes(self):
        self.send_and_wait(Table(path("voting")))
        choose(self.widget.method_combo, "Relief")
        self.wait_until_finished()
        self.assertEqual(self.widget.k_stack.currentIndex(), 2)
        self.assert_weights(expected_by_name(Relief(), Table(path("voting"))),
                            self.get_output(self.widget.Outputs.weights))

    def test_the_method_box_is_as_tall_as_the_page_it_shows(self):
        # a stack as tall as its tallest page (NPDR's covariates) left a
        # blank under ReliefF's k
        widget, stack = self.widget, self.widget.k_stack
        self.send_and_wait(self.heart)
        heights = {}
        for name in ("ReliefF", "NPDR", "ReliefF"):
            choose(widget.method_combo, name)
            self.wait_until_finished()
            self.assertEqual(stack.sizeHint().height(),
                             stack.currentWidget().sizeHint().height())
            heights[name] = stack.sizeHint().height()
        self.assertLess(heights["ReliefF"], heights["NPDR"])
        # in a window taller than the controls, the box keeps that height
        widget.resize(850, 700)
        widget.show()
        self.process_events()
        self.assertLessEqual(stack.height(), heights["ReliefF"])
        widget.hide()

    def test_double_variants(self):
        voting = Table(path("voting"))
        widget = self.widget
        self.send_and_wait(voting)
        for name, scorer in (("DReliefF", DReliefF), ("PDReliefF", PDReliefF)):
            choose(widget.method_combo, name)
            self.wait_until_finished()
            self.assertEqual(widget.k_stack.currentIndex(), 0)  # ReliefF's k
            self.assert_weights(
                expected_by_name(scorer(k_nearest=widget.k_relieff), voting),
                self.get_output(widget.Outputs.weights), delta=1e-12)
        widget.k_relieff = 4
        widget.commit.now()
        self.wait_until_finished()
        self.assertEqual(
            self.get_output(widget.Outputs.scorer).scorer.k_nearest, 4)

    def test_the_tie_rule_sits_under_k_and_reaches_the_scorer(self):
        """The tie rule shows under the k (or Relief's sentence) of the
        methods of a k-th neighbour, nowhere for the others, and its choice
        gives the script's weights with that rule (zoo's binary attributes
        tie the k-th distance in most lists)."""
        widget, combo = self.widget, self.widget.ties_combo
        self.send_and_wait(self.zoo)
        self.assertIs(combo.parent(), widget.k_stack.currentWidget())
        self.assertFalse(combo.isHidden())
        choose(combo, "lower-index")
        self.wait_until_finished()
        lower = expected_by_name(ReliefF(ties="lower-index"), self.zoo)
        self.assertNotEqual(lower, expected_by_name(ReliefF(), self.zoo))
        self.assert_weights(lower, self.get_output(widget.Outputs.weights))
        with patch.object(widget, "report_items") as report:
            widget.send_report()
        self.assertIn(("Ties", "Tied: earlier rows first"),
                      report.call_args_list[0][0][1])
        for method, shown in (("MultiSURF", False), ("NPDR", False),
                              ("ReliefF", True)):
            choose(widget.method_combo, method)
            self.assertEqual(combo.isHidden(), not shown, method)
        self.send_and_wait(Table(path("voting")))
        choose(widget.method_combo, "Relief")
        self.wait_until_finished()
        self.assertIs(combo.parent(), widget.k_stack.currentWidget())
        self.assert_weights(
            expected_by_name(Relief(ties="lower-index"), Table(path("voting"))),
            self.get_output(widget.Outputs.weights))

    def test_the_convention_sits_under_k_and_reaches_the_scorer(self):
        """The convention shows for mu-Relief (under its k, after the tie
        rule) and the SWRF family (under their sentence), nowhere for the
        others; scikit-rebate's gives the script's weights with it, and
        takes the tie rule's place (scikit-rebate orders ties by its
        sort)."""
        widget, combo = self.widget, self.widget.convention_combo
        self.send_and_wait(self.zoo)
        for method, shown in (("ReliefF", False), ("MultiSWRF*", True),
                              ("NPDR", False), ("mu-Relief", True)):
            choose(widget.method_combo, method)
            self.assertEqual(combo.isHidden(), not shown, method)
        self.assertIs(combo.parent(), widget.k_stack.currentWidget())
        widget.ties = "lower-index"
        choose(combo, "scikit-rebate")
        self.wait_until_finished()
        self.assertFalse(widget.ties_combo.isEnabled())
        theirs = expected_by_name(MuRelief(convention="scikit-rebate"),
                                  self.zoo)
        self.assertNotEqual(theirs, expected_by_name(MuRelief(), self.zoo))
        self.assert_weights(theirs, self.get_output(widget.Outputs.weights))
        with patch.object(widget, "report_items") as report:
            widget.send_report()
        items = report.call_args_list[0][0][1]
        self.assertIn(("Convention", "As scikit-rebate 0.8"), items)
        self.assertNotIn("Ties", dict(items))
        choose(widget.method_combo, "MultiSWRF*")
        self.wait_until_finished()
        self.assertIs(combo.parent(), widget.k_stack.currentWidget())
        self.assert_weights(
            expected_by_name(MultiSWRFstar(convention="scikit-rebate"),
                             self.zoo),
            self.get_output(widget.Outputs.weights))

    def test_relief_is_not_offered_for_many_classes(self):
        self.widget.method = "Relief"
        self.send_and_wait(self.zoo)
        self.assertEqual(self.widget.method, "ReliefF")
        self.assertFalse(self.widget.Error.relief.is_shown())
        item = self.widget.method_combo.item_of("Relief")
        self.assertTrue(item.text().strip().startswith("Relief:"))
        self.assertFalse(item.isEnabled())
        self.assertIn("a categorical class with 2 values", item.toolTip())
        self.assertIsNotNone(self.get_output(self.widget.Outputs.weights))

    def test_ramp_thresholds_enabled_only_for_ramp(self):
        self.assertFalse(any(s.isEnabled() for s in self.widget.ramp_spins))
        choose(self.widget.diff_combo, "ramp")
        self.assertTrue(all(s.isEnabled() for s in self.widget.ramp_spins))

    def test_string_metas(self):
        self.assertIn("name", [m.name for m in self.zoo.domain.metas])
        self.send_and_wait(self.zoo)
        self.assertFalse(self.widget.Error.active)
        self.assertEqual(len(self.get_output(self.widget.Outputs.weights)),
                         len(self.zoo.domain.attributes))

    def test_no_class(self):
        no_class = self.heart.transform(
            Domain(self.heart.domain.attributes))
        self.send_and_wait(no_class)
        self.assertTrue(self.widget.Error.no_class.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))
        self.assertIsNotNone(self.get_output(self.widget.Outputs.scorer))
        self.send_and_wait(None)
        self.assertFalse(self.widget.Error.no_class.is_shown())

    def several_targets(self, kind):
        """Heart disease with two of its numeric (or binary) attributes as
        targets."""
        attributes = self.heart.domain.attributes
        targets = [var for var in attributes if kind(var)][:2]
        return self.heart.transform(Domain(
            [var for var in attributes if var not in targets], targets))

    def test_several_targets_are_weighed_by_the_method_that_fits(self):
        """Numeric targets: multi-target RReliefF, binary ones: multi-label
        ReliefF, each from its entry of the list (the others disabled,
        saying why), the overall weight and each target's in the output,
        with the widget's k and seed."""
        widget = self.widget
        for kind, method, scorer_class, setting in (
                (lambda var: var.is_continuous, "RReliefF",
                 MultiTargetRReliefF, "k_rrelieff"),
                (lambda var: var.is_discrete and len(var.values) == 2,
                 "ReliefF", MultiLabelReliefF, "k_relieff")):
            several = self.several_targets(kind)
            setattr(widget, setting, 7)
            self.send_and_wait(several)
            self.assertFalse(widget.Error.no_class.is_shown())
            self.assertEqual(widget.method, method)
            self.assertIn(f"{method} weighs by all of them",
                          str(widget.Information.several_targets))
            combo = widget.method_combo
            self.assertTrue(combo.item_of(method).isEnabled())
            self.assertFalse(combo.item_of("MultiSURF").isEnabled())
            self.assertIn("weighs by one class",
                          combo.item_of("MultiSURF").toolTip())
            expected = scorer_class(k_nearest=7).target_rankings(several)
            table = self.get_output(widget.Outputs.weights)
            names = ["overall"] + [var.name
                                   for var in several.domain.class_vars]
            self.assertEqual([var.name for var in table.domain.attributes],
                             names)
            for name in names:
                self.assert_same_weights(
                    dict(zip(expected.get_column("attribute"),
                             expected.get_column(name))),
                    dict(zip(table.get_column("attribute"),
                             table.get_column(name))))
            widget.select_k = 3
            widget.commit.now()
            self.wait_until_finished()
            selected = self.get_output(widget.Outputs.preprocessor)(several)
            self.assertEqual({var.name for var in selected.domain.attributes},
                             set(table.get_column("attribute")[:3]))
            widget.send_report()
        self.send_and_wait(self.heart)
        self.assertFalse(widget.Information.several_targets.is_shown())
        self.assertEqual(widget.method, "ReliefF")

    def test_labels_are_weighed_by_the_label_set_distance_chosen(self):
        """Binary targets show the label-set distance, each choice giving
        multi-label ReliefF of that distance (and the report names it);
        numeric targets and one class hide it."""
        widget = self.widget
        labels = self.several_targets(
            lambda var: var.is_discrete and len(var.values) == 2)
        self.send_and_wait(labels)
        self.assertFalse(widget.label_distance_box.isHidden())
        self.assertEqual(widget.label_distance_combo.value(), "hamming")
        overall = {}
        for distance in owrelief.LABEL_DISTANCES:
            choose(widget.label_distance_combo, distance)
            self.wait_until_finished()
            self.assertEqual(widget.label_distance, distance)
            self.assertEqual(widget.make_scorer().distance, distance)
            table = self.get_output(widget.Outputs.weights)
            expected = MultiLabelReliefF(distance=distance).target_rankings(
                labels)
            self.assert_same_weights(
                dict(zip(expected.get_column("attribute"),
                         expected.get_column("overall"))),
                dict(zip(table.get_column("attribute"),
                         table.get_column("overall"))))
            overall[distance] = tuple(table.get_column("overall"))
            widget.send_report()
        self.assertEqual(len(set(overall.values())), len(overall))
        for data in (self.several_targets(lambda var: var.is_continuous),
                     self.heart):
            self.send_and_wait(data)
            self.assertTrue(widget.label_distance_box.isHidden())
        self.send_and_wait(labels)
        self.assertEqual(widget.label_distance_combo.value(), "subset")

    def test_workflows_saved_before_the_label_distance_take_hamming(self):
        widget = self.create_widget(OWRelief, stored_settings={
            "label_distance": "f1", "__version__": 1})
        self.assertEqual(widget.label_distance, "f1")
        settings = {"method": "ReliefF"}
        OWRelief.migrate_settings(settings, 1)
        self.assertEqual(settings["label_distance"], "hamming")
        widget = self.create_widget(OWRelief, stored_settings={
            "label_distance": "jaccard"})
        self.assertEqual(widget.label_distance, "hamming")

    def test_several_targets_get_no_test_and_say_so(self):
        widget = self.widget
        widget.test_significance = widget.stability = True
        self.send_and_wait(self.several_targets(lambda var: var.is_continuous))
        self.assertIn("Significance tests and Stability",
                      str(widget.Warning.one_class_only))
        self.assertIsNone(self.get_output(widget.Outputs.significance))
        self.assertIsNone(self.get_output(widget.Outputs.significant_data))
        self.assertIsNotNone(self.get_output(widget.Outputs.weights))
        self.send_and_wait(self.heart)
        self.assertFalse(widget.Warning.one_class_only.is_shown())

    def test_targets_no_method_fits_are_an_error_that_says_why(self):
        attributes = self.heart.domain.attributes
        mixed = [next(var for var in attributes if var.is_continuous),
                 next(var for var in attributes if var.is_discrete)]
        self.send_and_wait(self.heart.transform(Domain(
            [var for var in attributes if var not in mixed], mixed)))
        self.assertTrue(self.widget.Error.no_class.is_shown())
        self.assertIn("every one numeric",
                      str(self.widget.Information.several_targets))
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))

    def test_empty_table(self):
        self.send_and_wait(self.heart[:0])
        self.assertTrue(self.widget.Error.relief.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))
        self.send_and_wait(self.heart)
        self.assertFalse(self.widget.Error.relief.is_shown())

    def test_one_class(self):
        one_class = self.heart[self.heart.Y == 0]
        self.send_and_wait(one_class)
        self.assertTrue(self.widget.Error.relief.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))

    def test_all_nan_column_and_missing_class(self):
        data = self.heart.copy()
        with data.unlocked():
            data.X[:, 0] = np.nan
            data.Y[:5] = np.nan
        self.send_and_wait(data)
        self.assertTrue(self.widget.Warning.empty_columns.is_shown())
        self.assertIn(data.domain.attributes[0].name,
                      str(self.widget.Warning.empty_columns))
        self.assertTrue(self.widget.Warning.missing_class.is_shown())
        self.assertIn("5 instance", str(self.widget.Warning.missing_class))
        weights = weights_by_name(self.get_output(self.widget.Outputs.weights))
        self.assertEqual(weights[data.domain.attributes[0].name], 0)
        self.send_and_wait(self.heart)
        self.assertFalse(self.widget.Warning.active)

    def test_new_data_while_running_discards_the_old_task(self):
        release = threading.Event()
        compute = owrelief.compute_weights

        def blocking(scorer, data, state, tester=None, **options):
            release.wait(10)
            return compute(scorer, data, state, tester, **options)

        with patch.object(owrelief, "compute_weights", blocking):
            self.send_signal(self.widget.Inputs.data, self.heart)
            self.assertTrue(self.widget.task is not None)
            self.send_signal(self.widget.Inputs.data, self.cpu)
            release.set()
            self.wait_until_finished()
        self.assert_weights(expected_by_name(RReliefF(), self.cpu),
                            self.get_output(self.widget.Outputs.weights))

    def test_removing_data_while_running_cancels(self):
        release = threading.Event()

        def blocking(scorer, data, state, tester=None, **options):
            release.wait(10)
            return owrelief.Scores(np.zeros(len(data.domain.attributes)),
                                   None)

        with patch.object(owrelief, "compute_weights", blocking):
            self.send_signal(self.widget.Inputs.data, self.heart)
            self.send_signal(self.widget.Inputs.data, None)
            release.set()
            self.wait_until_finished()
        self.assertIsNone(self.widget.task)
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))

    def test_interruption_stops_the_core(self):
        with self.assertRaises(Interrupted):
            owrelief.compute_weights(ReliefF(), self.heart, FakeState())

    def test_the_weights_are_shown_while_their_test_runs(self):
        from orangecontrib.relief import MultiSURF, Significance
        scorer = ReliefF()  # STIR sums ReliefF's pairs in a pass of its own
        state = FakeState(interrupted=False)
        done = owrelief.compute_weights(scorer, self.heart, state,
                                        tester=Significance(scorer))
        [partial] = state.partial
        np.testing.assert_array_equal(partial.weights, done.weights)
        self.assertIsNone(partial.tested)
        self.assertIsNotNone(done.tested)
        self.widget.data, self.widget.test_significance = self.heart, True
        self.widget.on_partial_result(partial)
        self.assertIs(self.widget.scores, partial)
        self.assertIn("being tested", self.widget.plot_info.text())
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))
        # nothing more to wait for: no partial result
        owrelief.compute_weights(scorer, self.heart, state)
        self.assertEqual(len(state.partial), 1)
        # MultiSURF's STIR weighs in its own pass: one pass, the same weights
        scorer, state = MultiSURF(), FakeState(interrupted=False)
        done = owrelief.compute_weights(scorer, self.heart, state,
                                        tester=Significance(scorer))
        self.assertEqual(state.partial, [])
        # (the progress cuts the blocks of references: the last bits move)
        np.testing.assert_allclose(done.weights, scorer(self.heart),
                                   rtol=0, atol=1e-12)
        self.assertIsNotNone(done.tested)

    def test_settings_persist(self):
        widget = self.widget
        widget.method = "Relief"
        widget.k_rrelieff = 20
        widget.sample_references = True
        widget.n_iterations = 33
        widget.random_seed = 5
        widget.diff = "squared"
        widget.iterate, widget.iter_rounds = True, 4
        settings = widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWRelief, stored_settings=settings)
        for name in ("method", "k_rrelieff", "sample_references",
                     "n_iterations", "random_seed", "diff", "iterate",
                     "iter_rounds"):
            self.assertEqual(getattr(restored, name), getattr(widget, name))
        self.assertEqual(restored.method_combo.value(), "Relief")

    def test_the_k_slider_sets_the_k_of_the_spin_box(self):
        widget = self.widget
        self.send_and_wait(self.heart)
        slider = widget.k_sliders["k_relieff"]
        self.assertEqual(slider.maximum(), len(self.heart) - 1)
        self.assertFalse(slider.hasTracking())  # k changes where a drag ends
        slider.setValue(25)
        self.wait_until_finished()
        self.assertEqual(widget.k_relieff, 25)
        self.assertEqual(widget.controls.k_relieff.value(), 25)
        self.assert_weights(expected_by_name(ReliefF(k_nearest=25),
                                             self.heart),
                            self.get_output(widget.Outputs.weights))
        # the spin box moves the slider, and data with fewer instances
        # shorten the slider, not k
        widget.controls.k_relieff.setValue(12)
        self.assertEqual(slider.value(), 12)
        self.send_and_wait(self.heart[:8])
        self.assertEqual(slider.maximum(), 7)
        self.assertEqual(widget.k_relieff, 12)
        self.send_and_wait(self.heart)
        self.assertEqual(slider.value(), 12)

    def test_report(self):
        self.widget.send_report()
        self.send_and_wait(self.heart)
        self.widget.send_report()
        self.widget.diff = "ramp"
        self.widget.send_report()

    def test_many_attributes_show_the_best(self):
        domain = Domain([ContinuousVariable(f"x{i}") for i in range(80)],
                        self.heart.domain.class_var)
        rng = np.random.default_rng(0)
        data = Table.from_numpy(domain, rng.random((60, 80)),
                                rng.integers(0, 2, 60))
        self.send_and_wait(data)
        self.assertIn(f"{owrelief.DEFAULT_BARS} best of 80",
                      self.widget.plot_info.text())
        self.widget.controls.n_bars.setValue(owrelief.MAX_BARS)
        self.assertIn(f"{owrelief.MAX_BARS} best of 80",
                      self.widget.plot_info.text())
        self.assertEqual(len(self.widget.plot.tooltips), owrelief.MAX_BARS)


class TestPreparingTheCore(base.WidgetTest):
    """While the compiled engine is being prepared (first use only) and
    the vectorised one answers, the widget says so; the message goes with
    the result."""

    def test_message_while_the_compiled_engine_is_prepared(self):
        widget = self.create_widget(OWRelief)
        preparing = (engines.VECTORISED, engines.PREPARING)
        with patch.object(engines, "decide", return_value=preparing):
            self.send_signal(widget.Inputs.data, Table(path("heart_disease")),
                             widget=widget)
            self.assertTrue(widget.Information.preparing.is_shown())
            self.assertIn("vectorised engine",
                          str(widget.Information.preparing).lower())
            self.wait_until_finished(widget=widget)
        self.assertFalse(widget.Information.preparing.is_shown())
        self.assertIsNotNone(self.get_output(widget.Outputs.weights,
                                             widget=widget))


class TestReadableAndSignificant(SendAndWaitMixin, base.WidgetTest):
    """What a person without the papers meets: tooltips, a readable plot,
    the SURF family and significance."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table(path("heart_disease"))

    def setUp(self):
        self.widget = self.create_widget(OWRelief)

    def test_every_control_says_what_it_does(self):
        from AnyQt.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox,
                                     QLabel, QSpinBox)
        controls = [w for kind in (QCheckBox, QComboBox, QSpinBox,
                                   QDoubleSpinBox)
                    for w in self.widget.controlArea.findChildren(kind)]
        self.assertGreater(len(controls), 10)
        for control in controls:
            tip = control.toolTip() or control.parent().toolTip()
            self.assertTrue(tip, control)
        labels = " ".join(label.text() for label in
                          self.widget.controlArea.findChildren(QLabel))
        for jargon in ("t_eq", "t_diff", "eq.", "Fig."):
            self.assertNotIn(jargon, labels)

    def test_long_names_are_elided_and_whole_on_hover(self):
        long_name = "an attribute with a very long name " * 4
        domain = Domain([ContinuousVariable(long_name),
                         ContinuousVariable("short")],
                        self.heart.domain.class_var)
        rng = np.random.default_rng(1)
        X = rng.random((40, 2))
        y = (X[:, 0] > 0.5).astype(float)
        self.send_and_wait(Table.from_numpy(domain, X, y))
        ticks = self.widget.plot.getAxis("left")._tickLevels[0]
        labels = [label for _, label in ticks]
        self.assertTrue(any("\u2026" in label for label in labels))
        self.assertTrue(all(len(label) < len(long_name) for label in labels))
        tips = self.widget.plot.tooltips
        self.assertTrue(tips[0].startswith(long_name))
        self.assertIn("weight", tips[0])

    def test_the_names_take_the_width_of_the_longest(self):
        domain = Domain([ContinuousVariable("a"), ContinuousVariable("b")],
                        self.heart.domain.class_var)
        rng = np.random.default_rng(1)
        X = rng.random((40, 2))
        self.send_and_wait(Table.from_numpy(domain, X, X[:, 0] > 0.5))
        axis = self.widget.plot.getAxis("left")
        self.assertLess(axis.maximumWidth(), weights.NAME_WIDTH / 3)
        long_name = "an attribute with a very long name " * 4
        domain = Domain([ContinuousVariable(long_name),
                         ContinuousVariable("b")], domain.class_var)
        self.send_and_wait(Table.from_numpy(domain, X, X[:, 0] > 0.5))
        self.assertGreater(axis.maximumWidth(), weights.NAME_WIDTH * 0.9)
        self.assertLessEqual(axis.maximumWidth(), weights.NAME_WIDTH + 10)

    def test_computing_state_is_clear(self):
        plot = self.widget.plot
        self.assertFalse(plot.getPlotItem().getAxis("left").isVisible())
        self.assertEqual(plot.message.toPlainText(), "No data.")
        self.send_and_wait(self.heart)
        self.assertTrue(plot.getPlotItem().getAxis("left").isVisible())
        release = threading.Event()
        compute = owrelief.compute_weights

        def blocking(*args, **kwargs):
            release.wait(10)
            return compute(*args, **kwargs)

        with patch.object(owrelief, "compute_weights", blocking):
            choose(self.widget.diff_combo, "squared")  # recompute
            self.widget.diff = "squared"
            self.widget.commit.now()
            title = plot.getPlotItem().titleLabel
            self.assertTrue(title.isVisible())
            self.assertIn("previous", title.text)
            release.set()
            self.wait_until_finished()
        self.assertFalse(plot.getPlotItem().titleLabel.isVisible())

    def test_generated_relevant_attributes_are_marked(self):
        from orangecontrib.relief.generators import modulo
        data = modulo(200, 2, 6, seed=0)
        self.send_and_wait(data)
        ticks = [label for _, label in
                 self.widget.plot.getAxis("left")._tickLevels[0]]
        marked = [label for label in ticks
                  if label.startswith(owrelief.RELEVANT_MARK)]
        self.assertEqual(len(marked), 2)
        self.assertIn("relevant by construction",
                      self.widget.plot_info.text())

    def test_the_method_list_is_the_registrys_offered_variants(self):
        combo = self.widget.method_combo
        self.assertEqual(combo.values(),
                         [variant.name for variant in offered()])
        model = combo.model()
        headings = [model.item(row).text() for row in range(model.rowCount())
                    if not model.item(row).isSelectable()]
        self.assertEqual(headings, [heading for heading, _ in
                                    owrelief.METHOD_GROUPS])
        for variant in offered():  # plain words shown, the paper on hover
            item = combo.item_of(variant.name)
            self.assertIn(variant.short, item.text())
            self.assertRegex(item.toolTip(), r"\(.+ (19|20)\d\d\)")

    def test_surf_family_in_the_method_list(self):
        self.send_and_wait(self.heart)
        choose(self.widget.method_combo, "MultiSURF")
        self.wait_until_finished()
        self.assertIn("within a radius",
                      self.widget.k_stack.currentWidget().findChild(
                          QLabel).text())
        from orangecontrib.relief import MultiSURF
        self.assert_weights(MultiSURF(), self.heart)

    def assert_weights(self, scorer, data):
        table = self.get_output(self.widget.Outputs.weights)
        got = weights_by_name(table)
        for attr, weight in zip(data.domain.attributes, scorer(data)):
            self.assertAlmostEqual(got[attr.name], weight, delta=1e-12)

    def test_stir_significance_outputs(self):
        from orangecontrib.relief import MultiSURF, Significance
        widget = self.widget
        widget.method = "MultiSURF"
        widget.test_significance = True
        widget.alpha = 0.01
        self.send_and_wait(self.heart)
        expected = Significance(MultiSURF(), alpha=0.01).result(self.heart)
        table = self.get_output(widget.Outputs.weights)
        names = [a.name for a in self.heart.domain.attributes]
        by_name = dict(zip(table.get_column("attribute"),
                           zip(table.get_column("p"), table.get_column("q"),
                               table.get_column("significant"))))
        for i, name in enumerate(names):  # the progress cuts the blocks
            p, q, significant = by_name[name]  # of references otherwise
            self.assertAlmostEqual(p, expected.p[i], delta=1e-12)
            self.assertAlmostEqual(q, expected.q[i], delta=1e-12)
            self.assertEqual(bool(significant), bool(expected.significant[i]))
        reduced = self.get_output(widget.Outputs.significant_data)
        self.assertEqual([a.name for a in reduced.domain.attributes],
                         [n for n, s in zip(names, expected.significant)
                          if s])
        self.assertEqual(reduced.domain.class_var, self.heart.domain.class_var)
        scorer = self.get_output(widget.Outputs.significance)
        self.assertEqual(scorer.name, "\u2212log\u2081\u2080q")
        self.assertIn(f"{int(expected.significant.sum())} significant",
                      widget.plot_info.text())
        lines = [item for item in widget.plot.getPlotItem().items
                 if isinstance(item, pg.InfiniteLine)]
        self.assertEqual(len(lines), 1)  # the cutoff
        widget.test_significance = False
        widget.commit.now()
        self.wait_until_finished()
        self.assertIsNone(self.get_output(widget.Outputs.significant_data))
        self.assertIsNone(self.get_output(widget.Outputs.significance))

    def test_r_compatible_stir(self):
        """The check box reaches STIR (R's pairs: the p-values of
        Significance with r_compatible), the report says so, and it is
        enabled only where STIR is the test."""
        from orangecontrib.relief import ReliefF, Significance
        widget = self.widget
        widget.method = "ReliefF"
        widget.test_significance = True
        widget.controls.r_compatible.setChecked(True)
        zoo = Table("zoo")
        self.send_and_wait(zoo)
        expected = Significance(ReliefF(), r_compatible=True).result(zoo)
        table = self.get_output(widget.Outputs.weights)
        p = dict(zip(table.get_column("attribute"), table.get_column("p")))
        for attribute, value in zip(zoo.domain.attributes, expected.p):
            self.assertAlmostEqual(p[attribute.name], value, delta=1e-12)
        self.assertTrue(widget.controls.r_compatible.isEnabled())
        widget.send_report()
        self.assertIn("as the authors' R package", widget.r_compatible_label())
        widget.test_index = owrelief.TESTS.index("permutation")
        widget._update_controls()
        self.assertFalse(widget.controls.r_compatible.isEnabled())

    def test_stir_of_the_swrf_family(self):
        """STIR tests the SWRF family by the chosen convention: the p-values
        are Significance's, the weights the scorer's; R's pairs, which
        have no weighted neighbours, are off there and say why, and the
        paper's pairs are tested."""
        from orangecontrib.relief import Significance
        widget = self.widget
        widget.test_significance = True
        box = widget.controls.r_compatible
        box.setChecked(True)
        self.send_and_wait(self.heart)
        choose(widget.method_combo, "MultiSWRF*")
        choose(widget.convention_combo, "scikit-rebate")
        self.wait_until_finished()
        stir = owrelief.TESTS.index("stir")
        self.assertTrue(widget.test_combo.model().item(stir).isEnabled())
        self.assertEqual(widget.test_index, stir)
        scorer = MultiSWRFstar(convention="scikit-rebate")
        expected = Significance(scorer).result(self.heart)
        table = self.get_output(widget.Outputs.weights)
        p = dict(zip(table.get_column("attribute"), table.get_column("p")))
        for attribute, value in zip(self.heart.domain.attributes, expected.p):
            self.assertAlmostEqual(p[attribute.name], value, delta=1e-12)
        self.assert_weights(scorer, self.heart)
        self.assertFalse(widget.Warning.no_stir.is_shown()
                         or widget.Warning.no_test.is_shown())
        self.assertFalse(box.isEnabled())
        self.assertIn("no weighted neighbours", box.toolTip())
        self.assertEqual(widget.r_compatible_label(), "")
        widget.send_report()
        choose(widget.method_combo, "MultiSURF")
        self.wait_until_finished()
        self.assertTrue(box.isEnabled())
        self.assertIn("to match a published R analysis", box.toolTip())

    def test_the_text_under_the_plot_says_where_the_significant_are(self):
        """The dashed line is drawn only between significant and other bars,
        and the text under the plot mentions it only then."""
        widget = self.widget
        widget.test_significance = True

        def cutoff_lines():
            return [item for item in widget.plot.getPlotItem().items
                    if isinstance(item, pg.InfiniteLine)]

        self.send_and_wait(Table("iris"))  # all four are significant
        self.assertEqual(cutoff_lines(), [])
        self.assertIn("4 significant", widget.plot_info.text())
        self.assertNotIn("dashed line", widget.plot_info.text())

        domain = Domain([ContinuousVariable(f"x{i}") for i in range(5)],
                        self.heart.domain.class_var)
        rng = np.random.default_rng(1)  # no attribute significant
        noise = Table.from_numpy(domain, rng.random((60, 5)),
                                 rng.integers(0, 2, 60))
        self.send_and_wait(noise)
        self.assertEqual(cutoff_lines(), [])
        self.assertIn("No attribute is significant", widget.plot_info.text())
        self.assertNotIn("dashed line", widget.plot_info.text())

        self.send_and_wait(self.heart)  # some, not all, are significant
        self.assertEqual(len(cutoff_lines()), 1)
        self.assertIn("above the dashed line", widget.plot_info.text())

    def test_degenerate_evidence_gets_no_verdict(self):
        widget = self.widget
        widget.test_significance = True
        warning = widget.Warning.no_verdict
        for case, cause in CASES.items():
            data, without = degenerate_table(case)
            self.send_and_wait(data)
            self.assertTrue(warning.is_shown(), case)
            self.assertIn(cause, warning.formatted)
            table = self.get_output(widget.Outputs.weights)
            p = dict(zip(table.get_column("attribute"), table.get_column("p")))
            self.assertEqual(sorted(name for name, value in p.items()
                                    if np.isnan(value)),
                             [f"a{i}" for i in without])
            reduced = self.get_output(widget.Outputs.significant_data)
            self.assertFalse({a.name for a in reduced.domain.attributes}
                             & {f"a{i}" for i in without})
        self.send_and_wait(self.heart)
        self.assertFalse(warning.is_shown())

    def test_stir_where_it_cannot_run_warns(self):
        widget = self.widget
        widget.test_significance = True
        self.send_and_wait(Table(path("cpu")))  # RReliefF, numeric class
        self.assertTrue(widget.Warning.no_stir.is_shown())
        self.assertIsNone(self.get_output(widget.Outputs.significant_data))
        widget.test_index = 1  # permutations
        widget.n_permutations = 9
        widget.commit.now()
        self.wait_until_finished()
        self.assertFalse(widget.Warning.no_stir.is_shown())
        table = self.get_output(widget.Outputs.weights)
        self.assertTrue((table.get_column("p") >= 0.1).all())

    def test_too_few_permutations_to_be_significant_warn(self):
        widget = self.widget
        widget.test_significance = True
        widget.test_index = 1  # permutations
        widget.n_permutations = 9
        self.send_and_wait(self.heart)  # 13 attributes, Benjamini-Hochberg
        warning = widget.Warning.few_permutations
        self.assertTrue(warning.is_shown())
        self.assertIn("at least 19", warning.formatted)
        widget.n_permutations = 19
        widget.commit.now()
        self.wait_until_finished()
        self.assertFalse(warning.is_shown())
        widget.adjustment_index = 2  # Bonferroni: 13 / (1 + 19) > 0.05
        widget.commit.now()
        self.wait_until_finished()
        self.assertIn("at least 259", warning.formatted)

    def test_stir_on_unequal_classes_warns(self):
        widget = self.widget
        widget.test_significance = True
        heart = self.heart
        classes = heart.get_column(heart.domain.class_var)
        rows = np.r_[np.flatnonzero(classes == 0),
                     np.flatnonzero(classes == 1)[:30]]
        self.send_and_wait(heart[rows])  # 165 and 30
        warning = widget.Warning.stir_unequal
        self.assertTrue(warning.is_shown())
        self.assertIn("5.5 times the smallest", warning.formatted)
        widget.test_index = 1  # permutations
        widget.n_permutations = 19
        widget.commit.now()
        self.wait_until_finished()
        self.assertFalse(warning.is_shown())
        widget.test_index = 0
        self.send_and_wait(heart)  # 165 and 138
        self.assertFalse(warning.is_shown())

    def test_no_class_is_an_error_and_no_stir_warning(self):
        widget = self.widget
        widget.test_significance = True
        heart = self.heart
        self.send_and_wait(heart.transform(Domain(heart.domain.attributes)))
        self.assertTrue(widget.Error.no_class.is_shown())
        self.assertFalse(widget.Warning.no_stir.is_shown())

    def test_a_variant_replaced_for_other_data_comes_back(self):
        widget = self.widget
        cpu = Table(path("cpu"))
        widget.method = "DReliefF"
        self.send_and_wait(cpu)  # numeric class: DReliefF does not fit
        self.assertEqual(widget.method, "RReliefF")
        self.send_and_wait(self.heart)
        self.assertEqual(widget.method, "DReliefF")
        self.send_and_wait(cpu)
        widget.method = "MultiSURF"  # chosen meanwhile: it stays
        self.send_and_wait(self.heart)
        self.assertEqual(widget.method, "MultiSURF")


class TestClassValuesPresent(base.WidgetTest):
    """Which variants fit depends on the class values present, not on
    those the class declares: Relief runs on two classes of three."""

    def test_relief_on_two_classes_present_of_three(self):
        widget = self.create_widget(OWRelief,
                                    stored_settings={"method": "Relief"})
        two = Table("iris")[50:]  # the class still declares three values
        self.send_signal(widget.Inputs.data, two, widget=widget)
        self.wait_until_finished(widget=widget)
        self.assertEqual(widget.method, "Relief")
        self.assertTrue(widget.method_combo.item_of("Relief").isEnabled())
        weights = self.get_output(widget.Outputs.weights, widget=widget)
        self.assertEqual(
            dict(zip(weights.get_column("attribute"),
                     weights.get_column("weight"))),
            {attr.name: weight for attr, weight
             in zip(two.domain.attributes, Relief()(two))})
        self.send_signal(widget.Inputs.data, Table("iris"), widget=widget)
        self.assertEqual(widget.method, "ReliefF")
        self.assertFalse(widget.method_combo.item_of("Relief").isEnabled())
