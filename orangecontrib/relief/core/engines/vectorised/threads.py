"""Blocks of independent work on a few threads.

numpy releases the interpreter's lock inside its loops, so threads that
each run numpy on their own block of references share the processors.
Every block writes its own part of the result, or returns it to be
combined in block order, and the blocks are cut the same way whatever
the number of threads: the results do not depend on it.

The engine uses as many threads as numba would: ``NUMBA_NUM_THREADS``
where it is set (a worker process of the experiments sets it to 1, there
being a process per processor), else every processor this process may
run on.

Inside a block numpy's ufunc buffer is small (:data:`BUFFER`): with the
default (8192 entries) an operand broadcast along rows shorter than a
third of it, as a reference's value against a row of instances, takes a
buffered path three times slower than the plain loop.
"""
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np

#: the variable that limits the core's threads, the compiled engine's too
VARIABLE = "NUMBA_NUM_THREADS"
#: numpy's ufunc buffer in a block, in entries
BUFFER = 1024

_pools = {}


def thread_count():
    """How many threads the engine uses (see the module docstring)."""
    try:
        setting = int(os.environ.get(VARIABLE, ""))
    except ValueError:
        setting = 0
    if setting >= 1:
        return setting
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@contextmanager
def small_buffer():
    """numpy's ufunc buffer of this thread at :data:`BUFFER` entries in
    the block (restored afterwards)."""
    previous = np.setbufsize(BUFFER)
    try:
        yield
    finally:
        np.setbufsize(previous)


def each(function, blocks):
    """[function(block) for block in blocks], the blocks run on the
    engine's threads where there are several of them, with a small numpy
    buffer (:func:`small_buffer`)."""
    def run(block):
        with small_buffer():
            return function(block)

    blocks = list(blocks)
    threads = min(thread_count(), len(blocks))
    if threads <= 1:
        return [run(block) for block in blocks]
    if threads not in _pools:
        _pools[threads] = ThreadPoolExecutor(
            threads, thread_name_prefix="orange-relief")
    return list(_pools[threads].map(run, blocks))
