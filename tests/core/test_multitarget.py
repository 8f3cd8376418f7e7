"""Multi-target RReliefF and multi-label ReliefF: Clus's expected
importances, the literal references, each target's ranking against
RReliefF of that target, and bad input."""
import re
from pathlib import Path

import numpy as np
import pytest
from scipy.io import arff

from orangecontrib.relief.core.variants import multitarget
from orangecontrib.relief.core import relieff, rrelieff
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.multitarget import (
    relieff_multilabel, rrelieff_multitarget)
from tests.core.engines import each_engine, on_each_engine
from tests.reference import multitarget as reference

CLUS = Path(__file__).parents[1] / "data" / "clus"


def clus_arff(name, n_targets):
    """X, Y, the nominal mask and each attribute's number of values of a
    Clus ARFF file whose last n_targets columns are the targets."""
    data, meta = arff.loadarff(CLUS / name)
    columns, nominal, n_values = [], [], []
    for name in meta.names():
        kind, values = meta[name]
        if kind == "nominal":
            codes = [values.index(v.decode()) if v.decode() != "?"
                     else np.nan for v in data[name]]
            columns.append(np.array(codes, float))
            n_values.append(len(values))
        else:
            columns.append(np.asarray(data[name], float))
            n_values.append(0)
        nominal.append(kind == "nominal")
    table = np.column_stack(columns)
    return (table[:, :-n_targets], table[:, -n_targets:],
            np.array(nominal[:-n_targets]), np.array(n_values[:-n_targets]))


def clus_importances(name):
    """{ranking name: importances} of a Clus .fimpTruth file."""
    lines = (CLUS / name).read_text().splitlines()
    names = re.findall(r"\[([^\]]*)\]", lines[3])[1].split(", ")
    rows = [line.split("\t")[3].strip("[]").split(", ")
            for line in lines[5:] if line.strip()]
    values = np.array(rows, float)
    return {ranking: values[:, c] for c, ranking in enumerate(names)}


#: java.util.Random's linear congruential generator (its documentation)
JAVA_MULTIPLIER, JAVA_MASK = 0x5DEECE66D, (1 << 48) - 1


def java_permutation(n, seed):
    """Clus's order of the references: its Fisher-Yates shuffle of 0 .. n
    - 1, from the last place down, by java.util.Random(seed).nextInt, as
    Java's documentation defines the generator."""
    state = (seed ^ JAVA_MULTIPLIER) & JAVA_MASK

    def next_int(bound):
        nonlocal state
        while True:
            state = (state * JAVA_MULTIPLIER + 0xB) & JAVA_MASK
            bits = state >> 17  # next(31)
            if bound & (bound - 1) == 0:
                return (bound * bits) >> 31
            value = bits % bound
            if bits - value + bound - 1 < 2 ** 31:  # no int overflow
                return value

    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = next_int(i + 1)
        order[i], order[j] = order[j], order[i]
    return np.array(order)


@pytest.fixture
def clus_references(monkeypatch):
    """References drawn as Clus draws them, with its seed `seed`: the
    first m of its order (every instance, m = n, in any order)."""
    def use(seed):
        def references(n, m, random_state):
            return java_permutation(n, seed)[:m]
        # the estimator, which checks its options on entry, calls it so
        references.unchecked = references
        monkeypatch.setattr(multitarget, "reference_instances", references)
    return use


@pytest.mark.parametrize("m", [79, 197, 393])
@pytest.mark.parametrize("k", [1, 5, 10])
def test_clus_multi_target_importances(k, m, clus_references):
    """Clus's unit test testMTR-RealWorld (collembola, 393 instances, 47
    attributes with 3618 missing values, three targets), sigma 0.4, the
    references in Clus's order (seed 0): the overall and the per-target
    rankings, every column of its expected importances."""
    X, Y, nominal, n_values = clus_arff("testMTR-RealWorld.arff", 3)
    truth = clus_importances("testMTR-RealWorld.fimpTruth")
    clus_references(0)
    weights = rrelieff_multitarget(
        X, Y, nominal, k_nearest=k, n_iterations=m, weighting="clus",
        sigma=0.4, missing="clus", n_values=n_values, ties="lower-index")
    rankings = [weights.overall, *weights.per_target]
    for name, ranking in zip(["overall", "class_spec", "class_ind",
                              "class_fols"], rankings):
        np.testing.assert_allclose(ranking, truth[f"{name}Iter{m}Neigh{k}"],
                                   rtol=0, atol=1e-10, err_msg=name)


