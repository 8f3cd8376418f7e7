"""What a newcomer waits for, as a newcomer meets it: whole commands in
fresh processes with an empty numba cache, on an idle machine and beside
two busy processes, against the goals; the same once prepared; and the
preparation itself, idle and busy.

Every case runs in a fresh process (wall time of the whole process,
imports and reading the data included) with an empty ``NUMBA_CACHE_DIR``
of its own, as on a new installation, the engine left to the add-on: the
vectorised engine answers while the compiled one is prepared in the
background, or the compiled one compiles first where that is quicker.
The background preparation a case starts ends when the case's cache
folder is deleted, with the case.  "Busy" runs two processes that spin
on a core each beside the case (started here, as the case is).
"Prepared" runs the case with a cache that ``orange-relief prepare``
filled first.  The cases:

* ``orange-relief rank FILE.csv`` on generated CSV files (ReliefF,
  RReliefF on a numeric class, MultiSURF, MultiSURF with STIR; 5000 x 100
  and 20000 x 50), and the calls that have no command (CDRelief, RFSM's
  greedy search) as a Python program;
* the experiments (``orange-relief experiment ...``);
* the canvas: the Separability tutorial and File -> Relief with MultiSURF
  and STIR on 5000 x 100 (``canvas_first_contact.py``, under a virtual
  screen where there is none; seconds to the complete result);
* ``orange-relief prepare``, idle and busy, and the background
  preparation that a first call starts on a busy machine, to its end.

    python benchmarks/first_contact.py                  # every case
    python benchmarks/first_contact.py --no-busy        # idle only
    python benchmarks/first_contact.py --cases "ReliefF 5000x100"
    python benchmarks/first_contact.py --scale 0.2      # smaller data
    python benchmarks/first_contact.py --no-canvas --no-preparation

It prints one table: each case's goal, its times and whether they meet
the goal; the load average at the start says what else ran.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arguments import Parser, positive_number
from orangecontrib.relief.core import termination
from orangecontrib.relief.core.engines import keeper

HERE = Path(__file__).resolve().parent
#: the longest a case may take before it counts as not ending
LIMIT = 1800.0


@dataclass(frozen=True)
class Case:
    """A first result: its name, its kind ("rank": ``orange-relief rank``
    on a generated CSV file of n x a, with `program` its other arguments;
    "python": a statement on arrays of n x a; "command": an ``orange-relief``
    command line; "canvas": a case of canvas_first_contact.py) and its
    goals: seconds idle and busy, `ratio` a multiple of the prepared time
    idle, `busy_ratio` of the prepared time busy (None: no such goal)."""
    name: str
    kind: str
    program: str = ""
    n: int = 0
    a: int = 0
    idle: float | None = None
    busy: float | None = None
    ratio: float | None = None
    busy_ratio: float | None = None


SETUP = """
import numpy as np
from orangecontrib.relief import core
rng = np.random.default_rng(0)
X = rng.random(({n}, {a}))
y = (X[:, 0] + X[:, 1] > 1).astype(float)
y3 = rng.integers(0, 3, {n}).astype(float)
"""

CASES = [
    Case("ReliefF", "rank", "", 5000, 100, 10, 30),
    Case("RReliefF", "rank", "--class target", 5000, 100, 10, 30),
    Case("MultiSURF", "rank", "--method MultiSURF", 5000, 100, 10, 30),
    Case("MultiSURF with STIR", "rank",
         "--method MultiSURF --significance stir", 5000, 100, 10, 30),
    Case("CDRelief", "python", "core.cdrelief(X, y3)", 5000, 100, 10, 30),
    Case("RFSM greedy search", "python",
         "core.greedy_forward(core.RFSM(X, y))", 5000, 100, 10, 30),
    Case("ReliefF", "rank", "", 20000, 50, 30, 90, busy_ratio=3.0),
    Case("MultiSURF with STIR", "rank",
         "--method MultiSURF --significance stir", 20000, 50,
         busy_ratio=3.0),
    Case("experiment separability", "command",
         "experiment separability --problem ModuloP --max-relevant 2 "
         "--quiet", idle=60, busy=180),
    Case("experiment rfsm", "command", "experiment rfsm --quiet", ratio=1.5),
    Case("experiment classdep", "command", "experiment classdep --quiet",
         ratio=1.5),
    Case("canvas: Separability tutorial", "canvas", "separability", idle=10,
         busy=30),
    Case("canvas: File -> Relief, MultiSURF with STIR 5000x100", "canvas",
         "relief", idle=10, busy=30),
]
#: the goals of the preparation: `prepare` busy within this multiple of
#: its idle time; the background preparation done within this many
#: seconds on a busy machine
PREPARE_RATIO, BACKGROUND_GOAL = 1.5, 600.0


def label(case, scale=1.0):
    """The case's name with its size."""
    if not case.n:
        return case.name
    return f"{case.name} {sized(case.n, scale)}x{sized(case.a, scale)}"


def sized(count, scale):
    return max(2, round(count * scale))


