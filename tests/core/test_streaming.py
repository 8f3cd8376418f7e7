"""ReliefF streamed from disk (core.variants.streaming) against ReliefF in memory."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal

from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import relieff
from orangecontrib.relief.core.variants.streaming import relieff_streaming
from tests.core.engines import each_engine


def data(seed=0, n=900, a=9, n_classes=3):
    """Numeric columns, one nominal, ties (values rounded), an unknown
    class."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[:, 1] = rng.integers(0, 4, n)
    X[:, 4] = np.round(X[:, 4], 1)
    y = ((X[:, 0] > 0.5) + (X[:, 2] > 0.7) * 2) % n_classes
    y = y.astype(float)
    y[[3, 50]] = np.nan
    discrete = np.zeros(a, bool)
    discrete[1] = True
    return X, y, discrete


class Sliced:
    """An array-like that only offers a shape and row slices whose result
    is computed on demand (as a Dask array's)."""

    def __init__(self, array):
        self.array = array
        self.shape = array.shape
        self.reads = []

    def __getitem__(self, rows):
        self.reads.append(rows)
        return _Lazy(self.array[rows])


class _Lazy:
    def __init__(self, value):
        self.value = value

    def compute(self):
        return self.value


@each_engine
@pytest.mark.parametrize("chunk_rows", [900, 250, 77])
@pytest.mark.parametrize("diff", ["linear", "ramp"])
def test_the_weights_of_relieff_in_memory(engine, chunk_rows, diff):
    X, y, discrete = data()
    with forced(engine):
        expected = relieff(X, y, discrete, k_nearest=7, n_iterations=60,
                           random_state=4, diff=diff)
    streamed = relieff_streaming(X, y, discrete, k_nearest=7,
                                 n_iterations=60, random_state=4, diff=diff,
                                 chunk_rows=chunk_rows)
    assert_array_equal(streamed, expected)


def test_npy_files_memmaps_and_lazy_arrays(tmp_path):
    X, y, discrete = data(1, n_classes=2)
    expected = relieff(X, y, discrete, n_iterations=30, random_state=0)
    path = tmp_path / "data.npy"
    np.save(path, X)
    for source in (path, str(path), np.load(path, mmap_mode="r")):
        assert_array_equal(relieff_streaming(
            source, y, discrete, n_iterations=30, chunk_rows=200), expected)
    lazy = Sliced(X)
    assert_array_equal(relieff_streaming(lazy, y, discrete, n_iterations=30,
                                         chunk_rows=200), expected)
    # two passes of row chunks, then the rows of the references and their
    # neighbours one by one: never the whole data at once
    assert all(s.stop - s.start <= 200 for s in lazy.reads)


def test_inputs_untouched_and_k_beyond_a_class():
    X, y, discrete = data(2, n=70)
    X_before, y_before = X.copy(), y.copy()
    expected = relieff(X, y, discrete, k_nearest=100, n_iterations=10)
    assert_array_equal(relieff_streaming(X, y, discrete, k_nearest=100,
                                         n_iterations=10, chunk_rows=7),
                       expected)
    assert_array_equal(X, X_before)
    assert_array_equal(np.isnan(y), np.isnan(y_before))


def test_what_it_refuses(tmp_path):
    X, y, discrete = data(3, n=80)
    missing = X.copy()
    missing[5, 0] = np.nan
    with pytest.raises(ReliefInputError, match="missing values"):
        relieff_streaming(missing, y, discrete, n_iterations=5)
    infinite = X.copy()
    infinite[5, 0] = np.inf
    with pytest.raises(ReliefInputError, match="infinite"):
        relieff_streaming(infinite, y, discrete, n_iterations=5)
    with pytest.raises(ReliefInputError, match="npy"):
        relieff_streaming(tmp_path / "none.npy", y, n_iterations=5)
    with pytest.raises(ReliefInputError, match="chunk_rows"):
        relieff_streaming(X, y, discrete, n_iterations=5, chunk_rows=0)
    with pytest.raises(ReliefInputError, match="single class"):
        relieff_streaming(X, np.zeros(len(X)), discrete, n_iterations=5)
    with pytest.raises(ReliefInputError, match="2-D"):
        relieff_streaming(X[:, 0], y, n_iterations=5)
    with pytest.raises(ReliefInputError, match="n_iterations"):
        relieff_streaming(X, y, discrete, n_iterations=0)


def test_a_fortran_ordered_npy_file(tmp_path):
    X, y, discrete = data(6, n=130)
    expected = relieff(X, y, discrete, n_iterations=20, random_state=1)
    path = tmp_path / "columns.npy"
    np.save(path, np.asfortranarray(X))
    for chunk_rows in (1, 40, 500):
        assert_array_equal(relieff_streaming(
            path, y, discrete, n_iterations=20, random_state=1,
            chunk_rows=chunk_rows), expected)


def test_a_truncated_npy_file(tmp_path):
    X, y, discrete = data(6, n=60)
    path = tmp_path / "data.npy"
    np.save(path, X)
    path.write_bytes(path.read_bytes()[:-X.shape[1] * 8])
    with pytest.raises(ReliefInputError, match="shorter"):
        relieff_streaming(path, y, discrete, n_iterations=5)


