"""The Class-Dependent kNN widget: kNN with per-class weights from (IW)CDRelief."""
from AnyQt.QtCore import Qt

from Orange.data import Table
from Orange.preprocess.score import Scorer
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Output

from orangecontrib.relief.classdep import (
    CDRelief, ClassDependentRankScorer, IWCDRelief)
from orangecontrib.relief.classdep_knn import ClassDependentKNNLearner, METHODS
from orangecontrib.relief.core.classdep import UPDATES

#: labels of the weighting methods, in the order of `METHODS`
METHOD_LABELS = ("IWCDRelief (instance weighted)", "CDRelief",
                 "ReliefF (one vector for all classes)",
                 "None (plain kNN)")
UPDATE_LABELS = ("As printed in eq. 6", "As the text describes it")


class OWClassDependentKNN(OWBaseLearner):
    name = "Class-Dependent kNN"
    description = ("k nearest neighbours with one attribute weight vector "
                   "per class, learnt by CDRelief or IWCDRelief.")
    icon = "icons/ClassDependentKNN.svg"
    priority = 40
    keywords = ("knn, nearest neighbours, class dependent, cdrelief, "
                "iwcdrelief, relief, weighted distance")

    LEARNER = ClassDependentKNNLearner

    class Outputs(OWBaseLearner.Outputs):
        scorer = Output("Scorer", Scorer, explicit=True)

    k = Setting(5)
    method_index = Setting(0)
    threshold = Setting(0.5)
    update_index = Setting(0)
    sample_references = Setting(False)
    n_iterations = Setting(100)

    def add_main_layout(self):
        # part of __init__, pylint: disable=attribute-defined-outside-init
        box = gui.vBox(self.controlArea, "Neighbours")
        self.k_spin = gui.spin(
            box, self, "k", 1, 100, label="Neighbours (k):",
            alignment=Qt.AlignRight, controlWidth=80,
            callback=self.settings_changed)

        box = gui.vBox(self.controlArea, "Class weights")
        self.method_combo = gui.comboBox(
            box, self, "method_index", items=METHOD_LABELS,
            callback=self._on_method_changed)
        self.threshold_spin = gui.doubleSpin(
            box, self, "threshold", 0, 1, 0.05, decimals=2,
            label="Instance weight threshold:", alignment=Qt.AlignRight,
            controlWidth=80, callback=self.settings_changed)
        self.update_combo = gui.comboBox(
            box, self, "update_index", items=UPDATE_LABELS,
            label="Update (eq. 6):", orientation=Qt.Horizontal,
            callback=self.settings_changed)
        self.sample_check, self.iterations_spin = gui.spin(
            box, self, "n_iterations", 1, 100000,
            checked="sample_references",
            label="Sampled references per class:", alignment=Qt.AlignRight,
            controlWidth=80, callback=self.settings_changed,
            checkCallback=self.settings_changed)
        gui.widgetLabel(box, "Unchecked: every training instance once.")
        self._update_controls()

    def _on_method_changed(self):
        self._update_controls()
        self.settings_changed()

    def _update_controls(self):
        iwcd = METHODS[self.method_index] == "IWCDRelief"
        self.threshold_spin.setEnabled(iwcd)
        self.update_combo.setEnabled(iwcd)

    def _iterations(self):
        return self.n_iterations if self.sample_references else None

    def create_learner(self):
        return self.LEARNER(
            k=self.k, method=METHODS[self.method_index],
            threshold=self.threshold, update=UPDATES[self.update_index],
            n_iterations=self._iterations(), preprocessors=self.preprocessors)

    def create_scorer(self):
        """The class-dependent scorer of the current settings, for Rank
        (None for the ReliefF and plain kNN weightings)."""
        method = METHODS[self.method_index]
        if method == "CDRelief":
            scorer = CDRelief(k_nearest=self.k,
                              n_iterations=self._iterations())
        elif method == "IWCDRelief":
            scorer = IWCDRelief(k_nearest=self.k, threshold=self.threshold,
                                update=UPDATES[self.update_index],
                                n_iterations=self._iterations())
        else:
            return None
        return ClassDependentRankScorer(scorer)

    def update_learner(self):
        super().update_learner()
        self.Outputs.scorer.send(self.create_scorer())

    def get_learner_parameters(self):
        parameters = [("Neighbours (k)", self.k),
                      ("Class weights", METHOD_LABELS[self.method_index])]
        if METHODS[self.method_index] == "IWCDRelief":
            parameters += [("Instance weight threshold", self.threshold),
                           ("Update (eq. 6)", UPDATE_LABELS[self.update_index])]
        parameters.append(("References", (
            f"{self.n_iterations} sampled per class" if self.sample_references
            else "every training instance")))
        return parameters


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWClassDependentKNN).run(Table("heart_disease"))
