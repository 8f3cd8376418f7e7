"""PLINK .bed and AnnData .h5ad files as Orange tables: the File widget
and ``Table("study.bed")`` read them once this module is imported (the
add-on's widget category imports it, so in the canvas they are always
there).

They read through :mod:`orangecontrib.relief.readers`, by blocks; an
Orange table holds its values as float64, so the whole matrix is in
memory once read: :data:`MAX_CELLS` bounds it, and larger files are for
``orange-relief rank`` or :func:`orangecontrib.relief.readers.read_wide`,
which keep them narrow.

* A .bed (with its .bim and .fam beside it): the SNPs as numeric
  attributes (copies of the first allele, 0, 1, 2; missing where not
  called), the family and individual IDs as metas, and the class from a
  phenotype file beside it named like it with ``.pheno`` (its first
  phenotype), else from the .fam's phenotypes (none if every one is
  missing).
* An .h5ad: the genes as numeric attributes, sparse where X is sparse,
  and every column of ``obs`` as a meta (categorical, numeric or text);
  choose the class in Select Columns.
"""
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         StringVariable, Table)
from Orange.data.io import FileFormat

from .core.errors import ReliefInputError
from .readers.sources import dense_of

#: the most values a table read here may have (a float64 table of 5 GB)
MAX_CELLS = 625_000_000


def check_cells(path, shape):
    """ReliefInputError when a table of `shape` holds more than
    :data:`MAX_CELLS` values."""
    n, a = shape
    if n * a > MAX_CELLS:
        raise ReliefInputError(
            f"{path} holds {n:,} x {a:,} values, too many for an Orange "
            f"table ({n * a * 8 / 2 ** 30:.0f} GB as float64); rank it with "
            f"orange-relief rank, which reads it by blocks.")


def class_variable(name, values):
    """A DiscreteVariable of the class values `values`, or a
    ContinuousVariable (`values` None)."""
    if values is None:
        return ContinuousVariable(name)
    return DiscreteVariable(name, values=list(values))


class PlinkBedReader(FileFormat):
    """PLINK binary genotypes (.bed, .bim, .fam) and their phenotype."""
    EXTENSIONS = (".bed",)
    DESCRIPTION = "PLINK genotypes"

    def read(self):
        from .readers.plink import BedSource, plink_phenotype

        path = Path(self.filename)
        source = BedSource(path)
        check_cells(path, source.shape)
        pheno = path.with_suffix(".pheno")
        try:
            phenotype = plink_phenotype(source,
                                        pheno if pheno.exists() else None)
        except ReliefInputError:
            if pheno.exists():  # a phenotype file that does not fit
                raise
            phenotype = None  # no phenotype at all: a table without class
        fids, iids, _ = source.individuals()
        attributes = [ContinuousVariable(name, number_of_decimals=0)
                      for name in source.names]
        metas = [StringVariable("FID"), StringVariable("IID")]
        class_var = (None if phenotype is None else
                     class_variable(phenotype.name, phenotype.values))
        table = Table.from_numpy(
            Domain(attributes, class_var, metas),
            np.asarray(dense_of(source), dtype=np.float64),
            None if phenotype is None else phenotype.y,
            np.array([fids, iids], dtype=object).T)
        table.name = path.stem
        return table


class AnnDataReader(FileFormat):
    """AnnData .h5ad files: X (sparse kept sparse) and obs as metas."""
    EXTENSIONS = (".h5ad",)
    DESCRIPTION = "AnnData (single-cell)"
    SUPPORT_SPARSE_DATA = True

    def read(self):
        from .readers.h5ad import annotation, read_annotated

        path = Path(self.filename)
        X, names, obs = read_annotated(path)
        check_cells(path, X.shape)
        columns = [annotation(obs, str(name), path) for name in obs.columns]
        domain = Domain([ContinuousVariable(name) for name in names], None,
                        [class_variable(c.name, c.values) for c in columns])
        table = Table.from_numpy(
            domain, X if sp.issparse(X) else dense_of(X), None,
            np.array([c.y for c in columns], dtype=np.float64).T
            if columns else None)
        table.name = path.stem
        return table


# Orange caches which reader reads an extension; a format registered
# after its first look is seen only once that cache is cleared
type(FileFormat)._ext_to_attr_if_attr2.cache_clear()
