"""Benchmark our ReliefF / RReliefF against every installed peer in one run.

Peers: Orange's built-in ``Orange.preprocess.score.ReliefF`` / ``RReliefF``
(always), ``fast-select`` (numba ReliefF, float32) and ``skrebate``
(scikit-rebate) when importable.  All methods see the same generated data,
use k = 10 neighbours and m = n references, and every (size, method) pair runs
in a fresh ``spawn`` child process so that peak memory can be measured with
``resource.getrusage`` against the child's own baseline.

Examples::

    python benchmarks/bench_relief.py --preset issue
    python benchmarks/bench_relief.py --preset quick
    python benchmarks/bench_relief.py --preset missing --sizes 5000x50
    python benchmarks/bench_relief.py --preset latency
    python benchmarks/bench_relief.py --sizes 3000x40 --kind regression --mix mixed --missing 0.1
    python benchmarks/bench_relief.py --preset issue --floor --json results.json

See benchmarks/README.md for the meaning of every column.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import multiprocessing as mp
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import asdict, dataclass

import numpy as np

ISSUE_SIZES = [(2000, 100), (5000, 200), (20000, 50), (50000, 20)]
QUICK_SIZES = [(300, 12)]
MISSING_SIZE = (5000, 50)
LATENCY_SIZE = (1000, 20)
ALL_METHODS = ("ours", "orange", "fast-select", "skrebate")
JIT_METHODS = ("ours", "fast-select")  # the first call compiles; never time it
DEFAULT_OURS = "orangecontrib.relief.core"
GB = 1024 ** 3


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------

@dataclass
class Spec:
    """One data set: size, class kind, feature mix and missing fraction."""
    n: int
    a: int
    kind: str = "binary"          # binary | multiclass | regression
    mix: str = "continuous"       # continuous | mixed (every third column nominal)
    missing: float = 0.0          # fraction of X cells set to NaN
    k: int = 10
    seed: int = 0

    @property
    def size(self):
        return f"{self.n}x{self.a}"

    @property
    def data_label(self):
        s = f"{self.kind}, {self.mix}"
        if self.missing:
            s += f", {self.missing:.0%} NaN"
        return s

    @property
    def label(self):
        return f"{self.size} {self.data_label}"


def n_values_of(spec):
    """Number of values of each column: 0 = numeric, V >= 2 = nominal."""
    nv = np.zeros(spec.a, dtype=int)
    if spec.mix == "mixed":
        for c in range(spec.a):
            if c % 3 == 2:
                nv[c] = 2 + c % 4          # 2..5 values
    elif spec.mix != "continuous":
        raise ValueError(f"unknown feature mix {spec.mix!r}")
    return nv


def make_data(spec):
    """Deterministic data for ``spec``.

    Numeric columns are uniform on [0, 1) (float64, so there are no ties);
    nominal columns hold codes 0..V-1.  The target depends additively on the
    first min(a, 10) columns with weights 1, 1/2, ..., 1/10 plus Gaussian
    noise, so the weights have a clear ranking to compare.  Binary = above
    the median, multiclass = tertiles (3 classes), regression = the real
    value.  Missing values are set uniformly at random in X (never in y).
    """
    rng = np.random.default_rng(spec.seed)
    n, a = spec.n, spec.a
    nv = n_values_of(spec)
    X = rng.random((n, a))
    for c in np.flatnonzero(nv):
        X[:, c] = rng.integers(0, nv[c], n)
    latent = np.zeros(n)
    for j in range(min(a, 10)):
        col = X[:, j] / (nv[j] - 1) if nv[j] else X[:, j]
        latent += col / (j + 1)
    latent += 0.1 * rng.standard_normal(n)
    if spec.kind == "binary":
        y = (latent > np.median(latent)).astype(float)
    elif spec.kind == "multiclass":
        y = np.digitize(latent, np.quantile(latent, [1 / 3, 2 / 3])).astype(float)
    elif spec.kind == "regression":
        y = latent
    else:
        raise ValueError(f"unknown class kind {spec.kind!r}")
    if spec.missing:
        X[rng.random((n, a)) < spec.missing] = np.nan
    return {"X": X, "y": y, "discrete": nv > 0, "n_values": nv, "spec": spec}


# --------------------------------------------------------------------------
# Methods
# --------------------------------------------------------------------------

class Method:
    name = "?"
    jit = False
    regression = True       # has a regression (RReliefF-type) estimator
    missing = True          # accepts NaN in X

    def __init__(self, opts):
        self.opts = opts

    def available(self):
        return True, ""

    def supports(self, spec):
        if spec.kind == "regression" and not self.regression:
            return False, "no regression estimator"
        if spec.missing and not self.missing:
            return False, "no missing-value support"
        return True, ""

    def memory_estimate(self, spec):
        """Bytes the method needs beyond its input (rough, for skipping)."""
        return 0

    def prepare(self, data):   # untimed
        return data

    def run(self, prepared):   # timed; returns float64 weights in column order
        raise NotImplementedError

    def agreement(self, spec):
        """(kind, note): kind is 'exact' (compare max |diff|) or 'rank'."""
        return "rank", ""


class Ours(Method):
    name = "ours"
    jit = True

    def core(self):
        return importlib.import_module(self.opts.get("ours_module", DEFAULT_OURS))

    def available(self):
        try:
            self.core()
        except ImportError as exc:
            return False, f"not importable ({exc})"
        return True, ""

    def run(self, d):
        core = self.core()
        spec = d["spec"]
        if spec.kind == "regression":
            return np.asarray(core.rrelieff(d["X"], d["y"], d["discrete"],
                                            k_nearest=spec.k, n_iterations=None),
                              dtype=float)
        return np.asarray(core.relieff(d["X"], d["y"], d["discrete"],
                                       k_nearest=spec.k, n_iterations=None),
                          dtype=float)


class _EveryInstanceOnce(np.random.RandomState):
    """Orange draws its references with ``rstate.randint(n, size=m)``; this
    state returns 0..m-1 instead, so Orange visits every instance once (m = n),
    exactly like ours.  The amount of work is the same as with its default
    sampling with replacement."""

    def randint(self, low, high=None, size=None, dtype=int):
        return np.arange(size, dtype=dtype) % low


class OrangeBuiltin(Method):
    name = "orange"

    def memory_estimate(self, spec):
        return 2 * 8 * spec.n * spec.a + 16 * spec.n

    def prepare(self, d):
        from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
        spec = d["spec"]
        attrs = [DiscreteVariable(f"x{c}", values=[str(v) for v in range(nv)]) if nv
                 else ContinuousVariable(f"x{c}")
                 for c, nv in enumerate(d["n_values"])]
        if spec.kind == "regression":
            cls = ContinuousVariable("y")
        else:
            n_cls = int(np.nanmax(d["y"])) + 1
            cls = DiscreteVariable("y", values=[str(v) for v in range(n_cls)])
        table = Table.from_numpy(Domain(attrs, cls), d["X"], d["y"])
        return {"table": table, "spec": spec}

    def run(self, p):
        from Orange.preprocess.score import ReliefF, RReliefF
        spec = p["spec"]
        scorer = RReliefF if spec.kind == "regression" else ReliefF
        return np.asarray(scorer(n_iterations=spec.n, k_nearest=spec.k,
                                 random_state=_EveryInstanceOnce())(p["table"]),
                          dtype=float)

    def agreement(self, spec):
        if spec.kind == "regression":
            return "rank", ("Orange RReliefF: constant influence 1/(5k) per neighbour and "
                            "unnormalised |dy| in N_dC, so W's second term differs")
        if spec.missing:
            return "rank", ("Orange: missing numeric diff = normal pdf, nominal = "
                            "P(value|class) (not RELIEF-D)")
        return "exact", "same ReliefF definition (divides by k; all classes have > k members)"


class FastSelect(Method):
    name = "fast-select"
    jit = True
    regression = False
    missing = False

    def available(self):
        try:
            importlib.import_module("fast_select")
        except ImportError:
            return False, "not installed"
        return True, ""

    def memory_estimate(self, spec):
        return 4 * spec.n * spec.a * 2

    def run(self, d):
        import fast_select
        spec = d["spec"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = fast_select.ReliefF(n_features_to_select=1.0, n_neighbors=spec.k,
                                      discrete_limit=10, backend="cpu", n_jobs=-1)
            est.fit(d["X"], d["y"])
        return np.asarray(est.feature_importances_, dtype=float)

    def agreement(self, spec):
        return "exact", ("same definition (range-normalised L1, mean over found "
                         "neighbours, priors); float32, so ~1e-7")


class Skrebate(Method):
    name = "skrebate"

    def available(self):
        try:
            importlib.import_module("skrebate")
        except ImportError:
            return False, "not installed"
        return True, ""

    def memory_estimate(self, spec):
        # pdist (4 n^2) + squareform (8 n^2); the missing-value and mixed paths
        # build more n x n float64 arrays.
        per_pair = 12
        if spec.missing:
            per_pair = 16
        elif spec.mix == "mixed":
            per_pair = 28
        return per_pair * spec.n ** 2

    def run(self, d):
        import skrebate
        spec = d["spec"]
        label_type = {"binary": "binary", "multiclass": "multiclass",
                      "regression": "continuous"}[spec.kind]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = skrebate.ReliefF(n_features_to_select=spec.a, n_neighbors=spec.k,
                                   n_jobs=1, label_type=label_type)
            est.fit(d["X"], d["y"])
        return np.asarray(est.feature_importances_, dtype=float)

    def agreement(self, spec):
        if spec.kind == "multiclass":
            return "rank", ("skrebate multiclass weighs miss classes by their share "
                            "among the neighbours, not by priors")
        if spec.kind == "regression":
            return "rank", ("skrebate 'continuous' endpoint: hit/miss by |dy| < std(y), "
                            "not RReliefF")
        if spec.missing:
            return "rank", "skrebate skips missing values and renormalises the distance"
        if spec.mix == "mixed":
            return "rank", ("skrebate mixed data: nominal distance scaled by a/a_nominal, "
                            "numeric diff = 1 above one std")
        return "exact", "same definition for binary continuous data"


METHODS = {"ours": Ours, "orange": OrangeBuiltin, "fast-select": FastSelect,
           "skrebate": Skrebate}


# --------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------

def _reset_peak_rss():
    """Reset the kernel's RSS high-water mark (Linux >= 4.0); False if impossible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _current_rss():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None


