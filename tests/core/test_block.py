"""The helpers of a distance block (core/neighbours/block.py) against ROWS.

numba keeps a block's ROWS values in registers only when they are written
out, so every helper spells out its ROWS terms by hand.  Each test here
calls a helper's pure-Python version (``helper.py_func``) on small arrays
and checks that it handles exactly ROWS rows, each by its formula: a change
of ROWS that leaves a helper behind fails here.
"""
import numpy as np
import pytest

from orangecontrib.relief.core import prepare
from orangecontrib.relief.core.engines.compiled.diffs import for_kernels
from orangecontrib.relief.core.engines.compiled.neighbours import block
from orangecontrib.relief.core.engines.compiled.neighbours.block import (
    ROWS, add_block, add_column, add_column_corrections, add_four,
    add_four_fused, add_four_in_order, add_in_order, add_masked, add_weighted, at,
    block_refs, block_rows, corrected, entries, fill_terms, finish_linear,
    least_terms, least_values, linear_diffs, nominal_terms, numeric_terms,
    padded, plus, put, repeated, row_values, squared, unless_own)
from orangecontrib.relief.core.engines.compiled.neighbours.distance_rows import (
    distance_tile)
from orangecontrib.relief.core.tables import LINEAR, RAMP, SQUARED

F32 = np.float32
N = 3 * ROWS + 2  # instances (columns of the tables)
WIDTH = 5  # columns of a block's output


def block_row_indices(seed=0):
    """ROWS distinct instance indices in no particular order."""
    return np.random.default_rng(seed).permutation(N)[:ROWS].astype(np.int64)


def row_floats(seed):
    """ROWS non-zero float32 values of one attribute, as a helper's tuple."""
    rng = np.random.default_rng(seed)
    return tuple(F32(v) for v in rng.integers(1, 17, ROWS) / 16)


def g(d, kind, t_eq, t_diff):
    """The diff transform of a numeric diff d, from its definition."""
    if kind == SQUARED:
        return d * d
    if kind == RAMP:
        return min(max((d - t_eq) / (t_diff - t_eq), 0.0), 1.0)
    return d


# --------------------------------------------------------- block_rows ----

@pytest.mark.parametrize("first, stop", [(0, N), (4, 4 + ROWS),
                                         (N - ROWS + 1, N), (N - 1, N)])
def test_block_rows_fills_rows_and_pads_with_the_last(first, stop):
    # block_rows of positions, and block_refs of the references at them
    refs = np.random.default_rng(1).permutation(N).astype(np.int64)
    real = min(ROWS, stop - first)
    expected = first + np.minimum(np.arange(ROWS), real - 1)
    for helper, args, values in ((block_rows, (), expected),
                                 (block_refs, (refs,), refs[expected])):
        rows = np.full(ROWS, -7, np.int64)
        assert helper.py_func(*args, first, stop, rows) == real
        np.testing.assert_array_equal(rows, values)
    # padded: the same rows as a tuple
    assert padded.py_func(first, stop) == tuple(expected)


# ---------------------------------------------- one term per block row ----

def _row_values():
    values = np.random.default_rng(1).random((3, N)).astype(F32)
    rows = block_row_indices(1)
    return (values, 2, rows), values[2, rows]


def _nominal_terms():
    x, v, w = (F32(0), F32(2), F32(2), F32(1)) * ROWS, F32(2), F32(1.5)
    x = x[:ROWS]
    return (x, v, w), [w * F32(xr != v) for xr in x]


def _least_terms():
    x, v, w = row_floats(2), F32(0.3125), F32(0.75)
    return (x, v, w), [w * min(xr, v) for xr in x]


def _least_values():
    x, v = row_floats(17), F32(0.5625)
    return (x, v), [min(xr, v) for xr in x]


def _add_weighted():
    s, x, w = row_floats(18), row_floats(19), F32(0.75)
    return (s, x, w), [sr + w * xr for sr, xr in zip(s, x)]


def _linear_diffs():
    x, v = row_floats(8), F32(0.3125)
    return (x, v, F32(-1)), [abs(xr - v) for xr in x]


