"""The preparation of the compiled engine, part by part, in worker
processes: what ``orange-relief prepare`` runs in the foreground and the
background preparation runs detached (:mod:`.preparation` says when).

The work is the parts of :data:`..warmup.WORKLOAD` (the longest in
pieces, :func:`.preparation.shares`, which the run takes as parts),
each with a known budget of processor seconds.  Each part runs in a
fresh worker process
(``python -m orangecontrib.relief.core.warmup --part NAME``; the
background preparation runs one at a time, ``orange-relief prepare``
several side by side, :class:`Run`), which
compiles its kernels into the kernel folder and reports, a line of JSON
at a time on its output, the kernel it compiles and its processor time.
A worker per part keeps the memory bounded (numba keeps what it compiled
until the process ends) and makes every part a checkpoint: a run that is
stopped resumes at the part it was in, the kernels it cached loaded, not
compiled again.  Processes that write a kernel's files (a worker, a
call that compiles first) hold the folder's lock of writers while they
do (:func:`saving`).

One preparation at a time per kernel folder: the process that runs it
holds the folder's lock (:class:`Lock`) and writes what it does to the
folder's state file (:func:`write_state`): who it is (its process id,
foreground or background), since when, the part, how far, how long it
expects still to take.  Calls read it to say so; ``orange-relief
prepare`` reads it to take the work over from a background preparation
(:func:`take_over`), which then stops its worker and hands the lock over.

The background preparation (:func:`main`) detaches itself from the
process that started it, starts at the lowest priority and raises it, a
step at a time, when it falls behind :data:`DEADLINE` (a machine whose
processors are always busy would otherwise never give it any time), but
not in its first minute while that process runs (:data:`CALLER_HOLD`).
It ends, leaving nothing, when its kernel folder is deleted
(:func:`remove_empty`), and it ends when its work is done.

This module imports only Python's standard library: run as a script
(``python keeper.py SETTINGS``) it is the background preparation, a
small process that mostly waits for its worker.
"""
import hashlib
import io
import json
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

#: the files of the kernel folder that are not numba's
LOCK, READY, STATE, LOG = "lock", "ready", "state.json", "preparation.log"
#: the lock of the processes that write a kernel's files (:func:`saving`)
SAVING = "saving"
#: the folder of the locks of the kernels' versions being compiled, one
#: each, removed when its compile ends
#: (:func:`..compiled.locator.compile_alone`)
COMPILING = "compiling"
#: how long a process waits for the lock of writers before it leaves a
#: kernel uncached, in seconds (a kernel's files take milliseconds)
SAVE_WAIT = 30.0
#: numba's files: a function's index and its machine code
CACHE_FILES = (".nbi", ".nbc")
#: the wall seconds within which the background preparation means to end
DEADLINE = 480.0
#: its priorities, lowest first: the nice values of its worker and of its
#: session's scheduling group (Linux)
NICE_LEVELS = (19, 10, 0)
#: the workers a background run takes at once where it is still behind at
#: the top priority, its last step: one per processor it may use, at most
#: this many (each holds 150-250 MB while its part runs); beside busy
#: programs, its fair share of the machine rather than of one processor
MOST_BACKGROUND_WORKERS = 4
#: the share of the deadline before the first step up, and between two
#: steps (20 s of 480); the rate of the work is measured over as long
STEP = 1 / 24
#: the share of the deadline (60 s of 480) for which no step is taken while
#: the process that started the background run runs: the call that the
#: vectorised engine answers meanwhile keeps the processors (a step at
#: 20 s would take them from it), and a process that lives on after its
#: call (a canvas, a notebook) holds the steps back no longer than this
CALLER_HOLD = 1 / 8
#: below this share of a processor the wall time left is not estimated:
#: a rate measured while the machine starves the run says little of what
#: it will get once its priority rises
STARVED = 0.05
#: how long a preparation that hands over has to let the lock go, and a
#: stopped worker to end, in seconds
HANDOVER, WORKER_END = 10.0, 5.0
#: how often the state file is written, in seconds
STATE_EVERY = 1.0
#: the exit status of a worker that could not write the cache
UNWRITABLE = 3
#: a numba temporary file older than this many seconds is left over from
#: a process that was killed while writing it
STALE_TEMPORARY = 60.0
#: the log is started again when it grows larger than this many bytes
LOG_LIMIT = 2 ** 20
#: how long a preparation whose folder was deleted waits, once its workers
#: have ended, before it removes the empty folders the deletion left
#: (:func:`remove_empty`): the deleter's own pass ends first
DELETER_PASS = 1.0


