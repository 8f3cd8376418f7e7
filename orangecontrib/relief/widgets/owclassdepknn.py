"""The Class-Dependent kNN widget: kNN with per-class weights from (IW)CDRelief."""
from AnyQt.QtCore import Qt

from Orange.data import Table
from Orange.preprocess.score import Scorer
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.owlearnerwidget import OWBaseLearner
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Msg, Output

from orangecontrib.relief.core.variants.classdep import UPDATES
from orangecontrib.relief.core.options import K_CLASS_DEPENDENT, THRESHOLD
from orangecontrib.relief.knn import ClassDependentKNNLearner, METHODS
from orangecontrib.relief.rank import ClassDependentRankScorer
from orangecontrib.relief.scorers import CDRelief, IWCDRelief
from orangecontrib.relief.widgets.common import (
    item_tips, known_flags, shut_down_at_once, within_ranges, work_progress)

#: labels of the weighting methods, in the order of `METHODS`, and what
#: each learns (the tooltips of their entries, and the report)
METHOD_LABELS = ("IWCDRelief", "CDRelief", "ReliefF", "None (plain kNN)")
METHOD_WORDS = ("IWCDRelief (per class, near the class border)",
                "CDRelief (per class)",
                "ReliefF (one vector for all classes)",
                "None (plain kNN)")
#: labels of IWCDRelief's readings of eq. 6, in the order of `UPDATES`:
#: which class's weights a reference nearer its own class updates
UPDATE_LABELS = {"as_printed": "Its own class's weights",
                 "as_text": "The other class's weights"}


def fit_model(learner, data, state: TaskState):
    """Train `learner` on `data` in a worker thread; a cancelled fit runs
    to its end and its model is dropped."""
    with work_progress(state, "Learning the class weights ...", data.X,
                       learner.n_iterations) as progress:
        model = learner(data)
        progress(1.0)
        return model


