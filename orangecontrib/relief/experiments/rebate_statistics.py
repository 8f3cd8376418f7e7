"""The ranks of the key variables in the ReBATE experiment, as UrbsLab's
re-benchmark of scikit-rebate 0.8 (2025-26; the ``analysis`` folder of
UrbsLab/scikit-rebate) summarises them beside the power.

* A key variable's **rank** on a replicate is its place when the features
  are sorted by a method's scores, 1 the best (``job_process_rba_rankings.
  py``; here a tie counts against the method,
  :func:`.rebate.feature_ranks`).  The **mean and median rank** of a
  method on a family pool the ranks of every key variable of every
  replicate of the family's configurations (of the shuffle control, of
  every order of every replicate).
* The **Mann-Whitney comparison** (``job_process_mannwhitney.py``): for
  every pair of methods of a family, the two-sided Mann-Whitney U test of
  their pooled ranks (``scipy.stats.mannwhitneyu``, the asymptotic
  p-value), the p-values of the family's pairs adjusted together by
  Benjamini & Hochberg (1995).  UrbsLab add a permutation p-value, not
  computed here.

:class:`.rebate.Results` carries the ranks; this module only reads them.
It imports neither Orange nor Qt.
"""
from itertools import combinations

import numpy as np

from ..core.analysis.significance import adjust


def pooled_ranks(results, group, method, absolute=False):
    """The ranks of every key variable by `method` (with `absolute`:
    ranked by the magnitude of its scores) over every replicate (and
    shuffle) of the configurations of `group` the method applies to."""
    store = results.keys_absolute if absolute else results.keys
    return np.array([rank for c in group for ranks in store[c.path][method]
                     if ranks is not None for rank in ranks], dtype=float)


def mean_ranks(results, group, method, absolute=False):
    """(mean, median, number) of :func:`pooled_ranks`; NaN where the
    method applies to none of the configurations."""
    ranks = pooled_ranks(results, group, method, absolute)
    if not len(ranks):
        return np.nan, np.nan, 0
    return float(ranks.mean()), float(np.median(ranks)), len(ranks)


def seconds_per_data_set(results, group, method):
    """The mean time `method` took on a replicate of `group`, over the
    configurations it applies to (NaN if none)."""
    times = [seconds for c in group
             if results.power(c.path, method) is not None
             for seconds in results.times[c.path][method]]
    return float(np.mean(times)) if times else np.nan


def column_label(method, absolute):
    """The heading of a column of :meth:`.rebate.Results.columns`: the
    method, or ``|method|`` ranked by the magnitude of its scores."""
    return f"|{method}|" if absolute else method


def number(value):
    """A cell of a CSV: empty for NaN."""
    return "" if np.isnan(value) else f"{value:.6g}"


def rank_rows(results):
    """One row per family (:meth:`.rebate.Results.groups`) and column
    (:meth:`.rebate.Results.columns`): the mean and median rank of the key
    variables, how many ranks they pool, the mean power at the top and
    the seconds per data set."""
    rows = []
    for label, group in results.groups():
        for method, absolute in results.columns():
            mean, median, count = mean_ranks(results, group, method,
                                             absolute)
            power = results.mean_power_at_top(group, absolute)[method]
            rows.append(dict(
                family=label, configurations=len(group),
                method=column_label(method, absolute),
                ranking="absolute" if absolute else "signed",
                key_ranks=count, mean_rank=number(mean),
                median_rank=number(median), power_at_top=number(power),
                seconds_per_data_set=number(
                    seconds_per_data_set(results, group, method))))
    return rows


def rank_table(results):
    """The mean rank of the key variables (the median in parentheses), by
    family and column: the lines of a Markdown table."""
    columns = results.columns()
    lines = ["| family (configurations) | "
             + " | ".join(column_label(*column) for column in columns)
             + " |", "|---|" + "---:|" * len(columns)]
    for label, group in results.groups():
        cells = []
        for method, absolute in columns:
            mean, median, _ = mean_ranks(results, group, method, absolute)
            cells.append("n/a" if np.isnan(mean)
                         else f"{mean:.3g} ({median:.3g})")
        lines.append(f"| {label} ({len(group)}) | " + " | ".join(cells)
                     + " |")
    return lines


def mann_whitney(x, y):
    """(U of `x`, the two-sided asymptotic p-value) of the Mann-Whitney
    test of samples `x` and `y` (UrbsLab's call of
    ``scipy.stats.mannwhitneyu``; p is 1 where every value is the
    same)."""
    from scipy.stats import mannwhitneyu

    test = mannwhitneyu(x, y, alternative="two-sided", method="asymptotic")
    return float(test.statistic), float(test.pvalue)


def better_of(first, second, u, n_first, n_second):
    """The method whose key variables rank higher (smaller ranks) by the
    U of the first's ranks: below half the pairs, the first; above, the
    second; at half, neither ("")."""
    half = n_first * n_second / 2
    return first if u < half else second if u > half else ""


def mann_whitney_rows(results):
    """One row per family and pair of columns that apply to it: their
    pooled ranks' sizes and means, U of the first, the two-sided p-value
    and the Benjamini-Hochberg adjusted p-value over the family's pairs,
    and the better of the two (:func:`better_of`)."""
    rows = []
    for label, group in results.groups():
        samples = {column: ranks for column in results.columns()
                   if len(ranks := pooled_ranks(results, group, *column))}
        family = []
        for first, second in combinations(samples, 2):
            x, y = samples[first], samples[second]
            u, p = mann_whitney(x, y)
            names = column_label(*first), column_label(*second)
            family.append(dict(
                family=label, method_1=names[0], method_2=names[1],
                n_1=len(x), n_2=len(y), mean_rank_1=number(x.mean()),
                mean_rank_2=number(y.mean()), u_statistic=number(u),
                p_value=p, p_adjusted=None,
                better=better_of(*names, u, len(x), len(y))))
        if family:
            adjusted = adjust([row["p_value"] for row in family], "bh")
            for row, q in zip(family, adjusted):
                row["p_adjusted"] = number(q)
                row["p_value"] = number(row["p_value"])
        rows += family
    return rows
