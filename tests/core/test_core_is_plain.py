"""The numeric core and the scikit-learn layer import neither Orange nor Qt
(reusable, testable alone, usable where no GUI is installed)."""
import json
import subprocess
import sys

#: what runs without Orange: its name -> the package or module imported
#: (with every module under it)
PLAIN = {"the numeric core": "orangecontrib.relief.core",
         "the scikit-learn layer": "orangecontrib.relief.sklearn"}

#: imports each of its arguments in turn, with the modules under it, and
#: prints, as JSON, each one's number of modules under it and the Orange
#: and Qt modules that its imports added
CHECK = """
import importlib
import json
import pkgutil
import sys

GUI = ("Orange", "AnyQt", "PyQt5", "PyQt6", "orangewidget", "orangecanvas")


def gui_modules():
    return {name for name in sys.modules if name.split(".")[0] in GUI}


found = {}
for package in sys.argv[1:]:
    before = gui_modules()
    module = importlib.import_module(package)
    names = [info.name for info in pkgutil.walk_packages(
        getattr(module, "__path__", ()), package + ".")]
    for name in names:
        importlib.import_module(name)
    found[package] = [len(names), sorted(gui_modules() - before)]
print(json.dumps(found))
"""


def test_no_orange_and_no_qt():
    """One fresh interpreter imports the entries of :data:`PLAIN` in turn:
    no Orange or Qt module loaded by any."""
    result = subprocess.run([sys.executable, "-c", CHECK, *PLAIN.values()],
                            capture_output=True, text=True, check=True)
    found = json.loads(result.stdout.splitlines()[-1])
    assert found[PLAIN["the numeric core"]][0] > 20  # every module imported
    loaded = {entry: found[package][1] for entry, package in PLAIN.items()}
    assert loaded == {entry: [] for entry in PLAIN}
