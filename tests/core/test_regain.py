"""reGAIN (core.networks.regain, on core.networks.glm) and EpistasisRank / EpistasisKatz
(core.networks.epistasis_rank) against the authors' R code run as it is
(tests/data/regain), against literal references (tests.reference.network),
and their checks."""
import gzip
import os

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.networks.epistasis_rank import (epistasis_katz,
                                                               epistasis_rank)
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.networks.regain import regain
from tests.reference import network as ref

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data")
REGAIN = os.path.join(DATA, "regain")
GAMETES = os.path.join(DATA,
                       "gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01.txt.gz")
REBATE = os.path.join(DATA, "rebate")
MISSING = os.path.join(
    REBATE, "GAMETES_2.2_dev_peter_2wayEpi_NA_Datasets_Loc_2_Qnt_2_Pop_"
    "100000", "a_20", "s_1600", "her_0.4__maf_0.2", "NA_0.1",
    "a_20s_1600her_0.4__maf_0.2_EDM-2",
    "a_20s_1600her_0.4__maf_0.2_EDM-2_01.txt.gz")
CONTINUOUS = os.path.join(
    REBATE, "GAMETES_2.2_dev_peter_2wayEpi_contEndpoint_Datasets_"
    "Loc_2_Qnt_2_Pop_100000", "a_20", "s_1600", "her_0.4__maf_0.2", "sd_0.5",
    "a_20s_1600her_0.4__maf_0.2_EDM-2",
    "a_20s_1600her_0.4__maf_0.2_EDM-2_01.txt.gz")
DIABETES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                        "orangecontrib", "relief", "datasets", "diabetes.tab")


def archive(path):
    """(X, y, no covariates) of a file of the benchmark (NA: missing)."""
    with gzip.open(path, "rt") as file:
        table = np.genfromtxt(file, skip_header=1, missing_values="NA",
                              filling_values=np.nan)
    return table[:, :-1], table[:, -1], None


def diabetes():
    """(X, y, covariates) of Pima diabetes: 7 attributes, age a covariate,
    tested_positive 1."""
    with open(DIABETES, encoding="utf-8") as file:
        rows = [line.rstrip("\n").split("\t") for line in file][3:]
    y = np.array([row[0] == "tested_positive" for row in rows], float)
    values = np.array([row[1:] for row in rows], float)
    return values[:, :-1], y, values[:, -1:]


def r_pairs(name, n_attributes):
    """The (a, a) matrices of the R output `name`: statistic, coefficient,
    standard error, p (pairs filled both ways)."""
    table = np.genfromtxt(os.path.join(REGAIN, name), delimiter=",",
                          skip_header=1, usecols=range(2, 7))
    matrices = np.zeros((5, n_attributes, n_attributes))
    rows = iter(table)
    for a in range(n_attributes):
        for b in range(a, n_attributes):
            coefficient, se, statistic, p, converged = next(rows)
            matrices[:, a, b] = matrices[:, b, a] = (
                statistic, coefficient, se, p, converged)
    return matrices


CASES = {"gametes": (lambda: archive(GAMETES), "gametes_logistic.csv",
                     "classification"),
         "missing": (lambda: archive(MISSING), "missing_logistic.csv",
                     "classification"),
         "diabetes": (diabetes, "diabetes_logistic_age.csv",
                      "classification"),
         "linear": (lambda: archive(CONTINUOUS), "contendpoint_linear.csv",
                    "regression")}


@pytest.mark.parametrize("case", CASES)
def test_rs_regain(case):
    """R's statistics to 1e-8 (and its coefficients, standard errors and
    p-values), on SNPs, on SNPs with 10 % missing values, on numeric
    attributes with a covariate, and linear on a numeric target."""
    load, name, task = CASES[case]
    X, y, covariates = load()
    got = regain(X, y, covariates, task=task)
    statistic, coefficient, se, p, converged = r_pairs(name, X.shape[1])
    assert_allclose(got.statistic, statistic, rtol=0, atol=1e-8)
    assert_allclose(got.coefficient, coefficient, rtol=1e-8, atol=1e-12)
    assert_allclose(got.standard_error, se, rtol=1e-8)
    assert_allclose(got.p, p, rtol=1e-7, atol=1e-12)
    assert_array_equal(got.converged, converged.astype(bool))
    assert got.regression == ("logistic" if task == "classification"
                              else "linear")


def r_ranks(name):
    table = np.genfromtxt(os.path.join(REGAIN, name), delimiter=",",
                          skip_header=1, usecols=(1, 2))
    return table[:, 0], table[:, 1]


@pytest.mark.parametrize("case, name", [("gametes", "gametes_ranks.csv"),
                                        ("diabetes", "diabetes_ranks.csv")])
