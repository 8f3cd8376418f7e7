"""reGAIN: a regression per attribute and per pair of attributes.

The regression genetic association interaction network (Davis et al.
2013) puts on the diagonal of a matrix each attribute's main effect and
off the diagonal each pair's interaction, both as Wald's statistic of one
coefficient::

    G[a, a]:  y ~ b0 + b_a x_a + covariates                 (b_a)
    G[a, b]:  y ~ b0 + b_a x_a + b_b x_b + b_ab x_a x_b
                 + covariates                              (b_ab)

a logistic regression for two classes (z), a linear one for a number (t).
With ``main_effects=False`` the pair's model has no b_a x_a + b_b x_b
(R's ``excludeMainEffects``).  A nominal attribute enters by its value
codes, as a genotype 0/1/2 does (the authors' use); a row with a missing
value of the model's variables is left out of that model (R's
``na.omit``).

The fits are R's (:mod:`.glm`): the authors' ``regain()`` of insilico/npdr
(``R/regain.R``), run as it is on the data in ``tests/data/regain``, gives
the same statistics to 1e-8.  Where it differs, ``doc/interactions.md``
says so: R fits every pair's model as a logistic regression whatever the
family asked for, so that a numeric target stops it with an error (here
it is linear), and a constant attribute stops it too (refused here, by
name).  EpistasisRank and EpistasisKatz (:mod:`.epistasis_rank`) rank the
attributes by their place in this network.

This module imports neither Orange nor Qt.

References
----------
Davis, N. A., Lareau, C. A., White, B. C., Pandey, A., Wiley, G.,
Montgomery, C. G., Gaffney, P. M., McKinney, B. A. (2013). Encore: genetic
association interaction network centrality pipeline and application to
SLE exome data. Genetic Epidemiology 37(6):614-621.
"""
from collections import namedtuple

import numpy as np

from ..errors import ReliefInputError
from .glm import fit_glms
from ..options import check_choice
from ..prepare import TASKS, as_real
from ..progress import report

RegainResult = namedtuple("RegainResult", [
    "statistic",       # (a, a) G: main effects' z (or t) on the diagonal,
                       # interactions' off it; symmetric
    "coefficient",     # (a, a) the coefficients b_a and b_ab
    "standard_error",  # (a, a) their standard errors
    "p",               # (a, a) two-sided p-values
    "converged",       # (a, a) bool: the fit converged (R's converged)
    "regression",      # "logistic" (a class) or "linear" (a number)
])

#: bytes of the designs fitted at once (a few fits' worth at n = 10^5)
CHUNK_BYTES = 32 * 2 ** 20


