"""The vectorised engine's distances: references' diffs to every
instance, attribute by attribute, summed in attribute order.

The diffs are those of :mod:`...formulas.diffs`.  Distances are computed
in tiles of a few references by a run of instances, TILE entries, small
enough that a tile and an attribute's diffs stay in the processor's
cache while every attribute is added to it, and large enough that
numpy's passes over them (subtract, abs, add) outweigh the cost of its
calls.  Each tile adds
the terms in the compiled engine's order, 0 + w_1 d_1 + w_2 d_2 + ..., a
weight of 1 without its multiplication (which changes nothing), so both
engines' distances are the same floats.
"""
import numpy as np

from ...formulas.diffs import transform
from ...tables import RAMP, SQUARED

#: entries of a tile (references x instances): with the attribute's
#: diffs, 4 MB.  Processor time of a block of 2 ** 20 distances, the least
#: of 6 interleaved rounds on a 2-core AMD EPYC (Zen 3) shared with other
#: work, in ns per reference x instance x attribute, at 2 ** 16 / 2 ** 17
#: / 2 ** 18 / 2 ** 19 / 2 ** 20 entries: 1.04 / 0.97 / 0.77 / 1.01 / 1.67
#: on 20000 x 50, 1.04 / 0.86 / 0.84 / 1.36 / 2.23 on 5000 x 100
TILE = 2 ** 18


class Rows:
    """The diffs and distances of references to every instance of the
    exact tables `exact`, a tile at a time.

    `weights` (a,) are the distance's attribute weights (None: all 1);
    `order` (n,), if given, the instances in the order of the columns of
    every result (column p holds instance order[p]).  The values are
    copied once into rows of contiguous instances, and the instances
    missing each attribute listed once, for every tile.
    """

    def __init__(self, exact, weights=None, order=None):
        self.exact = exact
        self.values = np.ascontiguousarray(exact.values)
        n_attrs, self.n = self.values.shape
        self.order = np.arange(self.n) if order is None else order
        self.columns = (self.values if order is None
                        else np.ascontiguousarray(self.values[:, order]))
        if weights is None:
            weights = np.ones(n_attrs)
        self.terms = [(a, float(weights[a])) for a in np.flatnonzero(weights)]
        self.gaps = [np.flatnonzero(np.isnan(self.columns[a]))
                     if exact.slot[a] >= 0 else None
                     for a in range(n_attrs)]
        self.width = min(self.n, TILE)

    def tiles(self, n_rows):
        """(first, last, start, stop): the tiles of `n_rows` references,
        rows first:last by instances start:stop."""
        height = max(1, TILE // max(self.width, 1))
        for first in range(0, n_rows, height):
            last = min(first + height, n_rows)
            for start in range(0, self.n, self.width):
                yield first, last, start, min(start + self.width, self.n)

    def diffs(self, a, rows, start, stop, out):
        """out[r, p - start] = diff(A_a, I_rows[r], I_order[p]), start <= p
        < stop.

        Where a value is missing the RELIEF-D table is read: a missing
        instance value first, then a missing reference value over it (both
        missing: the reference's entry, as
        :func:`...formulas.diffs.attribute_diffs` and the compiled kernels
        choose)."""
        exact = self.exact
        x = self.values[a, rows, None]
        y = self.columns[a, None, start:stop]
        if exact.nominal[a]:
            np.not_equal(x, y, out=out)
        else:
            np.subtract(x, y, out=out)
            np.abs(out, out=out)
            if exact.kind == SQUARED:
                out *= out
            elif exact.kind == RAMP:
                out[:] = transform(out, RAMP, exact.t_eq, exact.t_diff)
        gaps = self.gaps[a]
        if gaps is None or not len(gaps):
            return out
        table, groups = exact.relief_d[exact.slot[a]], exact.groups
        columns = gaps[(gaps >= start) & (gaps < stop)]
        instances = self.order[columns]
        out[:, columns - start] = table[groups[instances][None, :],
                                        rows[:, None]]
        missing = np.flatnonzero(np.isnan(x[:, 0]))
        out[missing] = table[groups[rows[missing]][:, None],
                             self.order[None, start:stop]]
        return out

    def distances(self, rows, out, running=False):
        """out[r, j] = sum_A w_A diff(A, I_rows[r], I_j) for every instance
        j, the terms added in attribute order (eq. 2.1, 3.1), as the
        compiled engine's exact distance adds them; returns `out`.  With
        `running`, the terms are added to the sums `out` holds (those of
        the attributes before these, :mod:`...compact`), which continues
        the sum in attribute order."""
        rows = np.asarray(rows)
        term, buffer = np.empty(TILE), np.empty(TILE)
        for first, last, start, stop in self.tiles(len(rows)):
            shape = (last - first, stop - start)
            whole = stop - start == self.n  # rows of `out`: contiguous
            total = (out[first:last] if whole
                     else buffer[:shape[0] * shape[1]].reshape(shape))
            if not running:
                total[:] = 0.0
            elif not whole:
                total[:] = out[first:last, start:stop]
            diff = term[:total.size].reshape(shape)
            for a, w in self.terms:
                self.diffs(a, rows[first:last], start, stop, diff)
                if w != 1.0:
                    diff *= w
                total += diff
            if not whole:
                out[first:last, start:stop] = total
        return out


def distances(exact, weights, rows):
    """D[r, j] = sum_A w_A diff(A, I_rows[r], I_j) for every instance j,
    the terms added in attribute order (eq. 2.1, 3.1), as the compiled
    engine's exact distance adds them."""
    rows = np.asarray(rows)
    return Rows(exact, weights).distances(
        rows, np.empty((len(rows), exact.values.shape[1])))


def reference_distances(rows, references, nominal, kind, t_eq, t_diff, out):
    """The vectorised engine's :meth:`..interface.Engine.reference_distances`:
    an attribute at a time over every row and reference."""
    out[:] = 0.0
    for a in range(rows.shape[1]):
        if nominal[a]:
            out += rows[:, a, None] != references[None, :, a]
        else:
            out += transform(np.abs(references[None, :, a] - rows[:, a, None]),
                             kind, t_eq, t_diff)