def csv_file(folder, n, a):
    """A CSV file of n instances: a uniform numeric attributes, a binary
    class (of the first two) and a numeric target; made once."""
    path = folder / f"data{n}x{a}.csv"
    if not path.exists():
        rng = np.random.default_rng(0)
        X = rng.random((n, a))
        y = (X[:, 0] + X[:, 1] > 1).astype(int)
        target = X[:, 0] + X[:, 1] * X[:, 2] + 0.1 * rng.random(n)
        header = ",".join([f"a{i}" for i in range(a)] + ["class", "target"])
        np.savetxt(path, np.column_stack([X, y, target]), delimiter=",",
                   header=header, comments="",
                   fmt=["%.6f"] * a + ["%d", "%.6f"])
    return path


def command(case, scale, data):
    """The command line of `case` (its data scaled by `scale`, files in
    `data`)."""
    cli = [sys.executable, "-m", "orangecontrib.relief"]
    if case.kind == "rank":
        n, a = sized(case.n, scale), sized(case.a, scale)
        options = case.program.split() or ["--class", "class"]
        if "--class" not in options:
            options += ["--class", "class"]
        return [*cli, "rank", str(csv_file(data, n, a)), *options]
    if case.kind == "python":
        setup = SETUP.format(n=sized(case.n, scale), a=sized(case.a, scale))
        return [sys.executable, "-c", setup + case.program]
    return [*cli, *case.program.split()]


def environment(cache_dir):
    """The environment of a case: its own numba cache, the engine and the
    background preparation left to the add-on, no progress bars."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir),
               ORANGE_RELIEF_PROGRESS="0")
    for name in ("ORANGE_RELIEF_ENGINE", "ORANGE_RELIEF_BACKGROUND"):
        env.pop(name, None)
    return env


def timed(argv, cache_dir):
    """Wall seconds of `argv` in a fresh process using `cache_dir` (None
    if it failed or took longer than LIMIT)."""
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        try:
            done = subprocess.run(argv, env=environment(cache_dir), cwd=out,
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True,
                                  timeout=LIMIT)
        except subprocess.TimeoutExpired:
            return None
        if done.returncode:
            print(f"{' '.join(argv)} failed: {done.stderr[-500:]}",
                  file=sys.stderr)
            return None
        return time.perf_counter() - start


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


#: how long a background preparation takes at most to end once its folder
#: is deleted (it looks every half second, then stops its worker), and
#: how long a preparation just started takes to name itself in its state
#: file, or a worker to see its folder gone
PREPARATION_ENDS = keeper.HANDOVER + keeper.WORKER_END
WATCH_TURN = 1.5


@contextmanager
def empty_cache():
    """An empty cache folder for the block, removed afterwards with the
    background preparation that works in it (:func:`remove_cache`)."""
    folder = Path(tempfile.mkdtemp(prefix="first-contact-"))
    try:
        yield folder
    finally:
        remove_cache(folder)


def remove_cache(folder):
    """Remove the cache `folder` for good.  Deleting it ends the background
    preparation that works in it, but not at once: a worker that marks
    the kernel folder used or makes a kernel's subfolder while the folder
    is emptied leaves rmtree a folder it cannot remove (and, errors
    ignored, does not say so).  So the preparation's processes, named in
    its state file, are waited for (:data:`PREPARATION_ENDS` seconds at
    most), and what they wrote is removed once they have ended."""
    preparations = [keeper.read_state(kernels).get("pid")
                    for kernels in folder.glob("orange3-relief/*")]
    shutil.rmtree(folder, ignore_errors=True)
    deadline = time.monotonic() + PREPARATION_ENDS
    while (any(map(keeper.process_runs, filter(None, preparations)))
           and time.monotonic() < deadline):
        time.sleep(0.1)
    time.sleep(WATCH_TURN)
    shutil.rmtree(folder, ignore_errors=True)
    if folder.exists():
        print(f"{folder} could not be removed", file=sys.stderr)


def first_result(case, scale, data, busy_count=0, cache_dir=None):
    """Seconds to `case`'s result with an empty cache (or `cache_dir`)."""
    if case.kind == "canvas":
        return canvas_seconds(case.program, busy_count)
    with busy(busy_count):
        if cache_dir is not None:
            return timed(command(case, scale, data), cache_dir)
        with empty_cache() as cache_dir:
            return timed(command(case, scale, data), cache_dir)


COMPLETE = re.compile(r"complete ([\d.]+) s")


def canvas_seconds(case, busy_count):
    """Seconds to the complete result of canvas_first_contact.py's `case`
    (under a virtual screen where there is none); None if it gave none."""
    with tempfile.TemporaryDirectory() as pictures:
        argv = [sys.executable, str(HERE / "canvas_first_contact.py"),
                pictures, "--case", case] + ["--busy"] * bool(busy_count)
        if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
            argv = ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", *argv]
        done = subprocess.run(argv, capture_output=True, text=True,
                              env=environment(pictures))
    found = COMPLETE.search(done.stdout)
    return float(found.group(1)) if found else None


