"""The SURF family (core.variants.surf) against the slow literal reference
(tests.reference.surf), between the engines, against scikit-rebate and
fast-select where the definitions agree, on interactions, its invariances
and its checks.

Ties: on a dyadic grid (and with n - 1 = 16 instances besides the
reference, so that MultiSURF's mean is exact) every distance, SURF's T and
MultiSURF's limits are exact in floating point whatever the summation
order, so a distance that equals a threshold mathematically equals it in
every implementation and tests the strict < and > of the definitions.
"""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.variants import estimators, surf, swrf
from orangecontrib.relief.core.engines.compiled.rules import (
    surf as compiled_surf)
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.engines.compiled.neighbours import (
    panels, sides)
from orangecontrib.relief.core.engines.compiled.neighbours.panels import (
    pending_tiles)
from orangecontrib.relief.core.engines.compiled.threads import (
    every_call_parallel)
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import reference_instances
from orangecontrib.relief.core.generators import modulo, parity
from orangecontrib.relief.core.formulas.neighbourhoods import SIGMAS
from tests import peer_sources
from tests.core.engines import each_engine, on_each_engine
from tests.reference import relief as literal
from tests.reference import surf as ref

METHODS = list(surf.NEIGHBOURHOODS)
STARS = ("surf*", "multisurf*")
GRID = 16
# dyadic ramp thresholds whose difference is a power of two: exact on the grid
GRID_RAMP = dict(t_eq=0.0625, t_diff=0.1875)
TASKS = [("classification", 2), ("classification", 3), ("regression", 1)]
PROPERTIES = settings(max_examples=30, deadline=None, derandomize=True,
                      database=None)


def random_data(seed, n=32, a=5, n_classes=2, missing=0.1, grid=False,
                task="classification"):
    """Numeric columns (on a dyadic grid with `grid`: exact distances, so
    that ties on a threshold are real ties), column 1 nominal, NaN."""
    rng = np.random.default_rng(seed)
    if grid:
        X = rng.integers(0, GRID + 1, (n, a)) / GRID
        X[:2] = [[0] * a, [1] * a]  # every column spans [0, 1]
    else:
        X = rng.random((n, a))
    X[:, 1] = rng.integers(0, 3, n)
    X[2:][rng.random((n - 2, a)) < missing] = np.nan
    discrete = np.zeros(a, bool)
    discrete[1] = True
    if task == "regression":
        y = rng.random(n)
    else:
        y = (np.arange(n) % n_classes).astype(float)
        rng.shuffle(y)
    return X, y, discrete


def weights(X, y, discrete=None, **options):
    return surf.neighbourhood_sums(X, y, discrete, **options).weights


# =================================================================
# The literal definitions
# =================================================================

#: each method with the deviations it reads: MultiSURF's thresholds read
#: it, SURF's do not (:func:`test_surf_ignores_the_deviation`)
METHOD_DEVIATIONS = [(method, deviation) for method in METHODS
                     for deviation in ("population", "sample")
                     if method.startswith("multisurf")
                     or deviation == "population"]


@pytest.mark.parametrize("method, deviation", METHOD_DEVIATIONS)
@pytest.mark.parametrize("task, n_classes", TASKS)
@pytest.mark.parametrize("diff", ["linear", "squared", "ramp"])
@pytest.mark.parametrize("grid", [False, True])
def test_the_literal_definition(method, deviation, task, n_classes, diff,
                                grid):
    """Missing values, a nominal column; every method, task, diff and
    the deviations the method reads; each engine."""
    X, y, discrete = random_data(7 + n_classes, n=36, n_classes=n_classes,
                                 grid=grid, task=task)
    ramp = GRID_RAMP if grid and diff == "ramp" else {}
    expected = ref.surf_family(X, y, discrete, method=method, task=task,
                               deviation=deviation, diff=diff, **ramp)
    results = on_each_engine(lambda: weights(
        X, y, discrete, method=method, task=task, deviation=deviation,
        diff=diff, **ramp))
    for engine, got in results.items():
        assert_allclose(got, expected, rtol=0, atol=1e-9, err_msg=engine)
    assert np.abs(expected).max() > 1e-3  # not a comparison of zeros


@each_engine
@pytest.mark.parametrize("method", ["surf", "surf*"])
@pytest.mark.parametrize("task, n_classes", TASKS)
def test_surf_ignores_the_deviation(engine, method, task, n_classes):
    """SURF's threshold is the mean of all distances: the sample's
    deviation gives the population's weights."""
    X, y, discrete = random_data(7 + n_classes, n=36, n_classes=n_classes,
                                 task=task)
    with forced(engine):
        got = [weights(X, y, discrete, method=method, task=task,
                       deviation=deviation)
               for deviation in ("population", "sample")]
    assert_array_equal(got[0], got[1])


