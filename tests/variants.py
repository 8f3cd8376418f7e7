"""The registered variants (``orangecontrib.relief.core.registry``) as the
tests call them: the axes of the cross-cutting matrices, each variant's
literal reference, and a seed of its own for every case.

A matrix parametrizes its test by :data:`each_variant` (every variant),
:data:`each_variant_task` (every variant on each task it handles) or
:data:`each_stir_variant` (every variant that STIR tests), so that a new
variant enters every matrix by its registry entry alone;
``tests/core/test_variants.py`` checks that each matrix of
:data:`MATRICES` covers the whole registry.
"""
import importlib
import inspect
import zlib

import numpy as np
import pytest

from orangecontrib.relief.core.options import RANDOM_STATE
from orangecontrib.relief.core.registry import VARIANTS

#: every registered variant with each task it handles
VARIANT_TASKS = [(variant, task) for variant in VARIANTS
                 for task in variant.tasks]


def taken(variant, **options):
    """The `options` that `variant` takes: a case of a matrix passes the
    others only to the variants that take them."""
    return {name: value for name, value in options.items()
            if name in variant.parameters}


#: options that keep a matrix's case to one repetition of each path, for
#: the variants that repeat a whole weighting: Iter in three rounds (the
#: second weighs the distance by the first's scores, the third by their
#: Widrow-Hoff update, as every later round does); VLS's subsets drawn as
#: Eppstein & Haake drew them, the partition and one random subset (each
#: later subset is scored and maximised alike).  TuRF's default two
#: rounds of removal are already the fewest that rank one round's dropped
#: attributes below the next round's.  The variants' own tests and the
#: generated reference cases keep the defaults: the round count,
#: convergence and the pair design.
ONE_REPETITION = {"Iter": dict(max_rounds=3),
                  "VLS": dict(cover_pairs=False, n_subsets=4)}


def matrix_options(variant, **options):
    """What a case of a matrix passes to `variant`: `options` over the
    variant's :data:`ONE_REPETITION`, those it takes (:func:`taken`)."""
    return taken(variant, **{**ONE_REPETITION.get(variant.name, {}),
                             **options})


def variant_task_id(variant, task):
    """"ReliefF", or "MultiSURF regression" for a variant of both tasks."""
    return variant.name if len(variant.tasks) == 1 else (
        f"{variant.name} {task}")


#: every registered variant whose neighbour pairs STIR tests
STIR_VARIANTS = [variant for variant in VARIANTS if variant.stir is not None]

#: parametrizes a test by `variant`, every registered one
each_variant = pytest.mark.parametrize(
    "variant", VARIANTS, ids=[variant.name for variant in VARIANTS])
#: parametrizes a test by (`variant`, `task`), every variant on each task
each_variant_task = pytest.mark.parametrize(
    "variant, task", VARIANT_TASKS,
    ids=[variant_task_id(*pair) for pair in VARIANT_TASKS])
#: parametrizes a test by `variant`, every one that STIR tests
each_stir_variant = pytest.mark.parametrize(
    "variant", STIR_VARIANTS, ids=[variant.name for variant in STIR_VARIANTS])

#: which variants a kind of matrix runs
MATRIX_KINDS = {"every": lambda variant: True,
                "taking k": lambda variant: variant.takes_k,
                "with STIR": lambda variant: variant.stir is not None}
#: the cross-cutting matrices: (module, test) of the tests that must run
#: every registered variant (on each of its tasks where parametrized by
#: task), every variant that takes k, or every variant that STIR tests
#: (:data:`MATRIX_KINDS`)
MATRICES = {
    ("tests.core.test_input_matrix", "test_data_families"): "every",
    ("tests.core.test_input_matrix", "test_parameter_families"): "every",
    ("tests.core.test_progress", "test_progress_of_every_variant"): "every",
    ("tests.core.test_engine_agreement", "test_identical_weights"): "every",
    ("tests.core.test_ties", "test_row_order_changes_no_weight"): "every",
    ("tests.core.test_extreme_inputs",
     "test_a_huge_k_is_every_instance"): "taking k",
    ("tests.orange.test_input_matrix", "test_scorers"): "every",
    ("tests.core.test_compact",
     "test_compact_input_gives_the_float64_weights"): "every",
    ("tests.core.test_invariances",
     "test_a_constant_attribute_weighs_zero"): "every",
    ("tests.core.test_invariances",
     "test_rescaling_a_numeric_attribute"): "every",
    ("tests.core.test_invariances", "test_float32_and_float64_input"):
        "every",
    ("tests.core.test_reference", "test_core_matches_reference"): "every",
    ("tests.core.test_thread_count",
     "test_weights_do_not_depend_on_the_thread_count"): "every",
    ("tests.orange.test_stir_entries",
     "test_every_entry_gives_the_cores_stir"): "with STIR",
}


def seed_of(*names):
    """A seed of a case's own, from its name(s): a case's data do not
    depend on which other cases run, or in what order."""
    return zlib.crc32(" ".join(names).encode())


def rng_of(*names):
    """numpy's default_rng seeded by :func:`seed_of` (`names`)."""
    return np.random.default_rng(seed_of(*names))


def literal(variant):
    """The slow literal implementation of `variant` (tests/reference)."""
    module, function = variant.reference.rsplit(".", 1)
    return getattr(importlib.import_module(f"tests.reference.{module}"),
                   function)


def literal_weights(variant, X, y, discrete=None, *, task=None, **options):
    """What :meth:`Variant.weights` must return, by the literal reference
    (with the core's default seed)."""
    if "task" in inspect.signature(variant.estimator).parameters:
        options["task"] = variant.tasks[0] if task is None else task
    options.setdefault("random_state", RANDOM_STATE)
    return np.asarray(literal(variant)(X, y, discrete, **options),
                      dtype=np.float64)
