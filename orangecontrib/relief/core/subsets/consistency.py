"""Liu's consistency measure of attribute sets (numpy only).

Liu, Motoda & Dash (1998), "A monotonic measure for optimal feature
selection": instances that agree on all attributes of S form a pattern; a
pattern's inconsistency count is its size minus the count of its majority
class, and the inconsistency rate is the sum of the counts over n.  The
measure here is ``1 - inconsistency rate`` (larger is better), which is
monotone: more attributes split the patterns finer and never add
inconsistency.

Numeric attributes are discretised into `n_bins` equal-frequency intervals
(as in the RFSM paper); a missing value is one more value of its attribute.
A numeric target (regression) is discretised the same way into
`target_bins` intervals, so that "the same class" has a meaning.
"""
import numpy as np

from ..options import check, check_choice
from ..prepare import TASKS, known_target_rows
from .measure import SetMeasure

__all__ = ["equal_frequency_codes", "inconsistency_rate", "Consistency"]


def equal_frequency_codes(column, n_bins):
    """Codes 0..n_bins-1 of `column` by equal-frequency intervals.

    The cut points are the quantiles i / n_bins (i = 1..n_bins-1) of the
    known values, duplicates removed; a value equal to a cut goes to the
    upper interval.  Missing values (NaN) get the code -1.
    """
    column = np.asarray(column, dtype=float)
    known = column[~np.isnan(column)]
    codes = np.full(len(column), -1, dtype=np.int64)
    if len(known) == 0:
        return codes
    cuts = np.unique(np.quantile(known, np.arange(1, n_bins) / n_bins))
    cuts = cuts[(cuts > known.min())]
    codes[~np.isnan(column)] = np.searchsorted(cuts, known, side="right")
    return codes


def inconsistency_rate(codes, classes):
    """Liu's inconsistency rate of the pattern codes `codes` (n,) with the
    class codes `classes` (n,)."""
    n = len(classes)
    if n == 0:
        return 0.0
    pairs = np.stack([codes, classes], axis=1)
    unique_pairs, pair_counts = np.unique(pairs, axis=0, return_counts=True)
    patterns, pattern_of_pair = np.unique(unique_pairs[:, 0],
                                          return_inverse=True)
    majority = np.zeros(len(patterns), dtype=np.int64)
    np.maximum.at(majority, pattern_of_pair, pair_counts)
    return float(n - majority.sum()) / n


class Consistency(SetMeasure):
    """Liu's consistency, ``1 - inconsistency rate`` of an attribute set.

    Parameters
    ----------
    X : array (n, a)
        Attribute values, NaN for missing; nominal columns hold codes.
    y : array (n,)
        Class codes, or a real target with ``task="regression"``; rows
        with a missing target are left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    task : "classification" or "regression"
    n_bins : int
        Equal-frequency intervals of a numeric attribute (Orange's default
        discretisation uses 4).
    target_bins : int
        Intervals of a numeric target.

    References
    ----------
    Liu, H., Motoda, H., Dash, M. (1998). A monotonic measure for optimal
    feature selection.  ECML-98, 101-106.
    """
    monotone = True

    def __init__(self, X, y, discrete=None, *, task="classification",
                 n_bins=4, target_bins=4):
        check_choice("task", task, TASKS)
        n_bins, target_bins = (check("n_bins", n_bins),
                               check("target_bins", target_bins))
        X, y, discrete, _ = known_target_rows(X, y, discrete)
        self.n_attributes = X.shape[1]
        self.codes = np.empty(X.shape, dtype=np.int64)
        for a in range(X.shape[1]):
            if discrete[a]:
                column = X[:, a]
                self.codes[:, a] = np.where(np.isnan(column), -1,
                                            np.nan_to_num(column, nan=-1))
            else:
                self.codes[:, a] = equal_frequency_codes(X[:, a], n_bins)
        self.classes = (equal_frequency_codes(y, target_bins)
                        if task == "regression" else y.astype(np.int64))
        self._cache = None

    def _patterns(self, subset):
        """Pattern codes 0..P-1 of the instances on `subset` (cached)."""
        key = tuple(subset)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        patterns = np.zeros(len(self.classes), dtype=np.int64)
        for a in subset:
            patterns = self._refine(patterns, a)
        self._cache = (key, patterns)
        return patterns

    def _refine(self, patterns, a):
        pairs = np.stack([patterns, self.codes[:, a]], axis=1)
        return np.unique(pairs, axis=0, return_inverse=True)[1].ravel()

    def evaluate(self, subset):
        """``1 - inconsistency rate`` of `subset`."""
        patterns = self._patterns(sorted(int(a) for a in subset))
        return 1.0 - inconsistency_rate(patterns, self.classes)

    def forward_values(self, subset, candidates):
        """Values of subset + {c}: refine the subset's patterns by c."""
        patterns = self._patterns(sorted(int(a) for a in subset))
        return np.array([1.0 - inconsistency_rate(self._refine(patterns, c),
                                                  self.classes)
                         for c in candidates])
