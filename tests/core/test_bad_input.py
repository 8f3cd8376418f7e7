"""Bad and degenerate input for the core: a ReliefInputError (a ValueError)
with a clear message, or a sensible result; never a crash or a hang, and
the input arrays are never modified."""
import copy
import re
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import (ReliefInputError, relief, relieff,
                                       rrelieff)
from tests.reference import relief as ref

ALL = [relief, relieff, rrelieff]
CLASSIFIERS = [relief, relieff]


def small_data(n=12, a=3, seed=0, regression=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 17, size=(n, a)) / 16
    X[0], X[1] = 0.0, 1.0
    if regression:
        y = rng.normal(size=n)
    else:
        y = np.arange(n, dtype=float) % 2
    return X, y


def data_for(func, **kw):
    return small_data(regression=func is rrelieff, **kw)


def _snapshot(args, kwargs):
    return copy.deepcopy(args), copy.deepcopy(kwargs)


def _assert_same(before, after):
    for b, a in zip(before, after):
        if isinstance(b, np.ndarray):
            assert_array_equal(a, b)
            assert a.dtype == b.dtype
        elif isinstance(b, dict):
            _assert_same(list(b.values()), list(a.values()))
        elif isinstance(b, (list, tuple)):
            _assert_same(b, a)


def exact(message):
    """A `match` pattern of exactly `message`."""
    return f"^{re.escape(message)}$"


