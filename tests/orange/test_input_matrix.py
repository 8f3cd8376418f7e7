"""Every Orange-layer entry point against families of bad or extreme tables.

Each case ends in a ValueError (ReliefInputError is one) whose message is a
sentence, or in finite weights (a selection, a model) of the right size;
the table is never modified.
"""
import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.modelling import TreeLearner

from orangecontrib.relief import (CDRelief, ClassDependentKNNLearner,
                                  DReliefF, IWCDRelief, PDReliefF, Relief,
                                  ReliefF, RFSMScorer, RReliefF, generators)
from orangecontrib.relief.selection import MEASURES, SEARCHES, select

rng = np.random.default_rng(13)
N, A = 30, 4
ATTRIBUTES = [ContinuousVariable(f"a{i}") for i in range(A)]
BINARY = DiscreteVariable("c", values=["x", "y"])
THREE = DiscreteVariable("c", values=["x", "y", "z"])
NUMERIC = ContinuousVariable("t")


def table(X=None, y=None, class_vars=(BINARY,), attributes=ATTRIBUTES):
    X = rng.random((N, len(attributes))) if X is None else X
    y = (np.arange(len(X)) % 2).astype(float) if y is None else y
    return Table.from_numpy(Domain(attributes, class_vars), X, y)


def tables():
    X = rng.random((N, A))
    inf = X.copy()
    inf[0, 1] = np.inf
    return {
        "ordinary": table(),
        "three classes": table(y=(np.arange(N) % 3).astype(float),
                               class_vars=(THREE,)),
        "numeric target": table(y=rng.random(N), class_vars=(NUMERIC,)),
        "no class": table(y=np.empty((N, 0)), class_vars=()),
        "two targets": table(y=np.c_[np.arange(N) % 2, rng.random(N)],
                             class_vars=(BINARY, NUMERIC)),
        "0 rows": table(X=np.empty((0, A)), y=np.empty(0)),
        "0 attributes": table(X=np.empty((N, 0)), attributes=[]),
        "one class": table(y=np.zeros(N)),
        "all classes missing": table(y=np.full(N, np.nan)),
        "inf cell": table(X=inf),
        "every cell missing": table(X=np.full((N, A), np.nan)),
        "sparse": table().to_sparse(),
        "all rows equal": table(X=np.ones((N, A))),
    }


SCORERS = {cls.__name__: cls for cls in (Relief, ReliefF, RReliefF, DReliefF,
                                         PDReliefF, CDRelief, IWCDRelief,
                                         RFSMScorer)}


def check(call, data, length):
    """The outcome of `call()`: 'error' or 'result' (`length` numbers)."""
    X = np.array(data.X.toarray() if sp.issparse(data.X) else data.X)
    try:
        result = call()
    except ValueError as error:
        assert len(str(error)) > 20, error
        return "error"
    finally:
        now = data.X.toarray() if sp.issparse(data.X) else data.X
        np.testing.assert_array_equal(X, now)
    values = np.asarray(result, dtype=float)
    assert values.shape[-1] == length and np.isfinite(values).all()
    return "result"


@pytest.mark.parametrize("scorer", SCORERS)
@pytest.mark.parametrize("case", tables())
def test_scorers(case, scorer):
    data = tables()[case]
    check(lambda: SCORERS[scorer]()(data), data,
          len(data.domain.attributes))


@pytest.mark.parametrize("scorer", [CDRelief, IWCDRelief])
@pytest.mark.parametrize("case", tables())
def test_class_weights(case, scorer):
    data = tables()[case]

    def weights():
        matrix = scorer().class_weights(data)
        return matrix[~np.isnan(matrix).all(axis=1)]
    check(weights, data, len(data.domain.attributes))


@pytest.mark.parametrize("case", tables())
def test_learner(case):
    data = tables()[case]

    def predictions():
        return ClassDependentKNNLearner()(data)(data)[:, None]
    check(predictions, data, 1)


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("case", ["ordinary", "no class", "two targets",
                                  "numeric target", "one class",
                                  "0 attributes", "every cell missing"])
def test_select(case, measure, search):
    data = tables()[case]

    def selected():
        result = select(data, measure, search, learner=TreeLearner(),
                        measure_options=dict(folds=2)
                        if measure == "Wrapper" else None)
        return [len(result.selected)]
    check(selected, data, 1)


@pytest.mark.parametrize("generator", generators.GENERATORS)
@pytest.mark.parametrize("options", [
    dict(n_instances=0), dict(n_instances=-4), dict(n_relevant=0),
    dict(n_irrelevant=-1), dict(seed=-1), dict(n_classes=1), dict(p=1)])
def test_generators(generator, options):
    make = generators.GENERATORS[generator]
    try:
        data = make(**options)
    except ValueError as error:
        assert len(str(error)) > 20, error
    else:
        assert len(data) > 0 and data.domain.class_var is not None
