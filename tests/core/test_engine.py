"""Which engine runs a call, the interface both implement, and the
preparation of the compiled one in the background."""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.engines import cache, interface, preparation

SMALL, LARGE = np.zeros((100, 5)), np.zeros((5000, 50))


@pytest.fixture
def auto(monkeypatch, tmp_path):
    """The automatic choice, with a kernel folder of its own (not ready)
    and the background starts recorded instead of made."""
    monkeypatch.delenv(engines.VARIABLE, raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(preparation.BACKGROUND, "1")
    monkeypatch.setattr(preparation, "_started", False)
    started = []
    monkeypatch.setattr(preparation, "spawn",
                        lambda command, log: started.append(command))
    return started


def test_the_choice_follows_the_work_and_the_preparation(auto):
    # small work never waits for the compiled engine
    assert engines.choose_for(SMALL) == engines.VECTORISED
    assert engines.choose_for(LARGE, 10) == engines.VECTORISED  # sampled
    # references are drawn with replacement: more of them than instances
    assert engines.work_of(np.zeros((300, 13)), 10 ** 6) > engines.SMALL_WORK
    assert auto == []
    # large work is answered at once, and the preparation starts, once
    assert engines.waits_for_preparation(LARGE)
    assert engines.choose_for(LARGE) == engines.VECTORISED
    assert engines.choose_for(LARGE) == engines.VECTORISED
    assert auto == [[sys.executable, "-m", preparation.WARMUP_MODULE,
                     "--background"]]
    assert "being prepared in the background" in engines.status(LARGE)
    assert engines.status(SMALL) is None
    # prepared: large work goes to the compiled engine
    preparation.mark_ready("test")
    assert preparation.is_ready()
    assert engines.choose_for(LARGE) == engines.COMPILED
    assert not engines.waits_for_preparation(LARGE)
    assert engines.status(LARGE) == "Compiled engine (numba), prepared."


@pytest.mark.parametrize("engine", engines.ENGINES)
def test_a_forced_engine_is_taken_and_starts_nothing(auto, engine):
    with engines.forced(engine):
        assert engines.choose_for(LARGE) == engine
        assert engines.choose_for(SMALL) == engine
        assert not engines.waits_for_preparation(LARGE)
    assert auto == []


@pytest.mark.parametrize("setting", ["0", "off", "false"])
def test_the_background_preparation_can_be_switched_off(auto, monkeypatch,
                                                        setting):
    monkeypatch.setenv(preparation.BACKGROUND, setting)
    assert engines.choose_for(LARGE) == engines.VECTORISED
    assert auto == []
    assert "orange-relief prepare" in engines.status(LARGE)


def test_no_background_start_while_another_preparation_runs(auto):
    with preparation.preparation_lock(wait=False) as held:
        assert held
        assert preparation.is_running()
        assert not preparation.start_in_background()
    assert auto == []
    assert not preparation.is_running()


def test_one_preparation_at_a_time(auto):
    with preparation.preparation_lock(wait=False) as first:
        code = ("from orangecontrib.relief.core.engines import preparation\n"
                "with preparation.preparation_lock(wait=False) as held:\n"
                "    print(held)")
        other = subprocess.run([sys.executable, "-c", code],
                               capture_output=True, text=True, check=True)
    assert first and other.stdout.strip() == "False"


@pytest.mark.skipif(not os.path.exists(preparation.AUTOGROUP),
                    reason="Linux's session scheduling groups only")
def test_the_background_preparation_yields_the_processor():
    # started as spawn() starts it, in a session of its own: the session's
    # scheduling group, not only the process, must have the lowest
    # priority, or it takes a whole core from the computation beside it
    code = ("import os\n"
            "from orangecontrib.relief.core.engines import preparation\n"
            "preparation.lower_priority()\n"
            "print(os.sched_getscheduler(0) == os.SCHED_IDLE)\n"
            "print(open(preparation.AUTOGROUP).read().split()[-1])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True, start_new_session=True)
    assert out.stdout.split() == ["True", "19"]


def test_the_kernel_folder_is_keyed_on_every_source_of_the_core(tmp_path):
    core = tmp_path / "core"
    (core / "formulas").mkdir(parents=True)
    formula = core / "formulas" / "neighbourhoods.py"
    formula.write_text("def thresholds(mean, sigma):\n    return mean\n")
    before = cache.source_digest(core)
    formula.write_text("def thresholds(mean, sigma):\n    return sigma\n")
    cache.source_digest.cache_clear()
    assert cache.source_digest(core) != before
    cache.source_digest.cache_clear()


def test_unused_kernel_folders_of_other_sources_are_removed(tmp_path):
    old, recent = tmp_path / "old", tmp_path / "recent"
    for folder, age in ((old, 40), (recent, 1)):
        folder.mkdir()
        (folder / cache.USED).touch()
        stamp = folder.stat().st_mtime - age * 86400
        os.utime(folder / cache.USED, (stamp, stamp))
    (tmp_path / "current").mkdir()
    cache.remove_unused(tmp_path, keep="current")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current", "recent"]


def test_both_engines_implement_the_declared_interface():
    """Every function of :class:`Engine`, with its parameters, in each
    engine, and nothing else exported."""
    compiled = engines.kernels(engines.COMPILED)
    vectorised = engines.kernels(engines.VECTORISED)
    for module in (compiled, vectorised):
        assert isinstance(module, interface.Engine)
        assert sorted(module.__all__) == sorted(interface.NAMES)
        for name in interface.NAMES:
            declared = list(inspect.signature(
                getattr(interface.Engine, name)).parameters)[1:]
            function = getattr(module, name)
            function = getattr(function, "py_func", function)
            assert list(inspect.signature(function).parameters) == declared, (
                module.__name__, name)
