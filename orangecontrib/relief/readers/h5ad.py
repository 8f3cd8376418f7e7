"""AnnData .h5ad files (single-cell counts, expression), opened in backed
mode through anndata: the cells' annotations (``obs``) in memory, the
matrix ``X`` read a piece at a time.

A sparse ``X`` stored by rows (CSR, as scanpy writes it) becomes a scipy
CSR matrix built a chunk of rows at a time into arrays of exactly its
non-zero values, in its own dtype (float32 stays float32): the core takes
CSR directly.  One stored by columns (CSC) is read a block of genes at a
time and converted.  A dense ``X`` is a column-block source
(:class:`DenseH5adSource`, :mod:`.sources`), read a block of genes at a
time.  The class is a column of ``obs``: a categorical or text column a
categorical class, a numeric one a numeric target.
"""
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..core.errors import ReliefInputError
from ..core.progress import report
from .extras import require
from .sources import BLOCK_COLUMNS

#: the rows of a sparse X read at once
CHUNK_ROWS = 10_000


@dataclass(frozen=True)
class Annotation:
    """A column of ``obs`` as the core's target.

    y : float64 (n,), class codes or values, NaN missing; task:
    "classification" or "regression"; values: the class names by code
    (None for a numeric target).
    """
    name: str
    y: np.ndarray
    task: str
    values: tuple = None


def annotation(obs, name, path):
    """The :class:`Annotation` of column `name` of the data frame `obs`,
    or ReliefInputError if there is no such column."""
    columns = [str(c) for c in obs.columns]
    if name is None:
        raise ReliefInputError(
            f"{path}: name the class, a column of obs, with --class"
            + (f"; the columns are {', '.join(columns)}." if columns
               else "; but obs has no columns."))
    if name not in obs.columns:
        raise ReliefInputError(
            f"{path} has no column {name!r} in obs"
            + (f"; its columns are {', '.join(columns)}." if columns
               else "; obs has no columns."))
    column = obs[name]
    if getattr(column.dtype, "name", "") == "category":
        codes = column.cat.codes.to_numpy().astype(np.float64)
        codes[codes < 0] = np.nan
        return Annotation(name, codes, "classification",
                          tuple(str(c) for c in column.cat.categories))
    if column.dtype.kind == "b":
        return Annotation(name, column.to_numpy().astype(np.float64),
                          "classification", ("False", "True"))
    if column.dtype.kind in "iuf":
        values = column.to_numpy().astype(np.float64)
        if np.isinf(values).any():
            raise ReliefInputError(f"Column {name!r} of {path} holds an "
                                   f"infinite value.")
        return Annotation(name, values, "regression")
    missing = column.isna().to_numpy()
    texts = column.astype(str).to_numpy()
    words = sorted(set(texts[~missing]))
    code = {word: c for c, word in enumerate(words)}
    y = np.array([np.nan if m else code[t] for t, m in zip(texts, missing)],
                 dtype=np.float64)
    return Annotation(name, y, "classification", tuple(words))


def csr_by_rows(group, shape, chunk_rows=CHUNK_ROWS, progress_callback=None):
    """The CSR matrix stored in the h5py `group` (AnnData's ``data``,
    ``indices``, ``indptr``), read `chunk_rows` rows at a time into arrays
    of its non-zero values (their dtype kept); `progress_callback` gets
    the share of the rows read."""
    indptr = group["indptr"][:].astype(np.int64)
    data = np.empty(indptr[-1], dtype=group["data"].dtype)
    index_type = np.int32 if shape[1] < 2 ** 31 else np.int64
    indices = np.empty(indptr[-1], dtype=index_type)
    for start in range(0, shape[0], chunk_rows):
        low, high = indptr[start], indptr[min(start + chunk_rows, shape[0])]
        data[low:high] = group["data"][low:high]
        indices[low:high] = group["indices"][low:high]
        report(progress_callback, (start + chunk_rows) / shape[0])
    return sp.csr_matrix((data, indices, indptr), shape=shape)


def csr_by_columns(matrix, shape, size=BLOCK_COLUMNS):
    """The backed CSC matrix `matrix` as CSR, read `size` columns at a
    time."""
    blocks = [matrix[:, start:start + size]
              for start in range(0, shape[1], size)]
    return sp.hstack(blocks, format="csr")


class DenseH5adSource:
    """The dense ``X`` of an .h5ad file as a column-block source (see
    :mod:`.sources`): its dtype, a block of columns at a time, the file
    opened for each pass."""
    missing_code = None

    def __init__(self, path, shape, dtype):
        self.path, self.shape, self.dtype = path, shape, np.dtype(dtype)

    def column_blocks(self, size=BLOCK_COLUMNS):
        """``(start, X[:, start:start + size])`` in order, from the
        file."""
        h5py = require("h5py")
        with h5py.File(self.path, "r") as file:
            matrix = file["X"]
            for start in range(0, self.shape[1], size):
                yield start, matrix[:, start:start + size]


@contextmanager
def opened(path):
    """The .h5ad file `path` opened in backed mode by anndata (closed
    after the block), or ReliefInputError if anndata cannot read it."""
    anndata = require("anndata")
    try:
        data = anndata.read_h5ad(path, backed="r")
    except (OSError, KeyError, ValueError, TypeError) as error:
        raise ReliefInputError(f"Cannot read {path} as an .h5ad file: "
                               f"{error}") from None
    try:
        yield data
    finally:
        data.file.close()


def matrix_of(data, path, chunk_rows=CHUNK_ROWS, progress_callback=None):
    """The X of the backed AnnData `data` (of file `path`): a scipy CSR
    matrix (a sparse X, its reading reported to `progress_callback`) or
    a :class:`DenseH5adSource`."""
    matrix = data.X
    if matrix is None:
        raise ReliefInputError(f"{path} holds no matrix X.")
    shape = tuple(matrix.shape)
    if getattr(matrix, "format", None) == "csr":
        return csr_by_rows(data.file["X"], shape, chunk_rows,
                           progress_callback)
    if getattr(matrix, "format", None) == "csc":
        return csr_by_columns(matrix, shape)
    return DenseH5adSource(path, shape, matrix.dtype)


def read_h5ad(path, class_name, chunk_rows=CHUNK_ROWS,
              progress_callback=None):
    """The matrix, the attributes' names and the class of the .h5ad file
    `path`, its class the column `class_name` of ``obs`` (checked before
    the matrix is read; `progress_callback` gets the share of a sparse
    matrix read).

    Returns
    -------
    (X, names, annotation)
        X a scipy CSR matrix (sparse X) or a :class:`DenseH5adSource`,
        names the genes (``var_names``), annotation an
        :class:`Annotation`.

    Raises
    ------
    ReliefInputError
        A file anndata cannot read, without X, or without the column.
    MissingExtra
        Without anndata (``pip install "Orange3-Relief[genomics]"``).
    """
    with opened(path) as data:
        target = annotation(data.obs, class_name, path)
        return (matrix_of(data, path, chunk_rows, progress_callback),
                [str(name) for name in data.var_names], target)


def read_annotated(path, chunk_rows=CHUNK_ROWS):
    """(X, names, obs) of the .h5ad file `path`: its matrix as
    :func:`read_h5ad` gives it, the genes and every annotation of the
    cells (a pandas DataFrame)."""
    with opened(path) as data:
        return (matrix_of(data, path, chunk_rows),
                [str(name) for name in data.var_names], data.obs)
