"""The subtraction on the multiply-add units (core/engines/compiled/fused.py):
the same float as x - v, and still a multiply-add once LLVM has optimised
the kernel (a -1.0 it could see would be folded back into a subtraction)."""
import numba
import numpy as np
import pytest

from llvmlite import binding

from orangecontrib.relief.core.engines.compiled.fused import (
    FLOAT_REGISTER, difference, minus_one)


@numba.njit
def differences(x, v):
    out = np.empty_like(x)
    minus = minus_one(x)
    for i in range(len(x)):
        out[i] = difference(x[i], v[i], minus)
    return out


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


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_difference_is_the_subtraction_to_the_bit(dtype):
    x, v = edge_pairs(dtype)
    got = differences(x, v)
    with np.errstate(over="ignore"):
        expected = x - v
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.view(f"u{got.itemsize}"),
                                  expected.view(f"u{got.itemsize}"))
    # and in Python, where the helpers' py_func runs
    assert minus_one(x) == -1 and minus_one(x).dtype == dtype
    assert difference(x[0], v[0], minus_one(x)) == x[0] - v[0]


@pytest.mark.skipif(
    binding.get_process_triple().split("-")[0] not in FLOAT_REGISTER,
    reason="no register constraint for this processor: -1.0 is a constant")
def test_difference_stays_a_multiply_add():
    x, v = edge_pairs(np.float64)
    differences(x, v)
    ir = differences.inspect_llvm(differences.signatures[0])
    assert "llvm.fma" in ir
    assert "fsub" not in ir