def _peak_rss():
    """Peak RSS of this process in bytes.

    On Linux this is VmHWM, the resettable high-water mark of this process's
    own memory.  ``getrusage(RUSAGE_SELF).ru_maxrss`` is not used there
    because it also keeps the peak of the memory image the process had before
    ``exec`` -- for a spawn child that is a fork of the parent, i.e. the
    parent's peak -- and that part cannot be reset."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r * 1024 if sys.platform.startswith("linux") else r


class _PeakMeter:
    """Peak RSS growth over a block, in bytes.

    With a resettable high-water mark the baseline is the current RSS right
    after the reset; otherwise it is ru_maxrss before the block (then memory
    below an earlier peak is not seen, so the figure is a lower bound)."""

    def __enter__(self):
        self.exact = _reset_peak_rss()
        cur = _current_rss()
        self.base = cur if self.exact and cur is not None else _peak_rss()
        return self

    def __exit__(self, *exc):
        self.peak = max(0, _peak_rss() - self.base)
        return False


def measure(method_name, spec, opts):
    """Run one method on one data set in this process; return a result dict."""
    method = METHODS[method_name](opts)
    t0 = time.perf_counter()
    data = make_data(spec)
    prepared = method.prepare(data)
    prep_s = time.perf_counter() - t0
    repeats = max(1, opts.get("repeats", 3))
    slow = opts.get("slow_cutoff", 60.0)

    with _PeakMeter() as m_first:
        t0 = time.perf_counter()
        w = method.run(prepared)
        first = time.perf_counter() - t0
    if not method.jit and first > slow:
        # An interpreted/compiled-ahead peer has nothing to warm up; its first
        # call is already a representative run and repeating it would take long.
        times, peak, exact_mem = [first], m_first.peak, m_first.exact
        single = True
    else:
        single = False
        times = []
        with _PeakMeter() as m:
            for _ in range(repeats):
                t0 = time.perf_counter()
                w = method.run(prepared)
                times.append(time.perf_counter() - t0)
        peak, exact_mem = m.peak, m.exact
    return {"method": method_name, "spec": asdict(spec), "status": "ok",
            "time": statistics.median(times), "times": times, "first": first,
            "slow_single_run": single,
            "prep": prep_s, "peak_mb": peak / 2 ** 20, "peak_exact": exact_mem,
            "weights": np.asarray(w, dtype=float).tolist()}


def _child(conn, method_name, spec_dict, opts):
    try:
        res = measure(method_name, Spec(**spec_dict), opts)
    except BaseException as exc:  # report, never hang the parent
        import traceback
        res = {"method": method_name, "spec": spec_dict, "status": "error",
               "error": f"{type(exc).__name__}: {exc}",
               "traceback": traceback.format_exc()}
    conn.send(res)
    conn.close()


def measure_isolated(method_name, spec, opts, timeout):
    """``measure`` in a fresh spawn child, killed after ``timeout`` seconds."""
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, method_name, asdict(spec), opts))
    proc.start()
    child.close()
    res = None
    if parent.poll(timeout):
        try:
            res = parent.recv()
        except EOFError:
            res = None
    proc.join(5 if res is not None else 0.1)
    if proc.is_alive():
        proc.kill()
        proc.join()
        if res is None:
            return {"method": method_name, "spec": asdict(spec), "status": "timeout",
                    "error": f"timeout (> {timeout:.0f} s)"}
    if res is None:
        return {"method": method_name, "spec": asdict(spec), "status": "error",
                "error": f"child died (exit code {proc.exitcode}; out of memory?)"}
    return res


# --------------------------------------------------------------------------
# Agreement and report
# --------------------------------------------------------------------------

def spearman(u, v):
    from scipy.stats import spearmanr
    rho = spearmanr(u, v).statistic
    return float(rho)


def agreement(method_name, spec, w_peer, w_ours, opts):
    """(text, figure, kind, note) comparing a peer's weights with ours."""
    kind, note = METHODS[method_name](opts).agreement(spec)
    u, v = np.asarray(w_peer, float), np.asarray(w_ours, float)
    if kind == "exact":
        fig = float(np.max(np.abs(u - v)))
        return f"max abs diff {fig:.1e}", fig, kind, note
    fig = spearman(u, v)
    return f"rank corr {fig:.3f}", fig, kind, note


