"""PLINK .bed and AnnData .h5ad files as Orange tables (fileformats): the
File widget's and Table()'s readers."""
import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import Table
from Orange.data.io import FileFormat

from orangecontrib.relief import fileformats
from orangecontrib.relief.core.errors import ReliefInputError
from tests.readers.conftest import genotypes_and_class, write_bed


def test_the_formats_are_registered():
    assert FileFormat.readers[".bed"] is fileformats.PlinkBedReader
    assert FileFormat.readers[".h5ad"] is fileformats.AnnDataReader


def test_a_bed_with_its_pheno_file(tmp_path):
    genotypes, y = genotypes_and_class(n=20, a=6)
    genotypes[2, 1] = -127
    path = write_bed(tmp_path, genotypes)
    path.with_suffix(".pheno").write_text("FID IID status\n" + "".join(
        f"0 iid{i + 1} {v + 1}\n" for i, v in enumerate(y)))
    table = Table(str(path))
    assert [a.name for a in table.domain.attributes] == [
        f"sid{j}" for j in range(1, 7)]
    assert table.domain.class_var.name == "status"
    assert table.domain.class_var.values == ("control", "case")
    assert np.array_equal(table.Y, y)
    X = genotypes.astype(float)
    X[2, 1] = np.nan
    assert np.array_equal(table.X, X, equal_nan=True)
    assert table.metas[0].tolist() == ["0", "iid1"]


def test_a_bed_without_any_phenotype_has_no_class(tmp_path):
    genotypes, _ = genotypes_and_class(n=8, a=3)
    table = Table(str(write_bed(tmp_path, genotypes)))
    assert table.domain.class_var is None and table.X.shape == (8, 3)


def test_a_bed_without_its_fam(tmp_path):
    genotypes, _ = genotypes_and_class(n=8, a=3)
    path = write_bed(tmp_path, genotypes)
    path.with_suffix(".fam").unlink()
    with pytest.raises(ReliefInputError, match="needs its .*fam beside it"):
        Table(str(path))


def test_too_large_for_a_table(tmp_path, monkeypatch):
    genotypes, _ = genotypes_and_class(n=8, a=3)
    path = write_bed(tmp_path, genotypes)
    monkeypatch.setattr(fileformats, "MAX_CELLS", 20)
    with pytest.raises(ReliefInputError, match="orange-relief rank"):
        Table(str(path))


def test_an_h5ad_keeps_x_sparse_and_obs_as_metas(tmp_path):
    from tests.readers.test_h5ad import counts, write

    X, obs = counts()
    table = Table(str(write(tmp_path / "cells.h5ad", X, obs)))
    assert sp.issparse(table.X) and (table.X != X).nnz == 0
    assert [m.name for m in table.domain.metas] == [
        "cell_type", "label", "depth", "doublet"]
    assert table.domain.metas[0].values == ("B cell", "T cell")
    assert table.domain.class_var is None
