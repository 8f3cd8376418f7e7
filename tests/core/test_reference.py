"""The core against the slow literal reference (tests.reference.relief).

Part 1 checks the reference itself on tiny examples computed by hand from
the formulas of the papers. Part 2 compares every registered variant
(orangecontrib.relief.core.registry, on each task it handles), on each
engine, with its literal reference (tests/reference) on many small random
data sets (agreement to 1e-6 absolute): a new variant gets these cases by
its registry entry alone.

Most numeric values are drawn on the dyadic grid {0, 1/16, ..., 1} with 0
and 1 present among the known values of every column, so that the range is
exactly 1 and all diffs and distances are exact in floating point: neighbour
ties are then real ties in any precision and test the lower-index rule. In
the data sets with missing values on the grid, every group (class) has a
power-of-two number of known values per column, so the RELIEF-D
probabilities and expectations are exact as well. The "generic" scenarios
use ordinary random floats (ties are then improbable).
"""
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief.core.errors import ReliefInputError
from tests.core.engines import on_each_engine
from tests.reference import relief as ref
from tests.variants import (VARIANTS, literal_weights, seed_of, taken,
                            variant_task_id)

GRID = 16
# dyadic ramp thresholds with t_diff - t_eq a power of two, so that the ramp
# (d - t_eq) / (t_diff - t_eq) is exact on the grid (e.g. (0.125, 0.5) is NOT:
# it gives thirds, whose rounding breaks mathematically exact distance ties
# differently in different summation orders). Generic data use the defaults.
GRID_RAMPS = [(0.0625, 0.1875), (0.125, 0.375), (0.0, 0.25), (0.1875, 0.3125)]
GRID_WEIGHTS = [0.0, 0.25, 0.5, 1.0, 2.0, 3.0]


# =================================================================
# Part 1: the reference against hand-computed values
# =================================================================

def _ctx(X, groups, discrete, diff_kind="linear", t_eq=0.04, t_diff=0.1):
    X = [[float(v) for v in row] for row in X]
    return ref.Context(X, list(groups), list(discrete), diff_kind, t_eq,
                       t_diff, [1.0] * len(discrete))