def run_benchmark(specs, methods, opts, isolate=True, log=print):
    """Run every method on every spec; returns the list of result dicts."""
    results = []
    max_mem = opts.get("max_peer_memory_gb", 8.0) * GB
    timeout = opts.get("timeout", 3600.0)
    for spec in specs:
        ours_w = None
        for name in methods:
            method = METHODS[name](opts)
            base = {"method": name, "spec": asdict(spec)}
            ok, why = method.available()
            if not ok:
                results.append({**base, "status": "unavailable", "error": why})
                continue
            ok, why = method.supports(spec)
            if not ok:
                results.append({**base, "status": "unsupported", "error": why})
                continue
            need = method.memory_estimate(spec)
            if name != "ours" and need > max_mem:
                results.append({**base, "status": "skipped",
                                "error": f"skipped (needs {need / GB:.1f} GB)"})
                log(f"  {spec.label:40s} {name:12s} skipped (needs {need / GB:.1f} GB)")
                continue
            log(f"  {spec.label:40s} {name:12s} ...", end="", flush=True)
            t0 = time.perf_counter()
            if isolate:
                res = measure_isolated(name, spec, opts, timeout)
            else:
                try:
                    res = measure(name, spec, opts)
                except Exception as exc:  # noqa: BLE001 - reported in the table
                    res = {**base, "status": "error", "error": f"{type(exc).__name__}: {exc}"}
            wall = time.perf_counter() - t0
            if res["status"] == "ok":
                log(f" {res['time']:.3f} s (first {res['first']:.3f} s, "
                    f"{res['peak_mb']:.0f} MB; wall {wall:.0f} s)")
            else:
                log(f" {res['status']}: {res.get('error')}")
                if res.get("traceback") and opts.get("verbose"):
                    log(res["traceback"])
            if name == "ours" and res["status"] == "ok":
                ours_w = res["weights"]
            if name != "ours" and res["status"] == "ok" and ours_w is not None:
                text, fig, kind, note = agreement(name, spec, res["weights"], ours_w, opts)
                res.update(agreement=text, agreement_value=fig, agreement_kind=kind,
                           agreement_note=note)
            results.append(res)
    return results


