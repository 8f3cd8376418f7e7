"""The Relief variants offered by the CLI and the widget, and their options.

One place that knows which variant fits which class type and which options
each one takes, so that ``orange-relief rank`` and the Relief widget build
their scorers the same way.
"""
from Orange.data import ContinuousVariable, DiscreteVariable

from orangecontrib.relief.scorers import Relief, ReliefF, RReliefF
from orangecontrib.relief.scorers_double import DReliefF, PDReliefF

__all__ = ["METHODS", "DIFFS", "DEFAULT_K", "fitting_methods",
           "default_method", "make_scorer", "K_SHARED"]

METHODS = {"Relief": Relief, "ReliefF": ReliefF, "RReliefF": RReliefF,
           "DReliefF": DReliefF, "PDReliefF": PDReliefF}
DIFFS = ("linear", "ramp", "squared")

#: Default number of nearest neighbours of the variants that take k
#: (Relief always uses one nearest hit and one nearest miss).
DEFAULT_K = {"ReliefF": 10, "RReliefF": 50, "DReliefF": 10, "PDReliefF": 10}

#: Variants whose k is set with the control of another variant (the double
#: ReliefF variants are ReliefF with learned distance weights).
K_SHARED = {"DReliefF": "ReliefF", "PDReliefF": "ReliefF"}

_CLASS_TYPES = {"Relief": DiscreteVariable, "ReliefF": DiscreteVariable,
                "RReliefF": ContinuousVariable, "DReliefF": DiscreteVariable,
                "PDReliefF": DiscreteVariable}


def fitting_methods(class_var):
    """Return the names of the variants that can score data with `class_var`.

    Relief and ReliefF need a discrete class, RReliefF a numeric one; data
    without a (single) class fits none.
    """
    return [name for name, class_type in _CLASS_TYPES.items()
            if isinstance(class_var, class_type)]


def default_method(class_var):
    """Return ReliefF for a discrete class, RReliefF for a numeric one, else
    None."""
    if isinstance(class_var, DiscreteVariable):
        return "ReliefF"
    if isinstance(class_var, ContinuousVariable):
        return "RReliefF"
    return None


def make_scorer(method, *, k_nearest=None, n_iterations=None,
                random_state=0, diff="linear", t_eq=0.04, t_diff=0.10):
    """Return the Orange scorer of variant `method` with the given options.

    Parameters
    ----------
    method : str
        A key of `METHODS`.
    k_nearest : int or None
        Neighbours per class (ReliefF) or in all (RReliefF); None = the
        variant's default. Must be None for Relief.
    n_iterations : int or None
        Number of randomly drawn references; None = every instance once.
    random_state : int or None
        Seed of the reference sampling (None: a fresh one every call).
    diff : str
        Numeric diff function, one of `DIFFS`.
    t_eq, t_diff : float
        Thresholds of the ramp diff, as fractions of the attribute's range.

    Raises
    ------
    ValueError
        For an unknown method, or `k_nearest` given for Relief.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of "
                         + ", ".join(METHODS))
    options = dict(n_iterations=n_iterations, random_state=random_state,
                   diff=diff, t_eq=t_eq, t_diff=t_diff)
    if k_nearest is not None:
        if method not in DEFAULT_K:
            raise ValueError("Relief uses one nearest hit and one nearest "
                             "miss; k applies to ReliefF and RReliefF")
        options["k_nearest"] = k_nearest
    return METHODS[method](**options)
