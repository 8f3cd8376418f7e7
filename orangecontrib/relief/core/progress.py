"""Progress and cancellation: one idiom for every long computation.

A long computation takes a ``progress_callback``: a plain callable that
receives the fraction done, from 0 to 1, and may raise (:class:`Interrupted`,
say) to stop the work.  A step of a larger computation reports into its
share of the caller's range through :func:`wrap_callback` (as Orange's
``Orange.util.wrap_callback``), and work cut into pieces for reporting
uses :func:`step_bounds`, which never makes an empty piece.
"""
import numpy as np

#: how many times a computation reports, at most, when asked to
STEPS = 20


class Interrupted(Exception):
    """Raised by a progress callback (or a `should_stop` poll) to stop a
    computation; the computation returns nothing."""


def report(progress_callback, fraction):
    """Call `progress_callback` with `fraction` (at most 1), if there is
    one."""
    if progress_callback is not None:
        progress_callback(min(1.0, fraction))


def wrap_callback(progress_callback, start=0.0, end=1.0):
    """A callback that maps a step's fraction into [start, end] of
    `progress_callback` (None stays None)."""
    if progress_callback is None:
        return None

    def wrapped(fraction):
        progress_callback(start + (end - start) * fraction)
    return wrapped


def step_bounds(total, progress_callback, steps=STEPS):
    """Bounds 0 = b_0 < b_1 < ... < b_s = total of the pieces in which
    `total` units of work report: one piece without a callback, else
    ``min(steps, total)``, none of them empty."""
    if total < 1:
        return np.zeros(1, np.int64)
    pieces = 1 if progress_callback is None else min(steps, total)
    return np.linspace(0, total, pieces + 1).astype(np.int64)


def duration(seconds):
    """`seconds` in words a person reads at a glance: "40 s", "3 min",
    "1 h 20 min"."""
    seconds = max(0.0, float(seconds))
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"
