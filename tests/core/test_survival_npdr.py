"""Survival NPDR (core.variants.survival_npdr, its penalised fit
core.variants.survival_npdr_net, core.variants.kaplan_meier) against the
authors' R code on a simulated data set, against the slow literal
reference (tests.reference.survival_npdr), and its checks."""
import csv
import os
import shutil
import subprocess

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.optimize import minimize

from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.kaplan_meier import (
    conditional_mean_times)
from orangecontrib.relief.core.variants.survival_npdr import survival_npdr
from orangecontrib.relief.core.variants.survival_npdr_net import (
    survival_npdr_net)
from tests.reference import npdr as npdr_ref
from tests.reference import survival_npdr as ref

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "survival")
#: the authors' conventions (doc/survival.md)
R_OPTIONS = dict(deviation="sample", twins="exclude", scale="none",
                 adjustment="bonferroni")
#: the settings of tests/data/survival/README.md, as options of
#: survival_npdr (covariates: the data's age and sex)
R_SETTINGS = {
    "lm_absolute": dict(diffs="absolute"),
    "lm_signed_km": dict(diffs="signed", impute=True),
    "lm_signed_km_covariates": dict(diffs="signed", impute=True,
                                    covariates=True),
    "lm_absolute_unfiltered": dict(diffs="absolute", filter_pairs=False),
    "lm_signed_relieff": dict(diffs="signed", neighbourhood="relieff",
                              k_nearest=10, ties="all", deviation=None),
    "binomial_absolute": dict(diffs="absolute", regression="logistic"),
    "binomial_signed_km": dict(diffs="signed", regression="logistic",
                               impute=True),
}


def read_csv(name):
    with open(os.path.join(DATA, name), newline="") as f:
        return list(csv.DictReader(f))


def simulated():
    """The attributes' names and values, the covariates, times and
    events of survival_sim.csv."""
    rows = read_csv("survival_sim.csv")
    names = [c for c in rows[0] if c.startswith("x")]
    X = np.array([[float(r[c]) for c in names] for r in rows])
    covariates = np.array([[float(r["age"]), float(r["sex"])] for r in rows])
    time = np.array([float(r["time"]) for r in rows])
    event = np.array([float(r["status"]) for r in rows])
    return names, X, covariates, time, event


def test_conditional_means_are_the_authors_to_the_bit():
    rows = read_csv("snpdr_R_reference_times.csv")
    time = np.array([float(r["time"]) for r in rows])
    event = np.array([r["status"] == "1" for r in rows])
    expected = np.array([float(r["imputed"]) for r in rows])
    assert_array_equal(conditional_mean_times(time, event), expected)
    assert (expected != time).sum() == 30  # those censored before 125


@pytest.mark.parametrize("setting", sorted(R_SETTINGS))
def test_equals_the_authors_r_code(setting):
    names, X, covariates, time, event = simulated()
    options = {**R_OPTIONS, **R_SETTINGS[setting]}
    if options.pop("deviation") is not None:
        options["deviation"] = "sample"
    if options.pop("covariates", False):
        options["covariates"] = covariates
    result = survival_npdr(X, time, event, **options)
    expected = [r for r in read_csv("snpdr_R_reference.csv")
                if r["setting"] == setting]
    assert len(expected) == len(names)  # R fitted every attribute
    order = [names.index(r["feature"]) for r in expected]
    for field, column in (("coefficient", "beta"), ("statistic", "stat"),
                          ("p", "pval"), ("q", "pval_adj")):
        assert_allclose(getattr(result, field)[order],
                        [float(r[column]) for r in expected], rtol=1e-8,
                        atol=1e-300, err_msg=field)


