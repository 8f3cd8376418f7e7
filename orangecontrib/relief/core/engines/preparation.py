"""Preparing the compiled engine ahead of use, so that nobody waits for it.

Numba compiles each kernel the first time it runs: about three minutes
of processor time for all of them, once for each kernel folder (a cache
folder and a version of the sources, :mod:`.cache`).  Rather than make a
person wait, a call that would run the compiled engine before its
kernels are prepared runs the vectorised engine (:func:`..engines.choose`)
and starts the preparation in the background (:func:`start_in_background`),
which runs every kernel once on small data of every kind (:mod:`..warmup`,
part by part in worker processes, :mod:`.keeper`) and then marks the
kernel folder ready, with a manifest of what it wrote; later calls, in
this process too, take the compiled engine.  ``orange-relief prepare``
does the same in the foreground, with a progress bar, several parts side
by side (:func:`foreground_workers`), taking the work over from a
background preparation that runs.

The background preparation

* runs one at a time per kernel folder on the machine (the process that
  prepares holds the folder's lock), never one per command;
* starts at the lowest priority (nice 19, its session's scheduling group
  too on Linux; the idle class on Windows), so that a running computation
  keeps the processors, and raises its priority a step at a time when it
  falls behind its deadline of :data:`.keeper.DEADLINE` (a machine that
  is always busy would otherwise never give it a second), but not in its
  first minute while the process that started it runs
  (:data:`.keeper.CALLER_HOLD`: the call that started it keeps the
  processors), at the last
  step taking a worker per processor
  (:data:`.keeper.MOST_BACKGROUND_WORKERS`): its fair share of a machine
  that busy programs keep full;
* ends when its kernel folder is deleted, and when it is done;
* stopped or killed halfway, leaves what it compiled in the cache (whole
  files only), and the next run, started by the next call that needs it,
  goes on from the part it was in;
* is switched off by ``ORANGE_RELIEF_BACKGROUND=0`` (the project's tests
  do so), and is never started by a forced engine.

A prepared folder is checked before its first use in a process
(:func:`is_ready`): a cache file that is not as the preparation wrote it
(truncated, garbled, missing) unmarks the folder, with one warning, and
the vectorised engine answers while it is prepared again.

This module imports no compiler.
"""
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

from ..progress import duration
from . import cache, keeper

#: the environment variable that switches the background preparation off
BACKGROUND = "ORANGE_RELIEF_BACKGROUND"
#: what prepares a part: ``python -m`` of this module ``--part NAME``
WARMUP_MODULE = "orangecontrib.relief.core.warmup"
#: the parts of the preparation (:data:`..warmup.CALLS`), in the order
#: of a first use, with the processor seconds each takes, imports
#: included; other machines scale them by the speed the first parts show.
#: Measured by ``orange-relief prepare`` from an empty cache (the seconds
#: its state file gives each part), six workers at once, on a 2-core AMD
#: EPYC with AVX2, idle: 429 s of processor time in all, 231 s of wall
#: time (2026-11-30, commit a170d30; a run under a load average of 14
#: gave each part 0.98-1.12 times as much).  A part pays for the kernels
#: it compiles first of those several call (its workers, which start
#: together, compile each version once between them), so the parts that
#: start first and call the tables, searches and distances that most
#: others call are large: the SURF family's most.
RELIEFF, RRELIEFF, SURF = ("ReliefF and Relief", "RReliefF",
                           "the SURF family and STIR")
NPDR, DOUBLE, CLASS_DEPENDENT = ("NPDR", "dReliefF and pdReliefF",
                                 "CDRelief and IWCDRelief")
KNN, RFSM, STREAMING = "the class-dependent kNN", "RFSM", "streaming"
COMPACT = "narrow, sparse and streamed columns"
PARTS = ((RELIEFF, 45.0), (RRELIEFF, 5.0), (SURF, 115.0), (NPDR, 65.0),
         (DOUBLE, 45.0), (CLASS_DEPENDENT, 9.0), (KNN, 39.0), (RFSM, 9.0),
         (STREAMING, 9.0), (COMPACT, 89.0))
