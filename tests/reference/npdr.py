"""A slow, literal NPDR (Le, Dawkins & McKinney 2020), written from the
paper and the authors' R code (insilico/npdr: ``nearestNeighbors``,
``get_Ri_nearest``, ``npdrDiff``, ``diffRegression``), with the add-on's
diff and distance of :mod:`.relief` (range-scaled, RELIEF-D for missing
values, one group: NPDR's neighbours ignore the class).

For every attribute: the design matrix of the pairs, rows
(1, diff(A), diff(covariate) ...), spelled out; least squares by numpy's
``lstsq`` (an orthogonal factorisation, as R's ``lm``), the logistic fit by
Newton's method on the explicit matrices to convergence, its standard
error from the information matrix at the final coefficients; the
one-sided p-value ``pt(z, df, lower.tail = FALSE)`` of R's code.  It is
meant for tiny data only.
"""
import math

import numpy as np
from scipy.special import stdtr

from orangecontrib.relief.core.errors import ReliefInputError

from .relief import diff as attribute_diff
from .relief import distance, places_of, prepare


def knn_surf(n, sd_fraction=0.5):
    """knnSURF of the R package (utils.R): floor((n - 1) (1 - erf(f /
    sqrt 2)) / 2), at least 1."""
    return max(1, math.floor((n - 1) * (1 - math.erf(sd_fraction
                                                     / math.sqrt(2))) / 2))


def neighbourhood(D, i, method, k, ddof, ties, exclude_twins, surf_limit):
    """The neighbours of reference i, in increasing order
    (get_Ri_nearest), each with its weight in the fits: 1, or with the k
    nearest and ``ties="share"`` its share of the k places
    (:func:`.relief.places_of`)."""
    n = len(D)
    others = [j for j in range(n) if j != i]
    if method == "relieff":
        if ties == "all":  # slice_min(n = k + 1, with_ties = TRUE), self in
            limit = sorted(D[i][j] for j in others)[k - 1]
            chosen = [(j, 1.0) for j in others if D[i][j] <= limit]
        else:
            chosen = sorted((j, share) for j, share, _ in places_of(
                sorted((D[i][j], j) for j in others), k, ties))
    else:
        if method == "multisurf":
            mu = sum(D[i][j] for j in others) / len(others)
            squares = sum((D[i][j] - mu) ** 2 for j in others)
            sigma = math.sqrt(squares / (len(others) - ddof))
            limit = mu - sigma / 2
        else:
            limit = surf_limit
        chosen = [(j, 1.0) for j in others if D[i][j] < limit]
    if exclude_twins:
        chosen = [(j, w) for j, w in chosen if D[i][j] > 0]
    return chosen


def pairs(ctx, method, k, ddof, ties, exclude_twins):
    """The ordered (reference, neighbour, weight) pairs, references in
    order."""
    n = ctx.n
    D = [[distance(i, j, ctx) for j in range(n)] for i in range(n)]
    all_pairs = [D[i][j] for i in range(n) for j in range(i + 1, n)]
    surf_limit = sum(all_pairs) / len(all_pairs)
    if k is None:
        k = knn_surf(n)
    k = min(k, n - 1)
    return [(i, j, w) for i in range(n)
            for j, w in neighbourhood(D, i, method, k, ddof, ties,
                                      exclude_twins, surf_limit)]


def fit_linear(design, outcome, weights, df):
    """(coefficients, se of column 1) of weighted least squares: minimise
    sum w (y - x b)^2; sigma^2 = sum w r^2 / df."""
    root = np.sqrt(weights)
    coefficients = np.linalg.lstsq(design * root[:, None], outcome * root,
                                   rcond=None)[0]
    residual = outcome - design @ coefficients
    sigma2 = weights @ (residual * residual) / df
    inverse = np.linalg.inv(design.T @ (design * weights[:, None]))
    return coefficients, math.sqrt(sigma2 * inverse[1, 1])