def test_clus_every_instance_in_any_order():
    """Every instance a reference (n_iterations None): Clus's 393
    columns, whatever order Clus drew them in."""
    X, Y, nominal, n_values = clus_arff("testMTR-RealWorld.arff", 3)
    truth = clus_importances("testMTR-RealWorld.fimpTruth")
    weights = rrelieff_multitarget(
        X, Y, nominal, k_nearest=5, weighting="clus", sigma=0.4,
        missing="clus", n_values=n_values, ties="lower-index")
    np.testing.assert_allclose(weights.overall, truth["overallIter393Neigh5"],
                               rtol=0, atol=1e-10)


@pytest.mark.parametrize("m", [5, 13])
@pytest.mark.parametrize("k", [1, 3])
def test_clus_multi_label_hamming_importances(k, m, clus_references):
    """Clus's unit test testMLCHammingLoss (13 instances, four labels),
    sigma 0.5, the references in Clus's order (seed 1234): the
    Hamming-loss ranking and each label's ReliefF."""
    X, Y, nominal, _ = clus_arff("testMLC.arff", 4)
    truth = clus_importances("testMLCHammingLoss.fimpTruth")
    clus_references(1234)
    weights = relieff_multilabel(X, Y, nominal, k_nearest=k, n_iterations=m,
                                 weighting="clus", sigma=0.5,
                                 missing="clus", ties="lower-index")
    np.testing.assert_allclose(weights.overall,
                               truth[f"overallIter{m}Neigh{k}"], atol=1e-10)
    for s, ranking in enumerate(weights.per_target):
        np.testing.assert_allclose(ranking, truth[f"tar{s + 1}Iter{m}Neigh{k}"],
                                   atol=1e-10, err_msg=f"label {s + 1}")


def small_data(seed, n=24, a=4, t=3, missing=True):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[:, 0] = rng.integers(0, 3, n)
    if missing:
        X[rng.random((n, a)) < 0.1] = np.nan
    return X, rng.random((n, t)), np.arange(a) == 0


@each_engine
@pytest.mark.parametrize("options", [
    dict(k_nearest=5), dict(k_nearest=3, weighting="equal"),
    dict(k_nearest=4, weighting="clus", sigma=0.4),
    dict(k_nearest=6, n_iterations=10, random_state=3, ties="lower-index")])
def test_multi_target_against_reference(options, engine):
    X, Y, nominal = small_data(1)
    Y[2, 1] = np.nan  # a row left out
    with forced(engine):
        ours = rrelieff_multitarget(X, Y, nominal, **options)
    overall, per_target = reference.rrelieff_multitarget(X, Y, nominal,
                                                         **options)
    np.testing.assert_allclose(ours.overall, overall, atol=1e-12)
    np.testing.assert_allclose(ours.per_target, per_target, atol=1e-12)


@pytest.mark.parametrize("distance", ["hamming", "accuracy", "f1",
                                      "subset"])
def test_multi_label_against_reference(distance):
    X, _, nominal = small_data(2)
    Y = (np.random.default_rng(5).random((len(X), 4)) < 0.4) * 1.0
    ours = relieff_multilabel(X, Y, nominal, k_nearest=4, distance=distance)
    overall, per_label = reference.relieff_multilabel(
        X, Y, nominal, k_nearest=4, distance=distance)
    np.testing.assert_allclose(ours.overall, overall, atol=1e-12)
    np.testing.assert_allclose(ours.per_target, per_label, atol=1e-12)


