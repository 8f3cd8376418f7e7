"""Each artificial problem has one name in the generator widget, the
Separability widget and on the command line."""
from AnyQt.QtCore import Qt
from Orange.widgets.tests import base

from orangecontrib.relief.cli import build_parser
from orangecontrib.relief.experiments import separability
from orangecontrib.relief.generators import GENERATORS
from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator
from orangecontrib.relief.widgets.owseparability import OWSeparability


class TestOneNamePerProblem(base.WidgetTest):
    def test_names_agree(self):
        generator = self.create_widget(OWReliefGenerator)
        offered = generator.problem_combo.values()
        assert sorted(offered) == sorted(GENERATORS)
        separability_widget = self.create_widget(OWSeparability)
        listed = [separability_widget.problem_list.item(i).data(Qt.UserRole)
                  for i in range(separability_widget.problem_list.count())]
        assert set(listed) == set(separability.PROBLEMS) <= set(offered)
        parser = build_parser()
        subparsers = next(a for a in parser._actions
                          if a.dest == "command").choices
        experiment = subparsers["experiment"]
        commands = next(a for a in experiment._actions
                        if getattr(a, "choices", None)
                        and "separability" in a.choices).choices
        option = next(a for a in commands["separability"]._actions
                      if a.dest == "problems")
        assert list(option.choices) == list(separability.PROBLEMS)

    def test_generated_tables_carry_the_name(self):
        for name in separability.PROBLEMS:
            widget = self.create_widget(OWReliefGenerator,
                                        stored_settings={"problem": name})
            table = self.get_output(widget.Outputs.data, widget=widget)
            assert table.name.startswith(name), (name, table.name)

    def test_old_names_open_as_the_new(self):
        widget = self.create_widget(OWReliefGenerator, stored_settings={
            "problem": "RDG1 (boolean)"})
        assert widget.problem == "RDG1-boolean"

