"""The Relief family as scikit-learn feature selectors (no Orange, no Qt).

Every selector is a ``SelectorMixin`` transformer: ``fit(X, y)`` computes
``feature_importances_`` with the add-on's core (exact float64 weights,
RELIEF-D for missing values, nominal columns as such), ``transform(X)``
keeps the selected columns.  Selection by number (`n_features_to_select`),
by weight (`threshold`) or by significance (`significance` = "stir" or
"permutation", `alpha`), combined when several are given; with none, the
attributes of positive weight (Relief's own cut: a positive weight means
near instances of different classes differ in the attribute more than
near instances of the same class).  They work in ``Pipeline`` and
``GridSearchCV``::

    from sklearn.pipeline import make_pipeline
    from sklearn.neighbors import KNeighborsClassifier
    from orangecontrib.relief.sklearn import MultiSURF

    model = make_pipeline(MultiSURF(n_features_to_select=5),
                          KNeighborsClassifier())

A selector is a subclass that names its variant of the core's registry
(:mod:`.core.registry`), whose weights and STIR neighbourhood it uses,
and takes the variant's own parameters (:meth:`ReliefSelector._options`).
"""
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .core.variants import multitarget
from .core.analysis import significance
from .core import registry
from .core.variants.iterative import iterated
from .core.variants.npdr import npdr_columns
from .core.variants.survival_npdr import survival_npdr_columns
from .core.errors import ReliefInputError
from .core.options import (ABSOLUTE, ALPHA, DEVIATION, DIFF, ITER_BETA,
                           ITER_CONVERGENCE, ITER_ROUNDS, ITER_TOL, K_RELIEFF,
                           K_RRELIEFF, N_PERMUTATIONS, RANDOM_STATE,
                           CONVENTION, T_DIFF, T_EQ, TIES, Constraint,
                           Interval, OneOf, Optional, check, check_choice,
                           check_needs)
from .core.validation import SURVIVAL_NAMES, checked_options
from .core.options import (FILTER_PAIRS, IMPUTE, NPDR_NEIGHBOURHOOD, SCALE,
                           SURVIVAL_DIFFS, SURVIVAL_REGRESSION, TWINS)
from .core.analysis.threshold import best_first, ranking_scores

__all__ = ["ReliefSelector", "ReliefF", "MuRelief", "RReliefF", "SURF",
           "SURFstar", "MultiSURF", "MultiSURFstar", "SWRF", "SWRFstar",
           "MultiSWRF", "MultiSWRFstar", "MultiSWRFDB", "MultiSWRFDBstar",
           "NPDR", "Iter", "MultiTargetRReliefF", "MultiLabelReliefF",
           "SurvivalNPDR"]


class _Count(Constraint):
    """A number of features: a positive integer, or a share of them in
    (0, 1] (scikit-learn's RFE; a bool is neither)."""
    requirement = "a positive integer or a share in (0, 1]"

    def __call__(self, name, value):
        if (not isinstance(value, numbers.Real) or isinstance(value, bool)
                or not (value >= 1 if isinstance(value, numbers.Integral)
                        else 0 < value <= 1)):
            self.fail(name, value)
        return value


#: the selection parameters, checked at fit as the core checks its own
#: (:data:`.core.options.PARAMETERS`, which also checks `alpha`)
SELECTION = {
    "n_features_to_select": Optional(_Count(), "no cut by number"),
    # a weight to exceed: any finite number (of SelectFromModel's forms of
    # `threshold`, the number; not its strings such as "mean")
    "threshold": Optional(Interval(-np.inf), "no cut by weight"),
    "significance": Optional(OneOf("stir", "permutation", "regression"),
                             "no test"),
}
#: the parameters that select, checked by fit and again by transform,
#: which reads them (``set_params`` may change them after fit)
SELECTED = (*SELECTION, "alpha", "absolute")