# -- the lock ---------------------------------------------------------------

class Lock:
    """The kernel folder's lock: held by the process that prepares (or,
    named `name`, another lock of the folder)."""

    def __init__(self, folder, name=LOCK):
        self.path = Path(folder) / name
        self.handle = None

    def acquire(self, wait=0.0):
        """Try for `wait` seconds to hold the lock; whether it is held."""
        self.handle = open(self.path, "a+b")
        deadline = time.monotonic() + wait
        while True:
            try:
                _lock(self.handle)
                return True
            except OSError:
                if time.monotonic() >= deadline:
                    self.handle.close()
                    self.handle = None
                    return False
                time.sleep(0.05)

    def release(self):
        """Let the lock go."""
        if self.handle is not None:
            try:
                _unlock(self.handle)
            finally:
                self.handle.close()
                self.handle = None

    def acquire_in_place(self):
        """Hold the lock, waiting as long as it takes, on the file now at
        its path: where the holder removed the file while this process
        waited (:meth:`remove`), the lock is taken again on the file that
        the path names now, so that no two processes hold it at once."""
        while True:
            self.acquire(wait=float("inf"))
            if not self.gone():
                return
            self.release()

    def remove(self):
        """Remove the lock's file, then let the lock go: a process that
        waits for it takes it again (:meth:`acquire_in_place`), a later
        one makes the file anew.  (Windows keeps a file that another
        process holds open: there it stays.)"""
        try:
            self.path.unlink()
        except OSError:
            pass
        self.release()

    def gone(self):
        """Whether the lock's file (so the folder) was deleted while held."""
        try:
            return os.fstat(self.handle.fileno()).st_nlink == 0
        except OSError:
            return True


if sys.platform == "win32":
    import msvcrt

    def _lock(handle):
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)

    def _unlock(handle):
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _lock(handle):
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(handle):
        fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def saving(folder, wait=SAVE_WAIT):
    """Hold the lock of the writers of `folder`'s kernels for the block,
    waiting up to `wait` seconds; yields whether to write: False where
    another process held it all that time (a lock that cannot be made
    does not stop the write, which will say why it fails).  Numba adds a
    kernel's new version to its index under the first number the index
    does not use, then writes the index and the machine code: two
    processes that did so at once (a worker of the preparation and a call
    compiling first, or two such calls) would take the same number, and
    one's index would name the other's machine code."""
    lock = Lock(folder, SAVING)
    try:
        held = lock.acquire(wait)
    except OSError:  # a folder that cannot be written
        held = None
    try:
        yield held is not False
    finally:
        lock.release()


def is_held(folder):
    """Whether a process holds the lock of `folder` now."""
    lock = Lock(folder)
    try:
        if lock.acquire():
            lock.release()
            return False
    except OSError:  # no folder, or one that cannot be written
        return False
    return True


# -- the state file ---------------------------------------------------------

