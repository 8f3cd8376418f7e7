"""How long the papers' experiments take from the command line.

Usage: ``python benchmarks/bench_experiments.py [EXPERIMENT ...]``

Each EXPERIMENT is what follows ``orange-relief experiment`` (a name and
its options, quoted as one argument, such as ``"separability
--max-relevant 10"``); default: the three experiments with their own
defaults, the papers' full designs.  Each runs once, in a fresh process
(``python -m orangecontrib.relief experiment ... --quiet``, writing to a
temporary directory), and the table gives its wall time, imports and
figures included.
"""
import shlex
import subprocess
import sys
import tempfile
import time

from arguments import Parser

DEFAULT = ("classdep", "rfsm", "separability")


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("experiments", nargs="*", default=list(DEFAULT),
                        metavar="EXPERIMENT",
                        help="a name and its options, quoted as one "
                             "argument (default: " + ", ".join(DEFAULT)
                             + ")")
    return parser


def timed(experiment):
    """Wall seconds of `experiment` (a name and options) in a fresh
    process."""
    with tempfile.TemporaryDirectory(prefix="experiment-") as out:
        command = [sys.executable, "-m", "orangecontrib.relief",
                   "experiment", *shlex.split(experiment), "--out", out,
                   "--quiet"]
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - start


def main(argv=None):
    args = build_parser().parse_args(argv)
    rows = [(f"orange-relief experiment {experiment}", timed(experiment))
            for experiment in args.experiments]
    width = max(len(command) for command, _ in rows)
    print(f"| {'command':<{width}} | wall time (s) |")
    print(f"| {'-' * width} | ---: |")
    for command, seconds in rows:
        print(f"| {command:<{width}} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
