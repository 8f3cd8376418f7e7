"""The float32 neighbour search returns the neighbours of exact arithmetic.

The search ranks candidates in float32 and ranks list_width(k) of them
in float64 with a proven error bound (engines/compiled/neighbours/
exact_ranking.py), searching a reference again where a tie or a near tie
runs past its candidates; these tests build near ties float32 cannot
resolve and ties longer than the candidates, and compare with a float64
brute force under both tie rules.
"""
import numba
import numpy as np
import pytest

from orangecontrib.relief.core import prepare
from orangecontrib.relief.core.engines.compiled.diffs import for_kernels
from orangecontrib.relief.core.engines.compiled.neighbours import (
    find_neighbours)
from orangecontrib.relief.core.engines.compiled.neighbours.block import (
    BLOCK, ROWS)
from orangecontrib.relief.core.engines.compiled.neighbours.search import (
    EXTRA, _all_pairs, list_width)
from orangecontrib.relief.core.engines.compiled.neighbours.distances import (
    column_sums, distance_rows)
from orangecontrib.relief.core.engines.compiled.neighbours.exact_ranking import (
    exact_distance, exact_in_float32, float32_error_bound,
    float32_order_is_exact, grid_scale)
from orangecontrib.relief.core.engines.compiled.neighbours.topk import (
    unpack_keys)

TIES = ("share", "lower-index")


def listed(d, members, k, ties):
    """The `members` listed by their distances `d`: sorted by (distance,
    index), the first k, and with "share" every one as near as the k-th."""
    order = sorted(members, key=lambda j: (d[j], j))
    count = min(k, len(order))
    if ties == "share":
        while count and count < len(order) and d[order[count]] == d[
                order[count - 1]]:
            count += 1
    return order[:count]


def brute_force(X, y, k, discrete=None, ties="lower-index"):
    """Every reference's list of each class (exact float64 distances,
    numeric diffs scaled by the column's range): [[list of class g] of
    reference i]."""
    X = np.asarray(X, float)
    span = X.max(0) - X.min(0)
    span[span == 0] = 1
    scaled = (X - X.min(0)) / span
    classes = np.unique(y)
    result = []
    for i in range(len(X)):
        d = np.abs(scaled - scaled[i])
        if discrete is not None:
            d[:, discrete] = (X[:, discrete] != X[i, discrete])
        d = d.sum(axis=1)
        result.append([listed(d, [j for j in np.flatnonzero(y == c)
                                  if j != i], k, ties) for c in classes])
    return result


def lists_of(data, refs, k, ties="lower-index"):
    """The compiled search's lists of `refs`: [[list of class g] of
    reference r]."""
    found = find_neighbours(data, refs, k, ties=ties).whole()
    return [[found.indices(r, g).tolist() for g in range(data.n_groups)]
            for r in range(len(refs))]


def float32_row(search, weights, p, row):
    """row[q]: the float32 search distance of search positions p and q, by
    the search's kernels."""
    n = search.values.shape[1]
    rows = np.full(ROWS, p, np.int64)
    out, sums = np.empty((ROWS, BLOCK), np.float32), np.empty(BLOCK,
                                                              np.float32)
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        column_sums(search, weights, j0, width, sums)
        distance_rows(search, weights, rows, j0, width, out, sums, True)
        row[j0:j0 + width] = out[0, :width]


def test_a_gap_below_float32_resolution_is_resolved_exactly():
    # instance 1 is farther from instance 0 than instance 2 by 1e-9, which
    # float32 cannot see (its spacing at 0.3 is 3e-8): a float32 search
    # would call them tied and take the lower index, 1
    X = np.array([[0.0], [0.3 + 1e-9], [0.3], [1.0], [0.9]])
    y = np.array([0, 0, 0, 1, 1])
    data = prepare(X, y)
    assert np.float32(X[1, 0]) == np.float32(X[2, 0])
    assert lists_of(data, np.array([0]), 1)[0][0] == [2]