class ReliefSelector(SelectorMixin, BaseEstimator):
    """Common ground of the selectors.

    Parameters
    ----------
    n_features_to_select : int >= 1, float in (0, 1] or None
        Keep this many of the best features (a float: that share of them);
        more than there are keeps them all, with a warning (as RFE and
        SelectKBest).
    threshold : float or None
        Keep the features whose weight exceeds it (a finite number).
    significance : None, "stir", "permutation" or "regression"
        Keep the features significant at `alpha` after Benjamini-Hochberg
        (STIR: ReliefF, the SURF and the SWRF families, classification
        only, with the selector's options such as `convention`;
        "regression": NPDR's own p-values, NPDR only).
    alpha : float in [0, 1]
    n_permutations : int
        Of the permutation test (seeded by `random_state`); fit warns if
        they are too few for any feature to reach `alpha` (at least
        1 / alpha - 1 are needed).
    nominal_features : None, column indices or boolean mask
        The nominal columns: indices in 0..n_features-1 (a list or an integer
        array; empty: none) or a mask of one bool per feature; their values
        must be integer codes 0..V-1 (for other labels, encode them first,
        e.g. with OrdinalEncoder).
    n_iterations : int or None
        None: every instance is a reference once; an int: that many drawn
        at random with `random_state`.
    random_state : int or None
    diff : "linear", "squared" or "ramp"; t_eq, t_diff : float
        The diff of numeric features (see the core's documentation).
    absolute : bool
        Rank the features, and compare them with `threshold`, by the
        magnitude of their weights (scikit-rebate's ``rank_absolute``): a
        large negative weight counts as much as a large positive one
        (without a number or a threshold, every feature of a nonzero
        weight is kept).

    Attributes
    ----------
    feature_importances_ : array (n_features,)
        The Relief weights.
    pvalues_, qvalues_ : arrays (n_features,)
        With `significance`: the p-values and Benjamini-Hochberg q-values;
        NaN where STIR gives no verdict (fit warns why), never selected.
    n_features_in_, feature_names_in_
        As every scikit-learn estimator.

    Notes
    -----
    ``__init__`` keeps the parameters as given; ``fit`` checks each once,
    before any work, by the constraint the core declares for it
    (:data:`.core.options.PARAMETERS`), the message naming it as given.
    The selection parameters (`n_features_to_select`, `threshold`,
    `significance`, `alpha`) are read by ``transform`` and
    ``get_support``: changed by ``set_params`` after fit, they are checked
    there as fit checks them, and a `significance` test other than the one
    fit ran is refused (fit again).  The input must be real numbers:
    complex, structured and object arrays of other things are refused.
    """
    #: "classification" or "regression": what the targets are
    task = "classification"
    #: the variant of :mod:`.core.registry` the selector computes
    variant = None
    #: the selector's parameters that :data:`.core.options.PARAMETERS`
    #: declares by another name (None: not there, such as `threshold`, a
    #: weight to exceed, :data:`SELECTION`)
    aliases = {"threshold": None}

    def __init__(self, *, n_features_to_select=None, threshold=None,
                 significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, absolute=ABSOLUTE):
        self.n_features_to_select = n_features_to_select
        self.threshold = threshold
        self.significance = significance
        self.alpha = alpha
        self.n_permutations = n_permutations
        self.nominal_features = nominal_features
        self.n_iterations = n_iterations
        self.random_state = random_state
        self.diff = diff
        self.t_eq = t_eq
        self.t_diff = t_diff
        self.absolute = absolute

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True
        tags.target_tags.required = True
        return tags

    def fit(self, X, y):
        """Compute the weights (and p-values) of the features of `X`."""
        self._check_selection()
        params = self._parameters()
        check_choice("task", self.task, self.variant.tasks)
        check_needs("n_permutations", self.n_permutations, N_PERMUTATIONS,
                    "significance='permutation'",
                    self.significance == "permutation")
        # numbers kept in their dtype and sparse matrices sparse: the core
        # reads int8 genotypes, float32 and CSR as they are
        X, y = validate_data(self, X, y, ensure_all_finite="allow-nan",
                             accept_sparse=("csr", "csc"), dtype="numeric",
                             y_numeric=self.task == "regression")
        if X.shape[0] < 2:
            raise ValueError(f"Relief compares instances and needs at least "
                             f"two; got {X.shape[0]} sample.")
        if self.task == "classification":
            check_classification_targets(y)
            self.classes_, y = np.unique(y, return_inverse=True)
            y = y.astype(np.float64)
        count = self.n_features_to_select
        if isinstance(count, numbers.Integral) and count > X.shape[1]:
            warnings.warn(f"n_features_to_select={count} is more than the "
                          f"{X.shape[1]} features: all of them are kept.",
                          UserWarning)
        if self.significance == "permutation":
            self._check_permutations(X.shape[1])
        elif self.significance == "stir" and self.task == "classification":
            caveat = significance.stir_caveat(y)
            if caveat is not None:
                warnings.warn(f"{caveat} Use significance='permutation' for "
                              f"these data.", UserWarning)
        discrete = self._nominal_mask(X.shape[1])
        weights, pvalues = self._weights_and_pvalues(X, y, discrete, params)
        self.feature_importances_ = np.asarray(weights, dtype=np.float64)
        self._tested = self.significance
        if pvalues is not None:
            self.pvalues_ = pvalues
            self.qvalues_ = significance.adjust(pvalues, "bh")
        return self

    def _parameters(self, skip=()):
        """The parameters but those that select (:data:`SELECTED`) and
        `skip`, each that :data:`.core.options.PARAMETERS` declares
        checked once, by the name the user gave it (:attr:`aliases`), in
        its working type: what fit passes to the core's ``unchecked``
        functions."""
        return checked_options(
            {name: value for name, value in self.get_params(deep=False).items()
             if name not in SELECTED and name not in skip}, **self.aliases)

    def _weights_and_pvalues(self, X, y, discrete, params):
        """The weights and, with `significance`, the p-values (None
        without); STIR's from the same search of the neighbours as the
        weights where its neighbourhood gives them
        (:func:`~.core.analysis.significance.stir_and_weights`)."""
        if (self.significance == "stir" and self.task == "classification"
                and self.variant.stir is not None):
            weights, p = self._stir(X, y, discrete, params)
            if weights is None:  # ReliefF's pairs are summed apart
                weights = self._weights(X, y, discrete, params)
            return weights, p
        weights = self._weights(X, y, discrete, params)
        return weights, (None if self.significance is None
                         else self._pvalues(X, y, discrete, params))

    def _check_selection(self):
        """The selection parameters checked, by fit and again by
        transform, which reads them (``set_params`` may change them in
        between); a test other than the one fit ran is refused."""
        for name, constraint in SELECTION.items():
            constraint(name, getattr(self, name))
        check("alpha", self.alpha)
        check("absolute", self.absolute)
        check_needs("alpha", self.alpha, ALPHA, "significance",
                    self.significance is not None)
        tested = getattr(self, "_tested", self.significance)
        if self.significance not in (None, tested):
            raise ReliefInputError(
                f"significance={self.significance!r} was set after fit "
                f"(which ran {'no test' if tested is None else repr(tested)}"
                f"); fit again to select by it.")

    def _check_permutations(self, n_features):
        """Warn if `n_permutations` are too few for any feature to reach
        `alpha` after the adjustment, whatever the data, and say how many
        would do (:func:`~.core.analysis.significance.permutation_shortfall`)."""
        shortfall = significance.permutation_shortfall(
            n_features, self.n_permutations, self.alpha, "bh")
        if shortfall is None:
            return
        smallest, needed = shortfall
        advice = ("no number of permutations can reach it" if needed is None
                  else f"at least {needed} can")
        warnings.warn(
            f"n_permutations={self.n_permutations} cannot make any feature "
            f"significant at alpha={self.alpha}: the smallest "
            f"Benjamini-Hochberg q-value it can give is {smallest:.3g}; "
            f"{advice}.", UserWarning)

    def _nominal_mask(self, n_features):
        chosen = self.nominal_features
        mask = np.zeros(n_features, bool)
        if chosen is None:
            return mask
        chosen = np.asarray(chosen)
        if chosen.dtype == bool and chosen.ndim == 1:
            if len(chosen) != n_features:
                raise ReliefInputError(
                    f"nominal_features as a boolean mask must have one entry "
                    f"per feature ({n_features}), got {len(chosen)}.")
            return chosen.copy()
        if (chosen.ndim != 1
                or chosen.size and not np.issubdtype(chosen.dtype, np.integer)
                or ((chosen < 0) | (chosen >= n_features)).any()):
            raise ReliefInputError(
                f"nominal_features must be None, column indices in "
                f"0..{n_features - 1} or a boolean mask of {n_features} "
                f"entries, got {self.nominal_features!r}.")
        mask[chosen.astype(np.intp)] = True
        return mask

    def _options(self, params):
        """The variant's options, of the checked `params`
        (:meth:`_parameters`): these, and a subclass's own."""
        return {name: params[name] for name in ("n_iterations",
                                                "random_state", "diff",
                                                "t_eq", "t_diff")}

    def _weights(self, X, y, discrete, params):
        """The core's weights of the variant."""
        return _core_errors(self.variant.weights)(
            X, y, discrete, task=self.task, checked=True,
            **self._options(params))

    def _rescorer(self, X, y, discrete, params):
        """The weights of a permuted target, for the permutation test (a
        subclass whose neighbours do not depend on the target finds them
        once)."""
        return lambda target: self._weights(X, target, discrete, params)

    def _stir(self, X, y, discrete, params):
        """(weights or None, STIR's p-values) from one search of the
        neighbour pairs."""
        if self.variant.stir is None:
            raise ValueError(f"STIR tests the neighbour pairs of "
                             f"{significance.STIR_METHODS}; use "
                             f"significance='permutation' with "
                             f"{type(self).__name__}.")
        weights, result = _core_errors(
            significance.stir_and_weights.unchecked)(
            X, y, discrete, neighbourhood=self.variant.stir,
            **self._options(params))
        names = getattr(self, "feature_names_in_", range(X.shape[1]))
        note = significance.no_verdict(result, list(names))
        if note is not None:
            warnings.warn(note, UserWarning)
        return weights, result.p

    def _pvalues(self, X, y, discrete, params):
        if self.significance == "regression":
            raise ValueError(f"significance='regression' takes the p-values "
                             f"of NPDR's fits; use significance="
                             f"'permutation' with {type(self).__name__}.")
        if self.significance == "stir":
            if self.task != "classification":
                raise ValueError("STIR needs classes; use "
                                 "significance='permutation'.")
            return self._stir(X, y, discrete, params)[1]
        return significance.permutation_test.unchecked(
            self._rescorer(X, y, discrete, params), y,
            params["n_permutations"], params["random_state"])[1]

    def _get_support_mask(self):
        check_is_fitted(self)
        self._check_selection()
        weights = ranking_scores(self.feature_importances_, self.absolute)
        mask = ~np.isnan(weights)  # a feature without a weight is never kept
        criteria = False
        if self.threshold is not None:
            mask &= weights > self.threshold
            criteria = True
        if self.significance is not None:
            mask &= significance.significant(self.qvalues_, self.alpha)
            criteria = True
        count = self.n_features_to_select
        if count is not None:
            count = self._count(count, len(weights))
            order = best_first(weights)
            best = np.zeros(len(weights), bool)
            best[order[:count]] = True
            mask &= best
        elif not criteria:
            mask &= weights > 0
        return mask

    @staticmethod
    def _count(count, n_features):
        """The number of features to keep: `count` (checked at fit) if an
        integer, at most all of them; a share of them, at least one."""
        if isinstance(count, numbers.Integral):
            return min(count, n_features)
        return max(1, int(round(count * n_features)))


