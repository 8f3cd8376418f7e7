"""Data read as they are (core.compact): narrow arrays, sparse matrices
and column-block sources give every variant the weights of the same data
in float64, to the bit, on each engine, never changed and never widened
as a whole."""
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

from orangecontrib.relief.core import columns as source_protocol
from orangecontrib.relief.core.columns import ArrayColumns
from orangecontrib.relief.core.compact import distances as compact_distances
from orangecontrib.relief.core.compact import planes as compact_planes
from orangecontrib.relief.core.compact import store as compact_store
from orangecontrib.relief.core.compact.data import read
from orangecontrib.relief.core.compact.planes import fits_planes
from orangecontrib.relief.core.engines import ENGINES, forced
from orangecontrib.relief.core.engines.compiled.neighbours import (
    wide as compiled_wide)
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.prepare import prepare
from orangecontrib.relief.core.registry import WITHIN_DISTANCE
from orangecontrib.relief.core.variants.estimators import relieff, rrelieff
from orangecontrib.relief.core.variants.surf import multisurf
from orangecontrib.relief.core.tables import LINEAR
from orangecontrib.relief.core.values import ALIGNMENT
from orangecontrib.relief.core.variants.turf import turf, turf_relieff
from tests.core.engines import each_engine
from tests.variants import each_variant_task, matrix_options, rng_of

N, A = 36, 150


def genotypes(rng):
    """0/1/2 as int8, with a constant column, one of 0 and 1 only and one
    of 1 and 2 only (ranges 0, 1, 1: their diffs in halves differ)."""
    X = rng.integers(0, 3, (N, A)).astype(np.int8)
    X[:, 3] = 1
    X[:, 4] = rng.integers(0, 2, N)
    X[:, 5] = rng.integers(1, 3, N)
    return X, X.astype(float), None


def presence(rng):
    X = rng.random((N, A)) < 0.3
    return X, X.astype(float), None


def nominal_codes(rng):
    """uint8: every third column a nominal code 0 .. 3, the others
    numeric 0 .. 2 (bit planes of both kinds)."""
    X = rng.integers(0, 3, (N, A)).astype(np.uint8)
    discrete = np.arange(A) % 3 == 0
    X[:, discrete] = rng.integers(0, 4, (N, discrete.sum()))
    return X, X.astype(float), discrete


def wide_integers(rng):
    """int16 of a range of 9 (no bit planes), some columns nominal."""
    X = rng.integers(-4, 6, (N, A)).astype(np.int16)
    discrete = np.arange(A) % 5 == 0
    X[:, discrete] = np.abs(X[:, discrete])
    return X, X.astype(float), discrete


def expression(rng):
    """float32 with missing values (NaN) and a nominal column."""
    X = rng.normal(size=(N, A)).astype(np.float32)
    X[:, 0] = rng.integers(0, 3, N)
    X[rng.random((N, A)) < 0.05] = np.nan
    discrete = np.arange(A) == 0
    return X, X.astype(float), discrete


def sparse_counts(rng):
    """CSR float32 counts, a column stored whole (its least value above
    0: a zero scales to below 0), one with negative values, a nominal
    one."""
    dense = np.where(rng.random((N, A)) < 0.2,
                     rng.integers(1, 30, (N, A)), 0).astype(np.float32)
    dense[:, 1] = rng.integers(3, 9, N)
    dense[:, 2] = np.where(rng.random(N) < 0.5, -rng.integers(1, 5, N), 0)
    dense[:, 7] = np.where(rng.random(N) < 0.4, rng.integers(1, 3, N), 0)
    discrete = np.arange(A) == 7
    return sp.csr_matrix(dense), dense.astype(float), discrete


def missing_code(rng):
    """A column-block source of int8 genotypes whose missing value is
    -127 (bed-reader's), read as NaN by the float64 path."""
    X = rng.integers(0, 3, (N, A)).astype(np.int8)
    X[rng.random((N, A)) < 0.05] = -127
    return (ArrayColumns(X, missing_code=-127),
            np.where(X == -127, np.nan, X.astype(float)), None)


