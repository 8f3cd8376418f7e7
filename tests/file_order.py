"""The order in which the workers take the test files.

With ``--dist loadfile`` each worker takes a whole file, the next one in
the queue when it is nearly done with its own, so the run ends when the
last file taken ends.  pytest-xdist would queue the files by their number
of tests, most first (its "loadscope reorder"); a file of a few tests that
each start a process and wait on it came last, and one worker ran it alone
at the end while the other had nothing left.  pyproject.toml turns that
order off (``--no-loadscope-reorder``) and :func:`queue` gives its own:
the files of :data:`LONG_FILES` first, then the others by their number of
tests, most first, so that the run ends on short files.  A name of
:data:`LONG_FILES` that names no file (a file renamed or removed) stops
the run at its start, rather than leaving that file to the order of its
number of tests.
"""
from collections import Counter
from pathlib import Path

import pytest

#: files whose few tests take far longer than their number tells (each
#: starts Python processes, compiles in caches of its own, cross-validates,
#: creates widgets by the hundred or weighs tables of 20,000 columns, and
#: waits on them), longest first (seconds with pytest -n 0 on a loaded
#: 2-core machine: 185, 155, 147, 133, 89, 73, 70, 56, 35); queued by its
#: six tests, the wide tables' file came last, one worker alone on it
LONG_FILES = ("tests/core/test_compiled_cache.py", "tests/cli/test_signals.py",
              "tests/core/test_kernel_cache.py", "tests/orange/test_curve.py",
              "tests/widgets/test_owselectioncurve.py",
              "tests/experiments/test_subset_selection.py",
              "tests/widgets/test_stored_settings.py",
              "tests/core/test_warmup.py",
              "tests/widgets/test_owrelief_wide.py")


def check_long_files(root):
    """Raise pytest.UsageError naming the files of :data:`LONG_FILES`
    that are not under the folder `root`."""
    missing = [name for name in LONG_FILES
               if not (Path(root) / name).is_file()]
    if missing:
        raise pytest.UsageError(
            "tests/file_order.py: LONG_FILES names files that do not exist: "
            + ", ".join(missing))


def file_of(item):
    return item.nodeid.split("::", 1)[0]


def queue(items):
    """Sort `items` (pytest's collected tests) in place, file by file, into
    the order of the module's docstring; a file's tests keep their
    order."""
    counts = Counter(map(file_of, items))

    def place(item):
        path = file_of(item)
        if path in LONG_FILES:
            return 0, LONG_FILES.index(path)
        return 1, -counts[path]
    items.sort(key=place)