def _core_errors(function):
    """Run the core's `function`, turning a ReliefInputError into the
    ValueError scikit-learn expects (the message unchanged)."""
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except ReliefInputError as error:
            raise ValueError(str(error)) from None
    return call


class ReliefF(ReliefSelector):
    """ReliefF (Kononenko 1994): k nearest hits and misses per class.  With
    two classes and ``k_nearest=1`` it is Kira & Rendell's Relief.
    `ties`: "share" (default; the candidates tied at the k-th distance
    share the places left) or "lower-index" (the lower indices take them,
    as a stable sort does)."""
    variant = registry.RELIEFF

    def __init__(self, *, k_nearest=K_RELIEFF, n_features_to_select=None,
                 threshold=None, significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, ties=TIES, absolute=ABSOLUTE):
        super().__init__(
            n_features_to_select=n_features_to_select, threshold=threshold,
            significance=significance, alpha=alpha,
            n_permutations=n_permutations, nominal_features=nominal_features,
            n_iterations=n_iterations, random_state=random_state, diff=diff,
            t_eq=t_eq, t_diff=t_diff, absolute=absolute)
        self.k_nearest = k_nearest
        self.ties = ties

    def _options(self, params):
        return dict(super()._options(params), k_nearest=params["k_nearest"],
                    ties=params["ties"])