def exact_distances(X):
    """D as Fractions (X's values are dyadic, each column spans [0, 1])."""
    assert_array_equal(np.nanmax(X, axis=0) - np.nanmin(X, axis=0), 1)
    rows = [[Fraction(float(v)) for v in row] for row in X]
    return [[sum(abs(a - b) for a, b in zip(r, s)) for s in rows]
            for r in rows]


def exact_limits(D, method, ddof):
    """Each reference's (centre, sigma ** 2) in exact arithmetic: its
    limits are centre -+ sigma / 2 (SURF: T and 0)."""
    n = len(D)
    pairs = [D[i][j] for i in range(n) for j in range(i + 1, n)]
    T = sum(pairs) / len(pairs)
    if not method.startswith("multisurf"):
        return [(T, 0)] * n
    result = []
    for i in range(n):
        others = [D[i][j] for j in range(n) if j != i]
        mu = sum(others) / len(others)
        result.append((mu, sum((d - mu) ** 2 for d in others)
                       / (len(others) - ddof)))
    return result


def count_pairs(D, limits, relation):
    """The ordered pairs (i, j), j != i, whose distance stands in
    `relation` to i's limits: "near" (d < centre - sigma / 2), "on near"
    (d = centre - sigma / 2), "on far" (d = centre + sigma / 2), compared
    without a square root."""
    def holds(d, centre, variance):
        gap = centre - d if relation != "on far" else d - centre
        if relation == "near":
            return gap > 0 and 4 * gap * gap > variance
        return gap >= 0 and 4 * gap * gap == variance

    return sum(holds(D[i][j], *limits[i]) for i in range(len(D))
               for j in range(len(D)) if j != i)


TIES = [  # (method, deviation, n values per attribute, seed): exact ties
    ("surf", "population", 2, 8),
    ("surf*", "population", 2, 8),
    ("multisurf", "population", 2, 26),
    ("multisurf*", "population", 2, 26),
    ("multisurf", "sample", 3, 309),
    ("multisurf*", "sample", 3, 309),
]


@pytest.mark.parametrize("method, deviation, n_values, seed", TIES)
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_distances_on_a_threshold_are_outside(method, deviation, n_values,
                                              seed, task):
    """Data with distances exactly on the thresholds (checked in exact
    arithmetic): the near and far sets exclude them, as the literal < and
    >, on each engine; the near pairs STIR counts are those of the strict
    <."""
    rng = np.random.default_rng(seed)
    n = 9 if method.startswith("surf") else 17
    X = rng.integers(0, n_values, (n, 4)) / (n_values - 1)
    y = (rng.integers(0, 2, n) if task == "classification"
         else rng.random(n)).astype(float)
    D = exact_distances(X)
    limits = exact_limits(D, method, SIGMAS[deviation])
    strict = count_pairs(D, limits, "near")
    assert count_pairs(D, limits, "on near") > 0
    if method in STARS:
        assert count_pairs(D, limits, "on far") > 0
    expected = ref.surf_family(X, y, method=method, task=task,
                               deviation=deviation)

    def near_pairs():
        sums = surf.neighbourhood_sums(X, y, method=method,
                                       deviation=deviation, stir=True)
        return sums.stir.n_hit + sums.stir.n_miss

    results = on_each_engine(lambda: (
        weights(X, y, method=method, task=task, deviation=deviation),
        near_pairs() if task == "classification" else None))
    for engine, (got, near) in results.items():
        assert near in (strict, None), engine
        assert_allclose(got, expected, rtol=0, atol=1e-9, err_msg=engine)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("grid", [False, True])
def test_stir_sums_are_the_pairs_diffs(method, n_classes, grid):
    X, y, discrete = random_data(8, n_classes=n_classes, grid=grid)
    hits, misses = ref.stir_pairs(X, y, discrete, method=method,
                                  deviation="sample")
    assert len(hits) > 0 and len(misses) > 0
    results = on_each_engine(lambda: [surf.neighbourhood_sums(
        X, y, discrete, method=method, deviation="sample", stir=stir)
        for stir in (True, False)])
    for engine, (sums, plain) in results.items():
        assert_stir_sums(sums.stir, hits, misses, len(y), engine)
        assert_allclose(sums.weights, plain.weights, rtol=0, atol=1e-15,
                        err_msg=engine)
        assert plain.stir is None


