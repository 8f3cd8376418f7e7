"""Shared pytest setup: Qt runs without a screen (before any Qt import); no
call of the tests starts the compiled engine's background preparation, and
the command line shows no progress bar, whose lines depend on the
machine's speed (a test that wants either asks for it); every wait guards
against a hang only (tests/waiting.py); the fixtures of a stand-in
preparation (tests/stand_in_preparation.py); no process that a test file
starts outlives the file; the workers take the files longest first
(tests/file_order.py); what the collection made is kept out of the
collector's sight."""
import gc
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ORANGE_RELIEF_BACKGROUND"] = "0"
os.environ["ORANGE_RELIEF_PROGRESS"] = "0"

# the stand-in preparation's fixtures, for the engines' and the command's
# tests of the preparation
from tests.stand_in_preparation import fake, folder, slow  # noqa: E402,F401
from tests.child_processes import processes_end_with_their_file  # noqa: E402,F401


def pytest_configure(config):
    """No test's outcome depends on the machine's speed (tests/waiting.py);
    the long files that the workers take first exist
    (tests/file_order.py)."""
    from tests import file_order, waiting

    waiting.widget_waits_guard_hangs_only()
    waiting.property_tests_have_no_deadline()
    file_order.check_long_files(config.rootpath)


def pytest_collection_modifyitems(items):
    """The files in the order the workers take them (tests/file_order.py)."""
    from tests import file_order

    file_order.queue(items)


def pytest_collection_finish(session):
    """The modules, tests and fixtures that the collection made live to
    the session's end: frozen, the collections that the tests' garbage
    starts never traverse them again."""
    gc.collect()
    gc.freeze()
