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

from ..progress import report


def by_columns(data, rule, attributes=None, progress_callback=None):
    """``rule(exact)`` of the data's exact tables: for compact data, of
    each block of columns, the results joined along their last axis.

    `rule` returns an array (..., a) or, with `attributes`, a tuple whose
    items `attributes` marks True where they are such arrays; the others
    (which do not depend on the attributes, a sum of the target's diffs,
    say) are taken from the first block.
    """
    if not hasattr(data, "exact_blocks"):
        return rule(data.exact)
    parts = []
    for start, exact in data.exact_blocks():
        parts.append(rule(exact))
        report(progress_callback,
               (start + exact.values.shape[0]) / data.n_attributes)
    if attributes is None:
        return np.concatenate(parts, axis=-1)
    return tuple(np.concatenate([part[i] for part in parts], axis=-1)
                 if per_attribute else parts[0][i]
                 for i, per_attribute in enumerate(attributes))