def merge_rounds(rounds):
    """One result per method and data set from several rounds of
    :func:`run_benchmark` (each round runs every method on every data set
    once, so the rounds interleave): the timed runs pooled (``time`` is
    their median), each round's median kept in ``round_times``, the first
    round's first call and the largest peak."""
    merged = {}
    for results in rounds:
        for r in results:
            key = (r["method"], json.dumps(r["spec"], sort_keys=True))
            if key not in merged:
                merged[key] = {**r, "times": [], "round_times": []}
            m = merged[key]
            if r["status"] != "ok" or m["status"] != "ok":
                continue
            m["times"] = m["times"] + r["times"]
            m["peak_mb"] = max(m["peak_mb"], r["peak_mb"])
            m["round_times"].append(r["time"])
            m["time"] = statistics.median(m["times"])
    return list(merged.values())


def format_table(results):
    """Markdown table of ``results`` (see README for the columns)."""
    ours_time = {}
    for r in results:
        if r["method"] == "ours" and r["status"] == "ok":
            ours_time[json.dumps(r["spec"], sort_keys=True)] = r["time"]
    lines = ["| size | data | method | time (s) | first call (s) | peak MB | "
             "ratio (peer/ours) | agreement with ours |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |"]
    notes = {}
    for r in results:
        spec = Spec(**r["spec"])
        if r["status"] != "ok":
            if r["status"] in ("unsupported", "unavailable"):
                continue
            lines.append(f"| {spec.size} | {spec.data_label} | {r['method']} | "
                         f"{r.get('error', r['status'])} | | | | |")
            continue
        t = r["time"]
        tt = f"{t:.3f}" + (" (1 run)" if r.get("slow_single_run") else "")
        ot = ours_time.get(json.dumps(r["spec"], sort_keys=True))
        ratio = f"{t / ot:.2f}" if ot else ""
        pm = r["peak_mb"]
        peak = (f"{pm:.0f}" if pm >= 10 else f"{pm:.1f}") + (
            "" if r.get("peak_exact", True) else " (>=)")
        agr = ""
        if "agreement" in r:
            agr = r["agreement"]
            if r.get("agreement_note"):
                key = (r["method"], r["agreement_kind"], r["agreement_note"])
                notes.setdefault(key, len(notes) + 1)
                agr += f" [{notes[key]}]"
        lines.append(f"| {spec.size} | {spec.data_label} | {r['method']} | {tt} | "
                     f"{r['first']:.3f} | {peak} | {ratio} | {agr} |")
    if notes:
        lines.append("")
        for (meth, kind, note), i in notes.items():
            lines.append(f"[{i}] {meth}, {'max abs diff' if kind == 'exact' else 'Spearman'}: "
                         f"{note}")
    cross = _peer_cross_check(results)
    if cross:
        lines.append("")
        lines.append("Peers among themselves (max abs diff where both share our definition): "
                     + "; ".join(cross))
    not_run = sorted({(r["method"], r["status"], r.get("error", "")) for r in results
                      if r["status"] in ("unsupported", "unavailable")})
    for meth, status, why in not_run:
        lines.append(f"- {meth}: not run on data where it has {why}"
                     if status == "unsupported" else f"- {meth}: {why}")
    return "\n".join(lines)