class MuRelief(ReliefF):
    """mu-Relief (Aggarwal et al. 2023; scikit-rebate 0.8): ReliefF over the k
    hits and misses of each class whose distances lie farthest from their
    class's mean distance; `convention` ("add-on", the add-on's, or
    "scikit-rebate") and `ties` as
    :func:`orangecontrib.relief.core.variants.murelief.murelief` takes them."""
    variant = registry.MURELIEF

    def __init__(self, *, k_nearest=K_RELIEFF, convention=CONVENTION,
                 n_features_to_select=None, threshold=None,
                 significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, ties=TIES, absolute=ABSOLUTE):
        super().__init__(
            k_nearest=k_nearest, n_features_to_select=n_features_to_select,
            threshold=threshold, significance=significance, alpha=alpha,
            n_permutations=n_permutations, nominal_features=nominal_features,
            n_iterations=n_iterations, random_state=random_state, diff=diff,
            t_eq=t_eq, t_diff=t_diff, ties=ties, absolute=absolute)
        self.convention = convention

    def _options(self, params):
        return dict(super()._options(params),
                    convention=params["convention"])


class RReliefF(ReliefSelector):
    """RReliefF (Robnik-Sikonja & Kononenko 1997) for a numeric target;
    `ties` as :class:`ReliefF`'s."""
    task = "regression"
    variant = registry.RRELIEFF

    def __init__(self, *, k_nearest=K_RRELIEFF, n_features_to_select=None,
                 threshold=None, significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, ties=TIES, absolute=ABSOLUTE):
        super().__init__(
            n_features_to_select=n_features_to_select, threshold=threshold,
            significance=significance, alpha=alpha,
            n_permutations=n_permutations, nominal_features=nominal_features,
            n_iterations=n_iterations, random_state=random_state, diff=diff,
            t_eq=t_eq, t_diff=t_diff, absolute=absolute)
        self.k_nearest = k_nearest
        self.ties = ties

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.single_output = True
        return tags

    def _options(self, params):
        return dict(super()._options(params), k_nearest=params["k_nearest"],
                    ties=params["ties"])

    def _rescorer(self, X, y, discrete, params):
        return _core_errors(significance.rrelieff_rescorer.unchecked)(
            X, y, discrete, **self._options(params))


class SURF(ReliefSelector):
    """SURF (Greene et al. 2009): every instance nearer than the mean
    distance is a neighbour.  `task`: "classification" or "regression"."""
    variant = registry.SURF

    def __init__(self, *, task="classification", n_features_to_select=None,
                 threshold=None, significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, absolute=ABSOLUTE):
        super().__init__(
            n_features_to_select=n_features_to_select, threshold=threshold,
            significance=significance, alpha=alpha,
            n_permutations=n_permutations, nominal_features=nominal_features,
            n_iterations=n_iterations, random_state=random_state, diff=diff,
            t_eq=t_eq, t_diff=t_diff, absolute=absolute)
        self.task = task

    def _rescorer(self, X, y, discrete, params):
        # the variant's neighbourhood, which STIR tests, is its method
        return _core_errors(significance.surf_rescorer.unchecked)(
            X, y, discrete, task=self.task, method=self.variant.stir,
            **self._options(params))


