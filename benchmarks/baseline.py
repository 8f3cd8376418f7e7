"""An earlier build of the core beside this one, for benchmarks that time
both in one process: ``git archive COMMIT orangecontrib/relief/core |
tar -x -C DIR`` holds it under DIR."""
import importlib.util
import sys
from pathlib import Path

#: the name the earlier core is imported under
PACKAGE = "baseline_core"


def load_core(directory):
    """Import the core copied under `directory` (``orangecontrib/relief/
    core`` below it) as the package :data:`PACKAGE`; its modules are then
    ``baseline_core.<module>``."""
    core = Path(directory) / "orangecontrib" / "relief" / "core"
    spec = importlib.util.spec_from_file_location(
        PACKAGE, core / "__init__.py", submodule_search_locations=[str(core)])
    package = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = package
    spec.loader.exec_module(package)
    return core