def raises(func, *args, match=None, **kwargs):
    """func(*args, **kwargs) raises ReliefInputError with a message; the
    inputs are unchanged afterwards."""
    before = _snapshot(args, kwargs)
    with pytest.raises(ReliefInputError, match=match) as info:
        func(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    assert len(str(info.value)) > 10, "the message should say what is wrong"
    _assert_same(before[0], args)
    _assert_same([before[1]], [kwargs])
    return str(info.value)


def result(func, *args, **kwargs):
    """func(*args, **kwargs) returns finite float64 weights, one per column;
    the inputs are unchanged afterwards."""
    before = _snapshot(args, kwargs)
    W = func(*args, **kwargs)
    X = np.asarray(args[0])
    assert isinstance(W, np.ndarray) and W.dtype == np.float64
    assert W.shape == (X.shape[1],)
    assert np.all(np.isfinite(W)), W
    _assert_same(before[0], args)
    _assert_same([before[1]], [kwargs])
    return W


def test_error_class_is_a_value_error():
    assert issubclass(ReliefInputError, ValueError)


# ------------------------------------------------------------- errors -----

@pytest.mark.parametrize("func", ALL)
def test_empty_data(func):
    raises(func, np.empty((0, 3)), np.empty(0))


@pytest.mark.parametrize("func", ALL)
def test_no_attributes(func):
    X, y = data_for(func)
    raises(func, X[:, :0], y)


@pytest.mark.parametrize("func", ALL)
def test_all_targets_missing(func):
    X, y = data_for(func)
    raises(func, X, np.full_like(y, np.nan))


@pytest.mark.parametrize("func", CLASSIFIERS)
def test_one_class(func):
    X, y = small_data()
    raises(func, X, np.zeros_like(y))
    # one class left after dropping the rows with a missing class
    y2 = y.copy()
    y2[y2 == 1] = np.nan
    raises(func, X, y2)


def test_rrelieff_constant_target():
    X, y = small_data(regression=True)
    raises(rrelieff, X, np.full_like(y, 3.5))


def test_relief_with_three_classes_points_to_relieff():
    X, y = small_data()
    raises(relief, X, np.arange(len(y), dtype=float) % 3, match="ReliefF")


@pytest.mark.parametrize("func", ALL)
@pytest.mark.parametrize("bad", [np.inf, -np.inf])
def test_infinite_values(func, bad):
    X, y = data_for(func)
    X[3, 1] = bad
    raises(func, X, y)
    X, y = data_for(func)
    y[2] = bad
    raises(func, X, y)


@pytest.mark.parametrize("func", ALL)
def test_bad_diff_option(func):
    X, y = data_for(func)
    for diff in ["cubic", "", "Linear "]:
        raises(func, X, y, diff=diff, match=exact(
            f"diff must be one of 'linear', 'squared', 'ramp', got {diff!r}."))


def test_bad_weighting_option():
    X, y = small_data(regression=True)
    raises(rrelieff, X, y, weighting="gauss", match=exact(
        "weighting must be one of 'exp_rank', 'equal', got 'gauss'."))


@pytest.mark.parametrize("func", ALL)
@pytest.mark.parametrize("weights", [[1.0, -0.5, 1.0], [1.0, np.nan, 1.0],
                                     [1.0, np.inf, 1.0]])
def test_bad_distance_weights(func, weights):
    X, y = data_for(func)
    raises(func, X, y, distance_weights=np.array(weights),
           match="^distance_weights must be finite and >= 0, got ")


@pytest.mark.parametrize("func", ALL)
def test_distance_weights_of_wrong_length(func):
    X, y = data_for(func)
    raises(func, X, y, distance_weights=np.ones(X.shape[1] + 1), match=exact(
        "distance_weights must have one entry per attribute (3), got 4."))


@pytest.mark.parametrize("func", ALL)
def test_t_eq_above_t_diff(func):
    X, y = data_for(func)
    raises(func, X, y, diff="ramp", t_eq=0.2, t_diff=0.1, match=exact(
        "t_eq must be at most t_diff, got t_eq=0.2 and t_diff=0.1."))


@pytest.mark.parametrize("func", ALL)
@pytest.mark.parametrize("m", [0, -3])
def test_n_iterations_below_one(func, m):
    X, y = data_for(func)
    raises(func, X, y, n_iterations=m, random_state=0, match=exact(
        f"n_iterations must be a positive integer or None (every instance "
        f"once), got {m}."))


@pytest.mark.parametrize("func", [relieff, rrelieff])
@pytest.mark.parametrize("k", [0, -1])
def test_k_nearest_below_one(func, k):
    X, y = data_for(func)
    raises(func, X, y, k_nearest=k, match=exact(
        f"k_nearest must be a positive integer, got {k}."))


@pytest.mark.parametrize("func", ALL)
@pytest.mark.parametrize("seed", [-1, 0.5, "0"])
def test_bad_random_state(func, seed):
    X, y = data_for(func)
    raises(func, X, y, n_iterations=5, random_state=seed, match=exact(
        f"random_state must be None, a non-negative integer or a numpy "
        f"Generator, got {seed!r}."))


@pytest.mark.parametrize("func", ALL)
def test_shape_mismatches(func):
    X, y = data_for(func)
    raises(func, X, y[:-1])
    raises(func, X, y, np.zeros(X.shape[1] + 1, dtype=bool))
    with pytest.raises(ValueError):
        func(X[:, 0], y)                        # 1-D X


# ------------------------------------------------ sensible results --------

@pytest.mark.parametrize("k", [5, 50, 1000])
def test_k_larger_than_a_class(k):
    X, y = small_data(n=14)
    y[:] = 0
    y[[3, 8]] = 1                      # class 1 has two members
    y[[5, 11, 12]] = 2
    W = result(relieff, X, y, k_nearest=k)
    assert_allclose(W, ref.relieff(X, y, k_nearest=k), atol=1e-9)


def test_rrelieff_k_larger_than_data():
    X, y = small_data(n=9, regression=True)
    W = result(rrelieff, X, y, k_nearest=100)
    assert_allclose(W, ref.rrelieff(X, y, k_nearest=100), atol=1e-9)


@pytest.mark.parametrize("func", ALL)
@pytest.mark.parametrize("discrete_col", [False, True])
def test_all_nan_and_constant_columns_get_zero(func, discrete_col):
    X, y = data_for(func, a=2)
    X = np.column_stack([X[:, 0], np.full(len(y), np.nan), X[:, 1],
                         np.full(len(y), 2.0)])
    X[3, 2] = np.nan
    discrete = np.array([False, discrete_col, False, discrete_col])
    W = result(func, X, y, discrete)
    assert W[1] == 0.0 and W[3] == 0.0, W
    assert_allclose(W, getattr(ref, func.__name__)(X, y, discrete),
                    atol=1e-9)


@pytest.mark.parametrize("func", CLASSIFIERS)
def test_singleton_class_and_missing_class_rows(func):
    X, y = small_data(n=10)
    y[4] = np.nan
    y[7] = np.nan
    y[:] = np.where(np.isnan(y), np.nan, 0.0)
    y[9] = 1.0                          # a class with one member: no hit
    W = result(func, X, y)
    assert_allclose(W, getattr(ref, func.__name__)(X, y), atol=1e-9)


@pytest.mark.parametrize("func", CLASSIFIERS)
def test_two_rows(func):
    X = np.array([[0.0, 1.0], [1.0, 1.0]])
    y = np.array([0.0, 1.0])
    W = result(func, X, y)
    # no hits; each row's miss is the other: W = diff = [1, 0]
    assert_allclose(W, [1.0, 0.0], atol=1e-12)


def test_rrelieff_every_neighbour_has_the_extreme_target_difference():
    """N_dC == m: the second term is 0/0 (its numerator is 0 too); the
    result is finite (the reference takes such a term as 0)."""
    X = np.array([[0.0], [1.0]])
    y = np.array([1.0, 0.0])
    W = result(rrelieff, X, y, k_nearest=1)
    assert_allclose(W, ref.rrelieff(X, y, k_nearest=1), atol=1e-12)
    # each row's neighbour is the other: N_dC = N_dA = N_dCdA = m = 2
    assert_allclose(W, [1.0], atol=1e-12)


@pytest.mark.parametrize("func", ALL)
def test_integer_inputs_and_list_mask(func):
    X, y = data_for(func)
    Xi = (X * 16).astype(np.int64)
    W = result(func, Xi, y, [False] * X.shape[1])
    assert_allclose(W, func(X, y), atol=1e-12)
    if func is not rrelieff:
        assert_allclose(result(func, X, y.astype(np.int64)), func(X, y),
                        atol=0)


@pytest.mark.parametrize("func", [relieff, rrelieff])
def test_neighbour_lists_beyond_memory(func, monkeypatch):
    """Ten million references of 20 instances: their lists of neighbours
    (6.4 GB: ReliefF's 10 of each of two classes, RReliefF's 20, 32 bytes
    an entry) are refused before the search where the machine (made to
    have 1 GiB here) cannot hold them."""
    import os
    pages = {"SC_PHYS_PAGES": 2 ** 18, "SC_PAGE_SIZE": 2 ** 12}
    monkeypatch.setattr(os, "sysconf", pages.__getitem__)
    X, y = data_for(func, n=20)
    raises(func, X, y, n_iterations=10 ** 7,
           match="n_iterations asks for at least 6 GiB of memory and this "
                 "machine has 1 GiB")


@pytest.mark.parametrize("func", ALL)
def test_many_sampled_iterations_without_seed(func):
    X, y = data_for(func)
    result(func, X, y, n_iterations=500)


@pytest.mark.parametrize("func", ALL)
def test_ramp_with_equal_thresholds_is_a_step(func):
    """Only t_eq > t_diff is forbidden; t_eq == t_diff is the step
    g(d) = 0 for d <= t, 1 for d > t."""
    X, y = data_for(func)
    W = result(func, X, y, diff="ramp", t_eq=0.25, t_diff=0.25)
    expected = getattr(ref, func.__name__)(X, y, diff="ramp", t_eq=0.25,
                                           t_diff=0.25)
    assert_allclose(W, expected, atol=1e-9)


@pytest.mark.parametrize("func", ALL)
def test_t_eq_above_t_diff_with_linear_diff(func):
    """t_eq > t_diff is an error whatever the diff (it is checked even where
    the linear diff does not use the thresholds)."""
    X, y = data_for(func)
    raises(func, X, y, t_eq=0.2, t_diff=0.1, match=exact(
        "t_eq must be at most t_diff, got t_eq=0.2 and t_diff=0.1."))


@pytest.mark.parametrize("func", CLASSIFIERS)
def test_unusual_class_codes_do_not_crash(func):
    """Codes outside 0..C-1 are left open: either a clear ReliefInputError
    or the result the reference gives (never a crash)."""
    X, y = small_data()
    for codes in ([0.0, 2.0], [1.0, 3.0], [0.0, 0.5], [-1.0, 0.0]):
        yc = np.where(y == 0, codes[0], codes[1])
        before = yc.copy()
        try:
            W = func(X, yc)
        except ReliefInputError as e:
            assert len(str(e)) > 10
        else:
            assert_allclose(W, getattr(ref, func.__name__)(X, yc),
                            atol=1e-9)
        assert_array_equal(yc, before)


@pytest.mark.parametrize("func", ALL)
def test_a_target_of_several_columns(func):
    X, y = data_for(func)
    raises(func, X, np.column_stack([y, y]), match=exact(
        f"The target must be one value per instance (1-D), got shape "
        f"({len(y)}, 2)."))
    assert_allclose(result(func, X, y[:, None]), func(X, y), atol=0)


@pytest.mark.parametrize("func", CLASSIFIERS)
def test_class_values_beyond_exact_floats(func):
    """Integers above 2**53 that one float stands for are refused; those
    that floats tell apart are classes as any others."""
    X, y = small_data()
    codes = y.astype(np.int64)
    raises(func, X, codes + 2 ** 53, match="beyond 2[*][*]53")
    assert_allclose(result(func, X, codes * 2 ** 60 + 2 ** 60), func(X, y),
                    atol=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no cast of 1e300 to an integer
        assert_allclose(result(func, X, y * 1e300), func(X, y), atol=0)


def test_a_target_whose_range_is_beyond_the_largest_float():
    X, y = small_data(regression=True)
    y = y / np.abs(y).max()
    assert_allclose(result(rrelieff, X, y * 1.7e308), rrelieff(X, y),
                    atol=1e-12)


@pytest.mark.parametrize("func", ALL)
def test_ragged_rows(func):
    X, y = data_for(func, n=2)
    raises(func, [list(X[0]), list(X[1][:-1])], y,
           match="rectangular array of numbers; its rows differ")


@pytest.mark.parametrize("k, sigma, message", [
    (0, None, "k_nearest must be"), (5, 0.03, "sigma=0.03 is too small")])
def test_rank_weights_that_say_nothing(k, sigma, message):
    X, y = small_data(regression=True)
    raises(rrelieff, X, y, k_nearest=k, sigma=sigma, match=message)


# ------------------------------------- scorers handed to the wrappers -----

def faulty(fault):
    """A scorer of the wrappers' kind: each attribute's score is its value
    in row 0 (so that an attribute keeps its score whatever columns it is
    scored with), changed by ``fault(scores, calls)``, `calls` the number
    of calls before this one."""
    calls = []

    def score(X, y=None, discrete=None, progress_callback=None):
        scores = np.array(X[0], dtype=float)
        calls.append(1)
        return fault(scores, len(calls) - 1)
    return score


def one(value):
    """The fault: attribute 0.4's score (the fifth attribute) is `value`."""
    def fault(scores, calls):
        scores[scores == 0.4] = value
        return scores
    return fault


#: a scorer's faults: name -> (fault, the error's pattern or None: the rule
#: the wrapper documents for such a score)
FAULTS = {
    "a NaN": (one(np.nan), None),
    "+inf": (one(np.inf), None),
    "-inf": (one(-np.inf), None),
    "a 2-D answer": (lambda s, calls: s[None], "(1-D|scores? )"),
    "the length changes": (lambda s, calls: s if calls == 0 else s[1:],
                           "(scores? |weight per attribute)"),
    "complex scores": (lambda s, calls: s + 1j, "(numbers|scores)"),
    "strings": (lambda s, calls: s.astype(str).astype(object) + "x",
                "(numbers|scores)"),
}


def wrapped_data():
    X = np.random.default_rng(9).random((20, 8))
    X[0] = np.arange(8) / 10
    return X, (np.arange(20) % 2).astype(float)


def turf_outcome(score):
    """TuRF's scores: the fifth attribute's, the others' order."""
    from orangecontrib.relief.core.variants.turf import turf
    X, y = wrapped_data()
    scores = turf(score, X, y, fraction=0.5).scores
    rest = np.delete(scores, 4)
    assert np.isfinite(rest).all(), scores
    return scores[4], np.argsort(-rest, kind="stable")


def permutation_outcome(score):
    """The permutation test's weight and p-value of the fifth attribute,
    the others' p-values."""
    from orangecontrib.relief.core.analysis.significance import (
        permutation_test)
    X, y = wrapped_data()
    observed, p = permutation_test(lambda target: score(X, target), y,
                                   n_permutations=9)
    return (observed[4], p[4]), np.delete(p, 4)


#: the wrappers that take a scorer: name -> f(score) -> (what it makes of
#: the fifth attribute, what of the others)
WRAPPERS = {"turf": turf_outcome, "permutation_test": permutation_outcome}
#: the documented rules: what each wrapper makes of the fifth attribute's
#: score (None: what it makes of the number after it), and the number whose
#: place the score takes among the others (the others' outcome is the same
#: as with that number; TuRF drops NaN and -inf first)
RULES = {
    ("turf", "a NaN"): (None, -1.0), ("turf", "+inf"): (np.inf, 9.0),
    ("turf", "-inf"): (None, -1.0),
    ("permutation_test", "a NaN"): ((np.nan, np.nan), -1.0),
    ("permutation_test", "+inf"): ((np.inf, 1.0), 9.0),
    ("permutation_test", "-inf"): ((-np.inf, 1.0), -1.0),
}


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("case", FAULTS)
def test_a_scorer_that_gives_odd_scores(case, wrapper):
    """A NaN or infinite score stays the attribute's own and takes the
    place the documented rule gives it, the others keep theirs; another
    number of scores, or scores that are not real numbers, are a clear
    error."""
    fault, error = FAULTS[case]
    if error is not None:
        raises(WRAPPERS[wrapper], faulty(fault), match=error)
        return
    fifth, place = RULES[wrapper, case]
    got, others = WRAPPERS[wrapper](faulty(fault))
    as_number = WRAPPERS[wrapper](faulty(one(place)))
    assert_array_equal(got, as_number[0] if fifth is None else fifth)
    assert_array_equal(others, as_number[1])
