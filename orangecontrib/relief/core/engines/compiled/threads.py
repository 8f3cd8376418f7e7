"""One thread for small work: a kernel compiled twice, serial and parallel.

Each parallel loop (numba's ``prange``) that a call enters forks the
thread pool and joins it again: a few microseconds on an idle machine,
but on a busy one a thread of the pool that waits for a processor holds
the join up for a time slice or more, and the threads that wait spin.
A kernel written once with pranges is compiled in two forms
(:func:`serial_and_parallel`: without ``parallel`` a prange is a range),
and a call takes the serial one below a number of terms
(:func:`by_work`, :data:`PARALLEL_WORK`).  The kernels add their partial
sums in an order set by the work alone, never by the threads, so both
forms give the same bits.
"""
import types
from contextlib import contextmanager

import numba

#: the terms (a diff of one attribute on one pair, or what costs about
#: as much) from which a call of a kernel of the search and the rules
#: runs on the thread pool; below them it runs in one thread.  Measured
#: with ReliefF (k = 10, every instance a reference) on a 2-core AMD
#: EPYC shared with other work (load average 13), twenty calls of each
#: form: every kernel in one thread took 0.45x (1000 x 50) and 0.74x
#: (2000 x 100) the least wall time, and 0.38x and 0.58x the median
#: processor time, of every kernel on the pool (5000 x 100 with as many
#: references drawn, load average 8: 0.48x and 0.55x).  Every step of
#: ReliefF on 2000 x 100 lies below it (a round of its search of all pairs
#: holds 26 million terms); the search from 5000 x 100 on (65 million a
#: round) keeps the pool.  On an idle machine the serial form is the
#: slower: on the same 2 cores, idle, best of seven calls, 14.5-19.8 ms
#: against 11.1-11.8 ms on the pool at 1000 x 50 and 45.7-49.9 ms against
#: 28.8-36.5 ms at 2000 x 100, so one fixed number of terms cannot suit
#: both an idle and a busy machine.
PARALLEL_WORK = 2 ** 25
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
    one by its size alone (:func:`by_work`).  So the preparation runs its
    calls once, in whichever form their size takes, and compiles (or
    loads) the other form here, rather than running every call twice."""
    for form, signatures in one_form_only().items():
        for signature in signatures:
            form.compile(signature)


def by_work(kernels, work, threshold=None):
    """The kernel of `kernels` (:func:`serial_and_parallel`) for a call
    of `work` terms: the thread pool's from `threshold` on (None:
    :data:`PARALLEL_WORK`)."""
    serial, parallel = kernels
    threshold = PARALLEL_WORK if threshold is None else threshold
    return parallel if work >= threshold else serial


@contextmanager
def every_call_parallel():
    """Within it, the kernels of :data:`PARALLEL_WORK` run their parallel
    form whatever their work, so that the tests compare both forms.  (It
    changes the threshold of the process: for a test, not for a library
    call.)"""
    global PARALLEL_WORK
    before, PARALLEL_WORK = PARALLEL_WORK, 0
    try:
        yield
    finally:
        PARALLEL_WORK = before
