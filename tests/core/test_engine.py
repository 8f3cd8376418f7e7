"""Which engine runs a call, and whether the compiled one must compile."""
import numpy as np
import pytest

from orangecontrib.relief.core import engine


def test_small_work_goes_to_the_vectorised_engine(monkeypatch):
    monkeypatch.delenv(engine.VARIABLE, raising=False)
    assert engine.choose_for(np.zeros((100, 5))) == engine.VECTORISED
    assert engine.choose_for(np.zeros((5000, 50))) == engine.COMPILED
    # few sampled references: little work
    assert engine.choose_for(np.zeros((5000, 50)), 10) == engine.VECTORISED


@pytest.mark.parametrize("kernel", sorted(engine.KERNELS))
def test_each_kernel_reports_its_own_cache(kernel, monkeypatch, tmp_path):
    """The check answers for the kernel of the work asked for: a kernel
    not yet compiled makes that work, and only that work, compile."""
    assert isinstance(engine.compiled_is_cached(kernel), bool)
    monkeypatch.delenv(engine.VARIABLE, raising=False)
    monkeypatch.setattr(engine, "compiled_is_cached",
                        lambda name="neighbours": name != kernel)
    big = np.zeros((5000, 50))
    assert engine.needs_compiling(big, kernel=kernel)
    others = set(engine.KERNELS) - {kernel}
    assert not any(engine.needs_compiling(big, kernel=k) for k in others)
    assert not engine.needs_compiling(np.zeros((10, 3)), kernel=kernel)


def test_an_unknown_kernel_is_refused():
    with pytest.raises(KeyError):
        engine.compiled_is_cached("no such kernel")
