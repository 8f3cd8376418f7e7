"""The Orange scorers (orangecontrib.relief.scorers): each is its core
function on the table's arrays, works wherever an Orange scorer does, and is
offered among the variants of the Relief widget and the command line."""
import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.preprocess import SelectBestFeatures

import orangecontrib.relief as package
from orangecontrib.relief import (CDRelief, DReliefF, IWCDRelief, PDReliefF,
                                  ReliefF, scorers)
from orangecontrib.relief.arrays import TableArrays
from orangecontrib.relief.core import drelieff, pdrelieff
from orangecontrib.relief.core.variants.classdep import cdrelief, iwcdrelief
from orangecontrib.relief.datasets import path
from orangecontrib.relief.variants import (
    DEFAULT_K, METHODS, SCORERS, fitting_methods, make_scorer)


def arrays_of(table):
    """X, y and the nominal mask of `table`, read off directly."""
    discrete = [v.is_discrete for v in table.domain.attributes]
    return table.X, table.Y, discrete


def test_scorers_are_the_core_functions(heart):
    X, y, discrete = arrays_of(heart)
    assert_array_equal(DReliefF()(heart), drelieff(X, y, discrete))
    assert_array_equal(PDReliefF()(heart), pdrelieff(X, y, discrete))
    options = dict(k_nearest=4, n_iterations=50, random_state=3,
                   diff="ramp", t_eq=0.05, t_diff=0.2)
    assert_array_equal(DReliefF(clip_negative=False, **options)(heart),
                       drelieff(X, y, discrete, clip_negative=False,
                                **options))
    assert_array_equal(PDReliefF(a=1.5, s=0.2, **options)(heart),
                       pdrelieff(X, y, discrete, a=1.5, s=0.2, **options))


def test_scorers_work_as_orange_scorers(heart):
    attribute = heart.domain.attributes[2]
    assert DReliefF()(heart, attribute) == DReliefF()(heart)[2]
    reduced = SelectBestFeatures(method=PDReliefF(), k=3)(heart)
    assert len(reduced.domain.attributes) == 3
    with pytest.raises(ValueError):
        DReliefF()(Table(path("cpu")))          # numeric class
    with pytest.raises(ValueError, match="is not an attribute"):
        DReliefF()(heart, heart.domain.class_var)


def test_limits_through_the_scorers(heart):
    """s = inf is ReliefF to rounding (the two rules add the same terms
    in their own code); s = 0 is DReliefF exactly."""
    assert_allclose(PDReliefF(s=np.inf)(heart), ReliefF()(heart), rtol=0,
                    atol=1e-15)
    assert_array_equal(PDReliefF(s=0)(heart), DReliefF()(heart))


def test_arrays_are_the_rows_with_a_known_class(heart):
    data = heart.copy()
    with data.unlocked():
        data.Y[[3, 7]] = np.nan
    arrays = ReliefF().arrays(data)
    assert isinstance(arrays, TableArrays)
    keep = ~np.isnan(data.Y)
    assert_array_equal(arrays.X, data.X[keep])
    assert_array_equal(arrays.y, data.Y[keep])
    assert_array_equal(arrays.discrete, arrays_of(heart)[2])
    assert arrays.task == "classification"
    assert arrays.X.dtype == arrays.y.dtype == np.float64
    with pytest.raises(ValueError, match="ReliefF needs a categorical"):
        ReliefF().arrays(Table(path("cpu")))


def test_every_scorer_is_in_the_scorers_module_and_exported():
    assert set(scorers.__all__) == {
        "ReliefScorer", "Relief", "ReliefF", "RReliefF", "MuRelief",
        "DReliefF", "PDReliefF", "ClassDependentScorer", "CDRelief",
        "IWCDRelief", "RFSMScorer", "NeighbourhoodScorer", "SURF", "SURFstar",
        "MultiSURF", "MultiSURFstar", "WeightedNeighbourhoodScorer", "SWRF",
        "SWRFstar", "MultiSWRF", "MultiSWRFstar", "MultiSWRFDB",
        "MultiSWRFDBstar", "WrapperScorer", "TuRF", "Iter", "VLS", "NPDR",
        "Absolute"}
    # the package exports every scorer but the base classes of families
    exported = set(scorers.__all__) - {
        "ClassDependentScorer", "NeighbourhoodScorer",
        "WeightedNeighbourhoodScorer", "WrapperScorer"}
    assert exported <= set(package.__all__)
    for name in exported:
        assert getattr(package, name) is getattr(scorers, name)


