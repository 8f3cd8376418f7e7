"""NPDR (core.variants.npdr, core.variants.npdr_net) against the slow literal reference
(tests.reference.npdr), between the engines to the bit, against the
authors' R package on two files of the ReBATE benchmark, on a confounder,
and its checks."""
import gzip
import os
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.optimize import minimize

from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import (ConvergenceWarning,
                                              ReliefInputError)
from orangecontrib.relief.core.formulas import npdr as formulas
from orangecontrib.relief.core.variants.npdr import npdr, npdr_columns
from orangecontrib.relief.core.variants.npdr_net import npdr_net
from orangecontrib.relief.core.analysis.significance import adjust
from tests.core.engines import each_engine, on_each_engine
from tests.reference import npdr as ref

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data")
GAMETES = os.path.join(DATA,
                       "gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01.txt.gz")
CONTINUOUS = os.path.join(
    DATA, "rebate", "GAMETES_2.2_dev_peter_2wayEpi_contEndpoint_Datasets_"
    "Loc_2_Qnt_2_Pop_100000", "a_20", "s_1600", "her_0.4__maf_0.2", "sd_0.5",
    "a_20s_1600her_0.4__maf_0.2_EDM-2",
    "a_20s_1600her_0.4__maf_0.2_EDM-2_01.txt.gz")
#: the R package's conventions (doc/npdr.md)
R_OPTIONS = dict(deviation="sample", twins="exclude", scale="none",
                 adjustment="bonferroni")


def random_data(seed, n=36, a=5, task="classification", missing=0.0,
                levels=False):
    """Numeric columns (of three levels with `levels`, as SNPs), column 1
    nominal, two covariates (numeric, nominal), NaN."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, a)) / 2 if levels else rng.random((n, a))
    X[:, 1] = rng.integers(0, 3, n)
    X[rng.random((n, a)) < missing] = np.nan
    discrete = np.zeros(a, bool)
    discrete[1] = True
    covariates = np.column_stack([rng.random(n), rng.integers(0, 2, n)])
    if task == "regression":
        y = X[:, 0] + rng.random(n) if not missing else rng.random(n)
    else:
        y = (rng.random(n) < 0.5).astype(float)
        y[:2] = 0, 1
    return X, y, discrete, covariates


#: (name, options of npdr, options of the reference, data's options)
CASES = [
    ("multisurf", {}, {}, {}),
    ("multisurf, sample deviation, twins out", dict(
        deviation="sample", twins="exclude"),
     dict(ddof=1, exclude_twins=True), {}),
    ("surf", dict(neighbourhood="surf"), dict(method="surf"), {}),
    ("relieff k=7", dict(neighbourhood="relieff", k_nearest=7),
     dict(method="relieff", k=7), {}),
    ("relieff k=7, tied pairs weighted by their shares", dict(
        neighbourhood="relieff", k_nearest=7), dict(method="relieff", k=7),
     dict(levels=True)),
    ("relieff k=7, tied places to the lower index", dict(
        neighbourhood="relieff", k_nearest=7, ties="lower-index"),
     dict(method="relieff", k=7, ties="lower-index"), dict(levels=True)),
    ("relieff, the authors' k, all ties", dict(
        neighbourhood="relieff", ties="all", twins="exclude"),
     dict(method="relieff", ties="all", exclude_twins=True), dict(
        levels=True)),
    ("levels (grouped pairs)", {}, {}, dict(levels=True)),
    ("missing values", {}, {}, dict(missing=0.1)),
    ("ramp diff", dict(diff="ramp", t_eq=0.1, t_diff=0.4),
     dict(diff_kind="ramp", t_eq=0.1, t_diff=0.4), {}),
]
TASKS = [("classification", 1e-6), ("regression", 1e-8)]


@each_engine
@pytest.mark.parametrize("task, tolerance", TASKS)
@pytest.mark.parametrize("name, options, literal, kind", CASES,
                         ids=[case[0] for case in CASES])
@pytest.mark.parametrize("with_covariates", [False, True])
def test_npdr_is_the_literal_definition(engine, task, tolerance, name,
                                        options, literal, kind,
                                        with_covariates):
    X, y, discrete, covariates = random_data(len(name), task=task, **kind)
    covariate_options = (dict(covariates=covariates,
                              covariate_discrete=[False, True])
                         if with_covariates else {})
    with forced(engine):
        got = npdr(X, y, discrete, task=task, **covariate_options, **options)
    (coefficient, error, statistic, p, intercept, others, converged), (
        df, n_pairs) = ref.npdr(X, y, discrete, regression=task == "regression",
                 **covariate_options, **literal)
    assert (got.df, got.n_pairs) == (df, n_pairs)
    assert_array_equal(got.converged, converged)
    assert_allclose(got.coefficient, coefficient, rtol=tolerance)
    assert_allclose(got.standard_error, error, rtol=tolerance)
    assert_allclose(got.statistic, statistic, rtol=tolerance)
    assert_allclose(got.p, p, rtol=tolerance, atol=1e-12)
    assert_allclose(got.intercept, intercept, rtol=tolerance, atol=1e-12)
    assert_allclose(got.covariates, np.reshape(others, got.covariates.shape),
                    rtol=tolerance, atol=1e-12)
    assert_array_equal(got.q, adjust(got.p))


@pytest.mark.parametrize("task", ["classification", "regression"])
@pytest.mark.parametrize("kind", [{}, dict(levels=True),
                                  dict(missing=0.15)],
                         ids=["numeric", "levels", "missing"])
@pytest.mark.parametrize("options", [{}, dict(neighbourhood="surf"),
                                     dict(neighbourhood="relieff",
                                          k_nearest=9, scale="none"),
                                     dict(neighbourhood="relieff",
                                          ties="all")],
                         ids=["multisurf", "surf", "relieff", "all ties"])
def test_both_engines_give_the_same_bits(task, kind, options):
    X, y, discrete, covariates = random_data(4, n=60, task=task, **kind)
    for extra in ({}, dict(covariates=covariates)):
        results = on_each_engine(
            lambda: npdr(X, y, discrete, task=task, **extra, **options))
        for field, value in results["compiled"]._asdict().items():
            assert_array_equal(value, getattr(results["vectorised"], field),
                               err_msg=field)


def test_the_logistic_mean_is_the_same_on_both_engines():
    """R's binomial link with an exponential of its own: numpy's and the
    compiler's exp may differ in the last bit, this one does not."""
    from orangecontrib.relief.core.engines.compiled.npdr import logistic_mean
    eta = np.concatenate([np.linspace(-40, 40, 4001), [-30, 30, -0.0]])
    expected = np.where(eta < -30, np.finfo(float).eps, np.where(
        eta > 30, 1 / np.finfo(float).eps, np.exp(np.clip(eta, -30, 30))))
    expected = expected / (1 + expected)
    assert_allclose(formulas.logistic_mean(eta), expected, rtol=4e-16)
    assert_array_equal([logistic_mean(e) for e in eta],
                       formulas.logistic_mean(eta))