def logit_mean(eta):
    """R's ``binomial()$linkinv``: e^eta / (1 + e^eta), e^eta taken as
    DBL_EPSILON (or its inverse) beyond |eta| = 30 (family.c), so that mu
    never reaches 0 or 1."""
    eps = np.finfo(np.float64).eps
    t = np.where(eta < -30, eps, np.where(eta > 30, 1 / eps,
                                          np.exp(np.clip(eta, -30, 30))))
    return t / (1 + t)


def is_singular(information):
    """Whether Cholesky's factorisation of the information matrix meets
    a pivot of at most 1e-12 times its diagonal entry: its columns are
    collinear as far as float64 tells (a constant diff, or the weights
    mu (1 - mu) of a separating fit all at R's limit)."""
    try:
        lower = np.linalg.cholesky(information)
    except np.linalg.LinAlgError:
        return True
    return bool(np.any(np.diag(lower) ** 2 <= 1e-12 * np.diag(information)))


def fit_logistic(design, outcome, weights, df, iterations=50):
    """(coefficients, se of column 1, converged) of the logistic maximum
    likelihood, each pair's log-likelihood times its weight, as R's glm
    fits it: Newton's (IRLS) steps from the intercept logit(mean outcome)
    under R's link (:func:`logit_mean`), until a step would move no
    coefficient by more than 1e-10 times the largest (at least 1), at
    most `iterations` steps.  A fit that does not converge (separated
    outcomes: the likelihood has no finite maximum) gives its last
    iterate, not converged, as glm does with a warning; NaN where the
    information becomes singular (:func:`is_singular`)."""
    mean = weights @ outcome / weights.sum()
    coefficients = np.zeros(design.shape[1])
    coefficients[0] = math.log(mean / (1 - mean))

    def information_and_step():
        mu = logit_mean(design @ coefficients)
        information = design.T @ (design * (weights * mu * (1 - mu))[:, None])
        if is_singular(information):
            raise np.linalg.LinAlgError("singular information")
        return information, np.linalg.solve(
            information, design.T @ (weights * (outcome - mu)))

    converged = False
    try:
        for _ in range(iterations):
            information, step = information_and_step()
            if np.max(np.abs(step)) <= 1e-10 * max(
                    1.0, np.max(np.abs(coefficients))):
                converged = True
                break
            coefficients = coefficients + step
        else:
            information, _ = information_and_step()
        se = math.sqrt(np.linalg.inv(information)[1, 1])
    except np.linalg.LinAlgError:
        return np.full(design.shape[1], np.nan), float("nan"), False
    return coefficients, se, converged


def refuse_unfittable(outcome, k, regression):
    """ReliefInputError when no regression fits the pairs' outcomes: no
    more pairs than the k coefficients, or (logistic) a single outcome."""
    if len(outcome) <= k:
        raise ReliefInputError(
            f"NPDR found {len(outcome)} neighbour pairs, too few for {k} "
            f"coefficients")
    if not regression and outcome.min() == outcome.max():
        raise ReliefInputError("Every neighbour pair is one of "
                               + ("hits" if outcome[0] == 0 else "misses"))


