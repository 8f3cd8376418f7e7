"""dReliefF and pdReliefF (Prat & Belanche 2006): the core, on each engine,
against the slow literal reference (tests.reference.double), the limits
s -> inf (ReliefF) and s = 0 (dReliefF), eq. 3.5.

Ties.  Both implementations share the places of the candidates tied at
the k-th distance and rank by float64 distance (the compiled engine
searches in float32, then re-ranks exactly).
When the learned weights of two attributes become exactly equal (common with
nominal attributes: equal update histories), two neighbours with *different*
differing attributes can have mathematically equal distances that rounding
orders either way.  The agreement cases therefore use numeric or mixed data,
or nominal data with generic fixed distance weights, where such ties have
probability zero.
"""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import ReliefInputError, prepare, relieff
from orangecontrib.relief.core.variants.double import (DEFAULT_S, area_below,
                                                       content_order, drelieff,
                                                       pdrelieff, solve_s)
from orangecontrib.relief.core.engines import forced
from tests.core.engines import each_engine, on_each_engine
from tests.reference import double as slow

TOL = 1e-6


def random_data(seed, n=24, n_attrs=5, n_classes=3, nominal=0.4,
                missing=0.0):
    """Random mixed data: nominal columns with 2-4 values, numeric floats,
    a fraction `missing` of NaNs (every column keeps a known value), and
    every class present."""
    rng = np.random.default_rng(seed)
    discrete = rng.random(n_attrs) < nominal
    X = rng.random((n, n_attrs))
    for col in np.flatnonzero(discrete):
        X[:, col] = rng.integers(0, rng.integers(2, 5), n)
    holes = rng.random((n, n_attrs)) < missing
    holes[0] = False
    X[holes] = np.nan
    y = np.arange(n) % n_classes
    rng.shuffle(y)
    return X, y.astype(float), discrete


CASES = [
    # seed, data options, algorithm options
    (0, {}, {}),
    (1, dict(n_classes=2, nominal=0.0), dict(k_nearest=3)),
    # all nominal: generic fixed weights (see the module docstring), no
    # two sets of them with equal sums
    (2, dict(nominal=1.0), dict(k_nearest=4, distance_weights=[
        0.93, 1.21, 0.77, 1.09, 1.43])),
    (3, dict(missing=0.2), dict(k_nearest=5)),
    (4, dict(missing=0.15, n_classes=4, n=30), dict(k_nearest=2)),
    (5, dict(n_attrs=8), dict(k_nearest=3, diff="ramp", t_eq=0.1,
                              t_diff=0.4)),
    (6, dict(missing=0.1), dict(k_nearest=3, diff="squared",
                                clip_negative=False)),
    (7, dict(), dict(k_nearest=3, n_iterations=40, random_state=3)),
    (8, dict(missing=0.1), dict(k_nearest=6, distance_weights=[
        0.5, 2.0, 0.0, 1.0, 3.0])),
    (9, dict(n_classes=2, n=12), dict(k_nearest=10)),  # classes run short
]


@pytest.mark.parametrize("seed, data_kw, kw", CASES)
def test_drelieff_agrees_with_literal_reference(seed, data_kw, kw):
    X, y, discrete = random_data(seed, **data_kw)
    expected = slow.double_relieff(X, y, discrete, mode="double", **kw)
    for engine, got in on_each_engine(
            lambda: drelieff(X, y, discrete, **kw)).items():
        assert_allclose(got, expected, atol=TOL, err_msg=engine)


@pytest.mark.parametrize("seed, data_kw, kw", CASES)
@pytest.mark.parametrize("a, s", [(2.0, DEFAULT_S), (1.0, 0.5), (3.0, 0.01)])
def test_pdrelieff_agrees_with_literal_reference(seed, data_kw, kw, a, s):
    X, y, discrete = random_data(seed + 100, **data_kw)
    expected = slow.double_relieff(X, y, discrete, mode="progressive", a=a,
                                   s=s, **kw)
    for engine, got in on_each_engine(
            lambda: pdrelieff(X, y, discrete, a=a, s=s, **kw)).items():
        assert_allclose(got, expected, atol=TOL, err_msg=engine)


def test_missing_targets_are_dropped():
    X, y, discrete = random_data(11, missing=0.1)
    y[[2, 5]] = np.nan
    expected = slow.double_relieff(X, y, discrete, mode="double", k_nearest=3)
    for engine, got in on_each_engine(
            lambda: drelieff(X, y, discrete, k_nearest=3)).items():
        assert_allclose(got, expected, atol=TOL, err_msg=engine)


LIMIT_CASES = [(20, {}), (21, dict(missing=0.2)), (22, dict(nominal=1.0)),
               (23, dict(n=300, n_attrs=12, missing=0.05))]


@each_engine
@pytest.mark.parametrize("seed, data_kw", LIMIT_CASES)
@pytest.mark.parametrize("s", [np.inf, 1e300])
def test_huge_s_is_exactly_relieff(engine, seed, data_kw, s):
    """With the rows in the order of their content (the order pdReliefF
    takes its references in), ReliefF adds the same updates in the same
    order: to the bit."""
    X, y, discrete = random_data(seed, **data_kw)
    data = prepare(X, y, discrete)
    rows = data.kept_rows[content_order(data)]
    X, y = X[rows], y[rows]
    with forced(engine):
        assert_array_equal(pdrelieff(X, y, discrete, k_nearest=4, s=s),
                           relieff(X, y, discrete, k_nearest=4))