def test_a_dask_array_of_unknown_chunk_sizes():
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    X, y, discrete = data(7, n=200)
    expected = relieff(X, y, discrete, n_iterations=20, random_state=1)
    lazy = da.from_array(X, chunks=(60, X.shape[1]))
    selected = lazy[lazy[:, 0] > -1]  # every row, chunk sizes unknown
    assert np.isnan(selected.shape[0])
    # computed in this process's threads, as without a cluster (a live
    # cluster client of this process would take each of the hundreds of
    # row reads as a round trip)
    with dask.config.set(scheduler="threads"):
        assert_array_equal(relieff_streaming(
            selected, y, discrete, n_iterations=20, random_state=1,
            chunk_rows=33), expected)
    assert np.isnan(selected.shape[0])  # the caller's array untouched


def saved(array, **options):
    """A source: `array` saved as an .npy file."""
    def make(tmp_path):
        path = tmp_path / "data.npy"
        np.save(path, array, **options)
        return path
    return make


def written(content, name="data.npy"):
    """A source: a file of the bytes `content`."""
    def make(tmp_path):
        path = tmp_path / name
        path.write_bytes(content)
        return path
    return make


def given(source):
    return lambda tmp_path: source


SOURCE_X, SOURCE_Y, _ = data(8, n=60, n_classes=2)
COMPLEX = "holds complex numbers"
STRUCTURED = "structured dtype"
NOT_NPY = "not a readable .npy file"
#: every kind of source relieff_streaming accepts or might be handed:
#: name -> (make(tmp_path) -> source, the error's pattern or None: the
#: weights of relieff on the same numbers in memory)
SOURCES = {
    "array": (given(SOURCE_X), None),
    "float32 array": (given(SOURCE_X.astype(np.float32)), None),
    "list of rows": (given(SOURCE_X.tolist()), "2-D array-like"),
    ".npy path": (saved(SOURCE_X), None),
    ".npy path as str": (lambda tmp_path: str(saved(SOURCE_X)(tmp_path)),
                         None),
    "memmap": (lambda tmp_path: np.load(saved(SOURCE_X)(tmp_path),
                                        mmap_mode="r"), None),
    "scipy sparse matrix": (lambda tmp_path: __import__(
        "scipy.sparse").sparse.csr_matrix(SOURCE_X), None),
    "scipy sparse COO": (lambda tmp_path: __import__(
        "scipy.sparse").sparse.coo_matrix(SOURCE_X), None),
    "object array of numbers": (given(SOURCE_X.astype(object)), None),
    "complex array": (given(SOURCE_X + 1j), COMPLEX),
    "complex .npy": (saved(SOURCE_X + 1j), COMPLEX),
    "object array of complex": (given((SOURCE_X + 1j).astype(object)),
                                "must be numeric"),
    "object .npy": (saved(SOURCE_X.astype(object), allow_pickle=True),
                    "Python objects"),
    "structured array": (given(np.zeros((60, 2), [("a", float)])),
                         STRUCTURED),
    "structured .npy": (saved(np.zeros((60, 2), [("a", float)])),
                        STRUCTURED),
    ".npy with no columns": (saved(np.empty((60, 0))),
                             "no attributes to score"),
    "array with no columns": (given(np.empty((60, 0))),
                              "no attributes to score"),
    "1-D .npy": (saved(SOURCE_X[:, 0]), "2-D array only"),
    "empty file": (written(b""), NOT_NPY),
    "a text file named .npy": (written(b"1,2,3\n4,5,6\n"), NOT_NPY),
    "a file not .npy": (written(b"1,2,3\n", "data.csv"),
                        "not an existing .npy file"),
    "a missing file": (lambda tmp_path: tmp_path / "none.npy",
                       "not an existing .npy file"),
    "a directory": (lambda tmp_path: tmp_path, "not an existing .npy file"),
    "a number": (given(3.0), "2-D array-like"),
    "None": (given(None), "2-D array-like"),
}


@pytest.mark.parametrize("case", SOURCES)
def test_every_kind_of_source(case, tmp_path):
    make, error = SOURCES[case]
    source = make(tmp_path)
    call = lambda: relieff_streaming(  # noqa: E731
        source, SOURCE_Y, n_iterations=12, chunk_rows=25)
    if error is not None:
        with pytest.raises(ReliefInputError, match=error):
            call()
        return
    numbers = (np.asarray(source, dtype=float)
               if isinstance(source, np.ndarray) else SOURCE_X)
    assert_array_equal(call(), relieff(numbers, SOURCE_Y, n_iterations=12))


def test_relieff_streams_a_memmap_or_path_with_sampled_references(
        tmp_path, monkeypatch):
    """relieff on a memmap or an .npy path with sampled references reads
    the rows a chunk at a time (never the in-memory preparation) and gives
    the in-memory weights; with missing values, or every instance a
    reference, it reads the data into memory."""
    from orangecontrib.relief.core.variants import estimators
    X, y, discrete = data(9, n=120, n_classes=2)
    path = tmp_path / "data.npy"
    np.save(path, X)
    expected = relieff(X, y, discrete, n_iterations=15)
    every = relieff(X, y, discrete)
    missing = X.copy()
    missing[4, 2] = np.nan
    np.save(tmp_path / "missing.npy", missing)
    expected_missing = relieff(missing, y, discrete, n_iterations=15)
    with monkeypatch.context() as patched:
        patched.setattr(estimators, "prepared", None)  # not called
        for source in (path, str(path), np.load(path, mmap_mode="r")):
            assert_array_equal(relieff(source, y, discrete, n_iterations=15),
                               expected)
    assert_array_equal(relieff(path, y, discrete), every)
    assert_array_equal(relieff(tmp_path / "missing.npy", y, discrete,
                               n_iterations=15), expected_missing)