#: the parts that several workers prepare side by side, each piece for
#: its share of the kinds of data (:func:`shares`): the longest, which
#: would otherwise run alone at the end of a run (beside busy programs,
#: where a lone worker gets the smallest share of the machine), and
#: whose kinds of data take kernels of their own (NPDR's do not: one of
#: two pieces waited for the other's kernels most of the run).  Their
#: pieces are not equal: in a run of eight workers under a load average
#: of 7, the SURF family's took 84, 49 and 9 processor seconds (numeric
#: columns, which compile what all call, mixed, missing values), the
#: compact columns' 22 and 57
SHARES = {SURF: 3, COMPACT: 2}
#: the workers ``orange-relief prepare`` runs at once for each processor
#: it may use, and at most: numba compiles a part on one thread, and
#: Linux shares a processor equally among the threads that want it, so
#: that w workers beside b busy programs get w / (w + b) of the
#: processors (four for each processor keep four fifths of an idle
#: machine's beside a busy program on each, and enough of them run while
#: others wait for a kernel that another compiles); each worker holds
#: what it compiled, 150-350 MB, until its piece is done: a run's peak
#: resident memory, its workers and itself, 2.8 GB with eight (2.3 GB
#: with six), on the machine of :data:`PARTS`
WORKERS_PER_PROCESSOR, MOST_WORKERS = 4, 8
#: the root of the package's import path (the workers import it from
#: there, whatever the folder they start in)
ROOT = Path(__file__).resolve().parents[4]

#: whether this process started a background preparation
_started = False
#: {kernel folder: whether its ready mark was found true} in this process
_checked = {}


class CacheWarning(RuntimeWarning):
    """The compiled engine's cache is damaged or cannot be written; the
    computation goes on (on the vectorised engine, or compiling in the
    process)."""


def shares():
    """{piece: (its part, its index from 0, the part's number of pieces)}
    for every piece of the preparation (a worker each), in the order of
    :data:`PARTS`: a part of :data:`SHARES` in as many pieces as it says,
    named "PART (1/3)" and so on, the others whole, named as the part."""
    found = {}
    for part, _ in PARTS:
        count = SHARES.get(part, 1)
        for i in range(count):
            name = part if count == 1 else f"{part} ({i + 1}/{count})"
            found[name] = (part, i, count)
    return found


def pieces():
    """The pieces of :func:`shares` with their budgets: (name, processor
    seconds) pairs, each an equal share of its part's budget."""
    budgets = dict(PARTS)
    return [(name, budgets[part] / count)
            for name, (part, _, count) in shares().items()]


def foreground_workers():
    """How many workers ``orange-relief prepare`` runs at once
    (:data:`WORKERS_PER_PROCESSOR`, :data:`MOST_WORKERS`)."""
    return min(MOST_WORKERS, WORKERS_PER_PROCESSOR * keeper.processors(),
               len(pieces()))


def foreground_order():
    """The pieces in the order ``orange-relief prepare`` starts them: the
    longest first, so that no long piece is left alone at the end."""
    return sorted(pieces(), key=lambda piece: -piece[1])


def budget():
    """The processor seconds of every part of :data:`PARTS`."""
    return sum(seconds for _, seconds in PARTS)


def is_ready():
    """Whether the compiled engine's kernels are prepared and cached for
    the current sources, and every cache file is as the preparation wrote
    it (checked once per process; a damaged folder is unmarked, with a
    :class:`CacheWarning`, and prepared again)."""
    folder = cache.kernel_folder()
    if not (folder / keeper.READY).exists():
        _checked.pop(folder, None)
        return False
    if folder not in _checked:
        _checked[folder] = intact(folder)
    return _checked[folder]


def done_parts():
    """The parts of :data:`PARTS` prepared in the kernel folder so far:
    those whose every piece (:func:`pieces`) is."""
    done = set(keeper.read_state(cache.kernel_folder()).get("done", []))
    undone = {part for name, (part, _, _) in shares().items()
              if name not in done}
    return [part for part, _ in PARTS if part not in undone]


def parts_ready(parts):
    """Whether the parts `parts` of :data:`PARTS` (none: none) are
    prepared, though the whole preparation may not be: a call whose
    kernels they compile may take the compiled engine."""
    return bool(parts) and set(parts) <= set(done_parts())


def intact(folder):
    """Whether the prepared `folder` is as its preparation wrote it; if
    not, its ready mark and the files that differ are removed and a
    warning says so."""
    damaged = keeper.damaged_files(folder)
    if not damaged:
        return True
    for name, _ in damaged:
        try:
            (folder / name).unlink()
        except OSError:
            pass
    unmark(folder)
    name, problem = damaged[0]
    more = f" and {len(damaged) - 1} more" if len(damaged) > 1 else ""
    warnings.warn(f"The compiled engine's cache in {folder} is damaged "
                  f"({name}: {problem}{more}); the vectorised engine "
                  f"answers while the compiled one is prepared again.",
                  CacheWarning, stacklevel=2)
    return False


def unmark(folder):
    """Take the ready mark off `folder`, and the record of its prepared
    parts where no preparation runs: it will be prepared again, every
    part checked (those whose kernels are cached are quick)."""
    names = [keeper.READY] + ([] if keeper.is_held(folder) else [keeper.STATE])
    for name in names:
        try:
            (folder / name).unlink()
        except OSError:
            pass
    _checked.pop(folder, None)


