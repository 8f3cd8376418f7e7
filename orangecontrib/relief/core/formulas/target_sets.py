"""Differences of several targets at once: the diff of two instances'
target vectors (multi-target regression) or label sets (multi-label
classification), and Clus's rule for missing attribute values.

Multi-target regression (Petkovic, Kocev & Dzeroski 2020, Machine
Learning 109, eq. 3): the targets' diff is the mean of their range-scaled
absolute differences, ``d_T(i, j) = 1/t sum_s |y_is - y_js|``.

Multi-label classification (Reyes, Morell & Ventura 2015,
Neurocomputing 161, section 3; the label-set losses of Clus's
``MultiLabelDistance``), the labels 0/1, L of them:

* ``hamming``: the share of the labels on which i and j differ;
* ``accuracy``: 1 - |Y_i & Y_j| / |Y_i | Y_j| (0 for two empty sets);
* ``f1``: 1 - 2 |Y_i & Y_j| / (|Y_i| + |Y_j|) (0 for two empty sets);
* ``subset``: 0 for equal label sets, 1 otherwise.

Clus's missing values (``ClusReliefFeatureRanking.computeDistance1D``,
after Weka's ReliefF), the alternative to Kononenko's RELIEF-D: a nominal
value missing on either side differs by 1 - 1/V (V the attribute's
values); a numeric value x (scaled to [0, 1]) against a missing one by
max(x, 1 - x), two missing ones by 1.
"""
import numpy as np

#: the label-set distances of multi-label ReliefF, the first the default
LABEL_DISTANCES = ("hamming", "accuracy", "f1", "subset")


def target_diffs(Yi, Yj):
    """(E,): the mean over the targets of |Yi - Yj|, rows of range-scaled
    targets (E, t) (Petkovic et al. 2020, eq. 3)."""
    return np.abs(Yi - Yj).mean(axis=1)


def label_set_diffs(Yi, Yj, distance):
    """(E,): the `distance` (:data:`LABEL_DISTANCES`) of the label sets
    Yi and Yj, rows of 0/1 labels (E, L)."""
    if distance == "hamming":
        return target_diffs(Yi, Yj)
    if distance == "subset":
        return (Yi != Yj).any(axis=1).astype(np.float64)
    both = (Yi * Yj).sum(axis=1)
    if distance == "accuracy":
        union = (Yi + Yj - Yi * Yj).sum(axis=1)
        ratio = both / np.where(union > 0, union, 1.0)
    else:  # f1
        sizes = Yi.sum(axis=1) + Yj.sum(axis=1)
        ratio = 2 * both / np.where(sizes > 0, sizes, 1.0)
    return np.where(both + (Yi + Yj).sum(axis=1) > 0, 1 - ratio, 0.0)


def clus_missing_table(scaled, nominal, n_values):
    """The diff of an instance missing attribute A against each instance
    j by Clus's rule, as the exact tables' ``relief_d[A, 0, j]`` holds
    RELIEF-D's (one group): (a, 1, n), for data `scaled` (n, a; numeric
    columns in [0, 1], NaN missing), `n_values` (a,) the values of each
    nominal attribute."""
    values = scaled.T
    numeric = np.where(np.isnan(values), 1.0, np.maximum(values, 1 - values))
    nominal_diff = (1 - 1 / np.maximum(n_values, 1))[:, None]
    table = np.where(nominal[:, None], nominal_diff, numeric)
    return np.asfortranarray(table[:, None, :])
