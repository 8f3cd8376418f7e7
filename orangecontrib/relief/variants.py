"""The registry of Relief variants (:mod:`.core.registry`) as the command
line and the Relief widget offer it, with each variant's Orange scorer.

Both build their scorers here, from the registry's variants and their
scorer classes of :mod:`.scorers`, so that ``orange-relief rank`` and the
Relief widget cannot drift from each other or from the scripting API.
"""
from typing import Dict, Protocol, Type, runtime_checkable

import numpy as np
from Orange.data import ContinuousVariable, DiscreteVariable, Table

from . import scorers
from .core.options import PARAMETERS
from .core.registry import (CLASSIFICATION, K_NEAREST, REGRESSION, RELIEFF,
                            RRELIEFF, VARIANTS, WITHIN_DISTANCE, Variant,
                            by_name, offered)

__all__ = ["VariantScorer", "SCORERS", "METHODS", "DIFFS", "TIE_RULES", "DEFAULT_K",
           "K_OF_TASK", "TAKE_TIES", "TAKE_CONVENTION", "CONVENTIONS",
           "METHOD_GROUPS", "fitting_methods", "default_method",
           "make_scorer", "needs", "no_k"]



@runtime_checkable
class VariantScorer(Protocol):
    """What :data:`SCORERS` holds for a variant: its Orange scorer class
    (:mod:`.scorers`).  ``SCORERS[name](**options)`` makes a scorer with
    the variant's options (those of :attr:`Variant.parameters`, by name;
    :func:`make_scorer` checks them); the scorer weighs a table with a
    class that it :meth:`fits`, one weight per attribute in domain order
    (-inf where an attribute has none)."""
    #: the registry's entry it computes
    variant: Variant
    #: the entry's name, as Orange's Rank widget shows it
    friendly_name: str

    def fits(self, class_var) -> bool:
        """Whether it weighs data whose class is `class_var`."""

    def __call__(self, data: Table, feature=None, *,
                 progress_callback=None) -> np.ndarray:
        """The weights of `data`'s attributes (or of `feature`)."""


#: name -> the Orange scorer class of every registered variant
SCORERS: Dict[str, Type[VariantScorer]] = {
    variant.name: getattr(scorers, variant.scorer) for variant in VARIANTS}
#: name -> variant of those the CLI and the Relief widget offer, in order
METHODS = {variant.name: variant for variant in offered()}
DIFFS = PARAMETERS["diff"].allowed
#: how a k-nearest list places the candidates tied at its k-th distance
TIE_RULES = PARAMETERS["ties"].allowed

#: default number of nearest neighbours of the offered variants that take
#: k (Relief always uses one nearest hit and one nearest miss)
DEFAULT_K = {name: variant.default_k for name, variant in METHODS.items()
             if variant.takes_k}
#: the offered variants whose tied k-th neighbours share places (or go to
#: the lower index, ``ties``): those of a k-nearest neighbourhood
TAKE_TIES = tuple(name for name, variant in METHODS.items()
                  if variant.takes_ties)
#: the offered variants that take a `convention` (the SWRF family's far
#: scoring and global statistics, mu-Relief's selection: the add-on's or
#: scikit-rebate's)
TAKE_CONVENTION = tuple(name for name, variant in METHODS.items()
                        if "convention" in variant.parameters)
#: the conventions they take
CONVENTIONS = PARAMETERS["convention"].allowed
#: the variant whose k a variant that takes k shares, by its task: the
#: widget sets the k of the variants of a task with one control
K_OF_TASK = {variant.tasks[0]: variant.name for variant in (RELIEFF,
                                                            RRELIEFF)}
#: the offered variants as the Relief widget lists them, grouped by how
#: they find a reference's neighbours: (heading, [name, ...])
METHOD_GROUPS = tuple(
    (heading, [name for name, variant in METHODS.items()
               if variant.neighbourhood == neighbourhood])
    for neighbourhood, heading in (
        (K_NEAREST, "Nearest neighbours (choose k)"),
        (WITHIN_DISTANCE, "Neighbours within a radius (no k)")))


def fitting_methods(class_var):
    """The names of the offered variants that can score data with
    `class_var` (none for data without a single class; Relief only for
    two classes)."""
    return [name for name in METHODS if SCORERS[name].fits(class_var)]


def default_method(class_var):
    """ReliefF for a discrete class, RReliefF for a numeric one, else None."""
    if isinstance(class_var, DiscreteVariable):
        return RELIEFF.name
    if isinstance(class_var, ContinuousVariable):
        return RRELIEFF.name
    return None


def needs(method):
    """The class variant `method` needs, in words ("a categorical class with
    2 values")."""
    variant = by_name(method)
    kinds = " or ".join({CLASSIFICATION: "a categorical class",
                         REGRESSION: "a numeric class"}[task]
                        for task in variant.tasks)
    return (kinds if variant.n_classes is None
            else f"{kinds} with {variant.n_classes} values")


def no_k(method):
    """What variant `method`, which takes no k, has for neighbours, in a
    sentence."""
    if by_name(method).neighbourhood == WITHIN_DISTANCE:
        return "Its neighbours are the instances within a radius of it."
    return ("It uses the nearest neighbour of the same class and the "
            "nearest of the other.")


def make_scorer(method, *, k_nearest=None, ties=None, convention=None,
                **options):
    """The scorer of variant `method` (a key of :data:`METHODS`).

    `k_nearest` None keeps the variant's default and must be None for the
    variants without k (Relief, the SURF family); `ties` None keeps the
    default tie rule and must be None for the variants whose neighbours
    lie within a distance (:data:`TAKE_TIES` take it); `convention` None
    keeps the default of the SWRF family and mu-Relief and must be None
    for the others
    (:data:`TAKE_CONVENTION` take it); the other `options`
    (n_iterations, random_state, diff, t_eq, t_diff) go to the scorer's
    constructor.

    Raises
    ------
    ValueError
        For an unknown method, or `k_nearest` (`ties`) given to a variant
        without k (without a k-th neighbour).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, "
                         f"got {method!r}.")
    if k_nearest is not None:
        if method not in DEFAULT_K:
            raise ValueError(f"{method} takes no k: {no_k(method).lower()} "
                             f"k applies to {', '.join(DEFAULT_K)}.")
        options["k_nearest"] = k_nearest
    if ties is not None:
        if method not in TAKE_TIES:
            raise ValueError(f"{method} takes no tie rule: "
                             f"{no_k(method).lower()} ties applies to "
                             f"{', '.join(TAKE_TIES)}.")
        options["ties"] = ties
    if convention is not None:
        if method not in TAKE_CONVENTION:
            raise ValueError(f"{method} takes no convention: it applies to "
                             f"{', '.join(TAKE_CONVENTION)}.")
        options["convention"] = convention
    return SCORERS[method](**options)