def _peer_cross_check(results):
    """Max abs diff between every two peers that both agree exactly with ours
    on a data set: tells a discrepancy of ours from rounding in a peer."""
    by_spec = {}
    for r in results:
        if r["status"] == "ok" and r.get("agreement_kind") == "exact":
            by_spec.setdefault(Spec(**r["spec"]).label, []).append(r)
    out = []
    for label, rs in by_spec.items():
        for i, r1 in enumerate(rs):
            for r2 in rs[i + 1:]:
                diff = np.max(np.abs(np.subtract(r1["weights"], r2["weights"])))
                out.append(f"{label.split()[0]} {r1['method']} vs {r2['method']} {diff:.1e}")
    return out


def environment(opts):
    import numba
    info = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "numba threads": numba.config.NUMBA_NUM_THREADS,
            "numpy": np.__version__, "numba": numba.__version__}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    from importlib.metadata import PackageNotFoundError, version
    for dist in ("Orange3", "fast-select", "skrebate", "Orange3-Relief"):
        try:
            info[dist] = version(dist)
        except PackageNotFoundError:
            info[dist] = "not installed"
    info["ours module"] = opts.get("ours_module", DEFAULT_OURS)
    with contextlib.suppress(OSError):
        info["load average"] = "/".join(f"{x:.1f}" for x in os.getloadavg())
    return info


# --------------------------------------------------------------------------
# Presets
# --------------------------------------------------------------------------