class TestReferenceByHand:
    def test_relief_two_attributes(self):
        # R0: H=1 (dist 1.25), M=2 (dist .75); R1: H=0, M=3 (.75 < 1.5)
        # R2: H=3, M=0; R3: H=2, M=1. Every R gives A0: .75-.25, A1: 0-1.
        X = [[0, 0], [0.25, 1], [0.75, 0], [1, 1]]
        y = [0, 0, 1, 1]
        assert_allclose(ref.relief(X, y), [0.5, -1.0], atol=1e-15)

    def test_relief_tied_hits_share_the_place(self):
        # R0 = (0,0) has hits 1 = (1,0) and 2 = (0,1), both at distance 1,
        # and its miss 3 at distance 0.  R1: H=0 and M=3 have equal diffs;
        # R2 likewise; R3 has no hit and its miss is row 0 at distance 0.
        X = [[0, 0], [1, 0], [0, 1], [0, 0]]
        X2 = [[0, 0], [0, 1], [1, 0], [0, 0]]  # rows 1 and 2 swapped
        y = [0, 0, 0, 1]
        # shared: each hit of R0 takes half the place, -1/2 to each, / 4
        for rows in (X, X2):
            assert_allclose(ref.relief(rows, y), [-0.125, -0.125],
                            atol=1e-15)
        # to the lower index: hit 1 alone, A0 loses; swapping the rows
        # swaps which attribute loses
        assert_allclose(ref.relief(X, y, ties="lower-index"), [-0.25, 0.0],
                        atol=1e-15)
        assert_allclose(ref.relief(X2, y, ties="lower-index"), [0.0, -0.25],
                        atol=1e-15)

    def test_relief_squared_diff(self):
        # one attribute: values 0, .5, 1 / classes 0, 0, 1
        # R0: H=1 (.5), M=2 (1) -> 1 - .25;  R1: H=0, M=2: .25 - .25 = 0
        # R2: no hit, M=1 -> .25.  W = (.75 + 0 + .25) / 3
        X = [[0], [0.5], [1]]
        y = [0, 0, 1]
        assert_allclose(ref.relief(X, y, diff="squared"), [1 / 3],
                        atol=1e-15)
        # linear: R0: 1 - .5, R1: .5 - .5, R2: .5 -> 1/3 as well
        assert_allclose(ref.relief(X, y), [1 / 3], atol=1e-15)

    def test_ramp(self):
        ctx = _ctx([[0], [0.05], [0.07], [0.2], [1]], [0] * 5, [False],
                   "ramp", 0.04, 0.1)
        assert ref.diff(0, 0, 1, ctx) == pytest.approx(1 / 6)
        assert ref.diff(0, 0, 2, ctx) == pytest.approx(0.5)
        assert ref.diff(0, 0, 3, ctx) == 1.0
        assert ref.diff(0, 1, 1, ctx) == 0.0
        ctx = _ctx([[0], [0.03], [1]], [0] * 3, [False], "ramp", 0.04, 0.1)
        assert ref.diff(0, 0, 1, ctx) == 0.0

    def test_relieff_unbalanced_three_classes(self):
        # Nominal attribute, k = 2, priors 1/2, 1/3, 1/6; the miss weights
        # are P(C) / (1 - P(class(R))), a class with fewer than k candidates
        # is averaged over what it has, a class without hits gives no hit term:
        # R0, R1: -1/2 + (2/3 + 1/3)        = 1/2 each
        # R2:     -1   + (0 + 1/3)          = -2/3
        # R3, R4: -0   + (3/4 * 1/2 + 1/4)  = 5/8 each
        # R5:     no hit, misses all differ = 1
        # W = (1/2 + 1/2 - 2/3 + 5/8 + 5/8 + 1) / 6 = 31/72
        X = [[0], [0], [1], [1], [1], [2]]
        y = [0, 0, 0, 1, 1, 2]
        W = ref.relieff(X, y, [True], k_nearest=2)
        assert_allclose(W, [31 / 72], atol=1e-15)

    def test_missing_nominal(self):
        # column: class 0 knows [0, 0, 1] (+1 missing),
        #         class 1 knows [1, 1, 1, 0] (+1 missing)
        nan = math.nan
        X = [[0], [0], [1], [nan], [1], [1], [1], [0], [nan]]
        groups = [0, 0, 0, 0, 1, 1, 1, 1, 1]
        ctx = _ctx(X, groups, [True])
        # I1 missing (class 0), I2 = 1: 1 - P(1 | c0) = 1 - 1/3
        assert ref.diff(0, 3, 2, ctx) == pytest.approx(2 / 3)
        # I1 = 0 (class 1), I2 missing (class 0): 1 - P(0 | c0) = 1/3
        assert ref.diff(0, 7, 3, ctx) == pytest.approx(1 / 3)
        # both missing, c0 vs c1: 1 - (2/3 * 1/4 + 1/3 * 3/4) = 7/12
        assert ref.diff(0, 3, 8, ctx) == pytest.approx(7 / 12)
        # both missing, same class 0: 1 - (4/9 + 1/9) = 4/9
        assert ref.diff(0, 3, 3, ctx) == pytest.approx(4 / 9)

    def test_missing_numeric(self):
        nan = math.nan
        # class 0 knows {0, .5}, class 1 knows {1}, class 2 knows nothing
        X = [[0], [0.5], [nan], [1.0], [nan], [nan]]
        groups = [0, 0, 0, 1, 1, 2]
        ctx = _ctx(X, groups, [False])
        # I1 missing in class 0 vs 1.0: (|0-1| + |.5-1|) / 2
        assert ref.diff(0, 2, 3, ctx) == pytest.approx(0.75)
        assert ref.diff(0, 3, 2, ctx) == pytest.approx(0.75)
        # both missing, class 0 vs class 1: X in {0,.5}, Y in {1}
        assert ref.diff(0, 2, 4, ctx) == pytest.approx(0.75)
        # both missing in class 0: (0 + .5 + .5 + 0) / 4
        assert ref.diff(0, 2, 2, ctx) == pytest.approx(0.25)
        # class 2 has no known value: the whole column {0, .5, 1} is used
        assert ref.diff(0, 5, 0, ctx) == pytest.approx(0.5)
        ctx = _ctx(X, groups, [False], "squared")
        assert ref.diff(0, 2, 3, ctx) == pytest.approx((1 + 0.25) / 2)

    def test_all_missing_column_and_constant(self):
        nan = math.nan
        ctx = _ctx([[nan, 2.0], [nan, 2.0], [nan, nan]], [0, 1, 1],
                   [False, False])
        assert ref.diff(0, 0, 1, ctx) == 0.0
        assert ref.diff(1, 0, 1, ctx) == 0.0
        assert ref.diff(1, 0, 2, ctx) == 0.0

    def test_rrelieff_equal_weighting(self):
        # k = 1; X = 0, .25, 1; y = 0, .5, 2 (range 2)
        # R0 -> 1: dC=.25, dA=.25; R1 -> 0: same; R2 -> 1: dC=.75, dA=.75
        # N_dC = 1.25, N_dA = 1.25, N_dCdA = .0625*2 + .5625 = .6875
        # W = .6875/1.25 - (1.25 - .6875)/(3 - 1.25) = 8/35
        X = [[0], [0.25], [1]]
        y = [0, 0.5, 2]
        W = ref.rrelieff(X, y, k_nearest=1, weighting="equal")
        assert_allclose(W, [8 / 35], atol=1e-15)

    def test_rrelieff_exp_rank(self):
        # k = 2 (everybody), sigma = 2/3.5: influences w1, w2 of rank 1, 2
        e1 = math.exp(-(1 / (2 / 3.5)) ** 2)
        e2 = math.exp(-(2 / (2 / 3.5)) ** 2)
        w1, w2 = e1 / (e1 + e2), e2 / (e1 + e2)
        X = [[0], [0.25], [1]]
        y = [0, 0.5, 2]
        # (neighbour by rank, dA, dC) per reference
        per_ref = [[(0.25, 0.25), (1.0, 1.0)],      # R0: 1, then 2
                   [(0.25, 0.25), (0.75, 0.75)],    # R1: 0, then 2
                   [(0.75, 0.75), (1.0, 1.0)]]      # R2: 1, then 0
        N_dC = N_dA = N_dCdA = 0.0
        for pairs in per_ref:
            for w, (dA, dC) in zip((w1, w2), pairs):
                N_dC += dC * w
                N_dA += dA * w
                N_dCdA += dC * dA * w
        expected = N_dCdA / N_dC - (N_dA - N_dCdA) / (3 - N_dC)
        W = ref.rrelieff(X, y, k_nearest=2)
        assert_allclose(W, [expected], atol=1e-14)

    def test_missing_target_rows_are_dropped(self):
        nan = math.nan
        X = [[0, 0], [0.25, 1], [5.0, 7.0], [0.75, 0], [1, 1]]
        y = [0, 0, nan, 1, 1]
        assert_allclose(ref.relief(X, y), [0.5, -1.0], atol=1e-15)

    def test_references_rule(self):
        assert ref.references(4, None, 3) == [0, 1, 2, 3]
        rng = np.random.default_rng(123)
        assert ref.references(7, 5, 123) == list(rng.integers(0, 7, size=5))

    def test_myopic_by_hand(self):
        # attribute == class, balanced: the perfect attribute, W' = 1
        assert ref.myopic_relieff([0, 0, 1, 1], [0, 0, 1, 1]) == \
            pytest.approx(1.0)
        # independent of the class: GG' = 0
        assert ref.gini_gain_prime([0, 1, 0, 1], [0, 0, 1, 1]) == \
            pytest.approx(0.0)
        # x = 0,0,0,1; c = 0,0,1,1: P_eqval = 10/16, P_samecl|eqval = .6,
        # GG' = .1, W' = .625 * .1 / .25 = .25; pair counting gives
        # P(eqval|samecl) - P(eqval|diffcl) = .75 - .5 = .25 as well.
        assert ref.gini_gain_prime([0, 0, 0, 1], [0, 0, 1, 1]) == \
            pytest.approx(0.1)
        assert ref.myopic_relieff([0, 0, 0, 1], [0, 0, 1, 1]) == \
            pytest.approx(0.25)
        # ReliefF with all neighbours, without replacement: R0, R1 give
        # +.5, R2 gives -1, R3 gives 0 -> 0 = .25 - (1 - .75)/(n_c - 1)
        W = ref.relieff([[0], [0], [0], [1]], [0, 0, 1, 1], [True],
                        k_nearest=10)
        assert_allclose(W, [0.0], atol=1e-15)


