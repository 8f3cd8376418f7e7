"""A stand-in for the compiled engine's preparation in the tests: a
worker that reports as the real one (core/warmup.py) does without numba,
so that a preparation takes seconds; the fixtures that point the
preparation at it, and helpers to follow its processes."""
import json
import os
import subprocess
import sys
import time

import psutil
import pytest

from orangecontrib.relief.core.engines import cache, keeper, preparation
from tests.waiting import HANG_GUARD_S

#: a worker that prepares part NAME as the real one reports it: the
#: kernels it compiles, its processor seconds; a cache file of the part
#: written; the nice value it ran at noted in nice.log.  FAKE_SECONDS is
#: how long a part takes; FAKE_STARVED makes it report no processor time
#: at nice 19 (a machine busy beside it)
FAKE_WORKER = r"""
import json, os, sys, time
os.getcwd()  # as numba does: fails in a folder that no longer exists
args = sys.argv[1:]
name = args[0]
nice = int(args[args.index("--nice") + 1]) if "--nice" in args else None
folder = os.environ["FAKE_FOLDER"]
with open(os.path.join(os.environ["FAKE_LOG"], "nice.log"), "a") as log:
    log.write(f"{name}:{nice}\n")
starved = nice == 19 and os.environ.get("FAKE_STARVED") == "1"
seconds = float(os.environ.get("FAKE_SECONDS", "0.3"))
start = time.monotonic()
print(json.dumps({"kernel": f"kernel of {name}", "cpu": 0.0}), flush=True)
while time.monotonic() - start < seconds or starved:
    cpu = 0.0 if starved else time.monotonic() - start
    print(json.dumps({"kernel": f"kernel of {name}", "cpu": cpu}), flush=True)
    time.sleep(0.05)
with open(os.path.join(folder, name.replace(" ", "_") + ".1.nbc"), "wb") as f:
    f.write(name.encode() * 10)
print(json.dumps({"cpu": seconds}), flush=True)
"""
#: small budgets (processor seconds) of three parts
PARTS = [["first", 1.0], ["second", 2.0], ["third", 1.0]]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A kernel folder of its own (NUMBA_CACHE_DIR in tmp_path)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(preparation, "_started", False)
    preparation._checked.clear()
    return cache.ensure_kernel_folder()


@pytest.fixture
def fake(tmp_path, folder, monkeypatch):
    """The stand-in worker's command and environment."""
    script = tmp_path / "worker.py"
    script.write_text(FAKE_WORKER)
    env = dict(os.environ, FAKE_FOLDER=str(folder), FAKE_LOG=str(tmp_path))
    monkeypatch.setattr(preparation, "worker_command",
                        lambda: [sys.executable, str(script)])
    monkeypatch.setattr(preparation, "worker_environment", lambda: env)
    monkeypatch.setattr(preparation, "PARTS", PARTS)
    monkeypatch.setattr(keeper, "DEADLINE", DEADLINE)
    return [sys.executable, str(script)], env


def nice_log(tmp_path):
    """The parts the stand-in workers ran, with their nice values."""
    path = tmp_path / "nice.log"
    return path.read_text().split("\n")[:-1] if path.exists() else []


def wait_for(condition, seconds=HANG_GUARD_S):
    """Wait until `condition()` (`seconds` a guard against hangs, not a
    timing, unless a test gives a time it holds to)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


#: how long a preparation may take to end once asked to or once its folder
#: is gone: far less than its work, on a busy machine too
END_S = 30.0
#: the deadline of the stand-in background preparations: on a busy
#: machine their worker at nice 19 would never start, but that they raise
#: their priority (the machine running the tests is often busy)
DEADLINE = 6.0


def start_keeper(folder, fake, parts=PARTS):
    """The background preparation (keeper.main) of `folder` with the
    stand-in worker, as preparation.spawn starts it; its process id
    (it detaches: the process started returns at once)."""
    command, env = fake
    settings = json.dumps({"folder": str(folder), "parts": parts,
                           "worker": command, "deadline": DEADLINE})
    subprocess.run([sys.executable, "-I", "-S", keeper.__file__, settings],
                   env=env, check=True)
    wait_for(lambda: keeper.read_state(folder).get("part"))
    return keeper.read_state(folder)["pid"]


def processes_of(pid):
    """The process `pid` and its descendants that run."""
    try:
        process = psutil.Process(pid)
        found = [process, *process.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []
    return [p for p in found if p.is_running()
            and p.status() != psutil.STATUS_ZOMBIE]


def all_gone(processes):
    return not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE
                   for p in processes)


@pytest.fixture
def slow(fake):
    """The stand-in worker taking 60 s a part."""
    fake[1]["FAKE_SECONDS"] = "60"
    return fake


