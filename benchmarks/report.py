"""The report: the results table, the environment header, the
missing-value preset's verdict and our time against the floor."""
import contextlib
import json
import os
import platform
import statistics

import numpy as np

from floor import phase_floor
from harness import Spec, engines_note
from peers import DEFAULT_OURS
from simd import simd_level


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
            measure = "max abs diff" if kind == "exact" else "Spearman"
            lines.append(f"[{i}] {meth}, {measure}: "
                         f"{note}")
    engines = engines_lines(results)
    if engines:
        lines += [""] + engines
    cross = _peer_cross_check(results)
    if cross:
        lines.append("")
        lines.append("Peers among themselves (max abs diff where both share "
                     "our definition): "
                     + "; ".join(cross))
    not_run = sorted({(r["method"], r["status"], r.get("error", "")) for r in results
                      if r["status"] in ("unsupported", "unavailable")})
    for meth, status, why in not_run:
        lines.append(f"- {meth}: not run on data where it has {why}"
                     if status == "unsupported" else f"- {meth}: {why}")
    return "\n".join(lines)


def engines_lines(results):
    """Which engine answered ours' timed calls on each data set, and the
    untimed calls it took to reach the engine it settles on
    (:func:`harness.engines_note`)."""
    lines = [f"- {r['method']} {Spec(**r['spec']).size}: {note}"
             for r in results if (note := engines_note(r))]
    return (["Engines of the timed calls:"] + lines) if lines else []


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
                out.append(f"{label.split()[0]} {r1['method']} vs "
                           f"{r2['method']} {diff:.1e}")
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
    info["SIMD"] = simd_level()
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


def floor_report(floors, results, algorithm="relieff"):
    """Each floor of ``floors`` (floor.py's results) and each method at its
    size: ReliefF against the float64 and float32 floors, a SURF-family
    `algorithm` against the floor of its phases (floor.phase_floor).  A
    peer's multiple of the floor is the most that ours, were it at the
    floor, would lead it by."""
    lines = []
    for floor in floors:
        lines += ["", f"Floor (floor.py): all {floor['n']}^2 L1 distances at "
                      f"{floor['n']}x{floor['a']}, {floor['threads']} threads:"]
        for dt, (t, v) in floor["floor"].items():
            lines.append(f"- {dt}: {t:.3f} s ({v}); update {floor['update'][dt]:.3f} s")
        for r in results:
            s = Spec(**r["spec"])
            if not (r["status"] == "ok" and s.n == floor["n"]
                    and s.a == floor["a"] and s.kind != "regression"):
                continue
            who = f"{r['method']} ({s.label}): {r['time']:.3f} s = "
            if algorithm != "relieff":
                distances, update = phase_floor(floor, algorithm)
                lines.append(f"- {who}{r['time'] / (distances + update):.2f}x "
                             f"the floor of its phases (distances "
                             f"{distances:.3f} s + update {update:.3f} s)")
                continue
            f64, f32 = floor["floor"]["float64"][0], floor["floor"]["float32"][0]
            lines.append(f"- {who}{r['time'] / f64:.2f}x the float64 floor, "
                         f"{r['time'] / f32:.2f}x the float32 floor")
    return "\n".join(lines)
