"""A group's distance rows, their sums (MultiSURF's limits) and its
members, in vector registers.

A group of the SURF family's rules holds its references' distances
instance by instance (:func:`.surf.radius_block`): an instance's
distances to the group's GROUP references are GROUP contiguous doubles.
Each reference's mean and deviation (Urbanowicz et al. 2018, eq. 2) are
sums over the instances in their order, one chain per reference, and
the chains run side by side.  Written as numba loops, the chains live
in an array whose every addition goes through memory; here they are one
LLVM vector of GROUP doubles, held in registers for the whole pass (two
512-bit registers with AVX-512).  Each lane adds the same terms in the
same order as the loop over the instances, so the sums are the same
bits: the reference's own distance is added as -0.0, which leaves a sum
as it is.  The members of the group's sets are read off the same
vectors, an instance's sixteen comparisons one mask of bits
(:func:`lane_members`), and the rows are copied into them from the
distances of every pair an instance at a time (:func:`lane_rows`).
"""
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from ..neighbours.vector_ir import element_address, splat, vector_address

#: references whose rules visit the instances together (their distance
#: rows held at once: GROUP x n float64 per thread; an instance's members
#: of the group are bits of an int64, so at most 63)
GROUP = 16


def _is_distances(array):
    """Whether numba's type `array` is a 2-D C-ordered float64 array (the
    distances an intrinsic here reads or writes by whole rows)."""
    return (isinstance(array, types.Array) and array.ndim == 2
            and array.layout == "C" and array.dtype == types.float64)


def _is_lanes(array, dtype):
    """Whether numba's type `array` is a 1-D array of `dtype` (GROUP
    entries read or written at once)."""
    return (isinstance(array, types.Array) and array.ndim == 1
            and array.dtype == dtype)


def _instances(context, builder, array_type, array):
    """The length of the first axis of `array` (its instances)."""
    view = context.make_array(array_type)(context, builder, array)
    return builder.extract_value(view.shape, 0)


def _lanes(context, builder, array_type, array, index):
    """The GROUP doubles (or int64) from array[index] on, as one LLVM
    vector."""
    element = context.get_value_type(array_type.dtype)
    return builder.load(vector_address(
        context, builder, array_type, array, index,
        ir.VectorType(element, GROUP)), align=8)


def _store_lanes(context, builder, array_type, array, index, value):
    """array[index] and the GROUP - 1 elements after it = the LLVM vector
    `value`."""
    builder.store(value, vector_address(context, builder, array_type, array,
                                        index, value.type), align=8)


def _typed(by_instance, rows, centre, out, centred):
    """The signature and code of :func:`lane_sums` (`centred` False) or
    :func:`lane_squares` (True), None for arrays they do not take."""
    if not (_is_distances(by_instance) and _is_lanes(rows, types.int64)
            and _is_lanes(centre, types.float64)
            and _is_lanes(out, types.float64)):
        return None

    def codegen(context, builder, signature, args):
        table_type, rows_type, centre_type, out_type = signature.args
        table, row_array, centre_array, out_array = args
        zero = context.get_constant(types.intp, 0)
        doubles = ir.VectorType(ir.DoubleType(), GROUP)
        own = _lanes(context, builder, rows_type, row_array, [zero])
        centre = _lanes(context, builder, centre_type, centre_array, [zero])
        negative_zero = ir.Constant(doubles, [-0.0] * GROUP)
        total = cgutils.alloca_once_value(
            builder, ir.Constant(doubles, [0.0] * GROUP))
        n = _instances(context, builder, table_type, table)
        with cgutils.for_range(builder, n) as loop:
            d = _lanes(context, builder, table_type, table,
                       [loop.index, zero])
            if centred:
                d = builder.fsub(d, centre)
                d = builder.fmul(d, d)
            is_own = builder.icmp_signed(
                "==", own, splat(builder, own.type, loop.index))
            term = builder.select(is_own, negative_zero, d)
            builder.store(builder.fadd(builder.load(total), term), total)
        _store_lanes(context, builder, out_type, out_array, [zero],
                     builder.load(total))
        return context.get_dummy_value()
    return types.void(by_instance, rows, centre, out), codegen


@intrinsic
def lane_sums(typingctx, by_instance, rows, centre, out):
    """out[r] = the sum over the instances j, in their order, of
    by_instance[j, r] (the group's distances, n x GROUP in C order), the
    term of j == rows[r] added as -0.0; `centre` unread.  `rows`,
    `centre` and `out` hold GROUP entries."""
    return _typed(by_instance, rows, centre, out, False)


