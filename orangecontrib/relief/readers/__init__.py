"""Wide data from files, read by blocks and never widened: PLINK
genotypes (.bed, .bim, .fam and a phenotype file) and AnnData .h5ad files.

Plain Python (numpy, scipy and the optional packages of the ``genomics``
extra; no Orange), so that scripts, the command line and the Orange layer
share one reader per format::

    from orangecontrib.relief.readers import read_wide
    data = read_wide("study.bed", pheno="pheno.txt")
    weights = data.weights("ReliefF")

:mod:`.sources` defines the column-block sources the readers give,
:mod:`.plink` and :mod:`.phenotypes` read PLINK's files, :mod:`.h5ad`
AnnData's; :mod:`.extras` says what to install when a package is missing.
"""
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..core.errors import ReliefInputError
from ..core.variants.iterative import iterated
from ..core.options import check_choice
from ..core.variants.turf import turf_rounds
from ..core.registry import by_name
from ..core.validation import checked_options
from ..core.variants.vls import vls_rounds
from .extras import MissingExtra
from .sources import columns_of, core_input

__all__ = ["WideData", "read_wide", "is_wide_file", "WIDE_FORMATS",
           "WRAPPERS", "MissingExtra"]

#: extension -> the format's name, of the files :func:`read_wide` reads
WIDE_FORMATS = {".bed": "PLINK .bed", ".h5ad": "AnnData .h5ad"}
#: the selections by subsets of the attributes that wrap a variant: TuRF
#: (Moore & White 2007) and VLS (Eppstein & Haake 2008)
WRAPPERS = {"turf": turf_rounds, "vls": vls_rounds}


@dataclass(frozen=True)
class WideData:
    """Wide data read from a file, ready for the core.

    Attributes
    ----------
    X : column-block source, scipy CSR matrix or numpy array
        The attributes' values, in the dtype the file holds them.
    y : float64 array (n,)
        Class codes, or the values of a numeric target; NaN where unknown
        (those instances are left out of the scoring).
    names : list of str
        The attributes' names (SNP IDs, genes).
    class_name : str
    task : str
        "classification" or "regression".
    class_values : tuple of str or None
        The classes' names by code (None for a numeric target).
    notes : tuple of str
        What the reader left out, a line each (individuals without a
        phenotype, ...).
    """
    X: object
    y: np.ndarray
    names: list
    class_name: str
    task: str
    class_values: tuple = None
    notes: tuple = field(default=())

    @property
    def shape(self):
        return tuple(self.X.shape)

    def weights(self, method, *, wrapper=None, wrapper_options=None,
                progress_callback=None, checked=False, **options):
        """The weights of the registered variant `method` (its name) on
        these data, with the core's `options`.

        With `wrapper` ("turf" or "vls", :data:`WRAPPERS`) the variant
        scores subsets of the attributes as the wrapper chooses them
        (`wrapper_options` are the wrapper's: fraction and n_keep of
        TuRF, subset_size, cover_pairs, n_subsets and random_state of
        VLS), each subset read from the file on its own: the memory of a
        subset, not of the data.  With "iter" it scores all of them in
        rounds, each weighting the distance by the scores before
        (:func:`..core.variants.iterative.iterated`, whose options
        `wrapper_options` are).  The options are checked once, here
        (:func:`..core.validation.checked_options`), whatever the rounds;
        with `checked`, the caller has checked them by the same table.
        """
        variant = by_name(method)
        if not checked:
            options = checked_options(options)
            wrapper_options = checked_options(wrapper_options or {})

        def score(X, progress_callback):
            return variant.weights(core_input(X), self.y, None,
                                   task=self.task,
                                   progress_callback=progress_callback,
                                   checked=True, **options)

        if wrapper is None:
            return score(self.X, progress_callback)
        if check_choice("wrapper", wrapper, (*WRAPPERS, "iter")) == "iter":
            return iterated.unchecked(
                variant, core_input(self.X), self.y, None, task=self.task,
                progress_callback=progress_callback,
                **(wrapper_options or {}), **options).scores
        rounds = WRAPPERS[wrapper].unchecked
        return rounds(
            lambda columns, progress: score(columns_of(self.X, columns),
                                            progress),
            self.shape[1], progress_callback=progress_callback,
            **(wrapper_options or {})).scores


def is_wide_file(path):
    """Whether `path` names a file of :data:`WIDE_FORMATS`."""
    return Path(str(path)).suffix.lower() in WIDE_FORMATS


def read_wide(path, *, pheno=None, class_name=None, progress_callback=None):
    """The :class:`WideData` of the file `path`.

    A .bed file (with its .bim and .fam beside it) takes its phenotype
    from the file `pheno` (its column `class_name`, default the first),
    or from the .fam; an .h5ad file its class from the column
    `class_name` of ``obs`` (a sparse matrix read at once, the share
    read reported to `progress_callback`; a .bed is read by blocks as
    it is weighed).

    Raises
    ------
    ReliefInputError
        For a file of another format or any problem the readers find.
    MissingExtra
        When the package that reads the format is not installed.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".bed":
        from .plink import BedSource, plink_phenotype

        source = BedSource(path)
        phenotype = plink_phenotype(source, pheno, class_name)
        data = WideData(source, phenotype.y, source.names, phenotype.name,
                        phenotype.task, phenotype.values)
        what = "individuals"
    elif suffix == ".h5ad":
        from .h5ad import read_h5ad

        if pheno is not None:
            raise ReliefInputError(
                "--pheno gives the phenotypes of a .bed file; an .h5ad "
                "file's class is a column of its obs: name it with --class.")
        X, names, target = read_h5ad(path, class_name,
                                     progress_callback=progress_callback)
        data = WideData(X, target.y, names, target.name, target.task,
                        target.values)
        what = "cells"
    else:
        raise ReliefInputError(
            f"{path}: not a file of {', '.join(WIDE_FORMATS.values())}.")
    missing = int(np.isnan(data.y).sum())
    if missing:
        data = replace(data, notes=(
            f"{missing} of {len(data.y)} {what} have no {data.class_name} "
            f"and are left out",))
    return data
