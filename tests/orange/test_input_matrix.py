"""Every Orange-layer entry point against families of bad or extreme tables.

Each case ends in a ValueError (ReliefInputError is one) whose message is a
sentence, or in finite weights (a selection, a model) of the right size;
the table is never modified.  A scorer's weights are those of its variant
in the core (:mod:`orangecontrib.relief.core.registry`) on the table's
arrays, read off directly, and it refuses what the core refuses.  Each
table draws its values from a seed of its own name.
"""
import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain, Table,
                         Variable)
from Orange.modelling import KNNLearner, TreeLearner
from Orange.preprocess.fss import SelectBestFeatures
from Orange.preprocess.score import Scorer

from orangecontrib.relief import (NPDR, CDRelief, ClassDependentKNNLearner,
                                  Consensus, IWCDRelief, RankScorer, ReliefF,
                                  SelectReliefFeatures, Significance, TuRF,
                                  generators)
from orangecontrib.relief.curve import selection_curve
from orangecontrib.relief.stability import ranking_stability
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.selection import MEASURES, SEARCHES, select
from orangecontrib.relief.variants import SCORERS
from tests.variants import each_variant, rng_of

N, A = 30, 4
ATTRIBUTES = [ContinuousVariable(f"a{i}") for i in range(A)]
BINARY = DiscreteVariable("c", values=["x", "y"])
THREE = DiscreteVariable("c", values=["x", "y", "z"])
NUMERIC = ContinuousVariable("t")


def table(rng, X=None, y=None, class_vars=(BINARY,), attributes=ATTRIBUTES):
    X = rng.random((N, len(attributes))) if X is None else X
    y = (np.arange(len(X)) % 2).astype(float) if y is None else y
    return Table.from_numpy(Domain(attributes, class_vars), X, y)


def with_inf(X):
    X[0, 1] = np.inf
    return X


#: name -> the table of a case, made from a generator seeded by its name
TABLES = {
    "ordinary": lambda rng: table(rng),
    "three classes": lambda rng: table(
        rng, y=(np.arange(N) % 3).astype(float), class_vars=(THREE,)),
    "numeric target": lambda rng: table(rng, y=rng.random(N),
                                        class_vars=(NUMERIC,)),
    "no class": lambda rng: table(rng, y=np.empty((N, 0)), class_vars=()),
    "two targets": lambda rng: table(
        rng, y=np.c_[np.arange(N) % 2, rng.random(N)],
        class_vars=(BINARY, NUMERIC)),
    "0 rows": lambda rng: table(rng, X=np.empty((0, A)), y=np.empty(0)),
    "0 attributes": lambda rng: table(rng, X=np.empty((N, 0)),
                                      attributes=[]),
    "one class": lambda rng: table(rng, y=np.zeros(N)),
    "all classes missing": lambda rng: table(rng, y=np.full(N, np.nan)),
    "some classes missing": lambda rng: table(
        rng, y=np.where(np.arange(N) % 7 == 0, np.nan, np.arange(N) % 2)),
    "inf cell": lambda rng: table(rng, X=with_inf(rng.random((N, A)))),
    "every cell missing": lambda rng: table(rng,
                                            X=np.full((N, A), np.nan)),
    "sparse": lambda rng: table(rng).to_sparse(),
    "all rows equal": lambda rng: table(rng, X=np.ones((N, A))),
}


def tables():
    return {name: make(rng_of(name)) for name, make in TABLES.items()}


def check(call, data, length):
    """The outcome of `call()`: 'error' or its values (`length` numbers
    in the last axis)."""
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
    return values


def core_outcome(variant, scorer, data):
    """What the scorer must give on `data`: "error" (no single class of
    its type), the core's error, or the core's weights of the table's
    rows with a known class."""
    class_var = data.domain.class_var
    if not isinstance(class_var, scorer.class_type):
        return "error"
    X = data.X.toarray() if sp.issparse(data.X) else data.X
    known = ~np.isnan(data.Y)
    discrete = np.array([a.is_discrete for a in data.domain.attributes])
    try:
        return variant.weights(
            X[known], data.Y[known], discrete,
            task="classification" if class_var.is_discrete else "regression")
    except ReliefInputError:
        return "error"