def assert_stir_sums(got, hits, misses, n_refs, engine):
    """STIR's sums (:class:`...formulas.stir.StirSums`) on `engine` are
    those of the literal pairs (reference, diffs, weight) of `hits` and
    `misses`."""
    for kind, pairs in (("hit", hits), ("miss", misses)):
        assert getattr(got, f"n_{kind}") == len(pairs), engine
        assert getattr(got, f"{kind}_refs") == len(
            {i for i, _, _ in pairs}), engine
        for field, power in (("sum", 1), ("squares", 2)):
            assert_allclose(getattr(got, f"{kind}_{field}"),
                            np.sum([w * np.array(d) ** power
                                    for _, d, w in pairs], axis=0),
                            rtol=0, atol=1e-9, err_msg=engine)
    assert got.n_refs == n_refs, engine


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("task, n_classes", TASKS)
def test_numeric_data_without_missing_values(method, task, n_classes):
    """Every diff |x_i - x_j|: the data on which the compiled update adds
    four references' terms per instance at a time (here an instance has
    about five of the sixteen references of a group as neighbours); the
    weights and STIR's sums as the literal definition, on each
    engine."""
    rng = np.random.default_rng(30 + n_classes)
    X = rng.random((60, 6))
    if task == "regression":
        y = rng.random(60)
    else:
        y = (np.arange(60) % n_classes).astype(float)
    stir = task == "classification"
    expected = ref.surf_family(X, y, method=method, task=task)
    pairs = ref.stir_pairs(X, y, method=method) if stir else None
    results = on_each_engine(lambda: surf.neighbourhood_sums(
        X, y, method=method, task=task, stir=stir))
    for engine, got in results.items():
        assert_allclose(got.weights, expected, rtol=0, atol=1e-9,
                        err_msg=engine)
        if stir:
            assert_stir_sums(got.stir, *pairs, len(y), engine)


class _Fixed(np.random.Generator):
    """A generator whose draws are always the given reference."""

    def __init__(self, reference):
        super().__init__(np.random.PCG64(0))
        self.reference = reference

    def integers(self, low, high=None, size=None, *args, **kwargs):
        return np.full(size, self.reference)


@pytest.mark.parametrize("method", METHODS)
def test_sampled_references_average_their_updates(method):
    """A classification weight is the mean of its references' updates:
    each instance's update alone (one draw of that instance) averages to
    the literal all-references weight, and m references drawn with a
    seed give the mean of those references' updates (thresholds from all
    instances), on each engine."""
    X, y, discrete = random_data(9, n=24, n_classes=3)
    expected = ref.surf_family(X, y, discrete, method=method)
    refs = reference_instances(len(y), 10, 3)
    assert len(set(refs)) < 10  # drawn with replacement: repeats count
    results = on_each_engine(lambda: (
        np.array([weights(X, y, discrete, method=method, n_iterations=1,
                          random_state=_Fixed(i)) for i in range(len(y))]),
        weights(X, y, discrete, method=method, n_iterations=10,
                random_state=3)))
    for engine, (updates, sampled) in results.items():
        assert_allclose(updates.mean(axis=0), expected, rtol=0, atol=1e-9,
                        err_msg=engine)
        assert_allclose(sampled, updates[refs].mean(axis=0), rtol=0,
                        atol=1e-12, err_msg=engine)


def rrelieff_terms(X, y, method):
    """Per reference i: (N_dC, N_dA, N_dCdA) of RReliefF's sums over
    near_i and far_i, by hand from the reference's neighbourhoods."""
    ctx, targets = literal.prepare(X, y, None, "linear", 0.04, 0.10, None,
                                   regression=True)
    D = [[literal.distance(i, j, ctx) for j in range(ctx.n)]
         for i in range(ctx.n)]
    span = max(targets) - min(targets)
    terms = np.zeros((2, ctx.n, 1 + 2 * ctx.a))
    for i, sets in enumerate(ref.neighbourhoods(D, method, 0)):
        for s, members in enumerate(sets):
            for j in members:
                d = 1 / len(members)
                dt = abs(targets[i] - targets[j]) / span
                dA = [literal.diff(A, i, j, ctx) for A in range(ctx.a)]
                terms[s, i] += [dt * d, *(d * v for v in dA),
                                *(d * dt * v for v in dA)]
    return terms


