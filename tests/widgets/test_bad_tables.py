"""The widgets fed bad or extreme tables (those of the Orange layer's input
matrix, and more that only a widget meets: one row, a column without
values, class values declared that no instance has, text only, huge
numbers): each gives a result or shows an error message, and never fails
(an exception in a widget fails the test); a result is computed with the
method the widget shows.

The Generator and the Separability widget take no input; their matrix is
that of the stored settings (test_stored_settings.py)."""
import numpy as np
from Orange.classification import KNNLearner
from Orange.data import Domain, StringVariable, Table
from Orange.widgets.tests import base

from orangecontrib.relief import SURF, MultiSURF
from orangecontrib.relief.widgets.owclassdepknn import OWClassDependentKNN
from orangecontrib.relief.widgets.owconsensus import OWConsensus
from orangecontrib.relief.widgets.owinteractions import OWInteractions
from orangecontrib.relief.widgets.owrelief import OWRelief
from orangecontrib.relief.widgets.owrfsm import OWRFSM
from orangecontrib.relief.widgets.owselectioncurve import OWSelectionCurve
from orangecontrib.relief.widgets.owstepbystep import OWReliefSteps
from tests.orange.test_input_matrix import A, N, THREE, table, tables
from tests.variants import rng_of


def with_empty_column(X):
    X[:, 2] = np.nan
    return X


def text_only(rng):
    domain = Domain([], None, [StringVariable("name")])
    return Table.from_numpy(domain, np.empty((N, 0)), metas=np.array(
        [[f"n{i}"] for i in rng.integers(0, 9, N)], dtype=object))


#: name -> the table of a case no Orange-layer entry point needs
WIDGET_TABLES = {
    "one row": lambda rng: table(rng, X=rng.random((1, A)), y=np.zeros(1)),
    "two rows": lambda rng: table(rng, X=rng.random((2, A)),
                                  y=np.arange(2.0)),
    "a column without values": lambda rng: table(
        rng, X=with_empty_column(rng.random((N, A)))),
    "a declared class absent": lambda rng: table(
        rng, y=np.where(np.arange(N) % 2, 2.0, 0.0), class_vars=(THREE,)),
    "one of three classes present": lambda rng: table(
        rng, y=np.full(N, 2.0), class_vars=(THREE,)),
    "text metas only": text_only,
    "huge values": lambda rng: table(
        rng, X=rng.choice([-1e308, 1e308], (N, A)) * rng.random((N, A))),
    "tiny values": lambda rng: table(rng, X=rng.random((N, A)) * 1e-310),
}


def widget_tables():
    return tables() | {name: make(rng_of(name))
                       for name, make in WIDGET_TABLES.items()}


class TestBadTables(base.WidgetTest):
    def feed_every_table(self, widget_class, result_of, inputs=()):
        """Feed every table to a new `widget_class`; each case gives a
        result (`result_of(widget)` not None) or an error message.
        Returns (cases, errors, results): the counts pin each case's
        outcome down (a table newly refused, or newly scored, changes
        them)."""
        widget = self.create_widget(widget_class)
        for signal, value, *index in inputs:  # the widget's other inputs
            self.send_signal(getattr(widget.Inputs, signal), value, *index,
                             widget=widget)
        errors = results = 0
        for case, data in widget_tables().items():
            with self.subTest(case=case):
                self.send_signal(widget.Inputs.data, data, widget=widget)
                self.wait_until_finished(widget=widget)
                result = result_of(widget)
                shown = [str(message) for message in widget.Error.active]
                self.assertTrue(shown or result is not None, case)
                self.assertTrue(all(len(text) > 10 for text in shown),
                                shown)
                errors += result is None
                results += result is not None
        return len(widget_tables()), errors, results

    def output(self, widget, output):
        return self.get_output(output, widget=widget)

    def relief_weights(self, widget):
        weights = self.output(widget, widget.Outputs.weights)
        if weights is not None:  # computed with the method shown
            expected = widget.make_scorer()(widget.data)
            names = [a.name for a in widget.data.domain.attributes]
            self.assertEqual(
                dict(zip(weights.get_column("attribute"),
                         weights.get_column("weight"))),
                dict(zip(names, expected)))
        return weights

    def test_relief(self):
        self.assertEqual(self.feed_every_table(OWRelief, self.relief_weights),
                         (22, 9, 13))

    def test_rfsm(self):
        self.assertEqual(self.feed_every_table(
            OWRFSM, lambda w: self.output(w, w.Outputs.reduced_data)),
            (22, 9, 13))

    def test_class_dependent_knn(self):
        self.assertEqual(self.feed_every_table(
            OWClassDependentKNN, lambda w: self.output(w, w.Outputs.model)),
            (22, 11, 11))

    def test_step_by_step(self):
        def weights_after_a_step(widget):
            widget.whole_button.click()
            return self.output(widget, widget.Outputs.weights)
        self.assertEqual(
            self.feed_every_table(OWReliefSteps, weights_after_a_step),
            (22, 10, 12))

    def test_selection_curve(self):
        self.assertEqual(self.feed_every_table(
            OWSelectionCurve,
            lambda w: self.output(w, w.Outputs.selected_data),
            [("learner", KNNLearner())]),
            (22, 14, 8))

    def test_consensus(self):
        self.assertEqual(self.feed_every_table(
            OWConsensus, lambda w: self.output(w, w.Outputs.ranks),
            [("scorers", SURF(), 0), ("scorers", MultiSURF(), 1)]),
            (22, 9, 13))

    def test_interactions(self):
        self.assertEqual(self.feed_every_table(
            OWInteractions, lambda w: self.output(w, w.Outputs.pairs)),
            (22, 11, 11))
