"""PLINK binary genotypes (.bed with its .bim and .fam), read a block of
SNPs at a time through bed-reader.

A .bed file holds 2 bits per genotype, SNP after SNP; its .fam file lists
the individuals (family and individual IDs, parents, sex, phenotype) and
its .bim file the SNPs (chromosome, ID, position, alleles).  Read as
int8, a genotype is the number of copies of the first allele (A1, usually
the minor one) and -127 where it was not called: the
:class:`BedSource`'s ``missing_code``.  Nothing is widened: a block of
3,000 individuals x 4,096 SNPs is 12 MB.
"""
from pathlib import Path

import numpy as np

from ..core.errors import ReliefInputError
from .extras import require
from .phenotypes import fam_phenotype, read_phenotype
from .sources import BLOCK_COLUMNS

#: bed-reader's int8 code of a genotype that was not called
BED_MISSING = -127
#: the first bytes of every SNP-major .bed file
MAGIC = bytes((0x6C, 0x1B, 0x01))


def companions(bed):
    """The .bim and .fam paths beside the .bed file `bed` (a Path), or
    ReliefInputError naming those that are missing."""
    if not bed.exists():
        raise ReliefInputError(f"{bed}: no such file.")
    paths = {suffix: bed.with_suffix(suffix) for suffix in (".bim", ".fam")}
    absent = [str(path) for path in paths.values() if not path.exists()]
    if absent:
        raise ReliefInputError(
            f"{bed} needs its {' and '.join(absent)} beside it (a .bed "
            f"file holds the genotypes only; the .fam lists the "
            f"individuals, the .bim the SNPs).")
    return paths[".bim"], paths[".fam"]


def count_lines(path):
    """The non-blank lines of the text file `path`."""
    with open(path, "rb") as file:
        return sum(1 for line in file if line.strip())


def check_bed_size(bed, n_individuals, n_snps):
    """ReliefInputError unless `bed` starts as a SNP-major .bed file and
    holds exactly the genotypes of `n_individuals` x `n_snps` (the
    counts of its .fam and .bim)."""
    with open(bed, "rb") as file:
        start = file.read(3)
    if start != MAGIC:
        raise ReliefInputError(
            f"{bed} is not a SNP-major PLINK .bed file (it does not start "
            f"with the bytes 6c 1b 01).")
    expected = 3 + -(-n_individuals // 4) * n_snps
    size = bed.stat().st_size
    if size != expected:
        raise ReliefInputError(
            f"{bed} has {size:,} bytes, but its .fam ({n_individuals:,} "
            f"individuals) and .bim ({n_snps:,} SNPs) need {expected:,}: "
            f"the three files do not belong together.")


class BedSource:
    """The genotypes of a PLINK .bed file as a column-block source (see
    :mod:`.sources`): int8, SNPs in blocks, -127 missing.

    Parameters
    ----------
    path : str or Path
        The .bed file; its .bim and .fam must be beside it.
    num_threads : int or None
        bed-reader's threads for decoding a block (None: its default).

    Raises
    ------
    ReliefInputError
        Without the .bim or .fam, for a file that is not a .bed or whose
        size does not match them.
    MissingExtra
        Without bed-reader (``pip install "Orange3-Relief[genomics]"``).
    """
    dtype = np.dtype(np.int8)
    missing_code = BED_MISSING

    def __init__(self, path, num_threads=None):
        bed_reader = require("bed_reader")
        self.path, self.num_threads = Path(path), num_threads
        bim, fam = companions(self.path)
        n, n_snps = count_lines(fam), count_lines(bim)
        check_bed_size(self.path, n, n_snps)
        self.bed = bed_reader.open_bed(self.path, iid_count=n,
                                       sid_count=n_snps,
                                       num_threads=num_threads)
        self.shape = (n, n_snps)

    @property
    def names(self):
        """The SNPs' IDs (the .bim's second column)."""
        return [str(name) for name in self.bed.sid]

    def individuals(self):
        """(family IDs, individual IDs, .fam phenotypes) as lists of
        str, in the file's order."""
        bed = self.bed
        return ([str(f) for f in bed.fid], [str(i) for i in bed.iid],
                [str(p) for p in bed.pheno])

    def column_blocks(self, size=BLOCK_COLUMNS):
        """``(start, genotypes)`` of the SNPs start .. start + size - 1:
        int8 (n, width), Fortran order, read from the file block by
        block."""
        for start in range(0, self.shape[1], size):
            stop = min(start + size, self.shape[1])
            yield start, self.bed.read(np.s_[:, start:stop], dtype="int8",
                                       order="F")

    def __getstate__(self):  # an open_bed holds a file: reopen after pickling
        return {"path": self.path, "num_threads": self.num_threads}

    def __setstate__(self, state):
        self.__init__(state["path"], state["num_threads"])


def plink_phenotype(source, pheno=None, column=None):
    """The phenotype of the individuals of `source` (a :class:`BedSource`):
    from the phenotype file `pheno` (its `column`), else the .fam's.

    Raises ReliefInputError if neither holds a phenotype, or as
    :func:`.phenotypes.read_phenotype` does.
    """
    fids, iids, fam_values = source.individuals()
    if pheno is not None:
        return read_phenotype(pheno, fids, iids, column)
    if column is not None:
        raise ReliefInputError(
            f"--class {column} names a column of a phenotype file; the "
            f".fam file has one phenotype: give the file with --pheno.")
    phenotype = fam_phenotype(source.path.with_suffix(".fam"), fam_values)
    if phenotype is None:
        raise ReliefInputError(
            f"Every phenotype in {source.path.with_suffix('.fam')} is "
            f"missing (-9 or 0): give the phenotypes in a file (FID IID "
            f"value per line) with --pheno.")
    return phenotype


def write_bed(path, source, y, names=None, progress_callback=None):
    """Write the genotypes of the column-block source `source` (int8, 0,
    1, 2) as the PLINK files `path` (.bed) with its .bim and .fam,
    through bed-reader, a SNP at a time: memory of one block.

    `y` is a case/control class (codes 0 control, 1 case; NaN unknown),
    written as the .fam's phenotypes 1, 2 and -9; `names` the SNPs' IDs
    (default: bed-reader's sid1, sid2, ...).
    """
    bed_reader = require("bed_reader")
    n, n_snps = source.shape
    codes = np.asarray(y, dtype=np.float64)
    pheno = ["-9" if np.isnan(c) else str(int(c) + 1) for c in codes]
    properties = {"pheno": pheno}
    if names is not None:
        properties["sid"] = list(names)
    with bed_reader.create_bed(path, iid_count=n, sid_count=n_snps,
                               properties=properties) as bed:
        for start, block in source.column_blocks(BLOCK_COLUMNS):
            for column in block.T:
                bed.write(column)
            if progress_callback is not None:
                progress_callback((start + block.shape[1]) / n_snps)
