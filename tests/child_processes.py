"""No process that a test file starts outlives the file: a pool's workers,
a cluster's or a command's left running take processors and memory from
every later test for the rest of the run."""
import multiprocessing.resource_tracker

import psutil
import pytest

#: how long a test file's processes may take to end once the file is done
#: (a pool or cluster shutting down): a guard, not a timing
ENDING_S = 60.0


def running_children():
    """This process's descendants that run (not the zombies of ended
    ones), but multiprocessing's resource tracker: one per interpreter,
    started by its first process pool and ending with the interpreter."""
    tracker = multiprocessing.resource_tracker._resource_tracker._pid
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.pid != tracker and child.status() != psutil.STATUS_ZOMBIE:
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


@pytest.fixture(autouse=True, scope="module")
def processes_end_with_their_file():
    """Every process that a test file starts (a pool's workers, a
    cluster's, a command's) has ended when the file's tests are done: one
    left behind runs on, taking processors and memory from every later
    test, for the rest of the run."""
    before = {child.pid for child in running_children()}
    yield
    started = [child for child in running_children()
               if child.pid not in before]
    _, alive = psutil.wait_procs(started, timeout=ENDING_S)
    described = []
    for child in alive:  # named, then ended: the later files run alone
        try:
            described.append(" ".join(child.cmdline())[:200])
            child.kill()
        except psutil.NoSuchProcess:
            pass
    assert not described, ("processes the file started still run:\n"
                           + "\n".join(described))
