"""Numba's cache of the add-on's kernels goes to :func:`..cache.kernel_folder`,
and a cache that cannot be read or written never stops a computation.

Numba asks its cache locators in turn where a function's machine code
lives.  :class:`KernelLocator`, asked first, answers for the functions
defined under the core's package folder alone: the kernel folder keyed
on the core's sources, with that digest as every kernel's source stamp
(a folder of this process's own, removed when it ends, where the kernel
folder cannot be written).  Any other function is left to numba's own
locators.  It is installed when the compiled engine is imported, before
any of its kernels is declared.

For the kernels it locates, numba's cache is made tolerant (:func:`load`,
:func:`save`): a file that cannot be read (truncated, garbled) is a cache
miss, removed with one warning, and the kernel is compiled again; a file
that cannot be written (a full disk) leaves the kernel compiled in this
process, with one warning, and :data:`..cache.write_failures` says why
(``orange-relief prepare`` reports it).  A file is written whole or not
at all: SIGINT and SIGTERM wait for its end (:func:`...termination.
deferred`), and processes that write kernels at once (a worker of the
preparation and a call compiling first) take turns
(:func:`..keeper.saving`).  The workers of a preparation, which run side
by side, compile each kernel's version once between them
(:func:`compile_alone`): a worker that misses one waits for another that
compiles it, then loads it.
"""
import atexit
import hashlib
import shutil
import tempfile
import warnings
from pathlib import Path

from numba.core import caching
from numba.core.caching import FunctionCache, _CacheLocator

from ... import termination
from .. import cache, keeper, preparation

#: numba's machinery of caches (named without the underscore from 0.61 on)
CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
#: numba's own load and save of a function's cache
_numba_load, _numba_save = (FunctionCache.load_overload,
                            FunctionCache.save_overload)
#: the folder of this process's kernels where the kernel folder cannot be
#: written (made on first need)
_scratch = []
#: whether a version missing from the cache is compiled by one process at
#: a time (:func:`compile_alone`)
_alone = []
#: {(kernel's file name, argument types): the lock this process holds
#: while it compiles them}
_compiling = {}


class KernelLocator(_CacheLocator):
    """The cache location and source stamp of a kernel of the core."""

    def __init__(self, py_func, py_file, folder=None):
        self._lineno = py_func.__code__.co_firstlineno
        relative = Path(py_file).resolve().relative_to(cache.CORE)
        folder = cache.kernel_folder() if folder is None else folder
        self._cache_path = str(
            folder / relative.parent.as_posix().replace("/", "."))

    def get_cache_path(self):
        return self._cache_path

    def ensure_cache_path(self):
        """numba's, but for the kernels' subfolder alone: the folder that
        holds it is :func:`..cache.ensure_kernel_folder`'s to make (or
        this process's own), so that a process whose kernel folder is
        deleted while it runs (a temporary cache) does not make it again
        when it declares or saves a kernel; the save fails instead
        (:func:`write_file`)."""
        Path(self._cache_path).mkdir(exist_ok=True)
        tempfile.TemporaryFile(dir=self._cache_path).close()

    def get_source_stamp(self):
        return cache.source_digest()

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        """A locator for a function defined under the core (in a folder of
        this process's own where the kernel folder cannot be written);
        else None (numba's locators)."""
        try:
            Path(py_file).resolve().relative_to(cache.CORE)
        except ValueError:
            return None
        locator = None
        if cache.ensure_kernel_folder() is not None:
            locator = cls(py_func, py_file)
            try:
                locator.ensure_cache_path()
            except OSError:
                locator = None
        if locator is None:
            locator = cls(py_func, py_file, scratch_folder())
            locator.ensure_cache_path()
        return locator


def scratch_folder():
    """A folder for this process's kernels, removed when it ends; the
    first use says why, once."""
    if not _scratch:
        _scratch.append(Path(tempfile.mkdtemp(prefix="orange3-relief-")))
        atexit.register(shutil.rmtree, _scratch[0], ignore_errors=True)
        warnings.warn(f"Cannot write the compiled engine's cache in "
                      f"{cache.kernel_folder()}; its kernels are compiled "
                      f"in this process and not kept (set NUMBA_CACHE_DIR "
                      f"to a folder that can be written).",
                      preparation.CacheWarning, stacklevel=2)
    return _scratch[0]