# =================================================================
# Part 2: random data sets, core vs reference
# =================================================================

def _grid_values(rng, n):
    return rng.integers(0, GRID + 1, size=n) / GRID


def _pow2_floor(x):
    p = 1
    while p * 2 <= x:
        p *= 2
    return p


def _make_labels(rng, n, n_classes, min_size=1):
    """Class labels 0..C-1 with every class present at least min_size times."""
    y = rng.integers(0, n_classes, size=n)
    order = rng.permutation(n)
    pos = 0
    for c in range(n_classes):
        for _ in range(min_size):
            y[order[pos]] = c
            pos += 1
    return y.astype(np.float64)


def _fix_grid_range(rng, X, kept, discrete):
    """Make 0 and 1 appear among the known kept values of every numeric
    grid column that has at least two of them (range exactly 1)."""
    for A in range(X.shape[1]):
        if discrete[A]:
            continue
        rows = [i for i in kept if not np.isnan(X[i, A])]
        if len(rows) >= 2 and np.ptp(X[rows, A]) > 0:
            i, j = rng.choice(rows, size=2, replace=False)
            X[i, A], X[j, A] = 0.0, 1.0


def _pow2_missing(rng, X, groups, kept, columns, frac):
    """Missing values in `columns` such that every group keeps a power of
    two (>= 1) of known values in each column (exact probabilities)."""
    for A in columns:
        for grp in sorted(set(groups[kept])):
            rows = [i for i in kept if groups[i] == grp]
            target = max(1, int(round(len(rows) * (1 - frac))))
            known = _pow2_floor(target)
            missing = rng.choice(rows, size=len(rows) - known, replace=False)
            X[missing, A] = np.nan


