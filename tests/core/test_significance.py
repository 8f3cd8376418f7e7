"""Significance: STIR against explicit diff lists and scipy's t-test, the
adjustments against their textbook definitions, permutation p-values, and
the known answer on an interaction."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import ttest_ind

from orangecontrib.relief.core.variants import estimators, surf
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.generators import modulo
from orangecontrib.relief.core.engines import forced
from tests.core.engines import each_engine
from orangecontrib.relief.core.formulas.stir import StirSums
from tests.reference import relief as ref_relief
from tests.reference import stir as ref_stir
from tests.reference import surf as ref_surf


def mixed_data(seed, n=36, a=5, n_classes=2, missing=0.1):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[:, 1] = rng.integers(0, 3, n)
    X[rng.random((n, a)) < missing] = np.nan
    y = np.arange(n) % n_classes
    rng.shuffle(y)
    discrete = np.zeros(a, bool)
    discrete[1] = True
    return X, y.astype(float), discrete


def relieff_pairs(X, y, discrete, k, references=None, ties="share"):
    """The literal ReliefF neighbour pairs of the `references` (None: every
    instance): (hits, misses, counts), lists of (reference, diffs,
    weight), the weight the pair's factor in ReliefF's update, 1 / k for
    a hit, P(C) / (1 - P(class(R))) / k for a miss of class C, times its
    share of the list's places; `counts` the (hit, miss) pairs counted,
    every list's places."""
    ctx, _ = ref_relief.prepare(X, y, discrete, "linear", 0.04, 0.1, None,
                                regression=False)
    hits, misses, counts = [], [], [0, 0]
    classes = sorted(set(ctx.group))
    prior = {c: ctx.group.count(c) / ctx.n for c in classes}
    for i in range(ctx.n) if references is None else references:
        own = ctx.group[i]
        for c in classes:
            members = [j for j in range(ctx.n) if ctx.group[j] == c]
            found = ref_relief.neighbours(i, members, k, ctx, ties)
            factor = 1.0 if c == own else prior[c] / (1 - prior[own])
            target = hits if c == own else misses
            counts[c != own] += ref_relief.filled(found)
            for j, share, _ in found:
                target.append((i, [ref_relief.diff(A, i, j, ctx)
                                   for A in range(ctx.a)],
                               factor * share / ref_relief.filled(found)))
    return hits, misses, counts


def assert_literal(result, hits, misses, n_refs, variance="population",
                   counts=None):
    (score, t, p), df = ref_stir.pairs_statistic(hits, misses, n_refs,
                                                 variance, counts)
    assert result.df == df
    assert_allclose(result.t, t, rtol=1e-9, atol=1e-9)
    assert_allclose(result.p, p, rtol=1e-9, atol=1e-12)
    assert_allclose(result.score, score, atol=1e-12)


@each_engine
@pytest.mark.parametrize("method", ["multisurf", "surf", "multisurf*"])
@pytest.mark.parametrize("seed", [0, 1])
def test_stir_on_surf_pairs_is_the_literal_t_test(engine, method, seed):
    """Three classes, missing values, a nominal attribute: each miss
    weighted by its class's factor in the update."""
    X, y, discrete = mixed_data(seed, n_classes=3)
    hits, misses = ref_surf.stir_pairs(X, y, discrete, method=method)
    with forced(engine):
        result = significance.stir(X, y, discrete, neighbourhood=method)
    assert_literal(result, hits, misses, len(y))


@each_engine
@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("n_iterations", [None, 15])
@pytest.mark.parametrize("variance", ["population", "sample"])
def test_stir_on_relieff_pairs_is_the_literal_t_test(engine, k, n_iterations,
                                                     variance):
    # k = 3: values of a tenth, tied places to share (no missing value,
    # whose RELIEF-D expectation the reference sums otherwise)
    X, y, discrete = mixed_data(2, n_classes=3, missing=0.1 * (k != 3))
    references = (None if n_iterations is None else
                  estimators.reference_instances(len(y), n_iterations, 4))
    if k == 3:
        X = np.round(X, 1)
    hits, misses, counts = relieff_pairs(X, y, discrete, k, references)
    with forced(engine):
        result = significance.stir(X, y, discrete, neighbourhood="relieff",
                                   k_nearest=k, n_iterations=n_iterations,
                                   random_state=4, variance=variance)
    assert_literal(result, hits, misses, n_iterations or len(y), variance,
                   counts)


