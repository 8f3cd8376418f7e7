"""Generated wide data for the benchmarks of narrow, sparse and streamed
columns (``bench_narrow.py``): random genotypes as an int8 array or as a
column-block source that makes its columns as they are read, sparse
counts, expression values.  Every column depends on the seed and its own
index only, so a source read in blocks of any size gives the same data.

The class of the genotypes is an additive effect of SNPs 0 and 1 with a
tenth of the labels flipped, so the weights have something to find.
"""
import numpy as np

#: columns a source makes from one seed at a time
CHUNK = 1024


def genotype_columns(n, start, stop, seed=0):
    """Genotypes 0/1/2 (int8, n x (stop - start)) of columns start .. stop
    - 1, each chunk of CHUNK columns from a seed of its own, uniform (a
    source of a million SNPs makes them a few times per run: cheaply)."""
    out = np.empty((n, stop - start), np.int8)
    for chunk in range(start // CHUNK, -(-stop // CHUNK)):
        rng = np.random.default_rng([seed, chunk])
        first, last = chunk * CHUNK, (chunk + 1) * CHUNK
        block = rng.integers(0, 3, (n, CHUNK), dtype=np.int8)
        lo, hi = max(first, start), min(last, stop)
        out[:, lo - start:hi - start] = block[:, lo - first:hi - first]
    return out


def genotype_class(n, seed=0):
    """The class of the genotypes of n instances (SNPs 0 and 1 additive,
    a tenth flipped)."""
    snps = genotype_columns(n, 0, 2, seed)
    y = (snps.sum(axis=1) > 1).astype(np.float64)
    # a stream of its own: no chunk of columns reaches 2 ** 31
    flip = np.random.default_rng([seed, 2 ** 31]).random(n) < 0.1
    return np.where(flip, 1 - y, y)


class GenotypeSource:
    """A column-block source of n x a generated genotypes (int8): a file
    of SNPs that is never held whole."""

    def __init__(self, n, a, seed=0):
        self.shape, self.dtype, self.seed = (n, a), np.dtype(np.int8), seed

    def column_blocks(self, size):
        for start in range(0, self.shape[1], size):
            stop = min(start + size, self.shape[1])
            yield start, genotype_columns(self.shape[0], start, stop,
                                          self.seed)


def genotypes(n, a, seed=0):
    """(X int8 (n, a), y) of generated genotypes."""
    return genotype_columns(n, 0, a, seed), genotype_class(n, seed)


def sparse_counts(n, a, density, seed=0):
    """(X CSR float32 (n, a) of counts 1 .. 30 at `density`, y of three
    classes), the first ten columns' counts higher in class 1."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    nnz = int(n * a * density)
    rows = rng.integers(0, n, nnz)
    cols = rng.integers(0, a, nnz)
    y = rng.integers(0, 3, n).astype(np.float64)
    values = rng.integers(1, 30, nnz).astype(np.float32)
    values[(cols < 10) & (y[rows] == 1)] += 20
    X = sp.csr_matrix((values, (rows, cols)), shape=(n, a), dtype=np.float32)
    X.sum_duplicates()
    return X, y


def expression(n, a, seed=0):
    """(X float32 (n, a) log-normal expression, y of two classes), the
    first ten genes shifted in class 1."""
    rng = np.random.default_rng(seed)
    y = (np.arange(n) % 2).astype(np.float64)
    X = rng.lognormal(0, 1, (n, a)).astype(np.float32)
    X[:, :10] += (y[:, None] * 2).astype(np.float32)
    return X, y