def background_allowed():
    """Whether the environment allows a background preparation."""
    return os.environ.get(BACKGROUND, "1").strip().lower() not in (
        "0", "false", "no", "off")


def is_running():
    """Whether a preparation holds the kernel folder's lock now."""
    folder = cache.kernel_folder()
    return folder.is_dir() and keeper.is_held(folder)


def start_in_background(first=()):
    """Start the background preparation unless the environment forbids
    it, this process started one already, the kernels are ready or
    another process prepares them; True if it started one.  The parts
    `first` (names of :data:`PARTS`) are prepared first."""
    global _started
    if _started or not background_allowed() or is_ready():
        return False
    _started = True  # one attempt per process, whatever happens
    folder = cache.ensure_kernel_folder()
    if folder is None or keeper.is_held(folder):
        return False
    return spawn(folder, first)


def worker_command():
    """The command that prepares a part, but for the part's name."""
    return [sys.executable, "-m", WARMUP_MODULE, "--part"]


def worker_environment():
    """The environment of a worker: this one, the package importable
    whatever the folder, no background preparation started from it and
    no forced engine."""
    env = dict(os.environ, **{BACKGROUND: "0"})
    env.pop("ORANGE_RELIEF_ENGINE", None)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def spawn(folder, first=()):
    """Start the background preparation of `folder` (:func:`.keeper.main`),
    the parts `first` first: a process that detaches itself at once, so
    that this one has no child left to wait for; True if it started."""
    part_of = shares()
    parts = sorted(pieces(), key=lambda piece: part_of[piece[0]][0]
                   not in first)
    settings = json.dumps({"folder": str(folder), "parts": parts,
                           "worker": worker_command(),
                           "deadline": keeper.DEADLINE,
                           "caller": os.getpid()})
    options = {}
    if sys.platform == "win32":
        options["creationflags"] = (subprocess.DETACHED_PROCESS
                                    | subprocess.CREATE_NEW_PROCESS_GROUP
                                    | subprocess.CREATE_NO_WINDOW)
    try:
        # it works in its kernel folder, not in the caller's: a command
        # run in a folder deleted after it ends (a temporary one) would
        # leave it in a folder that no longer exists, where numba fails
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", keeper.__file__, settings],
            env=worker_environment(), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=True, cwd=folder, **options)
    except OSError:
        return False
    if sys.platform != "win32":
        process.wait()  # it forks and returns at once
    else:
        _detached.append(process)  # no fork: never waited for
    return True


#: the background preparations started here on Windows
_detached = []


def status_line():
    """What a person is told while the vectorised engine answers a call
    that the compiled one will answer once it is prepared: why, how far
    the preparation is, and how to have it now."""
    folder = cache.kernel_folder()
    now = "`orange-relief prepare` prepares it now, with a progress bar"
    if cache.ensure_kernel_folder() is None:
        return (f"Vectorised engine (numpy); the compiled engine cannot be "
                f"prepared: its cache folder {folder} cannot be written "
                f"(set NUMBA_CACHE_DIR to a folder that can be).")
    if is_running() or _started:
        return f"Vectorised engine (numpy); {progress_of(folder)}; {now}."
    failed = keeper.read_state(folder).get("outcome") or ""
    if failed.startswith(("failed", "unwritable")):
        return (f"Vectorised engine (numpy); the compiled engine's "
                f"preparation did not end ({failed}); {now}.")
    if not background_allowed():
        return (f"Vectorised engine (numpy); the compiled engine is not "
                f"prepared ({BACKGROUND}=0): {now}.")
    return ("Vectorised engine (numpy); the compiled engine will be "
            "prepared in the background.")


def last_outcome():
    """How the last preparation of the kernel folder ended, in words."""
    return (keeper.read_state(cache.kernel_folder()).get("outcome")
            or "it was stopped")


def progress_of(folder):
    """How far the running preparation of `folder` is, in words."""
    state = keeper.read_state(folder)
    who = ("by `orange-relief prepare`" if state.get("role") == "foreground"
           else "in the background")
    return (f"the compiled engine is being prepared {who}, once for this "
            f"cache folder and version ({how_far(state)})")


def how_far(state):
    """How long the preparation whose state is `state` has run, how far it
    is and how long it expects still to take, in words (before its first
    part: the processor time it needs)."""
    if state.get("part"):
        return (f"for {duration(state['elapsed'])}, "
                f"{100 * state['fraction']:.0f}% done, {time_left(state)}")
    return f"about {duration(budget())} of processor time"


def time_left(state):
    """How long the preparation whose state is `state` expects still to
    take, in words; while a busy machine starves it (its time left is
    None), the share of a processor it gets instead."""
    if state.get("left") is None:
        return (f"time left not known yet: the machine is busy and gives "
                f"it {100 * state.get('rate', 0.0):.0f}% of a processor")
    return f"about {duration(state['left'])} left"
