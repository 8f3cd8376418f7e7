"""Which engine runs a call, and the interface both implement (the
preparation of the compiled one: tests/core/test_preparation.py)."""
import inspect
import os

import numpy as np
import pytest

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.engines import (cache, interface, keeper,
                                               preparation)
from orangecontrib.relief.core.errors import ReliefInputError

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
                        lambda folder, first=(): started.append(first))
    return started


def test_the_choice_follows_the_work_and_the_preparation(auto, monkeypatch):
    # small work never waits for the compiled engine
    assert engines.choose_for(SMALL) == engines.VECTORISED
    assert engines.choose_for(LARGE, 10) == engines.VECTORISED  # sampled
    # references are drawn with replacement: more of them than instances
    assert engines.work_of(np.zeros((300, 13)), 10 ** 6) > engines.SMALL_WORK
    assert auto == []
    # large work is answered at once, and the preparation starts, once,
    # the call's part first
    parts = (preparation.SURF,)
    assert engines.waits_for_preparation(LARGE, parts=parts)
    assert engines.choose_for(LARGE, parts=parts) == engines.VECTORISED
    assert engines.choose_for(LARGE) == engines.VECTORISED
    assert auto == [parts]
    assert "being prepared in the background" in engines.status(LARGE)
    assert engines.status(SMALL) is None
    # MultiSURF on 20000 x 50 compiles first on 2 idle processors: the
    # vectorised engine would share them with the preparation it starts
    monkeypatch.setattr(keeper, "processors", lambda: 2)
    looks = []
    monkeypatch.setattr(keeper.os, "getloadavg", lambda: looks.append(
        "load") or (0.0, 0.0, 0.0))
    assert engines.decide(20000 * 20000 * 50, parts)[1] == \
        engines.COMPILE_FIRST
    # one look at the machine's load for both engines and the compile
    assert looks == ["load"]
    # its part prepared: a call of that part goes to the compiled engine,
    # the others wait for theirs
    # (all its pieces: several workers prepare it side by side)
    pieces = [name for name, (part, _, _) in preparation.shares().items()
              if part in parts]
    assert len(pieces) > 1
    keeper.write_state(cache.kernel_folder(), {"done": pieces[1:]})
    assert engines.choose_for(LARGE, parts=parts) == engines.VECTORISED
    keeper.write_state(cache.kernel_folder(), {"done": pieces})
    assert engines.choose_for(LARGE, parts=parts) == engines.COMPILED
    assert engines.choose_for(LARGE, parts=(preparation.RELIEFF,)) == \
        engines.VECTORISED
    assert engines.choose_for(LARGE) == engines.VECTORISED
    # prepared: large work goes to the compiled engine
    keeper.mark_ready(cache.kernel_folder(), "test")
    assert preparation.is_ready()
    assert engines.choose_for(LARGE) == engines.COMPILED
    assert not engines.waits_for_preparation(LARGE)
    assert engines.status(LARGE) == "Compiled engine (numba), prepared."


def test_small_calls_take_the_compiled_engine_once_loading_it_pays(
        auto, monkeypatch):
    monkeypatch.setattr(engines, "_loaded", set())
    monkeypatch.setattr(engines, "_small_seconds", {})
    same, other = (preparation.RELIEFF,), (preparation.SURF,)
    assert preparation.RELIEFF in engines.SAME_BITS
    assert preparation.SURF not in engines.SAME_BITS
    # not prepared: small calls stay on the vectorised engine, however many
    for _ in range(3):
        engines.choose_for(SMALL, parts=same)
    engines._small_seconds[preparation.RELIEFF] = engines.LOAD_SECONDS
    assert engines.choose_for(SMALL, parts=same) == engines.VECTORISED
    keeper.mark_ready(cache.ensure_kernel_folder(), "test")
    # prepared: the vectorised engine until the small calls took as long
    # as loading the compiled one would, then the compiled one
    engines._small_seconds.clear()
    assert engines.choose_for(SMALL, parts=same) == engines.VECTORISED
    assert 0 < engines._small_seconds[preparation.RELIEFF] \
        < engines.LOAD_SECONDS
    engines._small_seconds[preparation.RELIEFF] = engines.LOAD_SECONDS
    assert engines.choose_for(SMALL, parts=same) == engines.COMPILED
    assert engines.status(SMALL, parts=same) is None
    # a part whose engines agree to rounding only never switches
    engines._small_seconds[preparation.SURF] = engines.LOAD_SECONDS
    assert engines.choose_for(SMALL, parts=other) == engines.VECTORISED
    assert engines.choose_for(SMALL) == engines.VECTORISED  # unknown parts
    # kernels loaded by a larger call: small calls of the part follow
    engines._small_seconds.clear()
    engines._loaded.clear()
    assert engines.choose_for(LARGE, parts=same) == engines.COMPILED
    assert engines.choose_for(SMALL, parts=same) == engines.COMPILED
    assert auto == []


def test_a_recording_notes_each_choice_and_the_engine_calls_settle_on(
        auto, monkeypatch):
    monkeypatch.setattr(engines, "_loaded", set())
    monkeypatch.setattr(engines, "_small_seconds", {})
    same, other = (preparation.RELIEFF,), (preparation.SURF,)
    Choice = engines.Choice
    with engines.recording() as unprepared:
        engines.choose_for(SMALL, parts=same)
    engines.choose_for(SMALL, parts=same)  # outside: not noted
    assert unprepared == [Choice(engines.VECTORISED, engines.SMALL,
                                 engines.VECTORISED)]
    keeper.mark_ready(cache.ensure_kernel_folder(), "test")
    with engines.recording() as prepared:
        engines.choose_for(SMALL, parts=same)
        engines._small_seconds[preparation.RELIEFF] = engines.LOAD_SECONDS
        engines.choose_for(SMALL, parts=same)
        engines.choose_for(SMALL, parts=other)
        engines.choose_for(LARGE, parts=other)
    # a small call of ReliefF settles on the compiled engine once loading
    # it pays; SURF's never leave the vectorised one
    assert prepared == [
        Choice(engines.VECTORISED, engines.SMALL, engines.COMPILED),
        Choice(engines.COMPILED, engines.LOADED, engines.COMPILED),
        Choice(engines.VECTORISED, engines.SMALL, engines.VECTORISED),
        Choice(engines.COMPILED, engines.PREPARED, engines.COMPILED)]


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


@pytest.mark.parametrize("value", ["vectorized", "COMPILED", "fast"])
def test_an_unknown_engine_setting_is_refused_by_name(auto, monkeypatch,
                                                      value):
    monkeypatch.setenv(engines.VARIABLE, value)
    for call in (lambda: engines.choose_for(LARGE),
                 lambda: engines.choose_for(SMALL),
                 lambda: engines.status(LARGE)):
        with pytest.raises(ReliefInputError, match=f"{value!r}.*vectorised"):
            call()
    monkeypatch.setenv(engines.VARIABLE, "")  # empty: the default
    assert engines.choose_for(SMALL) == engines.VECTORISED


def test_the_experiments_keep_a_forced_engine(auto, monkeypatch):
    monkeypatch.setenv(engines.VARIABLE, engines.VECTORISED)
    with engines.preferring_compiled():
        assert engines.setting() == engines.VECTORISED
    monkeypatch.delenv(engines.VARIABLE)
    with engines.preferring_compiled():
        assert engines.setting() == engines.PREFER_COMPILED
    assert engines.setting() == engines.AUTO


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
