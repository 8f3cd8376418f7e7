"""Multi-label feature selection: the best attributes by multi-label
ReliefF against those by PPT-ReliefF, judged by the classifiers they give,
every difference with a paired test.

Usage::

    python benchmarks/bench_multilabel.py [--data yeast] [--top 5,10,20,40]
        [--folds 10] [--repeats 5] [--seed 0] [--k 10] [--neighbours 10]
        [--prune 6] [--distance hamming] [--instances N] [--quick]

The data: a shipped data set's name or an Orange file whose class
variables are all binary (the labels): by default the yeast data
(Elisseeff & Weston 2001: 2,417 genes, 103 numeric attributes, 14
labels), or the emotions data (Trohidis, Tsoumakas, Kalliris & Vlahavas
2008: 593 songs, 72 numeric attributes, 6 labels), both Mulan's copies,
shipped with the add-on (``orangecontrib/relief/datasets``).

A seeded cross-validation of ``--folds`` folds repeated ``--repeats``
times (``--quick``: 5 folds twice), stratified by the label set (the label
sets of fewer rows than folds pooled into one stratum), gives every
method the same folds.  Each fold ranks the attributes on its training
rows only, by

* ReliefF-ML (:func:`orangecontrib.relief.core.variants.multitarget.
  relieff_multilabel`, Reyes, Morell & Ventura 2015, their RReliefF-ML)
  with its default label-set distance, the Hamming loss (``--distance``
  another), the settings its defaults;
* PPT-ReliefF: ReliefF of one class, the label set (the label powerset),
  pruned as Read (2008, "A pruned problem transformation method for
  multi-label classification") prunes it: a label set seen ``--prune``
  times or fewer among the training rows is infrequent, and its rows are
  either dropped ("PPT, dropped": the transformation with information
  loss) or each brought back once for every frequent subset of its label
  set, the largest first, each disjoint from those taken before ("PPT,
  subsets": no information loss), as MEKA's and Mulan's PPT do;

then trains, on the best m attributes of each ranking, a binary-relevance
kNN (scikit-learn's KNeighborsClassifier on a 2-D y: each label the vote
of the same ``--neighbours`` nearest training rows, the attributes scaled
to [0, 1] on the training rows) and a multi-output decision tree (at
least five rows a leaf), and scores them on the fold's test rows by the
Hamming loss (lower is better) and the example-based F1 (the mean over
the rows of 2 |Y & Z| / (|Y| + |Z|), 1 where both are empty; higher is
better).

For each m, model and pruning the table gives the means over the folds
of the two selections' scores and their paired difference, ReliefF-ML
minus PPT-ReliefF, with the two-sided p-value of the corrected repeated
k-fold cross-validation t-test (Nadeau & Bengio 2003; Bouckaert & Frank
2004; ``paired_test.py``); where p < 0.05 the better selection is named
in bold.  The last rows give the same models on every attribute.
"""
import sys
from collections import Counter
from itertools import combinations

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.tree import DecisionTreeClassifier

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import relieff
from orangecontrib.relief.core.formulas.target_sets import LABEL_DISTANCES
from orangecontrib.relief.core.variants.multitarget import relieff_multilabel

from arguments import (Parser, checked, non_negative_int, positive_int,
                       positive_ints)
from paired_test import corrected_t_test

#: argparse types: a label-set distance; folds
distance_name = checked(str, lambda v: v in LABEL_DISTANCES,
                        " or ".join(LABEL_DISTANCES))
folds = checked(int, lambda v: v >= 2, "a whole number >= 2")
#: the ways PPT treats the rows of an infrequent label set
PRUNINGS = ("dropped", "subsets")
#: the selection compared with PPT's
OURS = "ReliefF-ML"
#: the fewest rows a leaf of the tree holds
LEAF = 5
#: the models, and the scores with the sign of better (+1 higher)
MODELS = ("kNN", "tree")
SCORES = (("Hamming loss", -1), ("example F1", 1))
#: a difference is significant where p is below this
ALPHA = 0.05
#: --quick: folds and repeats
QUICK = (5, 2)


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


def label_sets(Y):
    """Each row's label set: the numbers of its labels, a tuple."""
    return [tuple(np.flatnonzero(row).tolist()) for row in np.asarray(Y) > 0]


