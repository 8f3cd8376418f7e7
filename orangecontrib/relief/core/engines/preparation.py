"""Preparing the compiled engine ahead of use, so that nobody waits for it.

Numba compiles each kernel the first time it runs, minutes for all of
them on a busy machine.  Rather than make a person wait, a call that
would run the compiled engine before its kernels are prepared runs the
vectorised engine (:func:`..engines.choose`) and starts the preparation
in a background process (:func:`start_in_background`), which runs every
kernel once on small data of every kind (:mod:`..warmup`) and then marks
the kernel folder (:mod:`.cache`) ready; later calls, in this process
too, take the compiled engine.  ``orange-relief prepare`` does the same
in the foreground, with a progress bar, for a lab image or a classroom's
machines before the lecture.

The background preparation

* runs one at a time per kernel folder (a lock in the folder);
* killed halfway, leaves what it compiled in numba's cache, and the next
  run, started by the next call that needs it, finishes the rest;
* runs at the lowest priority (SCHED_IDLE in a session whose scheduling
  group has nice 19 on Linux, nice 19 elsewhere on POSIX,
  IDLE_PRIORITY_CLASS on Windows), so a running computation keeps the
  processors;
* is switched off by ``ORANGE_RELIEF_BACKGROUND=0`` (the project's tests
  do so), and is never started by a forced engine.

This module imports no compiler.
"""
import os
import subprocess
import sys
from contextlib import contextmanager

from . import cache

#: the environment variable that switches the background preparation off
BACKGROUND = "ORANGE_RELIEF_BACKGROUND"
#: the mark of a prepared kernel folder
READY = "ready"
#: the file that one preparation at a time holds locked
LOCK = "lock"
#: the background preparation's output, in the kernel folder
LOG = "preparation.log"
#: what the preparation runs: ``python -m`` of this module
WARMUP_MODULE = "orangecontrib.relief.core.warmup"

#: whether this process started a background preparation
_started = False


def is_ready():
    """Whether the compiled engine's kernels are prepared and cached for
    the current sources."""
    return (cache.kernel_folder() / READY).exists()


def mark_ready(summary):
    """Mark the kernel folder prepared, `summary` (a line of text) its
    content; written whole or not at all."""
    folder = cache.ensure_kernel_folder()
    temporary = folder / f"{READY}.{os.getpid()}"
    temporary.write_text(summary + "\n", encoding="utf-8")
    os.replace(temporary, folder / READY)


def background_allowed():
    """Whether the environment allows a background preparation."""
    return os.environ.get(BACKGROUND, "1").strip().lower() not in (
        "0", "false", "no", "off")


@contextmanager
def preparation_lock(wait):
    """Hold the kernel folder's lock for the block, which receives True;
    False where another process holds it and `wait` is false, or where the
    folder cannot be written."""
    folder = cache.ensure_kernel_folder()
    if folder is None:
        yield False
        return
    with open(folder / LOCK, "a+b") as handle:
        try:
            _lock(handle, wait)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            _unlock(handle)


if sys.platform == "win32":
    import msvcrt

    def _lock(handle, wait):
        handle.seek(0)
        msvcrt.locking(handle.fileno(),
                       msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)

    def _unlock(handle):
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _lock(handle, wait):
        fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))

    def _unlock(handle):
        fcntl.flock(handle, fcntl.LOCK_UN)


def is_running():
    """Whether a preparation holds the kernel folder's lock now."""
    with preparation_lock(wait=False) as held:
        return not held and cache.ensure_kernel_folder() is not None


def start_in_background():
    """Start the background preparation unless the environment forbids
    it, this process started one already, the kernels are ready or
    another process prepares them; True if it started one."""
    global _started
    if _started or not background_allowed() or is_ready():
        return False
    _started = True  # one attempt per process, whatever happens
    folder = cache.ensure_kernel_folder()
    if folder is None or is_running():
        return False
    return spawn([sys.executable, "-m", WARMUP_MODULE, "--background"],
                 folder / LOG)


def spawn(command, log):
    """Start `command` detached, its output appended to `log`, with the
    background preparation off in it (it starts no other); True if it
    started."""
    environment = dict(os.environ, **{BACKGROUND: "0"})
    options = {}
    if sys.platform == "win32":
        options["creationflags"] = (subprocess.IDLE_PRIORITY_CLASS
                                    | subprocess.CREATE_NO_WINDOW)
    else:
        options["start_new_session"] = True
    try:
        with open(log, "ab") as output:
            subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output,
                             stderr=subprocess.STDOUT, env=environment,
                             **options)
    except OSError:
        return False
    return True


#: Linux's scheduling group of a session (sched(7), "The autogroup
#: feature"), whose nice value weighs the session against the others
AUTOGROUP = "/proc/self/autogroup"


def lower_priority():
    """Give this process the lowest scheduling priority the platform
    offers (Windows: set when the process is started).

    On Linux the processor is shared fairly between sessions before it is
    shared between the processes of a session (the autogroups), so a
    background process in a session of its own (:func:`spawn`) would
    take a whole core from a computation beside it, whatever its own
    priority: the session's group gets the lowest priority too.
    """
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            _nice()
    else:
        _nice()
    if os.path.exists(AUTOGROUP) and os.getsid(0) == os.getpid():
        try:
            with open(AUTOGROUP, "w", encoding="ascii") as group:
                group.write("19")
        except OSError:
            pass


def _nice():
    if hasattr(os, "nice"):
        try:
            os.nice(19)
        except OSError:
            pass


def status_line():
    """What a person is told while the vectorised engine answers a call
    that the compiled one will answer once it is prepared."""
    if is_running() or _started:
        return ("Vectorised engine (numpy); the compiled engine is being "
                "prepared in the background, once per installation, and "
                "answers as soon as it is ready.")
    if not background_allowed():
        return ("Vectorised engine (numpy); the compiled engine is not "
                "prepared: `orange-relief prepare` prepares it.")
    return ("Vectorised engine (numpy); the compiled engine will be "
            "prepared in the background.")
