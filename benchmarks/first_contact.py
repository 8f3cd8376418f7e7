"""What a new user waits for: the first result of each variant, in a fresh
process, with an empty numba cache and with a warm one.

Every case runs in its own fresh interpreter (wall time of the whole
process, imports included), first with an empty ``NUMBA_CACHE_DIR``, then
again with the cache that run left; then all cases run in one fresh
process with an empty cache.  The command line case is ``orange-relief
rank`` (heart_disease, ReliefF) beside ``python -c "import Orange.data"``,
the floor any Orange command pays.

    python benchmarks/first_contact.py              # every case, 1000 x 50
    python benchmarks/first_contact.py --size 300x20 --repeats 3

The data are generated (numeric columns uniform in [0, 1), nominal columns
with 3 values, a binary or three-class class or a numeric target); each
case names its variant and the kind of data.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from arguments import Parser, positive_int, size

#: case name -> the Python statement that computes its first result; `X`,
#: `X_nominal`, `X_mixed`, `X_missing`, `D_mixed` (the nominal mask), `y`,
#: `y3` (three classes), `t` (numeric target) and `table` are defined by
#: SETUP
CASES = {
    "Relief": "core.relief(X, y)",
    "ReliefF": "core.relieff(X, y3)",
    "ReliefF nominal": "core.relieff(X_nominal, y3, np.ones(a, bool))",
    "ReliefF mixed": "core.relieff(X_mixed, y3, D_mixed)",
    "ReliefF missing": "core.relieff(X_missing, y3)",
    "ReliefF mixed + missing":
        "core.relieff(np.where(np.isnan(X_missing), np.nan, X_mixed), y3,"
        " D_mixed)",
    "ReliefF squared": "core.relieff(X, y3, diff='squared')",
    "ReliefF ramp": "core.relieff(X, y3, diff='ramp')",
    "ReliefF sampled (m = 100)": "core.relieff(X, y3, n_iterations=100)",
    "ReliefF distance weights":
        "core.relieff(X, y3, distance_weights=np.linspace(0, 1, a))",
    "RReliefF": "core.rrelieff(X, t)",
    "RReliefF missing": "core.rrelieff(X_missing, t)",
    "dReliefF": "core.drelieff(X, y3)",
    "pdReliefF": "core.pdrelieff(X, y3)",
    "CDRelief": "core.cdrelief(X, y3)",
    "IWCDRelief": "core.iwcdrelief(X, y3)",
    "RFSM greedy search": "core.greedy_forward(core.RFSM(X_missing, y3))",
    "class-dependent kNN": "ClassDependentKNNLearner()(table)(table)",
}

SETUP = """
import numpy as np
from orangecontrib.relief import core
n, a = {n}, {a}
rng = np.random.default_rng(0)
X = rng.random((n, a))
X_nominal = rng.integers(0, 3, (n, a)).astype(float)
D_mixed = np.arange(a) % 3 == 0
X_mixed = np.where(D_mixed, X_nominal, X)
X_missing = np.where(rng.random((n, a)) < 0.1, np.nan, X)
y = rng.integers(0, 2, n).astype(float)
y3 = rng.integers(0, 3, n).astype(float)
t = X[:, 0] + X[:, 1] * X[:, 2] + 0.1 * rng.random(n)
"""

TABLE_SETUP = """
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from orangecontrib.relief import ClassDependentKNNLearner
table = Table.from_numpy(Domain(
    [ContinuousVariable(f"a{{i}}") for i in range(a)],
    DiscreteVariable("c", values=["0", "1", "2"])), X, y3)
"""


def script(cases, n, a):
    """The program that runs `cases` in one process."""
    lines = [SETUP.format(n=n, a=a)]
    if any("table" in CASES[case] for case in cases):
        lines.append(TABLE_SETUP.format())
    lines += [CASES[case] for case in cases]
    return "\n".join(lines)


def timed(command, cache_dir):
    """Wall seconds of `command` in a fresh process using `cache_dir`."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    env.pop("ORANGE_RELIEF_ENGINE", None)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def cold_and_warm(command, repeats):
    """Median wall seconds with an empty cache and with the cache the cold
    run left, over `repeats` fresh pairs."""
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache_dir:
            cold.append(timed(command, cache_dir))
            warm.append(timed(command, cache_dir))
    return statistics.median(cold), statistics.median(warm)


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=size, default="1000x50",
                        help="instances x attributes (default: 1000x50)")
    parser.add_argument("--repeats", type=positive_int, default=1,
                        help="fresh cold/warm pairs per case (default: 1)")
    parser.add_argument("--cases", nargs="*", choices=list(CASES),
                        help="only these cases (default: all)")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    n, a = args.size
    cases = args.cases or list(CASES)
    python = sys.executable
    rows = [("python -c 'import Orange.data'",
             cold_and_warm([python, "-c", "import Orange.data"],
                           args.repeats)),
            ("orange-relief rank (heart_disease)",
             cold_and_warm([python, "-m", "orangecontrib.relief", "rank"],
                           args.repeats))]
    for case in cases:
        rows.append((f"{case}, {n}x{a}",
                     cold_and_warm([python, "-c", script([case], n, a)],
                                   args.repeats)))
    rows.append((f"all {len(cases)} cases in one process",
                 cold_and_warm([python, "-c", script(cases, n, a)],
                               args.repeats)))
    width = max(len(name) for name, _ in rows)
    print(f"| {'case':<{width}} | empty cache (s) | warm cache (s) |")
    print(f"| {'-' * width} | ---: | ---: |")
    for name, (cold, warm) in rows:
        print(f"| {name:<{width}} | {cold:.2f} | {warm:.2f} |")


if __name__ == "__main__":
    main()