def test_rs_epistasis_rank_and_katz(case, name):
    """EpistasisRank and R's EpistasisKatz (r_compatible) on reGAIN's
    matrix equal R's; Katz as intended (the diagonal cleared) differs."""
    load, _, task = CASES[case]
    X, y, covariates = load()
    G = regain(X, y, covariates, task=task).statistic
    rank, katz = r_ranks(name)
    assert_allclose(epistasis_rank(G), rank, rtol=1e-8)
    assert_allclose(epistasis_katz(G, r_compatible=True), katz, rtol=1e-8)
    assert not np.allclose(epistasis_katz(G), katz, rtol=1e-3)


def small_network(seed, n=6):
    rng = np.random.default_rng(seed)
    G = rng.normal(size=(n, n))
    return (G + G.T) / 2


@pytest.mark.parametrize("seed", range(4))
def test_literal_references(seed):
    """EpistasisRank as the fixed point of its equation; EpistasisKatz as
    the series of walks on the network without its diagonal, with alpha
    80 % of the largest that converges."""
    G = small_network(seed)
    G[np.arange(6), np.arange(6)] += 3  # positive column sums
    G += 1.5
    assert_allclose(epistasis_rank(G), ref.epistasis_rank(G.tolist()),
                    rtol=1e-9)
    G = small_network(seed)
    assert_allclose(epistasis_katz(G), ref.epistasis_katz(G.tolist()),
                    rtol=1e-7, atol=1e-12)
    beta = np.linspace(1, 2, 6)
    assert_allclose(epistasis_katz(G, beta=beta),
                    ref.epistasis_katz(G.tolist(), beta=beta), rtol=1e-7)


def test_katz_r_compatible_subtracts_the_diagonal_from_every_column():
    """R's ``A - diag(A)``: entry (i, j) less A[i, i], so the walks see
    the main effects; with a zero diagonal both readings agree."""
    G = small_network(7)
    np.fill_diagonal(G, 0)
    assert_allclose(epistasis_katz(G, alpha=0.1, beta=np.ones(6)),
                    epistasis_katz(G, alpha=0.1, beta=np.ones(6),
                                   r_compatible=True), rtol=1e-12)
    G[np.arange(6), np.arange(6)] = np.arange(1, 7)
    expected = np.linalg.solve(
        np.eye(6) - 0.1 * (G - np.arange(1, 7)[:, None]), np.ones(6))
    assert_allclose(epistasis_katz(G, alpha=0.1, beta=np.ones(6),
                                   r_compatible=True), expected, rtol=1e-12)


def test_the_true_pair_is_regains_strongest_interaction():
    X, y, _ = archive(GAMETES)
    G = np.abs(regain(X, y).statistic)
    np.fill_diagonal(G, 0)
    assert set(np.unravel_index(G.argmax(), G.shape)) == {18, 19}


def test_row_order_and_main_effects_only():
    X, y, _ = archive(GAMETES)
    rows = np.random.default_rng(0).choice(len(X), 400, replace=False)
    X, y = X[rows, :5], y[rows]
    order = np.random.default_rng(1).permutation(400)
    assert_allclose(regain(X[order], y[order]).statistic,
                    regain(X, y).statistic, rtol=1e-9, atol=1e-12)
    products = regain(X, y, main_effects=False)
    assert_allclose(np.diag(products.statistic),
                    np.diag(regain(X, y).statistic), rtol=1e-12)
    assert not np.allclose(products.statistic, regain(X, y).statistic)


@pytest.mark.parametrize("X, y, task, message", [
    (np.zeros((10, 1)), np.arange(10) % 2, "classification",
     "at least two attributes"),
    (np.column_stack([np.arange(10), np.ones(10)]), np.arange(10) % 2,
     "classification", "attribute 1 is constant"),
    (np.random.default_rng(0).random((9, 3)), np.arange(9) % 3,
     "classification", "class of two values, got 3"),
    (np.random.default_rng(0).random((9, 3)), np.arange(9) % 2, "ranking",
     "task must be one of"),
])
def test_bad_input(X, y, task, message):
    with pytest.raises(ReliefInputError, match=message):
        regain(X, y, task=task)


def test_a_pair_equal_to_a_covariate_has_no_fit():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, (200, 3)).astype(float)
    y = (rng.random(200) < 0.5).astype(float)
    got = regain(X, y, covariates=X[:, :1] * 2)
    assert np.isnan(got.statistic[0, 0]) and np.isnan(got.statistic[0, 1])
    assert np.isfinite(got.statistic[1, 2])
    assert not got.converged[0, 1]


@pytest.mark.parametrize("matrix, message", [
    (np.ones((2, 3)), "square"), (np.array([[1, np.nan], [np.nan, 1]]),
                                  "finite"),
    (np.eye(3), "sum to 0")])
def test_rank_bad_input(matrix, message):
    with pytest.raises(ReliefInputError, match=message):
        epistasis_rank(matrix)


def test_katz_needs_a_symmetric_matrix():
    with pytest.raises(ReliefInputError, match="symmetric"):
        epistasis_katz(np.arange(9.0).reshape(3, 3))
