"""Rewrite the documentation's figures on speed and memory from the
benchmarks' output.

A figure is a table in README.md or a page of doc/ between the lines
``<!-- figures: NAME -->`` and ``<!-- /figures -->``.  For each figure this
script runs the benchmark commands of FIGURES (from the repository's root,
one after the other), keeps what they printed in
``benchmarks/results/NAME.json`` with when, on what machine and at which
commit, and rewrites the table from it, headed by those facts::

    python benchmarks/publish.py                # every figure
    python benchmarks/publish.py peers missing  # these figures
    python benchmarks/publish.py --small        # smaller data, where a
                                                # figure has a smaller command
    python benchmarks/publish.py --saved        # no benchmark: the tables
                                                # again from results/*.json

Run it on an otherwise idle machine: anything else running shows in the
times (the header gives the load average at the start).  A figure of one
SIMD level (fast-select's, one for AVX2 and one for AVX-512) is measured
on a machine of that level only; the others' tables stay as they are.
The tests check that every marked table is what ``--saved`` would write.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the modules beside this script, also when it is imported from elsewhere
sys.path.insert(0, str(ROOT / "benchmarks"))

from simd import simd_level  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
#: the pages a figure may be on
PAGES = ["README.md", *sorted(str(page.relative_to(ROOT))
                              for page in (ROOT / "doc").rglob("*.md")
                              if "_build" not in page.parts)]
START = re.compile(r"^<!-- figures: (\S+) -->$")
END = "<!-- /figures -->"
#: stands for a file in a temporary directory in a figure's commands
DATA = "DATA.npy"


@dataclass(frozen=True)
class Figure:
    """A figure: the page its table is on, the commands whose output it
    shows (run in this order; ``python`` is this interpreter, DATA.npy a
    file in a temporary directory), smaller commands for a quick run (None:
    the same) and `table`, which makes the table's lines from the commands'
    outputs (one string each); `simd`, where the figure is of one SIMD
    level, the start of the level (:func:`simd.simd_level`) of the
    machines it is measured on."""
    page: str
    commands: tuple
    small: tuple | None
    table: Callable
    simd: str | None = None

    def measurable(self, level):
        """Whether a machine of SIMD `level` measures this figure."""
        return self.simd is None or level.startswith(self.simd)


def cells(line):
    """The cells of a row of a markdown table."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def markdown_rows(output, first_header):
    """The rows (lists of cells) of the markdown table in `output` whose
    header begins with `first_header`, without the header and rule."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    return rows


def table(header, rows, align=None):
    """Markdown lines of a table; `align` has "l" or "r" per column
    (default: the first left, the others right)."""
    align = align or "l" + "r" * (len(header) - 1)
    rule = ["---" if a == "l" else "---:" for a in align]
    return ["| " + " | ".join(row) + " |" for row in [header, rule, *rows]]


# -- the figures' tables, each from its benchmark's printed output --------

PEERS = (("orange", "Orange"), ("fast-select", "fast-select"),
         ("skrebate", "skrebate"))


def peers_table(outputs):
    """bench_relief.py's table: one row per size, the peers' times and
    ratios beside ours, and the largest difference of their weights."""
    by_size, agreement = {}, {}
    for size, _, method, seconds, _, peak, ratio, agree in markdown_rows(
            outputs[0], "size"):
        by_size.setdefault(size, {})[method] = (seconds, ratio, peak)
        if agree.startswith("max abs diff"):
            value = float(agree.split()[3])
            agreement[method] = max(agreement.get(method, 0.0), value)
    rows = []
    for size, methods in by_size.items():
        ours = methods.get("ours", ("-", "", "-"))
        row = [size, ours[0]]
        row += [methods.get(peer, ("-",))[0] for peer, _ in PEERS]
        row += [methods.get(peer, ("", "-"))[1] or "-" for peer, _ in PEERS]
        rows.append(row + [ours[2]])
    header = (["size", "ours (s)"] + [f"{name} (s)" for _, name in PEERS]
              + [f"{name} / ours" for _, name in PEERS] + ["ours peak MB"])
    lines = table(header, rows)
    if agreement:
        lines += ["", "Largest difference of a peer's weights from ours: "
                  + ", ".join(f"{name} {agreement[peer]:.1e}"
                              for peer, name in PEERS if peer in agreement)
                  + "."]
    return lines


#: the runs of the fast-select figure: each method, its sizes and the
#: multiple of fast-select's speed it aims at (float32 with fastmath, not
#: exact: its weights differ from ours by about 1e-7)
FAST_SELECT_RUNS = (("relieff", "1000x50,2000x100,5000x100,5000x200,20000x50",
                     3.0),
                    *((method, "2000x100,5000x100,5000x200", 2.0)
                      for method in ("multisurf", "multisurf*", "surf",
                                     "surf*")))


def fast_select_table(outputs):
    """bench_relief.py --methods ours,fast-select, one run per method of
    :data:`FAST_SELECT_RUNS`: a row per method and size, fast-select's
    time over ours against the aim.  The ratio is the benchmark's own, of
    the unrounded times (of the times as printed, to the millisecond, it
    was off by up to a tenth at 1000 x 50: 0.015 / 0.007 s = 2.14x where
    the benchmark gave 2.03x), and an aim is met where it exceeds it: a
    ratio printed equal to the aim may have been rounded up to it."""
    rows = []
    for (method, _, aim), output in zip(FAST_SELECT_RUNS, outputs):
        times, ratios = {}, {}
        for size, _, who, seconds, _, _, ratio, *_ in markdown_rows(
                output, "size"):
            times.setdefault(size, {})[who] = seconds
            if who == "fast-select":
                ratios[size] = float(ratio)
        for size, pair in times.items():
            ratio = ratios[size]
            rows.append([method, size, pair["ours"], pair["fast-select"],
                         f"{ratio:.2f}x", f"{aim:g}x",
                         "yes" if ratio > aim else "**no**"])
    return table(["method", "size", "ours (s)", "fast-select (s)",
                  "fast-select / ours", "aim", "met"], rows, "llrrrrl")


MISSING_LINE = re.compile(r"^- (\S+) (.+?): ([\d.]+) s = ([\d.]+)x .*"
                          r"\(rounds: (.*)\)$")


def missing_table(outputs):
    """bench_relief.py --preset missing: each kind of data's time and its
    multiple of the all-continuous time."""
    rows = []
    for line in outputs[0].splitlines():
        match = MISSING_LINE.match(line)
        if match:
            size, data, seconds, ratio, rounds = match.groups()
            rows.append([size, data, seconds, f"{ratio}x", rounds])
    return table(["size", "data", "ours (s)", "x all-continuous",
                  "each round"], rows, "llrrr")


def printed_table(outputs):
    """The markdown table the benchmark printed (first_contact.py,
    bench_experiments.py), copied; the rows of several commands' tables
    under the first one's header."""
    header, rows = None, []
    for output in outputs:
        first, *more = [cells(line) for line in output.splitlines()
                        if line.startswith("|") and "---" not in line]
        header = header or first
        rows += more
    return table(header, rows)


