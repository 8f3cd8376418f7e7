"""The preparation of the compiled engine (core/engines/preparation.py,
keeper.py): one at a time per kernel folder, honest about its progress
from the start, raising its priority when a busy machine starves it,
handing its work over to ``orange-relief prepare``, ending when its
folder is deleted, leaving no child and no warning in the process that
started it; a damaged prepared folder detected before use.

The parts here are a stand-in worker's (tests/stand_in_preparation.py:
it reports as the real one does, without numba), so that every test
takes seconds; tests/core/test_kernel_cache.py runs numba's own cache.
"""
import gc
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings

import numpy as np
import psutil
import pytest

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.engines import cache, costs, keeper, preparation
from tests.stand_in_preparation import (DEADLINE, END_S, PARTS, all_gone,
                                        nice_log, processes_of, start_keeper,
                                        wait_for)

def test_the_parts_run_in_turn_with_estimates_from_their_budgets(
        folder, fake, monkeypatch):
    command, env = fake
    # an idle machine: the one worker's first estimate takes a whole
    # processor (keeper.fair_share), whatever else runs beside the test
    monkeypatch.setattr(keeper.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    lock = keeper.Lock(folder)
    assert lock.acquire()
    states = []
    keeper.Run(folder, lock, PARTS, command, env, "foreground",
               on_status=states.append).run()
    lock.release()
    # from the first report: the part named, the time left from the
    # budgets (4 processor seconds), not from the time elapsed
    first = states[0]
    assert first["part"] == "first" and first["index"] == 0
    assert first["count"] == 3 and first["fraction"] < 0.1
    assert 3.0 < first["left"] < 6.0
    assert [s["part"] for s in states if s["part"]] == sorted(
        [s["part"] for s in states if s["part"]],
        key=["first", "second", "third"].index)
    fractions = [s["fraction"] for s in states]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert states[-1]["outcome"] == "ready"
    # the mark lists every cache file, as written
    mark = json.loads((folder / keeper.READY).read_text())
    assert sorted(mark["files"]) == ["first.1.nbc", "second.1.nbc",
                                     "third.1.nbc"]
    assert keeper.damaged_files(folder) == []
    assert keeper.read_state(folder)["done"] == ["first", "second", "third"]


def test_a_stopped_preparation_goes_on_from_the_part_it_was_in(folder, fake,
                                                              tmp_path):
    command, env = fake
    keeper.write_state(folder, {"done": ["first"]})
    lock = keeper.Lock(folder)
    assert lock.acquire()
    keeper.Run(folder, lock, PARTS, command, env, "foreground").run()
    lock.release()
    assert [line.split(":")[0] for line in nice_log(tmp_path)] == [
        "second", "third"]


def test_a_starved_background_preparation_raises_its_priority(
        folder, fake, tmp_path, monkeypatch):
    # beside busy processes the worker at nice 19 gets no processor time;
    # the preparation, behind its deadline, raises the priority a step at
    # a time (a new worker at the next nice value) until it is served
    command, env = fake
    env["FAKE_STARVED"] = "1"
    monkeypatch.setattr(keeper, "set_group_nice", lambda nice: None)
    lock = keeper.Lock(folder)
    assert lock.acquire()
    run = keeper.Run(folder, lock, PARTS, command, env, "background",
                     deadline=12.0)
    run.run()
    lock.release()
    log = nice_log(tmp_path)
    assert log[:2] == ["first:19", "first:10"]
    assert all(not line.endswith(":19") for line in log[1:])
    assert keeper.read_state(folder)["outcome"] == "ready"


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def served_at(folder, clock, rate, samples):
    """A background run (deadline 24 s) whose workers got `rate` of a
    processor over `samples` tenths of a second of `clock`."""
    run = keeper.Run(folder, None, PARTS, [], {}, "background",
                     deadline=24.0, clock=clock)
    for _ in range(samples):
        clock.now += 0.1
        run.cpu_samples.append((clock.now, rate * clock.now))
    return run


@pytest.mark.parametrize("rate, behind", [(1.0, False), (0.5, False),
                                          (0.05, True), (0.0, True)])
def test_the_priority_rises_only_behind_the_deadline(folder, rate, behind):
    # 4 processor seconds of budgets, a deadline of 24 s (windows of 1 s):
    # a worker served at half a core keeps up, one at a twentieth does not
    clock = Clock()
    run = served_at(folder, clock, rate, 10)
    assert not run.behind()  # not before a window has passed
    clock.now += 1.0
    run.cpu_samples.append((clock.now, rate * clock.now))
    assert run.behind() == behind
    # not while the process that started it runs (this one), for an
    # eighth of the deadline (3 s of 24) at most, and not once it ended
    run.caller = os.getpid()
    assert not run.behind()
    ended = subprocess.Popen([sys.executable, "-c", ""])
    ended.wait()
    run.caller = ended.pid
    assert run.behind() == behind
    run.caller = os.getpid()
    clock.now += 1.0
    run.cpu_samples.append((clock.now, rate * clock.now))
    assert run.behind() == behind
    # past the top nice value, a worker per processor (the running ones
    # go on), then no step
    run.level = len(keeper.NICE_LEVELS) - 1
    assert run.behind() == (behind and keeper.background_workers() > 1)
    assert run.raise_priority() is False
    assert run.workers == keeper.background_workers()
    clock.now += 1.0
    assert not run.behind()
    # a foreground run never steps
    assert not keeper.Run(folder, None, PARTS, [], {}, "foreground",
                          clock=clock).behind()


@pytest.mark.parametrize("threads, load, share", [
    (6, 0.0, 2.0), (6, 2.0, 1.5), (1, 0.0, 1.0), (2, 6.0, 0.5)])
def test_a_first_estimate_takes_the_fair_share(monkeypatch, threads, load,
                                               share):
    """Before any processor time is known, ``prepare``'s six workers on an
    idle 2-core machine are expected to get both processors (its first
    estimate said twice the time it took), beside two busy processes
    three quarters of them."""
    monkeypatch.setattr(keeper, "processors", lambda: 2)
    assert keeper.fair_share(threads, load) == pytest.approx(share)


@pytest.mark.parametrize("rate, said", [
    (0.5, "about"), (0.01, "not known yet: the machine is busy and gives "
                           "it 1% of a processor")])
def test_a_starved_preparation_gives_no_time_left(folder, rate, said):
    """At a hundredth of a processor the time left at that rate would be
    hours, though the priority is about to rise: it is not given."""
    run = served_at(folder, Clock(), rate, 20)
    run.running["first"] = None  # its worker, which reported so
    run.report()
    assert (run.state["left"] is None) == (rate < keeper.STARVED)
    assert said in preparation.how_far(run.state)


def test_one_background_preparation_per_folder(folder, slow, tmp_path):
    pid = start_keeper(folder, slow)
    processes = processes_of(pid)
    assert len(processes) >= 2  # the keeper and its workers
    assert preparation.is_running()
    # a second one finds the lock held and ends at once
    command, env = slow
    settings = json.dumps({"folder": str(folder), "parts": PARTS,
                           "worker": command, "deadline": DEADLINE})
    subprocess.run([sys.executable, keeper.__file__, settings], env=env,
                   check=True)
    time.sleep(3.0)  # it tries the lock for 2 s
    assert keeper.read_state(folder)["pid"] == pid
    # at most one worker started at the lowest priority, the first's (its
    # later ones start higher, where the priority rose)
    assert [line for line in nice_log(tmp_path)
            if line.endswith(":19")] in ([], ["first:19"])
    lock = keeper.take_over(folder)
    lock.release()
    wait_for(lambda: all_gone(processes), END_S)


def test_prepare_takes_the_work_over(folder, slow):
    pid = start_keeper(folder, slow)
    processes = processes_of(pid)
    assert "background" in preparation.status_line()
    start = time.monotonic()
    lock = keeper.take_over(folder)
    assert lock is not None and time.monotonic() - start < keeper.HANDOVER
    assert keeper.read_state(folder)["outcome"] == "handed over"
    wait_for(lambda: all_gone(processes), END_S)
    lock.release()


def test_a_deleted_folder_ends_the_background_preparation(folder, slow,
                                                         tmp_path,
                                                         monkeypatch):
    from orangecontrib.relief.core.engines.compiled.locator import (
        KernelLocator)  # declares the kernels, in the folder
    pid = start_keeper(folder, slow)
    processes = processes_of(pid)
    shutil.rmtree(tmp_path / "cache")
    wait_for(lambda: all_gone(processes), END_S)
    assert not (tmp_path / "cache").exists()
    # nor is a kernel's subfolder that a worker made as rm -rf emptied the
    # folder left behind with the folders that hold it (they are empty)
    processes = processes_of(start_keeper(cache.ensure_kernel_folder(), slow))
    shutil.rmtree(folder)
    (folder / "engines.compiled.neighbours").mkdir(parents=True)
    wait_for(lambda: all_gone(processes), END_S)
    assert list((tmp_path / "cache").iterdir()) == []
    (tmp_path / "cache").rmdir()
    # nor does a real worker started as it was deleted make it again
    worker = subprocess.run([sys.executable, "-m",
                             preparation.WARMUP_MODULE, "--part", "RFSM"],
                            stdin=subprocess.DEVNULL, capture_output=True,
                            env=dict(os.environ, **{
                                preparation.BACKGROUND: "0"}))
    assert worker.returncode == 1 and not worker.stderr
    assert not (tmp_path / "cache").exists()
    # nor does a preparation whose worker ends as the folder is deleted
    # take it for a part that failed, to start again in the folder
    kernels = cache.ensure_kernel_folder()
    lock = keeper.Lock(kernels)
    assert lock.acquire()
    deleting = [sys.executable, "-c", f"import shutil; shutil.rmtree("
                f"{str(tmp_path / 'cache')!r}); raise SystemExit(1)"]
    with pytest.raises(keeper.Outcome, match="gone"):
        keeper.Run(kernels, lock, PARTS, deleting, dict(os.environ),
                   "background").run()
    lock.release()
    assert not (tmp_path / "cache").exists()
    # nor one whose folder is deleted after its start, as it declares or
    # saves a kernel (before its watch sees the deletion): it ends
    ended = []
    monkeypatch.setattr(cache, "_gone", [lambda: ended.append(True)])
    assert cache.ensure_kernel_folder() is None and ended
    with pytest.raises(OSError):
        KernelLocator(keeper.main, keeper.__file__).ensure_cache_path()
    assert not (tmp_path / "cache").exists()
    # nor one that declares a kernel while the folder is being deleted
    # (rm -rf has removed its files, not yet the folder): it ends, and
    # writes nothing that would keep the folder from being removed
    folder.mkdir(parents=True)
    ended.clear()
    assert cache.ensure_kernel_folder() is None and ended
    assert list(folder.iterdir()) == []


def test_the_environment_is_not_on_the_command_line(folder, monkeypatch):
    # anyone may read a process's command line (ps); its environment
    # (tokens, passwords) is given to it, not written there
    monkeypatch.setenv(preparation.BACKGROUND, "1")
    monkeypatch.setenv("SOME_SECRET", "hunter2")
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda argv, **options: (
        started.append((argv, options)) or subprocess.CompletedProcess(
            argv, 0)))
    monkeypatch.setattr(subprocess.CompletedProcess, "wait", lambda self: 0,
                        raising=False)
    assert preparation.start_in_background()
    (argv, options), = started
    assert "hunter2" not in " ".join(argv)
    assert options["env"]["SOME_SECRET"] == "hunter2"
    # it is told who started it (:func:`keeper.Run`'s caller)
    assert json.loads(argv[-1])["caller"] == os.getpid()