KINDS = {"int8 genotypes": genotypes, "bool presence": presence,
         "uint8 nominal codes": nominal_codes,
         "int16 wide integers": wide_integers,
         "float32 expression": expression, "sparse counts": sparse_counts,
         "a source with a missing code": missing_code}


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 64 columns: every call joins several."""
    monkeypatch.setattr(compact_store, "BLOCK_COLUMNS", 64)
    monkeypatch.setattr(compact_planes, "PLANE_COLUMNS", 64)
    monkeypatch.setattr(compiled_wide, "SWEEP_COLUMNS", 64)


def target(rng, task):
    return (rng.integers(0, 3, N).astype(float) if task == "classification"
            else rng.random(N))


def snapshot(X):
    """What `X` holds, to tell whether a call changed it."""
    if sp.issparse(X):
        return X.data.copy(), X.indices.copy(), X.indptr.copy()
    if isinstance(X, ArrayColumns):
        return (X.X.copy(),)
    return (X.copy(),)


#: the kinds of data that fit bit planes, and the variants whose rule
#: counts their classes' sums over neighbourhoods on them
#: (core.compact.hoods.counted_rule): on either engine, the numpy
#: engine's weights
PLANE_KINDS = ("int8 genotypes", "bool presence", "uint8 nominal codes")
COUNTED = ("SURF", "SURF*", "MultiSURF", "MultiSURF*", "TuRF")


def float64_engine(variant, task, kind, engine):
    """The engine whose float64 weights compact data give on `engine`:
    the numpy engine where the classes' sums are counted; `engine` for
    the neighbourhoods within a distance (the engines' float64 weights
    agree to rounding only: tests/core/test_engine_agreement.py); else
    either, the compiled one (they agree to the bit)."""
    if (variant.name in COUNTED and task == "classification"
            and kind in PLANE_KINDS):
        return "vectorised"
    return engine if variant.neighbourhood == WITHIN_DISTANCE else "compiled"


@pytest.mark.parametrize("kind", KINDS)
@each_variant_task
def test_compact_input_gives_the_float64_weights(variant, task, kind,
                                                 small_blocks):
    """Every variant on every kind of compact data, on each engine: the
    weights of the data given in float64 (:func:`float64_engine`, each
    computed once), bit for bit, the input unchanged."""
    rng = rng_of(variant.name, task, kind)
    X, dense, discrete = KINDS[kind](rng)
    y = target(rng, task)
    if variant.n_classes:
        y = y % variant.n_classes
    options = matrix_options(variant, k_nearest=3)
    expected = {}
    for engine in ENGINES:
        dense_engine = float64_engine(variant, task, kind, engine)
        if dense_engine not in expected:
            with forced(dense_engine):
                expected[dense_engine] = variant.weights(
                    dense, y, discrete, task=task, **options)
        before = snapshot(X)
        with forced(engine):
            got = variant.weights(X, y, discrete, task=task, **options)
        assert_array_equal(got, expected[dense_engine], err_msg=(
            f"compact data on the {engine} engine, float64 data on the "
            f"{dense_engine} engine"))
        for old, new in zip(before, snapshot(X)):
            assert_array_equal(old, new, err_msg=(
                f"the {engine} engine changed compact data"))


@pytest.mark.parametrize("kind", KINDS)
@each_engine
def test_sampled_references_and_distance_weights(engine, kind, small_blocks):
    """ReliefF with sampled references and with distance weights (which
    take compact data off the bit planes) gives the float64 weights."""
    rng = rng_of("sampled", kind)
    X, dense, discrete = KINDS[kind](rng)
    y = target(rng, "classification")
    weights = np.linspace(0, 2, A)
    with forced(engine):
        for options in (dict(n_iterations=11), dict(distance_weights=weights),
                        dict(n_iterations=11, distance_weights=weights)):
            assert_array_equal(relieff(X, y, discrete, k_nearest=4, **options),
                               relieff(dense, y, discrete, k_nearest=4,
                                       **options))


def with_twins(X, dense):
    """X and its float64 copy with rows 1 .. 5 copies of row 0 and rows
    7 .. 9 of row 6 (their classes differ): lists that tie at the k-th
    distance."""
    rows = np.arange(N)
    rows[1:6], rows[7:10] = 0, 6
    if isinstance(X, ArrayColumns):
        return ArrayColumns(X.X[rows], missing_code=X.missing_code), \
            dense[rows]
    return X[rows], dense[rows]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("ties", ["share", "lower-index"])
@each_engine
def test_tied_neighbours_share_places_as_on_float64(engine, ties, kind,
                                                    small_blocks):
    """Relief, ReliefF and RReliefF on compact data whose lists tie at
    the k-th distance: each tie rule gives the float64 weights to the
    bit, and with shared places the weights of complete data do not
    depend on the order of the rows (to 1e-12)."""
    rng = rng_of("ties", kind)
    X, dense = with_twins(*KINDS[kind](rng)[:2])
    discrete = KINDS[kind](rng_of("ties", kind))[2]
    y, order = rng.integers(0, 2, N), rng.permutation(N)
    regression = rng.random(N)
    calls = [(relieff, y, dict(k_nearest=4)), (relieff, y, dict(k_nearest=1)),
             (rrelieff, regression, dict(k_nearest=4))]
    with forced(engine):
        for estimator, target_, options in calls:
            got = estimator(X, target_, discrete, ties=ties, **options)
            assert_array_equal(got, estimator(dense, target_, discrete,
                                              ties=ties, **options))
            if (ties == "share" and not isinstance(X, ArrayColumns)
                    and not np.isnan(dense).any()):
                permuted = estimator(X[order], target_[order], discrete,
                                     ties=ties, **options)
                np.testing.assert_allclose(permuted, got, rtol=0,
                                           atol=1e-12)


def test_small_integers_fit_bit_planes():
    """Which columns the popcount distances take: whole numbers of a range
    of at most 2, nominal codes below 4, no missing value, the linear
    diff, no distance weights but 1."""
    rng = rng_of("planes")

    def fits(X, discrete=None, kind=LINEAR, weights=None):
        data = read(X, np.arange(N) % 2, discrete, task="classification",
                    kind=kind, t_eq=0.0, t_diff=1.0, engine="vectorised")
        return fits_planes(data.stats, data.nominal, kind, weights)

    X = genotypes(rng)[0]
    assert fits(X) and fits(X + 100) and fits(X.astype(np.float32))
    assert fits(X, weights=np.ones(A))
    assert not fits(X, weights=np.linspace(0, 1, A))
    assert not fits(X, kind=LINEAR + 1)
    assert not fits(X * 2)  # a range of 4
    assert not fits((X / 2).astype(np.float32))  # halves
    assert fits(nominal_codes(rng)[0], nominal_codes(rng)[2])
    assert not fits(np.full((N, A), 4, np.uint8), np.ones(A, bool))
    assert not fits(expression(rng)[0])


def test_distances_are_the_float64_paths(small_blocks):
    """The exact distances of every producer (bit planes, sparse rows,
    running sums) are those of the float64 data summed in attribute
    order, to the bit."""
    for kind, make in KINDS.items():
        X, dense, discrete = make(rng_of("distances", kind))
        nominal = np.zeros(A, bool) if discrete is None else discrete
        for engine in ("vectorised", "compiled"):
            data = read(X, np.arange(N) % 2, discrete, task="classification",
                        kind=LINEAR, t_eq=0.0, t_diff=1.0, engine=engine)
            got = compact_distances.distances(data, np.arange(N))
            low = np.fmin.reduce(dense, axis=0)
            span = np.fmax.reduce(dense, axis=0) - low
            scaled = np.where(nominal, dense, (dense - np.where(
                nominal, 0, low)) / np.where(nominal | ~(span > 0), 1, span))
            known = ~np.isnan(scaled)
            weights = np.linspace(0, 2, A)  # the first attribute left out
            weighted = compact_distances.distances(data, np.arange(N),
                                                   weights)
            # every instance a reference (each pair once where it can be)
            # or not: the same sums
            backwards = np.arange(N)[::-1]
            assert_array_equal(compact_distances.distances(
                data, backwards, weights)[::-1], weighted)
            if known.all():
                expected = np.zeros((N, N))
                expected_weighted = np.zeros((N, N))
                for a in range(A):
                    diff = (scaled[:, None, a] != scaled[None, :, a]
                            if nominal[a] else
                            np.abs(scaled[:, None, a] - scaled[None, :, a]))
                    expected += diff
                    if weights[a]:
                        expected_weighted += weights[a] * diff
                assert_array_equal(got, expected, err_msg=f"{kind} {engine}")
                assert_array_equal(weighted, expected_weighted,
                                   err_msg=f"{kind} {engine}, weighted")


def test_sparse_nan_and_inf_are_refused():
    dense = np.zeros((N, 4))
    dense[0, 1] = np.nan
    with pytest.raises(ReliefInputError, match="sparse data store NaN"):
        relieff(sp.csr_matrix(dense), np.arange(N) % 2)
    dense[0, 1] = np.inf
    with pytest.raises(ReliefInputError, match="infinite values"):
        relieff(sp.csc_matrix(dense), np.arange(N) % 2)


class Broken:
    """A column-block source that breaks the protocol as told."""

    def __init__(self, X, fault):
        self.X, self.fault = X, fault
        self.shape, self.dtype = X.shape, X.dtype

    def column_blocks(self, size):
        X = self.X
        if self.fault == "order":
            yield size, X[:, size:2 * size]
        elif self.fault == "rows":
            yield 0, X[1:, :size]
        elif self.fault == "dtype":
            yield 0, X[:, :size].astype(np.float64)
        elif self.fault == "short":
            yield 0, X[:, :1]
        elif self.fault == "wide":
            yield 0, X


@pytest.mark.parametrize("fault, message", [
    ("order", "blocks must come in order"), ("rows", "expected 36 rows"),
    ("dtype", "declares dtype int8"), ("short", "gave 1 columns of the 150"),
    ("wide", "at most 64 were asked for")])
def test_a_source_that_breaks_the_protocol_is_named(fault, message,
                                                    small_blocks):
    X = genotypes(rng_of("broken"))[0]
    with pytest.raises(ReliefInputError, match=message):
        relieff(Broken(X, fault), np.arange(N) % 2)


@pytest.mark.parametrize("code, message", [
    (1.5, "must be an integer"), (300, "outside the values of int8")])
def test_a_bad_missing_code_is_named(code, message):
    X = genotypes(rng_of("code"))[0]
    with pytest.raises(ReliefInputError, match=message):
        relieff(ArrayColumns(X, missing_code=code), np.arange(N) % 2)
    with pytest.raises(ReliefInputError, match="mark missing values with NaN"):
        relieff(ArrayColumns(X.astype(np.float32), missing_code=3),
                np.arange(N) % 2)


def test_the_protocol_is_declared_and_the_array_source_fits_it():
    source = ArrayColumns(np.zeros((3, 5), np.int8))
    assert isinstance(source, source_protocol.ColumnBlockSource)
    assert source_protocol.is_column_source(source)
    assert not source_protocol.is_column_source(source.X)
    assert [(start, block.shape) for start, block in
            source.column_blocks(2)] == [(0, (3, 2)), (2, (3, 2)),
                                         (4, (3, 1))]


def test_wide_int8_data_are_never_widened_whole(small_blocks):
    """ReliefF and MultiSURF of int8 data hold nothing near the data's
    size in float64: numpy's allocations (a block's) peak below a float64
    copy's third."""
    rng = rng_of("memory")
    # a float64 copy is 3 times the bound; from 30,000 columns on, the
    # peaks (ReliefF's work arrays of a fixed size, MultiSURF's numbers
    # per attribute) stay below 0.82 of it, as at 50,000
    X = rng.integers(0, 3, (60, 30000)).astype(np.int8)
    y = np.arange(60) % 2
    with forced("vectorised"):
        for estimate in (relieff, multisurf):
            estimate(X[:, :64], y)  # imports and first calls
            tracemalloc.start()
            estimate(X, y)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert peak < X.size * 8 / 3, (estimate.__name__, peak)


