"""Multi-label feature selection: the best attributes by multi-label
ReliefF against those by PPT-ReliefF, judged by the classifiers they give.

Usage::

    python benchmarks/bench_multilabel.py [--data yeast] [--top 5,10,20,40]
        [--folds 5] [--seed 0] [--k 10] [--neighbours 10] [--min-count 6]
        [--distances hamming,accuracy,f1,subset] [--instances N]

The data: a shipped data set's name or an Orange file whose class
variables are all binary (the labels); by default the yeast data shipped
with the add-on (Elisseeff & Weston 2001; Mulan's copy, 2,417 genes, 103
numeric attributes, 14 labels; ``orangecontrib/relief/datasets``).

Each fold of a seeded k-fold cross-validation ranks the attributes on its
training rows only, by

* ReliefF-ML (:func:`orangecontrib.relief.core.variants.multitarget.
  relieff_multilabel`, Reyes, Morell & Ventura 2015) with each label-set
  distance asked for (Hamming loss the default);
* PPT-ReliefF: ReliefF of one class, the label set (the label powerset),
  pruned as Read (2008, "A pruned problem transformation method for
  multi-label classification") prunes it: a label set seen fewer than
  ``--min-count`` times among the training rows is either dropped with
  its rows ("PPT, dropped", the transformation of Spolaor et al. 2013
  and Reyes et al. 2015's comparison) or replaced by its most frequent
  subset among the frequent ones ("PPT, subsets": Read's reintroduction
  of one subset; rows with no frequent subset are dropped);

then trains, on the best m attributes of each ranking, a binary-relevance
kNN (scikit-learn's KNeighborsClassifier on a 2-D y: each label the vote
of the same ``--neighbours`` nearest training rows, the attributes scaled
to [0, 1] on the training rows) and a multi-output decision tree (at
least five rows a leaf), and scores them on the fold's test rows by the
Hamming loss (lower is better) and the example-based F1 (the mean over
the rows of 2 |Y & Z| / (|Y| + |Z|), 1 where both are empty; higher is
better).  The table gives the means over the folds \u00b1 their standard
deviation, and the same models on every attribute.
"""
import sys
from collections import Counter

import numpy as np
from sklearn.model_selection import KFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.tree import DecisionTreeClassifier

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import relieff
from orangecontrib.relief.core.formulas.target_sets import LABEL_DISTANCES
from orangecontrib.relief.core.variants.multitarget import relieff_multilabel

from arguments import (Parser, checked, comma_separated, non_negative_int,
                       positive_int, positive_ints)

#: argparse types: a label-set distance; folds
distance_name = checked(str, lambda v: v in LABEL_DISTANCES,
                        " or ".join(LABEL_DISTANCES))
folds = checked(int, lambda v: v >= 2, "a whole number >= 2")
#: the ways PPT prunes the infrequent label sets
PRUNINGS = ("dropped", "subsets")
#: the fewest rows a leaf of the tree holds
LEAF = 5


def load(name):
    """X (n, a) and the labels Y (n, L) of a shipped data set or an Orange
    file whose class variables are all binary (each label 1 where its
    value is the second)."""
    from Orange.data import Table

    from orangecontrib.relief.datasets import path
    try:
        table = Table(path(name))
    except FileNotFoundError:
        table = Table(name)
    class_vars = table.domain.class_vars
    if len(class_vars) < 2 or any(not var.is_discrete or len(var.values) != 2
                                  for var in class_vars):
        raise SystemExit(f"{name}: multi-label data need two or more "
                         f"binary class variables (the labels).")
    return np.asarray(table.X, np.float64), np.asarray(table.Y, np.float64)


def label_powerset(Y, min_count, pruning):
    """(classes, rows) of Read's pruned problem transformation: each kept
    row's class, a code of its label set (or of the frequent subset that
    replaces it), and which rows are kept (those of a label set seen at
    least `min_count` times, and with ``pruning="subsets"`` those whose
    label set has a frequent subset: the one seen most often, ties to the
    larger, then to the one of the lower label numbers)."""
    sets = [tuple(np.flatnonzero(row)) for row in np.asarray(Y) > 0]
    counts = Counter(sets)
    frequent = sorted(s for s, count in counts.items() if count >= min_count)

    def replacement(labels):
        if counts[labels] >= min_count:
            return labels
        if pruning == "dropped":
            return None
        subsets = [s for s in frequent if set(s) < set(labels)]
        return max(subsets, key=lambda s: (counts[s], len(s),
                                           [-label for label in s]),
                   default=None)

    chosen = [replacement(labels) for labels in sets]
    rows = np.array([s is not None for s in chosen])
    codes = {s: code for code, s in enumerate(frequent)}
    return np.array([codes[s] for s in chosen if s is not None]), rows


def rankings(X, Y, args):
    """{selection: the attributes, best first} of the training rows."""
    ranked = {}
    for distance in args.distances:
        weights = relieff_multilabel(X, Y, k_nearest=args.k,
                                     distance=distance).overall
        ranked[f"ReliefF-ML, {distance}"] = np.argsort(-weights,
                                                       kind="stable")
    for pruning in PRUNINGS:
        classes, rows = label_powerset(Y, args.min_count, pruning)
        if len(np.unique(classes)) < 2:
            raise SystemExit(
                f"PPT keeps fewer than two label sets seen at least "
                f"{args.min_count} times among {len(Y)} training rows: "
                f"lower --min-count or take more --instances.")
        weights = relieff(X[rows], classes, k_nearest=args.k)
        ranked[f"PPT-ReliefF, {pruning}"] = np.argsort(-weights,
                                                       kind="stable")
    return ranked