@pytest.mark.parametrize("ties", TIES)
def test_near_ties_beyond_the_extra_candidates_are_searched_again(ties):
    # more near-tied candidates than the list holds: it must still be exact
    n_tied = list_width(10) + 2 * EXTRA
    rng = np.random.default_rng(5)
    offsets = rng.permutation(n_tied) * 1e-10
    X = np.concatenate([[[0.0]], 0.5 + offsets[:, None], [[1.0]], [[0.95]]])
    y = np.array([0] * (n_tied + 1) + [1, 1])
    data = prepare(X, y)
    assert_equal_lists(lists_of(data, np.arange(len(X)), 10, ties),
                       brute_force(X, y, 10, ties=ties))


@pytest.mark.parametrize("discrete", [True, False])
def test_a_tie_longer_than_the_candidates_is_listed_whole(discrete):
    """40 instances at one distance from the reference, list_width(10)
    candidates: the search again, with more candidates, lists them all,
    nominal (exact float32 distances) or numeric (a bound to respect)."""
    X = np.array([[0.0, 0.0]] + [[1.0, 0.0]] * 40 + [[1.0, 1.0]] * 5
                 + [[0.0, 1.0], [1.0, 1.0]])
    y = np.array([0] * 46 + [1, 1])
    data = prepare(X, y, np.array([discrete] * 2))
    found = find_neighbours(data, np.array([0]), 10).whole()
    assert sorted(found.indices(0, 0).tolist()) == list(range(1, 41))
    np.testing.assert_array_equal(found.share[:40], 10 / 40)
    assert found.indices(0, 1).tolist() == [46, 47]


def assert_equal_lists(got, expected):
    mismatched = [(r, g) for r, lists in enumerate(got)
                  for g, found in enumerate(lists)
                  if found != expected[r][g]]
    assert not mismatched, f"lists differ at (reference, class) {mismatched[:5]}"


@pytest.mark.parametrize("n, a, k", [(600, 120, 10), (400, 40, 3)])
def test_random_data_matches_brute_force(n, a, k):
    rng = np.random.default_rng(n)
    X = rng.random((n, a))
    y = rng.integers(0, 3, n)
    assert_equal_lists(lists_of(prepare(X, y), np.arange(n), k),
                       brute_force(X, y, k))


@pytest.mark.parametrize("ties", TIES)
def test_integer_valued_and_nominal_data_with_many_ties(ties):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, (300, 8)).astype(float)
    discrete = np.zeros(8, bool)
    discrete[:4] = True
    y = rng.integers(0, 2, 300)
    data = prepare(X, y, discrete)
    assert_equal_lists(lists_of(data, np.arange(300), 10, ties),
                       brute_force(X, y, 10, discrete, ties))


def without_distances_cases():
    """(X, y, discrete) of each kind of list: continuous data (lists the
    float32 order proves), rows repeated exactly or within 1e-7 (near ties
    and ties inside the lists, ranked by their exact distances), near ties
    searched again, genotypes (exact float32 distances, tied)."""
    rng = np.random.default_rng(9)
    n_tied = list_width(10) + 2 * EXTRA
    near = 0.5 + rng.permutation(n_tied)[:, None] * 1e-10
    genotypes = rng.integers(0, 3, (200, 6)).astype(float)
    repeated = rng.random((60, 5))[rng.integers(0, 60, 300)]
    repeated[::2] += rng.random((150, 5)) * 1e-7
    return {
        "continuous": (rng.random((300, 7)), rng.integers(0, 3, 300), None),
        "repeated rows": (repeated, rng.integers(0, 2, 300), None),
        "near ties": (np.concatenate([[[0.0]], near, [[1.0]], [[0.95]]]),
                      np.array([0] * (n_tied + 1) + [1, 1]), None),
        "genotypes": (genotypes, rng.integers(0, 2, 200), None),
    }


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("case", list(without_distances_cases()))
def test_lists_without_distances_are_the_same_lists(case, ties):
    """A caller that reads no distance (ReliefF's rule) gets the same
    instances and places; only the distances of lists the float32 search
    proves (no tie among them) are left NaN."""
    X, y, discrete = without_distances_cases()[case]
    data = prepare(X, y, discrete)
    refs = np.arange(len(X))
    full = find_neighbours(data, refs, 10, ties=ties).whole()
    lean = find_neighbours(data, refs, 10, ties=ties,
                           distances=False).whole()
    for field in ("offsets", "index", "share", "first", "tied"):
        np.testing.assert_array_equal(getattr(lean, field),
                                      getattr(full, field))
    unknown = np.isnan(lean.distance)
    assert not np.isnan(full.distance).any()
    np.testing.assert_array_equal(lean.distance[~unknown],
                                  full.distance[~unknown])
    assert (lean.tied[unknown] == 1).all()
    # the search proves most lists of continuous data; it ranks near ties
    # again, exactly; genotypes' float32 distances are exact
    assert {"continuous": unknown.any(), "near ties": (~unknown).any(),
            "repeated rows": unknown.any() and (~unknown).any(),
            "genotypes": not unknown.any()}[case]


