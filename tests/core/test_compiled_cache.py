"""The compiled engine's cache follows every source it compiles.

A kernel compiles what it calls from other files into its own machine
code: ``limits`` of the SURF family's compiled rules calls the thresholds
of ``formulas/neighbourhoods.py``.  Numba alone stamps the cache with the
kernel's own file, so an edit of the formula kept the old machine code.
Here a copy of the core is edited between two fresh processes sharing one
cache, and the compiled result must follow the edit.
"""
import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import orangecontrib.relief as package

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
                  "module": surf.__file__}))
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