def test_the_sample_variance_is_the_textbook_t_test():
    """Two classes, ReliefF's k: every weight 1 / k, and the sample
    variance makes STIR scipy's pooled two-sample t-test of the diffs."""
    X, y, discrete = mixed_data(6, n_classes=2, missing=0.0)
    hits, misses, _ = relieff_pairs(X, y, discrete, 3)
    diffs = [np.array([d for _, d, _ in pairs]) for pairs in (hits, misses)]
    expected = ttest_ind(diffs[1], diffs[0], equal_var=True,
                         alternative="greater")
    result = significance.stir(X, y, discrete, neighbourhood="relieff",
                               k_nearest=3, variance="sample")
    assert_allclose(result.t, expected.statistic, rtol=1e-9)
    assert_allclose(result.p, expected.pvalue, rtol=1e-9, atol=1e-12)


def test_diffs_that_do_not_vary_get_no_verdict_whatever_the_means():
    # one hit and one miss for each of four references; attribute 0:
    # misses all 1, hits all 0; 1 and 2: equal constant diffs
    sums = StirSums(hit_sum=np.array([0.0, 2.0, 1.0]),
                    hit_squares=np.array([0.0, 1.0, 0.25]), n_hit=4,
                    hit_refs=4, miss_sum=np.array([4.0, 2.0, 1.0]),
                    miss_squares=np.array([4.0, 1.0, 0.25]), n_miss=4,
                    miss_refs=4, n_refs=4)
    result = significance.stir_test(sums)
    assert np.isnan(result.p).all() and np.isnan(result.t).all()
    assert result.note == significance.CONSTANT_DIFFS
    assert_array_equal(result.score, [1.0, 0.0, 0.0])


def test_stir_refuses_unknown_neighbourhoods_and_numeric_targets():
    X, y, discrete = mixed_data(0)
    with pytest.raises(ReliefInputError, match="neighbourhood"):
        significance.stir(X, y, discrete, neighbourhood="knn")
    with pytest.raises(ReliefInputError, match="numeric"):
        surf.neighbourhood_sums(X, y, discrete, task="regression", stir=True)


def literal_bh(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    q = [0.0] * m
    for rank in range(m):
        q[order[rank]] = min(min(p[order[j]] * m / (j + 1)
                                 for j in range(rank, m)), 1.0)
    return q


def literal_holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    q = [0.0] * m
    for rank in range(m):
        q[order[rank]] = min(max(p[order[j]] * (m - j)
                                 for j in range(rank + 1)), 1.0)
    return q


@pytest.mark.parametrize("n_permutations, method, expected", [
    (19, "bh", None), (9, "bh", (0.1, 19)), (19, "bonferroni", (0.65, 259))])
def test_permutation_shortfall_gives_the_least_q_and_the_permutations_needed(
        n_permutations, method, expected):
    assert significance.permutation_shortfall(
        13, n_permutations, 0.05, method) == expected


def test_class_imbalance_counts_the_classes_present():
    assert significance.class_imbalance([0, 0, 0, 1, np.nan, 2, 2]) == 3.0
    assert significance.class_imbalance([1, 0, 1, 0]) == 1.0
    assert significance.class_imbalance([np.nan, np.nan]) == 1.0


@pytest.mark.parametrize("share, said", [(0.5, False), (0.55, False),
                                         (0.6, True), (0.9, True)])
def test_stir_caveat_from_unequal_classes_on(share, said):
    y = np.r_[np.zeros(int(100 * share)), np.ones(100 - int(100 * share))]
    caveat = significance.stir_caveat(y)
    assert (caveat is not None) == said
    if said:
        assert f"{share / (1 - share):.1f} times" in caveat


def test_stir_is_liberal_on_unequal_classes_of_random_data():
    # what the caveat says: random attributes, a class of 90 % and 10 %
    rng = np.random.default_rng(0)
    X, y = rng.random((300, 50)), rng.permutation(np.r_[np.zeros(270),
                                                         np.ones(30)])
    assert significance.stir_caveat(y) is not None
    p = significance.stir(X, y, neighbourhood="relieff").p
    assert (p < 0.05).mean() > 0.5
    _, p = significance.permutation_pvalues(estimators.relieff, X, y,
                                            n_permutations=99)
    assert (p < 0.05).mean() < 0.15


def test_benjamini_hochberg_rejects_four_of_their_fifteen():
    """Benjamini & Hochberg (1995), section 4: 15 p-values, q = 0.05."""
    p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
         0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0]
    q = significance.adjust(p, "bh")
    assert significance.significant(q, 0.05).sum() == 4
    assert_allclose(q, literal_bh(p))