def prepare_seconds(cache_dir, busy_count=0):
    """Wall seconds of ``orange-relief prepare`` into `cache_dir`."""
    with busy(busy_count):
        return timed([sys.executable, "-m", "orangecontrib.relief",
                      "prepare"], cache_dir)


def background_seconds(data, busy_count=2, limit=LIMIT):
    """Wall seconds from a first call (ReliefF on 5000 x 100, which starts
    the background preparation) to the end of that preparation, on a
    machine `busy_count` processes keep busy; None if it did not end in
    `limit` seconds."""
    with busy(busy_count), empty_cache() as cache_dir:
        start = time.perf_counter()
        timed(command(CASES[0], 1.0, data), cache_dir)
        while time.perf_counter() - start < limit:
            if list(Path(cache_dir).glob("orange3-relief/*/ready")):
                return time.perf_counter() - start
            time.sleep(1.0)
    return None


def shown(seconds):
    return "" if seconds is None else f"{seconds:.1f}"


def verdict(met):
    return "yes" if met else "no"


def case_row(case, scale, data, ready, with_busy):
    """The table row of `case`: goals, times, verdict."""
    idle = first_result(case, scale, data)
    busy_time = (first_result(case, scale, data, busy_count=2)
                 if with_busy and (case.busy or case.busy_ratio) else None)
    prepared = (None if case.kind == "canvas"
                else first_result(case, scale, data, cache_dir=ready))
    prepared_busy = (first_result(case, scale, data, 2, ready)
                     if with_busy and case.busy_ratio else None)
    goals, met = [], []
    if case.idle is not None:
        goals.append(f"< {case.idle:g} idle")
        met.append(idle is not None and idle < case.idle)
    if case.busy is not None and with_busy:
        goals.append(f"< {case.busy:g} busy")
        met.append(busy_time is not None and busy_time < case.busy)
    if case.ratio is not None:
        goals.append(f"<= {case.ratio:g}x prepared, idle")
        met.append(None not in (idle, prepared)
                   and idle <= case.ratio * prepared)
    if case.busy_ratio is not None and with_busy:
        goals.append(f"<= {case.busy_ratio:g}x prepared, busy")
        met.append(None not in (busy_time, prepared_busy)
                   and busy_time <= case.busy_ratio * prepared_busy)
    return (label(case, scale), "; ".join(goals), shown(idle),
            shown(busy_time), shown(prepared), shown(prepared_busy),
            verdict(all(met)))


def preparation_rows(data, with_busy, ready):
    """The rows of the preparation: ``prepare`` idle (into `ready`, which
    the cases use) and busy, the background preparation busy."""
    idle = prepare_seconds(ready)
    rows = []
    if not with_busy:
        return [("orange-relief prepare", "", shown(idle), "", "", "", "")]
    with empty_cache() as cache_dir:
        busy_time = prepare_seconds(cache_dir, busy_count=2)
    rows.append(("orange-relief prepare",
                 f"busy <= {PREPARE_RATIO:g}x idle", shown(idle),
                 shown(busy_time), "", "",
                 verdict(None not in (idle, busy_time)
                         and busy_time <= PREPARE_RATIO * idle)))
    background = background_seconds(data)
    rows.append(("background preparation after a first call",
                 f"done < {BACKGROUND_GOAL:g} busy", "", shown(background),
                 "", "", verdict(background is not None
                                 and background < BACKGROUND_GOAL)))
    return rows


HEADER = ("case", "goal (s)", "empty cache, idle (s)",
          "empty cache, busy (s)", "prepared, idle (s)", "prepared, busy (s)",
          "goals met")


def print_table(rows):
    widths = [max(len(row[i]) for row in [HEADER, *rows])
              for i in range(len(HEADER))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(HEADER, widths))
          + " |")
    print("| " + " | ".join("-" * widths[0] if i < 2 else "---:"
                            for i in range(len(HEADER))) + " |")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths))
              + " |")


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="*",
                        choices=[label(case) for case in CASES],
                        help="only these cases (default: all)")
    parser.add_argument("--no-busy", action="store_true",
                        help="idle only, not beside two busy processes")
    parser.add_argument("--no-canvas", action="store_true",
                        help="without the canvas cases")
    parser.add_argument("--no-preparation", action="store_true",
                        help="without the rows of the preparation (prepare "
                             "busy, the background preparation)")
    parser.add_argument("--scale", type=positive_number, default=1.0,
                        help="scale the data's rows and columns (the goals "
                             "hold for 1, the default)")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    # stopped (Ctrl-C, SIGTERM, a timeout), a case's process is killed and
    # every folder removed on the way out: no preparation is left running
    termination.install()
    cases = [case for case in CASES
             if (not args.cases or label(case) in args.cases)
             and not (args.no_canvas and case.kind == "canvas")]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}",
          file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory() as data, \
            tempfile.TemporaryDirectory() as ready:
        data = Path(data)
        if args.no_preparation:
            prepare_seconds(ready)
        else:
            rows += preparation_rows(data, not args.no_busy, ready)
        for case in cases:
            rows.append(case_row(case, args.scale, data, ready,
                                 not args.no_busy))
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print_table(rows)


if __name__ == "__main__":
    main()