def _ours(function_cache):
    return isinstance(function_cache._impl.locator, KernelLocator)


def _files(function_cache):
    """The index and data files of `function_cache`'s function."""
    base = function_cache._impl.filename_base
    folder = Path(function_cache.cache_path)
    return [folder / f"{base}.nbi", *folder.glob(f"{base}.*.nbc")]


def _remove(paths):
    for path in paths:
        try:
            path.unlink()
        except OSError:
            pass


def compile_alone():
    """From now on, a version of a kernel (its argument types) missing from
    the cache is compiled by one process at a time, each process that
    also misses it waiting for it and then loading it: for the workers of
    a preparation, which share the kernels that several parts call and
    run at the same priority (a call is never made to wait for a
    preparation that a busy machine may starve)."""
    _alone.append(True)


def load(self, sig, target_context):
    """The kernel's version for the types `sig` loaded from the cache
    (:func:`load_file`), or None where it must be compiled; after
    :func:`compile_alone`, a miss waits for the process that compiles
    that version, if any, and holds its lock while this one compiles it
    (:func:`save` lets it go); a lock's file lasts as long as its
    compile."""
    loaded = load_file(self, sig, target_context)
    if loaded is not None or not _alone or not _ours(self):
        return loaded
    key = (self._impl.filename_base, str(sig))
    if key in _compiling:
        return None
    folder = Path(self.cache_path).parent / keeper.COMPILING
    name = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
    try:
        folder.mkdir(exist_ok=True)
        lock = keeper.Lock(folder, name)
        lock.acquire_in_place()
    except OSError:
        return None
    loaded = load_file(self, sig, target_context)
    if loaded is not None:
        lock.remove()
        return loaded
    _compiling[key] = lock
    return None


def load_file(self, sig, target_context):
    """numba's load of a kernel, a file that cannot be read taken for a
    miss: removed (the kernel is compiled again and saved afresh), the
    folder no longer marked prepared, and a warning."""
    if not _ours(self):
        return _numba_load(self, sig, target_context)
    try:
        return _numba_load(self, sig, target_context)
    except Exception as error:  # whatever a damaged file raises
        _remove(_files(self))
        folder = Path(self.cache_path).parent
        preparation.unmark(folder)
        warnings.warn(f"The compiled engine's cache in {folder} had a file "
                      f"that cannot be read ({self._impl.filename_base}: "
                      f"{type(error).__name__}: {error}); the kernel is "
                      f"compiled again.", preparation.CacheWarning,
                      stacklevel=2)
        return None


def save(self, sig, data):
    """numba's save of a kernel (:func:`write_file`), then the lock of
    its version let go and its file removed, where this process compiled
    it alone (:func:`load`)."""
    if not _ours(self):
        return _numba_save(self, sig, data)
    try:
        write_file(self, sig, data)
    finally:
        lock = _compiling.pop((self._impl.filename_base, str(sig)), None)
        if lock is not None:
            lock.remove()


def write_file(self, sig, data):
    """Write the kernel's version for the types `sig` whole (SIGINT and
    SIGTERM wait for it); a file that cannot be written leaves the kernel
    compiled in this process only, with a warning, and no index naming a
    missing file."""
    folder = Path(self.cache_path).parent
    with termination.deferred(), keeper.saving(folder) as write:
        if not write:
            warnings.warn(f"Another process held the lock of writers of "
                          f"{folder} for {keeper.SAVE_WAIT:.0f} s; a "
                          f"kernel is compiled in this process and not "
                          f"kept.", preparation.CacheWarning, stacklevel=2)
            return
        try:
            _numba_save(self, sig, data)
        except OSError as error:
            _remove(_files(self)[:1])
            reason = error.strerror or str(error)
            cache.write_failures.append(reason)
            warnings.warn(f"Cannot write the compiled engine's cache in "
                          f"{folder} ({reason}); the kernels are compiled "
                          f"in this process and not kept.",
                          preparation.CacheWarning, stacklevel=2)


def install():
    """Put :class:`KernelLocator` first among numba's cache locators and
    make the cache of its kernels tolerant (once)."""
    if KernelLocator not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, KernelLocator)
        FunctionCache.load_overload = load
        FunctionCache.save_overload = save


install()