def random_survival(seed, n=24, a=4):
    """Numeric columns, column 1 nominal of two values, two covariates
    (numeric, nominal), times with ties and censoring."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[:, 1] = rng.integers(0, 2, n)
    discrete = np.zeros(a, bool)
    discrete[1] = True
    covariates = np.column_stack([rng.random(n), rng.integers(0, 2, n)])
    time = np.round(10 * np.exp(X[:, 0] - X[:, 2] + rng.random(n)), 0)
    event = (rng.random(n) < 0.6).astype(float)
    event[0] = 1
    return X, time, event, discrete, covariates


#: (name, options of survival_npdr, options of the reference)
CASES = [
    ("absolute, linear", {}, {}),
    ("signed, imputed", dict(diffs="signed", impute=True),
     dict(signed=True, impute=True)),
    ("signed, covariates", dict(diffs="signed", covariates=True),
     dict(signed=True, covariates=True)),
    ("absolute, unfiltered, imputed", dict(filter_pairs=False, impute=True),
     dict(filter_pairs=False, impute=True)),
    ("k nearest, ties shared", dict(neighbourhood="relieff", k_nearest=5),
     dict(method="relieff", k=5)),
    ("logistic, signed", dict(regression="logistic", diffs="signed"),
     dict(logistic=True, signed=True)),
    ("logistic, absolute, imputed, covariates",
     dict(regression="logistic", impute=True, covariates=True),
     dict(logistic=True, impute=True, covariates=True)),
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name, options, reference", CASES,
                         ids=[case[0] for case in CASES])
def test_matches_the_literal_reference(name, options, reference, seed):
    X, time, event, discrete, covariates = random_survival(seed)
    options, reference = dict(options), dict(reference)
    if options.pop("covariates", False):
        options.update(covariates=covariates,
                       covariate_discrete=[False, True])
        reference.update(covariates=covariates,
                         covariate_discrete=[False, True])
    result = survival_npdr(X, time, event, discrete, **options)
    (beta, se, statistic, p), n_pairs = ref.survival_npdr(
        X, time, event, discrete, **reference)
    assert result.n_pairs == n_pairs
    # the logistic fits stop where R's glm stops, the reference at the
    # maximum; the standard errors differ by glm's tolerance
    rtol = 1e-5 if "logistic" in name else 1e-9
    assert_allclose(result.coefficient, beta, rtol=rtol)
    assert_allclose(result.standard_error, se, rtol=rtol)
    assert_allclose(result.statistic, statistic, rtol=rtol)
    assert_allclose(result.p, p, rtol=rtol * 10)


def test_row_order_does_not_matter():
    X, time, event, discrete, covariates = random_survival(3, n=30)
    order = np.random.default_rng(0).permutation(30)
    options = dict(diffs="signed", impute=True, covariates=covariates)
    before = survival_npdr(X, time, event, discrete, **options)
    options["covariates"] = covariates[order]
    after = survival_npdr(X[order], time[order], event[order], discrete,
                          **options)
    assert_allclose(after.coefficient, before.coefficient, rtol=1e-12)
    assert_allclose(after.p, before.p, rtol=1e-10)


def test_a_protective_attribute_has_a_signed_effect():
    """Signed diffs: the reference of larger x lives longer when x
    lengthens survival, so b > 0; an attribute shortening it gets b < 0;
    they are the two of largest statistic."""
    rng = np.random.default_rng(5)
    X = rng.standard_normal((200, 4))
    time = np.exp(4 + 0.8 * X[:, 0] - 0.8 * X[:, 1]
                  + 0.2 * rng.standard_normal(200))
    event = (rng.random(200) < 0.8).astype(float)
    result = survival_npdr(X, time, event, diffs="signed")
    assert result.coefficient[0] > 0 > result.coefficient[1]
    assert set(np.argsort(-np.abs(result.statistic))[:2]) == {0, 1}


def test_constant_attribute_has_no_fit():
    X, time, event, _, _ = random_survival(2)
    X[:, 3] = 0.5
    for regression in ("linear", "logistic"):
        result = survival_npdr(X, time, event, regression=regression)
        assert np.isnan(result.coefficient[3]) and np.isnan(result.p[3])
        assert np.isfinite(result.p[:3]).all()


@pytest.mark.parametrize("change, options, message", [
    (lambda X, t, e: e.__setitem__(slice(None), 0), {},
     "Every time is censored"),
    (lambda X, t, e: t.__setitem__(3, -1.0), {}, "not negative, got -1 in "
                                                 "row 3"),
    (lambda X, t, e: t.__setitem__(3, np.inf), {}, "finite"),
    (lambda X, t, e: t.__setitem__(slice(None), 7.0), {},
     "Every survival time is 7"),
    (lambda X, t, e: t.__setitem__(slice(1, None), np.nan), {},
     "needs at least two with a time and an event; got 1 of 24"),
    (lambda X, t, e: e.__setitem__(2, 2), {}, "got 2 in row 2"),
    (lambda X, t, e: X.__setitem__((0, 0), np.nan), {},
     "attribute 0 has missing"),
    (lambda X, t, e: X.__setitem__((0, 1), 2), dict(diffs="signed"),
     "more than two values"),
    (None, dict(diffs="both"), "diffs"),
    (None, dict(regression="cox"), "regression"),
    (None, dict(impute=1), "impute"),
])
def test_bad_input_is_named(change, options, message):
    X, time, event, discrete, _ = random_survival(4)
    if change is not None:
        change(X, time, event)
    with pytest.raises(ReliefInputError, match=message):
        survival_npdr(X, time, event, discrete, **options)


def test_a_time_without_events_is_refused():
    X, time, _, _, _ = random_survival(4)
    with pytest.raises(ReliefInputError, match="needs the event"):
        survival_npdr(X, time, None)


def test_rows_without_time_or_event_are_left_out():
    X, time, event, discrete, _ = random_survival(6, n=30)
    time[4], event[7] = np.nan, np.nan
    X[4, 0] = np.nan  # of a row left out
    kept = np.setdiff1d(np.arange(30), [4, 7])
    with_missing = survival_npdr(X, time, event, discrete)
    without = survival_npdr(X[kept], time[kept], event[kept], discrete)
    assert_allclose(with_missing.coefficient, without.coefficient,
                    rtol=1e-12)


@pytest.mark.parametrize("diffs, regression", [("signed", "logistic"),
                                               ("absolute", "linear")])
def test_the_penalised_fit_minimises_glmnets_objective(diffs, regression):
    """The literal objective over the literal pairs, minimised by a
    general optimiser from the fit's answer, finds nothing lower."""
    X, time, event, _, _ = random_survival(7, n=40, a=5)
    options = dict(diffs=diffs, regression=regression, impute=True)
    lam = 0.3 * survival_npdr_net(X, time, event, **options).lambda_max
    got = survival_npdr_net(X, time, event, lam=lam, **options)
    logistic = regression == "logistic"
    design, outcome = ref.net_design(X, time, event, diffs == "signed",
                                     logistic, impute=True)
    objective = npdr_ref.net_objective(design, outcome, lam, 1.0, logistic)
    start = np.append(got.intercept, got.coefficient)
    best = minimize(objective, start, method="L-BFGS-B",
                    options=dict(ftol=1e-15, gtol=1e-12))
    assert got.converged and got.n_pairs == len(outcome)
    assert objective(start) <= best.fun + 1e-12
    assert (got.coefficient == 0).any() and (got.coefficient != 0).any()