def preset_missing_summary(results, goal=1.5):
    """Each data set's time as a multiple of the all-continuous one: in
    every round (run next to each other, so the machine's drift from
    minute to minute cancels out), and their median, which is judged."""
    base = None
    lines = ["", f"Our time relative to all-continuous at the same size, median "
                 f"of the rounds' ratios (goal <= {goal}x):"]
    for r in results:
        if r["method"] != "ours" or r["status"] != "ok":
            continue
        spec = Spec(**r["spec"])
        if spec.mix == "continuous" and not spec.missing:
            base = r["round_times"]
        if base:
            ratios = [t / b for t, b in zip(r["round_times"], base)]
            f = statistics.median(ratios)
            verdict = "ok" if f <= goal else "OVER GOAL"
            each = ", ".join(f"{x:.2f}" for x in ratios)
            lines.append(f"- {spec.label}: {r['time']:.3f} s = {f:.2f}x  {verdict}"
                         f"  (rounds: {each})")
    return "\n".join(lines)


_LATENCY_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
sys.path[:0] = {paths!r}
import importlib
bench = importlib.import_module("bench_relief")
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


# --------------------------------------------------------------------------
# Floor
# --------------------------------------------------------------------------

def _floor_child(conn, n, a, repeats):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from floor import measure_floor
    res = measure_floor(n, a, repeats)
    res["variants"] = {f"{k[0]} {k[1]}": v for k, v in res["variants"].items()}
    conn.send(res)


def run_floor(n, a, repeats, isolate=True):
    if not isolate:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from floor import measure_floor
        res = measure_floor(n, a, repeats)
        res["variants"] = {f"{k[0]} {k[1]}": v for k, v in res["variants"].items()}
        return res
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_floor_child, args=(child, n, a, repeats))
    proc.start()
    res = parent.recv()
    proc.join()
    return res


def floor_report(floor, results):
    lines = ["", f"Floor (floor.py): all {floor['n']}^2 L1 distances at "
                 f"{floor['n']}x{floor['a']}, {floor['threads']} threads:"]
    for dt, (t, v) in floor["floor"].items():
        lines.append(f"- {dt}: {t:.3f} s ({v})")
    for r in results:
        s = Spec(**r["spec"])
        if (r["method"] == "ours" and r["status"] == "ok" and s.n == floor["n"]
                and s.a == floor["a"] and s.kind != "regression"):
            f64, f32 = floor["floor"]["float64"][0], floor["floor"]["float32"][0]
            lines.append(f"- ours ({s.label}): {r['time']:.3f} s = "
                         f"{r['time'] / f64:.2f}x the float64 floor, "
                         f"{r['time'] / f32:.2f}x the float32 floor")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------

def parse_sizes(text):
    sizes = []
    for part in text.split(","):
        n, a = part.lower().strip().split("x")
        sizes.append((int(n), int(a)))
    return sizes


def build_parser():
    p = argparse.ArgumentParser(
        description="Benchmark our ReliefF/RReliefF against Orange, fast-select and "
                    "skrebate on the same data (k nearest, m = n).")
    p.add_argument("--preset", choices=("issue", "quick", "missing", "latency"),
                   help="issue: 2000x100, 5000x200, 20000x50, 50000x20 binary continuous; "
                        "quick: tiny smoke run; missing: ours on continuous vs mixed vs "
                        "10%% missing; latency: first call with warm / cold numba cache")
    p.add_argument("--sizes", help="comma-separated NxA list, e.g. 2000x100,5000x20 "
                                    "(overrides the preset's sizes)")
    p.add_argument("--kind", choices=("binary", "multiclass", "regression"),
                   default="binary")
    p.add_argument("--mix", choices=("continuous", "mixed"), default="continuous",
                   help="mixed: every third column nominal with 2-5 values")
    p.add_argument("--missing", type=float, default=0.0,
                   help="fraction of X cells set to NaN")
    p.add_argument("--k", type=int, default=10, help="nearest neighbours (default 10)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--methods", default=None,
                   help=f"comma-separated subset of {','.join(ALL_METHODS)} "
                        "(default: all; ours only for --preset missing)")
    p.add_argument("--repeats", type=int, default=3,
                   help="timed runs after the warm-up call; the median is reported")
    p.add_argument("--rounds", type=int, default=None,
                   help="run every method on every data set this many times, in "
                        "turn, and pool the timed runs (default 3 for --preset "
                        "missing, whose ratios are judged per round, else 1)")
    p.add_argument("--max-peer-memory", type=float, default=8.0, metavar="GB",
                   help="skip a peer whose estimated memory exceeds this (default 8)")
    p.add_argument("--slow-cutoff", type=float, default=60.0, metavar="S",
                   help="a non-JIT peer whose first call takes longer is timed by that "
                        "single call (default 60 s)")
    p.add_argument("--timeout", type=float, default=3600.0, metavar="S",
                   help="kill a method's child process after this long (default 3600)")
    p.add_argument("--floor", action="store_true",
                   help="also run floor.py at 20000x50 and report ours as a multiple of it")
    p.add_argument("--ours-module", default=DEFAULT_OURS,
                   help="module providing relieff/rrelieff (to compare builds)")
    p.add_argument("--no-isolate", action="store_true",
                   help="run everything in this process (peak memory then includes "
                        "whatever earlier methods left behind)")
    p.add_argument("--json", metavar="PATH", help="also write all results as JSON")
    p.add_argument("--verbose", action="store_true", help="print child tracebacks")
    return p


