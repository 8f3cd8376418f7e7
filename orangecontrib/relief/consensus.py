"""One ranking from several scorers: their mean rank, or Borda's count.

Scorers rank the attributes in scales that do not compare (a Relief
weight, an information gain, a coefficient), but their ranks do.
:class:`Consensus` ranks the attributes by each scorer (any Orange
scorer: the add-on's, Orange's own, a learner that scores) and combines
the ranks, so that the Rank widget can show one consensus column (through
:class:`~orangecontrib.relief.rank.RankScorer`).

Example::

    from Orange.data import Table
    from Orange.preprocess.score import InfoGain
    from orangecontrib.relief import Consensus, MultiSURF, ReliefF
    consensus = Consensus([ReliefF(), MultiSURF(), InfoGain()])
    consensus(Table("heart_disease"))
"""
import numpy as np
from scipy.stats import rankdata

from Orange.data import ContinuousVariable, DiscreteVariable, Variable
from Orange.preprocess.score import Scorer

from .arrays import check_table, without_weights
from .resampled import attribute_scores, warnings_summarised
from .scorers import check_scorer, fits, of_feature

__all__ = ["Consensus", "METHODS", "fractional_ranks"]

#: how the ranks are combined
METHODS = ("mean rank", "borda")


def fractional_ranks(scores):
    """The rank of each attribute by `scores`, 1 for the best; equal
    scores share the mean of their ranks, and a NaN (not scored) ranks
    after every number."""
    scores = np.asarray(scores, dtype=np.float64)
    return rankdata(np.where(np.isnan(scores), np.inf, -scores),
                    method="average")


class Consensus(Scorer):
    """The consensus of `scorers`' rankings.

    Parameters
    ----------
    scorers : list of Orange scorers
        At least two.  A scorer that gives a column per class value (a
        learner on a multi-class problem) is ranked by the mean of its
        columns.
    method : "mean rank" or "borda"
        "mean rank": minus the mean of the attribute's ranks (1 for the
        best), so that higher is better and the best possible is -1.
        "borda": Borda's count (de Borda 1781), the mean number of
        attributes a scorer puts below the attribute, ties counting one
        half: a - mean rank for a attributes.  Both give the same order;
        Borda's numbers read as "beats this many attributes".
    name : str or None
        The name of the column in Rank (default "Consensus").

    Ranks, not scores, are averaged, so no scorer's scale outweighs the
    others (the "complete linear aggregation" of ensemble feature
    selection, Saeys, Abeel & Van de Peer 2008).
    """
    feature_type = Variable
    supports_sparse_data = True

    def __init__(self, scorers, method="mean rank", name=None):
        if isinstance(scorers, Scorer) or not np.iterable(scorers):
            raise ValueError(f"A consensus takes a list of scorers, got "
                             f"{scorers!r}.")
        scorers = [check_scorer(scorer, "A consensus") for scorer in scorers]
        if len(scorers) < 2:
            raise ValueError("A consensus needs at least two scorers.")
        if method not in METHODS:
            raise ValueError(f"method must be one of "
                             f"{', '.join(map(repr, METHODS))}, got "
                             f"{method!r}.")
        self.scorers = scorers
        self.method = method
        self.name = name or "Consensus"

    @property
    def friendly_name(self):
        return self.name

    @property
    def class_type(self):
        """The class types that every scorer fits."""
        return tuple(kind for kind in (DiscreteVariable, ContinuousVariable)
                     if all(issubclass(kind, getattr(scorer, "class_type",
                                                     None) or Variable)
                            for scorer in self.scorers))

    def fits(self, class_var):
        """Whether every scorer can score data with `class_var`."""
        return all(fits(scorer, class_var) for scorer in self.scorers)

    def ranks(self, data):
        """(scorers, a) the rank of every attribute by every scorer."""
        check_table(data, "A consensus")
        data = without_weights(data)
        with warnings_summarised(self.name):
            return np.array([fractional_ranks(attribute_scores(scorer, data))
                             for scorer in self.scorers])

    def __call__(self, data, feature=None):
        mean_rank = self.ranks(data).mean(axis=0)
        scores = (-mean_rank if self.method == "mean rank"
                  else len(mean_rank) - mean_rank)
        return of_feature(data, scores, feature)

    def score_data(self, data, feature=None):
        return self(data, feature)