def _numeric_terms(kind, t_eq=F32(0.0625), t_diff=F32(0.3125)):
    x, v, w = row_floats(3), F32(0.5), F32(2.0)

    def expected():
        return [w * F32(g(float(abs(xr - v)), kind, float(t_eq),
                          float(t_diff))) for xr in x]
    return (x, v, w, kind, t_eq, t_diff), expected()


def _at():
    array = np.random.default_rng(21).random(N)
    rows = block_row_indices(21)
    return (array, rows), array[rows]


def _entries():
    array = np.random.default_rng(22).random((N, WIDTH))
    rows = block_row_indices(22)
    return (array, rows, 3), array[rows, 3]


def _unless_own():
    x, rows = row_floats(23), block_row_indices(23)
    own = 2
    return (x, rows, rows[own]), [-0.0 if r == own else x[r]
                                  for r in range(ROWS)]


def _plus():
    s, x = row_floats(24), row_floats(25)
    return (s, x), [sr + xr for sr, xr in zip(s, x)]


def _squared():
    x = row_floats(26)
    return (x,), [xr * xr for xr in x]


def _fill_terms():
    fill = np.random.default_rng(4).random((2, 3, N)).astype(F32)
    rows = block_row_indices(4)
    w = F32(0.5)
    return (fill, 1, 2, rows, w), w * fill[1, 2, rows]


TERMS = {
    "row_values": (row_values, _row_values),
    "nominal_terms": (nominal_terms, _nominal_terms),
    "least_terms": (least_terms, _least_terms),
    "least_values": (least_values, _least_values),
    "add_weighted": (add_weighted, _add_weighted),
    "linear_diffs": (linear_diffs, _linear_diffs),
    "numeric_terms linear": (numeric_terms, lambda: _numeric_terms(LINEAR)),
    "numeric_terms squared": (numeric_terms,
                              lambda: _numeric_terms(SQUARED)),
    "numeric_terms ramp": (numeric_terms, lambda: _numeric_terms(RAMP)),
    "fill_terms": (fill_terms, _fill_terms),
    "at": (at, _at),
    "entries": (entries, _entries),
    "unless_own": (unless_own, _unless_own),
    "plus": (plus, _plus),
    "squared": (squared, _squared),
}


@pytest.mark.parametrize("name", list(TERMS))
def test_term_helpers_give_one_term_per_block_row(name):
    helper, case = TERMS[name]
    args, expected = case()
    terms = helper.py_func(*args)
    assert isinstance(terms, tuple)
    assert len(terms) == ROWS
    np.testing.assert_allclose(np.array(terms, np.float64),
                               np.array(expected, np.float64),
                               rtol=1e-6, atol=0)


def test_the_cases_differ_per_row():
    """A helper that repeated one row's term would not pass unnoticed."""
    for name, (_, case) in TERMS.items():
        _, expected = case()
        assert len(set(np.array(expected, np.float64).tolist())) > 1, name


def test_repeated_gives_each_block_row_the_value():
    assert repeated.py_func(F32(0.5)) == (F32(0.5),) * ROWS


def test_unless_own_gives_the_own_row_negative_zero():
    # -0.0 leaves every sum as it is, a sum of -0.0 too (+0.0 would not)
    x, rows = (1.0,) * ROWS, block_row_indices(27)
    terms = unless_own.py_func(x, rows, rows[1])
    assert np.signbit(terms[1]) and np.signbit(-0.0 + terms[1])
    assert terms[:1] + terms[2:] == x[1:]


def test_put_writes_the_block_rows_only():
    array = np.zeros(N)
    x = tuple(float(r + 1) for r in range(ROWS))
    put.py_func(array, padded.py_func(3, 3 + ROWS), x)
    expected = np.zeros(N)
    expected[3:3 + ROWS] = x
    np.testing.assert_array_equal(array, expected)
    # a padded block's lanes past its rows hold the last row's value
    array[:] = 0
    x = tuple(float(min(r, 1) + 1) for r in range(ROWS))
    put.py_func(array, padded.py_func(N - 2, N), x)
    expected = np.zeros(N)
    expected[N - 2:] = (1.0, 2.0)
    np.testing.assert_array_equal(array, expected)


