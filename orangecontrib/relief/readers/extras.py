"""The optional packages the readers need, and the line a user reads when
one is missing.

``pip install "Orange3-Relief[genomics]"`` brings them all: bed-reader
(PLINK .bed files, read a block of SNPs at a time) and anndata (.h5ad
files, opened in backed mode).
"""
import importlib

#: the extra of setup.py that installs the readers' packages
EXTRA = "genomics"

#: module -> (its package on PyPI, what needs it)
PACKAGES = {
    "bed_reader": ("bed-reader", "Reading PLINK .bed files"),
    "anndata": ("anndata", "Reading AnnData .h5ad files"),
    "h5py": ("h5py", "Reading AnnData .h5ad files"),
}


class MissingExtra(ImportError):
    """An optional package is not installed; the message says which and
    how to install it, in one line."""


def require(module):
    """The module `module` of :data:`PACKAGES`, imported, or
    :class:`MissingExtra` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        package, purpose = PACKAGES[module]
        raise MissingExtra(
            f"{purpose} needs the package {package}: pip install "
            f"\"Orange3-Relief[{EXTRA}]\" (or pip install {package})."
        ) from None