p_values = st.lists(st.floats(0, 1), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(p_values)
def test_adjustments_are_their_definitions(p):
    assert_allclose(significance.adjust(p, "bh"), literal_bh(p))
    assert_allclose(significance.adjust(p, "holm"), literal_holm(p))
    assert_allclose(significance.adjust(p, "bonferroni"),
                    np.minimum(np.array(p) * len(p), 1))


@settings(max_examples=60, deadline=None)
@given(p_values)
def test_adjustments_are_ordered_and_monotone(p):
    p = np.array(p)
    bh, holm = significance.adjust(p, "bh"), significance.adjust(p, "holm")
    bonferroni = significance.adjust(p, "bonferroni")
    assert (p <= bh + 1e-15).all() and (bh <= holm + 1e-15).all()
    assert (holm <= bonferroni + 1e-15).all() and (bonferroni <= 1).all()
    order = np.argsort(p, kind="stable")
    for adjusted in (bh, holm, bonferroni):
        assert (np.diff(adjusted[order]) >= -1e-15).all()


def test_missing_p_values_stay_missing_and_do_not_count():
    q = significance.adjust([0.01, np.nan, 0.04], "bonferroni")
    assert np.isnan(q[1])
    assert_allclose(q[[0, 2]], [0.02, 0.08])


def test_adjust_refuses_bad_input():
    with pytest.raises(ReliefInputError, match="adjustment"):
        significance.adjust([0.1], "fdr")
    with pytest.raises(ReliefInputError, match="between 0 and 1"):
        significance.adjust([1.5], "bh")
    with pytest.raises(ReliefInputError, match="alpha"):
        significance.significant([0.1], 2)
    for p in (0.1, np.full((2, 2), 0.1), ["a"], [[0.1], [0.2, 0.3]]):
        with pytest.raises(ReliefInputError, match="1-D array of numbers"):
            significance.adjust(p)
        with pytest.raises(ReliefInputError, match="1-D array of numbers"):
            significance.significant(p, 0.05)


def test_a_missing_adjusted_p_value_is_not_significant():
    assert_array_equal(significance.significant([0.01, None, np.nan], 0.05),
                       [True, False, False])


def test_permutation_p_values_count_the_permuted_weights():
    X, y, discrete = mixed_data(3, n=40)
    y_before, X_before = y.copy(), X.copy()
    observed, p = significance.permutation_pvalues(
        estimators.relieff, X, y, discrete, n_permutations=19,
        random_state=5, k_nearest=3)
    assert_array_equal(y, y_before)
    assert_array_equal(np.isnan(X), np.isnan(X_before))
    assert_allclose(observed, estimators.relieff(X, y, discrete, k_nearest=3))
    # the same permutations by hand
    rng = np.random.default_rng(5)
    exceed = np.zeros(X.shape[1])
    for _ in range(19):
        permuted = y[rng.permutation(len(y))]
        exceed += estimators.relieff(X, permuted, discrete,
                                     k_nearest=3) >= observed
    assert_array_equal(p, (1 + exceed) / 20)
    again = significance.permutation_pvalues(
        estimators.relieff, X, y, discrete, n_permutations=19,
        random_state=5, k_nearest=3)[1]
    assert_array_equal(p, again)


def test_permutations_keep_rows_without_a_target_out():
    X, y, discrete = mixed_data(4, n=30)
    y[[2, 7]] = np.nan
    seen = []

    def rescore(target):
        seen.append(np.flatnonzero(np.isnan(target)))
        return np.zeros(X.shape[1])

    significance.permutation_test(rescore, y, n_permutations=5)
    assert all(np.array_equal(rows, [2, 7]) for rows in seen)


@pytest.mark.parametrize("count", [0, -5, 1.5, True, 10 ** 8 + 1, 2 ** 63,
                                   10 ** 30])
def test_permutation_refuses_bad_counts(count):
    with pytest.raises(ReliefInputError, match="n_permutations"):
        significance.permutation_test(lambda y: y, np.zeros(3), count)


def test_a_missing_observed_weight_has_no_p_value():
    def rescore(target):  # a scorer with no weight for its second attribute
        return np.array([target[0], np.nan])

    _, p = significance.permutation_test(rescore, np.arange(6.0), 19)
    assert 0 < p[0] <= 1 and np.isnan(p[1])


@each_engine
def test_rrelieff_rescorer_needs_no_new_search(engine):
    rng = np.random.default_rng(6)
    X = rng.random((60, 4))
    y = X[:, 0] + 0.1 * rng.random(60)
    y[5] = np.nan
    with forced(engine):
        rescore = significance.rrelieff_rescorer(X, y, k_nearest=7)
        assert_array_equal(rescore(y),
                           estimators.rrelieff(X, y, k_nearest=7))
        known = np.flatnonzero(~np.isnan(y))
        permuted = y.copy()
        permuted[known] = y[known][rng.permutation(len(known))]
        assert_allclose(rescore(permuted),
                        estimators.rrelieff(X, permuted, k_nearest=7),
                        atol=1e-15)


def permutations_of(y, count, seed):
    """`count` permutations of y's known values, one per row."""
    rng = np.random.default_rng(seed)
    known = np.flatnonzero(~np.isnan(y))
    targets = np.tile(y, (count, 1))
    for target in targets:
        target[known] = y[known][rng.permutation(len(known))]
    return targets


@each_engine
@pytest.mark.parametrize("method", list(surf.NEIGHBOURHOODS))
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_surf_rescorer_scores_many_targets_with_one_search(engine, method,
                                                           task):
    rng = np.random.default_rng(7)
    X = rng.random((50, 5))
    X[:, 2] = rng.integers(0, 3, 50)
    discrete = np.array([False, False, True, False, False])
    y = (X[:, 0] > 0.5) + (X[:, 2] == 1) if task == "classification" else (
        X[:, 0] + 0.1 * rng.random(50))
    y = y.astype(float)
    y[3] = np.nan
    y_before = y.copy()
    targets = permutations_of(y, 5, seed=8)
    options = dict(method=method, task=task, deviation="sample")
    with forced(engine):
        rescore = significance.surf_rescorer(X, y, discrete, **options)
        assert_array_equal(rescore(y), surf.neighbourhood_sums(
            X, y, discrete, **options).weights)
        many = rescore.many(targets)
        for target, weights in zip(targets, many):
            assert_allclose(weights, surf.neighbourhood_sums(
                X, target, discrete, **options).weights, rtol=0, atol=1e-14)
        assert_array_equal(many[2], rescore(targets[2]))
    assert_array_equal(y, y_before)


def test_surf_rescorer_computes_the_distances_once(monkeypatch):
    from orangecontrib.relief.core.engines.vectorised.surf import (
        Neighbourhoods)

    calls = []
    sets = Neighbourhoods.sets

    def counted(hoods, rows):
        calls.append(len(rows))
        return sets(hoods, rows)

    monkeypatch.setattr(Neighbourhoods, "sets", counted)
    X, y, discrete = mixed_data(9, missing=0.0)
    with forced("vectorised"):
        rescore = significance.surf_rescorer(X, y, discrete)
        rescore(y)
        once = len(calls)
        rescore.many(permutations_of(y, 16, seed=1))
    assert once > 0 and len(calls) == 2 * once


@each_engine
def test_surf_rescorer_with_missing_values_scores_each_class_afresh(engine):
    # RELIEF-D's diffs of a missing value depend on the classes
    X, y, discrete = mixed_data(10, n_classes=3)
    targets = permutations_of(y, 3, seed=2)
    with forced(engine):
        rescore = significance.surf_rescorer(X, y, discrete)
        many = rescore.many(targets)
        for target, weights in zip(targets, many):
            assert_array_equal(weights, surf.multisurf(X, target, discrete))


@pytest.mark.parametrize("rescorer", ["surf", "rrelieff"])
def test_rescorers_take_only_permutations_of_their_target(rescorer):
    X, y, discrete = mixed_data(11, missing=0.0)
    if rescorer == "surf":
        rescore = significance.surf_rescorer(X, y, discrete)
    else:
        y = X[:, 0] + y
        rescore = significance.rrelieff_rescorer(X, y, discrete)
    other = y.copy()
    other[0] = 1 - other[0]
    moved = y.copy()
    moved[0] = np.nan
    for target in (other, moved, y[:-1], np.r_[y, y[0]], ["a"] * len(y)):
        with pytest.raises(ReliefInputError, match="permutations"):
            rescore(target)


@each_engine
def test_surf_rescorer_takes_a_batch_of_targets(engine):
    X, y, discrete = mixed_data(11, missing=0.0)
    with forced(engine):
        rescore = significance.surf_rescorer(X, y, discrete)
        assert rescore.many(np.empty((0, len(y)))).shape == (0, X.shape[1])
        for targets in (y, [y, y[:-1]], "y"):
            with pytest.raises(ReliefInputError, match="2-D array of targets"):
                rescore.many(targets)


def test_batched_permutations_are_those_of_one_at_a_time():
    X, y, discrete = mixed_data(12, missing=0.0)
    rescore = significance.surf_rescorer(X, y, discrete)
    batched = significance.permutation_test(rescore, y, n_permutations=37,
                                            random_state=3)
    single = significance.permutation_test(lambda target: rescore(target),
                                           y, n_permutations=37,
                                           random_state=3)
    full = significance.permutation_pvalues(surf.multisurf, X, y, discrete,
                                            n_permutations=37,
                                            random_state=3)
    for other in (single, full):
        assert_array_equal(batched[0], other[0])
        assert_array_equal(batched[1], other[1])


def epistasis(seed, missing=0.0):
    """(x1 + x2) mod 3 decides the class; 18 random attributes; a tenth of
    the classes replaced at random."""
    problem = modulo(400, 2, 18, p=3, seed=seed)
    X, y = problem.X.astype(float), problem.y.astype(float)
    rng = np.random.default_rng(seed + 100)
    noisy = rng.random(len(y)) < 0.1
    y[noisy] = rng.integers(0, 3, noisy.sum())
    X[rng.random(X.shape) < missing] = np.nan
    return X, y, np.ones(X.shape[1], bool)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("missing", [0.0, 0.1])
@pytest.mark.parametrize("neighbourhood", ["multisurf", "relieff"])
def test_stir_flags_the_interacting_pair(seed, missing, neighbourhood):
    X, y, discrete = epistasis(seed, missing)
    result = significance.stir(X, y, discrete, neighbourhood=neighbourhood)
    flagged = np.flatnonzero(significance.significant(
        significance.adjust(result.p, "bh"), 0.05))
    assert {0, 1} <= set(flagged)
    assert len(flagged) <= 3  # the pair and at most one noise attribute


@pytest.mark.parametrize("method", ["bh", "holm", "bonferroni"])
@pytest.mark.parametrize("n_permutations", [1, 19, 99])
def test_the_smallest_adjusted_p_value_is_reached_only_at_the_least_p(
        method, n_permutations):
    least = 1 / (1 + n_permutations)
    for m in (1, 4):
        smallest = significance.smallest_adjusted(m, n_permutations, method)
        assert smallest == pytest.approx(
            significance.adjust(np.full(m, least), method).min())
        p = np.r_[least, np.full(m - 1, 1.0)]
        assert significance.adjust(p, method).min() >= smallest - 1e-15


@pytest.mark.parametrize("method", ["bh", "holm", "bonferroni"])
@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.1, 0.3, 1.0])
def test_the_permutations_needed_are_the_fewest_that_can_be_significant(
        method, alpha):
    for m in (1, 13):
        count = significance.permutations_needed(m, alpha, method)
        assert significance.smallest_adjusted(m, count, method) <= alpha
        assert (count == 1 or significance.smallest_adjusted(
            m, count - 1, method) > alpha)
    assert significance.permutations_needed(13, 0.05, "bh") == 19
    assert significance.permutations_needed(13, 1e-9, method) is None