class OWClassDependentKNN(OWBaseLearner, ConcurrentWidgetMixin):
    name = "Class-Dependent kNN"
    description = ("k nearest neighbours with one attribute weight vector "
                   "per class, learnt by CDRelief or IWCDRelief.")
    icon = "icons/ClassDependentKNN.svg"
    priority = 50
    settings_version = 1
    keywords = ("knn, nearest neighbours, class dependent, cdrelief, "
                "iwcdrelief, relief, weighted distance")

    LEARNER = ClassDependentKNNLearner

    class Outputs(OWBaseLearner.Outputs):
        scorer = Output("Scorer", Scorer, explicit=True)

    class Information(OWBaseLearner.Information):
        chosen_threshold = Msg("Cross-validation chose the border "
                               "threshold {:g}.")
        plain_won = Msg("Cross-validation chose equal weights (plain kNN): "
                        "no threshold's learnt weights did better on these "
                        "data.")

    k = Setting(K_CLASS_DEPENDENT)
    method_index = Setting(0)
    threshold = Setting(THRESHOLD)
    choose_threshold = Setting(True)
    update_index = Setting(UPDATES.index("as_text"))
    sample_references = Setting(False)
    n_iterations = Setting(100)

    def __init__(self, preprocessors=None):
        ConcurrentWidgetMixin.__init__(self)
        #: the learner of the last fit (its model says what it chose)
        self.fitted_learner = None
        known_flags(self)
        within_ranges(self, {"k": (1, 100),
                             "method_index": (0, len(METHODS) - 1),
                             "threshold": (0.0, 1.0),
                             "update_index": (0, len(UPDATES) - 1),
                             "n_iterations": (1, 100000)})
        super().__init__(preprocessors)

    def add_main_layout(self):
        # part of __init__, pylint: disable=attribute-defined-outside-init
        box = gui.vBox(self.controlArea, "Neighbours")
        self.k_spin = gui.spin(
            box, self, "k", 1, 100, label="Neighbours (k):",
            alignment=Qt.AlignRight, controlWidth=80,
            callback=self.settings_changed,
            tooltip="How many nearest training instances vote for the "
                    "class; also the neighbours with which the weights are "
                    "learnt.")

        box = gui.vBox(self.controlArea, "Class weights")
        self.method_combo = gui.comboBox(
            box, self, "method_index", items=METHOD_LABELS,
            callback=self._on_method_changed,
            tooltip="How the attribute weights are learnt: CDRelief "
                    "(Marchiori 2013) learns one weight vector per class; "
                    "IWCDRelief (Qiu & He 2019) too, from the instances "
                    "near the border between the classes only; ReliefF "
                    "learns one vector for all classes; None uses equal "
                    "weights.")
        item_tips(self.method_combo, METHOD_WORDS)
        gui.checkBox(box, self, "choose_threshold",
                     "Choose the threshold by cross-validation",
                     callback=self._on_method_changed,
                     tooltip="Pick IWCDRelief's border threshold (0.1 .. "
                             "0.9) by a 5-fold cross-validation on the "
                             "training data; equal weights compete too and "
                             "win when the learnt ones do not help.")
        #: what the cross-validation chose, in place of the threshold
        self.chosen_label = gui.widgetLabel(box, "")
        self.threshold_spin = gui.doubleSpin(
            box, self, "threshold", 0, 1, 0.05, decimals=2,
            label="Border threshold:", alignment=Qt.AlignRight,
            controlWidth=80, callback=self.settings_changed,
            tooltip="IWCDRelief learns only from the instances near the "
                    "border between the classes: those whose mean "
                    "distances to their hits and to their misses, the "
                    "smaller divided by the larger, exceed this (0: all "
                    "instances; the instance weight of Qiu & He 2019, "
                    "eq. 5).")
        self.update_combo = gui.comboBox(
            box, self, "update_index",
            items=[UPDATE_LABELS[u] for u in UPDATES],
            label="A reference nearer its own class updates:",
            callback=self.settings_changed,
            tooltip="Which class's weights IWCDRelief's update goes to when "
                    "the reference is nearer its own class than the other "
                    "(the other way round when it is nearer the other). "
                    "The other class's (default) reproduces the paper's "
                    "results and follows its text; its own class's is the "
                    "formula as printed (Qiu & He 2019, eq. 6; see the "
                    "help).")
        self.sample_check, self.iterations_spin = gui.spin(
            box, self, "n_iterations", 1, 100000,
            checked="sample_references",
            label="A random sample per class:", alignment=Qt.AlignRight,
            controlWidth=80, callback=self.settings_changed,
            checkCallback=self.settings_changed,
            tooltip="How many reference instances of each class the "
                    "weights are learnt from, drawn at random.")
        self.sample_check.setToolTip(
            "Checked: learn from sampled references. Unchecked: every "
            "training instance once.")
        gui.widgetLabel(box, "Unchecked: every training instance once.")
        self._update_controls()

    def _on_method_changed(self):
        self._update_controls()
        self.settings_changed()

    def _update_controls(self):
        """Enable the controls of the chosen weighting; where the
        cross-validation chooses the threshold, say what it chose in place
        of the threshold's control."""
        iwcd = METHODS[self.method_index] == "IWCDRelief"
        self.controls.choose_threshold.setEnabled(iwcd)
        self.threshold_spin.setEnabled(iwcd and not self.choose_threshold)
        self.update_combo.setEnabled(iwcd)
        choosing = iwcd and self.choose_threshold
        self.threshold_spin.box.setVisible(not choosing)
        self.chosen_label.setVisible(choosing)
        self.chosen_label.setText(self._chosen_text())

    def _chosen_text(self):
        """What the cross-validation chose, in words."""
        model, learner = self.model, self.fitted_learner
        if model is not None and model.method == "none":
            return "Chosen: equal weights (plain kNN)."
        if (model is None or learner is None or learner.threshold is not None
                or model.threshold is None):  # None: a method without one
            return "Border threshold: chosen when learning."
        return f"Border threshold: {model.threshold:g}, chosen."

    def _iterations(self):
        return self.n_iterations if self.sample_references else None

    def _threshold(self):
        """The threshold for the learner: None to choose it by
        cross-validation, or for a method other than IWCDRelief."""
        iwcd = METHODS[self.method_index] == "IWCDRelief"
        return None if self.choose_threshold or not iwcd else self.threshold

    def create_learner(self):
        return self.LEARNER(
            k=self.k, method=METHODS[self.method_index],
            threshold=self._threshold(), update=UPDATES[self.update_index],
            n_iterations=self._iterations(), preprocessors=self.preprocessors)

    def create_scorer(self):
        """The class-dependent scorer of the current settings, for Rank
        (None for the ReliefF and plain kNN weightings)."""
        method = METHODS[self.method_index]
        if method == "CDRelief":
            scorer = CDRelief(k_nearest=self.k,
                              n_iterations=self._iterations())
        elif method == "IWCDRelief":
            # the threshold the model chose, once there is one
            threshold = getattr(self.model, "threshold", None)
            if threshold is None or not self.choose_threshold:
                threshold = self.threshold
            scorer = IWCDRelief(k_nearest=self.k, threshold=threshold,
                                update=UPDATES[self.update_index],
                                n_iterations=self._iterations())
        else:
            return None
        return ClassDependentRankScorer(scorer)

    def update_learner(self):
        super().update_learner()
        self.Outputs.scorer.send(self.create_scorer())

    def update_model(self):
        """Train the model in a worker thread (the search of the class
        weights takes seconds on larger data), not in the canvas's."""
        self.cancel()
        self.show_fitting_failed(None)
        self._show_choice(None)
        self.model = None
        if self.check_data():
            self.fitted_learner = self.learner
            self.start(fit_model, self.learner, self.data)
        else:
            self._send_model()

    def on_done(self, result):
        self.model = result
        self.model.name = self.effective_learner_name()
        self.model.instances = self.data
        self._show_choice(result)
        self._send_model()
        self.Outputs.scorer.send(self.create_scorer())

    def _show_choice(self, model):
        """Say what the cross-validation of `model` chose (None: clear)."""
        self._update_controls()
        learner = self.fitted_learner
        chose = (model is not None and learner.threshold is None
                 and learner.method == "IWCDRelief")
        self.Information.plain_won(
            shown=chose and model.method == "none")
        self.Information.chosen_threshold(
            getattr(model, "threshold", None),
            shown=chose and model.method != "none")

    def on_exception(self, ex):
        self.show_fitting_failed(ex)
        self._send_model()

    def on_partial_result(self, result):
        pass

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()

    def get_learner_parameters(self):
        parameters = [("Neighbours (k)", self.k),
                      ("Class weights", METHOD_WORDS[self.method_index])]
        if METHODS[self.method_index] == "IWCDRelief":
            parameters += [
                ("Border threshold",
                 self._threshold_report() if self.choose_threshold
                 else self.threshold),
                ("Nearer its class, a reference updates",
                 UPDATE_LABELS[UPDATES[self.update_index]].lower())]
        parameters.append(("References", (
            f"{self.n_iterations} sampled per class" if self.sample_references
            else "every training instance")))
        return parameters

    def _threshold_report(self):
        """The report of the threshold chosen by cross-validation."""
        model = self.model
        if model is None or self.fitted_learner.threshold is not None:
            return "chosen by cross-validation"
        if model.method == "none":
            return "chosen by cross-validation: equal weights (plain kNN)"
        return f"chosen by cross-validation: {model.threshold:g}"


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWClassDependentKNN).run(Table("heart_disease"))