def test_turf_prepares_the_data_once(monkeypatch, small_blocks):
    """TuRF's rounds on compact data score columns of one preparation:
    the columns are scanned once, whatever the number of rounds, and the
    scores are those of scoring each round's columns from scratch (as
    TuRF does on long float64 data)."""
    X, dense, _ = genotypes(rng_of("turf"))
    y = np.arange(N) % 2
    scans = []
    original = compact_store.scan

    def counted(*args):
        scans.append(1)
        return original(*args)

    monkeypatch.setattr("orangecontrib.relief.core.compact.data.scan",
                        counted)
    with forced("vectorised"):
        scores = turf_relieff(X, y, fraction=0.25, k_nearest=3)
    assert len(scans) == 1
    with forced("vectorised"):
        assert_array_equal(scores, turf(
            lambda X, y, discrete, progress_callback=None: relieff(
                X, y, discrete, k_nearest=3), dense, y,
            fraction=0.25).scores)


@pytest.mark.parametrize("kind", ["int8 genotypes", "sparse counts",
                                  "a source with a missing code"])
def test_rows_of_an_unknown_target_are_left_out(kind, small_blocks):
    """Instances whose class is NaN are left out of compact data as of
    float64 data: the same weights, the same ranges of the rest."""
    rng = rng_of("unknown target", kind)
    X, dense, discrete = KINDS[kind](rng)
    y = target(rng, "classification")
    y[::5] = np.nan
    with forced("vectorised"):
        assert_array_equal(relieff(X, y, discrete, k_nearest=3),
                           relieff(dense, y, discrete, k_nearest=3))
        assert_array_equal(multisurf(X, y, discrete),
                           multisurf(dense, y, discrete))


@pytest.mark.parametrize("kind", ["float64", "float64 in Fortran order",
                                  *KINDS])
def test_the_scaled_values_start_on_a_cache_line(kind):
    """Each route to the exact tables, float64 as given in either order
    or compact data made whole, scales the values into memory that starts
    on a cache line (core.values.aligned_empty), instance by instance,
    where the update rules read them a whole vector at a time."""
    rng = rng_of(kind)
    if kind.startswith("float64"):
        X = rng.random((N, A))
        X = np.asfortranarray(X) if "Fortran" in kind else X
        discrete = None
    else:
        X, _, discrete = KINDS[kind](rng)
    values = prepare(X, target(rng, "classification"), discrete).exact.values
    assert values.ctypes.data % ALIGNMENT == 0
    assert values.T.flags.c_contiguous
