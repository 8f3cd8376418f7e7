"""How many attributes to keep: a learner's cross-validated score against
the number of the best-ranked attributes, ranked anew in each fold.

:func:`selection_curve` ranks the attributes on each fold's training part
with a scorer, fits an Orange learner there on the best n for every n of
the grid (1 to all, a log scale where there are many) and scores it on
the test part (:mod:`orangecontrib.relief.core.analysis.selection_curve`).  The
result holds every fold's scores, their mean and standard error, the best
count and the smallest count within one standard error of the best, the
one to choose; :meth:`Curve.table` gives them as an Orange table.  With
TuRF as the scorer, the curve also holds the sizes of TuRF's rounds, the
sets it scored as it eliminated attributes.

Example::

    from Orange.classification import KNNLearner
    from Orange.data import Table
    from orangecontrib.relief import ReliefF
    from orangecontrib.relief.curve import selection_curve
    curve = selection_curve(Table("ionosphere"), KNNLearner(), ReliefF())
    curve.chosen, curve.table()
"""
from collections import namedtuple

import numpy as np
from sklearn.metrics import roc_auc_score

from Orange.base import Learner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.statistics.util import countnans

from .arrays import check_table, without_weights
from .core.analysis import selection_curve as core
from .core.options import N_FOLDS, RANDOM_STATE
from .core.validation import validated
from .core.progress import report
from .learners import PreprocessedOnce, concrete_learner, single_threaded
from .resampled import attribute_scores, check_fit, strata, subset_scorer
from .scorers import ReliefF, RReliefF, TuRF, check_scorer

__all__ = ["selection_curve", "Curve", "SCORES", "default_score"]


def accuracy(model, data):
    """The share of the instances of `data` that `model` classifies
    right."""
    return float(np.mean(model(data) == data.Y))


def area_under_roc(model, data):
    """The area under the ROC curve of `model`'s probabilities on `data`:
    of the second class against the first, or with more classes the mean
    of each class against the rest weighted by the class's frequency (as
    Orange's AUC); NaN where a class the average needs is missing."""
    probabilities = model(data, model.Probs)
    n_classes = probabilities.shape[1]
    try:
        if n_classes == 2:
            return float(roc_auc_score(data.Y, probabilities[:, 1]))
        return float(roc_auc_score(data.Y, probabilities, multi_class="ovr",
                                   average="weighted",
                                   labels=np.arange(n_classes)))
    except ValueError:
        return np.nan


def r_squared(model, data):
    """The coefficient of determination of `model`'s predictions on
    `data` (NaN where the target does not vary)."""
    residual = np.sum((data.Y - model(data)) ** 2)
    total = np.sum((data.Y - data.Y.mean()) ** 2)
    return float(1 - residual / total) if total > 0 else np.nan


#: name -> (function of a model and test data, the class type it fits,
#: its name in words); every score is the higher, the better
SCORES = {"CA": (accuracy, DiscreteVariable, "classification accuracy"),
          "AUC": (area_under_roc, DiscreteVariable,
                  "area under the ROC curve"),
          "R2": (r_squared, ContinuousVariable,
                 "coefficient of determination")}


def default_score(class_var):
    """CA for a categorical class, R2 for a numeric one."""
    return "CA" if class_var.is_discrete else "R2"


class Curve(namedtuple("Curve", core.SelectionCurve._fields
                       + ("score", "turf_counts"))):
    """The fields of :data:`~orangecontrib.relief.core.analysis.selection_curve.
    SelectionCurve`, the name of the `score` and TuRF's sizes
    (`turf_counts`, None for another scorer)."""
    __slots__ = ()

    def table(self):
        """An Orange table of the curve: a row per count, with its mean
        score, standard error and the score of every fold, and whether it
        is the best or the chosen count."""
        columns = [ContinuousVariable("attributes", number_of_decimals=0),
                   ContinuousVariable(self.score),
                   ContinuousVariable("standard error")]
        columns += [ContinuousVariable(f"fold {f + 1}")
                    for f in range(len(self.scores))]
        mark = DiscreteVariable("choice", values=("", "best", "chosen",
                                                  "best, chosen"))
        marks = ((self.counts == self.best).astype(int)
                 + 2 * (self.counts == self.chosen))
        table = Table.from_numpy(
            Domain(columns, metas=[mark]),
            np.column_stack([self.counts, self.mean, self.error,
                             self.scores.T]),
            metas=marks[:, None].astype(float))
        table.name = "Selection curve"
        return table


def evaluate_fold(data, learner, score, train, test, order, counts,
                  progress_callback=None):
    """The scores of `learner`, fitted on the rows `train` with the best
    n attributes of `order` (for each n of `counts`), on the rows
    `test`.  The learner's preprocessing is fitted on the training rows
    once (:class:`~orangecontrib.relief.learners.PreprocessedOnce`)."""
    once = PreprocessedOnce(learner, data[train])
    test_data = once.prepare(data[test])
    values = []
    with single_threaded():
        for done, count in enumerate(counts, start=1):
            values.append(SCORES[score][0](once.fit(order[:count]),
                                           test_data))
            report(progress_callback, done / len(counts))
    return values


def fold_ranking(scorer, data, n_folds):
    """``rank_rows(rows)``: the scorer's scores on a fold's training rows.

    Without missing values, Relief, ReliefF and RReliefF take every
    fold's neighbours from one search of the whole table
    (:func:`~orangecontrib.relief.resampled.subset_scorer`), whose diffs
    read the attributes' ranges, which hold nothing of the class.  With
    missing values the diffs hold the classes' value frequencies
    (RELIEF-D), so each fold is scored on its own rows alone, as any other
    scorer's."""
    if not countnans(data.X):
        return subset_scorer(scorer, data, (n_folds - 1) / n_folds)
    check_fit(scorer, data)
    return lambda rows: attribute_scores(scorer, data[rows])


