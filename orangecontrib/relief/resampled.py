"""Any scorer on subsets of a table's instances: resamples and folds.

:func:`subset_scorer` turns a scorer and a table into ``score_rows(rows)``,
the scores of the attributes on the instances `rows`, as the core's
resampling, stability and selection curve take it
(:mod:`orangecontrib.relief.core.analysis.stability`,
:mod:`orangecontrib.relief.core.analysis.selection_curve`).  Relief, ReliefF and
RReliefF score a subset from one neighbour search of the whole table, with
its diffs (:class:`~orangecontrib.relief.core.analysis.subset_relief.SubsetRelief`);
any other scorer scores a table of the subset's rows.
"""
import threading
import warnings
from collections import Counter
from contextlib import contextmanager

import numpy as np

from Orange.preprocess.score import LearnerScorer

from .arrays import check_table, without_weights
from .core.analysis.subset_relief import SubsetRelief
from .core.validation import unchecked_instance
from .scorers import Relief, ReliefF, RReliefF, checked, fits, table_scores

__all__ = ["attribute_scores", "subset_scorer", "strata", "SHARED_SEARCH",
           "warnings_summarised"]

#: the scorers whose subsets share one neighbour search (exactly these
#: classes: the double and class-dependent variants search otherwise)
SHARED_SEARCH = {Relief: "relief", ReliefF: "relieff", RReliefF: "rrelieff"}


def attribute_scores(scorer, data):
    """One score per attribute of `data` by any Orange scorer: the add-on's
    and Orange's scorers, or a learner that scores (logistic regression,
    random forest), whose columns, one per class value where it has
    several, are averaged."""
    if isinstance(scorer, LearnerScorer):
        scores = np.atleast_2d(np.asarray(scorer.score_data(data),
                                          dtype=float)).mean(axis=0)
        if scores.shape != (len(data.domain.attributes),):
            raise ValueError(f"{type(scorer).__name__} gave {scores.size} "
                             f"scores for {len(data.domain.attributes)} "
                             f"attributes: one per attribute is needed.")
        return scores
    return table_scores(scorer, data)


@contextmanager
def warnings_summarised(what):
    """Run the block with its warnings (a learner of scikit-learn warns of
    its own deprecations at every fit) caught and given at its end as one
    warning that names `what`, each kind once with how often it came.  In
    the main thread only: catching warnings is not thread-safe, so a
    widget's worker thread leaves them as they are."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with warnings.catch_warnings(record=True) as caught:  # filters kept
        yield
    if caught:
        kinds = Counter(f"{w.category.__name__}: "
                        f"{str(w.message).strip().splitlines()[0]}"
                        for w in caught)
        warnings.warn(f"{what}: its scorers warned {len(caught)} times: "
                      + "; ".join(f"{kind} ({count}x)"
                                  for kind, count in kinds.items()),
                      UserWarning, stacklevel=3)


def strata(data):
    """The stratum of each row of `data` for resampling: its class value,
    0 for a numeric class, -1 where the class is unknown."""
    y = np.asarray(data.Y, dtype=np.float64).ravel()
    groups = np.where(np.isnan(y), -1, 0)
    if data.domain.class_var.is_discrete:
        groups[~np.isnan(y)] = y[~np.isnan(y)].astype(np.int64)
    return groups.astype(np.int64)


def check_fit(scorer, data):
    """ValueError unless `scorer` can score `data` (a single class that
    fits it, and attributes)."""
    name = getattr(scorer, "friendly_name", type(scorer).__name__)
    check_table(data, name)
    if not fits(scorer, data.domain.class_var):
        raise ValueError(f"{name} cannot score data with the class "
                         f"{data.domain.class_var.name}.")


def subset_scorer(scorer, data, share=1.0, progress_callback=None):
    """``score_rows(rows)``: `scorer`'s scores of the attributes of
    `data` on the rows `rows` (indices, repeats allowed).

    Relief, ReliefF and RReliefF search the neighbours of the whole table
    here, once (lists for subsets that hold about `share` of the rows,
    1 for bootstrap samples; `progress_callback` follows the search), and
    score each subset with the whole table's diffs: its attributes' ranges
    and, for missing values, its RELIEF-D probabilities.  Any other scorer
    scores a table of the rows.
    """
    check_fit(scorer, data)
    scorer = checked(scorer)  # once, unless the caller has
    rule = SHARED_SEARCH.get(type(scorer))
    if rule is None:
        data = without_weights(data)
        return lambda rows: attribute_scores(scorer, data[rows])
    arrays = scorer.arrays(data)
    options = dict(weighting=scorer.weighting, sigma=scorer.sigma) \
        if rule == "rrelieff" else {}
    return unchecked_instance(  # the scorer's options, checked
        SubsetRelief, arrays.X, arrays.y, arrays.discrete, rule=rule,
        k_nearest=getattr(scorer, "k_nearest", None),
        n_iterations=scorer.n_iterations, random_state=scorer.random_state,
        diff=scorer.diff, t_eq=scorer.t_eq, t_diff=scorer.t_diff,
        ties=scorer.ties, share=share, progress_callback=progress_callback,
        **options)
