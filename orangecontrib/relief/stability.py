"""How stable a scorer's ranking of a table's attributes is.

:func:`ranking_stability` scores B resamples of the instances (bootstrap
samples or subsamples, stratified by class) with any Orange scorer and
summarises them (:mod:`orangecontrib.relief.core.analysis.stability`): each
attribute's selection frequency among the best k, its median rank and
rank interval, and the stability index of the selected sets (Nogueira,
Sechidis & Brown 2018) with its confidence interval.
:func:`stability_table` makes an Orange table of the attributes' figures.

Example::

    from Orange.data import Table
    from orangecontrib.relief import ReliefF
    from orangecontrib.relief.stability import ranking_stability
    result = ranking_stability(Table("heart_disease"), ReliefF(), top_k=5)
    result.index.value, result.frequency
"""
import numpy as np

from Orange.data import ContinuousVariable, Domain, StringVariable, Table

from .arrays import without_weights
from .core.analysis import stability, target_rankings
from .core.options import CONFIDENCE, N_RESAMPLES, RANDOM_STATE, RESAMPLING
from .core.progress import wrap_callback
from .core.validation import validated
from .core.analysis.resampling import resample_share
from .multitarget import TargetScorer
from .resampled import strata, subset_scorer
from .scorers import ReliefF, check_scorer

__all__ = ["ranking_stability", "target_stability", "stability_table",
           "STABILITY_COLUMNS"]

#: the columns :func:`stability_table` adds, and what they hold
STABILITY_COLUMNS = ("selected", "median rank", "rank from", "rank to")


@validated
def ranking_stability(data, scorer=None, *, n_resamples=N_RESAMPLES,
                      resampling=RESAMPLING, subsample=None,
                      top_k=None, confidence=CONFIDENCE,
                      random_state=RANDOM_STATE, client=None,
                      progress_callback=None):
    """The stability of `scorer`'s ranking of the attributes of `data`.

    Parameters
    ----------
    data : Orange.data.Table
    scorer : any Orange scorer (default ReliefF)
        Relief, ReliefF and RReliefF search the neighbours of the whole
        table once and score every resample with its diffs
        (:func:`~orangecontrib.relief.resampled.subset_scorer`); other
        scorers score a table of each resample's rows.
    n_resamples : int
        B.
    resampling : "bootstrap" or "subsample"
        Bootstrap samples (as many instances of each class, drawn with
        replacement), or subsamples of the share `subsample` of each
        class (None: half), without replacement.
    top_k : int or None
        The attributes counted as selected in each resample (None: the 10
        best, at most half of the attributes).
    confidence : float
        Of the rank intervals and of the index's interval.
    random_state : int
        Seed of the resamples (a sampling scorer has its own).
    client : distributed.Client or None
        Score the resamples as tasks on this Dask cluster; without one
        they are scored in turn, each on the compiled engine's threads
        where its size sends it there.
    progress_callback : callable(float) or None

    Returns
    -------
    :data:`~orangecontrib.relief.core.analysis.stability.RankingStability`
    """
    scorer = ReliefF() if scorer is None else check_scorer(
        scorer, "The ranking's stability")
    if isinstance(scorer, TargetScorer):
        return target_stability.unchecked(  # checked on entry
            data, scorer, n_resamples=n_resamples, resampling=resampling,
            subsample=subsample, top_k=top_k, confidence=confidence,
            random_state=random_state, client=client,
            progress_callback=progress_callback)["overall"]
    share = resample_share.unchecked(resampling, subsample)
    score_rows = subset_scorer(scorer, data, share,
                               wrap_callback(progress_callback, 0, 0.2))
    return stability.ranking_stability.unchecked(  # checked on entry
        score_rows, strata(data), n_resamples=n_resamples,
        resampling=resampling, subsample=subsample, top_k=top_k,
        confidence=confidence, random_state=random_state, client=client,
        progress_callback=wrap_callback(progress_callback, 0.2, 1))


@validated
def target_stability(data, scorer, *, n_resamples=N_RESAMPLES,
                     resampling=RESAMPLING, subsample=None, top_k=None,
                     confidence=CONFIDENCE, random_state=RANDOM_STATE,
                     client=None, progress_callback=None):
    """{ranking: RankingStability} of a scorer of several targets
    (:class:`~.multitarget.MultiTargetRReliefF`,
    :class:`~.multitarget.MultiLabelReliefF`): the overall ranking's
    (``"overall"``) and each target's (by its name), each resample of the
    rows (not stratified; the rows with a missing target never drawn)
    scored once for all of them
    (:func:`~.core.analysis.target_rankings.target_stability`).  The options are
    :func:`ranking_stability`'s."""
    if not isinstance(scorer, TargetScorer):
        raise ValueError(f"target_stability summarises the rankings of a "
                         f"scorer of several targets (MultiTargetRReliefF, "
                         f"MultiLabelReliefF), not {scorer!r}.")
    scorer.check(data)
    names = scorer.ranking_names(data)
    known = ~np.isnan(np.asarray(data.Y, np.float64)).any(axis=1)
    data = without_weights(data)

    def score_rows(rows):
        return target_rankings.stacked(scorer.weights(data[rows])).ravel()

    results = target_rankings.target_stability.unchecked(
        score_rows, np.where(known, 0, -1), len(names),
        n_resamples=n_resamples, resampling=resampling, subsample=subsample,
        top_k=top_k, confidence=confidence, random_state=random_state,
        client=client, progress_callback=progress_callback)
    return dict(zip(names, results))


def stability_columns(result):
    """(variables, values) of :data:`STABILITY_COLUMNS` of `result`, one
    row per attribute in domain order."""
    variables = [ContinuousVariable(name, number_of_decimals=decimals)
                 for name, decimals in zip(STABILITY_COLUMNS, (2, 1, 0, 0))]
    values = np.column_stack([result.frequency, result.median_rank,
                              result.rank_low, result.rank_high])
    return variables, values


def stability_table(attributes, result):
    """A table of the attributes' stability, one row per attribute, the
    most often selected first (then by median rank): the columns of
    :data:`STABILITY_COLUMNS` and the attribute's name as a meta."""
    variables, values = stability_columns(result)
    order = np.lexsort((result.median_rank, -result.frequency))
    names = np.array([[attributes[i].name] for i in order], dtype=object)
    table = Table.from_numpy(
        Domain(variables, metas=[StringVariable("attribute")]),
        values[order], metas=names)
    table.name = "Ranking stability"
    return table