def read_table(path):
    """(X, y) of a table of the benchmark."""
    with gzip.open(path, "rt") as file:
        table = np.loadtxt(file, skiprows=1)
    return table[:, :-1], table[:, -1]


def r_results(name):
    """The R package's columns of tests/data/npdr/`name`."""
    path = os.path.join(DATA, "npdr", name)
    with open(path, encoding="utf-8") as file:
        header = file.readline().strip().split(",")
    values = np.genfromtxt(path, delimiter=",", skip_header=1,
                           usecols=range(1, len(header)))
    return {column: values[:, c] for c, column in
            enumerate(header[1:])}


@pytest.mark.parametrize("path, name, task", [
    (GAMETES, "npdr_R_gametes_logistic.csv", "classification"),
    (CONTINUOUS, "npdr_R_contendpoint_linear.csv", "regression")])
def test_the_r_package_with_its_conventions(path, name, task):
    """Fitted to convergence on the R package's pairs: R's numbers to the
    precision of its own fits (doc/npdr.md)."""
    X, y = read_table(path)
    expected = r_results(name)
    got = npdr(X, y, task=task, **R_OPTIONS)
    assert got.n_pairs == expected["n_pairs"][0]
    assert got.df == expected["df_residual"][0]
    assert_allclose(got.coefficient, expected["beta_tight"], rtol=1e-9)
    assert_allclose(got.standard_error, expected["se_tight"], rtol=1e-10)
    assert_allclose(got.statistic, expected["z_or_t_tight"], rtol=1e-9,
                    atol=1e-8)
    assert_allclose(got.p, expected["p_tight"], atol=1e-10)
    assert_allclose(got.q, np.minimum(1, 20 * expected["p_tight"]),
                    atol=1e-9)
    assert_allclose(got.intercept, expected["beta0"], rtol=1e-6)


def test_the_add_ons_conventions_differ_from_rs_only_by_the_pairs():
    """With its own conventions (population deviation, identical instances
    kept, range-scaled diffs) the add-on finds other pairs, and its
    coefficients are per range: with R's pairs (every column of these
    SNPs spans 2, so both distances find the same neighbours), twice R's
    and the same statistics."""
    X, y = read_table(GAMETES)
    own = npdr(X, y)
    r = npdr(X, y, **R_OPTIONS)
    assert own.n_pairs != r.n_pairs
    same_pairs = npdr(X, y, deviation="sample", twins="exclude")
    assert_allclose(same_pairs.coefficient, 2 * r.coefficient, rtol=1e-12)
    assert_allclose(same_pairs.statistic, r.statistic, rtol=1e-12)


