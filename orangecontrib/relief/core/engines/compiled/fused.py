"""Subtractions and additions on the processor's multiply-add units, the
same floats.

x - v and fma(v, -1, x) are the same number: the product -v is exact, so
the fused multiply-add rounds x + (-v) once, as the subtraction does
(IEEE 754; x = v gives +0.0 both ways); x + v and fma(x, 1, v) likewise.
Where a kernel's loop is bound by its additions, subtractions and
minima, which share the adder units, moving some of them to the
multiply-add units leaves the adders to the rest.
AMD's Zen cores have two units of each kind; Zen 4 runs a 512-bit
operation on its 256-bit units in turn, and there the SURF family's
distance tile is so bound (:func:`.neighbours.distance_rows.
add_linear_four`), where on Zen 3 it was not, and so is ReliefF's
float32 distance block (:func:`.neighbours.block.add_four_fused`).
Intel's cores run both kinds on the same ports, where the move changes
nothing.

LLVM folds fma(v, -1.0, x) back into a subtraction when it sees the
constant, so a kernel takes its -1.0 from :func:`minus_one` (its 1.0
from :func:`plus_one`), a value the optimiser cannot see through, once
outside its loops, and passes it to :func:`difference` (to
:func:`addition`).  In Python (a helper's ``py_func``) each is what it
stands for: -1.0, 1.0, x - v and x + v.
"""
from llvmlite import binding, ir
from numba.core import types
from numba.extending import intrinsic, overload

#: the inline assembly constraint of a floating-point register, by the
#: start of the target's triple; elsewhere -1.0 is left a constant, which
#: LLVM folds into a subtraction (the same float)
FLOAT_REGISTER = {"x86_64": "x", "aarch64": "w", "arm64": "w"}


def minus_one(array):
    """-1.0 in the dtype of `array`."""
    return array.dtype.type(-1.0)


def difference(x, v, minus):
    """x - v, where `minus` is :func:`minus_one`'s -1.0."""
    return x - v


def plus_one(array):
    """1.0 in the dtype of `array`."""
    return array.dtype.type(1.0)


def addition(x, v, one):
    """x + v, where `one` is :func:`plus_one`'s 1.0."""
    return x + v


@intrinsic
def _opaque_minus_one(typingctx, array):
    """-1.0 of the array's dtype, through an empty inline assembly
    block: a register whose value the optimiser does not know."""
    register = FLOAT_REGISTER.get(binding.get_process_triple().split("-")[0])

    def codegen(context, builder, signature, args):
        float_type = context.get_value_type(signature.return_type)
        value = ir.Constant(float_type, -1.0)
        if register is None:
            return value
        opaque = ir.InlineAsm(ir.FunctionType(float_type, [float_type]), "",
                              f"={register},0")
        return builder.call(opaque, [value])
    return array.dtype(array), codegen


@intrinsic
def _fma(typingctx, a, b, c):
    """a * b + c rounded once (LLVM's ``llvm.fma``)."""
    def codegen(context, builder, signature, args):
        float_type = context.get_value_type(signature.return_type)
        fma = builder.module.declare_intrinsic(
            "llvm.fma", [float_type],
            ir.FunctionType(float_type, [float_type] * 3))
        return builder.call(fma, args)
    return a(a, b, c), codegen


@overload(minus_one, inline="always")
def _minus_one_compiled(array):
    if isinstance(array, types.Array) and isinstance(array.dtype,
                                                     types.Float):
        return lambda array: _opaque_minus_one(array)


@overload(plus_one, inline="always")
def _plus_one_compiled(array):
    if isinstance(array, types.Array) and isinstance(array.dtype,
                                                     types.Float):
        return lambda array: -_opaque_minus_one(array)


@overload(difference, inline="always")
def _difference_compiled(x, v, minus):
    if isinstance(x, types.Float) and x == v == minus:
        return lambda x, v, minus: _fma(v, minus, x)
    return lambda x, v, minus: x - v


@overload(addition, inline="always")
def _addition_compiled(x, v, one):
    if isinstance(x, types.Float) and x == v == one:
        return lambda x, v, one: _fma(x, one, v)
    return lambda x, v, one: x + v