class SURFstar(SURF):
    """SURF* (Greene et al. 2010): SURF minus the far instances' update."""
    variant = registry.SURFSTAR


class MultiSURF(SURF):
    """MultiSURF (Urbanowicz et al. 2018): neighbours nearer than each
    reference's mean distance minus half its standard deviation
    (`deviation`: "population" or "sample")."""
    variant = registry.MULTISURF

    def __init__(self, *, task="classification", deviation=DEVIATION,
                 n_features_to_select=None, threshold=None,
                 significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, absolute=ABSOLUTE):
        super().__init__(
            task=task, n_features_to_select=n_features_to_select,
            threshold=threshold, significance=significance, alpha=alpha,
            n_permutations=n_permutations, nominal_features=nominal_features,
            n_iterations=n_iterations, random_state=random_state, diff=diff,
            t_eq=t_eq, t_diff=t_diff, absolute=absolute)
        self.deviation = deviation

    def _options(self, params):
        return dict(super()._options(params), deviation=params["deviation"])


class MultiSURFstar(MultiSURF):
    """MultiSURF* (Granizo-Mackenzie & Moore 2013): MultiSURF and the far
    instances scored by their similarity."""
    variant = registry.MULTISURFSTAR


class SWRF(ReliefSelector):
    """SWRF (Stokes & Visweswaran 2012): SURF's neighbours weighted by a
    sigmoid of their distance from the mean distance; `convention`
    ("add-on" or "scikit-rebate") and `deviation` as
    :func:`orangecontrib.relief.core.variants.swrf.multiswrf` takes them."""
    variant = registry.SWRF

    def __init__(self, *, convention=CONVENTION, deviation=DEVIATION,
                 n_features_to_select=None, threshold=None,
                 significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, absolute=ABSOLUTE):
        super().__init__(
            n_features_to_select=n_features_to_select, threshold=threshold,
            significance=significance, alpha=alpha,
            n_permutations=n_permutations, nominal_features=nominal_features,
            n_iterations=n_iterations, random_state=random_state, diff=diff,
            t_eq=t_eq, t_diff=t_diff, absolute=absolute)
        self.convention = convention
        self.deviation = deviation

    def _options(self, params):
        return dict(super()._options(params),
                    convention=params["convention"],
                    deviation=params["deviation"])


class SWRFstar(SWRF):
    """SWRF* : SWRF and the far instances, by their weighted similarity."""
    variant = registry.SWRFSTAR


class MultiSWRF(SWRF):
    """MultiSWRF: the instances nearer than each reference's mean
    distance, weighted by their distance from it."""
    variant = registry.MULTISWRF


class MultiSWRFstar(SWRF):
    """MultiSWRF*: MultiSWRF and the far instances."""
    variant = registry.MULTISWRFSTAR


class MultiSWRFDB(SWRF):
    """MultiSWRFDB: MultiSURF's neighbours weighted by their distance from
    its limit."""
    variant = registry.MULTISWRFDB


class MultiSWRFDBstar(SWRF):
    """MultiSWRFDB*: MultiSURF*'s neighbourhoods, weighted."""
    variant = registry.MULTISWRFDBSTAR