def npdr(X, y, discrete=None, covariates=None, covariate_discrete=None,
         regression=False, method="multisurf", k=None, ddof=0,
         ties="share", exclude_twins=False, diff_kind="linear",
         t_eq=0.04, t_diff=0.1):
    """Per attribute: (coefficient, se, statistic, p, intercept, covariate
    coefficients, converged) as lists, and (df, number of pairs); the pairs counted
    by their weights (the places of the k nearest)."""
    ctx, targets = prepare(X, y, discrete, diff_kind, t_eq, t_diff, None,
                           regression=True)
    kept = [i for i in range(len(y)) if not math.isnan(float(y[i]))]
    weighted = pairs(ctx, method, k, ddof, ties, exclude_twins)
    found = [(i, j) for i, j, _ in weighted]
    weights = np.array([w for _, _, w in weighted])
    counted = round(weights.sum())
    if regression:
        span = max(targets) - min(targets)
        outcome = np.array([abs(targets[i] - targets[j]) / span
                            for i, j in found])
    else:
        outcome = np.array([1.0 if targets[i] != targets[j] else 0.0
                            for i, j in found])
    covariate_columns = []
    if covariates is not None:
        C = np.asarray(covariates, dtype=float).reshape(len(y), -1)[kept]
        for c in range(C.shape[1]):
            column = C[:, c]
            if covariate_discrete is not None and covariate_discrete[c]:
                covariate_columns.append(
                    [1.0 if column[i] != column[j] else 0.0
                     for i, j in found])
            else:
                span = column.max() - column.min()
                covariate_columns.append(
                    [abs(column[i] - column[j]) / span for i, j in found])
    df = counted - 2 - len(covariate_columns)
    refuse_unfittable(outcome, 2 + len(covariate_columns), regression)
    out = []
    for A in range(ctx.a):
        design = np.array([[1.0, attribute_diff(A, i, j, ctx)]
                           + [c[p] for c in covariate_columns]
                           for p, (i, j) in enumerate(found)])
        if np.linalg.matrix_rank(design) < design.shape[1]:
            nan = float("nan")  # the attribute's diff is constant: no fit
            out.append((nan, nan, nan, nan, nan, [nan] * len(
                covariate_columns), False))
            continue
        if regression:
            (coefficients, se), converged = fit_linear(
                design, outcome, weights, df), True
        else:
            coefficients, se, converged = fit_logistic(design, outcome,
                                                       weights, df)
        statistic = coefficients[1] / se
        out.append((coefficients[1], se, statistic, stdtr(df, -statistic),
                    coefficients[0], list(coefficients[2:]), converged))
    return [list(column) for column in zip(*out)], (df, counted)


def npdr_coefficients(X, y, discrete=None, *, task="classification",
                      deviation="population", diff="linear", t_eq=0.04,
                      t_diff=0.1, **_):
    """The coefficient of every attribute over MultiSURF's pairs, called
    as the registry's estimator (``core.variants.npdr.npdr_coefficients``)."""
    (coefficients, *_), _ = npdr(
        X, y, discrete, regression=task == "regression", method="multisurf",
        ddof=1 if deviation == "sample" else 0, diff_kind=diff, t_eq=t_eq,
        t_diff=t_diff)
    return coefficients


def net_objective(design, outcome, lam, l1_ratio, logistic):
    """glmnet's objective of NPDR's penalised fit as a function of
    (b_0, b) on the raw diffs (`design` without its column of ones): the
    loss over the P pairs (the logistic deviance over 2, or half the
    squared error) plus lam [(1 - alpha)/2 (b sd)^2 + alpha |b sd|], sd
    the diffs' standard deviations (denominator P)."""
    sd = design.std(axis=0)

    def objective(coefficients):
        intercept, b = coefficients[0], coefficients[1:]
        eta = intercept + design @ b
        if logistic:
            loss = np.mean(np.logaddexp(0, eta) - outcome * eta)
        else:
            loss = np.mean((outcome - eta) ** 2) / 2
        scaled = b * sd
        return loss + lam * ((1 - l1_ratio) / 2 * scaled @ scaled
                             + l1_ratio * np.abs(scaled).sum())
    return objective


def npdr_net_design(X, y, discrete=None, regression=False, **options):
    """The pairs' raw diffs (pairs x attributes) and outcome of NPDR's
    neighbourhoods (options of :func:`npdr`)."""
    ctx, targets = prepare(X, y, discrete, "linear", 0.04, 0.1, None,
                           regression=True)
    found = [(i, j) for i, j, _ in pairs(
        ctx, options.get("method", "multisurf"), options.get("k"),
        options.get("ddof", 0), options.get("ties", "lower-index"),
        options.get("exclude_twins", False))]
    design = np.array([[attribute_diff(A, i, j, ctx) for A in range(ctx.a)]
                       for i, j in found])
    if regression:
        span = max(targets) - min(targets)
        outcome = np.array([abs(targets[i] - targets[j]) / span
                            for i, j in found])
    else:
        outcome = np.array([float(targets[i] != targets[j])
                            for i, j in found])
    return design, outcome
