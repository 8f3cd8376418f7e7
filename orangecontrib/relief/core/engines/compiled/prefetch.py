"""Software prefetch: a row of a table brought to the cache before a
kernel reads it.

The hardware prefetcher follows one stream of addresses; a kernel that
reads a few rows side by side, each once and far from the last
(MultiSURF's update: the member of each pair, :func:`.rules.unrolled.
add_pairs`), waits on memory for each new one.  Asking for the row a
few pairs ahead (LLVM's ``llvm.prefetch``, a hint that changes no value)
overlaps that wait with the arithmetic of the pairs before it.
"""
import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

#: bytes of a cache line (x86-64, ARMv8)
CACHE_LINE = 64


@intrinsic
def prefetch(typingctx, array, row, column):
    """Ask for the cache line of array[row, column] (a 2-D array), to be
    read soon: LLVM's ``llvm.prefetch`` (read, high locality, data); no
    effect on any value, and none on a processor without the hint."""
    if not (isinstance(array, types.Array) and array.ndim == 2):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        table = context.make_array(array_type)(context, builder, args[0])
        indices = [context.cast(builder, index, index_type, types.intp)
                   for index, index_type in zip(args[1:],
                                                signature.args[1:])]
        pointer = cgutils.get_item_pointer(context, builder, array_type,
                                           table, indices, wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        hint = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [
                byte_pointer, int32, int32, int32]), "llvm.prefetch.p0i8")
        builder.call(hint, [builder.bitcast(pointer, byte_pointer),
                            ir.Constant(int32, 0), ir.Constant(int32, 3),
                            ir.Constant(int32, 1)])
        return context.get_dummy_value()
    return types.void(array, row, column), codegen


@numba.njit(inline="always", cache=True)
def prefetch_row(table, i):
    """Ask for row i of the C-ordered 2-D `table` (table[i, :]), a cache
    line at a time.  The step is a constant of the table's type, where
    one read off its strides took an integer division at every call."""
    for a in range(0, table.shape[1], CACHE_LINE // table.itemsize):
        prefetch(table, i, a)