def rfsm_table(outputs):
    """bench_rfsm.py: a line per size after its header."""
    lines = outputs[0].splitlines()
    start = next(i for i, line in enumerate(lines) if "greedy s" in line)
    rows = []
    for line in lines[start + 1:]:
        n, a, pairs, mbytes, prepare, greedy, sets, ns, naive = line.split()
        rows.append([n, a, pairs, mbytes, f"{prepare} s", f"{greedy} s",
                     sets, ns, f"{naive} s"])
    return table(["n", "a", "pairs P", "diffs MB", "neighbours + diffs",
                  "greedy to the end", "sets", "ns per pair·set",
                  "re-search"], rows, "rrrrrrrrr")


CLUSTER_LINE = re.compile(r"^\s*(\d+x\d+)\s+(.+?)\s+(\d+(?: [+x] \d+)?)\s+"
                          r"([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(True|False)$")


def cluster_table(outputs):
    """bench_cluster.py: a line per size and mode."""
    rows = []
    for line in outputs[0].splitlines():
        match = CLUSTER_LINE.match(line)
        if match:
            size, mode, tasks, here, there, ratio, equal = match.groups()
            rows.append([size.replace("x", " x "), mode, tasks, f"{here} s",
                         f"{there} s", ratio,
                         "yes" if equal == "True" else "**no**"])
    return table(["size", "mode", "tasks", "here", "cluster",
                  "cluster / here", "weights equal"], rows, "llrrrrl")


