"""Work as tasks on a Dask cluster against the same work in this process:
the neighbour search (core.neighbours.cluster), compact data's blocks,
ReliefF streamed from disk and the resamples of a stability study.  The
tests that need a cluster share this file's one cluster (starting one
takes its worker processes seconds of importing and loading kernels)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import (
    prepared, relief, relieff, rrelieff)
from orangecontrib.relief.core.engines.compiled.search_tables import (
    join_positions, take_positions)
from orangecontrib.relief.core.engines.compiled.neighbours.block import BLOCK
from orangecontrib.relief.core.engines.compiled.neighbours.cluster import (
    all_pairs_on, block_bounds, block_count, pair_rounds, references_on)
from orangecontrib.relief.core.engines.compiled.neighbours.search import (
    _all_pairs, _references)
from orangecontrib.relief.core.analysis.resampling import (
    draw_resamples, score_resamples)
from orangecontrib.relief.core.options import DIFF, T_DIFF, T_EQ
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.core.variants.streaming import relieff_streaming
from tests.core.test_compact import (  # noqa: F401 (the fixture)
    KINDS, N, small_blocks, target)
from tests.core.test_stability import column_means
from tests.core.test_streaming import data
from tests.variants import rng_of


def with_missing(X, seed, fraction=0.05):
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < fraction] = np.nan
    return X


def search_tables(X, y, discrete, task="classification"):
    with forced("compiled"):
        data_, _, _ = prepared(X, y, discrete, None, 0, task=task, diff=DIFF,
                               t_eq=T_EQ, t_diff=T_DIFF)
    return data_


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("n_blocks", [1, 2, 3, 5])
def test_block_pairs_give_the_local_search_lists_bit_for_bit(client, missing,
                                                             n_blocks):
    """The reduced float32 lists equal the local all-pairs search's (the
    same keys), with ties (rounded and integer columns), a nominal column,
    three classes and an unknown class; 1100 instances make 5 tiles, so
    that 3 blocks are uneven and 5 hold one tile each."""
    X, y, discrete = data(1, n=1100)
    if missing:
        X = with_missing(X, 1)
    prepared_data = search_tables(X, y, discrete)
    weights = np.linspace(0.5, 1.5, X.shape[1]).astype(np.float32)
    k, groups = 9, prepared_data.n_groups
    expected = _all_pairs(prepared_data.search, weights, k, groups, None)
    got = all_pairs_on(client, prepared_data.search, weights, k, groups, None,
                       n_blocks=n_blocks)
    assert_array_equal(got, expected)


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("n_chunks", [1, 2, 3, 7])
def test_row_chunks_give_the_local_search_lists_bit_for_bit(client, missing,
                                                           n_chunks):
    """The references' merged lists over row chunks equal the local
    search's (the same keys): references in every chunk (each must not be
    its own neighbour), k larger than some chunk's groups (empty slots),
    three classes and an unknown one, a nominal column."""
    X, y, discrete = data(2, n=700)
    if missing:
        X = with_missing(X, 2)
    prepared_data = search_tables(X, y, discrete)
    positions = prepared_data.search_position[np.unique(
        np.random.default_rng(0).integers(0, 698, 150))]
    weights = np.linspace(1.5, 0.5, X.shape[1]).astype(np.float32)
    k, groups = 40, prepared_data.n_groups
    expected = _references(prepared_data.search, weights, positions, k,
                           groups, None)
    got = references_on(client, prepared_data.search, weights, positions, k,
                        groups, None, n_chunks=n_chunks)
    assert_array_equal(got, expected)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 60))
def test_tables_taken_in_two_parts_and_joined_are_the_whole(seed, cut):
    """take_positions of a split of the positions, joined, equals
    take_positions of them all (with missing values: the gap lists), and
    taking every position in order gives the tables back."""
    X, y, discrete = data(seed % 50, n=60)
    tables = search_tables(with_missing(X, seed, 0.2), y, discrete).search
    n = tables.values.shape[1]  # the instances of a known class
    positions = np.random.default_rng(seed).permutation(n)
    whole = take_positions(tables, positions)
    joined = join_positions(take_positions(tables, positions[:cut]),
                            take_positions(tables, positions[cut:]))
    for expected, got in ((whole, joined),
                          (tables, take_positions(tables, np.arange(n)))):
        for name, part in expected._asdict().items():
            assert_array_equal(getattr(got, name), part, name)


@pytest.mark.parametrize("n_iterations", [None, 200])
def test_the_estimators_on_a_cluster_give_the_same_weights(client,
                                                           n_iterations):
    """relieff, relief and rrelieff with a client: identical weights, with
    missing values, both search modes."""
    X, y, discrete = data(3, n=900)
    X = with_missing(X, 3)
    X0 = X.copy()
    options = {"n_iterations": n_iterations, "random_state": 4}
    with forced("compiled"):
        assert_array_equal(
            relieff(X, y, discrete, k_nearest=5, client=client, **options),
            relieff(X, y, discrete, k_nearest=5, **options))
        two = np.where(y == 2, 1, y)
        assert_array_equal(relief(X, two, discrete, client=client, **options),
                           relief(X, two, discrete, **options))
        target = np.nan_to_num(X[:, 0]) + X[:, 2]
        assert_array_equal(
            rrelieff(X, target, discrete, client=client, **options),
            rrelieff(X, target, discrete, **options))
    assert_array_equal(X, X0, "the input was modified")


def test_a_client_takes_the_compiled_engine_on_small_data(client):
    """The vectorised engine has no cluster path: a client always runs the
    compiled search, whose weights equal the vectorised engine's here."""
    X, y, discrete = data(4, n=300)
    with forced("vectorised"):
        expected = relieff(X, y, discrete)
    assert_array_equal(relieff(X, y, discrete, client=client), expected)


