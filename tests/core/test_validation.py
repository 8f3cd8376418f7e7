"""Options are checked once, where a call enters the core: an entry that
calls other entries passes them options it has checked, to their
``unchecked`` function (``core/validation.py``)."""
from collections import Counter

import numpy as np
import pytest

from orangecontrib.relief.core import options, registry
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.variants import turf, vls
from orangecontrib.relief.core.variants.iterative import iterated
from orangecontrib.relief.core.variants.estimators import relieff
from orangecontrib.relief.core.analysis.resampling import draw_resamples
from orangecontrib.relief.core.validation import validated

#: every kind of declared constraint (an Optional one applies its inner
#: constraint to a value other than None)
KINDS = (options.Integer, options.OneOf, options.Interval, options.Seed,
         options.Flag, options.Names)


@pytest.fixture
def checks(monkeypatch):
    """How many times each option's constraint is applied."""
    counted = Counter()
    for kind in KINDS:
        def counting(self, name, value, check=kind.__call__):
            counted[name] += 1
            return check(self, name, value)
        monkeypatch.setattr(kind, "__call__", counting)
    return counted


def data():
    rng = np.random.default_rng(0)
    return rng.random((30, 6)), np.arange(30.0) % 2


@pytest.mark.parametrize("call, given", [
    (lambda X, y: relieff(X, y, k_nearest=3, random_state=1),
     ["k_nearest", "random_state"]),
    (lambda X, y: significance.stir_and_weights(
        X, y, neighbourhood="multiswrf", deviation="sample",
        random_state=1), ["deviation", "random_state"]),
    (lambda X, y: significance.stir_and_weights(
        X, y, neighbourhood="multisurf", deviation="sample",
        variance="sample"), ["deviation", "variance"]),
    (lambda X, y: vls.vls_relieff(X, y, subset_size=2, k_nearest=3,
                                  random_state=1),
     ["subset_size", "k_nearest", "random_state"]),
    # the wrapped variant's options, once a call, not once a round
    (lambda X, y: turf.turf_relieff(X, y, fraction=0.5, n_keep=2,
                                    k_nearest=3, random_state=1),
     ["fraction", "n_keep", "k_nearest", "random_state"]),
    (lambda X, y: turf.turf_multisurf(X, y, fraction=0.5, n_keep=2,
                                      deviation="sample", diff="ramp",
                                      t_eq=0.1),
     ["fraction", "n_keep", "deviation", "diff", "t_eq"]),
    (lambda X, y: draw_resamples(y.astype(int), 3, resampling="subsample",
                                 subsample=0.5, random_state=1),
     ["n_resamples", "resampling", "subsample", "random_state"]),
    # the options a function passes on (Iter's to every round's variant)
    (lambda X, y: iterated(registry.MULTISURF, X, y, max_rounds=3,
                           deviation="sample", random_state=1),
     ["max_rounds", "deviation", "random_state"]),
], ids=["ReliefF", "STIR of MultiSWRF", "STIR of MultiSURF", "VLSReliefF",
        "TuRF", "TuRF of MultiSURF", "resamples", "Iter"])
def test_an_option_is_checked_once_per_call(checks, call, given):
    call(*data())
    assert {name: checks[name] for name in given} == dict.fromkeys(given, 1)


def test_unchecked_is_the_function_without_its_checks():
    def entry(k_nearest):
        return k_nearest

    checked = validated(entry)
    assert checked.unchecked is entry
    with pytest.raises(ValueError, match="k_nearest must be a positive"):
        checked(0)
    assert checked.unchecked(0) == 0
