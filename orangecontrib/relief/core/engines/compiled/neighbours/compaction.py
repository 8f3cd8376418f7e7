"""The columns of a row of ordered distance bits at or below their bounds,
CHUNK columns at a time in vector registers.

The search offers a row of distances to the lists of its columns (each
column's bound its list's last key) and to the row's own lists (one bound
for a run of one group).  Few columns pass; the search first collects
them, then offers each.  A loop over the columns that stores each index
and advances by its test is branch-free, but takes a few instructions a
column.  Here CHUNK columns are tested at once: their bits and bounds
loaded as LLVM vectors (the lanes past the run masked off), compared
unsigned, and the passing columns' indices packed to the front of a
register by LLVM's ``vector.compress`` (``vpcompressd`` with AVX-512,
other instructions elsewhere), which is stored whole: a buffer holds
CHUNK entries beyond what it can be asked for (:func:`hits_buffer`).
Packed in a register, not stored by a masked compressing store, which a
Zen 4 core runs as microcode (3.4 times as slow as the loop, where the
register form took a fifth of its time).

``vector.compress`` came with LLVM 19 (llvmlite 0.45); with an older one
the loop collects the columns.  Either way the columns are the same, in
increasing order.
"""
import numba
import numpy as np
from llvmlite import binding, ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .vector_ir import lane_constants, splat, vector_address

#: the columns tested at once: sixteen 32-bit lanes, one 512-bit register
CHUNK = 16
#: whether LLVM has ``vector.compress`` (LLVM 19 on)
COMPRESS = binding.llvm_version_info >= (19,)


@numba.njit(inline="always", cache=True)
def hits_buffer(width):
    """A buffer for the columns that a compaction of at most `width`
    columns finds (CHUNK more: a chunk's store is whole)."""
    return np.empty(width + CHUNK, np.uint32)


def _compacted(context, builder, signature, args, per_column):
    """The code of :func:`_within_chunk` (`per_column`: each column's
    bound from a table) and :func:`_within_chunk_of` (one bound)."""
    i32 = ir.IntType(32)
    lanes32 = ir.VectorType(i32, CHUNK)
    mask_type = ir.VectorType(ir.IntType(1), CHUNK)
    names = (("bits", "r", "c", "table", "g", "j", "count", "hits", "found")
             if per_column else
             ("bits", "r", "c", "bound", "j", "count", "hits", "found"))
    given = dict(zip(names, zip(args, signature.args)))

    def integer(name):
        value, kind = given[name]
        return context.cast(builder, value, kind, types.intp)

    def address(name, *index):
        array, array_type = given[name]
        return vector_address(context, builder, array_type, array,
                              [integer(i) for i in index], lanes32)
    module = builder.module
    masked_load = cgutils.get_or_insert_function(
        module, ir.FunctionType(lanes32, [lanes32.as_pointer(), i32,
                                          mask_type, lanes32]),
        "llvm.masked.load.v16i32.p0")
    compress = cgutils.get_or_insert_function(
        module, ir.FunctionType(lanes32, [lanes32, mask_type, lanes32]),
        "llvm.experimental.vector.compress.v16i32")
    population = cgutils.get_or_insert_function(
        module, ir.FunctionType(ir.IntType(CHUNK), [ir.IntType(CHUNK)]),
        "llvm.ctpop.i16")
    lane = lane_constants(range(CHUNK))
    live = builder.icmp_unsigned("<", lane, splat(
        builder, lanes32, builder.trunc(integer("count"), i32)))

    def load(where):
        return builder.call(masked_load, [where, ir.Constant(i32, 4), live,
                                          ir.Constant(lanes32, [0] * CHUNK)])
    row = load(address("bits", "r", "c"))
    limit = (load(address("table", "g", "j")) if per_column
             else splat(builder, lanes32, builder.trunc(integer("bound"),
                                                         i32)))
    passing = builder.and_(builder.icmp_unsigned("<=", row, limit), live)
    columns = builder.add(
        splat(builder, lanes32, builder.trunc(integer("j"), i32)), lane)
    packed = builder.call(compress, [columns, passing,
                                     ir.Constant(lanes32, ir.Undefined)])
    builder.store(packed, address("hits", "found"), align=4)
    passed = builder.call(population,
                          [builder.bitcast(passing, ir.IntType(CHUNK))])
    return builder.zext(passed, context.get_value_type(signature.return_type))


@intrinsic
def _within_chunk(typingctx, bits, r, c, table, g, j, count, hits, found):
    """hits[found:] = the columns j + l (l < count <= CHUNK) with
    bits[r, c + l] <= table[g, j + l], in order; returns how many.
    `bits`, `table` and `hits` are uint32 arrays with contiguous rows."""
    return (types.intp(bits, r, c, table, g, j, count, hits, found),
            lambda context, builder, signature, args: _compacted(
                context, builder, signature, args, True))


@intrinsic
def _within_chunk_of(typingctx, bits, r, c, bound, j, count, hits, found):
    """:func:`_within_chunk` with one `bound` for every column."""
    return (types.intp(bits, r, c, bound, j, count, hits, found),
            lambda context, builder, signature, args: _compacted(
                context, builder, signature, args, False))


@numba.njit(inline="always", cache=True)
def _within_in_lanes(bits, r, first, lo, hi, table, g, hits):
    found = 0
    for c in range(lo, hi, CHUNK):
        found += _within_chunk(bits, r, c - first, table, g, c,
                               min(CHUNK, hi - c), hits, found)
    return found


@numba.njit(inline="always", cache=True)
def _within_bound_in_lanes(bits, r, first, lo, hi, bound, hits):
    found = 0
    for c in range(lo, hi, CHUNK):
        found += _within_chunk_of(bits, r, c - first, bound, c,
                                  min(CHUNK, hi - c), hits, found)
    return found


@numba.njit(inline="always", cache=True)
def _within_by_loop(bits, r, first, lo, hi, table, g, hits):
    found = np.uint64(0)
    ufirst = np.uint64(first)  # unsigned: no negative-index checks
    for j in range(np.uint64(lo), np.uint64(hi)):
        hits[found] = j
        found += np.uint64(bits[r, j - ufirst] <= table[g, j])
    return found


@numba.njit(inline="always", cache=True)
def _within_bound_by_loop(bits, r, first, lo, hi, bound, hits):
    found = np.uint64(0)
    ufirst = np.uint64(first)
    for j in range(np.uint64(lo), np.uint64(hi)):
        hits[found] = j
        found += np.uint64(bits[r, j - ufirst] <= bound)
    return found


#: columns_within(bits, r, first, lo, hi, table, g, hits): hits[:count] =
#: the columns j, lo <= j < hi, with bits[r, j - first] <= table[g, j], in
#: increasing order; returns count (`hits` a :func:`hits_buffer`)
columns_within = _within_in_lanes if COMPRESS else _within_by_loop
#: columns_within_bound(bits, r, first, lo, hi, bound, hits): the same
#: with bits[r, j - first] <= bound
columns_within_bound = (_within_bound_in_lanes if COMPRESS
                        else _within_bound_by_loop)