@validated
def selection_curve(data, learner, scorer=None, *, score=None, counts=None,
                    n_folds=N_FOLDS, random_state=RANDOM_STATE,
                    progress_callback=None):
    """The cross-validated score of `learner` against the number of the
    best attributes by `scorer`, ranked on each training part.

    Parameters
    ----------
    data : Orange.data.Table
        With a class; rows of an unknown class are in no fold, and
        instance weights are ignored.
    learner : Orange learner (or fitter)
    scorer : Orange scorer or None
        None: ReliefF for a categorical class, RReliefF for a numeric
        one.  With :class:`~orangecontrib.relief.scorers.TuRF` the sizes
        of its rounds are added to the counts.
    score : "CA", "AUC", "R2" or None
        The score of the test parts (None: CA, or R2 for a numeric
        class).
    counts : int array or None
        The numbers of attributes to try (None:
        :func:`~orangecontrib.relief.core.analysis.selection_curve.count_grid`).
    n_folds, random_state
        Of the stratified cross-validation.
    progress_callback : callable(float) or None

    Returns
    -------
    Curve
    """
    check_table(data, "The selection curve")
    if not isinstance(learner, Learner):
        raise ValueError(f"learner must be an Orange learner, such as "
                         f"KNNLearner(), got {learner!r}.")
    data = without_weights(data)
    class_var = data.domain.class_var
    if scorer is None:
        scorer = ReliefF() if class_var.is_discrete else RReliefF()
    check_scorer(scorer, "The selection curve")
    score = default_score(class_var) if score is None else score
    if score not in SCORES:
        raise ValueError(f"score must be one of {', '.join(SCORES)}, got "
                         f"{score!r}.")
    if not isinstance(class_var, SCORES[score][1]):
        raise ValueError(f"{score} scores a "
                         f"{'categorical' if class_var.is_continuous else 'numeric'}"
                         f" class; use {default_score(class_var)}.")
    n_attributes = len(data.domain.attributes)
    turf_counts = None
    if isinstance(scorer, TuRF):
        turf_counts = core.turf_sizes(n_attributes, scorer.fraction,
                                      scorer.n_keep, scorer.schedule)
        counts = np.union1d(core.count_grid(n_attributes) if counts is None
                            else core.as_counts(counts, n_attributes),
                            turf_counts)
    learner = concrete_learner(learner, class_var)

    def evaluate(train, test, order, fold_counts, progress):
        return evaluate_fold(data, learner, score, train, test, order,
                             fold_counts, progress)

    curve = core.selection_curve.unchecked(  # checked on entry
        fold_ranking(scorer, data, n_folds), evaluate, strata(data),
        n_attributes, counts=counts, n_folds=n_folds,
        random_state=random_state, progress_callback=progress_callback)
    return Curve(*curve, score=score, turf_counts=turf_counts)


#: from this many attributes on, a curve's axis of counts is logarithmic
LOG_SCALE_FROM = 20


def figure_path(filename):
    """The file a figure named `filename` is written to: `filename`, in
    the format of its extension (.png, .pdf, .svg, ...), or with .png
    added if it has none; ValueError for an extension matplotlib cannot
    write."""
    import os

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    extension = os.path.splitext(filename)[1].lstrip(".").lower()
    if not extension:
        return filename + ".png"
    formats = FigureCanvasAgg.get_supported_filetypes()
    if extension not in formats:
        raise ValueError(f"cannot draw a figure as {extension!r} "
                         f"({filename}); name a file of one of "
                         f"{', '.join(sorted(formats))}.")
    return filename


def curve_figure(curve, filename, title=None, dpi=110):
    """Draw `curve` into the file :func:`figure_path` (`filename`) and
    return its path: the mean score against the number of attributes in
    a band of one standard error, the best mean less its standard error
    (the line the chosen count reaches), the best and the chosen count,
    and TuRF's sizes where it ranked."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    filename = figure_path(filename)
    figure = Figure(figsize=(6.4, 4.0))
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    ax.fill_between(curve.counts, curve.mean - curve.error,
                    curve.mean + curve.error, color="C0", alpha=0.2,
                    linewidth=0, label="mean \u00b1 standard error")
    ax.plot(curve.counts, curve.mean, "C0-", marker=".", label="mean score")
    at = list(curve.counts).index
    best = at(curve.best)
    ax.axhline(curve.mean[best] - curve.error[best], color="0.4", ls="--",
               lw=0.8, label="best \u2212 standard error")
    if curve.best != curve.chosen:
        ax.plot([curve.best], [curve.mean[best]], "o", color="C3", ms=8,
                mfc="none", label=f"best: {curve.best}")
    ax.plot([curve.chosen], [curve.mean[at(curve.chosen)]], "o", color="C3",
            ms=8, label=f"chosen: {curve.chosen}")
    if curve.turf_counts is not None:
        turf = [at(count) for count in curve.turf_counts]
        ax.plot(curve.turf_counts, curve.mean[turf], "s", color="C2", ms=5,
                mfc="none", label="TuRF's rounds")
    if curve.counts[-1] >= LOG_SCALE_FROM:
        ax.set_xscale("log")
    ax.set_xlabel("attributes kept (the best by the ranking of each fold)")
    ax.set_ylabel(f"{curve.score} ({len(curve.folds)}-fold cross-validation)")
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    figure.tight_layout()
    figure.savefig(filename, dpi=dpi)
    return filename