def frequent_subsets(labels, counts, prune):
    """The label sets that stand for the infrequent set `labels` in Read's
    PPT without information loss: its proper subsets seen more than
    `prune` times (`counts`), the largest first, each disjoint from those
    taken before; subsets of one size in Mulan's order (``PPT``,
    ``LabelSet.getSubsets``: the one without the set's lower labels
    first)."""
    taken, chosen = set(), []
    for size in range(len(labels) - 1, 0, -1):
        for subset in sorted(combinations(labels, size),
                             key=lambda s: [label in s for label in labels]):
            if counts[subset] > prune and taken.isdisjoint(subset):
                chosen.append(subset)
                taken.update(subset)
    return chosen


def label_powerset(Y, prune, pruning):
    """(rows, classes) of Read's pruned problem transformation of the
    labels Y (n, L): ReliefF's data are the rows `rows` (a row may come
    more than once), `classes` a code of the label set each stands for
    (the frequent sets in sorted order).  A label set seen `prune` times
    or fewer is infrequent: its rows are dropped (``pruning="dropped"``)
    or come back once for each of its :func:`frequent_subsets`
    (``"subsets"``)."""
    sets = label_sets(Y)
    counts = Counter(sets)
    frequent = sorted(s for s, count in counts.items() if count > prune)
    codes = {s: code for code, s in enumerate(frequent)}
    rows, classes = [], []
    for row, labels in enumerate(sets):
        if counts[labels] > prune:
            standing = [labels]
        elif pruning == "subsets":
            standing = frequent_subsets(labels, counts, prune)
        else:
            standing = []
        rows += [row] * len(standing)
        classes += [codes[s] for s in standing]
    return np.array(rows, dtype=np.intp), np.array(classes, dtype=np.int64)


def strata(Y, n_folds):
    """Each row's stratum: a code of its label set, the label sets of
    fewer than `n_folds` rows pooled into one stratum (joined to the
    largest where they have fewer rows than folds together)."""
    sets = label_sets(Y)
    counts = Counter(sets)
    common = sorted((s for s, count in counts.items() if count >= n_folds),
                    key=lambda s: (-counts[s], s))
    codes = {s: code for code, s in enumerate(common)}
    groups = np.array([codes.get(s, len(common)) for s in sets])
    pooled = groups == len(common)
    if common and pooled.sum() < n_folds:
        groups[pooled] = 0
    return groups


def folds_of(Y, args):
    """The (train, test) rows of every fold, repeat after repeat."""
    split = RepeatedStratifiedKFold(n_splits=args.folds,
                                    n_repeats=args.repeats,
                                    random_state=args.seed)
    return list(split.split(np.zeros((len(Y), 1)), strata(Y, args.folds)))


def best_first(weights):
    """The attributes by weight, the best first (ties to the lower)."""
    return np.argsort(-np.asarray(weights), kind="stable")


def rankings(X, Y, args):
    """{selection: the attributes, best first} of the training rows."""
    ranked = {OURS: best_first(relieff_multilabel(
        X, Y, k_nearest=args.k, distance=args.distance,
        per_label=False).overall)}
    for pruning in PRUNINGS:
        rows, classes = label_powerset(Y, args.prune, pruning)
        if len(np.unique(classes)) < 2:
            raise SystemExit(
                f"PPT keeps fewer than two label sets seen more than "
                f"{args.prune} times among {len(Y)} training rows: lower "
                f"--prune or take more --instances.")
        ranked[f"PPT, {pruning}"] = best_first(relieff(
            X[rows], classes, k_nearest=args.k))
    return ranked


def new_model(name, args):
    """A new binary-relevance kNN or multi-output tree."""
    if name == "kNN":
        return make_pipeline(MinMaxScaler(),
                             KNeighborsClassifier(args.neighbours))
    return DecisionTreeClassifier(min_samples_leaf=LEAF,
                                  random_state=args.seed)


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
    """({(selection, m, model): (folds, 2) scores}, the folds), each
    fold's rankings from its training rows, a model fitted once for each
    set of attributes; selection "all" every attribute (m = a)."""
    splits = folds_of(Y, args)
    every = np.arange(X.shape[1])
    results = {}
    for number, (train, test) in enumerate(splits, 1):
        print(f"fold {number} of {len(splits)}: ranking ...",
              file=sys.stderr, flush=True)
        ranked = rankings(X[train], Y[train], args)
        cases = [("all", len(every), every)]
        cases += [(name, m, np.sort(order[:m])) for m in args.top
                  for name, order in ranked.items()]
        fitted = {}
        for name, m, columns in cases:
            for model in MODELS:
                key = (model, columns.tobytes())
                if key not in fitted:
                    fitted[key] = scores(new_model(model, args), X, Y, train,
                                         test, columns)
                results.setdefault((name, m, model), []).append(fitted[key])
    return {key: np.array(value) for key, value in results.items()}, splits


