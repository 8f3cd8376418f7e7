"""The harness: the generated data, one method on one data set in a fresh
process with its time and peak memory, and every method on every data
set (:func:`run_benchmark`), in rounds (:func:`merge_rounds`)."""
import json
import multiprocessing as mp
import os
import resource
import statistics
import sys
import time
from dataclasses import asdict, dataclass

import numpy as np

from children import exit_with_parent
from peers import METHODS, agreement

GB = 1024 ** 3
#: the longest that untimed calls after the first may take to bring ours
#: to its steady state (:meth:`peers.Method.settle`)
SETTLE_SECONDS = 10.0


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
    m: int = None                 # sampled references (None: every instance)

    @property
    def size(self):
        return f"{self.n}x{self.a}"

    @property
    def data_label(self):
        s = f"{self.kind}, {self.mix}"
        if self.missing:
            s += f", {self.missing:.0%} NaN"
        if self.m is not None:
            s += f", m = {self.m}"
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
    settled = method.settle(prepared, opts.get("settle", SETTLE_SECONDS))
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
            "slow_single_run": single, "settled_after": settled,
            "engines": method.engines(len(times)),
            "prep": prep_s, "peak_mb": peak / 2 ** 20, "peak_exact": exact_mem,
            "weights": np.asarray(w, dtype=float).tolist()}


def _child(conn, method_name, spec_dict, opts):
    exit_with_parent()
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
                    res = {**base, "status": "error",
                           "error": f"{type(exc).__name__}: {exc}"}
            wall = time.perf_counter() - t0
            if res["status"] == "ok":
                note = engines_note(res)
                log(f" {res['time']:.3f} s (first {res['first']:.3f} s, "
                    f"{res['peak_mb']:.0f} MB; wall {wall:.0f} s"
                    f"{'; ' + note if note else ''})")
            else:
                log(f" {res['status']}: {res.get('error')}")
                if res.get("traceback") and opts.get("verbose"):
                    log(res["traceback"])
            if name == "ours" and res["status"] == "ok":
                ours_w = res["weights"]
            if name != "ours" and res["status"] == "ok" and ours_w is not None:
                text, fig, kind, note = agreement(name, spec, res["weights"],
                                                  ours_w, opts)
                res.update(agreement=text, agreement_value=fig, agreement_kind=kind,
                           agreement_note=note)
            results.append(res)
    return results


def engine_counts(engines):
    """(engine, calls) of the engines of timed calls, in order of first
    appearance."""
    return [(e, engines.count(e)) for e in dict.fromkeys(engines)]


def engines_note(result):
    """"timed calls on the ENGINE engine xN, ..." of a result whose
    method notes its engines (ours), with the untimed calls it took to
    reach the engine it settles on; "" for a peer or a run that failed.
    The progress line and the report (:func:`report.engines_lines`) say
    it so."""
    engines = result.get("engines") if result["status"] == "ok" else None
    if not engines:
        return ""
    settled = result.get("settled_after", 0)
    return ("timed calls on the " + ", ".join(f"{e} engine x{c}" for e, c
                                              in engine_counts(engines))
            + (f", after {settled} untimed calls beyond the first"
               if settled else ""))


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
                merged[key] = {**r, "times": [], "round_times": [],
                               "engines": [] if r.get("engines") else None}
            m = merged[key]
            if r["status"] != "ok" or m["status"] != "ok":
                continue
            m["times"] = m["times"] + r["times"]
            if m["engines"] is not None:
                m["engines"] = m["engines"] + (r.get("engines") or [])
            m["peak_mb"] = max(m["peak_mb"], r["peak_mb"])
            m["round_times"].append(r["time"])
            m["time"] = statistics.median(m["times"])
    return list(merged.values())
