"""Where the compiled engine's machine code is kept, keyed on its sources.

Numba stamps a cached kernel with its own source file only, but a kernel
also compiles what it calls and inlines from other files: the diffs, the
formulas of :mod:`..formulas`, the tables' layout.  A change to any of
them would leave the old machine code in use.  So the add-on's kernels
are cached in a folder of their own whose name is a digest of the source
files the kernels are made of (:func:`kernel_sources`: the compiled
engine's modules and every module of the core they import, read off their
import statements, but the locator of the kernels' cache and what it
imports, the preparation's machinery) and of the versions of Python,
numba and llvmlite.  An edit of one of those files, an upgrade of numba,
each get a new, empty folder, and no kernel compiled from other sources
is ever loaded; an edit elsewhere in the add-on (a numpy-only module, the
registry, the estimators, the preparation) keeps the compiled kernels.

The folder is ``<base>/orange3-relief/<digest>``, the base being
``NUMBA_CACHE_DIR`` when it is set, else the user's cache folder
(``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux, ``~/Library/Caches`` on
macOS, ``%LOCALAPPDATA%`` on Windows), so that it works where the
package's own folder is read-only.  Folders of other digests that have
not been used for :data:`UNUSED_DAYS` days are removed when a new one is
made.

This module imports no compiler; :mod:`.compiled.locator` points numba at
:func:`kernel_folder` (and makes a cache that cannot be read or written
no obstacle to a computation).
"""
import ast
import hashlib
import os
import platform
import shutil
import sys
import time
from functools import lru_cache
from importlib import metadata
from pathlib import Path

#: the core's package folder: the kernels' sources are the files under it
#: that the compiled engine imports
CORE = Path(__file__).resolve().parent.parent
#: the compiled engine's package, relative to :data:`CORE`: its modules are
#: where the import graph of :func:`kernel_sources` starts
COMPILED = Path("engines", "compiled")
#: the module of that package that declares no kernel: it points numba at
#: the kernel folder, and what it imports (this module, the preparation,
#: the handling of signals) runs around the kernels, never inside one
LOCATOR = COMPILED / "locator.py"
#: folders of other digests unused this long are removed
UNUSED_DAYS = 30
#: the file whose modification time says when a folder was last used
USED = "last-used"
#: why the kernel cache could not be written in this process, each time
#: (:mod:`.compiled.locator`; a preparation's worker reports the first)
write_failures = []


def user_cache_base():
    """The user's cache folder of this platform."""
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local"))
    if sys.platform == "darwin":
        return home / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")


def cache_base():
    """The folder that holds the add-on's kernel folders."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    return (Path(base) if base else user_cache_base()) / "orange3-relief"


def _version(distribution):
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "none"


def kernel_sources(core=CORE):
    """The source files the compiled kernels are made of: every module of
    the compiled engine's package under `core` but its :data:`LOCATOR`
    and, in turn, every module of the core that one of them imports (an
    import anywhere in the file, a function's included), sorted.  The
    graph is read off the files' import statements (nothing is imported);
    imports from outside the core are numba's, numpy's and Python's, whose
    versions are in the digest or do not compile into a kernel."""
    found, todo = set(), sorted((core / COMPILED).rglob("*.py"))
    while todo:
        path = todo.pop()
        if path in found or path == core / LOCATOR:
            continue
        found.add(path)
        todo.extend(imported_modules(path, core))
    return sorted(found)


def imported_modules(path, core=CORE):
    """The files of the modules of `core` that the source file `path`
    imports: ``from .a import b`` gives the module ``a.b`` where it is
    one, else ``a``; an absolute import of the core's name likewise."""
    package = path.relative_to(core).parent.parts
    modules = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            modules += [_module_file(core, _core_parts(alias.name))
                        for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: above the core is no kernel's source
                up = node.level - 1
                parts = (package[:len(package) - up] + tuple(
                    node.module.split(".") if node.module else ())
                    if up <= len(package) else None)
            else:
                parts = _core_parts(node.module)
            modules += [_module_file(core, (*parts, alias.name))
                        or _module_file(core, parts)
                        for alias in node.names if parts is not None]
    return [module for module in modules if module is not None]


#: the core's absolute name, as absolute imports spell it
CORE_NAME = __name__.rsplit(".", 2)[0]


def _core_parts(name):
    """The parts of the absolute module `name` below the core, or None
    where it is outside the core."""
    if name != CORE_NAME and not name.startswith(CORE_NAME + "."):
        return None
    return tuple(name[len(CORE_NAME):].split(".")[1:])


def _module_file(core, parts):
    """The file of the module `parts` under `core` (a package's
    ``__init__.py``), or None where there is none."""
    if parts is None:
        return None
    folder = core.joinpath(*parts)
    candidates = [folder / "__init__.py"]
    if parts:
        candidates.insert(0, folder.with_name(f"{folder.name}.py"))
    return next((path for path in candidates if path.is_file()), None)


@lru_cache(maxsize=None)
def source_digest(core=CORE):
    """A digest of the kernels' sources under `core`
    (:func:`kernel_sources`: names and contents) and of the versions of
    Python, numba and llvmlite: what the compiled kernels are made of."""
    digest = hashlib.sha256()
    for text in (sys.version, platform.machine(), _version("numba"),
                 _version("llvmlite")):
        digest.update(text.encode() + b"\0")
    for path in kernel_sources(core):
        digest.update(path.relative_to(core).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def kernel_folder():
    """The folder of this installation's compiled kernels (not created)."""
    return cache_base() / source_digest()


def ensure_kernel_folder():
    """:func:`kernel_folder`, created and marked as used now, or None
    where it cannot be written; a new folder removes the unused folders of
    other digests.  After :func:`existing_only`, nothing is made: the
    folder's use mark is only dated anew, and a folder whose mark is gone
    (deleted, or being deleted: ``rm -rf`` removes a folder's files before
    the folder) counts as gone."""
    folder = kernel_folder()
    try:
        if _gone:
            os.utime(folder / USED)
            return folder
        new = not folder.exists()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / USED).touch()
    except OSError:
        for gone in _gone:
            gone()
        return None
    if new:
        remove_unused(folder.parent, keep=folder.name)
    return folder


#: what this process does where it finds its kernel folder deleted
#: (:func:`existing_only`)
_gone = []


def existing_only(gone):
    """From now on this process makes no kernel folder
    (:func:`ensure_kernel_folder`; numba's subfolders of the kernels
    likewise, :mod:`.compiled.locator`): where the folder is gone, it
    calls `gone()`.  For a worker of the preparation, whose folder the
    preparation made: deleted (a temporary cache), nobody reads what it
    compiles, and a folder made again would be left behind."""
    _gone[:] = [gone]


def remove_unused(base, keep, days=UNUSED_DAYS):
    """Remove the kernel folders in `base` but `keep` that were last used
    more than `days` days ago (a folder without a use mark counts as
    used when it was last modified)."""
    limit = time.time() - days * 86400
    for folder in base.iterdir():
        if folder.name == keep or not folder.is_dir():
            continue
        mark = folder / USED
        try:
            used = (mark if mark.exists() else folder).stat().st_mtime
        except OSError:
            continue
        if used < limit:
            shutil.rmtree(folder, ignore_errors=True)
