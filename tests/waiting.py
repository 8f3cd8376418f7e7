"""How long a test waits for anything before calling it hung.

Every wait of the tests guards against a hang and never claims anything
about speed, so that no test fails because the machine is slow: widgets
(Orange's own waits, 5 s by default, are raised to the guard), commands
run in a subprocess, property tests (no deadline per example).
"""
import functools

#: a wait longer than any computation of the tests on a slow machine
HANG_GUARD_S = 20 * 60
HANG_GUARD_MS = HANG_GUARD_S * 1000


def at_least_the_guard(wait, timeout_at):
    """`wait` with its timeout argument (positional at `timeout_at` or by
    keyword, in milliseconds) raised to HANG_GUARD_MS; a negative one (do
    not wait) is kept."""
    name = wait.__code__.co_varnames[timeout_at]
    default = wait.__defaults__[-1]

    @functools.wraps(wait)
    def waiting(*args, **kwargs):
        args = list(args)
        given = len(args) > timeout_at
        timeout = args[timeout_at] if given else kwargs.get(name, default)
        if timeout >= 0:
            timeout = max(timeout, HANG_GUARD_MS)
        if given:
            args[timeout_at] = timeout
        else:
            kwargs[name] = timeout
        return wait(*args, **kwargs)
    return waiting


def widget_waits_guard_hangs_only():
    """Raise every wait of Orange's widget tests to the guard."""
    from orangewidget.tests import base

    manager = base.DummySignalManager
    for wait in ("wait_for_finished", "wait_for_outputs"):
        setattr(manager, wait, at_least_the_guard(getattr(manager, wait), 2))
    manager.get_output = at_least_the_guard(manager.get_output, 3)
    for wait in ("wait_until_stop_blocking", "process_events"):
        setattr(base.WidgetTest, wait,
                at_least_the_guard(getattr(base.WidgetTest, wait), 2))


def property_tests_have_no_deadline():
    """Hypothesis's examples run as long as they need, and are the same
    on every run (a failure in CI is the failure a developer reruns)."""
    from hypothesis import settings

    settings.register_profile("no deadline", deadline=None, derandomize=True)
    settings.load_profile("no deadline")
