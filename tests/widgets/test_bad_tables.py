"""The widgets fed bad or extreme tables (those of the Orange layer's input
matrix): each shows a result or a message, and never fails (an exception
in a widget fails the test)."""
from Orange.widgets.tests import base

from orangecontrib.relief.widgets.owclassdepknn import OWClassDependentKNN
from orangecontrib.relief.widgets.owconsensus import OWConsensus
from orangecontrib.relief.widgets.owrelief import OWRelief
from orangecontrib.relief.widgets.owrfsm import OWRFSM
from orangecontrib.relief.widgets.owselectioncurve import OWSelectionCurve
from tests.orange.test_input_matrix import tables

TIMEOUT_MS = 60000


class TestBadTables(base.WidgetTest):
    def feed_every_table(self, widget_class):
        widget = self.create_widget(widget_class)
        for case, data in tables().items():
            with self.subTest(case=case):
                self.send_signal(widget.Inputs.data, data, widget=widget)
                self.wait_until_finished(widget=widget, timeout=TIMEOUT_MS)
                shown = [message for group in (widget.Error, widget.Warning)
                         for message in group.active]
                self.assertTrue(shown or self.some_output(widget), case)

    def some_output(self, widget):
        return any(self.get_output(output, widget=widget) is not None
                   for output in vars(type(widget).Outputs).values()
                   if hasattr(output, "name"))

    def test_relief(self):
        self.feed_every_table(OWRelief)

    def test_rfsm(self):
        self.feed_every_table(OWRFSM)

    def test_class_dependent_knn(self):
        self.feed_every_table(OWClassDependentKNN)

    def test_selection_curve(self):
        self.feed_every_table(OWSelectionCurve)

    def test_consensus(self):
        self.feed_every_table(OWConsensus)