def test_exported_and_offered(heart):
    assert {"DReliefF", "PDReliefF"} <= set(package.__all__)
    assert package.DReliefF is DReliefF
    assert {"DReliefF", "PDReliefF"} <= set(METHODS)
    assert SCORERS["DReliefF"] is DReliefF and SCORERS["PDReliefF"] is PDReliefF
    assert DEFAULT_K["DReliefF"] == DEFAULT_K["PDReliefF"] == 10
    assert {"DReliefF", "PDReliefF"} <= set(
        fitting_methods(heart.domain.class_var))
    assert "DReliefF" not in fitting_methods(
        Table(path("cpu")).domain.class_var)
    scorer = make_scorer("PDReliefF", k_nearest=7, n_iterations=20)
    assert isinstance(scorer, PDReliefF)
    assert scorer.k_nearest == 7 and scorer.n_iterations == 20


def test_class_dependent_matrix_and_summary(heart):
    X, y = heart.X, heart.Y
    discrete = np.array([a.is_discrete for a in heart.domain.attributes])
    for scorer, core_fn, options in (
            (CDRelief(k_nearest=4), cdrelief, {}),
            (IWCDRelief(k_nearest=4, threshold=0.3, update="as_text"),
             iwcdrelief, dict(threshold=0.3, update="as_text"))):
        matrix = scorer.class_weights(heart)
        assert matrix.shape == (2, len(heart.domain.attributes))
        assert_allclose(matrix, core_fn(X, y, discrete, k_nearest=4,
                                        **options))
        priors = np.bincount(y.astype(int)) / len(y)
        assert_allclose(scorer(heart), priors @ matrix)
        name = heart.domain.attributes[2].name
        assert scorer(heart, name) == pytest.approx((priors @ matrix)[2])


def test_class_dependent_scorer_in_orange_feature_selection(heart):
    reduced = SelectBestFeatures(method=CDRelief(), k=4)(heart)
    assert len(reduced.domain.attributes) == 4


def test_matrix_has_a_row_per_class_value(three_classes):
    data = three_classes
    matrix = IWCDRelief(k_nearest=3, threshold=0.2).class_weights(data)
    assert matrix.shape == (4, 3)
    assert np.isnan(matrix[3]).all() and np.isfinite(matrix[:3]).all()
    assert np.isfinite(IWCDRelief()(data)).all()


def test_class_dependent_scorer_errors(three_classes):
    data = three_classes
    regression = data.transform(Domain(data.domain.attributes[:2],
                                       data.domain.attributes[2]))
    with pytest.raises(ValueError):
        CDRelief()(regression)
    with pytest.raises(ValueError):
        IWCDRelief(threshold=2)(data)


def test_every_scorer_ignores_instance_weights(heart):
    from Orange.preprocess.score import InfoGain

    from orangecontrib.relief import (VLS, MultiSURF, RFSMScorer,
                                      Significance, TuRF)
    weighted = heart.copy()
    with weighted.unlocked(weighted.W):
        weighted.W = np.random.default_rng(0).random(len(heart))
    # Orange's InfoGain reads the weights: wrapped, it must not see them
    assert not np.allclose(InfoGain()(weighted), InfoGain()(heart))
    for scorer in (ReliefF(), MultiSURF(), RFSMScorer(), TuRF(ReliefF()),
                   TuRF(InfoGain()), VLS(), VLS(InfoGain()),
                   Significance(ReliefF(), test="stir"),
                   Significance(InfoGain(), test="permutation",
                                n_permutations=5)):
        assert_array_equal(scorer(weighted), scorer(heart))
    assert_array_equal(CDRelief().class_weights(weighted),
                       CDRelief().class_weights(heart))


def test_a_sparse_table_reaches_the_core_sparse():
    """A sparse table's values go to the core as a sparse matrix of its
    stored entries (never made dense), and its scores are those of the
    dense table; a sparse table that stores a missing value is read
    dense, as the core needs."""
    rng = np.random.default_rng(0)
    X = np.where(rng.random((40, 30)) < 0.2, rng.integers(1, 9, (40, 30)), 0)
    domain = Domain([ContinuousVariable(f"g{i}") for i in range(30)],
                    DiscreteVariable("cell", values=["a", "b"]))
    dense = Table.from_numpy(domain, X.astype(float), np.arange(40) % 2)
    sparse = dense.to_sparse()
    arrays = ReliefF().arrays(sparse)
    assert sp.issparse(arrays.X) and arrays.X.nnz == sparse.X.nnz
    for scorer in (ReliefF(), scorers.MultiSURF(), scorers.TuRF()):
        assert_array_equal(scorer(sparse), scorer(dense))
    with sparse.unlocked():
        sparse.X.data[0] = np.nan
    assert not sp.issparse(ReliefF().arrays(sparse).X)