@each_engine
@pytest.mark.parametrize("seed, data_kw", LIMIT_CASES)
@pytest.mark.parametrize("clip", [True, False])
def test_zero_s_is_exactly_drelieff(engine, seed, data_kw, clip):
    X, y, discrete = random_data(seed, **data_kw)
    with forced(engine):
        assert_array_equal(
            pdrelieff(X, y, discrete, k_nearest=4, s=0.0,
                      clip_negative=clip),
            drelieff(X, y, discrete, k_nearest=4, clip_negative=clip))


@each_engine
def test_first_reference_uses_the_relieff_distance(engine):
    """With one reference there is no estimate yet: all three agree."""
    X, y, discrete = random_data(30, missing=0.1)
    kw = dict(k_nearest=3, n_iterations=1, random_state=5)
    with forced(engine):
        expected = relieff(X, y, discrete, **kw)
        assert_array_equal(drelieff(X, y, discrete, **kw), expected)
        assert_array_equal(pdrelieff(X, y, discrete, **kw), expected)


def test_variants_differ_from_relieff_on_noisy_data():
    rng = np.random.default_rng(31)
    X = rng.random((60, 10))
    y = (X[:, 0] > 0.5).astype(float)
    plain = relieff(X, y)
    assert not np.allclose(drelieff(X, y), plain)
    assert not np.allclose(pdrelieff(X, y), plain)


def test_progress_is_reported_and_does_not_change_the_result():
    X, y, discrete = random_data(40, n=50, missing=0.1)
    seen = []
    with_progress = pdrelieff(X, y, discrete, k_nearest=3,
                              progress_callback=seen.append)
    assert_array_equal(with_progress, pdrelieff(X, y, discrete, k_nearest=3))
    assert seen == sorted(seen) and seen[-1] == 1 and len(seen) > 5


def test_progress_callback_can_stop_the_run():
    X, y, discrete = random_data(41)

    def stop(_):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        drelieff(X, y, discrete, progress_callback=stop)


def test_inputs_are_not_modified():
    X, y, discrete = random_data(42, missing=0.1)
    copies = X.copy(), y.copy(), discrete.copy()
    pdrelieff(X, y, discrete)
    for before, after in zip(copies, (X, y, discrete)):
        assert_array_equal(before, after)


@pytest.mark.parametrize("kw", [dict(s=-1.0), dict(s=np.nan), dict(a=-2.0),
                                dict(a=np.inf), dict(k_nearest=0),
                                dict(distance_weights=[1, 1, -1, 1, 1])])
def test_bad_options(kw):
    X, y, discrete = random_data(43)
    with pytest.raises(ReliefInputError):
        pdrelieff(X, y, discrete, **kw)


def test_single_class_is_an_error():
    X, _, discrete = random_data(44)
    with pytest.raises(ReliefInputError):
        drelieff(X, np.zeros(len(X)), discrete)


# --- eq. 3.5 -------------------------------------------------------------

def test_solve_s_gives_the_papers_value():
    s = solve_s(2, 1 / 3)
    assert s == pytest.approx(0.0633657, abs=5e-8)
    # for a = 2 the fraction has the closed form sqrt(s) atan(1 / sqrt(s))
    assert np.sqrt(s) * np.arctan(1 / np.sqrt(s)) == pytest.approx(1 / 3,
                                                                  abs=1e-12)


def test_solve_s_for_other_exponents_and_fractions():
    # a = 1: integral_0^1 s / (u + s) du = s log((1 + s) / s)
    for fraction in (0.2, 1 / 3, 0.7):
        s = solve_s(1, fraction)
        assert s * np.log((1 + s) / s) == pytest.approx(fraction, abs=1e-10)
    # more area below f needs a larger s; a steeper c(t) a smaller one
    assert solve_s(2, 0.5) > solve_s(2, 1 / 3) > solve_s(2, 0.2)
    assert solve_s(3) < solve_s(2) < solve_s(1)


def test_literal_bounds_depend_on_m_and_tend_to_the_limit():
    values = [solve_s(2, m=m) for m in (10, 100, 10000)]
    assert values[0] > values[1] > values[2] > solve_s(2)
    assert values[2] == pytest.approx(solve_s(2), rel=1e-3)
    # the m-version is eq. 3.5 integrated numerically with w cancelled out
    s, m, w = values[1], 100, 0.3
    t = np.linspace(1, m, 200001)
    f = (w - 1) * (t / m) ** 2 / ((t / m) ** 2 + s) + 1
    area_f = np.trapezoid(f, t)
    ratio = (area_f - w * (m - 1)) / ((m - 1) - w * (m - 1))
    assert ratio == pytest.approx(1 / 3, abs=1e-6)


def test_area_below_limits():
    assert area_below(0.0, 2) == 0 and area_below(np.inf, 2) == 1
    assert area_below(1e-9, 2) < 1e-3 and area_below(1e9, 2) > 0.999


@pytest.mark.parametrize("kw", [dict(area_fraction=0), dict(area_fraction=1),
                                dict(area_fraction=np.nan), dict(a=0),
                                dict(a="2"), dict(m=1), dict(m=np.nan),
                                dict(m=2.5)])
def test_solve_s_bad_input(kw):
    with pytest.raises(ReliefInputError):
        solve_s(**kw)