class NPDR(ReliefSelector):
    """NPDR (Le, Dawkins & McKinney 2020): every feature's diff over
    MultiSURF's neighbour pairs regressed on whether the pair is a miss
    (`task` "classification") or on the target's diff ("regression");
    ``feature_importances_`` are the coefficients.  `covariates`: the
    columns of X that are not scored (NaN, never selected) but whose
    diffs adjust every fit (age, sex, batch), as indices, a boolean mask,
    or names of a DataFrame's columns.  ``significance=
    "regression"`` selects by the fits' own p-values.  NPDR weighs every
    instance (no `n_iterations`).

    See :func:`orangecontrib.relief.core.variants.npdr.npdr`.
    """
    variant = registry.NPDR
    #: `covariates` are columns of X, checked by :meth:`_covariate_columns`
    #: and the core
    aliases = dict(ReliefSelector.aliases, covariates=None)

    def __init__(self, *, task="classification", covariates=(),
                 deviation=DEVIATION, n_features_to_select=None,
                 threshold=None, significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, absolute=ABSOLUTE):
        super().__init__(
            n_features_to_select=n_features_to_select, threshold=threshold,
            significance=significance, alpha=alpha,
            n_permutations=n_permutations, nominal_features=nominal_features,
            random_state=random_state, diff=diff, t_eq=t_eq, t_diff=t_diff,
            absolute=absolute)
        self.task = task
        self.covariates = covariates
        self.deviation = deviation

    def _options(self, params):
        return {name: params[name]
                for name in ("deviation", "diff", "t_eq", "t_diff")}

    def _result(self, X, y, discrete, params):
        names = getattr(self, "feature_names_in_", None)
        return _core_errors(npdr_columns.unchecked)(
            X, y, discrete, self._covariate_columns(X.shape[1]),
            names=None if names is None else list(names), task=self.task,
            adjustment="bh", **self._options(params))

    def _covariate_columns(self, n_features):
        """The column indices of `covariates` (given as indices, a mask or
        names of ``feature_names_in_``); the core checks them."""
        chosen, names = self.covariates, getattr(self, "feature_names_in_",
                                                 None)
        if isinstance(chosen, str):
            raise ValueError(f"covariates must be a list of columns, got the "
                             f"string {chosen!r}; for one column write "
                             f"[{chosen!r}].")
        if not np.iterable(chosen):
            return chosen
        mask = np.asarray(chosen)
        if mask.dtype == bool and mask.ndim == 1 and len(mask) == n_features:
            return list(np.flatnonzero(mask))
        columns = []
        for column in chosen:
            if isinstance(column, str):
                if names is None:
                    raise ValueError(
                        f"covariates names the column {column!r}, but X has "
                        f"no column names; give column indices, or fit on "
                        f"a DataFrame.")
                if column not in names:
                    raise ValueError(f"covariates names {column!r}, which "
                                     f"is not a column of X.")
                column = list(names).index(column)
            columns.append(column)
        return columns

    def _weights(self, X, y, discrete, params):
        # the last fit's p-values serve significance="regression"
        self._fitted = self._result(X, y, discrete, params)
        return self._fitted.coefficient

    def _pvalues(self, X, y, discrete, params):
        if self.significance == "regression":
            return self._fitted.p
        return super()._pvalues(X, y, discrete, params)


class Iter(ReliefSelector):
    """Iter (scikit-rebate 0.8's) around another selector's variant: its
    weights, again with the distance weighted by them, the weights of
    later rounds mixed with the last by the Widrow-Hoff rule at the rate
    `beta`, at most `max_rounds` rounds, until no weight moves by `tol`
    (`convergence`: "scores", or as scikit-rebate 0.8.4 measures the
    change); ``feature_importances_`` are the last round's weights.
    `estimator` (MultiSURF by default) gives the variant, its task and
    its options, and must weight its distance (ReliefF, RReliefF, the
    SURF family); Iter's own parameters select the features, and with
    `absolute` the distance weights are the weights' magnitudes
    (scikit-rebate's ``rank_absolute``).  Significance: the permutation
    test (each permutation runs every round).

    See :mod:`orangecontrib.relief.core.variants.iterative`.
    """

    def __init__(self, estimator=None, *, max_rounds=ITER_ROUNDS,
                 tol=ITER_TOL, beta=ITER_BETA, convergence=ITER_CONVERGENCE,
                 n_features_to_select=None, threshold=None,
                 significance=None, alpha=ALPHA,
                 n_permutations=N_PERMUTATIONS, nominal_features=None,
                 absolute=ABSOLUTE):
        self.estimator = estimator
        self.max_rounds = max_rounds
        self.tol = tol
        self.beta = beta
        self.convergence = convergence
        self.n_features_to_select = n_features_to_select
        self.threshold = threshold
        self.significance = significance
        self.alpha = alpha
        self.n_permutations = n_permutations
        self.nominal_features = nominal_features
        self.absolute = absolute

    def _wrapped(self):
        """The selector whose variant Iter runs (ValueError unless it
        weights its distance)."""
        inner = MultiSURF() if self.estimator is None else self.estimator
        if not (isinstance(inner, ReliefSelector)
                and not isinstance(inner, Iter)
                and "distance_weights" in inner.variant.parameters):
            weighing = [variant.selector for variant in registry.VARIANTS
                        if variant.selector is not None
                        and "distance_weights" in variant.parameters]
            raise ValueError(f"Iter weights the distance of the selector "
                             f"it wraps, one of {', '.join(weighing)}; got "
                             f"{inner!r}.")
        return inner

    @property
    def variant(self):
        return self._wrapped().variant

    @property
    def task(self):
        return self._wrapped().task

    @property
    def random_state(self):
        return self._wrapped().random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.single_output = self.task == "regression"
        return tags

    def _parameters(self, skip=()):
        """Iter's parameters and those of the selector it wraps (whose
        options it runs; Iter's own where both have one), each checked
        once."""
        own = super()._parameters(skip)
        return dict(self._wrapped()._parameters(own), **own)

    def _options(self, params):
        return self._wrapped()._options(params)

    def _weights(self, X, y, discrete, params):
        return _core_errors(iterated.unchecked)(
            self.variant, X, y, discrete, task=self.task,
            max_rounds=params["max_rounds"], tol=params["tol"],
            beta=params["beta"], absolute=self.absolute,  # checked at fit
            convergence=params["convergence"],
            **self._options(params)).scores

    def _stir(self, X, y, discrete, params):
        raise ValueError("STIR tests the neighbour pairs of one plain "
                         "distance, and Iter's last round weights it; use "
                         "significance='permutation' with Iter.")


