"""The Class-Dependent kNN widget, with Orange's learner-widget test mixin
(run with QT_QPA_PLATFORM=offscreen)."""
from Orange.data import Table
from Orange.widgets.tests import base  # (the module: pytest would collect
# an imported WidgetTest class as a test case of its own)

from orangecontrib.relief.core.variants.classdep import UPDATES
from orangecontrib.relief.datasets import path
from orangecontrib.relief.knn import METHODS
from orangecontrib.relief.rank import ClassDependentRankScorer
from orangecontrib.relief.scorers import CDRelief, IWCDRelief
from orangecontrib.relief.widgets.owclassdepknn import OWClassDependentKNN


class TestOWClassDependentKNN(base.WidgetTest, base.WidgetLearnerTestMixin):
    def setUp(self):
        # the threshold set by hand (the default chooses it by
        # cross-validation: test_the_default_chooses_the_threshold)
        self.widget = self.create_widget(
            OWClassDependentKNN, stored_settings={"auto_apply": False,
                                                  "choose_threshold": False})
        self.init()
        # the threshold (IWCDRelief's, the first method) before the methods
        # that take none, with which the learner gets none
        self.parameters = [
            base.ParameterMapping("k", self.widget.k_spin, values=[1, 7]),
            base.ParameterMapping("threshold", self.widget.threshold_spin,
                                  values=[0.1, 0.9]),
            base.ParameterMapping("update", self.widget.update_combo,
                                  values=list(UPDATES)),
            base.ParameterMapping("method", self.widget.method_combo,
                                  values=list(METHODS)),
        ]

    def test_iterations(self):
        """Unchecked: every instance (None); checked: the spin's value."""
        self.click_apply()
        self.assertIsNone(self.widget.learner.n_iterations)
        self.widget.sample_check.setChecked(True)
        self.widget.iterations_spin.setValue(30)
        self.click_apply()
        learner = self.get_output(self.widget.Outputs.learner)
        self.assertEqual(learner.params["n_iterations"], 30)
        self.send_signal(self.widget.Inputs.data,
                         Table(path("heart_disease")))
        self.click_apply()
        self.assertIsNotNone(self.get_output(self.widget.Outputs.model))

    def test_scorer_output_follows_the_method(self):
        self.widget.method_combo.setCurrentIndex(1)
        self.widget.method_combo.activated.emit(1)
        self.click_apply()
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertIsInstance(scorer, ClassDependentRankScorer)
        self.assertIsInstance(scorer.scorer, CDRelief)
        self.assertFalse(self.widget.threshold_spin.isEnabled())
        self.widget.method_combo.setCurrentIndex(0)
        self.widget.method_combo.activated.emit(0)
        self.click_apply()
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertIsInstance(scorer.scorer, IWCDRelief)
        self.assertTrue(self.widget.threshold_spin.isEnabled())
        self.widget.method_combo.setCurrentIndex(3)
        self.widget.method_combo.activated.emit(3)
        self.click_apply()
        self.assertIsNone(self.get_output(self.widget.Outputs.scorer))

    def test_the_default_chooses_the_threshold(self):
        widget = self.create_widget(OWClassDependentKNN)
        self.assertTrue(widget.choose_threshold)
        self.assertEqual(UPDATES[widget.update_index], "as_text")
        self.assertFalse(widget.threshold_spin.isEnabled())
        learner = self.get_output(widget.Outputs.learner, widget=widget)
        self.assertIsNone(learner.threshold)
        self.assertEqual(learner.update, "as_text")
        data = Table(path("heart_disease"))
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.wait_until_finished(widget=widget)
        model = self.get_output(widget.Outputs.model, widget=widget)
        from orangecontrib.relief.core.analysis.weighted_knn import THRESHOLDS
        self.assertTrue(model.threshold in THRESHOLDS
                        or (model.threshold is None
                            and model.method == "none"))
        widget.controls.choose_threshold.click()
        self.assertTrue(widget.threshold_spin.isEnabled())
        self.assertEqual(self.get_output(widget.Outputs.learner,
                                         widget=widget).threshold,
                         widget.threshold)
        for control in (widget.k_spin, widget.method_combo,
                        widget.threshold_spin, widget.update_combo,
                        widget.controls.choose_threshold,
                        widget.sample_check, widget.iterations_spin):
            self.assertTrue(control.toolTip(), control)

    def test_the_widget_says_what_cross_validation_chose(self):
        widget = self.create_widget(OWClassDependentKNN)
        info = widget.Information
        for name, plain in (("heart_disease", False), ("zoo", True)):
            self.send_signal(widget.Inputs.data, Table(path(name)),
                             widget=widget)
            self.wait_until_finished(widget=widget)
            model = self.get_output(widget.Outputs.model, widget=widget)
            self.assertEqual(model.method == "none", plain, name)
            self.assertEqual(info.plain_won.is_shown(), plain)
            self.assertEqual(info.chosen_threshold.is_shown(), not plain)
            # the choice stands where the threshold's control would, which
            # would show a value not used
            self.assertFalse(widget.threshold_spin.box.isVisibleTo(widget))
            self.assertTrue(widget.chosen_label.isVisibleTo(widget))
            if not plain:
                self.assertIn(f"{model.threshold:g}",
                              info.chosen_threshold.formatted)
                self.assertIn(f"{model.threshold:g}, chosen",
                              widget.chosen_label.text())
            else:
                self.assertIn("equal weights", widget.chosen_label.text())
            report = dict(widget.get_learner_parameters())
            self.assertIn("equal weights" if plain else
                          f": {model.threshold:g}",
                          report["Border threshold"])
        widget.controls.choose_threshold.click()  # a threshold by hand
        self.wait_until_finished(widget=widget)
        self.assertTrue(widget.threshold_spin.box.isVisibleTo(widget))
        self.assertFalse(widget.chosen_label.isVisibleTo(widget))
        self.assertFalse(info.plain_won.is_shown())
        self.assertFalse(info.chosen_threshold.is_shown())
        self.send_signal(widget.Inputs.data, None, widget=widget)
        self.assertFalse(info.plain_won.is_shown())

    def test_model_and_report_on_heart_disease(self):
        data = Table(path("heart_disease"))
        self.send_signal(self.widget.Inputs.data, data)
        self.click_apply()
        model = self.get_output(self.widget.Outputs.model)
        self.assertEqual(model.class_weights.shape[0], 2)
        self.assertEqual(len(model(data)), len(data))
        self.widget.send_report()