def confounded(seed, n=400, a=20):
    """A confounder C (sex, say) drives both attribute 0 and the class;
    attribute 0 has no effect of its own, the others are noise."""
    rng = np.random.default_rng(seed)
    confounder = rng.integers(0, 2, n)
    X = rng.random((n, a))
    X[:, 0] = confounder + 0.5 * rng.standard_normal(n)
    y = (rng.random(n) < 0.2 + 0.6 * confounder).astype(float)
    return X, y, confounder


def test_a_confounded_attribute_is_significant_only_without_its_covariate():
    """With C's diff in the regression, attribute 0's diff explains no
    miss that C's does not.  (NPDR counts the pairs as independent, which
    they are not, so its statistics vary more than a z should: on other
    seeds the adjusted attribute's z spreads over about -5 .. 6.)"""
    X, y, confounder = confounded(0)
    alone = npdr(X, y)
    adjusted = npdr(X, y, covariates=confounder, covariate_discrete=[True])
    assert alone.q[0] < 1e-6
    assert adjusted.q[0] > 0.05
    assert adjusted.covariates[0, 0] > 0  # the covariate takes the signal


def test_a_constant_attribute_has_no_fit_and_the_others_do():
    X, y, _, _ = random_data(2)
    X[:, 3] = 0.5
    for task in ("classification", "regression"):
        got = npdr(X, y, task=task)
        assert np.isnan([got.coefficient[3], got.p[3], got.q[3]]).all()
        assert not got.converged[3]
        assert np.isfinite(np.delete(got.p, 3)).all()


@each_engine
def test_a_separating_attribute_does_not_converge(engine):
    """On the pairs, the attribute's diff is 1 exactly for the misses: the
    logistic likelihood grows without bound.  As R's glm, the fit gives
    its last iterate, says it did not converge and warns, naming the
    attribute.  The literal fit does not converge either; where the
    logits pass R's limit of 30 the steps are ratios of sums of the size
    of the float64 epsilon, so the last iterate's size depends on the
    arithmetic: only its direction is compared."""
    y = np.repeat([0.0, 1.0], 20)
    X = np.column_stack([y, np.random.default_rng(0).random(40)])
    with forced(engine), pytest.warns(ConvergenceWarning,
                                      match="for attribute 'sep':"):
        got = npdr(X, y, neighbourhood="relieff", k_nearest=30,
                   names=["sep", "noise"])
    assert not got.converged[0] and got.converged[1]
    (coefficient, error, _, p, _, _, converged), _ = ref.npdr(
        X, y, method="relieff", k=30)
    assert_array_equal(got.converged, converged)
    assert_allclose(got.coefficient[1], coefficient[1], rtol=1e-6)
    assert_allclose(got.standard_error[1], error[1], rtol=1e-6)
    assert got.coefficient[0] > 10 and coefficient[0] > 10
    assert got.p[0] > 0.4 and p[0] > 0.4  # Hauck-Donner: no evidence