class TargetSelector(ReliefSelector):
    """Common ground of the selectors of several targets (a 2-D `y`, a
    column per target): ``feature_importances_`` is the overall ranking,
    ``target_importances_`` (n_targets, n_features) each target's, from
    the same neighbour search (:mod:`.core.variants.multitarget`).  Selection as
    the other selectors', by the overall ranking; no significance
    test."""
    #: the core function of the selector
    estimator = None

    def __init__(self, *, k_nearest=K_RRELIEFF, n_features_to_select=None,
                 threshold=None, nominal_features=None, n_iterations=None,
                 random_state=RANDOM_STATE, weighting="exp_rank",
                 sigma=None, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, ties=TIES,
                 missing="relief-d", absolute=ABSOLUTE):
        super().__init__(
            n_features_to_select=n_features_to_select, threshold=threshold,
            nominal_features=nominal_features, n_iterations=n_iterations,
            random_state=random_state, diff=diff, t_eq=t_eq, t_diff=t_diff,
            absolute=absolute)
        self.k_nearest = k_nearest
        self.weighting = weighting
        self.sigma = sigma
        self.ties = ties
        self.missing = missing

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        return tags

    def fit(self, X, y):
        """Compute the overall and each target's weights of the features
        of `X` for the targets `y` (n_samples, n_targets)."""
        self._check_selection()
        params = self._parameters()
        X, y = validate_data(self, X, y, ensure_all_finite="allow-nan",
                             accept_sparse=("csr", "csc"), dtype="numeric",
                             multi_output=True, y_numeric=True)
        if X.shape[0] < 2:
            raise ValueError(f"Relief compares instances and needs at least "
                             f"two; got {X.shape[0]} sample.")
        weights = _core_errors(type(self).estimator.unchecked)(
            X, y, self._nominal_mask(X.shape[1]), **self._options(params))
        self.feature_importances_ = weights.overall
        self.target_importances_ = weights.per_target
        self._tested = None
        return self

    def _options(self, params):
        return dict(super()._options(params), k_nearest=params["k_nearest"],
                    weighting=self.weighting, sigma=params["sigma"],
                    ties=params["ties"], missing=self.missing)


class MultiTargetRReliefF(TargetSelector):
    """Multi-target RReliefF (Petkovic, Kocev & Dzeroski 2020) of numeric
    targets, a column each."""
    task = "regression"
    estimator = staticmethod(multitarget.rrelieff_multitarget)


class MultiLabelReliefF(TargetSelector):
    """Multi-label ReliefF (Reyes, Morell & Ventura 2015) of 0/1 labels, a
    column each; `distance` the label-set distance of the overall ranking
    ("hamming", "accuracy", "f1" or "subset")."""
    estimator = staticmethod(multitarget.relieff_multilabel)

    def __init__(self, *, k_nearest=K_RELIEFF, distance="hamming",
                 n_features_to_select=None, threshold=None,
                 nominal_features=None, n_iterations=None,
                 random_state=RANDOM_STATE, weighting="equal", sigma=None,
                 diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, ties=TIES,
                 missing="relief-d", absolute=ABSOLUTE):
        super().__init__(
            k_nearest=k_nearest, n_features_to_select=n_features_to_select,
            threshold=threshold, nominal_features=nominal_features,
            n_iterations=n_iterations, random_state=random_state,
            weighting=weighting, sigma=sigma, diff=diff, t_eq=t_eq,
            t_diff=t_diff, ties=ties, missing=missing, absolute=absolute)
        self.distance = distance

    def _options(self, params):
        return dict(super()._options(params), distance=self.distance)


def event_and_time(y, n_samples):
    """The (event, time) float arrays of a survival target `y`:
    scikit-survival's structured array (``Surv.from_arrays``: two fields,
    the event then the time) or an array of two columns in that order.
    ValueError for any other shape, or for columns that look swapped."""
    if y is None:
        raise ValueError("SurvivalNPDR requires y to be passed, but the "
                         "target y is None: give each sample's event and "
                         "time.")
    y = np.asarray(y)
    if y.dtype.names is not None:
        if len(y.dtype.names) != 2 or y.ndim != 1:
            raise ValueError(f"y as a structured array needs two fields, the "
                             f"event then the time (scikit-survival's "
                             f"Surv.from_arrays), got fields "
                             f"{y.dtype.names}.")
        columns = [y[name] for name in y.dtype.names]
    elif y.ndim == 2 and y.shape[1] == 2:
        columns = [y[:, 0], y[:, 1]]
    else:
        raise ValueError(f"Survival NPDR's y is each sample's event and time: "
                         f"a structured array (scikit-survival's "
                         f"Surv.from_arrays) or two columns (event, time); "
                         f"got an array of shape {y.shape}.")
    if len(columns[0]) != n_samples:
        raise ValueError(f"y has {len(columns[0])} samples for the "
                         f"{n_samples} of X.")
    try:
        event, time = (np.asarray(column, dtype=np.float64)
                       for column in columns)
    except (TypeError, ValueError):
        raise ValueError("y's event and time must be numbers (the event 1 "
                         "or True, 0 or False where censored).") from None
    if (np.isin(time[~np.isnan(time)], (0, 1)).all()
            and not np.isin(event[~np.isnan(event)], (0, 1)).all()):
        raise ValueError("y's first column holds times and its second 0 and "
                         "1: give the event first, then the time (as "
                         "scikit-survival orders them).")
    for what, column in (("events", event), ("times", time)):
        if np.isnan(column).any():
            row = int(np.flatnonzero(np.isnan(column))[0])
            raise ValueError(f"y's {what} are missing (NaN) in row {row}: "
                             f"leave such samples out.")
    return event, time


