"""Write a large generated data set to an .npy file, a chunk at a time.

Usage: ``python benchmarks/make_large.py OUT.npy [--rows N] [--cols A]``

The default shape is that of the 10 % sample of ECBDL14 on which DiReliefF
(Palma-Mendoza et al. 2018) was measured: 3,360,000 x 631 float32, about
8.5 GB.  Attributes are uniform in [0, 1); the class (written beside, as
OUT.labels.npy) is 1 where the first two attributes sum to more than 1,
with a tenth of the labels flipped.  Memory: one chunk.
"""
import time

import numpy as np

from arguments import Parser, positive_int

CHUNK = 50_000


def write(path, rows, cols, seed=0):
    """Write X (rows x cols float32) to `path` and y beside it."""
    X = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32,
                                  shape=(rows, cols))
    y = np.empty(rows, dtype=np.float64)
    rng = np.random.default_rng(seed)
    for start in range(0, rows, CHUNK):
        stop = min(start + CHUNK, rows)
        block = rng.random((stop - start, cols), dtype=np.float32)
        X[start:stop] = block
        labels = (block[:, 0] + block[:, 1] > 1).astype(np.float64)
        flip = rng.random(stop - start) < 0.1
        y[start:stop] = np.where(flip, 1 - labels, labels)
    X.flush()
    del X
    np.save(str(path).replace(".npy", ".labels.npy"), y)


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--rows", type=positive_int, default=3_360_000)
    parser.add_argument("--cols", type=positive_int, default=631)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    start = time.perf_counter()
    write(args.out, args.rows, args.cols)
    print(f"wrote {args.rows} x {args.cols} float32 to {args.out} in "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