def test_progress_is_reported_and_a_raising_callback_cancels(client):
    X, y, discrete = data(5, n=1100)
    seen = []
    relieff(X, y, discrete, client=client, progress_callback=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 5

    def stop(fraction):
        if fraction > 0.3:
            raise Interrupted
    with pytest.raises(Interrupted):
        relieff(X, y, discrete, client=client, progress_callback=stop)
    # the cluster is usable afterwards, its earlier tasks cancelled
    assert_array_equal(relieff(X, y, discrete, client=client),
                       relieff(X, y, discrete))


def closed_client():
    distributed = pytest.importorskip("distributed")
    client = distributed.Client(processes=False, n_workers=1,
                                threads_per_worker=1,
                                dashboard_address=None)
    client.close()
    return client


#: clients that run nothing: name -> (make() -> client, the error's pattern)
BAD_CLIENTS = {
    "an address": (lambda: "tcp://127.0.0.1:8786",
                   "got the string 'tcp://127.0.0.1:8786'; connect first"),
    "a number": (lambda: 8786, "client must be a dask.distributed Client or "
                               "None, got int"),
    "an object without submit": (object, "got object"),
    "a closed client": (closed_client, "client is closed"),
}
#: every entry that takes a client, as f(X, y, discrete, client)
CLIENT_ENTRIES = {
    "relief": lambda X, y, d, client: relief(X, y % 2, d, client=client),
    "relieff": lambda X, y, d, client: relieff(X, y, d, client=client),
    "rrelieff": lambda X, y, d, client: rrelieff(X, X[:, 0], d,
                                                 client=client),
    "relieff_streaming": lambda X, y, d, client: relieff_streaming(
        X, y, d, n_iterations=5, client=client),
}


@pytest.mark.parametrize("entry", CLIENT_ENTRIES)
@pytest.mark.parametrize("case", BAD_CLIENTS)
def test_a_client_that_runs_nothing_is_refused(case, entry):
    X, y, discrete = data(6, n=100)
    y = np.nan_to_num(y)
    make, message = BAD_CLIENTS[case]
    with pytest.raises(ReliefInputError, match=message):
        CLIENT_ENTRIES[entry](X, y, discrete, make())


@settings(max_examples=60, deadline=None)
@given(count_i=st.integers(1, 9), count_j=st.integers(1, 9),
       same=st.booleans())
def test_pair_rounds_cover_each_tile_pair_once_in_disjoint_rounds(
        count_i, count_j, same):
    first_i, first_j = 3, (3 if same else 3 + count_i)
    count_j = count_i if same else count_j
    rows, cols, starts = pair_rounds(first_i, count_i, first_j, count_j)
    pairs = list(zip(rows.tolist(), cols.tolist()))
    tiles_i = range(first_i, first_i + count_i)
    tiles_j = range(first_j, first_j + count_j)
    expected = ({(a, b) for a in tiles_i for b in tiles_j if a <= b} if same
                else {(a, b) for a in tiles_i for b in tiles_j})
    assert len(pairs) == len(expected) and set(pairs) == expected
    for start, stop in zip(starts[:-1], starts[1:]):
        members = [t for pair in pairs[start:stop] for t in set(pair)]
        assert len(members) == len(set(members)), "a round shares a tile"


@given(n=st.integers(1, 20 * BLOCK), threads=st.integers(1, 500))
def test_blocks_are_whole_tiles_and_their_number_follows_the_threads(
        n, threads):
    n_tiles = -(-n // BLOCK)
    b = block_count(n_tiles, threads)
    assert 1 <= b <= n_tiles
    assert b == n_tiles or b * (b + 1) // 2 >= 4 * threads
    bounds = block_bounds(n, b)
    assert bounds[0] == 0 and bounds[-1] == n
    assert np.all(np.diff(bounds) > 0)
    assert np.all(bounds[:-1] % BLOCK == 0)


@pytest.mark.parametrize("kind", ["int8 genotypes", "float32 expression",
                                  "sparse counts",
                                  "a source with a missing code"])
@pytest.mark.usefixtures("small_blocks")
def test_blocks_on_a_cluster_give_one_process_weights(client, kind):
    """Compact data's blocks as tasks on a Dask cluster: popcounts added
    as whole numbers, running sums chained block after block, sparse rows
    per chunk of references, each block's rule a task; the weights of one
    process, to the bit."""
    rng = rng_of("cluster", kind)
    X, _, discrete = KINDS[kind](rng)
    y = target(rng, "classification")
    with forced("compiled"):
        for n_iterations in (None, 9):
            assert_array_equal(
                relieff(X, y, discrete, k_nearest=3,
                        n_iterations=n_iterations, client=client),
                relieff(X, y, discrete, k_nearest=3,
                        n_iterations=n_iterations))
        target_values = rng.random(N)
        assert_array_equal(rrelieff(X, target_values, discrete, k_nearest=3,
                                    client=client),
                           rrelieff(X, target_values, discrete, k_nearest=3))


def test_a_dask_cluster_gives_the_same_weights(client, tmp_path):
    da = pytest.importorskip("dask.array")
    X, y, discrete = data(5, n=1200)
    # few references: a Dask array's rows of the references and their
    # neighbours are computed one by one, each a round trip to the cluster
    expected = relieff(X, y, discrete, k_nearest=6, n_iterations=10,
                       random_state=2)
    path = tmp_path / "data.npy"
    np.save(path, X)
    for source in (path, X, da.from_array(X, chunks=(300, X.shape[1]))):
        got = relieff_streaming(source, y, discrete, k_nearest=6,
                                n_iterations=10, random_state=2,
                                chunk_rows=250, client=client)
        assert_array_equal(got, expected)
    assert len(client.scheduler_info()["workers"]) == 2


def test_resamples_as_tasks_of_a_cluster_give_the_same_scores(client):
    X = np.random.default_rng(6).normal(size=(40, 3))
    resamples = draw_resamples(np.zeros(40, int), 6, random_state=7)
    assert_allclose(score_resamples(column_means(X), resamples,
                                    client=client),
                    score_resamples(column_means(X), resamples))
