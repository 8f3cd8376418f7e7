"""The registry of Relief variants that the CLI and the Relief widget offer.

It knows nothing of its own: which class type a variant fits and the
defaults of its options are read from the scorer classes of
:mod:`.scorers`, so that ``orange-relief rank`` and the Relief widget build
their scorers the same way and cannot drift from the scripting API.
"""
import inspect

from Orange.data import ContinuousVariable, DiscreteVariable

from .core.options import PARAMETERS
from .scorers import (SURF, DReliefF, MultiSURF, MultiSURFstar, PDReliefF,
                      Relief, ReliefF, RReliefF, SURFstar)

__all__ = ["METHODS", "DIFFS", "DEFAULT_K", "K_SHARED", "fitting_methods",
           "default_method", "make_scorer"]

#: name -> scorer class, in the order the CLI and the widget list them
METHODS = {cls.friendly_name: cls
           for cls in (Relief, ReliefF, RReliefF, DReliefF, PDReliefF,
                       MultiSURF, MultiSURFstar, SURF, SURFstar)}
DIFFS = PARAMETERS["diff"].allowed


def _default(cls, parameter):
    """The default of `parameter` in the constructor of `cls` (None if it
    takes no such parameter)."""
    found = inspect.signature(cls).parameters.get(parameter)
    return None if found is None else found.default


#: default number of nearest neighbours of the variants that take k
#: (Relief always uses one nearest hit and one nearest miss)
DEFAULT_K = {name: _default(cls, "k_nearest") for name, cls in METHODS.items()
             if _default(cls, "k_nearest") is not None}

#: variants whose k is ReliefF's (the double ReliefF variants are ReliefF
#: with learned distance weights): the widget sets it with one control
K_SHARED = {name: "ReliefF" for name, cls in METHODS.items()
            if issubclass(cls, ReliefF) and cls is not ReliefF}


def fitting_methods(class_var):
    """The names of the variants that can score data with `class_var`
    (none for data without a single class; Relief only for two classes)."""
    return [name for name, cls in METHODS.items() if cls.fits(class_var)]


def default_method(class_var):
    """ReliefF for a discrete class, RReliefF for a numeric one, else None."""
    if isinstance(class_var, DiscreteVariable):
        return "ReliefF"
    if isinstance(class_var, ContinuousVariable):
        return "RReliefF"
    return None


def make_scorer(method, *, k_nearest=None, **options):
    """The scorer of variant `method` (a key of :data:`METHODS`).

    `k_nearest` None keeps the variant's default and must be None for the
    variants without k (Relief, the SURF family); the other `options`
    (n_iterations, random_state, diff, t_eq, t_diff) go to the scorer's
    constructor.

    Raises
    ------
    ValueError
        For an unknown method, or `k_nearest` given to a variant without k.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, "
                         f"got {method!r}.")
    if k_nearest is not None:
        if method not in DEFAULT_K:
            raise ValueError(
                f"{method} takes no k: "
                + ("it uses one nearest hit and one nearest miss."
                   if method == "Relief" else
                   "its neighbours are the instances within a distance.")
                + " k applies to " + ", ".join(DEFAULT_K) + ".")
        options["k_nearest"] = k_nearest
    return METHODS[method](**options)
