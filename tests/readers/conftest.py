"""Small PLINK and AnnData files written by the tests themselves."""
import numpy as np
import pytest


def write_bed(folder, genotypes, phenotypes=None, name="study"):
    """A .bed, .bim and .fam of `genotypes` (int8, -127 missing) in
    `folder`; the .fam's phenotypes `phenotypes` (strings, default -9);
    individuals iid1 ..., SNPs sid1 ...  Returns the .bed's path."""
    bed_reader = pytest.importorskip(
        "bed_reader", reason="the genomics extra (bed-reader) is not "
                             "installed")
    path = folder / f"{name}.bed"
    n = genotypes.shape[0]
    bed_reader.to_bed(path, np.asarray(genotypes, dtype=np.int8),
                      properties={"pheno": phenotypes or ["-9"] * n})
    return path


def genotypes_and_class(n=80, a=30, seed=0):
    """Genotypes 0/1/2 (int8) and a class 0/1 that two copies or more of
    the first two SNPs' alleles make 1."""
    rng = np.random.default_rng(seed)
    genotypes = rng.integers(0, 3, (n, a)).astype(np.int8)
    y = (genotypes[:, 0] + genotypes[:, 1] >= 2).astype(np.int64)
    return genotypes, y


@pytest.fixture
def study(tmp_path):
    """(.bed path, genotypes, class) of :func:`genotypes_and_class` with its
    class in the .fam as case/control (1 control, 2 case)."""
    genotypes, y = genotypes_and_class()
    genotypes[3, 5] = -127  # one genotype not called
    path = write_bed(tmp_path, genotypes, [str(v + 1) for v in y])
    return path, genotypes, y
