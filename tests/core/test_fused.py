"""The subtraction and the addition on the multiply-add units
(core/engines/compiled/fused.py): the same floats as x - v and x + v, and
still multiply-adds once LLVM has optimised the kernel (a -1.0 or 1.0 it
could see would be folded back into a subtraction or an addition)."""
import numba
import numpy as np
import pytest

from llvmlite import binding

from orangecontrib.relief.core.engines.compiled.fused import (
    FLOAT_REGISTER, addition, difference, minus_one, plus_one)


def kernel_of(helper, constant):
    """A kernel applying `helper` to pairs with :func:`constant`'s
    value, taken once before the loop as the engine's kernels take it."""
    @numba.njit
    def kernel(x, v):
        out = np.empty_like(x)
        c = constant(x)
        for i in range(len(x)):
            out[i] = helper(x[i], v[i], c)
        return out
    return kernel


#: each operation: its kernel, its constant, its helper, numpy's operation,
#: and the floating-point instruction LLVM must not turn it back into
OPERATIONS = {
    "subtraction": (kernel_of(difference, minus_one), minus_one, difference,
                    np.subtract, "fsub", -1),
    "addition": (kernel_of(addition, plus_one), plus_one, addition, np.add,
                 "fadd", 1),
}


def edge_pairs(dtype):
    """Random pairs and the edges of a subtraction: equal values (+0.0),
    signed zeros, subnormals, the largest floats, values one ulp apart."""
    info = np.finfo(dtype)
    rng = np.random.default_rng(3)
    x = list(rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64))
    v = list(rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64))
    tiny, big = info.smallest_subnormal, info.max
    edges = [(1.5, 1.5), (0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0),
             (tiny, 2 * tiny), (-tiny, tiny), (big, -big / 2),
             (1.0, np.nextafter(dtype(1), dtype(2)))]
    x += [a for a, _ in edges]
    v += [b for _, b in edges]
    return np.array(x, dtype), np.array(v, dtype)


@pytest.mark.parametrize("operation", list(OPERATIONS))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fused_operation_is_the_plain_one_to_the_bit(operation, dtype):
    kernel, constant, helper, plain, _, value = OPERATIONS[operation]
    x, v = edge_pairs(dtype)
    got = kernel(x, v)
    with np.errstate(over="ignore"):
        expected = plain(x, v)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.view(f"u{got.itemsize}"),
                                  expected.view(f"u{got.itemsize}"))
    # and in Python, where the helpers' py_func runs
    assert constant(x) == value and constant(x).dtype == dtype
    assert helper(x[0], v[0], constant(x)) == plain(x[0], v[0])


@pytest.mark.skipif(
    binding.get_process_triple().split("-")[0] not in FLOAT_REGISTER,
    reason="no register constraint for this processor: the constant is "
           "folded")
@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_fused_operation_stays_a_multiply_add(operation):
    kernel, _, _, _, instruction, _ = OPERATIONS[operation]
    x, v = edge_pairs(np.float64)
    kernel(x, v)
    ir = kernel.inspect_llvm(kernel.signatures[0])
    assert "llvm.fma" in ir
    assert instruction not in ir
