"""Column-block sources (readers.sources): the protocol's checks, genotypes
in memory and their bad values, one way into the core, and the line a
user reads when an extra is missing."""
import numpy as np
import pytest
import scipy.sparse as sp

from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.readers import extras
from orangecontrib.relief.readers.sources import (
    ArraySource, GenotypeArray, blocks_of, columns_of, core_input, dense_of)


def genotypes(seed=0, shape=(12, 9)):
    return np.random.default_rng(seed).integers(0, 3, shape).astype(np.int8)


def test_genotypes_stay_narrow_and_unchanged():
    G = genotypes()
    source = GenotypeArray(G)
    assert source.dtype == np.int8 and source.values is G
    whole = dense_of(source)
    assert whole.dtype == np.int8 and np.array_equal(whole, G)


def test_a_declared_missing_code_becomes_nan():
    G = genotypes()
    G[2, 4] = -9
    X = dense_of(GenotypeArray(G, missing_code=-9))
    assert X.dtype == np.float64 and np.isnan(X[2, 4])
    assert np.isnan(X).sum() == 1 and G[2, 4] == -9  # the input unchanged


@pytest.mark.parametrize("value, missing_code, message", [
    (3, None, "Genotype 3 in column 4 \\(rs4\\), row 2: a missing-genotype "
              "code; declare it \\(missing_code=3\\)"),
    (-9, None, "Genotype -9 .* a missing-genotype code"),
    (7, None, "Genotype 7 .* genotypes must be 0, 1 or 2 \\(copies of an "
              "allele\\)\\.$"),
    (7, -1, "genotypes must be 0, 1 or 2 .*, or -1 for missing"),
], ids=["3", "-9", "7", "7 with a missing code"])
def test_genotypes_outside_0_1_2(value, missing_code, message):
    G = genotypes()
    G[2, 4] = value
    names = [f"rs{j}" for j in range(G.shape[1])]
    with pytest.raises(ReliefInputError, match=message):
        GenotypeArray(G, missing_code=missing_code, names=names)


@pytest.mark.parametrize("X, message", [
    (np.zeros(4, np.int8), "2-D array"),
    (np.zeros((3, 3)), "must be integers"),
])
def test_not_genotypes(X, message):
    with pytest.raises(ReliefInputError, match=message):
        GenotypeArray(X)


class Broken(ArraySource):
    """A source whose blocks break the protocol as `change` says."""

    def __init__(self, change):
        super().__init__(genotypes())
        self.change = change

    def column_blocks(self, size):
        yield from self.change(list(super().column_blocks(size)))


@pytest.mark.parametrize("change, message", [
    (lambda blocks: blocks[1:], "expected 12 rows from column 0"),
    (lambda blocks: blocks[:-1], "blocks end at column 8 of 9"),
    (lambda blocks: [(s, b[:-1]) for s, b in blocks], "shape \\(11, 4\\)"),
    (lambda blocks: [(s, b.astype(float)) for s, b in blocks],
     "declares dtype int8 but gave a block of float64"),
], ids=["a block skipped", "the last block missing", "a row short",
        "another dtype"])
def test_a_source_that_breaks_the_protocol(change, message):
    with pytest.raises(ReliefInputError, match=message):
        list(blocks_of(Broken(change), size=4))


def test_columns_of_a_source_are_the_subset():
    G = genotypes(shape=(5, 20))
    G[1, 13] = -127
    picked = columns_of(ArraySource(G, -127), np.array([0, 3, 13, 19]))
    assert picked.missing_code == -127 and picked.dtype == np.int8
    assert np.array_equal(picked.values, G[:, [0, 3, 13, 19]])
    sparse = sp.csr_matrix(G.astype(np.float32))
    assert np.array_equal(dense_of(columns_of(sparse, [1, 2])),
                          G[:, [1, 2]])


def test_the_core_gets_sources_and_sparse_matrices_as_they_are():
    source = GenotypeArray(genotypes())
    assert core_input(source) is source
    X = sp.random(10, 6, density=0.3, format="csc", dtype=np.float32,
                  random_state=0)
    kept = core_input(X)
    assert sp.isspmatrix_csr(kept) and kept.dtype == np.float32
    assert np.array_equal(kept.toarray(), X.toarray())
    X.data[0] = np.nan  # the core reads a missing value only densely
    dense = core_input(X)
    assert isinstance(dense, np.ndarray) and dense.dtype == np.float32
    assert np.isnan(dense).sum() == 1


def test_a_missing_extra_is_one_line_naming_the_extra(monkeypatch):
    def absent(name):
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(extras.importlib, "import_module", absent)
    with pytest.raises(extras.MissingExtra) as caught:
        extras.require("bed_reader")
    message = str(caught.value)
    assert "\n" not in message
    assert ("Reading PLINK .bed files needs the package bed-reader: pip "
            "install \"Orange3-Relief[genomics]\"") in message
