"""The Class-Dependent kNN widget, with Orange's learner-widget test mixin
(run with QT_QPA_PLATFORM=offscreen)."""
from Orange.data import Table
from Orange.widgets.tests import base  # (the module: pytest would collect
# an imported WidgetTest class as a test case of its own)

from orangecontrib.relief.core.classdep import UPDATES
from orangecontrib.relief.datasets import path
from orangecontrib.relief.knn import METHODS
from orangecontrib.relief.rank import ClassDependentRankScorer
from orangecontrib.relief.scorers import CDRelief, IWCDRelief
from orangecontrib.relief.widgets.owclassdepknn import OWClassDependentKNN


class TestOWClassDependentKNN(base.WidgetTest, base.WidgetLearnerTestMixin):
    def setUp(self):
        self.widget = self.create_widget(
            OWClassDependentKNN, stored_settings={"auto_apply": False})
        self.init()
        self.parameters = [
            base.ParameterMapping("k", self.widget.k_spin, values=[1, 7]),
            base.ParameterMapping("method", self.widget.method_combo,
                                  values=list(METHODS)),
            base.ParameterMapping("threshold", self.widget.threshold_spin,
                                  values=[0.1, 0.9]),
            base.ParameterMapping("update", self.widget.update_combo,
                                  values=list(UPDATES)),
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

    def test_model_and_report_on_heart_disease(self):
        data = Table(path("heart_disease"))
        self.send_signal(self.widget.Inputs.data, data)
        self.click_apply()
        model = self.get_output(self.widget.Outputs.model)
        self.assertEqual(model.class_weights.shape[0], 2)
        self.assertEqual(len(model(data)), len(data))
        self.widget.send_report()
