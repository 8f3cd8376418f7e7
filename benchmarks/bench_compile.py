"""What compiling the compiled engine costs: each kernel's signatures and
processor time when the preparation's workload (``core.warmup.WORKLOAD``)
compiles them all, in one process.

Usage::

    python benchmarks/bench_compile.py [--repeats 3] [--parts RFSM,...]
    git archive COMMIT orangecontrib | tar -x -C /tmp/old
    python benchmarks/bench_compile.py --source /tmp/old

Each repeat runs every part of the workload in one fresh process (the
preparation runs each in a worker of its own; here their kernels are
timed in one place) with an empty numba cache (a temporary
``NUMBA_CACHE_DIR``) and measures its processor time (every thread of
the process).  numba's
event API (``numba.core.event``) times each compilation of a kernel of
``core/engines/compiled``; a kernel's own time leaves out the kernels it
calls that numba compiles separately (it includes what numba inlines and
numba's own library code, which compile into it).  The table lists each
kernel's signatures (those the workload compiles), its median own
processor time over the repeats, and the totals: the workload, the
kernels' sum, and the rest (running the workload, writing the cache,
Python).  ``--parts`` runs only the named parts of the workload (the start
of a name is enough).  ``--source``
measures the ``orangecontrib`` package of another folder, such as an
earlier commit's (imported without ``site``'s editable install).
"""
import argparse
import json
import os
import site
import statistics
import subprocess
import sys
import tempfile
import time

from numba.core import event

from arguments import Parser, positive_int

#: the kernels' package
PACKAGE = "orangecontrib.relief.core.engines.compiled"


class CompileTimer(event.Listener):
    """Processor time of each compilation of a kernel of PACKAGE, less the
    compilations of other kernels of PACKAGE nested in it, and the part of
    it spent in LLVM (numba's "numba:llvm_lock" events)."""

    def __init__(self):
        self.own = {}  # dispatcher -> seconds
        self.llvm = {}  # dispatcher -> seconds of LLVM
        self.stack = []  # [dispatcher, start, nested seconds]

    def on_start(self, event):
        dispatcher = event.data["dispatcher"]
        if is_kernel(dispatcher):
            self.stack.append([dispatcher, time.process_time(), 0.0])

    def on_end(self, event):
        dispatcher = event.data["dispatcher"]
        if not is_kernel(dispatcher):
            return
        _, start, nested = self.stack.pop()
        spent = time.process_time() - start
        self.own[dispatcher] = self.own.get(dispatcher, 0.0) + spent - nested
        if self.stack:
            self.stack[-1][2] += spent


class LLVMTimer(event.Listener):
    """Adds the processor time of each stretch of LLVM work (the outermost
    of nested holds of LLVM's lock) to the kernel being compiled (the
    innermost of `compiling`'s stack)."""

    def __init__(self, compiling):
        self.compiling = compiling
        self.depth, self.start = 0, 0.0

    def on_start(self, event):
        if self.depth == 0:
            self.start = time.process_time()
        self.depth += 1

    def on_end(self, event):
        self.depth -= 1
        if self.depth == 0 and self.compiling.stack:
            dispatcher = self.compiling.stack[-1][0]
            self.compiling.llvm[dispatcher] = (
                self.compiling.llvm.get(dispatcher, 0.0)
                + time.process_time() - self.start)


def is_kernel(dispatcher):
    """Whether `dispatcher` compiles a function of the core (the kernels,
    and the core's formulas compiled by them)."""
    module = getattr(dispatcher.py_func, "__module__", "") or ""
    return module.startswith("orangecontrib.relief.core")


