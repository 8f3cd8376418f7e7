"""Step 3 on compact data: a rule applied a block of columns at a time.

Every update rule adds each attribute's terms on its own, in an order
set by the references and their neighbours alone (:mod:`..engines`), so
the rule of an engine applied to the exact tables of a block of columns
(:meth:`.data.CompactData.exact_blocks`) gives those attributes the
weights it gives them from the whole tables, to the bit; the blocks'
results are joined along the attributes.  Memory: one block's float64
tables (:data:`.store.BLOCK_CELLS`).
"""
import numpy as np

from ..progress import report, wrap_callback

#: the share of the progress of a call on compact data that its search
#: reports (the rule, which reads the columns again, reports the rest)
SEARCH_SHARE = 0.5


def is_blocked(data):
    """Whether `data` are compact (their rules read blocks of columns)
    rather than float64 tables in memory."""
    return hasattr(data, "exact_blocks")


def progress_shares(data, progress_callback):
    """The progress callbacks of the search and of the rule: the search
    reports all of it where the rule reads tables in memory; on compact
    data, whose rule reads the columns again, the two share it."""
    if not is_blocked(data):
        return progress_callback, None
    return (wrap_callback(progress_callback, 0.0, SEARCH_SHARE),
            wrap_callback(progress_callback, SEARCH_SHARE, 1.0))


def by_columns(data, rule, attributes=None, progress_callback=None,
               client=None, narrow=False):
    """``rule(exact)`` of the data's exact tables: for compact data, of
    each block of columns, the results joined along their last axis.

    `rule` returns an array (..., a) or, with `attributes`, a tuple whose
    items `attributes` marks True where they are such arrays; the others
    (which do not depend on the attributes, a sum of the target's diffs,
    say) are taken from the first block.  With `narrow`, a rule that
    reads :class:`..tables.NarrowTables` too (ReliefF's and RReliefF's)
    gets them where the data allow (:meth:`.data.CompactData.
    rule_blocks`).  On a Dask `client`'s cluster the blocks are tasks
    (:func:`.cluster.rule_on`).
    """
    if not is_blocked(data):
        return rule(data.exact)
    if client is not None:
        from .cluster import rule_on
        parts = rule_on(client, data, rule, progress_callback, narrow)
    else:
        parts = []
        for start, tables in data.rule_blocks(narrow):
            parts.append(rule(tables))
            report(progress_callback,
                   (start + tables.values.shape[0]) / data.n_attributes)
    if attributes is None:
        return np.concatenate(parts, axis=-1)
    return tuple(np.concatenate([part[i] for part in parts], axis=-1)
                 if per_attribute else parts[0][i]
                 for i, per_attribute in enumerate(attributes))
