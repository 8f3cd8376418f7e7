"""Survival NPDR with an elastic-net penalty: every attribute at once
(Kampmeyer et al. 2026, ``npdr_surv(regularize = TRUE)``; glmnet's
objective, Friedman, Hastie & Tibshirani 2010).

Where :func:`.survival_npdr.survival_npdr` fits each attribute alone,
this fits the pairs' outcome -- by default the authors': whether the
neighbour lives at least as long as the reference, a logistic fit -- on
the diffs of all attributes together, with glmnet's penalty on the
standardised diffs, by :func:`.npdr_net.penalised_fit` (coordinate
descent, within Newton's steps for the logistic fit).  ``l1_ratio`` 1 is
the lasso.  The coefficients may take either sign (signed diffs: a main
effect either way).

The authors choose the penalty by glmnet's ten-fold cross-validation of
the misclassification rate (``lambda.1se``), folds drawn by R's random
generator; here the penalty is `lam`, by default a share of the
smallest that leaves every attribute out (:data:`.npdr_net.LAMBDA_SHARE`).

This module imports neither Orange nor Qt.
"""
import numpy as np

from .npdr import counted_pairs
from .npdr_net import L1_RATIO, LAM, NpdrNetResult, PairColumns, penalised_fit
from ..options import (DEVIATION, FILTER_PAIRS, IMPUTE, NPDR_NEIGHBOURHOOD,
                       SCALE, SURVIVAL_DIFFS, TIES, TWINS, check)
from ..progress import wrap_callback
from .survival_npdr import PAIRS_SHARE, survival_design


class DesignColumns(PairColumns):
    """The standardised diffs of each attribute over the pairs of a
    :data:`.survival_npdr.SurvivalDesign`, computed when asked for."""

    def __init__(self, design, progress_callback=None):
        self.design = design
        self.standardise(design.n_attributes, design.weights,
                         progress_callback)

    def raw(self, a):
        return self.design.diffs_of(slice(a, a + 1))[0]


def survival_npdr_net(X, time, event, discrete=None, *, lam=None,
                      l1_ratio=1.0, nonnegative=False,
                      regression="logistic", diffs=SURVIVAL_DIFFS,
                      impute=IMPUTE, filter_pairs=FILTER_PAIRS,
                      neighbourhood=NPDR_NEIGHBOURHOOD, k_nearest=None,
                      deviation=DEVIATION, ties=TIES, twins=TWINS,
                      scale=SCALE, progress_callback=None):
    """Survival NPDR with an elastic-net penalty.

    Parameters
    ----------
    lam : float or None
        The penalty's weight (glmnet's lambda); None:
        :data:`.npdr_net.LAMBDA_SHARE` of `lambda_max`.
    l1_ratio : float in [0, 1]
        glmnet's alpha: 1 the lasso (the authors' default), 0 ridge.
    nonnegative : bool
        Keep the coefficients >= 0.
    regression : "logistic" or "linear"
        The authors' penalised fit is the logistic one.

    The other parameters are :func:`.survival_npdr.survival_npdr`'s
    (no covariates: the penalty would select them too).

    Returns
    -------
    :data:`.npdr_net.NpdrNetResult`
    """
    l1_ratio = L1_RATIO("l1_ratio", l1_ratio)
    nonnegative = check("nonnegative", nonnegative)
    if lam is not None:
        lam = LAM("lam", lam)
    design = survival_design(
        X, time, event, discrete, diffs=diffs, regression=regression,
        impute=impute, filter_pairs=filter_pairs,
        neighbourhood=neighbourhood, k_nearest=k_nearest,
        deviation=deviation, ties=ties, twins=twins, scale=scale,
        progress_callback=wrap_callback(progress_callback, 0, PAIRS_SHARE))
    columns = DesignColumns(design, wrap_callback(progress_callback,
                                                  PAIRS_SHARE, 0.5))
    coefficient, intercept, lam, lambda_max, converged = penalised_fit(
        columns, design.outcome, design.logistic, lam, l1_ratio,
        nonnegative, design.weights,
        wrap_callback(progress_callback, 0.5, 1.0))
    return NpdrNetResult(
        coefficient=np.where(columns.sd > 0, coefficient, 0.0),
        intercept=intercept, lam=lam, lambda_max=lambda_max,
        l1_ratio=l1_ratio,
        n_pairs=counted_pairs(design.outcome, design.weights),
        converged=converged,
        regression="logistic" if design.logistic else "linear")