@intrinsic
def lane_squares(typingctx, by_instance, rows, centre, out):
    """out[r] = the sum over the instances j, in their order, of
    (by_instance[j, r] - centre[r]) ** 2, the term of j == rows[r] added
    as -0.0 (:func:`lane_sums`)."""
    return _typed(by_instance, rows, centre, out, True)


@intrinsic
def lane_members(typingctx, by_instance, rows, near, far, with_far, real,
                 members):
    """members[0, j] = the bits 1 << r of the references rows[r] with
    by_instance[j, r] < near[r], j != rows[r]; members[1, j] those with
    by_instance[j, r] > far[r] of the others where `with_far`, else 0;
    each and `real` (the bits of the group's references).  Comparisons
    of NaN are false, as Python's."""
    if not (_is_distances(by_instance) and _is_lanes(rows, types.int64)
            and _is_lanes(near, types.float64)
            and _is_lanes(far, types.float64)
            and isinstance(members, types.Array) and members.ndim == 2
            and members.dtype == types.int64):
        return None

    def codegen(context, builder, signature, args):
        (table_type, rows_type, near_type, far_type, _, real_type,
         members_type) = signature.args
        table, row_array, near_array, far_array = args[:4]
        zero = context.get_constant(types.intp, 0)
        one = context.get_constant(types.intp, 1)
        own = _lanes(context, builder, rows_type, row_array, [zero])
        near = _lanes(context, builder, near_type, near_array, [zero])
        far = _lanes(context, builder, far_type, far_array, [zero])
        with_far = context.cast(builder, args[4], signature.args[4],
                                types.boolean)
        real = context.cast(builder, args[5], real_type, types.int64)
        none = ir.Constant(ir.IntType(GROUP), 0)
        n = _instances(context, builder, table_type, table)
        with cgutils.for_range(builder, n) as loop:
            d = _lanes(context, builder, table_type, table,
                       [loop.index, zero])
            other = builder.icmp_signed(
                "!=", own, splat(builder, own.type, loop.index))
            is_near = builder.and_(other, builder.fcmp_ordered("<", d, near))
            is_far = builder.and_(
                builder.and_(other, builder.not_(is_near)),
                builder.fcmp_ordered(">", d, far))
            for s, lanes in ((zero, is_near), (one, is_far)):
                bits = builder.bitcast(lanes, ir.IntType(GROUP))
                if s is one:
                    bits = builder.select(with_far, bits, none)
                bits = builder.and_(builder.zext(bits, ir.IntType(64)), real)
                builder.store(bits, element_address(
                    context, builder, members_type, args[6],
                    [s, loop.index]))
        return context.get_dummy_value()
    return (types.void(by_instance, rows, near, far, with_far, real,
                       members), codegen)


@intrinsic
def lane_rows(typingctx, table, sources, by_instance):
    """by_instance[j, r] = table[sources[r], j] for every instance j and
    r < GROUP: the group's rows of the distances of every pair, copied
    instance by instance, an instance's GROUP distances gathered into
    one vector and stored at once (`sources` GROUP row numbers)."""
    if not (_is_distances(table) and _is_distances(by_instance)
            and _is_lanes(sources, types.int64)):
        return None

    def codegen(context, builder, signature, args):
        table_type, sources_type, out_type = signature.args
        table_array, source_array, out_array = args
        zero = context.get_constant(types.intp, 0)
        firsts = [element_address(
            context, builder, table_type, table_array,
            [builder.load(element_address(
                context, builder, sources_type, source_array,
                [context.get_constant(types.intp, r)])), zero])
            for r in range(GROUP)]
        doubles = ir.VectorType(ir.DoubleType(), GROUP)
        n = _instances(context, builder, out_type, out_array)
        with cgutils.for_range(builder, n) as loop:
            lanes = ir.Constant(doubles, ir.Undefined)
            for r, first in enumerate(firsts):
                lanes = builder.insert_element(
                    lanes, builder.load(builder.gep(first, [loop.index])),
                    ir.Constant(ir.IntType(32), r))
            _store_lanes(context, builder, out_type, out_array,
                         [loop.index, zero], lanes)
        return context.get_dummy_value()
    return types.void(table, sources, by_instance), codegen