STREAMED = re.compile(r"^(\d+) x (\d+) \(([\d.]+) GiB\)", re.M)
STREAM_TIME = re.compile(r"^time ([\d.]+) s, ([\d,]+) rows/s, peak resident "
                         r"memory ([\d.]+) GiB", re.M)
PROJECTION = re.compile(r"^projection to ([\d,]+) rows: ([\d.]+) min", re.M)
DIRELIEFF = re.compile(r"^DiReliefF on Spark: (\d+) min \(1 core\), (\d+) min "
                       r"\((\d+) cores\) for ([\d.]+M) rows; about (\d+) min for "
                       r"([\d.]+M) rows", re.M)


def streaming_table(outputs):
    """bench_streaming.py's lines of time, memory and projection."""
    text = outputs[-1]
    rows_, columns, gib = STREAMED.search(text).groups()
    seconds, speed, peak = STREAM_TIME.search(text).groups()
    full, minutes = PROJECTION.search(text).groups()
    one, many, cores, sample, whole, rows_all = DIRELIEFF.search(text).groups()
    return table(["data", "time", "peak resident memory", "rows / s"], [
        [f"{int(rows_):,} x {columns} float32 ({gib} GiB)", f"{seconds} s",
         f"{peak} GiB", speed],
        [f"{full} x {columns}, projected from the rows per second",
         f"{minutes} min", "-", "-"],
        [f"DiReliefF, {sample} rows, 1 core (its paper)", f"{one} min", "-",
         "-"],
        [f"DiReliefF, {sample} rows, {cores} cores (its paper)",
         f"{many} min", "-", "-"],
        [f"DiReliefF, {rows_all} rows (its paper)", f"about {whole} min",
         "-", "-"]])


INTERACTIONS_LINE = re.compile(
    r"^SNPs (\d+) x (\d+), (\S+), K = (\d+): weights ([\d.]+) s, map "
    r"([\d.]+) s, ratio ([\d.]+) \(([\d.]+)-([\d.]+)\)$")


def interactions_table(outputs):
    """bench_interactions.py: a line per size and method."""
    rows = []
    for line in outputs[0].splitlines():
        match = INTERACTIONS_LINE.match(line)
        if match:
            n, a, method, k, weights, found, ratio, low, high = \
                match.groups()
            rows.append([f"{n} x {a}", method, k, f"{weights} s",
                         f"{found} s", ratio, f"{low}-{high}"])
    return table(["SNPs", "method", "K", "weights", "map",
                  "map / weights", "range"], rows, "llrrrrr")


BENCH = "python benchmarks/"
#: ours and fast-select, one command per method of FAST_SELECT_RUNS
FAST_SELECT_COMMANDS = tuple(
    f"{BENCH}bench_relief.py --algorithm {method} --methods "
    f"ours,fast-select --sizes {sizes}"
    for method, sizes, _ in FAST_SELECT_RUNS)
