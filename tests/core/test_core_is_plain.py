"""The numeric core imports neither Orange nor Qt (reusable, testable alone)."""
import subprocess
import sys

CHECK = """
import sys
import orangecontrib.relief.core
import orangecontrib.relief.core.classdep, orangecontrib.relief.core.double
import orangecontrib.relief.core.rfsm, orangecontrib.relief.core.search
import orangecontrib.relief.core.generators, orangecontrib.relief.core.consistency
loaded = sorted(m for m in sys.modules
                if m.split(".")[0] in ("Orange", "AnyQt", "PyQt5", "PyQt6",
                                       "orangewidget", "orangecanvas"))
print(",".join(loaded))
"""


def test_core_imports_no_orange_or_qt():
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == ""
