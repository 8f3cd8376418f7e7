"""Scorers as Orange's Rank widget takes them on its Scorer input.

Rank calls ``score_data(data)`` and reads one row per score column, a
``name``, a ``class_type`` and ``learner_adequacy_err_msg``; the scorers of
:mod:`.scorers` keep Orange's 1-D contract everywhere else.
:class:`RankScorer` passes a scorer's weights as one column,
:class:`ClassDependentRankScorer` a class-dependent scorer's matrix as one
column per class value.
"""
import numpy as np

from Orange.preprocess.score import Scorer

from .scorers import check_scorer, table_scores

__all__ = ["RankScorer", "ClassDependentRankScorer", "column_name"]

#: the class-dependent scorers: a column per class value (no k in the name)
CLASS_DEPENDENT = ("CDRelief", "IWCDRelief")
SUBSCRIPTS = str.maketrans("0123456789", "\u2080\u2081\u2082\u2083\u2084"
                           "\u2085\u2086\u2087\u2088\u2089")


def column_name(scorer):
    """The name of `scorer`'s column in Orange's Rank widget: its name with
    its k as a subscript where it has one ("ReliefF\u2081\u2080" for k = 10),
    so that it differs from Orange's own "ReliefF" column and fits Rank's
    narrow columns (a variant's `column` where it declares one,
    "MSWRFDB*" for MultiSWRFDB*); a scorer ranked by magnitude
    (:class:`.scorers.Absolute`) between bars, "|ReliefF\u2081\u2080|"."""
    inner = getattr(scorer, "absolute_of", None)
    if inner is not None:
        return f"|{column_name(inner)}|"
    k = getattr(scorer, "k_nearest", None)
    variant = getattr(scorer, "variant", None)
    name = getattr(variant, "column", "") or scorer.friendly_name
    if k is None or name in CLASS_DEPENDENT:
        return name
    return name + str(k).translate(SUBSCRIPTS)


class RankScorer(Scorer):
    """A scorer as Orange's Rank widget takes it on its Scorer input.

    Rank calls ``score_data(data)`` and reads one row per score column, a
    ``name``, a ``class_type`` and ``learner_adequacy_err_msg``; the wrapped
    scorer keeps Orange's 1-D contract everywhere else.
    """
    learner_adequacy_err_msg = ""

    def __init__(self, scorer, name=None):
        self.scorer = check_scorer(scorer, "RankScorer")
        self.name = name or column_name(scorer)

    @property
    def class_type(self):
        return self.scorer.class_type

    @property
    def feature_type(self):
        return self.scorer.feature_type

    @property
    def friendly_name(self):
        return self.name

    def __call__(self, data, feature=None):
        return self.scorer(data, feature)

    def score_data(self, data, feature=None):
        """The scores as one row; an attribute without a score (-inf in
        the scripted contract, which sorts) is NaN here, which Rank shows
        as NA and sorts last."""
        if feature is not None:
            return unscored_as_nan(np.atleast_2d(self.scorer(data, feature)))
        return unscored_as_nan(table_scores(self.scorer, data)[None])


def unscored_as_nan(scores):
    """`scores` (floats) with -inf, the scripted contract's "no score",
    as NaN."""
    scores = np.array(scores, dtype=np.float64)
    scores[np.isneginf(scores)] = np.nan
    return scores


class _ColumnName(str):
    """The name Rank gives its column(s) for a class-dependent scorer.

    Rank labels a scorer's columns ``shortname + "_" + str(i)`` (i = 1, 2,
    ...) when it returns several rows.  This ``str`` remembers the class
    values the scorer last scored: adding "_" and then "i" gives the i-th
    class value's column name.  Anything else treats it as a plain string,
    so a Rank that builds labels differently shows name_1, name_2, ...:
    the i-th column is then the i-th value of the class variable.
    """

    def __new__(cls, text, scorer):
        name = super().__new__(cls, text)
        name.scorer = scorer
        return name

    def __add__(self, other):
        if other == "_":
            return _ColumnPrefix(str(self) + other, self.scorer)
        return str(self) + other

    def __reduce__(self):
        return str, (str(self),)


class _ColumnPrefix(str):
    """``name + "_"`` awaiting the column number (see :class:`_ColumnName`)."""

    def __new__(cls, text, scorer):
        prefix = super().__new__(cls, text)
        prefix.scorer = scorer
        return prefix

    def __add__(self, other):
        labels = self.scorer.column_labels
        if other.isdigit() and 1 <= int(other) <= len(labels):
            return labels[int(other) - 1]
        return str(self) + other

    def __reduce__(self):
        return str, (str(self),)


class ClassDependentRankScorer(RankScorer):
    """A class-dependent scorer for Orange's Rank widget: one column per class.

    ``score_data`` returns the scorer's (classes x attributes) matrix, so
    Rank shows one column per value of the class variable.  The columns say
    what they hold: "<scorer> for class <value>", e.g. "CDRelief for class
    present", the weights the scorer learnt for that class (Rank's narrow
    header shows the start and the end, its tooltip the whole; see
    :class:`_ColumnName` for how; should a Rank version name them
    "<name>_1", "<name>_2", ..., column i is the i-th class value).  The
    plain call keeps Orange's 1-D contract (the prior-weighted mean).
    """

    def __init__(self, scorer, name=None):
        super().__init__(scorer, name)
        self.column_labels = ()
        self.name = _ColumnName(self.name, self)

    def score_data(self, data, feature=None):
        matrix = self.scorer.class_weights(data)
        self.column_labels = tuple(f"{self.name} for class {value}"
                                   for value in data.domain.class_var.values)
        if feature is not None:
            return matrix[:, data.domain.attributes.index(data.domain[feature])]
        return matrix
