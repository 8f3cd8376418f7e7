"""Resamples and folds of the instances, and the scores of each.

Both keep the classes' proportions (stratified): a resample, or a fold's
training part, has instances of every class that the data has, so that a
Relief scorer can run on it.

* :func:`draw_resamples` -- B bootstrap samples (n draws with
  replacement, class by class) or subsamples (a share of each class,
  without replacement);
* :func:`draw_folds` -- the folds of a cross-validation;
* :func:`score_resamples` -- a scorer's scores of each resample, one after
  another in this process (each on the compiled engine's threads, where it
  runs there) or as tasks on a Dask cluster.
"""
import numpy as np

from ..errors import ReliefInputError
from ..options import (N_FOLDS, N_RESAMPLES, RANDOM_STATE, RESAMPLING,
                       SUBSAMPLE, check_needs)
from ..progress import report
from ..sampling import check_client
from .threshold import as_scores
from ..validation import validated


def strata_of(groups):
    """The instances of each stratum of `groups` (int codes, -1: none),
    in their order."""
    groups = np.asarray(groups)
    if groups.ndim != 1 or not np.issubdtype(groups.dtype, np.integer):
        raise ReliefInputError("The strata must be a 1-D array of integer "
                               "codes, one per instance (-1: none).")
    return [np.flatnonzero(groups == g) for g in np.unique(groups[groups >= 0])]


@validated
def resample_share(resampling, subsample):
    """The share of each stratum a resample draws: 1 (with replacement)
    for a bootstrap sample, `subsample` (None: :data:`..options.SUBSAMPLE`)
    for a subsample; a `subsample` with a bootstrap is refused."""
    bootstrap = resampling == "bootstrap"
    check_needs("subsample", subsample, None, "resampling='subsample'",
                not bootstrap)
    if bootstrap:
        return 1.0
    return SUBSAMPLE if subsample is None else subsample


@validated
def draw_resamples(groups, n_resamples=N_RESAMPLES, *,
                   resampling=RESAMPLING, subsample=None,
                   random_state=RANDOM_STATE):
    """The instances of `n_resamples` resamples, drawn stratum by stratum.

    Parameters
    ----------
    groups : int array (n,)
        The stratum of each instance: its class, or 0 for all where the
        target is numeric; -1 for an instance never drawn (an unknown
        target, which a scorer leaves out anyway).
    resampling : "bootstrap" or "subsample"
        A bootstrap sample draws as many instances of each stratum as it
        has, with replacement (Efron 1979); a subsample draws the share
        `subsample` of each stratum (at least one instance) without
        replacement.
    subsample : float in (0, 1) or None
        The share of a subsample (None: :data:`..options.SUBSAMPLE`); only
        with ``resampling="subsample"``.
    random_state : int, numpy Generator or None
        The seed of ``numpy.random.default_rng``: equal seeds, equal
        resamples.

    Returns
    -------
    [int64 array]
        The rows of each resample, sorted (a row drawn twice appears
        twice).
    """
    share = resample_share.unchecked(resampling, subsample)
    rng = np.random.default_rng(random_state)
    strata = strata_of(groups)
    if not strata:
        raise ReliefInputError("There are no instances to resample.")
    resamples = []
    for _ in range(n_resamples):
        parts = [rng.choice(members, len(members)) if share == 1
                 else rng.choice(members,
                                 max(1, round(share * len(members))),
                                 replace=False)
                 for members in strata]
        resamples.append(np.sort(np.concatenate(parts)).astype(np.int64))
    return resamples


@validated
def draw_folds(groups, n_folds=N_FOLDS, random_state=RANDOM_STATE):
    """The (training rows, test rows) of each fold of a stratified
    cross-validation: the instances of each stratum, in an order drawn
    with `random_state`, are dealt to the folds in turn, the deal of a
    stratum going on where the previous one ended, so that the folds'
    sizes differ by one at most.  Instances of stratum -1 are in no fold.
    """
    rng = np.random.default_rng(random_state)
    strata = strata_of(groups)
    n = sum(len(members) for members in strata)
    if n < n_folds:
        raise ReliefInputError(f"{n_folds} folds need at least {n_folds} "
                               f"instances, and there are {n}.")
    fold = np.full(len(groups), -1)
    dealt = 0
    for members in strata:
        fold[rng.permutation(members)] = (dealt + np.arange(len(members))
                                          ) % n_folds
        dealt += len(members)
    return [(np.flatnonzero((fold >= 0) & (fold != f)),
             np.flatnonzero(fold == f)) for f in range(n_folds)]


def score_resamples(score_rows, resamples, *, client=None,
                    progress_callback=None):
    """The (B, a) scores ``score_rows(rows)`` of each resample.

    Without a `client`, the resamples are scored one after another, here
    (a Relief scorer runs each on the compiled engine's threads, where
    the data are large enough to go there); with a ``dask.distributed``
    client, each resample is a task on its cluster (`score_rows` is sent
    to the workers, so it must pickle).  `progress_callback` gets the
    share of the resamples scored and may raise to stop (the cluster's
    remaining tasks are then cancelled).
    """
    if check_client(client) is None:
        scores = []
        for done, rows in enumerate(resamples, start=1):
            scores.append(as_scores(score_rows(rows), "scores"))
            report(progress_callback, done / len(resamples))
    else:
        scores = on_cluster(client, score_rows, resamples, progress_callback)
    if len({len(row) for row in scores}) > 1:
        raise ReliefInputError("The scorer gave resamples different numbers "
                               "of scores.")
    return np.array(scores)


def on_cluster(client, score_rows, resamples, progress_callback):
    """``score_rows`` of every resample as tasks of `client`'s cluster,
    in the resamples' order."""
    from distributed import as_completed

    tasks = client.map(score_rows, resamples, pure=False)
    try:
        for done, _ in enumerate(as_completed(tasks), start=1):
            report(progress_callback, done / len(tasks))
    except BaseException:
        client.cancel(tasks)
        raise
    return [as_scores(row, "scores") for row in client.gather(tasks)]
