"""A key inserted into a sorted search list of LANES keys in vector
registers.

A search list (:mod:`.topk`) takes a key below its last entry with the
branch-free rule entry s <- min(a_s, max(a_(s-1), key)) (a the list
before, a_(-1) below every key).  Numba's loops over the entries run it
one entry at a time, and a vectorised loop over a shifted copy of the
list waits for each copy's stores before it can load it.  Here the list
is one LLVM vector of LANES unsigned 64-bit integers: loaded once,
shifted by one lane in registers, compared with the key and stored once
(LLVM's ``shufflevector``, ``icmp`` and ``select``, which it lowers to
the processor's vector instructions: with AVX-512 a lane shift and an
unsigned minimum and maximum of 64-bit integers per eight keys).  The
entries are those of the rule, to the bit.
"""
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from .vector_ir import lane_constants, splat, vector_address

#: the keys of a list inserted into in vector registers: two 512-bit
#: registers of eight 64-bit keys
LANES = 16


@intrinsic
def insert_in_lanes(typingctx, keys, row, key):
    """keys[row, s] = min(keys[row, s], max(keys[row, s - 1], key)) for
    every s < LANES (keys[row, -1] taken as 0, below every key), all at
    once: `key` enters the sorted row at its place and the last entry
    drops out (a key above the last leaves the row as it is).  `keys` is
    a uint64 array of LANES columns whose rows are contiguous (the caller
    checks ``keys.strides[1] == 8``)."""
    if not (isinstance(keys, types.Array) and keys.ndim == 2
            and keys.dtype == types.uint64):
        return None

    def codegen(context, builder, signature, args):
        keys_type, row_type, key_type = signature.args
        lanes = ir.VectorType(ir.IntType(64), LANES)
        where = vector_address(
            context, builder, keys_type, args[0],
            [context.cast(builder, args[1], row_type, types.intp),
             context.get_constant(types.intp, 0)], lanes)
        entries = builder.load(where, align=8)
        zero = ir.Constant(lanes, [0] * LANES)
        before = builder.shuffle_vector(entries, zero, lane_constants(
            [LANES] + list(range(LANES - 1))))  # a_(s-1), 0 for s = 0
        key_lanes = splat(builder, lanes, context.cast(
            builder, args[2], key_type, types.uint64))
        upper = builder.select(builder.icmp_unsigned(">", before, key_lanes),
                               before, key_lanes)
        builder.store(builder.select(
            builder.icmp_unsigned("<", entries, upper), entries, upper),
            where, align=8)
        return context.get_dummy_value()
    return types.void(keys, row, key), codegen
