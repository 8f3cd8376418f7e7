"""Every core entry point against families of bad or extreme inputs.

Each case must end in one of two ways: a ReliefInputError whose message
names the problem, or a result of the right shape with no NaN where a
number is due.  The inputs are never modified.  The families: shapes,
classes, columns, values, array kinds, parameters and duplicates.
"""
import numpy as np
import pytest

from orangecontrib.relief import core
from orangecontrib.relief.core.classdep import prior_summary
from orangecontrib.relief.core.engines import forced

rng = np.random.default_rng(11)
N, A = 24, 4


def base():
    X = rng.random((N, A))
    y = np.arange(N) % 2
    return X.astype(float), y.astype(float)


def with_column(column):
    X, y = base()
    X[:, 1] = column
    return X, y


def cases():
    """name -> (X, y, discrete, regression target?)"""
    X, y = base()
    out = {
        "0 rows": (np.empty((0, A)), np.empty(0), None),
        "1 row": (X[:1], y[:1], None),
        "2 rows": (X[:2], y[:2], None),
        "0 attributes": (np.empty((N, 0)), y, None),
        "1 attribute": (X[:, :1], y, None),
        "one class": (X, np.zeros(N), None),
        "a class with one instance": (X, np.r_[np.zeros(N - 1), 1.0], None),
        "all classes missing": (X, np.full(N, np.nan), None),
        "50 classes": (np.random.default_rng(1).random((100, A)),
                       np.arange(100) % 50, None),
        "constant column": (*with_column(0.5), None),
        "all-missing column": (*with_column(np.nan), None),
        "one known value": (*with_column(np.r_[0.3, np.full(N - 1, np.nan)]),
                            None),
        "every cell missing": (np.full((N, A), np.nan), y, None),
        "inf": (*with_column(np.r_[np.inf, np.zeros(N - 1)]), None),
        "-inf": (*with_column(np.r_[-np.inf, np.zeros(N - 1)]), None),
        "1e300": (*with_column(rng.random(N) * 1e300), None),
        "range overflow": (*with_column((rng.random(N) - 0.5) * 3.4e308 / 2),
                           None),
        "1e-300": (*with_column(rng.random(N) * 1e-300), None),
        "denormals": (*with_column(rng.random(N) * 5e-324 * 1000), None),
        "float32": (X.astype(np.float32), y, None),
        "int": ((X * 10).astype(int), y.astype(int), None),
        "Fortran order": (np.asfortranarray(X), y, None),
        "strided slice": (np.random.default_rng(2).random((N, 2 * A))[:, ::2],
                          y, None),
        "strings": (X.astype(str).astype(object), y, None),
        "negative nominal codes": (np.where(X < 0.5, -1.0, 1.0), y,
                                   np.ones(A, bool)),
        "fractional nominal codes": (X, y, np.ones(A, bool)),
        "200 nominal values": (np.floor(X * 200), y, np.ones(A, bool)),
        "all rows equal": (np.ones((N, A)), y, None),
        "equal rows of different classes": (np.repeat(X[:N // 2], 2, axis=0),
                                            y, None),
        "class codes 5 and 9": (X, np.where(y > 0, 9.0, 5.0), None),
        "wrong discrete length": (X, y, np.ones(A + 1, bool)),
        "wrong target length": (X, y[:-1], None),
        "3-D X": (X[None], y, None),
    }
    return out


ESTIMATORS = {
    "relief": lambda X, y, d, **o: core.relief(X, y, d, **o),
    "relieff": lambda X, y, d, **o: core.relieff(X, y, d, **o),
    "rrelieff": lambda X, y, d, **o: core.rrelieff(X, y, d, **o),
    "drelieff": lambda X, y, d, **o: core.drelieff(X, y, d, **o),
    "pdrelieff": lambda X, y, d, **o: core.pdrelieff(X, y, d, **o),
    # the matrix has NaN rows for absent class codes: their summary has none
    "cdrelief": lambda X, y, d, **o: prior_summary(
        core.cdrelief(X, y, d, **o), y),
    "iwcdrelief": lambda X, y, d, **o: prior_summary(
        core.iwcdrelief(X, y, d, **o), y),
    "RFSM": lambda X, y, d, **o: core.greedy_forward(
        core.RFSM(X, y, d, **o)).value,
    "Consistency": lambda X, y, d, **o: core.greedy_forward(
        core.Consistency(X, y, d)).value,
}


def outcome(call, X, y, discrete, **options):
    """'error' (a named ReliefInputError) or 'result'; the inputs must stay
    as they were."""
    before = [np.array(v, copy=True) for v in (X, y)]
    try:
        result = call(X, y, discrete, **options)
    except core.ReliefInputError as error:
        assert len(str(error)) > 20, error  # a sentence, not a bare name
        kind = "error"
    else:
        values = np.asarray(result, dtype=float)
        assert not np.isnan(values).any(), values
        kind = "result"
    for old, new in zip(before, (X, y)):
        np.testing.assert_array_equal(np.asarray(old), np.asarray(new))
    return kind


@pytest.mark.parametrize("engine", ["compiled", "vectorised"])
@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize("case", cases())
def test_data_families(case, estimator, engine):
    X, y, discrete = cases()[case]
    with forced(engine):
        outcome(ESTIMATORS[estimator], X, y, discrete)


PARAMETERS = {
    "k 0": dict(k_nearest=0),
    "k -1": dict(k_nearest=-1),
    "k 2.5": dict(k_nearest=2.5),
    "k numpy int": dict(k_nearest=np.int64(3)),
    "k huge": dict(k_nearest=10 ** 9),
    "m 0": dict(n_iterations=0),
    "m -3": dict(n_iterations=-3),
    "m 1.5": dict(n_iterations=1.5),
    "m numpy int": dict(n_iterations=np.int32(7)),
    "m huge": dict(n_iterations=10 ** 13),
    "seed None": dict(n_iterations=5, random_state=None),
    "seed Generator": dict(n_iterations=5,
                           random_state=np.random.default_rng(1)),
    "seed negative": dict(n_iterations=5, random_state=-1),
    "diff unknown": dict(diff="cubic"),
    "ramp reversed": dict(diff="ramp", t_eq=0.3, t_diff=0.1),
    "ramp nan": dict(diff="ramp", t_eq=float("nan")),
}
TAKES_K = ("relieff", "rrelieff", "drelieff", "pdrelieff", "cdrelief",
           "iwcdrelief", "RFSM")


@pytest.mark.parametrize("estimator", [e for e in ESTIMATORS
                                       if e != "Consistency"])
@pytest.mark.parametrize("parameter", PARAMETERS)
def test_parameter_families(parameter, estimator):
    options = dict(PARAMETERS[parameter])
    if "k_nearest" in options and estimator not in TAKES_K:
        pytest.skip("no k")
    X, y = base()
    kind = outcome(ESTIMATORS[estimator], X, y, None, **options)
    wrong = ("0", "-1", "-3", "2.5", "1.5", "huge", "negative", "unknown",
             "reversed", "nan")
    if parameter.split()[-1] in wrong and parameter != "k huge":
        assert kind == "error"
