"""Selection's many Relief runs against the naive loops.

* The selection curve: 10-fold cross-validation of a learner on the best
  1 .. a attributes by ReliefF ranked in each fold
  (:func:`orangecontrib.relief.curve.selection_curve`), against the loop a
  script would write: ReliefF on each fold's training table, then for
  every count the learner (with its preprocessing) on a table of those
  attributes.  Both the ranking alone and the whole curve are timed.
* Stability: ReliefF on B bootstrap samples
  (:func:`orangecontrib.relief.stability.ranking_stability`), against
  ReliefF on the arrays of each sample.

Ours reuses the whole table's preparation and one neighbour search
(:mod:`orangecontrib.relief.core.analysis.subset_relief`) and fits each fold's
learner preprocessing once; the naive loops do neither.  Both run the
learners with one BLAS thread, so that the ratio is that of the reuse.
The compiled engine is prepared first (a warm cache), and each case runs
once after a warm-up call on smaller data.  The agreement columns say how
close the answers are: ours scores subsets with the whole table's ranges,
the naive loop with each subset's own.

Usage, on an otherwise idle machine::

    python benchmarks/bench_selection.py [--curve 5000x100] [--folds 10]
        [--stability 2000x100] [--resamples 100] [--learner knn]
"""
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arguments import Parser, positive_int, size  # noqa: E402
from harness import Spec, make_data  # noqa: E402


def build_parser():
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--curve", type=size, default=(5000, 100),
                        metavar="NxA", help="size of the curve's data "
                                            "(default 5000x100)")
    parser.add_argument("--folds", type=positive_int, default=10,
                        help="folds of the curve (default 10)")
    parser.add_argument("--learner", choices=("knn", "logreg", "tree"),
                        default="knn", help="the curve's learner (default "
                                            "knn)")
    parser.add_argument("--stability", type=size, default=(2000, 100),
                        metavar="NxA", help="size of the stability's data "
                                            "(default 2000x100)")
    parser.add_argument("--resamples", type=positive_int, default=100,
                        help="bootstrap samples (default 100)")
    return parser