@each_variant
def test_scorers(variant):
    """Each variant's scorer on every table: the core's weights or its
    error."""
    scorer = SCORERS[variant.name]()
    wrong = []
    for case, data in tables().items():
        expected = core_outcome(variant, scorer, data)
        got = check(lambda: scorer(data), data, len(data.domain.attributes))
        if isinstance(got, str) or isinstance(expected, str):
            if not (isinstance(got, str) and isinstance(expected, str)):
                wrong.append(f"{case}: {got}, expected {expected}")
        elif not np.array_equal(got, expected):
            wrong.append(f"{case}: {got}, the core's {expected}")
    assert not wrong, "\n".join(wrong)


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
    dict(n_irrelevant=-1), dict(seed=-1), dict(n_classes=1), dict(p=1),
    # unbounded sizes: refused before anything is drawn
    dict(n_instances=10 ** 12), dict(n_relevant=10 ** 9), dict(p=10 ** 7),
    dict(n_classes=10 ** 8), dict(n_bits=10 ** 9), dict(n_centroids=10 ** 11),
    dict(correlation="high")])
def test_generators(generator, options):
    make = generators.GENERATORS[generator]
    try:
        data = make(**options)
    except ValueError as error:
        assert len(str(error)) > 20, error
    else:
        assert len(data) > 0 and data.domain.class_var is not None


class Answer(Scorer):
    """A scorer that answers ``answer(number of attributes)``."""
    feature_type = Variable
    class_type = Variable

    def __init__(self, answer):
        self.answer = answer

    def __call__(self, data, feature=None):
        return self.answer(len(data.domain.attributes))


#: the entry points that take a scorer: name -> call(scorer, data)
TAKE_A_SCORER = {
    "SelectReliefFeatures": lambda scorer, data: SelectReliefFeatures(
        scorer, k=2)(data),
    "selection curve": lambda scorer, data: selection_curve(
        data, KNNLearner(), scorer, n_folds=2),
    "stability": lambda scorer, data: ranking_stability(data, scorer,
                                                        n_resamples=2),
    "Consensus": lambda scorer, data: Consensus([ReliefF(), scorer])(data),
    "TuRF": lambda scorer, data: TuRF(scorer)(data),
    "Significance": lambda scorer, data: Significance(
        scorer, test="permutation", n_permutations=3)(data),
    "Rank": lambda scorer, data: RankScorer(scorer).score_data(data),
}
#: what is not a scorer, or answers what no scorer may: the error it gets
NOT_SCORERS = {
    "a name": ("ReliefF", "takes an Orange scorer, such as ReliefF()"),
    "a class": (ReliefF, "takes an Orange scorer"),
    "one score short": (Answer(lambda a: np.zeros(a - 1)),
                        "(3 scores|shape \\(3,\\)|scores? for 4 attributes)"),
    "complex scores": (Answer(lambda a: np.zeros(a) + 1j),
                       "not real numbers"),
    "words": (Answer(lambda a: np.array(["high"] * a)), "not real numbers"),
}


@pytest.mark.parametrize("entry", TAKE_A_SCORER)
@pytest.mark.parametrize("case", NOT_SCORERS)
def test_what_is_no_scorer_is_named(entry, case):
    """Every entry point that takes a scorer refuses what is not one, and
    scores that are not one real number per attribute, in words."""
    scorer, message = NOT_SCORERS[case]
    with pytest.raises(ValueError, match=message):
        TAKE_A_SCORER[entry](scorer, tables()["ordinary"])


def test_attributes_without_a_weight_sort_last():
    """NPDR gives its covariates no weight: Orange's scripted contract
    gets -inf (a NaN would sort anywhere and misplace the others), so that
    SelectBestFeatures keeps the best by the weights, in order."""
    data = tables()["ordinary"]
    weights = NPDR(covariates=["a1"]).result(data).coefficient
    assert np.isnan(weights[1])
    scores = NPDR(covariates=["a1"])(data)
    assert scores[1] == -np.inf
    np.testing.assert_array_equal(np.delete(scores, 1), np.delete(weights, 1))
    best = np.argsort(-np.nan_to_num(weights, nan=-np.inf))[:2]
    kept = SelectBestFeatures(method=NPDR(covariates=["a1"]), k=2)(data)
    assert [var.name for var in kept.domain.attributes] == [
        ATTRIBUTES[i].name for i in best]