def models(args):
    """{name: a new model} of the binary-relevance kNN and the tree."""
    return {"kNN": make_pipeline(MinMaxScaler(), KNeighborsClassifier(
                args.neighbours)),
            "tree": DecisionTreeClassifier(min_samples_leaf=LEAF,
                                           random_state=args.seed)}


def example_f1(Y, Z):
    """The example-based F1 of true labels Y and predicted Z (n, L): the
    mean of 2 |Y & Z| / (|Y| + |Z|), 1 for a row where both are empty."""
    Y, Z = np.asarray(Y) > 0, np.asarray(Z) > 0
    both = (Y & Z).sum(axis=1)
    sizes = Y.sum(axis=1) + Z.sum(axis=1)
    return float(np.mean(np.where(sizes == 0, 1.0,
                                  2 * both / np.maximum(sizes, 1))))


def hamming_loss(Y, Z):
    """The share of the labels predicted wrongly."""
    return float(np.mean((np.asarray(Y) > 0) != (np.asarray(Z) > 0)))


def scores(model, X, Y, train, test, columns):
    """(Hamming loss, example F1) of `model` trained on the rows `train`
    and the attributes `columns`, on the rows `test`."""
    model.fit(X[np.ix_(train, columns)], Y[train])
    predicted = model.predict(X[np.ix_(test, columns)])
    return hamming_loss(Y[test], predicted), example_f1(Y[test], predicted)


def cross_validated(X, Y, args):
    """{(m, selection): {model: (Hamming loss, example F1) per fold}},
    each fold's rankings from its training rows; m = a for every
    attribute (selection "all")."""
    results = {}
    split = KFold(args.folds, shuffle=True, random_state=args.seed)
    for fold, (train, test) in enumerate(split.split(X)):
        print(f"fold {fold + 1} of {args.folds}: ranking ...",
              file=sys.stderr, flush=True)
        ranked = rankings(X[train], Y[train], args)
        cases = [(X.shape[1], "all", np.arange(X.shape[1]))]
        cases += [(m, name, order[:m]) for m in args.top
                  for name, order in ranked.items()]
        for m, name, columns in cases:
            for model_name, model in models(args).items():
                results.setdefault((m, name), {}).setdefault(
                    model_name, []).append(
                        scores(model, X, Y, train, test, columns))
    return results


def table(results):
    """The markdown lines of the means over the folds and their standard
    deviations, a row per m and selection."""
    lines = ["| m | selection | kNN Hamming loss | kNN example F1 | "
             "tree Hamming loss | tree example F1 |",
             "| ---: | --- | ---: | ---: | ---: | ---: |"]
    for (m, name), by_model in sorted(results.items(),
                                      key=lambda item: item[0][0]):
        cells = [f"{mean:.3f} \u00b1 {sd:.3f}" for model in ("kNN", "tree")
                 for mean, sd in zip(np.mean(by_model[model], axis=0),
                                     np.std(by_model[model], axis=0))]
        lines.append(f"| {m} | {name} | " + " | ".join(cells) + " |")
    return lines


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="yeast",
                        help="a shipped data set or an Orange file of binary "
                             "class variables (default: yeast)")
    parser.add_argument("--top", type=positive_ints, default=[5, 10, 20, 40],
                        help="the numbers m of the best attributes kept")
    parser.add_argument("--folds", type=folds, default=5)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--k", type=positive_int, default=10,
                        help="the neighbours of ReliefF-ML and ReliefF")
    parser.add_argument("--neighbours", type=positive_int, default=10,
                        help="the neighbours of the kNN classifier")
    parser.add_argument("--min-count", type=positive_int, default=6,
                        help="PPT keeps the label sets seen this often")
    parser.add_argument("--distances", default=list(LABEL_DISTANCES),
                        type=comma_separated(distance_name),
                        help="ReliefF-ML's label-set distances")
    parser.add_argument("--instances", type=positive_int, default=None,
                        help="a seeded sample of this many rows (a quick "
                             "run); default every row")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    X, Y = load(args.data)
    if args.instances is not None and args.instances < len(X):
        rows = np.sort(np.random.default_rng(args.seed).choice(
            len(X), args.instances, replace=False))
        X, Y = X[rows], Y[rows]
    args.top = sorted(m for m in set(args.top) if m < X.shape[1])
    print(f"{args.data}: {X.shape[0]} instances, {X.shape[1]} attributes, "
          f"{Y.shape[1]} labels; {args.folds}-fold cross-validation (seed "
          f"{args.seed}), the rankings on each fold's training rows; "
          f"ReliefF k = {args.k}, kNN k = {args.neighbours}, tree leaves "
          f">= {LEAF}, PPT label sets seen >= {args.min_count} times")
    try:
        with engines.preferring_compiled():
            results = cross_validated(X, Y, args)
    except ReliefInputError as error:  # a fold too small for a ranking
        raise SystemExit(f"{args.data}, a training fold: {error}") from None
    print("\n".join(table(results)))


if __name__ == "__main__":
    main()