def main(argv=None, log=None):
    args = build_parser().parse_args(argv)
    if log is None:
        def log(*a, **kw):
            print(*a, **kw)
            sys.stdout.flush()
    opts = {"repeats": args.repeats, "slow_cutoff": args.slow_cutoff,
            "timeout": args.timeout, "max_peer_memory_gb": args.max_peer_memory,
            "ours_module": args.ours_module, "verbose": args.verbose}
    isolate = not args.no_isolate
    methods = (args.methods.split(",") if args.methods
               else ["ours"] if args.preset == "missing" else list(ALL_METHODS))
    for m in methods:
        if m not in METHODS:
            raise SystemExit(f"unknown method {m!r}; choose from {', '.join(ALL_METHODS)}")
    if "ours" in methods:  # ours first: the ratios and agreement need it
        methods = ["ours"] + [m for m in methods if m != "ours"]

    log("Environment: " + ", ".join(f"{k} {v}" for k, v in environment(opts).items()))
    out = {"environment": environment(opts), "args": vars(args)}

    if args.preset == "latency":
        n, a = parse_sizes(args.sizes)[0] if args.sizes else LATENCY_SIZE
        text, runs = run_latency(n, a, opts, args.repeats, log=log)
        log("")
        log(text)
        out["latency"] = runs
        if args.json:
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
        return out

    common = {"k": args.k, "seed": args.seed}
    if args.preset == "issue":
        sizes = parse_sizes(args.sizes) if args.sizes else ISSUE_SIZES
        specs = [Spec(n, a, "binary", "continuous", 0.0, **common) for n, a in sizes]
    elif args.preset == "quick":
        sizes = parse_sizes(args.sizes) if args.sizes else QUICK_SIZES
        specs = [Spec(n, a, kind, "continuous", 0.0, **common)
                 for n, a in sizes for kind in ("binary", "regression")]
    elif args.preset == "missing":
        sizes = parse_sizes(args.sizes) if args.sizes else [MISSING_SIZE]
        specs = [Spec(n, a, args.kind, mix, miss, **common) for n, a in sizes
                 for mix, miss in (("continuous", 0.0), ("mixed", 0.0),
                                   ("continuous", 0.1), ("mixed", 0.1))]
    else:
        sizes = parse_sizes(args.sizes) if args.sizes else [(2000, 100)]
        specs = [Spec(n, a, args.kind, args.mix, args.missing, **common) for n, a in sizes]

    floor = None
    if args.floor:
        fn, fa = 20000, 50
        if "ours" in methods and not any(s.n == fn and s.a == fa and s.kind != "regression"
                                         for s in specs):
            specs.append(Spec(fn, fa, "binary", "continuous", 0.0, **common))
    rounds = args.rounds or (3 if args.preset == "missing" else 1)
    t0 = time.perf_counter()
    results = merge_rounds([run_benchmark(specs, methods, opts, isolate=isolate, log=log)
                            for _ in range(rounds)])
    if args.floor:
        log("  floor.py at 20000x50 ...", end="", flush=True)
        floor = run_floor(20000, 50, args.repeats, isolate=isolate)
        log(" done")
    log(f"\n(total {time.perf_counter() - t0:.0f} s; time = median of "
        f"{rounds} x {args.repeats} runs after a warm-up call, k = {args.k}, m = n)\n")
    log(format_table(results))
    if args.preset == "missing":
        log(preset_missing_summary(results))
    if floor:
        log(floor_report(floor, results))
    out["results"] = results
    out["floor"] = floor
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