def kernels():
    """{name: dispatcher} of every numba dispatcher in PACKAGE's modules,
    named ``module.function``, the module relative to PACKAGE: the one
    that defines the function, else the first that compiles it (a formula
    of the core compiled by a kernel module)."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    package = importlib.import_module(PACKAGE)
    found = {}
    for info in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and (
                    id(value) not in found
                    or value.py_func.__module__ == info.name):
                found[id(value)] = (info.name[len(PACKAGE) + 1:], value)
    return {f"{module}.{dispatcher.py_func.__name__}": dispatcher
            for module, dispatcher in found.values()}


def child(parts):
    """One measurement, in this fresh process: a JSON line on stdout."""
    from orangecontrib.relief.core import warmup
    from orangecontrib.relief.core.engines import COMPILED, forced

    timer = CompileTimer()
    event.register("numba:compile", timer)
    event.register("numba:llvm_lock", LLVMTimer(timer))
    start, wall = time.process_time(), time.perf_counter()
    with forced(COMPILED):
        for name, call in warmup.WORKLOAD:
            if not parts or any(name.startswith(part) for part in parts):
                call()
    total, wall = time.process_time() - start, time.perf_counter() - wall
    table = {name: (len(dispatcher.overloads),
                    timer.own.get(dispatcher, 0.0),
                    timer.llvm.get(dispatcher, 0.0))
             for name, dispatcher in kernels().items()}
    print(json.dumps({"total": total, "wall": wall, "kernels": table,
                      "package": os.path.dirname(warmup.__file__)}))


def measure(parts, source=None):
    """child() in a fresh process with an empty numba cache, on the
    package in the folder `source` (None: the installed one)."""
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as cache:
        environment = dict(os.environ, NUMBA_CACHE_DIR=cache,
                           ORANGE_RELIEF_BACKGROUND="0")
        environment.pop("ORANGE_RELIEF_ENGINE", None)
        command = [sys.executable, __file__, "--child"]
        if source:
            environment["PYTHONPATH"] = os.pathsep.join(
                [source, *site.getsitepackages()])
            command.insert(1, "-S")
        if parts:
            command += ["--parts", ",".join(parts)]
        done = subprocess.run(command, env=environment, capture_output=True,
                              text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def spread(values):
    """'median (min - max)' of a list of seconds."""
    median = statistics.median(values)
    if len(values) == 1:
        return f"{median:.1f}"
    return f"{median:.1f} ({min(values):.1f} - {max(values):.1f})"


def report(runs):
    """The table of the kernels (by median own time) and the totals."""
    def median(name, column):
        return statistics.median(run["kernels"][name][column] for run in runs)

    names = sorted(runs[0]["kernels"], key=lambda name: -median(name, 1))
    print("| kernel | signatures | CPU s | of which LLVM |")
    print("| --- | ---: | ---: | ---: |")
    for name in names:
        signatures = runs[0]["kernels"][name][0]
        if signatures:
            print(f"| {name} | {signatures} | {median(name, 1):.1f} | "
                  f"{median(name, 2):.1f} |")
    kernel_sums = [sum(row[1] for row in run["kernels"].values())
                   for run in runs]
    llvm_sums = [sum(row[2] for row in run["kernels"].values())
                 for run in runs]
    totals = [run["total"] for run in runs]
    counts = [row[0] for row in runs[0]["kernels"].values()]
    print(f"| every kernel ({sum(1 for c in counts if c)} kernels) | "
          f"{sum(counts)} | {spread(kernel_sums)} | {spread(llvm_sums)} |")
    print(f"| the rest (running, caching, Python) | | "
          f"{spread([t - k for t, k in zip(totals, kernel_sums)])} | |")
    print(f"| **the workload** | | **{spread(totals)}** | |")
    walls = [run["wall"] for run in runs]
    print(f"\nthe workload, processor time of each run: "
          f"{', '.join(f'{t:.1f}' for t in totals)} s; wall: "
          f"{', '.join(f'{w:.1f}' for w in walls)} s")


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=positive_int, default=3,
                        help="fresh processes, each with an empty cache")
    parser.add_argument("--parts", type=lambda text: text.split(","),
                        default=[], help="only these parts of the workload "
                                         "(comma-separated)")
    parser.add_argument("--source", help="a folder holding another "
                                         "orangecontrib/relief to measure")
    parser.add_argument("--child", action="store_true",
                        help=argparse.SUPPRESS)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.child:
        child(args.parts)
        return
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}, "
          f"{os.cpu_count()} processors", flush=True)
    runs = []
    for repeat in range(args.repeats):
        runs.append(measure(args.parts, args.source))
        print(f"run {repeat + 1}: the workload {runs[-1]['total']:.1f} s of "
              f"processor time ({runs[-1]['package']})", flush=True)
    report(runs)


if __name__ == "__main__":
    main()