def rrelieff_from(terms, m):
    n_dc, n_da, n_dcda = terms[0], terms[1:len(terms) // 2 + 1], terms[
        len(terms) // 2 + 1:]
    return n_dcda / n_dc - (n_da - n_dcda) / (m - n_dc)


@pytest.mark.parametrize("method", METHODS)
def test_sampled_references_in_regression(method):
    """RReliefF's sums over the drawn references (repeats counted), m the
    number of draws, on each engine."""
    X, y, _ = random_data(11, n=24, task="regression", missing=0.0)
    terms = rrelieff_terms(X, y, method)
    refs = reference_instances(len(y), 15, 5)
    expected = rrelieff_from(terms[0][refs].sum(axis=0), 15)
    if method in STARS:
        expected -= rrelieff_from(terms[1][refs].sum(axis=0), 15)
    results = on_each_engine(lambda: weights(
        X, y, method=method, task="regression", n_iterations=15,
        random_state=5))
    for engine, got in results.items():
        assert_allclose(got, expected, rtol=0, atol=1e-9, err_msg=engine)
    every = rrelieff_from(terms[0].sum(axis=0), len(y))
    if method in STARS:
        every -= rrelieff_from(terms[1].sum(axis=0), len(y))
    assert_allclose(ref.surf_family(X, y, method=method, task="regression"),
                    every, rtol=0, atol=1e-12)  # the hand sums themselves


# =================================================================
# The engines
# =================================================================

@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_engines_agree_on_larger_data(method, task):
    X, y, discrete = random_data(10, n=300, a=20, n_classes=3, task=task)
    stir = task == "classification"
    results = on_each_engine(lambda: [surf.neighbourhood_sums(
        X, y, discrete, method=method, task=task, stir=stir)
        for _ in range(2)])
    for first, again in results.values():  # deterministic, threads or not
        assert_array_equal(first.weights, again.weights)
    compiled, vectorised = results["compiled"][0], results["vectorised"][0]
    assert_allclose(compiled.weights, vectorised.weights, rtol=1e-12,
                    atol=1e-12)
    if stir:
        for field in ("hit_sum", "hit_squares", "miss_sum", "miss_squares"):
            assert_allclose(getattr(compiled.stir, field),
                            getattr(vectorised.stir, field), rtol=1e-12,
                            atol=1e-12)
        counts = ("n_hit", "hit_refs", "n_miss", "miss_refs", "n_refs")
        assert ([getattr(compiled.stir, name) for name in counts]
                == [getattr(vectorised.stir, name) for name in counts])
        assert compiled.stir.n_hit > 0


@pytest.mark.parametrize("method, numeric", [
    ("surf", False), ("surf", True), ("surf*", False), ("swrf", False),
    ("swrf*", True), ("multisurf", True), ("multisurf*", True),
    ("multiswrf*", True)])
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_kept_distances_give_the_same_bits(method, task, numeric,
                                           monkeypatch):
    """Where SURF's distances of every pair fit
    (rules.surf.KEPT_DISTANCES), the compiled engine computes them once,
    by symmetric halves where no value is missing, for its global mean
    and its rule; beyond, the mean has a pass of its own (by symmetric
    halves too, a stripe of columns at a time where no value is missing)
    and the rule computes each reference's row again (SURF's on numeric
    data screened in float32).  MultiSURF's rules keep them where no value
    is missing (within the same budget), computed by halves
    whose transposed copies are written a panel of rows at a time (numeric
    data of several panels and tiles); beyond the budget they take the
    references a panel at a time, each panel's tiles of the later panels
    kept for them within the budget (all of them, or those of the next
    panel only; a panel's rules on threads beside the next panel's
    distances), else compute each reference's row.  The weights and
    STIR's sums are the same bits either way (mixed data with missing
    values, and numeric data, of two stripes and three panels, whose
    update adds several references at a time)."""
    X, y, discrete = random_data(11, n=300 if numeric else 90, a=11,
                                 n_classes=3, task=task,
                                 missing=0.0 if numeric else 0.1)
    if numeric:
        X[:, 1], discrete = X[:, 0] / 2, None
    stir = task == "classification"

    def run():
        with forced("compiled"):
            if "swrf" in method:
                result = swrf.swrf_sums(X, y, discrete, method=method,
                                        task=task, stir=stir,
                                        convention="scikit-rebate"
                                        if task == "regression" else "add-on")
            else:
                result = surf.neighbourhood_sums(X, y, discrete,
                                                 method=method, task=task,
                                                 stir=stir)
        return np.concatenate([result.weights] + (
            [result.stir.hit_sum, result.stir.miss_squares,
             [result.stir.n_hit, result.stir.miss_refs]] if stir else []))

    kept = run()
    tile = compiled_surf.PANEL ** 2 * 8  # one pending tile's bytes
    for window in (2, 1, 0):  # every later panel of three, the next, none
        monkeypatch.setattr(compiled_surf, "KEPT_DISTANCES",
                            pending_tiles(3, window) * tile)
        assert_array_equal(run(), kept)
    monkeypatch.setattr(compiled_surf, "KEPT_DISTANCES",
                        pending_tiles(3, 1) * tile)
    with every_call_parallel():  # a panel's rules beside the next's rows
        assert_array_equal(run(), kept)


@pytest.mark.parametrize("m, tiles", [(300, 2), (300, 3), (700, 2),
                                       (700, 5), (2000, 40), (2000, 400)])
def test_pending_tiles_share_no_slot_while_held(m, tiles):
    """A panel's pending tile lives from the panel that computes it to
    the one that reads it, and that one reads it while it computes its
    own tiles on other threads: no two tiles held at once may take one
    slot of the pool, and the pool stays within its budget."""
    plan = panels.schedule(m, 128, tiles * 128 * 128 * 8)
    n, window = len(plan.slots), plan.window
    assert len(plan.pool) <= tiles
    for t in range(n):
        held = [plan.slots[s, u - s - 1] for s in range(max(0, t - window),
                                                         t + 1)
                for u in range(max(s + 1, t), min(s + window, n - 1) + 1)]
        assert len(held) == len(set(held))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("task", ["classification", "regression"])
@pytest.mark.parametrize("seed", range(6))
def test_engines_round_the_thresholds_alike(method, task, seed,
                                            monkeypatch):
    """Values on a decimal grid put distances within a rounding of the
    thresholds; both engines sum the means and spreads in the same order,
    so such a distance falls on the same side in both.  With even seeds
    the compiled engine keeps no distances (rules.surf.KEPT_DISTANCES):
    SURF's then screens them in float32 against T, and the first data's
    distances of 0.4 lie within the screen's bound of their T."""
    if seed % 2 == 0:
        monkeypatch.setattr(compiled_surf, "KEPT_DISTANCES", 0)
    rng = np.random.default_rng(seed)
    n = 9 if seed == 0 else int(rng.integers(5, 30))
    X = (np.array([[.2], [0], [.2], [.2], [.6], [.7], [.5], [1], [0]])
         if seed == 0 else rng.integers(0, 6, (n, 3)) / 5)
    y = (np.array([1, 0, 1, 1, 1, 0, 0, 1, 0.]) if seed == 0
         else rng.integers(0, 3, n).astype(float))
    if task == "regression":
        y = y / 2 + X[:, 0]
    results = on_each_engine(lambda: weights(X, y, method=method, task=task))
    assert_allclose(results["compiled"], results["vectorised"], rtol=0,
                    atol=1e-12)


def on_the_limit(case):
    """Numeric data whose distances lie on SURF's T or within a rounding
    of it: one attribute of nine values whose distances of 0.4 lie within
    a rounding of T; four instances of three bits whose T is 2, the
    distance of two of their pairs; 600 instances (three stripes of the
    pass, 24 in the last word of a row's bits) on a dyadic grid."""
    if case == "rounding":
        return (np.array([[.2], [0], [.2], [.2], [.6], [.7], [.5], [1], [0]]),
                np.array([1, 0, 1, 1, 1, 0, 0, 1, 0.]))
    if case == "equal":
        return (np.array([[1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 0.]]),
                np.array([0, 1, 1, 0.]))
    rng = np.random.default_rng(5)
    return rng.integers(0, GRID + 1, (600, 4)) / GRID, rng.integers(
        0, 3, 600).astype(float)


#: how the compiled engine reads SURF's pairs against T: the distances of
#: every pair kept; their sides marked by the pass that sums T
#: (:mod:`...neighbours.sides`); those sides given up where T lies outside
#: their interval, and the distances screened in float32; screened alone
ROUTES = ["kept", "sides", "outside", "screened"]


@pytest.mark.parametrize("case", ["rounding", "equal", "grid"])
@pytest.mark.parametrize("method", ["surf", "surf*"])
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_every_route_to_surfs_pairs_gives_the_same_bits(case, method, task,
                                                        monkeypatch):
    """Each route of :data:`ROUTES` puts a pair on the side of T that its
    exact distance lies on (a pair at T on neither), so the weights are
    the same bits; and each route is the one taken."""
    X, y = on_the_limit(case)
    if task == "regression":
        y = y / 2 + X[:, 0]
    n = len(X)
    settled, settle = [], sides.settled
    made, screen_of = [], compiled_surf.screen_of

    def spied(*args):
        settled.append(settle(*args))
        return settled[-1]

    def screened(values):
        made.append(values.shape)
        return screen_of(values)

    results = {}
    for route in ROUTES:
        with monkeypatch.context() as patch:
            if route != "kept":
                patch.setattr(compiled_surf, "KEPT_DISTANCES", 0
                              if route == "screened"
                              else sides.bytes_of(n))
            if route == "outside":
                patch.setattr(sides, "mean_interval", lambda values: (-2, -1))
            patch.setattr(sides, "settled", spied)
            patch.setattr(compiled_surf, "screen_of", screened)
            settled.clear()
            made.clear()
            with forced("compiled"):
                results[route] = weights(X, y, method=method, task=task)
            taken = [s is not None for s in settled]
            assert taken == {"sides": [True], "outside": [False]}.get(
                route, []), route
            assert len(made) == (route in ("outside", "screened")), route
        assert_array_equal(results[route], results["kept"], err_msg=route)
    with forced("vectorised"):
        assert_allclose(weights(X, y, method=method, task=task),
                        results["kept"], rtol=0, atol=1e-12)


# =================================================================
# Peers: scikit-rebate and fast-select, two classes, no missing values
# =================================================================

def binary_continuous(seed, n=120, a=8):
    """Continuous attributes; the class is the xor of the first two."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(int)
    return X, y


@pytest.mark.parametrize("method, peer", [("multisurf", "MultiSURF"),
                                          ("multisurf*", "MultiSURFstar")])
def test_scikit_rebate_multisurf(method, peer):
    skrebate = pytest.importorskip("skrebate")
    X, y = binary_continuous(0)
    theirs = getattr(skrebate, peer)(n_features_to_select=2,
                                     n_jobs=1).fit(X, y).feature_importances_
    ours = weights(X, y.astype(float), method=method)
    assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def pair_distances(X):
    scaled = (X - X.min(0)) / (X.max(0) - X.min(0))
    return np.abs(scaled[:, None, :] - scaled[None, :, :]).sum(axis=2)


def thresholds_agree(X):
    """Whether no pair distance lies in [T (n - 1) / n, T]: scikit-rebate's
    T averages the n x n matrix with its zero diagonal, (n - 1) / n of
    ours; without a distance between the two the neighbourhoods are the
    same."""
    n = len(X)
    pairs = pair_distances(X)[np.triu_indices(n, 1)]
    T = pairs.mean()
    return not ((pairs >= T * (n - 1) / n) & (pairs <= T)).any()


@pytest.mark.parametrize("method, peer", [("surf", "SURF"),
                                          ("surf*", "SURFstar")])
@pytest.mark.parametrize("bits", [False, True])
def test_scikit_rebate_surf_where_the_thresholds_agree(method, peer, bits):
    """Continuous attributes (14 distinct values each: numeric for
    scikit-rebate too), or bits (integer distances), on a seed where no
    pair distance lies between the two thresholds."""
    skrebate = pytest.importorskip("skrebate")
    if bits:
        X, y = binary_continuous(4, n=40)
        X = (X > 0.5).astype(float)
    else:
        X, y = binary_continuous(269, n=14, a=3)
    assert thresholds_agree(X)
    assert 0 < y.sum() < len(y)
    theirs = getattr(skrebate, peer)(n_features_to_select=2,
                                     n_jobs=1).fit(X, y).feature_importances_
    ours = weights(X, y.astype(float), method=method)
    assert_allclose(ours, theirs, rtol=0, atol=1e-12)


@pytest.fixture(scope="module")
def fast_select_in_python():
    """fast-select's modules whose uncached kernels run as the Python of
    their source (a few seconds on 200 x 10, where their compilation takes
    half a minute): the same arithmetic on the same float32 values."""
    pytest.importorskip("fast_select")
    with peer_sources.fast_select_in_python() as modules:
        yield modules


@pytest.mark.parametrize("method", METHODS)
def test_fast_select(method, fast_select_in_python):
    """fast-select computes in float32: agreement to its precision."""
    module = ("fast_select.MultiSURF" if method.startswith("multi")
              else "fast_select.SURF")
    peer = getattr(fast_select_in_python[module],
                   module.rsplit(".", 1)[1])
    X, y = binary_continuous(1, n=200, a=10)
    theirs = peer(n_features_to_select=1.0, backend="cpu",
                  use_star=method in STARS).fit(X, y).feature_importances_
    ours = weights(X, y.astype(float), method=method)
    assert_allclose(ours, theirs, rtol=0, atol=2e-6)


# =================================================================
# Known answers: interactions
# =================================================================

def xor(seed):
    """Two bits whose xor is the class, 18 random bits (Parity2+2 without
    its copies of the relevant bits)."""
    problem = parity(400, n_bits=2, n_irrelevant=18, seed=seed)
    return np.delete(problem.X, [2, 3], axis=1), problem.y


def modulo3(seed):
    """Two ternary attributes whose sum modulo 3 is the class, 18 random
    ternary ones."""
    problem = modulo(400, 2, 18, p=3, seed=seed)
    return problem.X, problem.y


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("problem", [xor, modulo3])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_the_interacting_pair_ranks_first(method, problem, seed, missing):
    X, y = problem(seed)
    X = X.astype(float)
    assert X.shape == (400, 20)
    X[np.random.default_rng(seed + 100).random(X.shape) < missing] = np.nan
    got = weights(X, y.astype(float), np.ones(20, bool), method=method)
    assert set(np.argsort(-got, kind="stable")[:2]) == {0, 1}


# =================================================================
# Properties
# =================================================================

def bound(method):
    """|W| <= 1: each update is a prior-weighted mean of miss diffs minus a
    mean of hit diffs (RReliefF: a difference of two quotients in [0, 1]),
    diffs in [0, 1], RELIEF-D's too.  The star forms add a second such
    update (SURF*: minus the far one; MultiSURF*: similarities 1 - diff):
    |W| <= 2."""
    return 2.0 if method in STARS else 1.0


property_cases = dict(
    seed=st.integers(0, 2 ** 31 - 1), method=st.sampled_from(METHODS),
    task=st.sampled_from(TASKS), diff=st.sampled_from(["linear", "ramp"]))


@PROPERTIES
@given(**property_cases, classes=st.permutations([0, 1, 2]))
def test_invariances(seed, method, task, diff, classes):
    task, n_classes = task
    X, y, discrete = random_data(seed, n=20, a=4, n_classes=n_classes,
                                 task=task)
    X_before, y_before, discrete_before = X.copy(), y.copy(), discrete.copy()
    options = dict(method=method, task=task, diff=diff)
    got = weights(X, y, discrete, **options)
    # inputs untouched; the same call, the same bits
    assert_array_equal(X, X_before)
    assert_array_equal(y, y_before)
    assert_array_equal(discrete, discrete_before)
    assert_array_equal(got, weights(X, y, discrete, **options))
    assert (np.abs(got) <= bound(method) + 1e-12).all()
    rng = np.random.default_rng(seed)
    # columns permuted: weights permuted
    columns = rng.permutation(X.shape[1])
    assert_allclose(weights(X[:, columns], y, discrete[columns], **options),
                    got[columns], rtol=0, atol=1e-12)
    # rows permuted (every instance a reference): the same weights
    rows = rng.permutation(len(y))
    assert_allclose(weights(X[rows], y[rows], discrete, **options), got,
                    rtol=0, atol=1e-12)
    if task == "classification":  # class codes renamed: the same weights
        renamed = np.array(classes, float)[y.astype(int)]
        assert_allclose(weights(X, renamed, discrete, **options), got,
                        rtol=0, atol=1e-12)


@PROPERTIES
@given(**property_cases)
def test_bounds_on_extreme_data(seed, method, task, diff):
    """Few instances, half the values missing, one attribute deciding the
    class: the bounds still hold."""
    task, n_classes = task
    X, y, discrete = random_data(seed, n=6, a=3, n_classes=n_classes,
                                 missing=0.5, task=task)
    if task == "classification":
        X[:, 0] = y
    got = weights(X, y, discrete, method=method, task=task, diff=diff)
    assert (np.abs(got) <= bound(method) + 1e-12).all()


@pytest.mark.parametrize("method", METHODS)
def test_duplicated_data(method):
    """Each instance and its copy at distance 0: the literal definition on
    the doubled data, on each engine.  The weights are not those of the
    original data: the mean of the pair distances shrinks from T to
    T 2 (n - 1) / (2n - 1) (four copies of each pair and n zeros), so
    SURF's near pairs are the 2n twins and four copies of each original
    ordered pair nearer than that."""
    X, y, _ = random_data(12, n=20, a=4, missing=0.0, grid=True)
    twice, y_twice = np.vstack([X, X]), np.concatenate([y, y])
    expected = ref.surf_family(twice, y_twice, method=method)
    results = on_each_engine(lambda: (
        surf.neighbourhood_sums(twice, y_twice, method=method, stir=True),
        weights(X, y, method=method)))
    n = len(y)
    D = pair_distances(X)
    T = D[np.triu_indices(n, 1)].mean()
    T_twice = pair_distances(twice)[np.triu_indices(2 * n, 1)].mean()
    assert T_twice == pytest.approx(T * 2 * (n - 1) / (2 * n - 1))
    nearer = (D < T_twice).sum() - n  # j != i
    for engine, (doubled, once) in results.items():
        assert_allclose(doubled.weights, expected, rtol=0, atol=1e-9,
                        err_msg=engine)
        assert np.abs(doubled.weights - once).max() > 1e-3, engine
        if method.startswith("surf"):
            assert (doubled.stir.n_hit + doubled.stir.n_miss
                    == 2 * n + 4 * nearer), engine


@each_engine
@pytest.mark.parametrize("method", METHODS)
def test_two_instances_have_no_neighbours(engine, method):
    """With two instances each is the other's only distance: the mean, no
    deviation, so no neighbour and no far instance (strict limits)."""
    X = np.array([[0.0, 1.0], [1.0, 0.5]])
    for y, task in (([0.0, 1.0], "classification"),
                    ([0.0, 1.0], "regression")):
        with forced(engine):
            got = weights(X, np.array(y), method=method, task=task,
                          deviation="sample")
        assert_array_equal(got, [0.0, 0.0])


# =================================================================
# Bad input
# =================================================================

def relieff_message(X, y, discrete=None):
    with pytest.raises(ReliefInputError) as error:
        estimators.relieff(X, y, discrete)
    return str(error.value)


@pytest.mark.parametrize("method", METHODS)
def test_bad_data_as_the_rest_of_the_core(method):
    """The checks of ReliefF's data, with its messages."""
    X, y, discrete = random_data(0)
    infinite = X.copy()
    infinite[3, 0] = np.inf
    text = X.astype(object)
    text[3, 0] = "x"
    bad = {
        "infinite values": (infinite, y, discrete),
        "target contains infinite": (X, np.where(y == 1, np.inf, y),
                                     discrete),
        "2-D": (X[:, 0], y, None),
        "rows but the target": (X, y[:-1], discrete),
        "entries for": (X, y, discrete[:-1]),
        "no attributes": (X[:, :0], y, None),
        "no instances with a known target": (X, np.full(len(y), np.nan),
                                             discrete),
        "single class": (X, np.where(np.arange(len(y)) == 0, 0.0, np.nan),
                         discrete),
        "must be numeric": (text, y, discrete),
    }
    for message, (X_bad, y_bad, discrete_bad) in bad.items():
        expected = relieff_message(X_bad, y_bad, discrete_bad)
        with pytest.raises(ReliefInputError, match=message) as error:
            weights(X_bad, y_bad, discrete_bad, method=method)
        assert str(error.value) == expected


def test_a_single_target_value_in_regression():
    X, y, discrete = random_data(0, task="regression")
    with pytest.raises(ReliefInputError, match="constant"):
        surf.surf(X, np.where(np.arange(len(y)) == 0, y, np.nan), discrete,
                  task="regression")


@pytest.mark.parametrize("option, value, message", [
    ("method", "multi", "method must be one of 'surf', 'surf\\*'"),
    ("deviation", "unbiased", "deviation"),
    ("task", "ranking", "task"),
    ("diff", "cubic", "diff"),
    ("n_iterations", 0, "n_iterations"),
])
def test_bad_options_are_named(option, value, message):
    X, y, discrete = random_data(0)
    with pytest.raises(ReliefInputError, match=message) as error:
        surf.neighbourhood_sums(X, y, discrete, **{option: value})
    assert repr(value) in str(error.value)


def test_stir_needs_classes():
    X, y, discrete = random_data(0, task="regression")
    with pytest.raises(ReliefInputError, match="STIR .* needs classes"):
        surf.neighbourhood_sums(X, y, discrete, task="regression", stir=True)


@pytest.mark.parametrize("function, method", [
    (surf.surf, "surf"), (surf.surfstar, "surf*"),
    (surf.multisurf, "multisurf"), (surf.multisurfstar, "multisurf*")])
def test_the_named_functions_are_their_methods(function, method):
    X, y, discrete = random_data(4, n_classes=3)
    assert_array_equal(function(X, y, discrete, diff="ramp"),
                       weights(X, y, discrete, method=method, diff="ramp"))