def table_of(X, y):
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

    domain = Domain([ContinuousVariable(f"a{i}") for i in range(X.shape[1])],
                    DiscreteVariable("class", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


def learner_of(name):
    from Orange.classification import (KNNLearner, LogisticRegressionLearner,
                                       TreeLearner)
    return {"knn": KNNLearner, "logreg": LogisticRegressionLearner,
            "tree": TreeLearner}[name]()


def timed(call):
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def naive_ranking(data, folds):
    """ReliefF on each fold's training table."""
    from orangecontrib.relief import ReliefF
    return [ReliefF()(data[train]) for train, _ in folds]


def naive_curve(data, learner, folds, counts, rankings):
    """For every fold and count, the learner on a table of the best
    attributes (with its own preprocessing), scored on the test part."""
    from Orange.data import Domain

    from orangecontrib.relief.learners import single_threaded

    attributes = data.domain.attributes
    scores = np.empty((len(folds), len(counts)))
    with single_threaded():
        for f, ((train, test), weights) in enumerate(zip(folds, rankings)):
            order = np.argsort(-weights, kind="stable")
            for c, count in enumerate(counts):
                kept = Domain([attributes[i] for i in sorted(order[:count])],
                              data.domain.class_var)
                table = data.transform(kept)
                model = learner(table[train])
                scores[f, c] = np.mean(model(table[test]) == table[test].Y)
    return scores


def curve_case(n, a, n_folds, learner_name):
    """Rows of the table: the ranking alone and the whole curve."""
    from orangecontrib.relief import ReliefF
    from orangecontrib.relief.core.analysis.resampling import draw_folds
    from orangecontrib.relief.core.analysis.selection_curve import (count_grid,
                                                                    one_standard_error)
    from orangecontrib.relief.curve import fold_ranking, selection_curve
    from orangecontrib.relief.resampled import strata

    generated = make_data(Spec(n, a))
    X, y = generated["X"], generated["y"]
    data = table_of(X, y)
    learner = learner_of(learner_name)
    folds = draw_folds(strata(data), n_folds, 0)
    counts = count_grid(a)

    def ours_ranking():
        rank = fold_ranking(ReliefF(), data, n_folds)
        return [rank(train) for train, _ in folds]

    naive_rank_time, naive_ranks = timed(lambda: naive_ranking(data, folds))
    ours_rank_time, ours_ranks = timed(ours_ranking)
    same_top = np.mean([
        len(set(np.argsort(-p)[:10]) & set(np.argsort(-q)[:10])) / 10
        for p, q in zip(naive_ranks, ours_ranks)])
    fits_time, naive_scores = timed(lambda: naive_curve(
        data, learner, folds, counts, naive_ranks))
    naive_time = naive_rank_time + fits_time
    ours_time, curve = timed(lambda: selection_curve(
        data, learner, ReliefF(), n_folds=n_folds))
    naive_chosen = one_standard_error(counts, naive_scores)[3]
    label = f"{n}x{a}, {n_folds} folds"
    return [
        [f"curve: ReliefF in each fold, {label}", f"{naive_rank_time:.2f}",
         f"{ours_rank_time:.2f}", f"{naive_rank_time / ours_rank_time:.1f}",
         f"same 10 best: {same_top:.0%}"],
        [f"curve: the whole, {learner_name} on {len(counts)} counts, "
         f"{label}", f"{naive_time:.2f}", f"{ours_time:.2f}",
         f"{naive_time / ours_time:.1f}",
         f"chosen {naive_chosen} / {curve.chosen}"]]


def stability_case(n, a, n_resamples):
    """Rows of the table: B bootstrap samples of ReliefF."""
    from orangecontrib.relief import ReliefF
    from orangecontrib.relief.core.variants.estimators import relieff
    from orangecontrib.relief.core.analysis.resampling import draw_resamples
    from orangecontrib.relief.core.analysis.stability import summarise
    from orangecontrib.relief.resampled import strata
    from orangecontrib.relief.stability import ranking_stability

    generated = make_data(Spec(n, a))
    X, y = generated["X"], generated["y"]
    data = table_of(X, y)
    resamples = draw_resamples(strata(data), n_resamples, random_state=0)

    def naive():
        return np.array([relieff(X[rows], y[rows]) for rows in resamples])

    naive_time, naive_scores = timed(naive)
    ours_time, ours = timed(lambda: ranking_stability(
        data, ReliefF(), n_resamples=n_resamples, random_state=0))
    reference = summarise(naive_scores, ours.top_k)
    difference = np.abs(reference.frequency - ours.frequency).max()
    return [[f"stability: {n_resamples} bootstrap samples, ReliefF, "
             f"{n}x{a}", f"{naive_time:.2f}", f"{ours_time:.2f}",
             f"{naive_time / ours_time:.1f}",
             f"index {reference.index.value:.3f} / {ours.index.value:.3f}, "
             f"frequencies within {difference:.2f}"]]


def warm_up(args):
    """The compiled engine prepared, and every case's code run once on
    small data."""
    from orangecontrib.relief.core import warmup

    warmup.prepare()
    curve_case(400, 12, 3, args.learner)
    stability_case(300, 12, 3)


def main(argv=None):
    args = build_parser().parse_args(argv)
    os.environ.setdefault("ORANGE_RELIEF_BACKGROUND", "0")
    warm_up(args)
    rows = (curve_case(*args.curve, args.folds, args.learner)
            + stability_case(*args.stability, args.resamples))
    print(f"load average {os.getloadavg()[0]:.1f}, "
          f"{len(os.sched_getaffinity(0))} cores")
    print("| case | naive (s) | ours (s) | naive / ours | agreement "
          "(naive / ours) |")
    print("| --- | ---: | ---: | ---: | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