@each_engine
def test_each_ranking_is_the_single_target_method(engine):
    """The per-target rankings come from the overall search and the rule
    adds each target's terms as RReliefF (ReliefF, for a label) adds
    them: RReliefF of each target alone, ReliefF of each label alone
    (equal influences), to the bit."""
    X, Y, nominal = small_data(3, n=40)
    labels = (Y > 0.5) * 1.0
    with forced(engine):
        targets = rrelieff_multitarget(X, Y, nominal, k_nearest=7)
        multilabel = relieff_multilabel(X, labels, nominal, k_nearest=4)
        for s in range(Y.shape[1]):
            assert np.array_equal(targets.per_target[s],
                                  rrelieff(X, Y[:, s], nominal, k_nearest=7))
            assert np.array_equal(multilabel.per_target[s],
                                  relieff(X, labels[:, s], nominal,
                                          k_nearest=4))
        # the overall ranking alone: the same weights, no label's
        overall = relieff_multilabel(X, labels, nominal, k_nearest=4,
                                     per_label=False)
        assert np.array_equal(overall.overall, multilabel.overall)
        assert overall.per_target.shape == (0, X.shape[1])


def test_both_engines_give_the_same_weights():
    """The engines' searches give equal lists, and the rule is one: the
    same weights to the bit, with tied distances (a nominal attribute
    alone) and missing values."""
    X, Y, nominal = small_data(6, n=50)
    X[:, 1:3] = np.round(X[:, 1:3], 1)
    labels = (Y > 0.5) * 1.0
    results = on_each_engine(lambda: (
        rrelieff_multitarget(X, Y, nominal, k_nearest=6),
        relieff_multilabel(X, labels, nominal, k_nearest=4,
                           weighting="exp_rank")))
    compiled, vectorised = results.values()
    for ours, theirs in zip(compiled, vectorised):
        assert np.array_equal(ours.overall, theirs.overall)
        assert np.array_equal(ours.per_target, theirs.per_target)


def test_progress_does_not_change_the_weights():
    """Lists computed in smaller parts (as with a progress callback) give
    the same sums: they are added block by block."""
    X, Y, nominal = small_data(7, n=300)
    seen = []
    quiet = rrelieff_multitarget(X, Y, nominal, k_nearest=5)
    told = rrelieff_multitarget(X, Y, nominal, k_nearest=5,
                                progress_callback=seen.append)
    assert seen and seen[-1] == 1
    assert np.array_equal(quiet.overall, told.overall)
    assert np.array_equal(quiet.per_target, told.per_target)


def test_row_order_does_not_matter():
    X, Y, nominal = small_data(4, n=30)
    order = np.random.default_rng(0).permutation(len(X))
    first = rrelieff_multitarget(X, Y, nominal, k_nearest=5)
    again = rrelieff_multitarget(X[order], Y[order], nominal, k_nearest=5)
    np.testing.assert_allclose(first.overall, again.overall, atol=1e-12)


@pytest.mark.parametrize("call, Y, message", [
    (rrelieff_multitarget, np.c_[np.arange(6.0), np.ones(6)],
     "Target b has a single value"),
    (rrelieff_multitarget, np.arange(6.0), "needs a 2-D target"),
    (rrelieff_multitarget, np.c_[np.arange(6.0), [0, 1, 2, 3, np.inf, 5]],
     "infinite"),
    (relieff_multilabel, np.c_[[0, 1, 0, 1, 0, 1], [0, 1, 2, 0, 1, 0]],
     "Label b holds 2; a label is 0 or 1"),
    (relieff_multilabel, np.c_[[0, 1, 0, 1, 0, 1], np.zeros(6)],
     "Target b has a single value"),
])
def test_bad_targets(call, Y, message):
    X = np.random.default_rng(0).random((6, 3))
    with pytest.raises(ReliefInputError, match=message) as error:
        call(X, Y, target_names=["a", "b"])
    assert "\n" not in str(error.value)


def test_bad_options():
    X, Y, _ = small_data(0, missing=False)
    with pytest.raises(ReliefInputError, match="missing"):
        rrelieff_multitarget(X, Y, missing="weka")
    with pytest.raises(ReliefInputError, match="distance"):
        relieff_multilabel(X, (Y > 0.5) * 1.0, distance="jaccard")
    rescore = rrelieff_multitarget(X, Y, rescorer=True)
    for other in (Y[:-1], np.where(np.arange(len(Y))[:, None] == 3, np.nan,
                                   Y)):
        with pytest.raises(ReliefInputError, match="rescores targets of "
                                                   "the shape it was given"):
            rescore(other)