FIGURES = {
    "peers": Figure(
        "README.md", (BENCH + "bench_relief.py --preset peers",),
        (BENCH + "bench_relief.py --preset peers --sizes 2000x100,5000x200",),
        peers_table),
    # fast-select's kernels depend on the vector width most: a figure for
    # each of the two SIMD levels of today's x86 servers
    "fast-select": Figure("README.md", FAST_SELECT_COMMANDS, None,
                          fast_select_table, simd="AVX2"),
    "fast-select-avx512": Figure("README.md", FAST_SELECT_COMMANDS, None,
                                 fast_select_table, simd="AVX-512"),
    "missing": Figure(
        "README.md", (BENCH + "bench_relief.py --preset missing",), None,
        missing_table),
    "first-contact": Figure(
        "README.md",
        (BENCH + "first_contact.py",),
        (BENCH + "first_contact.py --no-busy --no-canvas --no-preparation "
                 "--scale 0.5 --cases 'ReliefF 5000x100' "
                 "'MultiSURF 5000x100' 'experiment separability'",),
        printed_table),
    "experiments": Figure(
        "README.md", (BENCH + "bench_experiments.py",),
        (BENCH + "bench_experiments.py classdep 'rfsm --dataset CorrAL "
                 "--dataset Parity3+3' 'separability --max-relevant 10 "
                 "--datasets 3'",),
        printed_table),
    "rfsm": Figure(
        "doc/rfsm.md",
        (BENCH + "bench_rfsm.py --sizes 1000x50 1000x100 1000x200 2000x100 "
                 "4000x100 8000x100 4000x400",),
        None, rfsm_table),
    "cluster": Figure(
        "doc/large-data.md", (BENCH + "bench_cluster.py",),
        (BENCH + "bench_cluster.py --sizes 20000x20,50000x20",),
        cluster_table),
    "selection": Figure(
        "doc/selection.md", (BENCH + "bench_selection.py",),
        (BENCH + "bench_selection.py --curve 2000x50 --stability 1000x50 "
                 "--resamples 30",),
        printed_table),
    "wide": Figure(
        "doc/wide-data.md",
        (BENCH + "bench_wide.py --large --plot doc/images/wide-data.png",),
        (BENCH + "bench_wide.py --instances 500 --peer-timeout 120 "
                 "--plot doc/images/wide-data.png",),
        printed_table),
    "wide-large": Figure(
        "doc/wide-data.md",
        (BENCH + "bench_wide.py --large --peers none "
                 "--plot doc/images/wide-data-large.png",),
        None, printed_table),
    "narrow": Figure(
        "doc/large-data.md", (BENCH + "bench_narrow.py",),
        (BENCH + "bench_narrow.py int8",
         BENCH + "bench_narrow.py --no-prepare sparse expression"),
        printed_table),
    "survival-auprc": Figure(
        "doc/survival.md", (BENCH + "bench_survival_auprc.py --draws r numpy",),
        (BENCH + "bench_survival_auprc.py --design main --draws r numpy",),
        printed_table),
    "multilabel": Figure(
        "doc/multi-target.md", (BENCH + "bench_multilabel.py --data yeast",),
        (BENCH + "bench_multilabel.py --data yeast --quick",),
        printed_table),
    "multilabel-emotions": Figure(
        "doc/multi-target.md",
        (BENCH + "bench_multilabel.py --data emotions",),
        (BENCH + "bench_multilabel.py --data emotions --quick",),
        printed_table),
    "interactions": Figure(
        "doc/interactions.md",
        (BENCH + "bench_interactions.py --sizes "
                 "1600x100,2000x500,2000x100,5000x100",),
        (BENCH + "bench_interactions.py --sizes 1600x100,2000x500,2000x100,"
                 "5000x100 --repeats 1",),
        interactions_table),
    "streaming": Figure(
        "doc/large-data.md",
        (BENCH + f"make_large.py {DATA}", BENCH + f"bench_streaming.py {DATA}"),
        (BENCH + f"make_large.py {DATA} --rows 336000",
         BENCH + f"bench_streaming.py {DATA}"),
        streaming_table),
}


# -- measuring: the machine, the commands ----------------------------------

def machine():
    """The CPU's model name and the number of cores this process may use."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info
                        if line.startswith("model name")), cpu)
    except OSError:
        pass
    cores = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count())
    return cpu, cores


def commit():
    """The commit measured, marked when the code differs from it."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True,
                              text=True, check=False).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--", "orangecontrib", "benchmarks",
                  ":!benchmarks/results")
    return head + (" with uncommitted changes" if changed else "")


def run_command(command, directory):
    """Run one figure command from the repository's root; what it printed
    (also shown on stderr as it comes)."""
    argv = [sys.executable if word == "python" else
            str(Path(directory) / "data.npy") if word == DATA else word
            for word in shlex.split(command)]
    print(f"$ {command}", file=sys.stderr, flush=True)
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE,
                               text=True)
    lines = []
    for line in process.stdout:
        sys.stderr.write(line)
        lines.append(line)
    if process.wait():
        raise SystemExit(f"{command} failed with status {process.returncode}")
    return "".join(lines)