def test_the_background_preparation_leaves_no_child_and_no_warning(
        folder, fake, monkeypatch):
    monkeypatch.setenv(preparation.BACKGROUND, "1")
    before = {child.pid for child in psutil.Process().children()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert preparation.start_in_background()
        # detached: no child of this process (other tests may have left
        # theirs, a cluster's workers)
        assert {child.pid for child in psutil.Process().children()} <= before
        gc.collect()
    assert [str(w.message) for w in caught] == []
    wait_for(lambda: preparation.is_ready())
    wait_for(lambda: not preparation.is_running())


def test_the_background_preparation_outlives_the_callers_folder(
        folder, fake, tmp_path, monkeypatch):
    # a command run in a temporary folder, deleted when it ends
    gone = tmp_path / "deleted after the call"
    gone.mkdir()
    monkeypatch.setenv(preparation.BACKGROUND, "1")
    monkeypatch.chdir(gone)
    assert preparation.start_in_background()
    monkeypatch.chdir(tmp_path)
    gone.rmdir()
    wait_for(lambda: preparation.is_ready() or str(
        keeper.read_state(folder).get("outcome")).startswith("failed"))
    assert keeper.read_state(folder)["outcome"] == "ready"


def test_the_call_that_starts_it_is_told_what_is_true(folder, fake,
                                                      monkeypatch):
    monkeypatch.setenv(preparation.BACKGROUND, "1")
    monkeypatch.delenv(engines.VARIABLE, raising=False)
    line = engines.status(np.zeros((5000, 50)))
    assert line.startswith("Vectorised engine (numpy)")
    assert "once per installation" not in line
    assert "once for this cache folder and version (" in line
    assert "`orange-relief prepare` prepares it now" in line
    wait_for(lambda: keeper.read_state(folder).get("elapsed", 0) > 0.2)
    state = keeper.read_state(folder)
    running = preparation.status_line()
    assert "being prepared in the background, once for this cache " \
        "folder and version (" in running
    if state.get("part"):  # between two parts: the budget, not the parts
        assert "(for " in running
        assert "% done, " in running
        # the stand-in worker sleeps: at its rate the time left is unknown
        assert ("about " in running and " left)" in running
                or "time left not known yet" in running)
    wait_for(lambda: preparation.is_ready())
    assert engines.status(np.zeros((5000, 50))) == (
        "Compiled engine (numba), prepared.")


def test_background_off_says_how_to_prepare(folder, monkeypatch):
    monkeypatch.setenv(preparation.BACKGROUND, "0")
    line = preparation.status_line()
    assert "ORANGE_RELIEF_BACKGROUND=0" in line
    assert "`orange-relief prepare`" in line


def test_a_cache_folder_that_cannot_be_written_is_named(folder, monkeypatch):
    monkeypatch.setattr(cache, "ensure_kernel_folder", lambda: None)
    line = preparation.status_line()
    assert str(cache.kernel_folder()) in line and "NUMBA_CACHE_DIR" in line


@pytest.mark.parametrize("damage", ["truncated", "garbled", "missing",
                                    "unreadable mark"])
def test_a_damaged_prepared_folder_is_detected_and_prepared_again(
        folder, damage):
    index, data = folder / "rules" / "rule-1.py311.nbi", folder / "x.1.nbc"
    index.parent.mkdir()
    index.write_bytes(b"index" * 100)
    data.write_bytes(b"machine code" * 100)
    keeper.mark_ready(folder, "test")
    keeper.write_state(folder, {"done": ["first"]})
    assert preparation.is_ready()
    preparation._checked.clear()  # a new process
    if damage == "truncated":
        data.write_bytes(data.read_bytes()[:50])
    elif damage == "garbled":
        index.write_bytes(b"\x80\x67" + index.read_bytes()[2:])
    elif damage == "missing":
        data.unlink()
    else:
        (folder / keeper.READY).write_text("{not json")
    with pytest.warns(preparation.CacheWarning) as caught:
        assert not preparation.is_ready()
    assert len(caught) == 1 and str(folder) in str(caught[0].message)
    assert "vectorised engine answers" in str(caught[0].message)
    # unmarked, the damaged file and the record of its parts gone: the
    # next preparation compiles it again
    assert not (folder / keeper.READY).exists()
    assert keeper.read_state(folder) == {}
    damaged = {"truncated": data, "garbled": index, "missing": data}
    assert not damaged.get(damage, folder / keeper.READY).exists()


def numba_index(versions):
    """An index file's bytes as numba writes them."""
    return pickle.dumps("0.68.1") + pickle.dumps((1.0, versions))


def test_an_index_that_numba_grew_is_not_damage(folder):
    """A call on argument types the preparation did not compile adds a
    version to the kernel's index: the next process keeps the folder."""
    index = folder / "rules" / "rule-1.py311.nbi"
    index.parent.mkdir()
    index.write_bytes(numba_index({"int64": "rule-1.py311.1.nbc"}))
    keeper.mark_ready(folder, "test")
    index.write_bytes(numba_index({"int64": "rule-1.py311.1.nbc",
                                   "int8": "rule-1.py311.2.nbc"}))
    preparation._checked.clear()  # a new process
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert preparation.is_ready()
    index.write_bytes(index.read_bytes()[:-9])  # cut short: damage
    preparation._checked.clear()
    with pytest.warns(preparation.CacheWarning, match="rule-1.py311.nbi"):
        assert not preparation.is_ready()


def test_stale_temporary_files_are_removed(folder):
    old, new = folder / "a.nbc.tmp.0123", folder / "b.nbi.tmp.4567"
    for path in (old, new):
        path.write_bytes(b"half")
    stamp = time.time() - 2 * keeper.STALE_TEMPORARY
    os.utime(old, (stamp, stamp))
    keeper.remove_stale_temporaries(folder)
    assert not old.exists() and new.exists()


@pytest.mark.skipif(not os.path.exists(keeper.AUTOGROUP),
                    reason="Linux's session scheduling groups only")
def test_the_session_of_the_background_preparation_yields_and_can_rise():
    # started in a session of its own, its scheduling group, not only the
    # process, must have the lowest priority, or it takes a whole core
    # from the computation beside it; and the group's priority can be
    # raised again (0 to 19 need no privilege)
    code = ("from orangecontrib.relief.core.engines import keeper\n"
            "def group():\n"
            "    return open(keeper.AUTOGROUP).read().split()[-1]\n"
            "keeper.set_group_nice(19)\n"
            "print(group())\n"
            "keeper.set_group_nice(0)\n"
            "print(group())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True, start_new_session=True)
    assert out.stdout.split() == ["19", "0"]


def test_the_worker_takes_its_nice_value():
    code = ("import os\n"
            "from orangecontrib.relief.core.engines import keeper\n"
            "keeper.set_nice(19)\n"
            "print(os.getpriority(os.PRIO_PROCESS, 0))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True)
    assert out.stdout.split() == ["19"]


def test_the_parts_are_the_workloads():
    from orangecontrib.relief.core import warmup

    assert [name for name, _ in preparation.PARTS] == list(warmup.CALLS)
    assert all(budget > 0 for _, budget in preparation.PARTS)
    # a worker for each piece, a part in pieces covering its kinds of data
    # once, the budgets of its pieces its own
    assert [name for name, _ in warmup.WORKLOAD] == [
        name for name, _ in preparation.pieces()]
    for part, count in preparation.SHARES.items():
        shares = [(i, n) for whole, i, n in preparation.shares().values()
                  if whole == part]
        assert shares == [(i, count) for i in range(count)]
        assert sum(seconds for name, seconds in preparation.pieces()
                   if preparation.shares()[name][0] == part) == \
            pytest.approx(dict(preparation.PARTS)[part])
    assert set(costs.COMPILE_FIRST_SECONDS) == set(warmup.CALLS)


def test_signals_handed_to_a_stopped_keeper_end_its_worker(folder, slow):
    pid = start_keeper(folder, slow)
    processes = processes_of(pid)
    os.kill(pid, signal.SIGTERM)
    wait_for(lambda: all_gone(processes), END_S)
    assert not preparation.is_running()


def test_writers_of_kernels_take_turns(folder):
    # numba numbers a kernel's new version by what its index holds: two
    # processes writing at once would take the same number
    held = keeper.Lock(folder, keeper.SAVING)
    assert held.acquire()
    with keeper.saving(folder, wait=0.2) as write:
        assert not write  # held elsewhere all that time: not written
    held.release()
    with keeper.saving(folder, wait=0.2) as write:
        assert write and not keeper.Lock(folder, keeper.SAVING).acquire()
    # a folder that cannot be written: the write goes on, to say why
    with keeper.saving(folder / "none" / "such", wait=0.2) as write:
        assert write


def test_a_removed_lock_is_held_again_in_place(folder):
    """The lock of a kernel version's compile lasts as long as the
    compile: its holder removes the file as it lets the lock go, and a
    process that waited for it holds the lock of the file that the path
    names now, which no other process then holds."""
    holder = keeper.Lock(folder, "version")
    assert holder.acquire()
    waiter = keeper.Lock(folder, "version")
    waiting = threading.Thread(target=waiter.acquire_in_place)
    waiting.start()
    wait_for(lambda: waiter.handle is not None)  # on the holder's file
    holder.remove()
    waiting.join()
    assert not waiter.gone()
    assert not keeper.Lock(folder, "version").acquire()
    waiter.remove()
    assert not (folder / "version").exists()
