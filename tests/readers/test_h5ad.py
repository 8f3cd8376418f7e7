"""AnnData .h5ad files (readers.h5ad): a sparse X read as CSR by chunks of
rows, its dtype kept; a dense X as a column-block source; the class a
column of obs."""
import numpy as np
import pytest
import scipy.sparse as sp

from orangecontrib.relief.core import relieff, rrelieff
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.readers import read_wide
from orangecontrib.relief.readers.h5ad import csr_by_rows
from orangecontrib.relief.readers.sources import blocks_of

anndata = pytest.importorskip("anndata", reason="the genomics extra "
                                                "(anndata) is not installed")
pd = pytest.importorskip("pandas")

N, A = 60, 40


def counts(seed=0):
    """Sparse float32 counts (N x A) whose gene 3 tells the cell types
    apart, the cell types and a numeric annotation."""
    rng = np.random.default_rng(seed)
    X = sp.random(N, A, density=0.1, format="lil", dtype=np.float32,
                  random_state=seed)
    cell_type = np.where(np.arange(N) % 2 == 0, "T cell", "B cell")
    X[:, 3] = np.where(cell_type == "T cell", 4.0, 0.0)[:, None]
    obs = pd.DataFrame({"cell_type": pd.Categorical(cell_type),
                        "label": cell_type.astype(object),
                        "depth": rng.random(N),
                        "doublet": np.arange(N) % 3 == 0},
                       index=[f"cell{i}" for i in range(N)])
    return X.tocsr(), obs


def write(path, X, obs):
    var = pd.DataFrame(index=[f"gene{j}" for j in range(A)])
    anndata.AnnData(X=X, obs=obs, var=var).write_h5ad(path)
    return path


@pytest.mark.parametrize("layout", ["csr", "csc", "dense"])
def test_every_layout_gives_the_weights_of_the_matrix(tmp_path, layout):
    X, obs = counts()
    stored = {"csr": X, "csc": X.tocsc(), "dense": X.toarray()}[layout]
    data = read_wide(write(tmp_path / "cells.h5ad", stored, obs),
                     class_name="cell_type")
    if layout == "dense":
        assert not sp.issparse(data.X) and data.X.dtype == np.float32
        whole = np.hstack([b for _, b in blocks_of(data.X, size=7)])
        assert np.array_equal(whole, X.toarray())
    else:
        assert sp.isspmatrix_csr(data.X) and data.X.dtype == np.float32
        assert (data.X != X).nnz == 0
    assert data.names[:2] == ["gene0", "gene1"]
    assert data.class_values == ("B cell", "T cell")
    y = (obs["cell_type"] == "T cell").to_numpy().astype(float)
    weights = data.weights("ReliefF")
    assert np.array_equal(weights, relieff(X.toarray(), y))
    assert np.argmax(weights) == 3


def test_csr_by_chunks_of_rows_is_the_matrix(tmp_path):
    X, obs = counts()
    path = write(tmp_path / "cells.h5ad", X, obs)
    import h5py

    with h5py.File(path) as file:
        for chunk in (1, 7, N, 10 * N):
            seen = []
            read = csr_by_rows(file["X"], X.shape, chunk, seen.append)
            assert read.dtype == np.float32 and (read != X).nnz == 0
            assert seen == sorted(seen) and seen[-1] == 1.0
            assert len(seen) == -(-N // chunk)


@pytest.mark.parametrize("column, task, classes", [
    ("cell_type", "classification", ("B cell", "T cell")),
    ("label", "classification", ("B cell", "T cell")),
    ("doublet", "classification", ("False", "True")),
    ("depth", "regression", None),
])
def test_class_columns(tmp_path, column, task, classes):
    X, obs = counts()
    data = read_wide(write(tmp_path / "cells.h5ad", X, obs),
                     class_name=column)
    assert (data.task, data.class_values) == (task, classes)
    if task == "regression":
        assert np.array_equal(data.weights("RReliefF"),
                              rrelieff(X.toarray(), obs["depth"].to_numpy()))


def test_unknown_classes_are_left_out_with_a_note(tmp_path):
    X, obs = counts()
    obs["label"] = obs["label"].where(np.arange(N) % 10 != 0, None)
    data = read_wide(write(tmp_path / "cells.h5ad", X, obs),
                     class_name="label")
    assert np.isnan(data.y).sum() == 6
    assert data.notes == ("6 of 60 cells have no label and are left out",)


@pytest.mark.parametrize("class_name, message", [
    ("cluster", "has no column 'cluster' in obs; its columns are "
                "cell_type, label, depth, doublet"),
    (None, "name the class, a column of obs, with --class"),
])
def test_a_missing_class_column(tmp_path, class_name, message):
    path = write(tmp_path / "cells.h5ad", *counts())
    with pytest.raises(ReliefInputError, match=message):
        read_wide(path, class_name=class_name)


def test_not_an_h5ad_file(tmp_path):
    path = tmp_path / "cells.h5ad"
    path.write_text("not HDF5")
    with pytest.raises(ReliefInputError, match="Cannot read .* as an .h5ad"):
        read_wide(path, class_name="cell_type")
