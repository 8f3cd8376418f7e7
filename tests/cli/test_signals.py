"""Ctrl-C and SIGTERM end every command of ``orange-relief`` with one line
and the status a shell gives (130, 143), and leave no process of theirs,
no lock and no half-written cache file: the way a person at a terminal,
``timeout`` or a cancelled CI job stops them.

Each command runs in a process of its own, in a session of its own (as
a terminal's job), until its progress bar shows that it works; SIGTERM
goes to the command, Ctrl-C (SIGINT) to its whole process group, as a
terminal sends it.
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

from orangecontrib.relief.core.engines import keeper
from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[2]
#: how long a command may take to stop (far less than its work, on a busy
#: machine too)
STOP_S = 30.0
#: what the command prints once it works (its progress bar)
WORKING = {"rank": "weighting [", "curve": "curve [",
           "experiment": "rebate [", "prepare": "preparing ["}


def table_file(folder, n, a):
    """An Orange pickle of n random instances of a attributes and a class
    (read at once, so that the command soon works and shows its bar)."""
    from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                             Table)

    rng = np.random.default_rng(0)
    X = rng.random((n, a))
    y = (X[:, 0] + X[:, 1] > 1).astype(float)
    domain = Domain([ContinuousVariable(f"a{i}") for i in range(a)],
                    DiscreteVariable("class", values=("0", "1")))
    path = folder / f"data{n}x{a}.pkl"
    Table.from_numpy(domain, X, y).save(str(path))
    return str(path)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """The tables of the commands that read one, written once for the
    file: command -> file."""
    folder = tmp_path_factory.mktemp("tables")
    return {"rank": table_file(folder, 8000, 50),
            "curve": table_file(folder, 6000, 30)}


def command_line(command, folder, tables):
    """The arguments of a run of `command` long enough to be stopped."""
    if command == "rank":
        return ["rank", tables["rank"], "--class", "class"]
    if command == "curve":
        return ["curve", tables["curve"], "--class", "class",
                "--folds", "10", "--no-figure"]
    if command == "experiment":  # one method: its bar shows after a file
        return ["experiment", "rebate", str(ROOT / "tests" / "data" / "rebate"),
                "--method", "ReliefF k=10", "--jobs", "2", "--out",
                str(folder / "out")]
    return ["prepare"]


def descendants(process):
    try:
        return process.children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def alive(processes):
    return [p for p in processes
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT],
                         ids=["SIGTERM", "Ctrl-C"])
@pytest.mark.parametrize("command", list(WORKING))
def test_a_stopped_command_ends_cleanly(tmp_path, tables, command, signum):
    # the engine left to choose: the vectorised one, nothing prepared and
    # no preparation in the background (the tests' setting)
    env = dict(os.environ, ORANGE_RELIEF_PROGRESS="1",
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("ORANGE_RELIEF_ENGINE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "orangecontrib.relief",
         *command_line(command, tmp_path, tables)], env=env, cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    lines = []
    deadline = time.monotonic() + HANG_GUARD_S
    while not any(WORKING[command] in line for line in lines):
        assert time.monotonic() < deadline and process.poll() is None, lines
        lines.append(process.stderr.readline())
    family = [psutil.Process(process.pid), *descendants(
        psutil.Process(process.pid))]
    if signum == signal.SIGINT:  # a terminal's Ctrl-C: the whole group
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGTERM)
    # it stops, not waits for its running work (a worker's task) to end
    code = process.wait(STOP_S)
    rest = process.stderr.read()
    assert code == 128 + signum
    stopped = ("interrupted (Ctrl-C)" if signum == signal.SIGINT
               else "stopped by SIGTERM")
    # one line, after the bar's: nothing else (no traceback, no worker's)
    assert rest.strip().splitlines()[-1:] == [
        f"orange-relief {command}: {stopped}"], rest
    assert "Traceback" not in rest and rest.count(stopped) == 1
    # no process left within 5 s
    deadline = time.monotonic() + 5.0
    while alive(family) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert alive(family) == []
    if command == "prepare":  # no lock held, no half-written file
        folder, = (tmp_path / "cache" / "orange3-relief").iterdir()
        assert not keeper.is_held(folder)
        assert list(folder.rglob("*.tmp.*")) == []