def regain(X, y, covariates=None, *, task="classification",
           main_effects=True, progress_callback=None):
    """The reGAIN matrix of the attributes of `X` (Davis et al. 2013).

    Parameters
    ----------
    X : array (n, a)
        At least two attributes, as numbers (nominal ones by their codes);
        NaN marks a missing value.
    y : array (n,)
        Class codes of two classes (logistic fits) or, with
        ``task="regression"``, a number (linear fits); NaN: left out.
    covariates : array (n, c) or None
        Numbers in every model (age, sex, batch), not scored.
    task : "classification" or "regression"
    main_effects : bool
        Whether a pair's model has both attributes' main effects (True,
        the authors' default) or only their product.
    progress_callback : callable(float) or None

    Returns
    -------
    RegainResult
        NaN where a model's design is rank deficient (an attribute equal
        to a multiple of another, or of a covariate, over the rows).

    Raises
    ------
    ReliefInputError
        Fewer than two attributes, a constant attribute (named by its
        column), a class of other than two values, too few rows.
    """
    task = check_choice("task", task, TASKS)
    X = as_real(X, "X")
    if X.ndim != 2 or X.shape[1] < 2:
        raise ReliefInputError(
            f"reGAIN needs a 2-D X of at least two attributes (it fits "
            f"pairs), got shape {X.shape}.")
    y = as_real(y, "y").ravel()
    if len(y) != len(X):
        raise ReliefInputError(f"X has {len(X)} rows and y {len(y)}.")
    covariates = (np.zeros((len(X), 0)) if covariates is None
                  else as_real(covariates, "covariates").reshape(len(X), -1))
    family = family_of(y, task)
    check_columns(X, "attribute")
    check_columns(covariates, "covariate")
    known = ~np.isnan(y) & ~np.isnan(covariates).any(axis=1)
    y = np.where(known, y, 0.0)
    n_attributes = X.shape[1]
    mains = [(a, a) for a in range(n_attributes)]
    pairs = [(a, b) for a in range(n_attributes)
             for b in range(a + 1, n_attributes)]
    per_chunk = max(1, CHUNK_BYTES // (8 * len(X) * (4 + covariates.shape[1])))
    chunks = [group[i:i + per_chunk] for group in (mains, pairs)
              for i in range(0, len(group), per_chunk)]
    fits, done = {}, 0
    for chunk in chunks:
        fits.update(fit_pairs(X, y, known, covariates, chunk, family,
                              main_effects))
        done += len(chunk)
        report(progress_callback, done / (len(mains) + len(pairs)))
    return assemble(fits, n_attributes, family)


def family_of(y, task):
    """The GLM family of the target: binomial for two class codes,
    gaussian for a number."""
    if task == "regression":
        return "gaussian"
    values = np.unique(y[~np.isnan(y)])
    if len(values) != 2:
        raise ReliefInputError(
            f"reGAIN's logistic regression needs a class of two values, "
            f"got {len(values)}; a numeric target takes "
            f"task='regression'.")
    if not np.array_equal(values, [0, 1]):
        raise ReliefInputError(f"The class codes must be 0 and 1, got "
                               f"{values.tolist()}.")
    return "binomial"


def check_columns(columns, what):
    """ReliefInputError naming the first constant column (no model can
    fit a constant beside the intercept)."""
    for c in range(columns.shape[1]):
        known = columns[~np.isnan(columns[:, c]), c]
        if len(known) == 0 or np.ptp(known) == 0:
            raise ReliefInputError(
                f"{what} {c} is constant (or unknown) on every row: "
                f"reGAIN cannot fit it; leave it out.")


def fit_pairs(X, y, known, covariates, pairs, family, main_effects):
    """{(a, b): the statistic, coefficient, standard error, p and
    convergence of the fit's tested column} for `pairs`, all mains (a == b) or
    all pairs."""
    first = X[:, [a for a, _ in pairs]].T
    second = X[:, [b for _, b in pairs]].T
    rows = known & ~np.isnan(first) & ~np.isnan(second)
    first, second = np.where(rows, first, 0.0), np.where(rows, second, 0.0)
    ones = np.ones_like(first)
    shared = np.broadcast_to(np.nan_to_num(covariates),
                             (len(pairs),) + covariates.shape)
    if pairs[0][0] == pairs[0][1]:
        columns = [ones, first]
        tested = 1
    else:
        columns = [ones, first, second] if main_effects else [ones]
        tested = -1
    designs = np.concatenate(
        [np.stack(columns, axis=-1), shared]
        + ([] if tested == 1 else [(first * second)[..., None]]), axis=-1)
    fits = fit_glms(designs, y, rows.astype(np.float64), family)
    return {pair: (fits.statistic[i, tested], fits.coefficient[i, tested],
                   fits.standard_error[i, tested], fits.p[i, tested],
                   fits.converged[i])
            for i, pair in enumerate(pairs)}


def assemble(fits, n_attributes, family):
    """The symmetric matrices of the fits."""
    fields = [np.full((n_attributes, n_attributes), np.nan) for _ in range(4)]
    converged = np.zeros((n_attributes, n_attributes), bool)
    for (a, b), values in fits.items():
        for field, value in zip(fields, values):
            field[a, b] = field[b, a] = value
        converged[a, b] = converged[b, a] = values[-1]
    regression = "logistic" if family == "binomial" else "linear"
    return RegainResult(*fields, converged, regression)
