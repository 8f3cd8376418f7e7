"""Threads where processors are free: a kernel compiled twice, serial
and parallel, or run block by block on Python threads.

Each parallel loop (numba's ``prange``) that a call enters forks the
thread pool and joins it again: a few microseconds on an idle machine,
but on a busy one a thread of the pool that waits for a processor holds
the join up for a time slice or more, and the threads that wait spin.
A kernel written once with pranges is compiled in two forms
(:func:`serial_and_parallel`: without ``parallel`` a prange is a range),
and a call (:func:`by_work`) takes the parallel one where its work is
worth a fork (:data:`SMALL_WORK`) and a second processor is free
(:func:`free_processors`), or where it is large enough to gain from the
pool on a busy machine too (:data:`BUSY_WORK`), else the serial one.
The kernels add their partial sums in an order set by the work alone,
never by the threads, so both forms give the same bits.

A loop whose every iteration is one call of a kernel compiled apart
needs no parallel loop of numba's, whose analysis and lowering cost
seconds of a first call's compilation: the kernel, releasing the
interpreter's lock, runs call by call on a few Python threads
(:func:`each_call`), by the same choice of one thread or several.
"""
import os
import threading
import time
import types
from contextlib import contextmanager

import numba
from numba.np.ufunc import parallel as numba_pool

#: the terms (a diff of one attribute on one pair, or what costs about as
#: much) below which a call runs in one thread however idle the machine:
#: about a tenth of a millisecond of one thread's work, where a fork and
#: join of the pool costs microseconds.  At 2 ** 20 the exact ranking and
#: the rule of ReliefF (k = 10) on 1000 x 50 ran in one thread: on 2 idle
#: cores of an AMD EPYC, least of 200 calls, ReliefF took 4.53 ms against
#: 4.27 at 2 ** 17, RReliefF 5.40 against 3.79, and on 500 x 30 2.38 and
#: 2.51 against 2.12 and 1.79 (the SURF family at 700 x 20 and 1000 x 50,
#: and every method at 300 x 20 and 2000 x 100, within the noise)
SMALL_WORK = 2 ** 17

#: the terms from which a call runs on the pool however busy the machine:
#: beside two processes spinning on both cores of an AMD EPYC, ReliefF on
#: 5000 x 100 (the search of all pairs 65 million terms a round) took at
#: least 0.23-0.39 s with its search on the pool against 0.43 s with every
#: kernel in one thread, best of five calls; below it, one thread wins
#: there (see :data:`PARALLEL_PROCESSORS`)
BUSY_WORK = 2 ** 25

#: processors free for this process from which a call runs on the pool:
#: one and a half, where a second thread more likely than not finds one.
#: On 2 cores of an AMD EPYC, ReliefF (k = 10, every instance a
#: reference) with every kernel on the pool took 11.1-11.8 ms idle against
#: 14.5-19.8 ms in one thread (1000 x 50) and 28.8-36.5 against 45.7-49.9
#: ms (2000 x 100), best of seven; beside other work (load average 8 to
#: 13), one thread took 0.45x, 0.74x and 0.48x the least wall time of the
#: pool at 1000 x 50, 2000 x 100 and 5000 x 100, and 0.38x to 0.58x its
#: processor time: a pool whose threads wait for processors loses.
PARALLEL_PROCESSORS = 1.5

#: seconds a reading of :func:`free_processors` serves: the kernels of one
#: call share it
READING_S = 0.05

#: the machine's processors
EVERYWHERE = os.cpu_count() or 1

_reading = (-READING_S, 0.0)
_every_call_parallel = False


def share_of_others(running, own_running, ours, everywhere):
    """The runnable threads of other processes expected on this process's
    `ours` processors: the machine's `running` threads less this
    process's own, spread over all `everywhere` processors."""
    return max(running - own_running, 0) * ours / max(everywhere, ours)


def free_processors():
    """The processors this process may use (its affinity) less the share
    of them that other processes' runnable threads hold right now (Linux:
    ``/proc/loadavg`` counts the machine's runnable threads, the states of
    ``/proc/self/task`` this process's own).  Where these are not readable
    every processor counts as free.  A reading serves :data:`READING_S`
    seconds."""
    global _reading
    now = time.monotonic()
    if now - _reading[0] < READING_S:
        return _reading[1]
    ours = len(os.sched_getaffinity(0)) if hasattr(
        os, "sched_getaffinity") else EVERYWHERE
    try:
        running = int(_text("/proc/loadavg").split()[3].split("/")[0])
        own = sum(_is_running(tid) for tid in os.listdir("/proc/self/task"))
    except (OSError, ValueError, IndexError):
        free = float(ours)
    else:
        free = ours - share_of_others(running, own, ours, EVERYWHERE)
    _reading = (now, free)
    return free


def _text(path):
    """The start of the file `path` of ``/proc`` (one read, no buffer: a
    few tens of microseconds)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return os.read(descriptor, 4096).decode("ascii", "replace")
    finally:
        os.close(descriptor)


def _is_running(tid):
    """Whether this process's thread `tid` is runnable (state R)."""
    try:
        stat = _text(f"/proc/self/task/{tid}/stat")
    except OSError:
        return False  # the thread ended meanwhile
    return stat.rpartition(")")[2].split()[:1] == ["R"]


