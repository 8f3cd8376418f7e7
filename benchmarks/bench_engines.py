"""The processor time of each engine per unit of work, for the calls of
each part of the compiled engine's preparation: the rates from which the
add-on estimates how long a call takes on each engine
(``core/engines/costs.py``, ``RATES``).

A call's work is references x instances x attributes.  Each call runs
once on each engine, in this process, after one run that loads the
compiled kernels; the rate is processor nanoseconds per unit of work
(both engines share a call among the processors, so processor time,
not wall time, is what scales).  The compiled engine comes from a cache
that ``orange-relief prepare`` fills first (or ``--cache``, a prepared
``NUMBA_CACHE_DIR``).

    python benchmarks/bench_engines.py [--size 4000x50] [--cache DIR]
"""
import os
import subprocess
import sys
import tempfile
import time

from arguments import Parser, size

SETUP = """
import numpy as np
from orangecontrib.relief import core
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.variants import double, npdr, surf
from orangecontrib.relief.core.engines import preparation
rng = np.random.default_rng(0)
X = rng.random(({n}, {a}))
y = (X[:, 0] + X[:, 1] > 1).astype(float)
y3 = rng.integers(0, 3, {n}).astype(float)
t = X[:, 0] + X[:, 1] * X[:, 2] + 0.1 * rng.random({n})
"""
#: the part of the preparation of each call, and the call
CALLS = {
    "RELIEFF": "core.relieff(X, y)",
    "RRELIEFF": "core.rrelieff(X, t)",
    "SURF": "significance.stir(X, y, neighbourhood='multisurf')",
    "NPDR": "npdr.npdr(X, y)",
    "DOUBLE": "double.drelieff(X, y)",
    "CLASS_DEPENDENT": "core.cdrelief(X, y3)",
}
MEASURE = """
import json, time
from orangecontrib.relief.core import engines
rates = {{}}
for part, call in {calls!r}.items():
    row = []
    for engine in ("vectorised", "compiled"):
        with engines.forced(engine):
            if engine == "compiled":
                eval(call)  # loads the kernels
            start = time.process_time()
            eval(call)
            row.append((time.process_time() - start) / {work} * 1e9)
    rates[part] = row
print(json.dumps(rates))
"""


def prepared(folder):
    """Prepare the compiled engine into `folder`."""
    env = dict(os.environ, NUMBA_CACHE_DIR=folder)
    subprocess.run([sys.executable, "-m", "orangecontrib.relief", "prepare"],
                   env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return folder


def measure(n, a, cache):
    """{part: (vectorised, compiled) processor ns per unit of work}."""
    import json

    program = (SETUP.format(n=n, a=a)
               + MEASURE.format(calls=CALLS, work=n * n * a))
    env = dict(os.environ, NUMBA_CACHE_DIR=cache,
               ORANGE_RELIEF_BACKGROUND="0")
    done = subprocess.run([sys.executable, "-c", program], env=env,
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout.splitlines()[-1])


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=size, default=(4000, 50),
                        help="instances x attributes (default 4000x50)")
    parser.add_argument("--cache", help="a prepared NUMBA_CACHE_DIR "
                                        "(default: one prepared first)")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    n, a = args.size
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        rates = measure(n, a, args.cache or prepared(folder))
    print("| part (calls) | vectorised ns / unit | compiled ns / unit | "
          "vectorised / compiled |")
    print("| --- | ---: | ---: | ---: |")
    for part, (vectorised, compiled) in rates.items():
        print(f"| {part} ({CALLS[part]}) | {vectorised:.3f} | "
              f"{compiled:.3f} | {vectorised / compiled:.1f} |")
    print(f"\n{n} x {a}, load average {os.getloadavg()[0]:.1f}, "
          f"{time.perf_counter() - start:.0f} s; for costs.RATES:")
    for part, (vectorised, compiled) in rates.items():
        print(f"preparation.{part}: ({vectorised:.3g}, {compiled:.3g}),")


if __name__ == "__main__":
    main()