def make_case(variant, task, scenario, seed):
    """Returns X, y, discrete, options for `variant` on `task` (the options
    it takes, drawn alike for every variant)."""
    rng = np.random.default_rng([seed_of(variant.name, task),
                                 SCENARIOS.index(scenario), seed])
    n = int(rng.integers(5, 41))
    a = int(rng.integers(1, 7))
    grid = scenario not in ("generic", "missing_generic")
    regression = task == "regression"
    n_classes = variant.n_classes or int(rng.integers(2, 6))
    n_classes = min(n_classes, n // 2)

    # -- attribute types
    discrete = np.zeros(a, dtype=bool)
    if scenario in ("mixed", "missing", "missing_generic", "degenerate",
                    "duplicates"):
        discrete = rng.random(a) < 0.5
    n_values = rng.integers(2, 5, size=a)

    # -- values
    X = np.empty((n, a))
    for A in range(a):
        if discrete[A]:
            X[:, A] = rng.integers(0, n_values[A], size=n)
        elif grid:
            X[:, A] = _grid_values(rng, n)
        else:
            X[:, A] = rng.random(n) * rng.choice([1.0, 7.3, 250.0]) - 2.5

    # -- target
    if regression:
        y = rng.normal(size=n)
        if scenario == "duplicates":
            y = np.round(y, 1)
    elif scenario == "small_classes":
        # a few big classes and some classes of 1-3 instances
        sizes = [int(rng.integers(1, 4)) for _ in range(n_classes)]
        sizes[0] = max(1, n - sum(sizes[1:]))
        y = np.concatenate([[c] * s for c, s in enumerate(sizes)])
        y = rng.permutation(y).astype(np.float64)
        n = len(y)
        X = X[:n] if len(X) >= n else np.vstack(
            [X, X[rng.integers(0, len(X), size=n - len(X))]])
    else:
        y = _make_labels(rng, n, n_classes, min_size=2 if n >= 8 else 1)

    # -- rows with a missing target
    kept = np.arange(n)
    if scenario in ("missing", "missing_generic") or (
            scenario == "grid" and rng.random() < 0.3):
        n_drop = int(rng.integers(1, max(2, n // 6)))
        drop = rng.choice(n, size=n_drop, replace=False)
        y_kept = np.delete(y, drop)
        enough = (len(set(y_kept)) == len(set(y)) if not regression
                  else np.ptp(y_kept) > 0) and len(y_kept) >= 3
        if enough:
            y[drop] = np.nan
            kept = np.setdiff1d(np.arange(n), drop)
    groups = np.zeros(n, dtype=int) if regression else \
        np.nan_to_num(y, nan=-1).astype(int)

    # -- duplicate rows
    if scenario == "duplicates":
        for _ in range(int(rng.integers(1, max(2, n // 3)))):
            i, j = rng.choice(n, size=2, replace=False)
            X[j] = X[i]
            if rng.random() < 0.3 and not regression:
                y[j] = y[i]
        if not regression:
            # keep every class present
            for c in range(n_classes):
                if c not in y:
                    y[rng.integers(0, n)] = c
            groups = y.astype(int)
        # X changed after drawing: nothing else depends on it

    # -- missing values
    if scenario == "missing":
        cols = [A for A in range(a) if rng.random() < 0.7] or [0]
        _pow2_missing(rng, X, groups, kept, cols, frac=rng.uniform(0.1, 0.5))
    elif scenario == "missing_generic":
        mask = rng.random((n, a)) < rng.uniform(0.05, 0.35)
        X[mask] = np.nan
    if grid:
        _fix_grid_range(rng, X, kept, discrete)

    # -- degenerate columns: constant, all missing
    if scenario == "degenerate":
        X = np.hstack([X, np.full((n, 1), 0.5), np.full((n, 1), np.nan),
                       np.zeros((n, 1))])
        discrete = np.concatenate([discrete, [False, bool(rng.random() < .5),
                                              True]])
        order = rng.permutation(X.shape[1])
        X, discrete = X[:, order], discrete[order]
        a = X.shape[1]

    # -- options: every variant's draws, each variant given those it takes
    kwargs = {}
    diff = ["linear", "squared", "ramp"][int(rng.integers(0, 3))]
    kwargs["diff"] = diff
    if diff == "ramp":
        if grid:
            t_eq, t_diff = GRID_RAMPS[int(rng.integers(0, len(GRID_RAMPS)))]
            kwargs["t_eq"], kwargs["t_diff"] = t_eq, t_diff
        elif rng.random() < 0.5:
            kwargs["t_eq"], kwargs["t_diff"] = sorted(rng.random(2) * 0.5)
    if rng.random() < 0.35:
        if grid:
            kwargs["distance_weights"] = rng.choice(GRID_WEIGHTS, size=a)
        else:
            kwargs["distance_weights"] = rng.random(a) * 3
    if rng.random() < 0.4:
        kwargs["n_iterations"] = int(rng.integers(1, 2 * n + 1))
        kwargs["random_state"] = int(rng.integers(0, 2 ** 31))
    if regression:
        kwargs["k_nearest"] = int(rng.integers(1, n + 4))
        kwargs["weighting"] = ["exp_rank", "equal"][int(rng.integers(0, 2))]
        if rng.random() < 0.3 and kwargs["weighting"] == "exp_rank":
            kwargs["sigma"] = float(rng.uniform(0.5, 10))  # only it reads it
    elif scenario == "small_classes":
        kwargs["k_nearest"] = int(rng.integers(3, 12))
    else:
        kwargs["k_nearest"] = int(rng.integers(1, 13))
    disc = None if (not discrete.any() and rng.random() < 0.5) else discrete
    return X, y, disc, taken(variant, **kwargs)


SCENARIOS = ["grid", "generic", "mixed", "missing", "missing_generic",
             "small_classes", "degenerate", "duplicates"]
#: the cases of each variant (a seeded bug in one variant's rule fails as
#: many tests): every scenario of each of its tasks once, then again with
#: the next seed, until there are as many
CASES_PER_VARIANT = 20


def scenarios_of(variant):
    """The (task, scenario) pairs of `variant`, its tasks in turn (a
    numeric target has no "small_classes")."""
    return [(task, scenario) for scenario in SCENARIOS
            for task in variant.tasks
            if not (task == "regression" and scenario == "small_classes")]


def cases_of(variant):
    """The :data:`CASES_PER_VARIANT` cases of `variant`: its scenarios
    with seed 0, then with seed 1, ..."""
    pairs = scenarios_of(variant)
    return [(variant, *pairs[number % len(pairs)], number // len(pairs))
            for number in range(CASES_PER_VARIANT)]


CASES = [case for variant in VARIANTS for case in cases_of(variant)]


def case_id(case):
    variant, task, scenario, seed = case
    return f"{variant_task_id(variant, task)}-{scenario}-{seed}"


#: the cases where the core and the literal reference are known to differ,
#: and how (each must still fail: fixed, it is taken off this list)
DIFFER = {}


def param(case):
    """The case as the test's parameters, expected to fail where
    :data:`DIFFER` lists it."""
    reason = DIFFER.get(case_id(case))
    marks = () if reason is None else pytest.mark.xfail(strict=True,
                                                        reason=reason)
    return pytest.param(*case, id=case_id(case), marks=marks)


@pytest.mark.parametrize("variant, task, scenario, seed",
                         [param(case) for case in CASES])
def test_core_matches_reference(variant, task, scenario, seed):
    case = variant, task, scenario, seed
    X, y, discrete, kwargs = make_case(*case)
    X0, y0 = X.copy(), y.copy()
    try:
        expected = literal_weights(variant, X, y, discrete, task=task,
                                   **kwargs)
    except ReliefInputError as refusal:  # no weights by definition
        expected = refusal
    results = on_each_engine(lambda: outcome(variant, task, X, y, discrete,
                                             kwargs))
    for engine, got in results.items():
        np.testing.assert_array_equal(X, X0)   # inputs untouched
        np.testing.assert_array_equal(y, y0)
        where = f"{case_id(case)} {engine}"
        if isinstance(expected, ReliefInputError):  # the reason in its words
            assert isinstance(got, ReliefInputError), f"{where}: weights"
            assert str(expected) in str(got), where
            continue
        assert not isinstance(got, ReliefInputError), f"{where}: {got}"
        assert got.dtype == np.float64
        assert got.shape == expected.shape
        assert_allclose(got, expected, atol=1e-6, rtol=0, equal_nan=True,
                        err_msg=where)


def outcome(variant, task, X, y, discrete, options):
    """The variant's weights, or the ReliefInputError it raises."""
    try:
        return variant.weights(X, y, discrete, task=task, **options)
    except ReliefInputError as error:
        return error


def option_kinds(options):
    """The kinds of option a case's `options` take: its diff, distance
    weights or none, sampled references or all of them."""
    return {options.get("diff"),
            "weights" if "distance_weights" in options else "no weights",
            "sampled" if "n_iterations" in options else "all references"}


def test_generated_cases_cover_every_scenario():
    """The generated cases really contain what they claim to."""
    seen = set()
    for case in CASES:
        variant, task, scenario, seed = case
        X, y, discrete, kw = make_case(*case)
        kept = ~np.isnan(y)
        assert 3 <= kept.sum() and X.shape[0] <= 45 and 1 <= X.shape[1] <= 9
        if task == "classification":
            classes = set(y[kept])
            seen.add(("classes", len(classes)))
            if variant.n_classes:
                assert len(classes) == variant.n_classes
            k = kw.get("k_nearest", 1)
            sizes = [np.sum(y[kept] == c) for c in classes]
            if min(sizes) - 1 < k:
                seen.add("class smaller than k")
        else:
            assert np.ptp(y[kept]) > 0
        if np.isnan(y).any():
            seen.add("missing target")
        if discrete is not None and np.isnan(X[:, discrete]).any():
            seen.add("missing nominal")
        num = ~discrete if discrete is not None else np.ones(X.shape[1], bool)
        if np.isnan(X[:, num]).any():
            seen.add("missing numeric")
        for A in range(X.shape[1]):
            col = X[kept, A]
            if np.isnan(col).all():
                seen.add("all-missing column")
            elif np.nanmax(col) == np.nanmin(col):
                seen.add("constant column")
        if len(np.unique(X[kept], axis=0)) < kept.sum():
            seen.add("duplicate rows")
        seen |= option_kinds(kw)
    for item in ["missing target", "missing nominal", "missing numeric",
                 "all-missing column", "constant column", "duplicate rows",
                 "linear", "squared", "ramp", "weights", "sampled",
                 "all references", "class smaller than k",
                 ("classes", 2), ("classes", 3), ("classes", 4),
                 ("classes", 5)]:
        assert item in seen, item


#: what each variant's cases must meet of the options it takes
OPTION_KINDS = {"diff": {"linear", "squared", "ramp"},
                "distance_weights": {"weights", "no weights"},
                "n_iterations": {"sampled", "all references"}}


def test_each_variant_meets_every_kind_of_option_it_takes():
    """Each variant's own cases, not only the whole matrix's, take each
    diff, distance weights and none, sampled references and all of them
    (those of its options)."""
    for variant in VARIANTS:
        seen = set()
        for case in cases_of(variant):
            seen |= option_kinds(make_case(*case)[3])
        for option, kinds in OPTION_KINDS.items():
            if option in variant.parameters:
                assert kinds <= seen, (variant.name, option, kinds - seen)