def write_atomically(path, text):
    """Write `text` to `path` whole or not at all."""
    temporary = Path(f"{path}.{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def write_state(folder, state):
    """The preparation's state, for other processes to read."""
    write_atomically(Path(folder) / STATE, json.dumps(state))


def read_state(folder):
    """The state the last preparation of `folder` wrote ({} if none)."""
    try:
        return json.loads((Path(folder) / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


# -- the ready mark and its manifest -------------------------------------------

def manifest(folder):
    """{path: [size, sha256]} of every cache file of `folder` (numba's
    index and data files, not temporary ones)."""
    folder = Path(folder)
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.suffix in CACHE_FILES and path.is_file():
            data = path.read_bytes()
            files[path.relative_to(folder).as_posix()] = [
                len(data), hashlib.sha256(data).hexdigest()]
    return files


def mark_ready(folder, summary):
    """Mark `folder` prepared: its manifest and `summary`, written whole."""
    write_atomically(Path(folder) / READY, json.dumps(
        {"summary": summary, "files": manifest(folder)}))


def damaged_files(folder):
    """The cache files of the prepared `folder` that are not as the
    preparation wrote them (missing, another size or content), each with
    what is wrong; [] if every one is as written.  A ready mark that
    cannot be read counts as damaged too."""
    folder = Path(folder)
    try:
        files = json.loads((folder / READY).read_text(encoding="utf-8"))[
            "files"]
        files = {name: (int(size), str(digest))
                 for name, (size, digest) in files.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return [(READY, "the mark of a prepared folder cannot be read")]
    damaged = []
    for name, (size, digest) in files.items():
        try:
            data = (folder / name).read_bytes()
        except OSError as error:
            damaged.append((name, error.strerror or "cannot be read"))
            continue
        if (len(data), hashlib.sha256(data).hexdigest()) == (size, digest):
            continue
        if name.endswith(".nbi") and is_index(data):
            continue  # numba added a kernel for other argument types
        damaged.append((name, f"{len(data)} bytes where {size} were written"
                        if len(data) != size else "its content changed"))
    return damaged


def is_index(data):
    """Whether `data` read as numba's index of a kernel's cached
    versions: its version, then its stamp and versions, pickled.  Numba
    writes the index whole, under a temporary name renamed into place,
    each time it caches a version for new argument types; a prepared
    folder's index that changed and still reads so has grown, not been
    damaged."""
    try:
        stream = io.BytesIO(data)
        pickle.load(stream)
        _, versions = pickle.loads(stream.read())
    except Exception:  # noqa: BLE001 -- whatever a damaged file raises
        return False
    return isinstance(versions, dict)


def remove_stale_temporaries(folder, age=STALE_TEMPORARY):
    """Remove numba's temporary files (``*.tmp.*``) in `folder` older than
    `age` seconds: left by a process killed while it wrote them."""
    limit = time.time() - age
    for path in Path(folder).rglob("*.tmp.*"):
        try:
            if path.stat().st_mtime < limit:
                path.unlink()
        except OSError:
            pass


# -- priorities ---------------------------------------------------------------

#: Linux's scheduling group of a session (sched(7), "The autogroup
#: feature"), whose nice value weighs the session against the others
AUTOGROUP = "/proc/self/autogroup"


def processors():
    """The processors this process may use."""
    return (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1)


def fair_share(threads, load=None):
    """The processors that `threads` threads wanting work get where the
    load average (`load`, this machine's now if not given) counts the
    others: Linux gives each thread that wants a processor an equal share,
    so `threads` of ``threads + load`` of the processors, and at most one
    each."""
    if load is None:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return min(float(threads), processors() * threads / (threads + load))


def background_workers():
    """The workers of a background run at its last step."""
    return min(MOST_BACKGROUND_WORKERS, processors())


def set_group_nice(nice):
    """Give this process's session, where it leads one, the nice value
    `nice` on Linux (an unprivileged process may set any value from 0 to
    19, so the group's priority can be raised again).  Linux shares the
    processors between sessions first: a background process in a session
    of its own would otherwise take a whole core, whatever its own nice
    value."""
    if not os.path.exists(AUTOGROUP) or os.getsid(0) != os.getpid():
        return
    try:
        with open(AUTOGROUP, "w", encoding="ascii") as group:
            group.write(str(nice))
    except OSError:
        pass


def set_nice(nice):
    """Give this process the nice value `nice`, or the nearest it may."""
    if not hasattr(os, "setpriority"):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, 0, max(nice, os.getpriority(
            os.PRIO_PROCESS, 0)))
    except OSError:
        pass


def priority_class(level):
    """Windows' priority class of a worker at `level` (0 on other
    platforms, whose workers take their nice value themselves)."""
    if sys.platform != "win32":
        return 0
    return (subprocess.IDLE_PRIORITY_CLASS,
            subprocess.BELOW_NORMAL_PRIORITY_CLASS,
            subprocess.NORMAL_PRIORITY_CLASS)[level]


def process_runs(pid):
    """Whether the process `pid` runs (on Windows, where a signal 0 would
    interrupt it, taken as ended)."""
    if sys.platform == "win32":
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's
        return True
    return True


# -- a worker ---------------------------------------------------------------

class Worker:
    """A worker process preparing the part `part`; its reports arrive in
    `messages` (shared by the workers of a run) as (worker, report):
    dicts, None when its output ends.  `spent` is the processor time of
    the part's earlier workers."""

    def __init__(self, part, command, env, log, messages, spent=0.0,
                 nice=None, level=None):
        options = {}
        if level is not None and sys.platform == "win32":
            options["creationflags"] = (priority_class(level)
                                        | subprocess.CREATE_NO_WINDOW)
        elif nice is not None:
            command = [*command, "--nice", str(nice)]
        self.part, self.spent, self.messages = part, spent, messages
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=log, env=env, **options)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            try:
                self.messages.put((self, json.loads(line)))
            except ValueError:
                continue
        self.messages.put((self, None))

    def ask_to_end(self):
        """Ask the worker to end (it finishes the file it writes)."""
        if self.process.poll() is None:
            self.process.terminate()

    def stop(self):
        """End the worker: asked first (it finishes the file it writes),
        then killed."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WORKER_END)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.close()

    def close(self):
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


# -- a run of the parts ---------------------------------------------------------

class Outcome(Exception):
    """How a run ended other than ready: `kind` is "unwritable" (the cache
    cannot be written), "failed" (a part failed twice) or "gone" (the
    kernel folder was deleted); `detail` says more."""

    def __init__(self, kind, detail):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


class Run:
    """The preparation of the parts of `parts` ((name, budget in
    processor seconds), in order) into `folder`, whose lock `lock` this
    process holds, a worker per part (`worker`: the command that prepares
    a part, without the part's name), the parts started in their order,
    up to `workers` at once: from the start, since the workers compile
    each kernel's version once between them, a worker that needs one that
    another compiles waiting for it and then loading it
    (:func:`..compiled.locator.compile_alone`).

    `role` is "foreground" or "background"; a background run starts at
    the lowest priority and raises it when it falls behind
    `deadline` (default :data:`DEADLINE`), but not while `caller` (the
    process id of the process that started it, if given) runs, for
    :data:`CALLER_HOLD` of the deadline at most.  `on_status(state)`, if
    given, receives the state as it changes (what the state file holds).
    """

    def __init__(self, folder, lock, parts, worker, env, role,
                 on_status=None, deadline=None, clock=time.monotonic,
                 workers=1, caller=None):
        self.folder, self.lock = Path(folder), lock
        self.parts, self.worker, self.env = list(parts), list(worker), env
        self.role, self.on_status, self.clock = role, on_status, clock
        self.caller = caller
        self.deadline = DEADLINE if deadline is None else deadline
        self.window = STEP * self.deadline
        self.level = 0 if role == "background" else None
        self.workers = max(1, workers)
        self.start = clock()
        previous = read_state(folder)
        names = [name for name, _ in self.parts]
        self.done = [name for name in previous.get("done", [])
                     if name in names]
        self.spent = {}  # processor seconds of each part's workers so far
        self.cpu_samples = []  # (wall, processor seconds of the run)
        self.running = {}  # part -> its Worker
        self.messages = queue.Queue()  # the running workers' reports
        self.kernel = self.error = None
        self.last_step = self.start
        self.last_written = None
        self.state = {}

    # the estimate -------------------------------------------------------------

    def speed(self):
        """Processor seconds spent per budgeted second on the parts done
        here (1 before any): this machine against the budgets'."""
        done = [name for name in self.done if name in self.spent]
        budget = sum(b for name, b in self.parts if name in done)
        return (sum(self.spent[name] for name in done) / budget
                if budget else 1.0)

    def rate(self):
        """The processors the workers got over the last window of seconds
        (a share of one, or more where several run); until some are known,
        a foreground run's :func:`fair_share` (``prepare``'s first estimate:
        six workers on an idle 2-core machine get two processors, not one),
        a background run's 1 (its priority is low, then rises)."""
        samples = self.cpu_samples
        if (len(samples) < 2
                or samples[-1][0] - samples[0][0] < self.window / 4):
            if self.level is None:
                return fair_share(max(len(self.running), 1))
            return 1.0
        (wall0, cpu0), (wall1, cpu1) = samples[0], samples[-1]
        return max(cpu1 - cpu0, 0.0) / (wall1 - wall0)

    def left(self):
        """(processor seconds, wall seconds) the run still needs: the
        budgets of the parts not done, by this machine's speed, less what
        the running parts spent already; wall seconds at the recent rate."""
        speed = self.speed()
        cpu = 0.0
        for name, budget in self.parts:
            if name in self.done:
                continue
            need = budget * speed
            if name in self.running:
                spent = self.spent.get(name, 0.0)
                need = max(need - spent, 0.1 * need)
            cpu += need
        return cpu, cpu / max(self.rate(), 0.01)

    def fraction(self):
        """The share of the budgets done."""
        total = sum(budget for _, budget in self.parts)
        cpu, _ = self.left()
        return min(1.0, max(0.0, 1.0 - cpu / (total * self.speed())))

    # reporting ----------------------------------------------------------------

    def report(self, outcome=None, force=False):
        """The state now: the running parts (``part``, their names joined;
        ``index``, the parts done before them), how far, how long still."""
        now, rate = self.clock(), self.rate()
        cpu, wall = self.left()
        running = [name for name, _ in self.parts if name in self.running]
        self.state = {
            "pid": os.getpid(), "role": self.role,
            "started": time.time() - (now - self.start),
            "updated": time.time(), "part": ", ".join(running) or None,
            "running": running, "index": len(self.done),
            "count": len(self.parts), "kernel": self.kernel,
            "done": self.done, "spent": self.spent,
            "fraction": self.fraction(), "elapsed": now - self.start,
            "left": 0.0 if outcome else None if rate < STARVED else wall,
            "rate": rate, "outcome": outcome,
            "nice": None if self.level is None else NICE_LEVELS[self.level]}
        if self.on_status is not None:
            self.on_status(self.state)
        if (force or self.last_written is None
                or now - self.last_written >= STATE_EVERY):
            self.last_written = now
            try:
                write_state(self.folder, self.state)
            except OSError:
                pass

    # escalation ---------------------------------------------------------------

    def behind(self):
        """Whether a background run falls behind its deadline at its recent
        rate, so that its priority should be raised a step (a window after
        the start, or after the last step, at the earliest; not while it
        holds back for its caller, :meth:`beside_caller`)."""
        now = self.clock()
        if (self.level is None or self.at_top()
                or now - self.last_step < self.window
                or self.beside_caller()):
            return False
        _, wall = self.left()
        return now - self.start + wall > self.deadline

    def beside_caller(self):
        """Whether the process that started the run still runs, within
        :data:`CALLER_HOLD` of the deadline from the start."""
        return (self.caller is not None
                and self.clock() - self.start < CALLER_HOLD * self.deadline
                and process_runs(self.caller))

    def at_top(self):
        """Whether a background run has taken its last step."""
        return (self.level == len(NICE_LEVELS) - 1
                and self.workers >= background_workers())

    def raise_priority(self):
        """One step up: the next nice value (True: the running workers
        start again at it), or past the last, a worker per processor
        (False: the running ones go on)."""
        self.last_step = self.clock()
        if self.level < len(NICE_LEVELS) - 1:
            self.level += 1
            set_group_nice(NICE_LEVELS[self.level])
            return True
        self.workers = background_workers()
        return False

    # running ------------------------------------------------------------------

    def start_worker(self, name):
        nice = None if self.level is None else NICE_LEVELS[self.level]
        with open(self.folder / LOG, "ab") as log:
            self.running[name] = Worker(
                name, [*self.worker, name], self.env, log, self.messages,
                self.spent.get(name, 0.0), nice, self.level)

    def stop_worker(self, name):
        self.running.pop(name).stop()

    def run(self):
        """Prepare every part not done; mark the folder ready.  Raises
        :class:`Outcome` where it cannot, which the state file says too
        (but where the folder is gone)."""
        try:
            self.run_parts()
        except Outcome as outcome:
            if outcome.kind != "gone":
                self.report(str(outcome), force=True)
            raise
        finally:  # all asked at once: the run ends within one wait
            for worker in self.running.values():
                worker.ask_to_end()
            for name in list(self.running):
                self.stop_worker(name)

    def run_parts(self):
        """Run every part not done in a worker, up to :attr:`workers` at
        once; a part that fails runs once more, and the running parts start
        again where the priority is raised meanwhile."""
        if self.level is not None:
            set_group_nice(NICE_LEVELS[self.level])
        remove_stale_temporaries(self.folder)
        waiting = [name for name, _ in self.parts if name not in self.done]
        failed = set()
        while waiting or self.running:
            while waiting and len(self.running) < self.workers:
                self.start_worker(waiting.pop(0))
            name, result = self.follow()
            if result == "more":  # more workers may start
                continue
            if result == "raised":
                again = [part for part, _ in self.parts
                         if part in self.running]
                for part in again:
                    self.stop_worker(part)
                waiting[:0] = again
                continue
            self.stop_worker(name)
            if result == 0:
                self.done.append(name)
                continue
            if result == UNWRITABLE:
                raise Outcome("unwritable", self.error or "cannot write")
            if name in failed:
                raise Outcome("failed", f"the part {name} failed (exit "
                                        f"status {result}; see {LOG})")
            failed.add(name)
            waiting.insert(0, name)
        self.kernel = None
        self.check_folder()
        remove_stale_temporaries(self.folder)
        mark_ready(self.folder, f"prepared in {self.clock() - self.start:.0f}"
                                f" s ({self.role})")
        self.report("ready", force=True)

    def check_folder(self):
        if self.lock.gone() or not self.folder.is_dir():
            raise Outcome("gone", f"{self.folder} was deleted")

    def follow(self):
        """Follow the running workers until one ends: (its part, its exit
        status); (None, "more") where the run may take more workers at
        once; (None, "raised") where the priority was raised, so that they
        start again at the new one."""
        self.error = None
        while True:
            try:
                worker, message = self.messages.get(timeout=0.5)
            except queue.Empty:
                worker, message = None, {}
            if worker is not None and self.running.get(worker.part) is not \
                    worker:
                continue  # a report of a worker stopped already
            if message is None:  # its output ended: it ends
                status = worker.process.wait()
                # a worker ends where its folder is deleted: not a part
                # that failed, to be started again (into that folder)
                self.check_folder()
                return worker.part, status
            if "cpu" in message:
                self.spent[worker.part] = worker.spent + message["cpu"]
            # a sample every turn, reported or not: a starved worker that
            # says nothing shows as a rate of 0
            now = self.clock()
            self.cpu_samples.append((now, sum(self.spent.values())))
            while now - self.cpu_samples[0][0] > self.window:
                self.cpu_samples.pop(0)
            self.kernel = message.get("kernel", self.kernel)
            self.error = message.get("error", self.error)
            self.check_folder()
            if self.behind():
                return None, "raised" if self.raise_priority() else "more"
            self.report()


def take_over(folder, wait=HANDOVER):
    """Ask the background preparation that holds `folder`'s lock to hand
    it over, and hold it: the :class:`Lock`, or None where the lock's
    holder is not a background preparation (a foreground one, which
    is left to finish) or does not let it go."""
    state = read_state(folder)
    lock = Lock(folder)
    if lock.acquire():
        return lock
    if state.get("role") != "background" or not state.get("pid"):
        return None
    pid = state["pid"]
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
    if lock.acquire(wait):
        return lock
    try:  # the background preparation leads its own process group
        if hasattr(os, "killpg"):
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
    return lock if lock.acquire(WORKER_END) else None


# -- the background preparation ------------------------------------------------

def detach():
    """Leave the process that started this one (POSIX: it returns at once,
    with no child to wait for) in a session of our own, so that the
    terminal's signals (Ctrl-C, hang-up) reach the command only."""
    if hasattr(os, "fork"):
        if os.fork():
            os._exit(0)
        os.setsid()


def main(argv=None):
    """``python keeper.py SETTINGS``: the background preparation, SETTINGS
    a JSON object: ``folder``, ``parts`` ([name, budget] pairs),
    ``worker`` (the command that prepares a part, without its name),
    ``deadline`` (seconds) and ``caller`` (the process id of the process
    that starts it, optional: :class:`Run`).  The workers have this
    process's environment (given to it, not on its command line, which
    anyone may read)."""
    settings = json.loads((sys.argv[1:] if argv is None else argv)[0])
    detach()
    folder = Path(settings["folder"])
    log = folder / LOG
    try:
        if log.stat().st_size > LOG_LIMIT:
            log.unlink()
    except OSError:
        pass
    lock = Lock(folder)
    try:
        if not lock.acquire(wait=2.0):
            return 0  # another preparation runs
    except OSError:
        return 1
    stop = threading.Event()

    def stopped(signum, frame):
        stop.set()
        raise KeyboardInterrupt

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stopped)
    run = Run(folder, lock, settings["parts"], settings["worker"],
              dict(os.environ), "background", deadline=settings["deadline"],
              caller=settings.get("caller"))
    outcome = None
    try:
        run.run()
    except Outcome as error:
        outcome = error.kind
    except KeyboardInterrupt:  # asked to hand over
        if not lock.gone():
            run.report("handed over", force=True)
    finally:
        lock.release()
    if outcome == "gone":
        time.sleep(DELETER_PASS)
        remove_empty(folder)
    return 0 if outcome in (None, "gone") else 1


def remove_empty(folder):
    """Remove the empty subfolders of the deleted kernel folder `folder`,
    then it and the folder of the kernel folders, where they are empty: a
    deleter that empties a folder and then removes it (``rm -rf``) cannot
    remove a kernel's subfolder that a worker made meanwhile, nor the
    folders that hold it.  A folder that holds anything is left alone."""
    folder = Path(folder)
    for path in [*folder.glob("*"), folder, folder.parent]:
        try:
            path.rmdir()
        except OSError:
            pass


if __name__ == "__main__":
    sys.exit(main())