def test_converged_fits_do_not_warn():
    X, y, _, _ = random_data(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert npdr(X, y).converged.all()


def test_authors_k_is_knnsurf():
    assert [formulas.authors_k(n) for n in (1600, 2000, 3, 1)] == [
        493, 616, 1, 1]
    assert ref.knn_surf(1600) == 493


@pytest.mark.parametrize("call, message", [
    (lambda X, y: npdr(X, np.zeros(len(y))), "single class"),
    (lambda X, y: npdr(X, y, covariates=np.ones(len(y))), "constant"),
    (lambda X, y: npdr(X, y, covariates=np.where(y > 0, np.nan, 1.0)),
     "missing"),
    (lambda X, y: npdr(X, y, covariates=np.ones((3, 1))), "one row per"),
    # covariates, each named (by its column or its name) where it is bad
    (lambda X, y: npdr(X, y, covariates=np.ones(len(y)),
                       names=list("abcde") + ["age"]),
     "^The covariate 'age' is constant"),
    (lambda X, y: npdr(X, y, covariates=X[:, 3]),
     "covariate column 0 holds the values of attribute 3"),
    (lambda X, y: npdr(X, y, covariates=np.column_stack(
        [X[:, 0] ** 2, 3 * X[:, 0] ** 2 - 1]), names=list("abcde") + [
        "age", "age in months"]),
     "covariate 'age in months' over the neighbour pairs are a linear "
     "combination of those of covariate 'age'"),
    (lambda X, y: npdr(X, y, covariates=np.zeros(len(y)) + 1j),
     "complex numbers"),
    (lambda X, y: npdr(X, y, covariates=np.array(["a"] * len(y))),
     "covariates must be numeric"),
    (lambda X, y: npdr(X, y, covariate_discrete=[True]),
     "covariate_discrete .* needs covariates"),
    (lambda X, y: npdr(X, y, covariates=X[:, 0] ** 2, names=["a"]),
     "names must name the 5 attributes and the 1 covariates"),
    (lambda X, y: npdr_columns(X, y, None, [0.5]),
     r"column index in 0..4, got 0.5"),
    (lambda X, y: npdr_columns(X, y, None, ["age"]), "got 'age'"),
    (lambda X, y: npdr_columns(X, y, None, "0"), "list of column indices"),
    (lambda X, y: npdr_columns(X, y, None, [True]), "got True"),
    (lambda X, y: npdr_columns(X, y, None, [4, 4], names=list("abcde")),
     "covariates gives 'e' twice"),
    (lambda X, y: npdr(X, y, scale="none", diff="ramp"), "needs diff"),
    (lambda X, y: npdr(X, y, neighbourhood="relieff", twins="exclude"),
     "ties='all'"),
    (lambda X, y: npdr(X, y, neighbourhood="knn"), "neighbourhood must"),
    (lambda X, y: npdr(X, y, k_nearest=0), "k_nearest must"),
    (lambda X, y: npdr(X, y, ties="none"), "ties must"),
    (lambda X, y: npdr(X, y, adjustment="fdr"), "adjustment must"),
    (lambda X, y: npdr(X[:2], y[:2]), "too few"),
    (lambda X, y: npdr_net(X, y, lam=0), "lam must"),
    (lambda X, y: npdr_net(X, y, l1_ratio=1.5), "l1_ratio must"),
    (lambda X, y: npdr_net(X, y, nonnegative="yes"),
     "nonnegative must be True or False"),
])
def test_bad_input_is_refused_with_a_message(call, message):
    X, y, _, _ = random_data(5)
    with pytest.raises(ReliefInputError, match=message):
        call(X, y)


def test_only_hits_are_refused():
    """Neighbours within one class only: no miss to regress on."""
    X = np.array([[0.0], [0.01], [0.02], [1.0], [1.01], [1.02]])
    y = np.array([0, 0, 0, 1, 1, 1.0])
    with pytest.raises(ReliefInputError, match="hits"):
        npdr(X, y, neighbourhood="relieff", k_nearest=2)


def test_inputs_are_not_modified():
    X, y, discrete, covariates = random_data(7, missing=0.1)
    copies = [X.copy(), y.copy(), covariates.copy()]
    npdr(X, y, discrete, covariates=covariates)
    for original, copy in zip((X, y, covariates), copies):
        assert_array_equal(original, copy)


@pytest.mark.parametrize("task", ["classification", "regression"])
@pytest.mark.parametrize("l1_ratio, nonnegative", [(1.0, True), (0.5, False)])
def test_the_penalised_fit_minimises_glmnets_objective(task, l1_ratio,
                                                       nonnegative):
    """The literal objective, minimised by a general optimiser from the
    fit's answer, finds nothing lower, and the fit satisfies the lasso's
    optimality conditions."""
    X, y, discrete, _ = random_data(11, n=40, task=task)
    got = npdr_net(X, y, discrete, task=task, lam=0.01, l1_ratio=l1_ratio,
                   nonnegative=nonnegative)
    design, outcome = ref.npdr_net_design(X, y, discrete,
                                          regression=task == "regression")
    objective = ref.net_objective(design, outcome, 0.01, l1_ratio,
                                  task == "classification")
    start = np.append(got.intercept, got.coefficient)
    bounds = [(None, None)] + [(0, None) if nonnegative else (None, None)
                               for _ in got.coefficient]
    best = minimize(objective, start, method="L-BFGS-B", bounds=bounds,
                    options=dict(ftol=1e-15, gtol=1e-12))
    assert got.converged and got.n_pairs == len(outcome)
    assert objective(start) <= best.fun + 1e-12
    assert (got.coefficient == 0).any() and (got.coefficient != 0).any()


def test_the_penalised_fit_is_glmnets_on_the_r_packages_pairs():
    """npdr(use.glmnet = TRUE, glmnet.lam = 0.001) of the R package on the
    GAMETES file (glmnet 4.1-6, thresh 1e-14; tests/data/npdr)."""
    X, y = read_table(GAMETES)
    got = npdr_net(X, y, lam=0.001, **{key: value for key, value in
                                      R_OPTIONS.items()
                                      if key != "adjustment"})
    expected = np.zeros(20)
    expected[[2, 18, 19]] = 0.00030688639957782453, 0.19255304333866713, \
        0.18601117001999923
    assert_allclose(got.coefficient, expected, rtol=1e-6, atol=1e-10)
    assert_allclose(got.intercept, -0.16052211326152799, rtol=1e-9)