@pytest.mark.parametrize("n_classes, diff, ties", [
    (2, "linear", "lower-index"), (3, "linear", "share"),
    (3, "ramp", "share")])
def test_missing_values_lists_match_exact_relief_d_distances(n_classes, diff,
                                                             ties):
    # the search corrects a missing value (stored as 0) per run of a class
    # and adds the rows' own RELIEF-D diffs separately; the lists must be
    # those of the float64 distance with RELIEF-D diffs, ties by index
    rng = np.random.default_rng(11 + n_classes)
    n, a, k = 300, 9, 5
    X = rng.random((n, a))
    X[:, :3] = rng.integers(0, 3, (n, 3))
    X[rng.random(X.shape) < 0.15] = np.nan
    discrete = np.arange(a) < 3
    y = np.sort(rng.integers(0, n_classes, n))[rng.permutation(n)]
    data = prepare(X, y, discrete, diff=diff)
    ones = np.ones(a)
    expected = []
    exact = for_kernels(data.exact)
    for i in range(n):
        d = [exact_distance(exact, ones, i, j) for j in range(n)]
        expected.append([
            listed(d, [j for j in np.flatnonzero(data.groups == g) if j != i],
                   k, ties) for g in range(n_classes)])
    assert_equal_lists(lists_of(data, np.arange(n), k, ties), expected)


def test_float32_order_is_trusted_only_with_gaps_over_twice_the_bound():
    dist = np.array([0.1, 0.2, 0.2 + 1e-6, 0.5], np.float32)
    # the first two gaps decide a top-2 list: 0.1 and ~1e-6
    assert float32_order_is_exact(dist, 4, 1, 1e-3)
    assert not float32_order_is_exact(dist, 4, 2, 1e-3)
    assert float32_order_is_exact(dist, 4, 2, 1e-8)
    # a group that ran out: nothing beyond the found candidates to compare
    assert float32_order_is_exact(dist, 1, 3, 1.0)
    # delta == 0: float32 is exact and the search broke ties by index
    assert float32_order_is_exact(np.zeros(4, np.float32), 4, 3, 0.0)


@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_one_thread_and_all_threads_find_the_same_lists(missing):
    # the all-pairs search runs tiles in parallel rounds; whatever the
    # schedule, the lists are those of a single thread
    rng = np.random.default_rng(3)
    X = rng.random((900, 12))
    X[rng.random(X.shape) < missing] = np.nan
    y = rng.integers(0, 3, 900)
    data = prepare(X, y)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = find_neighbours(data, np.arange(900), 7).whole()
    finally:
        numba.set_num_threads(threads)
    assert find_neighbours(data, np.arange(900), 7).whole().equals(single)


