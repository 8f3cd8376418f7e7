"""ReliefF streamed from an .npy file larger than memory would allow.

Usage: ``python benchmarks/bench_streaming.py DATA.npy [--k 10] [--m 10]
[--chunk-rows 50000]`` (DATA.npy and DATA.labels.npy from make_large.py)

Prints the wall time, the rows per second, the peak resident memory and a
projection to 33.6 million rows (the full ECBDL14) from the measured
throughput, beside DiReliefF's figures on Apache Spark (Palma-Mendoza,
Rodriguez & de-Marcos, KAIS 2018): 192 min on one core and 17 min on 14
cores for the 3.36 million row sample, about 150 min for all 33.6 million.
"""
import resource
import time

import numpy as np

from orangecontrib.relief.core.variants.streaming import relieff_streaming

from arguments import Parser, positive_int

FULL_ROWS = 33_600_000


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("--k", type=positive_int, default=10)
    parser.add_argument("--m", type=positive_int, default=10)
    parser.add_argument("--chunk-rows", type=positive_int, default=50_000)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    y = np.load(args.data.replace(".npy", ".labels.npy"))
    X = np.load(args.data, mmap_mode="r")
    start = time.perf_counter()
    weights = relieff_streaming(args.data, y, k_nearest=args.k,
                                n_iterations=args.m,
                                chunk_rows=args.chunk_rows)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20
    rows, cols = X.shape
    print(f"{rows} x {cols} ({X.nbytes / 2 ** 30:.1f} GiB), k = {args.k}, "
          f"m = {args.m}, chunks of {args.chunk_rows} rows")
    print(f"time {seconds:.1f} s, {rows / seconds:,.0f} rows/s, peak "
          f"resident memory {peak:.2f} GiB")
    print(f"projection to {FULL_ROWS:,} rows: "
          f"{FULL_ROWS / (rows / seconds) / 60:.1f} min")
    print("DiReliefF on Spark: 192 min (1 core), 17 min (14 cores) for "
          "3.36M rows; about 150 min for 33.6M rows")
    best = np.argsort(-weights)[:3]
    print(f"best attributes {list(best)}, weights {np.round(weights[best], 4)}")


if __name__ == "__main__":
    main()
