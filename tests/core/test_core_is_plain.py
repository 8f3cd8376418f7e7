"""The numeric core imports neither Orange nor Qt (reusable, testable alone)."""
import subprocess
import sys

CHECK = """
import importlib
import pkgutil
import sys

import orangecontrib.relief.core as core

modules = [info.name for info in pkgutil.walk_packages(core.__path__,
                                                       core.__name__ + ".")]
for name in modules:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules
                if m.split(".")[0] in ("Orange", "AnyQt", "PyQt5", "PyQt6",
                                       "orangewidget", "orangecanvas"))
print(len(modules))
print(",".join(loaded))
"""


def test_core_imports_no_orange_or_qt():
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True,
                            text=True, check=True)
    count, loaded = result.stdout.split("\n")[:2]
    assert int(count) > 20  # every module of the core was imported
    assert loaded == ""