def largest_float32_error(data, weights):
    """The largest |float32 search distance - exact distance| over all
    pairs of `data`'s instances (float32_row against exact_distance)."""
    n, order = len(data.search_order), data.search_order
    row, largest = np.empty(n, np.float32), 0.0
    for p in range(n):
        float32_row(data.search, weights, p, row)
        exact = [exact_distance(for_kernels(data.exact), weights.astype(float),
                                order[p], order[q]) for q in range(n)]
        largest = max(largest, np.abs(row - exact).max())
    return largest


def genotypes(rng, n, a):
    """SNPs coded 0, 1, 2 (scaled to 0, 1/2 and 1)."""
    return rng.integers(0, 3, (n, a)).astype(float)


def off_the_grid(rng, n, a):
    """Genotypes with one value 1e-12 above a code: float32 rounds it onto
    the grid, float64 keeps it off."""
    X = genotypes(rng, n, a)
    X[3, 1] = 1 + 1e-12
    return X


#: (data, discrete columns, weights, missing, whether every float32
#: distance is the exact one)
GRID_CASES = {
    "genotypes": (genotypes, 0, 1, 0.0, True),
    "binary columns": (lambda rng, n, a: rng.integers(0, 2, (n, a)), 0, 1,
                       0.0, True),
    "genotypes beside nominal columns": (genotypes, 3, 1, 0.0, True),
    "genotypes, integer weights up to 3": (
        genotypes, 0, lambda rng, a: rng.integers(0, 4, a), 0.0, True),
    "codes 0-3 (thirds, off every grid)": (
        lambda rng, n, a: rng.integers(0, 4, (n, a)), 0, 1, 0.0, False),
    "one value just off the grid": (off_the_grid, 0, 1, 0.0, False),
    "genotypes, a weight of one half": (
        genotypes, 0, lambda rng, a: np.r_[0.5, np.ones(a - 1)], 0.0, False),
    "genotypes with missing values": (genotypes, 0, 1, 0.05, False),
    "measured values": (lambda rng, n, a: rng.random((n, a)), 0, 1, 0.0,
                        False),
}


@pytest.mark.parametrize("case", GRID_CASES)
def test_values_on_a_grid_of_halves_have_exact_float32_distances(case):
    """Integer weights over values on a grid of 1 / 2^s (genotypes, binary
    columns) give float32 distances that are the exact ones, which the
    lists are then read off; anything off the grid is ranked again."""
    make, n_nominal, weighting, missing, expected = GRID_CASES[case]
    rng = np.random.default_rng(7)
    n, a = 70, 12
    X = np.asarray(make(rng, n, a), float)
    X[rng.random(X.shape) < missing] = np.nan
    y = rng.integers(0, 2, n)
    data = prepare(X, y, np.arange(a) < n_nominal)
    weights = np.asarray(weighting(rng, a) if callable(weighting)
                         else np.full(a, weighting), np.float32)
    assert exact_in_float32(data.search, weights, grid_scale(
        data.exact.values, data.search.nominal)) == expected
    if expected:
        assert largest_float32_error(data, weights) == 0


def ramp(diff):
    """The ramp's thresholds, given only to the ramp (the others refuse
    them)."""
    return dict(t_eq=0.05, t_diff=0.3) if diff == "ramp" else {}


@pytest.mark.parametrize("diff", ["linear", "squared", "ramp"])
@pytest.mark.parametrize("seed", range(3))
def test_float32_distances_stay_within_the_error_bound(diff, seed):
    # the bound the re-ranking relies on, for every pair: mixed nominal and
    # numeric columns, 20 % missing values, and weights with zeros and
    # negative values (dReliefF without clipping searches with those)
    rng = np.random.default_rng(seed)
    n, a = 60, 9
    X = rng.random((n, a))
    X[:, :3] = rng.integers(0, 3, (n, 3))
    X[rng.random(X.shape) < 0.2] = np.nan
    y = rng.integers(0, 3, n).astype(float)
    data = prepare(X, y, np.arange(a) < 3, diff=diff, **ramp(diff))
    weights = rng.normal(0.5, 1.0, a).astype(np.float32)
    weights[[2, 5]] = 0
    bound = float32_error_bound(data.search, weights)
    assert 0 < bound < 1e-4
    assert largest_float32_error(data, weights) <= bound