def measure(name, small):
    """Run figure `name`'s commands; the record saved in results/."""
    figure = FIGURES[name]
    commands = (figure.small if small and figure.small else figure.commands)
    cpu, cores = machine()
    record = {"figure": name, "measured": time.strftime("%Y-%m-%d"),
              "commit": commit(), "cpu": cpu, "simd": simd_level(),
              "cores": cores,
              "load": os.getloadavg()[0], "commands": list(commands)}
    with tempfile.TemporaryDirectory(prefix="publish-") as directory:
        record["outputs"] = [run_command(command, directory)
                             for command in commands]
    return record


# -- writing the tables ----------------------------------------------------

def heading(record):
    """What a table says of its measurement (the SIMD level where the
    record has it: figures measured before it was kept do not)."""
    commands = " then ".join(f"`{command}`" for command in record["commands"])
    simd = f", {record['simd']}" if "simd" in record else ""
    return (f"*Measured on {record['measured']}, commit {record['commit']}, "
            f"{record['cpu']} ({record['cores']} cores{simd}, load average "
            f"{record['load']:.1f} at the start), by {commands}.*")


def render(record):
    """The lines between a figure's markers."""
    return [heading(record), "",
            *FIGURES[record["figure"]].table(record["outputs"])]


def saved(name):
    """The saved record of figure `name` (None if never measured)."""
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() \
        else None


def marked(text):
    """The figures of a page: (name, first line, end line) of each marked
    table, the lines numbered from 0, the markers excluded."""
    lines, found, start = text.splitlines(), [], None
    for number, line in enumerate(lines):
        match = START.match(line)
        if match:
            start = (match.group(1), number + 1)
        elif line == END and start:
            found.append((*start, number))
            start = None
    return found


def rewrite(page, records):
    """Replace the tables of `page` whose figures are in `records`."""
    path = ROOT / page
    lines = path.read_text(encoding="utf-8").splitlines()
    for name, first, end in reversed(marked("\n".join(lines))):
        if name in records:
            lines[first:end] = render(records[name])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def measured_here(names, level, parser, named):
    """The figures of `names` that a machine of SIMD `level` measures.  A
    figure of another level is left out with a line on stderr (its table
    keeps its saved record), or, where the user named it, refused."""
    other = [name for name in names if not FIGURES[name].measurable(level)]
    if other and named:
        parser.error(f"{', '.join(other)}: measured on "
                     f"{', '.join(FIGURES[name].simd for name in other)} "
                     f"only, and this machine has {level}")
    for name in other:
        print(f"{name}: left as it is (measured on {FIGURES[name].simd} "
              f"only; this machine has {level})", file=sys.stderr)
    return [name for name in names if name not in other]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figures", nargs="*", metavar="FIGURE",
                        help=f"figures to make ({', '.join(FIGURES)}; "
                             "default: all that this machine's SIMD level "
                             "measures)")
    parser.add_argument("--small", action="store_true",
                        help="the smaller commands, where a figure has them")
    parser.add_argument("--saved", action="store_true",
                        help="run nothing: the tables from results/*.json")
    args = parser.parse_args(argv)
    names = args.figures or list(FIGURES)
    unknown = [name for name in names if name not in FIGURES]
    if unknown:
        parser.error(f"no figure {', '.join(unknown)}; choose from "
                     f"{', '.join(FIGURES)}")
    if not args.saved:
        names = measured_here(names, simd_level(), parser, bool(args.figures))
    records = {}
    for name in names:
        if args.saved:
            records[name] = saved(name)
            if records[name] is None:
                raise SystemExit(f"{name}: never measured (no "
                                 f"{RESULTS / name}.json)")
        else:
            records[name] = measure(name, args.small)
            RESULTS.mkdir(exist_ok=True)
            (RESULTS / f"{name}.json").write_text(
                json.dumps(records[name], indent=1) + "\n", encoding="utf-8")
    for page in sorted({FIGURES[name].page for name in names}):
        rewrite(page, records)
        print(f"rewrote {page}", file=sys.stderr)


if __name__ == "__main__":
    main()
