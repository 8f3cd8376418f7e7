"""Other implementations of the Relief family, run beside ours where they
are installed: scikit-rebate (``skrebate``, the benchmark study's own
code) and fast-select.

:func:`peer_weights` is the one place that knows how to call them: the
ReBATE experiment (:mod:`.rebate`) and the speed benchmarks
(``benchmarks/peers.py``) both go through it.  Neither peer is a
dependency of the add-on; :func:`available` says which are installed.

This module imports neither Orange nor Qt.
"""
import importlib
import warnings

import numpy as np

#: peer -> the module that must be importable
MODULES = {"skrebate": "skrebate", "fast-select": "fast_select"}
#: scikit-rebate's class of each member of the SURF and SWRF families
SKREBATE_CLASSES = {"multisurf": "MultiSURF", "multisurf*": "MultiSURFstar",
                    "surf": "SURF", "surf*": "SURFstar", "swrf": "SWRF",
                    "swrf*": "SWRFstar", "multiswrf": "MultiSWRF",
                    "multiswrf*": "MultiSWRFstar",
                    "multiswrfdb": "MultiSWRFDB",
                    "multiswrfdb*": "MultiSWRFDBstar"}
#: what each peer computes: ReliefF, the SURF family and (scikit-rebate)
#: the SWRF family, TuRF around MultiSURF or ReliefF, VLS around ReliefF
#: and Iter around ReliefF or MultiSURF
ALGORITHMS = {
    "skrebate": ("relieff", "murelief", *SKREBATE_CLASSES, "turf",
                 "turf-relieff", "vls-relieff", "iter-relieff",
                 "iter-multisurf"),
    "fast-select": ("relieff", "surf", "surf*", "multisurf", "multisurf*"),
}
#: the tasks each peer handles ("regression": a numeric target)
TASKS = {"skrebate": ("classification", "regression"),
         "fast-select": ("classification",)}
#: the peers that accept missing values (NaN)
MISSING = ("skrebate",)


def available(peer):
    """Whether `peer` (a key of :data:`MODULES`) can be imported."""
    try:
        importlib.import_module(MODULES[peer])
    except ImportError:
        return False
    return True


def supports(peer, algorithm, task, missing):
    """Whether `peer` computes `algorithm` for `task` on data with
    missing values (`missing`) or without."""
    return (algorithm in ALGORITHMS[peer] and task in TASKS[peer]
            and (not missing or peer in MISSING))


def fitted_importances(make_estimator, X, y):
    """A scikit-learn style peer: build the estimator, fit it on the data
    (its warnings silenced) and return its feature importances."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator = make_estimator()
        estimator.fit(X, y)
    return np.asarray(estimator.feature_importances_, dtype=float)


def label_type(y, task):
    """scikit-rebate's name of the target's kind."""
    if task == "regression":
        return "continuous"
    return "binary" if len(np.unique(y[~np.isnan(y)])) == 2 else "multiclass"


def skrebate_weights(algorithm, X, y, k, task, discrete_limit):
    """scikit-rebate's weights: ReliefF or mu-Relief with `k`, a SURF- or
    SWRF-family member, TuRF (its default, half the attributes each round)
    around MultiSURF or ReliefF, VLS around ReliefF (as many subsets of as many
    attributes as ours by default, :func:`.core.variants.vls.vls_subsets`; its
    own random subsets, every attribute in one), or Iter (its defaults)
    around ReliefF or MultiSURF; a column with at most
    `discrete_limit` values is nominal."""
    import skrebate

    options = dict(n_features_to_select=X.shape[1], n_jobs=1,
                   categorical_threshold=discrete_limit,
                   label_type=label_type(y, task))
    if algorithm in ("relieff", "murelief"):
        cls = skrebate.ReliefF if algorithm == "relieff" else skrebate.MuRelief

        def make():
            return cls(n_neighbors=k, **options)
    elif algorithm in ("turf", "turf-relieff"):
        def make():
            inner = (skrebate.MultiSURF(**options) if algorithm == "turf"
                     else skrebate.ReliefF(n_neighbors=k, **options))
            return skrebate.TURF(inner, num_scores_to_return=X.shape[1])
    elif algorithm in ("iter-relieff", "iter-multisurf"):
        def make():
            inner = (skrebate.MultiSURF(**options)
                     if algorithm == "iter-multisurf"
                     else skrebate.ReliefF(n_neighbors=k, **options))
            return skrebate.Iter(inner)
    elif algorithm == "vls-relieff":
        from ..core.variants.vls import default_subset_size, vls_subsets

        size = default_subset_size(X.shape[1])
        n_subsets = len(vls_subsets(X.shape[1], subset_size=size))

        def make():
            return skrebate.VLS(skrebate.ReliefF(n_neighbors=k, **options),
                                num_feature_subset=n_subsets,
                                size_feature_subset=size, random_state=0)
    else:
        cls = getattr(skrebate, SKREBATE_CLASSES[algorithm])

        def make():
            return cls(**options)
    return fitted_importances(make, X, y)


def fast_select_weights(algorithm, X, y, k, discrete_limit):
    """fast-select's weights (its CPU back end): ReliefF with `k` or a
    SURF-family member."""
    if algorithm == "relieff":
        import fast_select

        def make():
            return fast_select.ReliefF(n_features_to_select=1.0,
                                       n_neighbors=k,
                                       discrete_limit=discrete_limit,
                                       backend="cpu", n_jobs=-1)
    else:
        from fast_select.MultiSURF import MultiSURF
        from fast_select.SURF import SURF
        cls = MultiSURF if algorithm.startswith("multi") else SURF

        def make():
            return cls(n_features_to_select=1.0, backend="cpu", n_jobs=-1,
                       use_star=algorithm.endswith("*"))
    return fitted_importances(make, X, y)


def peer_weights(peer, algorithm, X, y, *, k=10, task="classification",
                 discrete_limit=10):
    """The weights `peer` gives the columns of `X` with `algorithm` (one
    of :data:`ALGORITHMS` [peer]), float64 in column order.

    Parameters
    ----------
    X : array (n, a)
    y : array (n,)
        Class codes, or a number with ``task="regression"``.
    k : int
        ReliefF's neighbours.
    task : "classification" or "regression"
    discrete_limit : int
        A column with at most this many distinct values is nominal
        (scikit-rebate's ``discrete_threshold``, fast-select's
        ``discrete_limit``).
    """
    if peer not in MODULES:
        raise ValueError(f"peer must be one of {', '.join(MODULES)}, got "
                         f"{peer!r}.")
    if algorithm not in ALGORITHMS[peer]:
        raise ValueError(f"{peer} has no {algorithm}; it has "
                         f"{', '.join(ALGORITHMS[peer])}.")
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if peer == "skrebate":
        return skrebate_weights(algorithm, X, y, k, task, discrete_limit)
    return fast_select_weights(algorithm, X, y, k, discrete_limit)