def test_linear_distances_of_many_values_near_1_stay_within_the_bound():
    # x + v - 2 min(x, v) cancels most where the values are large and
    # close: 200 attributes near the top of their range, weights up to 3
    rng = np.random.default_rng(9)
    n, a = 40, 200
    X = 1 - 1e-3 * rng.random((n, a))
    X[0] = 0  # each column's range is [0, 1]
    y = rng.integers(0, 2, n).astype(float)
    data = prepare(X, y)
    weights = rng.uniform(0.5, 3, a).astype(np.float32)
    weights[::7] = 1
    bound = float32_error_bound(data.search, weights)
    assert largest_float32_error(data, weights) <= bound


@pytest.mark.parametrize("diff", ["linear", "ramp"])
def test_all_pairs_float32_distances_stay_within_the_error_bound(diff):
    # the search of all pairs sums a tile's missing-value corrections of
    # its columns once and adds them transposed (column_corrections): two
    # tiles of BLOCK (diagonal, off-diagonal, a partial one), lists as long
    # as the groups, so that every pair's float32 distance is kept
    rng = np.random.default_rng(5)
    n, a, n_groups = BLOCK + 44, 7, 2
    X = rng.random((n, a))
    X[:, :2] = rng.integers(0, 3, (n, 2))
    X[rng.random(X.shape) < 0.2] = np.nan
    y = rng.integers(0, n_groups, n).astype(float)
    data = prepare(X, y, np.arange(a) < 2, diff=diff, **ramp(diff))
    weights = rng.normal(0.5, 1.0, a).astype(np.float32)
    weights[3] = 0
    keys = _all_pairs(data.search, weights, n, n_groups, None)
    index = np.empty(keys.shape, np.int64)
    dist = np.empty(keys.shape, np.float32)
    unpack_keys(keys, data.search_order, index, dist)
    bound = float32_error_bound(data.search, weights)
    compared = 0
    for row in range(n * n_groups):
        i = data.search_order[row // n_groups]
        for j, d in zip(index[row], dist[row]):
            if j < n:
                exact = exact_distance(for_kernels(data.exact),
                                       weights.astype(float), i, j)
                assert abs(d - exact) <= bound
                compared += 1
    assert compared == n * (n - 1)


@pytest.mark.parametrize("m", [1, 5, 13, 70])
def test_references_grouped_over_the_instances_find_the_same_lists(m):
    """Every group size (references sharing a pass over the instances)
    gives the lists of one reference block at a time."""
    from orangecontrib.relief.core.engines.compiled.neighbours.references import (
        group_size, search_references)
    from orangecontrib.relief.core.engines.compiled.neighbours.topk import (
        empty_keys)
    from orangecontrib.relief.core.prepare import prepare
    rng = np.random.default_rng(m)
    X = rng.random((700, 6))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, 3, 700).astype(float)
    data = prepare(X, y, engine="compiled")
    refs = rng.integers(0, 700, m)
    weights = np.ones(6, np.float32)
    lists = []
    for group in (4, 8, 64, group_size(m)):
        keys = empty_keys((m * 3, 9), 700)
        search_references(data.search, weights, refs, keys, group, 700)
        lists.append(keys)
    for keys in lists[1:]:
        np.testing.assert_array_equal(keys, lists[0])


@pytest.mark.parametrize("weights", [np.ones(7), [1, 1, 0.5, 1, 2, 1, 1],
                                     [1, 0.5, 1, 1, 1, 0, 3]])
