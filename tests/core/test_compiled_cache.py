"""The compiled engine's cache follows every source it compiles.

A kernel compiles what it calls from other files into its own machine
code: ``limits`` of the SURF family's compiled rules calls the thresholds
of ``formulas/neighbourhoods.py``.  Numba alone stamps the cache with the
kernel's own file, so an edit of the formula kept the old machine code.
Here a copy of the core is edited between two fresh processes sharing one
cache, and the compiled result must follow the edit.  The cache's key is
made of the files the kernels import (``core/engines/cache.py``), so an
edit of a numpy-only module keeps the compiled kernels.
"""
import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

import orangecontrib.relief as package
from orangecontrib.relief.core.engines import cache as kernel_cache

#: the kernel's result on a small distance row, as JSON
PROGRAM = """
import json
import numpy as np
from orangecontrib.relief.core.engines.compiled.rules import surf
from orangecontrib.relief.core.formulas import neighbourhoods
dist = np.array([0.0, 1.0, 2.0, 4.0, 8.0])
mean, sigma = 15.0 / 4, float(np.std([1.0, 2.0, 4.0, 8.0]))
print(json.dumps({"compiled": list(surf.limits(
                      dist, 0, True, 0.0, 0, neighbourhoods.DEAD_BAND, 1.0)[:2]),
                  "formula": list(neighbourhoods.thresholds(
                      mean, sigma, True, 0.0)),
                  "module": surf.__file__,
                  "loaded": sum(surf.limits.stats.cache_hits.values())}))
"""


def copy_of_the_core(folder):
    """A copy of the package's core (and the package's own small
    ``__init__``) under `folder`, importable as ``orangecontrib.relief``."""
    source = Path(package.__file__).parent
    target = folder / "orangecontrib" / "relief"
    target.mkdir(parents=True)
    shutil.copy(source / "__init__.py", target / "__init__.py")
    shutil.copytree(source / "core", target / "core",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return target / "core"


def run(copy, cache):
    """PROGRAM's output in a fresh process that imports the copy `copy`
    (without ``site``, whose editable installs would import the original,
    and away from the working folder),
    with numba's cache in `cache`."""
    path = [str(copy.parent.parent.parent), *site.getsitepackages()]
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path),
                       NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-S", "-c", PROGRAM],
                          env=environment, cwd=cache.parent,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_an_edited_formula_is_compiled_again(tmp_path):
    core = copy_of_the_core(tmp_path / "copy")
    cache = tmp_path / "cache"
    before = run(core, cache)
    assert Path(before["module"]).is_relative_to(core)
    assert before["compiled"] == before["formula"]

    formula = core / "formulas" / "neighbourhoods.py"
    text = formula.read_text()
    given = "return mean - band * sigma, mean + band * sigma"
    assert given in text
    formula.write_text(text.replace(
        given, "return mean - 2 * band * sigma, mean + 2 * band * sigma"))
    after = run(core, cache)
    assert after["formula"] != before["formula"]
    assert after["compiled"] == after["formula"]


def test_an_edit_outside_the_kernels_keeps_them(tmp_path):
    core = copy_of_the_core(tmp_path / "copy")
    cache = tmp_path / "cache"
    assert run(core, cache)["loaded"] == 0
    stability = core / "analysis" / "stability.py"
    stability.write_text(stability.read_text() + "\nEDITED = True\n")
    after = run(core, cache)
    assert Path(after["module"]).is_relative_to(core)
    assert after["loaded"] > 0


def digest(core):
    """The kernel folder's digest of the sources under `core` now (not
    the one cached for its path)."""
    return kernel_cache.source_digest.__wrapped__(core)


def edited(core, relative, text="\nEDITED = True\n"):
    """The digest of `core` after `text` is appended to its file
    `relative`."""
    path = core / relative
    path.write_text(path.read_text() + text)
    return digest(core)


@pytest.mark.parametrize("relative", [
    "analysis/stability.py", "variants/estimators.py", "registry.py",
    "options.py", "engines/vectorised/rules.py", "engines/interface.py",
    "engines/compiled/locator.py", "engines/keeper.py",
    "engines/preparation.py", "engines/cache.py", "termination.py"])
def test_a_module_no_kernel_imports_is_no_key(tmp_path, relative):
    core = copy_of_the_core(tmp_path / "copy")
    assert edited(core, relative) == digest(copy_of_the_core(
        tmp_path / "original"))


def test_moving_a_module_no_kernel_imports_keeps_the_key(tmp_path):
    """The key names the kernels' sources, not the core's layout: a
    module no kernel imports moved to another folder keeps the kernels."""
    core = copy_of_the_core(tmp_path / "copy")
    before = digest(core)
    (core / "variants" / "surf.py").rename(core / "analysis" / "surf.py")
    assert digest(core) == before


@pytest.mark.parametrize("relative", [
    "formulas/neighbourhoods.py", "formulas/ties.py", "tables.py",
    "engines/compiled/rules/surf.py", "engines/compiled/diffs.py",
    "engines/vectorised/farthest.py"])
def test_a_source_a_kernel_imports_is_in_the_key(tmp_path, relative):
    core = copy_of_the_core(tmp_path / "copy")
    before = digest(core)
    assert edited(core, relative) != before


def test_the_key_follows_the_imports(tmp_path):
    """A module is in the key because a kernel's module imports it
    (directly or through another), not because a list names it."""
    core = copy_of_the_core(tmp_path / "copy")
    sources = kernel_cache.kernel_sources(core)
    assert core / "analysis" / "stability.py" not in sources
    assert core / "formulas" / "stir.py" in sources  # through rules/surf.py
    edited(core, "engines/compiled/streamed.py",
           "\n\ndef _uses():\n    from ...analysis.stability import ranks\n")
    assert core / "analysis" / "stability.py" in kernel_cache.kernel_sources(core)
    before = digest(core)
    assert edited(core, "analysis/stability.py") != before