def difference(ours, theirs, test_share, better):
    """The cell of a paired difference, ours minus theirs, with its p and,
    where p < ALPHA, the better selection in bold."""
    mean, p = corrected_t_test(ours - theirs, test_share)
    cell = f"{mean:+.4f} (p {p:.3f})" if p >= 0.001 else \
        f"{mean:+.4f} (p < 0.001)"
    if p < ALPHA:
        cell += f" **{OURS if mean * better > 0 else 'PPT'}**"
    return cell


def table(results, splits):
    """The markdown lines: a row per m, model and pruning, the means of
    both selections' scores and their paired differences, then every
    attribute's row per model."""
    test_share = float(np.mean([len(test) / len(train)
                                for train, test in splits]))
    header = ["m", "model", "against"]
    for score, _ in SCORES:
        header += [f"{score}, {OURS}", f"{score}, against",
                   f"{score}, {OURS} - against (p)"]
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join(["---:", "---", "---"]
                               + ["---:"] * (len(header) - 3)) + " |"]
    tops = sorted({m for name, m, _ in results if name != "all"})
    for m in tops:
        for model in MODELS:
            ours = results[OURS, m, model]
            for pruning in PRUNINGS:
                theirs = results[f"PPT, {pruning}", m, model]
                cells = [str(m), model, f"PPT, {pruning}"]
                for s, (_, better) in enumerate(SCORES):
                    cells += [f"{ours[:, s].mean():.3f}",
                              f"{theirs[:, s].mean():.3f}",
                              difference(ours[:, s], theirs[:, s],
                                         test_share, better)]
                lines.append("| " + " | ".join(cells) + " |")
    for (name, m, model), every in results.items():
        if name == "all":
            cells = [str(m), model, "every attribute"]
            for s in range(len(SCORES)):
                cells += ["-", f"{every[:, s].mean():.3f}", "-"]
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="yeast",
                        help="a shipped data set (yeast, emotions) or an "
                             "Orange file of binary class variables "
                             "(default: yeast)")
    parser.add_argument("--top", type=positive_ints, default=[5, 10, 20, 40],
                        help="the numbers m of the best attributes kept")
    parser.add_argument("--folds", type=folds, default=10)
    parser.add_argument("--repeats", type=positive_int, default=5,
                        help="the cross-validation's repeats, each with "
                             "new folds")
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK[0]} folds {QUICK[1]} times (a quick "
                             f"run)")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--k", type=positive_int, default=10,
                        help="the neighbours of ReliefF-ML and ReliefF")
    parser.add_argument("--neighbours", type=positive_int, default=10,
                        help="the neighbours of the kNN classifier")
    parser.add_argument("--prune", type=non_negative_int, default=6,
                        help="PPT's p: a label set seen this often or less "
                             "is infrequent")
    parser.add_argument("--distance", default=LABEL_DISTANCES[0],
                        type=distance_name,
                        help="ReliefF-ML's label-set distance")
    parser.add_argument("--instances", type=positive_int, default=None,
                        help="a seeded sample of this many rows (a quick "
                             "run); default every row")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.quick:
        args.folds, args.repeats = QUICK
    X, Y = load(args.data)
    if args.instances is not None and args.instances < len(X):
        rows = np.sort(np.random.default_rng(args.seed).choice(
            len(X), args.instances, replace=False))
        X, Y = X[rows], Y[rows]
    args.top = sorted(m for m in set(args.top) if m < X.shape[1])
    print(f"{args.data}: {X.shape[0]} instances, {X.shape[1]} attributes, "
          f"{Y.shape[1]} labels; {args.folds}-fold cross-validation "
          f"repeated {args.repeats} times (seed {args.seed}), stratified "
          f"by label set, the rankings on each fold's training rows; "
          f"ReliefF k = {args.k}, ReliefF-ML distance {args.distance}, "
          f"kNN k = {args.neighbours}, tree leaves >= {LEAF}, PPT p = "
          f"{args.prune}")
    try:
        with engines.preferring_compiled():
            results, splits = cross_validated(X, Y, args)
    except ReliefInputError as error:  # a fold too small for a ranking
        raise SystemExit(f"{args.data}, a training fold: {error}") from None
    print("\n".join(table(results, splits)))


if __name__ == "__main__":
    main()
