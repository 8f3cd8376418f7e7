"""The Relief widget on wide tables: an expression table of thousands of
genes and a sparse single-cell table are weighed in the worker thread with
progress, the sparse one as its dense copy, and Rank gets the scores."""
import numpy as np
import scipy.sparse as sp
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.tests import base

from orangecontrib.relief import ReliefF
from orangecontrib.relief.widgets.owrelief import OWRelief
from tests.widgets.widget_helpers import SendAndWaitMixin


def wide_table(X, seed=0):
    """A table of the genes `X` (dense or sparse) whose class gene 3 (its
    values above its median) decides."""
    rng = np.random.default_rng(seed)
    n, a = X.shape
    column = np.asarray(X[:, 3].todense()).ravel() if sp.issparse(X) \
        else X[:, 3]
    y = (column > np.median(column)).astype(float)
    y[rng.permutation(n)[:n // 20]] = 1 - y[:n // 20]  # a little noise
    domain = Domain([ContinuousVariable(f"gene{j}") for j in range(a)],
                    DiscreteVariable("type", values=("a", "b")))
    return Table.from_numpy(domain, X, y)


class TestWideTables(SendAndWaitMixin, base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWRelief)

    def weighed_in_the_worker(self, data):
        """Send `data`; check that the widget weighs it in its worker with
        progress, and return its weights by attribute."""
        progress = []
        self.widget.progressBarValueChanged.connect(progress.append)
        self.send_signal(self.widget.Inputs.data, data)
        self.assertIsNotNone(self.widget.task)  # not on the GUI thread
        self.wait_until_finished()
        self.assertTrue(progress and max(progress) > 0)
        table = self.get_output(self.widget.Outputs.weights)
        self.assertEqual(len(table), len(data.domain.attributes))
        return dict(zip(table.get_column("attribute"),
                        table.get_column("weight")))

    def test_an_expression_table_of_thousands_of_genes(self):
        X = np.random.default_rng(1).lognormal(size=(200, 5000))
        data = wide_table(X)
        weights = self.weighed_in_the_worker(data)
        expected = ReliefF()(data)
        np.testing.assert_allclose(
            [weights[a.name] for a in data.domain.attributes], expected,
            rtol=0, atol=1e-12)
        self.assertEqual(max(weights, key=weights.get), "gene3")
        scores = self.get_output(self.widget.Outputs.scorer).score_data(data)
        np.testing.assert_array_equal(np.ravel(scores), expected)

    def test_a_sparse_single_cell_table_weighs_as_its_dense_copy(self):
        X = sp.random(300, 2000, density=0.05, format="csr",
                      dtype=np.float32, random_state=2)
        data = wide_table(X)
        self.assertTrue(sp.issparse(data.X))
        weights = self.weighed_in_the_worker(data)
        dense = ReliefF()(data.to_dense())
        np.testing.assert_allclose(
            [weights[a.name] for a in data.domain.attributes], dense,
            rtol=0, atol=1e-12)
        self.assertEqual(max(weights, key=weights.get), "gene3")
