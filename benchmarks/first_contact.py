"""What a newcomer waits for: the first result of each case in a fresh
process with an empty numba cache, on an idle machine and beside two busy
processes, against the goals; and the same calls once the compiled engine
is prepared.

Every case runs in its own fresh interpreter (wall time of the whole
process, imports included) with an empty ``NUMBA_CACHE_DIR``, as on a new
installation: the vectorised engine answers while the compiled one is
prepared in the background, as a person would meet it (that preparation is
stopped when the case ends).  "Busy" runs two processes that spin on a
core each beside it.  "Prepared" runs the case in a fresh process whose
cache ``orange-relief prepare`` filled first; the last line gives the
processor time that preparation took.

    python benchmarks/first_contact.py                  # every case
    python benchmarks/first_contact.py --no-busy        # idle only
    python benchmarks/first_contact.py --cases "ReliefF 5000x100"
    python benchmarks/first_contact.py --scale 0.2      # smaller data

The data are generated (numeric columns uniform in [0, 1), a binary class,
a three-class one or a numeric target).
"""
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass

from arguments import Parser, positive_number

try:
    import psutil
except ImportError:  # without it a background preparation is left running
    psutil = None


@dataclass(frozen=True)
class Case:
    """A first result: its name, the program (a Python statement on data
    of n x a, or an ``orange-relief`` command line), and the goals in
    seconds idle and busy (a goal of None: within `ratio` times the
    prepared time)."""
    name: str
    program: str
    n: int = 0
    a: int = 0
    idle: float | None = None
    busy: float | None = None
    ratio: float | None = None


SETUP = """
import numpy as np
from orangecontrib.relief import core
from orangecontrib.relief.core import significance, surf
rng = np.random.default_rng(0)
X = rng.random(({n}, {a}))
y = (X[:, 0] + X[:, 1] > 1).astype(float)
y3 = rng.integers(0, 3, {n}).astype(float)
t = X[:, 0] + X[:, 1] * X[:, 2] + 0.1 * rng.random({n})
"""

CASES = [
    Case("ReliefF", "core.relieff(X, y)", 5000, 100, 10, 30),
    Case("RReliefF", "core.rrelieff(X, t)", 5000, 100, 10, 30),
    Case("MultiSURF", "surf.multisurf(X, y)", 5000, 100, 10, 30),
    Case("MultiSURF with STIR",
         "significance.stir(X, y, neighbourhood='multisurf')", 5000, 100, 10,
         30),
    Case("CDRelief", "core.cdrelief(X, y3)", 5000, 100, 10, 30),
    Case("RFSM greedy search", "core.greedy_forward(core.RFSM(X, y))",
         5000, 100, 10, 30),
    Case("ReliefF", "core.relieff(X, y)", 20000, 50, 30, 90),
    Case("experiment separability",
         "experiment separability --problem ModuloP --max-relevant 2", idle=60,
         busy=180),
    Case("experiment rfsm", "experiment rfsm", ratio=1.5),
    Case("experiment classdep", "experiment classdep", ratio=1.5),
]


def label(case, scale=1.0):
    """The case's name with its size."""
    if not case.n:
        return case.name
    return f"{case.name} {sized(case.n, scale)}x{sized(case.a, scale)}"


def sized(count, scale):
    return max(2, round(count * scale))


#: stands for the folder an experiment writes its files to
OUT = "OUT"


def command(case, scale):
    """The command line of `case` (its data scaled by `scale`); an
    experiment writes its files to OUT."""
    if not case.n:
        return [sys.executable, "-m", "orangecontrib.relief",
                *case.program.split(), "--out", OUT, "--quiet"]
    setup = SETUP.format(n=sized(case.n, scale), a=sized(case.a, scale))
    return [sys.executable, "-c", setup + case.program]


def stop_preparations(cache_dir):
    """Stop the background preparations working in `cache_dir`."""
    if psutil is None:
        return
    for process in psutil.process_iter(["cmdline"]):
        try:
            if (process.info["cmdline"]
                    and "--background" in process.info["cmdline"]
                    and process.environ().get("NUMBA_CACHE_DIR") == cache_dir):
                process.kill()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue


def timed(argv, cache_dir):
    """Wall seconds of `argv` in a fresh process using `cache_dir`, with
    the choice of engine and the background preparation left to the
    add-on; the background preparation it started is stopped after it."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    for name in ("ORANGE_RELIEF_ENGINE", "ORANGE_RELIEF_BACKGROUND"):
        env.pop(name, None)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run([out if part == OUT else part for part in argv],
                       check=True, env=env, cwd=out,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
    stop_preparations(cache_dir)
    return seconds


@contextmanager
def busy(count):
    """`count` processes spinning on a core each, for the block."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.send_signal(signal.SIGKILL)
            spinner.wait()


def first_result(case, scale, busy_count=0):
    """Seconds to `case`'s first result with an empty cache."""
    with tempfile.TemporaryDirectory() as cache_dir, busy(busy_count):
        return timed(command(case, scale), cache_dir)


def prepared_cache(cache_dir):
    """Prepare the compiled engine into `cache_dir`; its processor
    seconds."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    before = os.times()
    subprocess.run([sys.executable, "-m", "orangecontrib.relief", "prepare"],
                   check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = os.times()
    return ((after.children_user - before.children_user)
            + (after.children_system - before.children_system))


def verdict(case, idle, busy_time, prepared):
    """'yes' where the times meet the case's goals, else 'no'."""
    if case.ratio is not None:
        return "yes" if idle <= case.ratio * prepared else "no"
    met = idle < case.idle and (busy_time is None or busy_time < case.busy)
    return "yes" if met else "no"


def goal_text(case, which):
    if case.ratio is not None:
        return f"<= {case.ratio}x prepared" if which == "idle" else ""
    return f"< {getattr(case, which):g}"


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="*",
                        choices=[label(case) for case in CASES],
                        help="only these cases (default: all)")
    parser.add_argument("--no-busy", action="store_true",
                        help="idle only, not beside two busy processes")
    parser.add_argument("--scale", type=positive_number, default=1.0,
                        help="scale the data's rows and columns (the goals "
                             "hold for 1, the default)")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    cases = [case for case in CASES
             if not args.cases or label(case) in args.cases]
    rows = []
    with tempfile.TemporaryDirectory() as ready:
        compile_seconds = prepared_cache(ready)
        for case in cases:
            idle = first_result(case, args.scale)
            busy_time = (None if args.no_busy or case.ratio is not None
                         else first_result(case, args.scale, busy_count=2))
            prepared = timed(command(case, args.scale), ready)
            rows.append((label(case, args.scale), goal_text(case, "idle"),
                         f"{idle:.1f}", goal_text(case, "busy"),
                         "" if busy_time is None else f"{busy_time:.1f}",
                         f"{prepared:.1f}",
                         verdict(case, idle, busy_time, prepared)))
    header = ("case", "goal idle (s)", "empty cache, idle (s)",
              "goal busy (s)", "empty cache, busy (s)", "prepared (s)",
              "goals met")
    widths = [max(len(row[i]) for row in [header, *rows])
              for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths))
          + " |")
    print("| " + " | ".join("-" * widths[0] if i == 0 else "---:"
                            for i in range(len(header))) + " |")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths))
              + " |")
    print(f"\nPreparing the compiled engine (orange-relief prepare) took "
          f"{compile_seconds:.0f} s of processor time.")


if __name__ == "__main__":
    main()