#: every pair of kernels made by :func:`serial_and_parallel`, (serial,
#: parallel), in the order their modules declare them
TWINS = []


def serial_and_parallel(loops):
    """Two kernels of the Python function `loops`, whose loops are pranges:
    one that runs them in one thread (a prange compiled without
    ``parallel`` is a range) and one that runs them on the thread pool.
    Each has a name of its own, so that numba caches each apart; the pair
    is kept in :data:`TWINS`."""
    kernels = []
    for parallel in (False, True):
        copy = types.FunctionType(loops.__code__, loops.__globals__,
                                  loops.__name__, loops.__defaults__,
                                  loops.__closure__)
        copy.__qualname__ = (f"{loops.__qualname__}_"
                             f"{'parallel' if parallel else 'serial'}")
        copy.__doc__ = loops.__doc__
        kernels.append(numba.njit(parallel=parallel, cache=True)(copy))
    TWINS.append(tuple(kernels))
    return tuple(kernels)


def one_form_only():
    """{kernel: the argument types its twin has and it lacks} of the pairs
    of :data:`TWINS` in this process, each a tuple of numba types: what a
    call whose size takes that kernel (:func:`by_work`) would compile."""
    missing = {}
    for pair in TWINS:
        for form, twin in (pair, pair[::-1]):
            lacks = set(twin.signatures) - set(form.signatures)
            if lacks:
                missing[form] = sorted(lacks, key=str)
    return missing


def compile_twins():
    """Compile each form of :data:`TWINS` for the argument types its twin
    was compiled for (or loaded from the cache for) in this process, and
    for no others: both forms take the same arguments, and a call chooses
    one by its size and the processors free (:func:`by_work`).  So the
    preparation runs its calls once, in whichever form they take, and
    compiles (or loads) the other form here, rather than running every
    call twice."""
    for form, signatures in one_form_only().items():
        for signature in signatures:
            form.compile(signature)


def pool_threads():
    """numba's number of threads for this thread (``numba.get_num_threads``,
    which :func:`numba.set_num_threads` sets thread by thread), read
    straight once the pool has started: numba's own function takes a
    lock shared between processes on every call (2-11 microseconds of
    wall time on a 2-core AMD EPYC beside other work, load average 8,
    against 0.4 for the read itself), and a call of ReliefF asks it at
    every kernel it dispatches.  The read is numba's own (private) one:
    a numba without it is asked through its public function."""
    read = getattr(numba_pool, "_get_num_threads", None)
    if read is not None and getattr(numba_pool, "_is_initialized", False):
        return read()
    return numba.get_num_threads()  # starts the pool


def on_pool(work):
    """Whether a call of `work` terms runs on several threads: where the
    work reaches :data:`BUSY_WORK`, or :data:`SMALL_WORK` with
    :data:`PARALLEL_PROCESSORS` free (always within
    :func:`every_call_parallel`)."""
    if _every_call_parallel:
        return True
    if work < SMALL_WORK or pool_threads() < 2:
        return False
    return work >= BUSY_WORK or free_processors() >= PARALLEL_PROCESSORS


def by_work(kernels, work):
    """The kernel of `kernels` (:func:`serial_and_parallel`) for a call
    of `work` terms: the thread pool's where :func:`on_pool`, else the
    serial one."""
    serial, parallel = kernels
    return parallel if on_pool(work) else serial


def each_call(calls, work):
    """Every call of `calls` (each of a kernel that releases the
    interpreter's lock), in any order: on numba's number of threads
    (Python threads) where `work` terms run on several (:func:`on_pool`),
    else in this thread, in order.

    For a loop whose every iteration is one call of a kernel of its own,
    this costs no compilation, where numba's parallel loop takes seconds
    to analyse and lower (a quarter of the compilation of MultiSURF's
    first call).  The threads take the calls one at a time, each when it
    is free, so that a thread that waits for a processor holds back one
    call only (on a busy 2-core AMD EPYC a call from Python cost about
    10 microseconds, a block of MultiSURF with STIR at 2000 x 100 about
    1.6 ms), and calls of unequal sizes fill each other's gaps; each call
    must write its results apart from the others' (the order in which
    they run is the threads')."""
    threads = min(pool_threads(), len(calls)) if on_pool(work) else 1
    if threads < 2:
        for call in calls:
            call()
        return
    queue = iter(calls)
    failures = []

    def take():
        try:
            for call in queue:
                call()
        except BaseException as failure:
            failures.append(failure)

    others = [threading.Thread(target=take, daemon=True)
              for _ in range(threads - 1)]
    for thread in others:
        thread.start()
    try:
        take()
        for thread in others:
            thread.join()
    finally:
        for _ in queue:  # what is left: the threads stop after their call
            pass
    if failures:
        raise failures[0]


@contextmanager
def every_call_parallel():
    """Within it, the kernels of :func:`by_work` run their parallel form
    whatever their work and the machine's load, so that the tests compare
    both forms.  (It holds for the process: for a test, not for a library
    call.)"""
    global _every_call_parallel
    before, _every_call_parallel = _every_call_parallel, True
    try:
        yield
    finally:
        _every_call_parallel = before