class SurvivalNPDR(ReliefSelector):
    """Survival NPDR (Kampmeyer et al. 2026) of a right-censored time:
    every feature's diff over NPDR's neighbour pairs regressed on the
    difference of the survival times.  `y` is each sample's event and
    time, as scikit-survival holds them (a structured array of two
    fields, the event then the time: ``Surv.from_arrays(event, time)``),
    or an array of two columns in that order.

    ``feature_importances_`` are the coefficients b, their magnitude with
    signed diffs (a main effect either way); ``coef_`` the coefficients
    as fitted; ``significance="regression"`` selects by the fits' p-values
    (``pvalues_``, ``qvalues_`` adjusted by Benjamini-Hochberg).
    `covariates`: columns of X not scored (NaN, never selected) whose
    signed diffs adjust every fit, as in :class:`NPDR`.  Without a
    selection parameter, the features of positive importance are kept.

    See :func:`orangecontrib.relief.core.variants.survival_npdr.survival_npdr`,
    whose options these are.
    """
    absolute = False  # the importances are ranked as they are
    #: survival NPDR's names of its options (`diffs` is
    #: ``PARAMETERS["survival_diffs"]``), and `covariates` columns of X
    aliases = dict(ReliefSelector.aliases, **SURVIVAL_NAMES, covariates=None)

    def __init__(self, *, diffs=SURVIVAL_DIFFS,
                 regression=SURVIVAL_REGRESSION, impute=IMPUTE,
                 filter_pairs=FILTER_PAIRS, covariates=(),
                 neighbourhood=NPDR_NEIGHBOURHOOD, k_nearest=None,
                 deviation=DEVIATION, ties=TIES, twins=TWINS, scale=SCALE,
                 n_features_to_select=None, threshold=None,
                 significance=None, alpha=ALPHA, nominal_features=None):
        self.diffs = diffs
        self.regression = regression
        self.impute = impute
        self.filter_pairs = filter_pairs
        self.covariates = covariates
        self.neighbourhood = neighbourhood
        self.k_nearest = k_nearest
        self.deviation = deviation
        self.ties = ties
        self.twins = twins
        self.scale = scale
        self.n_features_to_select = n_features_to_select
        self.threshold = threshold
        self.significance = significance
        self.alpha = alpha
        self.nominal_features = nominal_features

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.target_tags.single_output = False
        tags.target_tags.multi_output = True
        return tags

    _covariate_columns = NPDR._covariate_columns

    def fit(self, X, y):
        """The survival NPDR fits of the features of `X` for the events
        and times `y`."""
        self._check_selection()
        params = self._parameters()
        if self.significance not in (None, "regression"):
            raise ValueError(f"significance={self.significance!r}: survival "
                             f"NPDR selects by its fits' own p-values, "
                             f"significance='regression'.")
        X = validate_data(self, X, accept_sparse=("csr", "csc"),
                          dtype="numeric")
        event, time = event_and_time(y, X.shape[0])
        if X.shape[0] < 2:
            raise ValueError(f"Survival NPDR compares instances and needs at "
                             f"least two; got {X.shape[0]} sample.")
        count = self.n_features_to_select
        if isinstance(count, numbers.Integral) and count > X.shape[1]:
            warnings.warn(f"n_features_to_select={count} is more than the "
                          f"{X.shape[1]} features: all of them are kept.",
                          UserWarning)
        options = {name: params[name] for name in (
            "diffs", "regression", "impute", "filter_pairs", "neighbourhood",
            "k_nearest", "deviation", "ties", "twins", "scale")}
        names = getattr(self, "feature_names_in_", None)
        if hasattr(X, "toarray"):  # the pairs' diffs are dense anyway
            X = X.toarray()
        result = _core_errors(survival_npdr_columns.unchecked)(
            X, time, event, self._nominal_mask(X.shape[1]),
            self._covariate_columns(X.shape[1]),
            names=None if names is None else list(names), adjustment="bh",
            **options)
        self.coef_ = result.coefficient
        self.feature_importances_ = (np.abs(result.coefficient)
                                     if self.diffs == "signed"
                                     else result.coefficient)
        self.pvalues_, self.qvalues_ = result.p, result.q
        self.n_pairs_ = result.n_pairs
        self._tested = self.significance
        return self
