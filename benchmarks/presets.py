"""The presets: which data sets a preset runs, and the two that are runs
of their own (the first-call latency in fresh interpreters, the floor)."""
import json
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict

from harness import Spec
from peers import DEFAULT_OURS

#: the peers preset (``issue`` is its old name): ours against every peer
PEER_SIZES = [(2000, 100), (5000, 200), (20000, 50), (50000, 20)]
QUICK_SIZES = [(300, 12)]
MISSING_SIZE = (5000, 50)
LATENCY_SIZE = (1000, 20)
#: the sampled preset: m references drawn from n instances (Orange weighs
#: with the same references; fast-select and skrebate always scan all pairs)
SAMPLED_SIZES = [(50000, 20), (100000, 20)]
SAMPLED_REFERENCES = 1000
#: preset names, with the old name of `peers` kept so that earlier notes
#: stay runnable
PRESETS = ("peers", "issue", "quick", "missing", "latency", "sampled")
ALIASES = {"issue": "peers"}


def preset_specs(preset, sizes, kind, mix, missing, common):
    """The data sets of `preset` (None: the data the options describe);
    `sizes` overrides the preset's."""
    preset = ALIASES.get(preset, preset)
    if preset == "sampled":
        common = {"m": SAMPLED_REFERENCES, **common}
        return [Spec(n, a, "binary", "continuous", 0.0, **common)
                for n, a in sizes or SAMPLED_SIZES]
    if preset == "peers":
        return [Spec(n, a, "binary", "continuous", 0.0, **common)
                for n, a in sizes or PEER_SIZES]
    if preset == "quick":
        return [Spec(n, a, k, "continuous", 0.0, **common)
                for n, a in sizes or QUICK_SIZES
                for k in ("binary", "regression")]
    if preset == "missing":
        return [Spec(n, a, kind, m, miss, **common)
                for n, a in sizes or [MISSING_SIZE]
                for m, miss in (("continuous", 0.0), ("mixed", 0.0),
                                ("continuous", 0.1), ("mixed", 0.1))]
    return [Spec(n, a, kind, mix, missing, **common)
            for n, a in sizes or [(2000, 100)]]


_LATENCY_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
sys.path[:0] = {paths!r}
import importlib
bench = importlib.import_module("harness")
core = importlib.import_module({module!r})
imp = time.perf_counter() - t0
out = {{"import": imp, "calls": []}}
for spec_d in {specs!r}:
    spec = bench.Spec(**spec_d)
    d = bench.make_data(spec)
    fn = core.rrelieff if spec.kind == "regression" else core.relieff
    t0 = time.perf_counter()
    fn(d["X"], d["y"], d["discrete"], k_nearest=spec.k)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    fn(d["X"], d["y"], d["discrete"], k_nearest=spec.k)
    again = time.perf_counter() - t0
    out["calls"].append({{"label": spec.label, "first": first, "again": again}})
print("LATENCY-JSON" + json.dumps(out))
"""


def run_latency(n, a, opts, repeats, log=print):
    """First-call latency in fresh interpreters with a warm and a cold numba cache.

    Every run is a new ``python`` process with NUMBA_CACHE_DIR pointing to its
    own directory: "cold" = an empty directory, "warm" = a directory that a
    previous process filled.  (The cache is only used by functions compiled
    with ``cache=True``; otherwise both are the same compile-on-import cost.)
    """
    specs = [Spec(n, a, "binary"), Spec(n, a, "regression"),
             Spec(n, a, "binary", "mixed", 0.1)]
    code = _LATENCY_CHILD.format(paths=[os.path.dirname(os.path.abspath(__file__))]
                                 + [p for p in sys.path if p],
                                 module=opts.get("ours_module", DEFAULT_OURS),
                                 specs=[asdict(s) for s in specs])

    def one(cache_dir):
        env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=opts.get("timeout", 3600.0))
        wall = time.perf_counter() - t0
        for line in p.stdout.splitlines():
            if line.startswith("LATENCY-JSON"):
                res = json.loads(line[len("LATENCY-JSON"):])
                res["process"] = wall
                return res
        raise RuntimeError(f"latency child failed:\n{p.stdout}\n{p.stderr}")

    runs = {"cold": [], "warm": []}
    for r in range(repeats):
        with tempfile.TemporaryDirectory(prefix="relief-numba-cache-") as cache:
            log(f"  run {r + 1}/{repeats}: cold cache ...", end="", flush=True)
            runs["cold"].append(one(cache))
            log(" warm cache ...", end="", flush=True)
            runs["warm"].append(one(cache))
            log(" done")
    lines = [f"First-call latency of ours in a fresh interpreter ({n}x{a}, median of "
             f"{repeats} processes each; calls in this order in one process):", "",
             "| cache | import (s) | call | first call (s) | second call (s) | "
             "whole process (s) |", "| --- | ---: | --- | ---: | ---: | ---: |"]
    for cache in ("warm", "cold"):
        rs = runs[cache]
        imp = statistics.median(x["import"] for x in rs)
        proc = statistics.median(x["process"] for x in rs)
        for i, spec in enumerate(specs):
            first = statistics.median(x["calls"][i]["first"] for x in rs)
            again = statistics.median(x["calls"][i]["again"] for x in rs)
            lines.append(f"| {cache} | {imp:.2f} | {spec.data_label} | {first:.3f} | "
                         f"{again:.3f} | {proc:.2f} |")
    return "\n".join(lines), runs


def _measure_floor(n, a, repeats):
    """floor.py's measurement, with its variants keyed by strings (JSON)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from floor import measure_floor
    res = measure_floor(n, a, repeats)
    res["variants"] = {f"{k[0]} {k[1]}": v for k, v in res["variants"].items()}
    return res


def _floor_child(conn, n, a, repeats):
    conn.send(_measure_floor(n, a, repeats))


def run_floor(n, a, repeats, isolate=True):
    """floor.py at n x a, in a fresh spawn child unless ``isolate`` is False."""
    if not isolate:
        return _measure_floor(n, a, repeats)
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_floor_child, args=(child, n, a, repeats))
    proc.start()
    res = parent.recv()
    proc.join()
    return res
