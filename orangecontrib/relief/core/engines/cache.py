"""Where the compiled engine's machine code is kept, keyed on its sources.

Numba stamps a cached kernel with its own source file only, but a kernel
also compiles what it calls and inlines from other files: the diffs, the
formulas of :mod:`..formulas`, the tables' layout.  A change to any of
them would leave the old machine code in use.  So the add-on's kernels
are cached in a folder of their own whose name is a digest of every
source file of the core (and of the versions of Python and numba):
changed sources, an upgrade of the add-on or of numba, each get a new,
empty folder, and no kernel compiled from other sources is ever loaded.

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
import hashlib
import os
import platform
import shutil
import sys
import time
from functools import lru_cache
from importlib import metadata
from pathlib import Path

#: the core's package folder: every source file under it is in the digest
CORE = Path(__file__).resolve().parent.parent
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


@lru_cache(maxsize=None)
def source_digest(core=CORE):
    """A digest of every ``.py`` file under `core` (names and contents)
    and of the versions of Python, numba and llvmlite: what the compiled
    kernels are made of."""
    digest = hashlib.sha256()
    for text in (sys.version, platform.machine(), _version("numba"),
                 _version("llvmlite")):
        digest.update(text.encode() + b"\0")
    for path in sorted(core.rglob("*.py")):
        digest.update(path.relative_to(core).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def kernel_folder():
    """The folder of this installation's compiled kernels (not created)."""
    return cache_base() / source_digest()


def ensure_kernel_folder():
    """:func:`kernel_folder`, created and marked as used now, or None
    where it cannot be written; a new folder removes the unused folders of
    other digests."""
    folder = kernel_folder()
    try:
        new = not folder.exists()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / USED).touch()
    except OSError:
        return None
    if new:
        remove_unused(folder.parent, keep=folder.name)
    return folder


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