#: the lasso settings of tests/data/survival/README.md
LASSO_SETTINGS = {
    "binomial_absolute_lasso": dict(diffs="absolute"),
    "binomial_signed_km_lasso": dict(diffs="signed", impute=True),
}


def r_lasso(setting, name="snpdr_R_lasso.csv", folder=DATA):
    """The rows of `setting` in the stored output of
    ``npdr_surv(regularize = TRUE)``, as float arrays by column."""
    with open(os.path.join(folder, name), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["setting"] == setting]
    return {column: np.array([float(r[column]) for r in rows])
            for column in rows[0] if column not in ("setting", "feature")}


@pytest.mark.parametrize("setting", sorted(LASSO_SETTINGS))
def test_the_lasso_is_the_authors_glmnet_fit(setting):
    """npdr_surv(regression = "binomial", regularize = TRUE) on the
    simulated data, at the lambda its cv.glmnet chose: the same pairs,
    lambda_max and optimum (glmnet refitted to thresh 1e-22) to 1e-8;
    glmnet's own answer, stopped at its default thresh 1e-7, to 1e-3 and
    with the same attributes selected."""
    names, X, _, time, event = simulated()
    expected = r_lasso(setting)
    got = survival_npdr_net(X, time, event, lam=expected["lambda"][0],
                            **{key: value for key, value in R_OPTIONS.items()
                               if key != "adjustment"},
                            **LASSO_SETTINGS[setting])
    assert got.converged and got.n_pairs == expected["n_pairs"][0]
    assert_allclose(got.lambda_max, expected["lambda_max"][0], rtol=1e-12)
    assert_allclose(got.coefficient, expected["beta_tight"], rtol=1e-8,
                    atol=1e-11)
    assert_allclose(got.intercept, expected["intercept_tight"][0], rtol=1e-8)
    assert_array_equal(got.coefficient != 0, expected["beta"] != 0)
    assert_allclose(got.coefficient, expected["beta"], rtol=1e-3)
    assert_allclose(got.intercept, expected["intercept"][0], rtol=1e-3)


R_SOURCES = (os.environ.get("NPDR_R_SOURCES"),
             os.environ.get("SNPDR_R_SOURCES"))


@pytest.mark.skipif(shutil.which("Rscript") is None
                    or not all(R_SOURCES) or not all(map(os.path.isdir,
                                                         R_SOURCES)),
                    reason="needs Rscript with glmnet, and the authors' R "
                           "code in $NPDR_R_SOURCES and $SNPDR_R_SOURCES")
def test_the_stored_lasso_output_is_what_r_gives(tmp_path):
    """benchmarks/snpdr_r.R run now gives the stored lasso output."""
    script = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                          "benchmarks", "snpdr_r.R")
    subprocess.run(["Rscript", script, "lasso", *R_SOURCES,
                    os.path.join(DATA, "survival_sim.csv"),
                    str(tmp_path / "lasso.csv")], check=True,
                   capture_output=True, timeout=600)
    for setting in LASSO_SETTINGS:
        stored, now = r_lasso(setting), r_lasso(setting, "lasso.csv",
                                                tmp_path)
        for column in stored:
            assert_allclose(now[column], stored[column], rtol=1e-6,
                            atol=1e-12, err_msg=column)
