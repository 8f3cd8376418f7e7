"""The Relief Data Generator widget: artificial problems with known relevant
attributes (Prat & Belanche 2006; CorrAL, Parity3+3)."""
from AnyQt.QtWidgets import QLabel

from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Msg, Output, OWWidget

from orangecontrib.relief.generators import (GENERATORS, PROBLEM_GROUPS,
                                            relevant_mask)
from orangecontrib.relief.widgets.common import (GroupedComboBox,
                                                 known_choices, known_flags,
                                                 within_ranges)

#: problem names of earlier versions
RENAMED = {"RDG1 (numeric)": "RDG1-numeric", "RDG1 (boolean)": "RDG1-boolean"}

#: setting name -> (label, minimum, maximum)
PARAMETERS = {
    "n_instances": ("Instances:", 1, 100000),
    "n_relevant": ("Relevant attributes:", 1, 1000),
    "n_irrelevant": ("Irrelevant attributes:", 0, 1000),
    "n_classes": ("Classes:", 2, 100),
    "max_rule_size": ("Tests per rule (at most):", 1, 100),
    "n_centroids": ("Cluster centres:", 1, 1000),
    "p": ("Modulus p:", 2, 100),
}
#: what each parameter does, in plain words
TOOLTIPS = {
    "n_instances": "How many instances (rows) to generate.",
    "n_relevant": "Attributes the class depends on (marked relevant: the "
                  "Relief widget stars them).",
    "n_irrelevant": "Random attributes the class does not depend on.",
    "n_classes": "How many classes the rules or the cluster centres "
                 "use.",
    "max_rule_size": "The most attribute tests a rule of the decision list "
                     "may have.",
    "n_centroids": "How many random centres (centroids) the instances are "
                   "drawn around.",
    "p": "The class is the remainder of the sum of the relevant values "
         "divided by this number.",
}
DESCRIPTION_WIDTH = 300


class OWReliefGenerator(OWWidget):
    name = "Relief Data Generator"
    description = ("Artificial data whose attributes are known to be "
                   "relevant or irrelevant: RDG1, RandomRBF, NonMonotonic, "
                   "MajorityN, ModuloP, XOR, CorrAL and Parity3+3.")
    icon = "icons/Generator.svg"
    priority = 20
    settings_version = 1
    keywords = "generator, artificial, synthetic, rdg1, rbf, majority, " \
               "modulo, xor, parity, corral, relevant"
    want_main_area = False
    resizing_enabled = False

    class Outputs:
        data = Output("Data", Table)

    class Error(OWWidget.Error):
        generation = Msg("{}")

    problem = Setting("MajorityN")
    n_instances = Setting(100)
    n_relevant = Setting(5)
    n_irrelevant = Setting(5)
    n_classes = Setting(2)
    max_rule_size = Setting(10)
    n_centroids = Setting(50)
    p = Setting(3)
    random_seed = Setting(0)
    auto_apply = Setting(True)

    def __init__(self):
        super().__init__()
        # the names of earlier versions: one name per problem now, the same
        # in the Separability widget and on the command line
        if isinstance(self.problem, str):  # else known_choices' default
            self.problem = RENAMED.get(self.problem, self.problem)
        known_choices(self, {"problem": GENERATORS})
        known_flags(self)
        within_ranges(self, {"random_seed": (0, 2 ** 31 - 1)}
                      | {name: (low, high)
                         for name, (_, low, high) in PARAMETERS.items()})
        self.data = None
        box = gui.vBox(self.controlArea, "Problem")
        self.problem_combo = GroupedComboBox(
            [(heading, [(name, f"{name}: {GENERATORS[name].short}",
                         GENERATORS[name].source) for name in names])
             for heading, names in PROBLEM_GROUPS],
            tooltip="The artificial problem: the text below says how its "
                    "class depends on its attributes. The same names as in "
                    "the Separability widget and on the command line; "
                    "hover over a problem for where it comes from.")
        self.problem_combo.bind(self, "problem", self._on_problem_changed)
        box.layout().addWidget(self.problem_combo)
        self.description_label = QLabel(wordWrap=True)
        self.description_label.setFixedWidth(DESCRIPTION_WIDTH)
        box.layout().addWidget(self.description_label)

        box = gui.vBox(self.controlArea, "Parameters")
        self.spins = {}
        for name, (label, low, high) in PARAMETERS.items():
            self.spins[name] = gui.spin(
                box, self, name, low, high, label=label,
                callback=self.commit.deferred, controlWidth=80,
                tooltip=TOOLTIPS[name])
        gui.spin(box, self, "random_seed", 0, 2 ** 31 - 1,
                 label="Random seed:", callback=self.commit.deferred,
                 controlWidth=80,
                 tooltip="The same seed gives the same data.")
        self.info_label = gui.widgetLabel(self.controlArea, "")
        gui.auto_apply(self.buttonsArea, self, "auto_apply")
        self._update_controls()
        self.commit.now()

    def _on_problem_changed(self):
        self._update_controls()
        self.commit.deferred()

    def _update_controls(self):
        generator = GENERATORS[self.problem]
        self.description_label.setText(generator.description)
        self.description_label.setFixedHeight(
            self.description_label.heightForWidth(DESCRIPTION_WIDTH))
        for name, spin in self.spins.items():
            spin.box.setEnabled(name in generator.parameters)

    def generate(self):
        """The table of the current problem and parameters."""
        generator = GENERATORS[self.problem]
        parameters = {name: getattr(self, name) for name in PARAMETERS}
        return generator(seed=self.random_seed, **parameters)

    @gui.deferred
    def commit(self):
        self.Error.clear()
        try:
            self.data = self.generate()
        except ValueError as error:
            self.data = None
            self.Error.generation(str(error))
        self._show_info()
        self.Outputs.data.send(self.data)

    def _show_info(self):
        if self.data is None:
            self.info_label.setText("")
            return
        relevant = relevant_mask(self.data.domain)
        classes = len(self.data.domain.class_var.values)
        self.info_label.setText(
            f"{len(self.data)} instances, {relevant.sum()} relevant and "
            f"{(~relevant).sum()} other attributes, {classes} classes.")

    def send_report(self):
        generator = GENERATORS[self.problem]
        items = [("Problem", self.problem)]
        items += [(PARAMETERS[name][0].rstrip(":"), getattr(self, name))
                  for name in generator.parameters]
        items.append(("Random seed", self.random_seed))
        self.report_items("Settings", items)
        self.report_paragraph("Description", generator.description)
        if self.data is not None:
            self.report_data("Data", self.data)


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWReliefGenerator).run()
