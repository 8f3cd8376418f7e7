"""Numba's cache of the add-on's kernels goes to :func:`..cache.kernel_folder`.

Numba asks its cache locators in turn where a function's machine code
lives.  :class:`KernelLocator`, asked first, answers for the functions
defined under the core's package folder alone: the kernel folder keyed
on the core's sources, with that digest as every kernel's source stamp.
Any other function is left to numba's own locators.  It is installed when
the compiled engine is imported, before any of its kernels is declared.
"""
from pathlib import Path

from numba.core import caching
from numba.core.caching import _CacheLocator

from .. import cache

#: numba's machinery of caches (named without the underscore from 0.61 on)
CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl


class KernelLocator(_CacheLocator):
    """The cache location and source stamp of a kernel of the core."""

    def __init__(self, py_func, py_file):
        self._lineno = py_func.__code__.co_firstlineno
        relative = Path(py_file).resolve().relative_to(cache.CORE)
        self._cache_path = str(cache.kernel_folder()
                               / relative.parent.as_posix().replace("/", "."))

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return cache.source_digest()

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        """A locator for a function defined under the core, where the
        kernel folder can be written; else None (numba's locators)."""
        try:
            Path(py_file).resolve().relative_to(cache.CORE)
        except ValueError:
            return None
        if cache.ensure_kernel_folder() is None:
            return None
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


def install():
    """Put :class:`KernelLocator` first among numba's cache locators
    (once)."""
    if KernelLocator not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, KernelLocator)


install()
