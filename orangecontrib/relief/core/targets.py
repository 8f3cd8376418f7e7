"""The target of every estimator: checked, its rows with a known value
kept, as class codes and priors (classification) or scaled to [0, 1]
(regression); and the nominal mask of the attributes."""
import numpy as np

from .errors import ReliefInputError
from .values import as_real, check_codes

TASKS = ("classification", "regression")


def as_target(y, n):
    """The target `y` of n instances as float64 (n,), NaN where unknown,
    or ReliefInputError: not 1-D, not n values, infinite, or integers
    that float64 cannot tell apart."""
    given = np.asarray(y)
    if sum(size > 1 for size in given.shape) > 1:
        raise ReliefInputError(f"The target must be one value per instance "
                               f"(1-D), got shape {given.shape}.")
    y = np.array(as_real(given, "The target"), dtype=np.float64).ravel()
    if (given.dtype.kind in "iu" and np.any(np.abs(y) >= 2.0 ** 53)
            and len(np.unique(given)) != len(np.unique(y))):
        raise ReliefInputError(
            "The target holds integers beyond 2**53 that are equal as "
            "floating-point numbers; recode them (for classes: 0, 1, 2, ...).")
    if len(y) != n:
        raise ReliefInputError(
            f"X has {n} rows but the target has {len(y)} values.")
    if np.isinf(y).any():
        raise ReliefInputError("The target contains infinite values.")
    return y


def as_nominal_mask(discrete, n_attrs):
    """Which of n_attrs attributes are nominal (`discrete`, or None for
    none), as bool (n_attrs,)."""
    if discrete is None:
        return np.zeros(n_attrs, dtype=bool)
    mask = np.array(discrete, dtype=bool).ravel()
    if len(mask) != n_attrs:
        raise ReliefInputError(f"`discrete` has {len(mask)} entries for "
                               f"{n_attrs} attributes.")
    return mask


def class_groups(y):
    """Class codes 0 .. c - 1 of the class values `y`, c, and the classes'
    priors."""
    check_codes(y, "Class values")
    # as floats: a code beyond int64 (1e300) is a class as any other
    classes, groups, counts = np.unique(y, return_inverse=True,
                                        return_counts=True)
    if len(classes) < 2:
        raise ReliefInputError(
            "The data has a single class; Relief needs instances of at "
            "least two classes to tell relevant attributes from others.")
    return groups.astype(np.int64), len(classes), counts / len(y)


def scaled_target(y):
    """A numeric target scaled to [0, 1] (a range beyond the largest float
    in halves, as :func:`scale_rows`)."""
    low, high = y.min(), y.max()
    if high == low:
        raise ReliefInputError("The target is constant; RReliefF needs a "
                               "target that varies.")
    with np.errstate(over="ignore"):
        span = high - low
    if np.isinf(span):
        return (y / 2 - low / 2) / (high / 2 - low / 2)
    return (y - low) / span


def target_groups(y, task):
    """(groups, n_groups, priors, target) of the known target values `y`
    (:class:`.prepare.PreparedData`): class codes, their number and
    priors, and y itself (classification), or one group and the target
    scaled to [0, 1] (regression)."""
    if task == "classification":
        groups, n_groups, priors = class_groups(y)
        return groups, n_groups, priors, y
    return (np.zeros(len(y), np.int64), 1, np.ones(1), scaled_target(y))
