"""A kernel cache that cannot be read or written never stops a
computation (core/engines/compiled/locator.py): a truncated or garbled
file is compiled again, with one warning; a full disk leaves the kernel
compiled in the process, with one warning and no index naming a missing
file; a process killed while it compiles (kill -9) leaves nothing that a
later one cannot read, and one stopped while it writes a kernel (SIGTERM)
stops once the kernel's files are whole.

Each case runs numba for real on one small kernel (the SURF family's
limits, a second of compiling) in a fresh process with a cache folder of
its own.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

#: the kernel's result on a small distance row, and the warnings, as JSON
PROGRAM = """
import json, sys, warnings
import numpy as np
if "full" in sys.argv:  # every write of a data file fails: a full disk
    import errno
    from numba.core import caching
    def full(self, name, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    caching.IndexDataCacheFile._save_data = full
if "alone" in sys.argv:  # as a worker of the preparation
    from orangecontrib.relief.core.engines.compiled.locator import (
        compile_alone)
    compile_alone()
if "stopped" in sys.argv:  # SIGTERM arrives as the kernel is written
    import os, signal
    from numba.core import caching
    from orangecontrib.relief.core import termination
    termination.install()
    write = caching.IndexDataCacheFile._save_data
    def stopped(self, name, data):
        os.kill(os.getpid(), signal.SIGTERM)
        write(self, name, data)
    caching.IndexDataCacheFile._save_data = stopped
if "held" in sys.argv:  # another process writes: wait a moment only
    from functools import partial
    from orangecontrib.relief.core.engines import keeper
    keeper.saving = partial(keeper.saving, wait=0.2)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from orangecontrib.relief.core.engines import cache
    from orangecontrib.relief.core.engines.compiled.rules import surf
    dist = np.array([0.0, 1.0, 2.0, 4.0, 8.0])
    limits = list(surf.limits(dist, 0, True, 0.0, 0, 0.5, 1.0)[:2])
print(json.dumps({"limits": limits, "failures": cache.write_failures,
                  "warnings": [f"{w.category.__name__}: {w.message}"
                               for w in caught]}))
"""
EXPECTED = [2.409524338154549, 5.090475661845451]


def run(cache_dir, *args):
    """PROGRAM's answer in a fresh process caching in `cache_dir`."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    done = subprocess.run([sys.executable, "-c", PROGRAM, *args], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def kernel_files(cache_dir):
    """The index and data file of the kernel `limits`."""
    folder, = (cache_dir / "orange3-relief").iterdir()
    rules = folder / "engines.compiled.rules"
    return (next(rules.glob("surf.limits-*.nbi")),
            next(rules.glob("surf.limits-*.1.nbc")))


def cache_warnings(answer):
    return [w for w in answer["warnings"] if w.startswith("CacheWarning")]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """A cache folder that a first process wrote the kernel into, without
    a word, compiling alone as a worker of the preparation does, which
    leaves no lock of a compile behind (each test of damage takes a
    copy)."""
    folder = tmp_path_factory.mktemp("compiled")
    first = run(folder, "alone")
    assert first["limits"] == EXPECTED and not cache_warnings(first)
    kernels, = (folder / "orange3-relief").iterdir()
    assert list((kernels / "compiling").iterdir()) == []
    return folder


#: the damage after which a third process loads the rewritten kernel: a
#: damaged file is removed and written afresh by one path whatever its
#: damage (locator.load_file), so one damage suffices
RELOADED = "truncated data"


@pytest.mark.parametrize("damage", ["truncated data", "garbled index",
                                    "empty index"])
def test_a_damaged_file_is_compiled_again(compiled, tmp_path, damage):
    shutil.copytree(compiled, tmp_path, dirs_exist_ok=True)
    index, data = kernel_files(tmp_path)
    good = index.read_bytes(), data.read_bytes()
    if damage == "truncated data":
        data.write_bytes(good[1][:len(good[1]) // 2])
    elif damage == "garbled index":  # "unsupported pickle protocol: 103"
        index.write_bytes(b"\x80\x67" + good[0][2:])
    else:
        index.write_bytes(b"")
    second = run(tmp_path)
    assert second["limits"] == EXPECTED
    warned, = cache_warnings(second)
    assert "cannot be read" in warned and "compiled again" in warned
    # written afresh: the next process loads it without a word
    assert all(path.exists() for path in kernel_files(tmp_path))
    if damage == RELOADED:
        third = run(tmp_path)
        assert third["limits"] == EXPECTED and not cache_warnings(third)


def test_a_full_disk_never_stops_the_computation(tmp_path):
    answer = run(tmp_path, "full")
    assert answer["limits"] == EXPECTED
    assert answer["failures"] and "No space left" in answer["failures"][0]
    warned = cache_warnings(answer)
    assert len(set(warned)) == 1 and "No space left on device" in warned[0]
    # no index left naming a data file that was never written
    folder, = (tmp_path / "orange3-relief").iterdir()
    rules = folder / "engines.compiled.rules"
    assert not list(rules.glob("surf.limits-*"))
    # with room again, the kernel is cached as usual
    assert not cache_warnings(run(tmp_path))
    assert all(path.exists() for path in kernel_files(tmp_path))


def test_a_cache_folder_that_cannot_be_written_is_bypassed(tmp_path):
    base = tmp_path / "a file"  # no folder can be made in it, even by root
    base.write_text("")
    answer = run(base)
    assert answer["limits"] == EXPECTED
    warned, = set(cache_warnings(answer))
    assert str(base) in warned and "NUMBA_CACHE_DIR" in warned


def test_killing_a_compiling_process_corrupts_nothing(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    for delay in (0.5, 1.5, 3.0):  # from its imports to its compile
        process = subprocess.Popen([sys.executable, "-c", PROGRAM], env=env,
                                   stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
    answer = run(tmp_path)
    assert answer["limits"] == EXPECTED and not cache_warnings(answer)


def test_a_signal_during_a_write_waits_for_the_whole_file(tmp_path):
    # the CLI's SIGTERM handler must not cut a kernel's file in half: the
    # stop takes effect once the file and its index are written
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", PROGRAM, "stopped"],
                          env=env, capture_output=True, text=True)
    assert done.returncode != 0 and "Stopped" in done.stderr
    # the first kernel written (a callee's) is there with its data
    indexes = list((tmp_path / "orange3-relief").rglob("*.nbi"))
    assert indexes and all(list(index.parent.glob(f"{index.stem}.*.nbc"))
                           for index in indexes)


def test_a_kernel_is_written_only_in_its_turn(tmp_path, monkeypatch):
    # numba numbers a kernel's new version by what its index holds: a
    # process that wrote while another does could take the other's number
    from orangecontrib.relief.core.engines import cache, keeper

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    other = keeper.Lock(cache.ensure_kernel_folder(), keeper.SAVING)
    assert other.acquire()
    answer = run(tmp_path, "held")
    assert answer["limits"] == EXPECTED
    warned, = set(cache_warnings(answer))
    assert "held the lock of writers" in warned
    rules = cache.kernel_folder() / "engines.compiled.rules"
    assert not list(rules.glob("surf.limits-*"))
    other.release()
    assert not cache_warnings(run(tmp_path))
    assert all(path.exists() for path in kernel_files(tmp_path))