def test_linear_diffs_sum_as_x_plus_v_minus_twice_the_least(weights):
    # sum_A w_A |x_A - v_A| = sum w x + sum w v - 2 sum w min(x, v), the
    # float32 sums in attribute order, the mins four attributes at a time
    # (the attributes of weight 0 left out, the last four padded with
    # weight 0); four of weight 1 skip the multiply: the same floats
    from orangecontrib.relief.core.engines.compiled.neighbours.distances import (
        column_sums, distance_rows)
    rng = np.random.default_rng(8)
    n = 300
    data = prepare(rng.random((n, 7)), rng.integers(0, 2, n).astype(float))
    values, w = data.search.values, np.asarray(weights, np.float32)
    rows = np.arange(ROWS, dtype=np.int64) * 7
    out, sums = np.empty((ROWS, BLOCK), np.float32), np.empty(BLOCK, np.float32)
    column_sums(data.search, w, 0, BLOCK, sums)
    distance_rows(data.search, w, rows, 0, BLOCK, out, sums, True)
    used = list(np.flatnonzero(w))
    used += [used[0]] * (-len(used) % 4)
    weight = [w[a] for a in used[:np.count_nonzero(w)]]
    weight += [np.float32(0)] * (len(used) - len(weight))
    sx = np.zeros((ROWS, 1), np.float32)
    sv = np.zeros(BLOCK, np.float32)
    least = np.zeros((ROWS, BLOCK), np.float32)
    for q in range(0, len(used), 4):
        terms = [weight[q + t] * np.minimum(values[used[q + t], rows, None],
                                            values[used[q + t], :BLOCK])
                 for t in range(4)]
        least += (terms[0] + terms[1]) + (terms[2] + terms[3])
        for t in range(4):
            sx += weight[q + t] * values[used[q + t], rows, None]
    for a in np.flatnonzero(w):
        sv += w[a] * values[a, :BLOCK]
    np.testing.assert_array_equal(sums, sv)
    np.testing.assert_array_equal(out, (sx + sv) - (least + least))
    exact = np.abs(values[:, rows, None] - values[:, None, :BLOCK])
    np.testing.assert_allclose(out, np.tensordot(w, exact, 1), atol=1e-5)


@pytest.mark.parametrize("weights", ["ones", "zeros", "negative"])
@pytest.mark.parametrize("missing", [False, True])
def test_sampled_search_keeps_the_k_least_float32_keys(weights, missing):
    """The lists of given references are the k least (ordered distance
    bits, position) of each group, the reference left out, for weights of
    1, with zeros, and of both signs (whose negative distances order
    below +0), with ties, nominal columns and missing values."""
    from orangecontrib.relief.core.engines.compiled.neighbours.search import (
        _references)
    from orangecontrib.relief.core.engines.compiled.neighbours.topk import (
        INF_BITS, candidate_key, order_bits)
    rng = np.random.default_rng(7)
    n, a, k = 300, 7, 12
    X = rng.random((n, a))
    X[:, :2] = rng.integers(0, 3, (n, 2))
    X[:, 4] = np.round(X[:, 4], 1)  # ties
    if missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    y = rng.integers(0, 3, n).astype(float)
    data = prepare(X, y, np.arange(a) < 2)
    w = {"ones": np.ones(a), "zeros": np.r_[1, 0, 1, 1, 0.5, 1, 2],
         "negative": rng.normal(0.5, 1.0, a)}[weights].astype(np.float32)
    positions = rng.choice(n, 40, replace=False)
    keys = _references(data.search, w, positions, k, data.n_groups, None)
    groups = data.search.groups
    for r, p in enumerate(positions):
        row = np.empty(n, np.float32)
        float32_row(data.search, w, p, row)
        bits = row.reshape(1, -1).view(np.uint32).copy()
        order_bits(bits, n)
        for g in range(data.n_groups):
            members = [q for q in range(n) if groups[q] == g and q != p]
            expected = sorted(candidate_key(bits[0, q], q)
                              for q in members)[:k]
            expected += [candidate_key(INF_BITS, n)] * (k - len(expected))
            assert keys[r * data.n_groups + g].tolist() == expected