@pytest.mark.parametrize("missing", [False, True])
def test_corrected_adds_the_correction_of_a_missing_value(missing):
    assert corrected.py_func(F32(1.5), F32(0.25), missing) == (
        F32(1.75) if missing else F32(1.5))


# ------------------------------------- updates of a block's output rows ----
#
# `out` has two rows more than a block and other columns around the one(s)
# updated: exactly rows 0 .. ROWS - 1 of the updated columns may change.

def _out():
    return np.random.default_rng(5).random((ROWS + 2, WIDTH)).astype(F32)


def _add_block():
    ta, tb = row_floats(6), row_floats(7)
    out, jj = _out(), 3
    expected = out.copy()
    for r in range(ROWS):
        expected[r, jj] += ta[r] + tb[r]
    return out, (out, jj, ta, tb), expected


def _add_four(*one):
    """add_four's case, and add_four_fused's with its 1.0 `one`."""
    ta, tb, tc, td = (row_floats(seed) for seed in (6, 7, 14, 15))
    out, jj = _out(), 0
    expected = out.copy()
    for r in range(ROWS):
        expected[r, jj] += (ta[r] + tb[r]) + (tc[r] + td[r])
    return out, (out, jj, ta, tb, tc, td, *one), expected


def _finish_linear():
    sx, sv = row_floats(20), F32(1.25)
    out, jj = _out(), 2
    expected = out.copy()
    for r in range(ROWS):
        expected[r, jj] = (sx[r] + sv) - 2 * expected[r, jj]
    return out, (out, jj, sx, sv), expected


def _add_column():
    terms = row_floats(11)
    out, jj = _out(), 2
    expected = out.copy()
    for r in range(ROWS):
        expected[r, jj] += terms[r]
    return out, (out, jj, terms), expected


def _add_in_order():
    ta, tb = row_floats(12), row_floats(13)
    out, jj = _out(), 4
    expected = out.copy()
    for r in range(ROWS):
        expected[r, jj] = (expected[r, jj] + ta[r]) + tb[r]
    return out, (out, jj, ta, tb), expected


def _add_four_in_order():
    ta, tb, tc, td = (row_floats(seed) for seed in (27, 28, 29, 30))
    out, jj = _out(), 1
    expected = out.copy()
    for r in range(ROWS):
        expected[r, jj] = (((expected[r, jj] + ta[r]) + tb[r]) + tc[r]) + td[r]
    return out, (out, jj, ta, tb, tc, td), expected


def _add_masked(ma, mb):
    ca, cb = row_floats(8), row_floats(9)
    out, jj = _out(), 1
    expected = out.copy()
    for r in range(ROWS):
        expected[r, jj] = (expected[r, jj] + (ca[r] if ma else 0)
                           + (cb[r] if mb else 0))
    return out, (out, jj, ca, ma, cb, mb), expected


def _add_column_corrections():
    i0, jj0, width = 2, 4, 3
    rows = i0 + block_row_indices(10) % (N - i0)
    ct = np.random.default_rng(10).random((jj0 + width + 2, N)).astype(F32)
    out = _out()
    expected = out.copy()
    for r in range(ROWS):
        for jj in range(width):
            expected[r, jj] += ct[jj0 + jj, rows[r] - i0]
    return out, (out, ct, rows, i0, jj0, width), expected


UPDATES = {
    "add_block": (add_block, _add_block),
    "add_four": (add_four, _add_four),
    "add_four_fused": (add_four_fused, lambda: _add_four(F32(1))),
    "finish_linear": (finish_linear, _finish_linear),
    "add_column": (add_column, _add_column),
    "add_in_order": (add_in_order, _add_in_order),
    "add_four_in_order": (add_four_in_order, _add_four_in_order),
    "add_masked neither": (add_masked, lambda: _add_masked(False, False)),
    "add_masked first": (add_masked, lambda: _add_masked(True, False)),
    "add_masked second": (add_masked, lambda: _add_masked(False, True)),
    "add_masked both": (add_masked, lambda: _add_masked(True, True)),
    "add_column_corrections": (add_column_corrections,
                               _add_column_corrections),
}


