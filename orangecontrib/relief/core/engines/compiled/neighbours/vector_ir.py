"""The LLVM IR pieces of the vector intrinsics (:mod:`.lanes`,
:mod:`.compaction`, :mod:`..rules.group_lanes`): a value in every lane, a
constant vector of lane numbers, an array element's address, and the
vector that starts there."""
from llvmlite import ir
from numba.core import cgutils


def lane_constants(values):
    """The integers `values` as an LLVM constant vector of i32 (a
    shuffle's lane numbers, or a vector's)."""
    return ir.Constant(ir.VectorType(ir.IntType(32), len(values)),
                       list(values))


def splat(builder, vector, value):
    """`value` in every lane of the LLVM vector type `vector`."""
    one = builder.insert_element(ir.Constant(vector, ir.Undefined), value,
                                 ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(one, ir.Constant(vector, ir.Undefined),
                                  lane_constants([0] * vector.count))


def element_address(context, builder, array_type, array, index):
    """The LLVM pointer to `array`[index] (intp values, one per
    dimension), unchecked."""
    view = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer(context, builder, array_type, view,
                                    index, wraparound=False)


def vector_address(context, builder, array_type, array, index, vector):
    """The LLVM pointer to the LLVM vector type `vector` that starts at
    `array`[index] (:func:`element_address`)."""
    return builder.bitcast(
        element_address(context, builder, array_type, array, index),
        vector.as_pointer())
