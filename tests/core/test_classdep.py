"""CDRelief and IWCDRelief (Qiu & He 2019) in the core, on each engine,
against the literal slow reference (tests.reference.classdep) and their
properties.

Grid data (values k/16 with 0 and 1 in every numeric column) make every
squared diff and every distance exact in float32 and float64, so neighbour
ties are real ties and test the lower-index rule; the "generic" cases use
ordinary random floats and missing values.  Agreement: 1e-6 absolute.
"""
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import ReliefInputError, relieff
from orangecontrib.relief.core.variants.classdep import (
    ClassDependentRelief, cdrelief, iwcdrelief, prior_summary)
from tests.core.engines import on_each_engine
from tests.reference import classdep as slow
from tests.reference import relief as ref

GRID = 16
SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.data_too_large])
# thresholds that no mean-distance ratio on the grid equals exactly
THRESHOLDS = [0.0, 0.23, 0.47, 0.71, 0.93]


def make_case(seed, n_classes=2, generic=False, missing=False, nominal=True):
    """(X, y, discrete) of 8..20 rows, 1..4 attributes, all classes present."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 21))
    a = int(rng.integers(1, 5))
    discrete = (rng.random(a) < 0.3) & nominal
    X = np.empty((n, a))
    for A in range(a):
        if discrete[A]:
            X[:, A] = rng.integers(0, int(rng.integers(2, 5)), n)
        elif generic:
            X[:, A] = rng.normal(size=n) * 3
        else:
            col = rng.integers(0, GRID + 1, n)
            i, j = rng.choice(n, 2, replace=False)
            col[i], col[j] = 0, GRID
            X[:, A] = col / GRID
    y = np.concatenate([np.arange(n_classes),
                        rng.integers(0, n_classes, n - n_classes)])
    y = rng.permutation(y).astype(float)
    if missing:
        X[rng.random((n, a)) < 0.15] = np.nan
        y[rng.integers(0, n)] = np.nan  # a row without class is dropped
    return X, y, discrete


CASES = ([("grid", 2, s) for s in range(8)]
         + [("grid", 3, s) for s in range(5)]
         + [("generic", 2, s) for s in range(4)]
         + [("missing", 2, s) for s in range(3)]
         + [("missing", 4, s) for s in range(3)])


def _case(kind, n_classes, seed):
    return make_case(1000 * n_classes + seed, n_classes,
                     generic=kind != "grid", missing=kind == "missing")


def _options(seed):
    rng = np.random.default_rng(seed)
    options = dict(k_nearest=int(rng.integers(1, 6)),
                   diff=["linear", "squared", "ramp"][seed % 3])
    if seed % 4 == 1:
        options["n_iterations"] = int(rng.integers(1, 12))
        options["random_state"] = seed
    if seed % 5 == 2:
        options["distance_weights"] = rng.choice([0.0, 0.5, 1.0, 2.0],
                                                 size=4)
    return options


def _fit_weights(options, a):
    if "distance_weights" in options:
        options = dict(options, distance_weights=options["distance_weights"][:a])
    return options


@pytest.mark.parametrize("kind, n_classes, seed", CASES)
def test_cdrelief_matches_reference(kind, n_classes, seed):
    X, y, discrete = _case(kind, n_classes, seed)
    options = _fit_weights(_options(seed), X.shape[1])
    expected = slow.cdrelief(X, y, discrete, **options)
    for engine, got in on_each_engine(
            lambda: cdrelief(X, y, discrete, **options)).items():
        assert_allclose(got, expected, atol=1e-6, rtol=0, err_msg=engine)


@pytest.mark.parametrize("kind, n_classes, seed", CASES)
@pytest.mark.parametrize("update", ["as_printed", "as_text"])
def test_iwcdrelief_matches_reference(kind, n_classes, seed, update):
    X, y, discrete = _case(kind, n_classes, seed)
    options = _fit_weights(_options(seed), X.shape[1])
    threshold = THRESHOLDS[seed % len(THRESHOLDS)]
    expected = slow.iwcdrelief(X, y, discrete, threshold=threshold,
                               update=update, **options)
    for engine, got in on_each_engine(
            lambda: iwcdrelief(X, y, discrete, threshold=threshold,
                               update=update, **options)).items():
        assert_allclose(got, expected, atol=1e-6, rtol=0, err_msg=engine)


def test_reference_agreement_is_not_vacuous():
    """Across the cases, references fall on both sides of eq. 6's test and
    get both IW values (so both branches and eq. 5 were compared)."""
    seen = set()
    for kind, n_classes, seed in CASES:
        X, y, discrete = _case(kind, n_classes, seed)
        options = _fit_weights(_options(seed), X.shape[1])
        threshold = THRESHOLDS[seed % len(THRESHOLDS)]
        ctx, _ = ref.prepare(X, y, discrete, "squared", 0.04, 0.1,
                             options.get("distance_weights"), False)
        k = options["k_nearest"]
        for x in range(ctx.n):
            same = [i for i in range(ctx.n) if ctx.group[i] == ctx.group[x]]
            other = [i for i in range(ctx.n) if ctx.group[i] != ctx.group[x]]
            hits = ref.nearest(x, same, k, ctx)
            if not hits:
                continue
            misses = ref.nearest(x, other, k, ctx)
            d1 = np.mean([slow.euclid(x, z, ctx) for z in hits])
            d2 = np.mean([slow.euclid(x, z, ctx) for z in misses])
            seen.add(("d2 > d1", bool(d2 > d1)))
            seen.add(("IW", slow.instance_weight(d1, d2, threshold)))
    assert seen == {("d2 > d1", True), ("d2 > d1", False), ("IW", 0.0),
                    ("IW", 1.0)}


def test_by_hand_two_classes():
    # one attribute, k = 1.  Class 0: 0, .25; class 1: .75, 1 (range 1).
    # CDRelief row 0: x=0: hit .25, miss .75 -> .5; x=.25: hit 0 (.25),
    # miss .75 (.5) -> .25; mean .375.  Row 1 by symmetry .375.
    X = np.array([[0.0], [0.25], [0.75], [1.0]])
    y = np.array([0, 0, 1, 1.0])
    assert_allclose(cdrelief(X, y, k_nearest=1), [[0.375], [0.375]])
    # IW: x=0: d1=.25, d2=.75 -> ratio 1/3; x=.25: ratio .5.  threshold .4
    # keeps only x=.25 (and x=.75 of class 1): as printed d2 > d1 updates
    # the own class by .25 / T = .125.
    W = iwcdrelief(X, y, k_nearest=1, threshold=0.4)
    assert_allclose(W, [[0.125], [0.125]])
    W = iwcdrelief(X, y, k_nearest=1, threshold=0.2)
    assert_allclose(W, [[0.375], [0.375]])
    assert_allclose(iwcdrelief(X, y, k_nearest=1, threshold=0.6), 0)


def test_by_hand_as_text_moves_updates_to_the_other_class():
    # class 0 at 0 and 1, class 1 at .9: x=0 has hit 1 (d1 = 1), miss .9
    # (d2 = .9) -> d2 - d1 < 0 and delta = .9 - 1 = -.1.
    X = np.array([[0.0], [1.0], [0.9]])
    y = np.array([0, 0, 1.0])
    printed = iwcdrelief(X, y, k_nearest=1, threshold=0.0)
    text = iwcdrelief(X, y, k_nearest=1, threshold=0.0, update="as_text")
    # x=1 has hit 0 (d1 = 1), miss .9 (d2 = .1) -> d2 - d1 < 0 and
    # delta = .1 - 1 = -.9.  Both go to row 1 as printed, to row 0 as
    # text; x=.9 (class 1) has no hit: IW = 0.  T_0 = 2.
    assert_allclose(printed, [[0.0], [(-0.1 - 0.9) / 2]])
    assert_allclose(text, [[(-0.1 - 0.9) / 2], [0.0]])


# ------------------------------------------------------------ properties --

@st.composite
def grid_data(draw, n_classes=2):
    n = draw(st.integers(6, 14))
    a = draw(st.integers(1, 4))
    X = np.empty((n, a))
    for A in range(a):
        col = draw(st.lists(st.integers(0, GRID), min_size=n, max_size=n))
        col[0], col[1] = 0, GRID
        X[:, A] = np.array(col, float) / GRID
    y = draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n))
    y[:n_classes] = range(n_classes)
    return X, np.array(y, float)


@SETTINGS
@given(grid_data(), st.integers(1, 4))
def test_prior_mean_of_cdrelief_is_relieff_for_two_classes(data, k):
    """sum_c P(c) W_c = the global eq. 3 Relief / k = ReliefF (2 classes)."""
    X, y = data
    W = cdrelief(X, y, k_nearest=k, diff="squared")
    assert_allclose(prior_summary(W, y),
                    relieff(X, y, k_nearest=k, diff="squared"), atol=1e-12)


@SETTINGS
@given(grid_data(), st.integers(1, 4), st.sampled_from(THRESHOLDS))
def test_readings_distribute_the_same_updates(data, k, threshold):
    """With two classes both readings make the same updates, only to other
    rows: the column sums agree."""
    X, y = data
    a = iwcdrelief(X, y, k_nearest=k, threshold=threshold)
    b = iwcdrelief(X, y, k_nearest=k, threshold=threshold, update="as_text")
    assert_allclose(a.sum(axis=0), b.sum(axis=0), atol=1e-12)


@SETTINGS
@given(grid_data(n_classes=3), st.integers(1, 3))
def test_threshold_zero_and_one(data, k):
    """threshold 1 admits no reference (ratios are <= 1); a tiny positive
    threshold admits the same references as 0 (only ratios of exactly 0,
    x/0, are refused by both)."""
    X, y = data
    assert_array_equal(iwcdrelief(X, y, k_nearest=k, threshold=1.0), 0)
    assert_allclose(iwcdrelief(X, y, k_nearest=k, threshold=0.0),
                    iwcdrelief(X, y, k_nearest=k, threshold=1e-9),
                    atol=1e-12)


@SETTINGS
@given(grid_data(n_classes=3), st.integers(1, 3))
def test_class_relabelling_permutes_rows(data, k):
    X, y = data
    perm = np.array([2, 0, 1])
    for method in (cdrelief, iwcdrelief):
        W = method(X, y, k_nearest=k)
        V = method(X, perm[y.astype(int)].astype(float), k_nearest=k)
        assert_allclose(V[perm], W, atol=1e-12)


@SETTINGS
@given(grid_data(), st.integers(1, 3),
       st.sampled_from([0.25, 2.0, 4.0]), st.sampled_from([-3.0, 0.0, 5.0]))
def test_affine_invariance_of_numeric_columns(data, k, scale, shift):
    X, y = data
    for method in (cdrelief, iwcdrelief):
        assert_allclose(method(X * scale + shift, y, k_nearest=k),
                        method(X, y, k_nearest=k), atol=1e-12)


@SETTINGS
@given(grid_data(), st.integers(1, 3))
def test_cdrelief_is_bounded(data, k):
    X, y = data
    W = cdrelief(X, y, k_nearest=k)
    assert W.shape == (2, X.shape[1])
    assert np.all(np.abs(W) <= 1 + 1e-12)


def test_shared_search_equals_one_shot_calls():
    X, y, discrete = make_case(7, 3, generic=True, missing=True)
    shared = ClassDependentRelief(X, y, discrete, k_nearest=6)
    for k in (1, 3, 6):
        assert_allclose(shared.cdrelief(k),
                        cdrelief(X, y, discrete, k_nearest=k), atol=1e-12)
        for update in ("as_printed", "as_text"):
            assert_allclose(shared.iwcdrelief(0.4, update, k),
                            iwcdrelief(X, y, discrete, k_nearest=k,
                                       threshold=0.4, update=update),
                            atol=1e-12)
    with pytest.raises(ReliefInputError):
        shared.cdrelief(7)


def test_a_grid_of_thresholds_is_each_threshold_alone():
    # the vectorised engine lays every threshold's terms out together, a
    # term that a threshold drops adding an exact zero: the same bits
    from orangecontrib.relief.core.analysis.weighted_knn import (
        column_ranges, fit_class_weights, iwcdrelief_class_weights,
        predict_votes, predict_votes_each)
    X, y, discrete = make_case(7, 3, generic=True, missing=False)
    grid = THRESHOLDS + [0.5, 1.0]
    ranges = column_ranges(X, discrete)

    def each_way():
        shared = ClassDependentRelief(X, y, discrete, k_nearest=4,
                                      distance_weights=ranges ** 2)
        for update in ("as_printed", "as_text"):
            together = shared.iwcdrelief_thresholds(grid, update, 3)
            alone = [shared.iwcdrelief(t, update, 3) for t in grid]
            assert_array_equal(together, alone)
            weights = iwcdrelief_class_weights(shared, ranges, grid, k=3,
                                               update=update)
            assert_array_equal(weights, [fit_class_weights(
                X, y, discrete, 3, k=3, threshold=t, update=update,
                search=shared) for t in grid])
            # and their kNN's votes, searched together
            each = predict_votes_each(X, y, weights, discrete, X[::2], 3)
            assert_array_equal(each, [predict_votes(
                X, y, w, discrete, X[::2], 3) for w in weights])
        return together, each

    results = on_each_engine(each_way)
    for compiled, vectorised in zip(*results.values()):
        assert_array_equal(compiled, vectorised)  # the engines agree
    assert len({w.tobytes() for w in results["vectorised"][0]}) > 2


def test_absent_classes_give_nan_rows_and_sampling_is_seeded():
    X, y, _ = make_case(3, 2, generic=True)
    y = np.where(y == 1, 3, y)  # classes 0 and 3 present of 5
    W = iwcdrelief(X, y, n_classes=5, n_iterations=6, random_state=4)
    assert W.shape == (5, X.shape[1])
    assert np.isnan(W[[1, 2, 4]]).all() and np.isfinite(W[[0, 3]]).all()
    assert_array_equal(W, iwcdrelief(X, y, n_classes=5, n_iterations=6,
                                     random_state=4))
    assert np.isfinite(prior_summary(W, y)).all()


@pytest.mark.parametrize("bad, message", [
    (dict(threshold=1.5), "threshold must be a number between 0 and 1, "
                          "got 1.5."),
    (dict(threshold=-0.1), "threshold must be a number between 0 and 1, "
                           "got -0.1."),
    (dict(threshold="x"), "threshold must be a number between 0 and 1, "
                          "got 'x'."),
    (dict(update="printed"), "update must be one of 'as_printed', "
                             "'as_text', got 'printed'."),
    (dict(k_nearest=0), "k_nearest must be a positive integer, got 0."),
    (dict(n_iterations=0), "n_iterations must be a positive integer or "
                           "None (every instance once), got 0."),
    (dict(n_classes=1), "n_classes=1"),
    (dict(n_classes=2.5), "n_classes must be a positive integer up to "
                          "65,536, got 2.5."),
    (dict(n_classes=10 ** 12), "n_classes must be a positive integer up to "
                               "65,536")])
def test_bad_options(bad, message):
    X, y, _ = make_case(1, 2)
    with pytest.raises(ReliefInputError, match=re.escape(message)):
        iwcdrelief(X, y, **bad)


def test_single_class_is_an_error():
    with pytest.raises(ReliefInputError):
        cdrelief(np.eye(3), np.zeros(3))


def test_cross_validated_threshold_is_the_best_in_the_inner_folds():
    from orangecontrib.relief.core.analysis.weighted_knn import (
        THRESHOLDS, accuracy, column_ranges, cross_validated_threshold,
        fit_class_weights, stratified_folds)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(90, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=90) > 0).astype(float)
    discrete = np.zeros(4, bool)
    chosen = cross_validated_threshold(X, y, discrete, 2, k=5,
                                       unweighted=False)
    fold = stratified_folds(y, 5, 0)
    totals = []
    for t in THRESHOLDS:
        total = 0.0
        for f in range(5):
            train, test = fold != f, fold == f
            weights = fit_class_weights(X[train], y[train], discrete, 2, k=5,
                                        threshold=t, update="as_text")
            total += accuracy(X[train], y[train], weights, discrete,
                              X[test], y[test], 5)
        totals.append(total)
    assert chosen == THRESHOLDS[int(np.argmax(totals))]
    assert column_ranges(X, discrete).shape == (4,)
    # equal weights compete: with only noise attributes they may win
    with_plain = cross_validated_threshold(X, y, discrete, 2, k=5)
    assert with_plain in THRESHOLDS or with_plain is None
    assert cross_validated_threshold(X, y, discrete, 2, k=5) == with_plain


@pytest.mark.parametrize("method", [cdrelief, iwcdrelief])
def test_class_codes_beyond_a_matrix_are_refused(method):
    X, y, _ = make_case(1, 2)
    with pytest.raises(ReliefInputError, match="recode the classes"):
        method(X, y * 1e12)


def test_prior_summary_takes_the_codes_of_the_rows():
    with pytest.raises(ReliefInputError, match="codes of the matrix's rows"):
        prior_summary(np.ones((2, 3)), [0, 1e12])


@pytest.mark.parametrize("code", [70000, 1e300])
def test_a_class_code_beyond_the_matrix_is_named(code):
    """A row per class code 0 .. max: a code that no matrix holds is
    refused by its value (1e300 once overflowed the integer cast)."""
    X = np.random.default_rng(0).random((12, 3))
    y = np.where(np.arange(12) % 2, code, 0.0)
    with pytest.raises(ReliefInputError, match="more than 65,536"):
        cdrelief(X, y)


@pytest.mark.parametrize("k, weights, message", [
    (0, np.ones((2, 3)), "k must be a positive integer, got 0"),
    (2.5, np.ones((2, 3)), "k must be"),
    (3, np.ones((2, 4)), "class_weights must be a row of weights per "
                         "class, one per attribute \\(3\\)"),
    (3, np.ones(3), "class_weights must be")])
def test_the_weighted_knn_refuses_what_cannot_vote(k, weights, message):
    from orangecontrib.relief.core.analysis.weighted_knn import predict_votes
    X = np.random.default_rng(0).random((10, 3))
    with pytest.raises(ReliefInputError, match=message):
        predict_votes(X, np.arange(10) % 2, weights, np.zeros(3, bool), X, k)


def test_instances_of_unknown_class_in_the_weighted_knn():
    from orangecontrib.relief.core.analysis.weighted_knn import (
        cross_validated_threshold, predict_votes, stratified_folds)
    rng = np.random.default_rng(0)
    X = rng.random((40, 3))
    y = (X[:, 0] > 0.5).astype(float)
    unknown = y.copy()
    unknown[::7] = np.nan
    known = ~np.isnan(unknown)
    fold = stratified_folds(unknown, 3, 1)
    assert_array_equal(fold[~known], -1)  # in no fold
    assert_array_equal(fold[known], stratified_folds(y[known], 3, 1))
    discrete = np.zeros(3, bool)
    assert (cross_validated_threshold(X, unknown, discrete, 2, k=3,
                                      random_state=1)
            == cross_validated_threshold(X[known], y[known], discrete, 2,
                                         k=3, random_state=1))
    weights = rng.random((2, 3))
    for got, expected in zip(
            predict_votes(X, unknown, weights, discrete, X[:5], 3),
            predict_votes(X[known], y[known], weights, discrete, X[:5], 3)):
        assert_array_equal(got, expected)
    with pytest.raises(ReliefInputError, match="known class"):
        predict_votes(X, np.full(40, np.nan), weights, discrete, X[:5], 3)


def test_class_weights_of_any_mask_and_float_type():
    from orangecontrib.relief.core.analysis.weighted_knn import (
        column_ranges, fit_class_weights)
    rng = np.random.default_rng(1)
    X = rng.random((30, 4))
    X[:, 3] = rng.integers(0, 3, 30)
    y = rng.integers(0, 2, 30).astype(float)
    discrete = np.array([False, False, False, True])
    expected = fit_class_weights(X, y, discrete, 2, k=3)
    assert_array_equal(column_ranges(X, [0, 0, 0, 1]),
                       column_ranges(X, discrete))
    assert column_ranges(X, [0, 0, 0, 1])[3] == 1
    assert_array_equal(fit_class_weights(X, y, [0, 0, 0, 1], 2, k=3),
                       expected)
    single = X.astype(np.float32)
    assert_array_equal(fit_class_weights(single, y, discrete, 2, k=3),
                       fit_class_weights(single.astype(float), y, discrete,
                                         2, k=3))
