"""A label-permutation test of every entry of the interaction map
(:mod:`.interactions`).

The class (or target) is permuted among the instances B times and the map
of the same attributes computed again; an entry's two-sided p-value is

    p = (1 + #{b: |Delta_b| >= |Delta|}) / (1 + B)

(Phipson & Smyth 2010: never 0, valid for any B), by
:func:`..analysis.significance.permutation_test`.  Unlike the t of the references'
shares, it holds its level however the references overlap, and it needs
no class: a numeric target is permuted as well.

What is recomputed is the whole map of the permuted labels, neighbour
pairs included, so that the permuted maps are draws of the observed
map's distribution under no association:

* a SURF-family near set is every instance within a radius of the
  reference, and the radius is a mean of the reference's distances to
  all the others: the pairs and their diffs depend on the attributes
  only, so they are found once and only their multipliers (hit or miss,
  the class sizes in each near set) follow the labels
  (:func:`.neighbour_pairs.relabelled`);
* RReliefF's k nearest are ranked by distance alone: its pairs and their
  rank weights are kept, and only the |y_R - y_I| of its multipliers
  follow the target;
* ReliefF's (and Relief's) pairs are the k nearest *of each class*: which
  instances they are depends on the labels, and keeping the observed
  pairs while relabelling them would test another statistic (pairs
  chosen as the nearest of the observed classes), so the search is done
  again for every permutation; likewise for data with missing values and
  a class (the diffs of a missing value are class-conditional).

The attributes mapped are those chosen on the observed labels; the test
is of each entry of those fixed pairs of attributes.

The permutations are drawn over the instances in the order of their
content (their values, then their label, :func:`..variants.double.content_ranks`),
not in the order of the rows: a table with its rows reordered is
permuted into the same permuted tables, so that the p-values do not
depend on the row order.  The permuted and observed maps are rounded to
:data:`DIGITS` significant digits of the map's largest entry before they
are compared, so that an equal value summed in another order counts as
equal.

References
----------
Phipson, B., Smyth, G. K. (2010). Permutation p-values should never be
zero. Statistical Applications in Genetics and Molecular Biology 9(1).
"""
import numpy as np

from ..variants.double import content_ranks
from .neighbour_pairs import fixed_by_attributes, method_pairs, relabelled
from ..sampling import check_memory
from ..analysis.significance import permutation_test

#: the significant digits (of the map's largest entry) compared
DIGITS = 10


def co_difference_map(diffs, miss, hit):
    """Delta = w+ Cov+ - w- Cov- (:mod:`.interactions`) of the pairs'
    `diffs` (attributes by pairs) with multipliers `miss` (u) and `hit`
    (v)."""
    weights = np.stack([miss, hit], axis=1)
    totals = weights.sum(axis=0)
    sums = diffs @ weights  # one pass over the diffs for both means
    means = np.where(totals > 0, sums / np.where(totals > 0, totals, 1), 0)
    co_difference = (diffs * (miss - hit)) @ diffs.T
    return (co_difference - totals[0] * np.outer(means[:, 0], means[:, 0])
            + totals[1] * np.outer(means[:, 1], means[:, 1]))


def content_order(data):
    """The instances of prepared `data` in the order of their content:
    their values (:func:`..variants.double.content_ranks`), then their label."""
    return np.lexsort((data.target, content_ranks(data.exact.values)))


def permutation_map_test(pairs, X, y, discrete, attributes, search,
                         n_permutations, random_state,
                         progress_callback=None):
    """(p, tested) of every entry of the map of `attributes` (K, K):
    the permutation p-values of |Delta| (the module's docstring), and
    whether the entry is tested: an entry of 0 (a pair with an attribute
    that never differs over the pairs) has no test.

    `pairs` are the observed neighbour pairs of `X`, `y`; `search` the
    options of :func:`.neighbour_pairs.method_pairs` that found them
    (method, task and the rest), for the methods whose pairs follow the
    labels.
    """
    data = pairs.data
    task, method = search["task"], search["method"]
    order = content_order(data)
    y = np.array(y, dtype=np.float64)
    rows = data.kept_rows
    fixed = fixed_by_attributes(method, pairs, task)
    if fixed:
        check_memory("the permutation test's diffs",
                     len(pairs.first) * len(attributes) * 8)
        diffs = diffs_of(pairs, attributes)
    upper = np.triu_indices(len(attributes))
    largest = []

    def entries(target):
        """|Delta| of the labelling `target` (instance ``order[j]`` with
        the label of instance ``target[j]``), the upper triangle."""
        source = np.empty(len(order), np.int64)
        source[order] = target.astype(np.int64)
        if fixed:
            permuted = relabelled(pairs, source, task)
            found = diffs
        else:
            labels = y.copy()
            labels[rows] = y[rows][source]
            permuted = method_pairs(X, labels, discrete, **search)
            found = diffs_of(permuted, attributes)
        magnitude = np.abs(co_difference_map(found, permuted.miss,
                                             permuted.hit)[upper])
        if not largest:
            largest.append(magnitude.max())
        return rounded(magnitude, largest[0])

    observed, p = permutation_test(entries, order.astype(np.float64),
                                   n_permutations, random_state,
                                   progress_callback)
    return square(p, upper, len(attributes)), square(
        observed > 0, upper, len(attributes))


def diffs_of(pairs, attributes):
    """The diffs of `attributes` over `pairs`, (K, pairs), in rows."""
    return np.ascontiguousarray(pairs.kernels.pair_diffs(
        pairs.data.exact, pairs.first, pairs.second, attributes))


def rounded(values, scale):
    """`values` rounded to :data:`DIGITS` significant digits of `scale`
    (values at most `scale`)."""
    if not scale > 0:
        return values
    step = 10.0 ** (np.floor(np.log10(scale)) - DIGITS + 1)
    return np.round(values / step) * step


def square(values, upper, k):
    """The symmetric (k, k) matrix of its upper triangle `values`."""
    matrix = np.zeros((k, k), np.asarray(values).dtype)
    matrix[upper] = values
    matrix.T[upper] = values
    return matrix
