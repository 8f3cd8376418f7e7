"""Every registered variant (orangecontrib.relief.core.registry) is in
every cross-cutting matrix of the tests (tests.variants.MATRICES) of its
kind (tests.variants.MATRIX_KINDS): a new
variant is tested everywhere by its registry entry alone, and no matrix
leaves one out."""
import importlib

import pytest

from tests.variants import MATRICES, MATRIX_KINDS, VARIANT_TASKS, VARIANTS


def covered(module, test):
    """The variants (with their tasks where the matrix has them) that
    `test` of `module` is parametrized by."""
    function = getattr(importlib.import_module(module), test)
    found = set()
    for mark in function.pytestmark:
        if mark.name != "parametrize":
            continue
        for values in mark.args[1]:
            values = getattr(values, "values", values)  # a pytest.param's
            values = values if isinstance(values, tuple) else (values,)
            if values and values[0] in VARIANTS:
                found.add(values[:2] if len(values) > 1 else values[0])
    return found


@pytest.mark.parametrize("module, test", MATRICES)
def test_every_variant_is_in_every_matrix(module, test):
    found = covered(module, test)
    expected = {pair for pair in VARIANT_TASKS
                if MATRIX_KINDS[MATRICES[module, test]](pair[0])}
    if all(not isinstance(item, tuple) for item in found):
        expected = {variant for variant, _ in expected}
    assert found == expected, sorted(
        getattr(item, "name", None) or item[0].name for item in
        found ^ expected)
