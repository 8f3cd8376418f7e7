"""Peers' kernels run as the Python of their source where numba would
compile them on every run: the same arithmetic on the same values, in
seconds on the tests' small data where their compiles take far longer."""
import contextlib
import importlib.util
from unittest.mock import patch

#: fast-select's parallel kernels that numba compiles on every run (they
#: ask for the thread's number, which numba cannot cache): module ->
#: kernels
FAST_SELECT_KERNELS = {
    "fast_select.SURF": ("_global_mean_distance_cpu", "_surf_cpu_kernel"),
    "fast_select.MultiSURF": ("_multisurf_cpu_kernel",)}


@contextlib.contextmanager
def fast_select_in_python():
    """fast-select's modules (name -> module) whose uncached kernels run
    as the Python of their source while the context lasts; none where
    fast-select is not installed."""
    if importlib.util.find_spec("fast_select") is None:
        yield {}
        return
    modules = {name: importlib.import_module(name)
               for name in FAST_SELECT_KERNELS}
    with contextlib.ExitStack() as patches:
        for name, kernels in FAST_SELECT_KERNELS.items():
            for kernel in kernels:
                compiled = getattr(modules[name], kernel)
                patches.enter_context(patch.object(
                    modules[name], kernel, compiled.py_func))
        yield modules
