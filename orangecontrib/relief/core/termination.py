"""Ending a process cleanly when it is told to stop: Ctrl-C (SIGINT) and
SIGTERM (what ``kill``, ``timeout`` and a cancelled CI job send).

A program that wants a clean end :func:`install`\\ s the handler: either
signal then raises :class:`Stopped` in the main thread, and the program
unwinds as from any exception, stopping its worker processes and
releasing its locks on the way (Python's default would end a SIGTERM'd
process at once, its workers left running).  A write that must be whole
(the compiled engine's cache) runs :func:`deferred`: a signal that
arrives meanwhile takes effect when the write is done.  Without the
handler installed (a library call in someone else's program), nothing
changes.

Worker processes take :func:`worker_start`: they leave Ctrl-C, which a
terminal sends to every process of the command, to their parent, which
ends them, and they end themselves when their parent is gone, however it
went.
"""
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

#: the signals that stop a process cleanly
SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: how often a worker looks whether its parent is still there, in seconds
PARENT_POLL = 0.5


class Stopped(BaseException):
    """Raised in the main thread by SIGINT or SIGTERM once :func:`install`
    ed; a BaseException, as KeyboardInterrupt, so that no ``except
    Exception`` swallows it."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self):
        """The exit status of a process ended by the signal: 128 + its
        number (130 for SIGINT, 143 for SIGTERM), as a shell reports it."""
        return 128 + self.signum

    def __str__(self):
        if self.signum == signal.SIGINT:
            return "interrupted (Ctrl-C)"
        return f"stopped by {signal.Signals(self.signum).name}"


#: how many deferred blocks are open, and the signal held meanwhile
_deferring = 0
_pending = None


def _handler(signum, frame):
    global _pending
    if _deferring:
        _pending = _pending or signum
        return
    raise Stopped(signum)


def _main_thread():
    return threading.current_thread() is threading.main_thread()


@contextmanager
def installed():
    """Run the block with SIGINT and SIGTERM raising :class:`Stopped`
    (where this is the main thread; elsewhere signals are not ours to
    handle), the previous handlers restored afterwards."""
    if not _main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _handler) for signum in SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def install():
    """SIGINT and SIGTERM raise :class:`Stopped` in this process from now
    on (a process of our own: the preparation's, a worker's)."""
    for signum in SIGNALS:
        signal.signal(signum, _handler)


@contextmanager
def deferred():
    """Hold SIGINT and SIGTERM in the block where :func:`install` handles
    them: a signal that arrives meanwhile raises :class:`Stopped` at its
    end, so that the block's work (a file written and renamed) is whole."""
    global _deferring, _pending
    if not _main_thread():
        yield
        return
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1
        if not _deferring and _pending is not None:
            signum, _pending = _pending, None
            raise Stopped(signum)


def worker_start():
    """Set up a worker process: Ctrl-C is left to the parent, which ends
    its workers; the worker ends itself once its parent is gone (POSIX:
    it is then adopted by another process)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.name == "posix":
        parent = os.getppid()
        threading.Thread(target=_end_with_parent, args=(parent,),
                         daemon=True, name="end with parent").start()


def _end_with_parent(parent):
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    sys.stderr.flush()
    os._exit(1)