@pytest.mark.parametrize("name", list(UPDATES))
def test_updates_change_exactly_the_block_rows(name):
    helper, case = UPDATES[name]
    out, args, expected = case()
    before = out.copy()
    helper.py_func(*args)
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=0)
    # rows past the block are never touched
    np.testing.assert_array_equal(out[ROWS:], before[ROWS:])
    if not name.endswith("neither"):
        changed = (out != before).any(axis=1)
        assert changed[:ROWS].all()


@pytest.mark.parametrize("helper, terms", [(add_in_order, 2),
                                           (add_four_in_order, 4)])
def test_in_order_helpers_add_the_first_term_first(helper, terms):
    # (1 + u) + u rounds to 1 twice, 1 + (u + u) does not (u = 2 ** -53):
    # the exact distances add attribute by attribute, compiled too
    u = 2.0 ** -53
    for add in (helper.py_func, helper):
        out = np.ones((ROWS, 1))
        add(out, 0, *[(u,) * ROWS] * terms)
        assert (out == 1.0).all() and 1.0 + (u + u) != 1.0


# ----------------------------------------------------------------- all ----

def test_every_helper_of_the_module_is_checked():
    tested = {helper for helper, _ in (*TERMS.values(), *UPDATES.values())}
    tested |= {block_refs, block_rows, corrected, padded, put, repeated}
    helpers = {obj for obj in vars(block).values()
               if getattr(obj, "py_func", None) is not None
               and obj.py_func.__module__ == block.__name__}
    assert helpers == tested


# ------------------------------------------------- a tile's distances ----

#: attribute layouts of a tile: numeric ones four at a time (with a
#: remainder of 3, 2 or 1), nominal pairs between them, a lone numeric or
#: nominal one, and a transformed diff, which takes no run of four
TILE_LAYOUTS = {
    "numeric, four and three": ("linear", [False] * 7),
    "numeric, four twice": ("linear", [False] * 8),
    "numeric, lone": ("linear", [False]),
    "mixed": ("linear", [False, True, True, False, False, False, False,
                         True, False, False, True]),
    "ramp": ("ramp", [False] * 6 + [True, True]),
}


@pytest.mark.parametrize("layout, dtype", [
    *((layout, np.float64) for layout in TILE_LAYOUTS),
    ("numeric, four and three", np.float32),
    ("numeric, four twice", np.float32)])
def test_distance_tile_adds_the_attributes_in_their_order(layout, dtype):
    """Whatever the runs of attributes a pass takes, and with the
    subtractions on the multiply-add units, each distance is the bits of
    the diffs added one at a time in column order (the exact distance);
    a screen's float32 numeric tables likewise in float32."""
    diff, nominal = TILE_LAYOUTS[layout]
    rng = np.random.default_rng(len(nominal))
    n = 40
    X = rng.random((n, len(nominal)))
    X[:, nominal] = rng.integers(0, 3, (n, sum(nominal)))
    X[3] = X[5]  # a pair at distance 0
    data = prepare(X, rng.integers(0, 2, n).astype(float),
                   np.array(nominal), diff=diff, search=False)
    exact = for_kernels(data.exact)
    values = np.ascontiguousarray(exact.values, dtype=dtype)
    rows = np.array([5, 0, 17, 3], np.int64)
    out = np.full((ROWS, block.BLOCK), np.nan, dtype)
    distance_tile(values, exact, rows, ROWS, out, 2, n - 2)
    for r, i in enumerate(rows):
        for j in range(2, n):
            expected = dtype(0)
            for a in range(len(nominal)):
                x, v = values[a, i], values[a, j]
                term = dtype(x != v) if nominal[a] else g(
                    abs(x - v), exact.kind, exact.t_eq, exact.t_diff)
                expected = dtype(expected + term)
            assert out[r, j - 2] == expected, (r, j)
