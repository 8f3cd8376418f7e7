"""``orange-relief curve``: how many of the best attributes to keep, by a
learner's cross-validated score with the attributes ranked in each fold."""
import time

from ..core import engines
from .common import (CliError, ProgressBar, declared, input_error,
                     option_names, timed, write_figure)
from .rank import add_table_arguments, scored_table

#: the learners of --learner, by name: (their name in words, whether a
#: numeric class suits them)
LEARNERS = {"knn": ("kNN", True), "tree": ("tree", True),
            "logreg": ("logistic regression", False)}
DEFAULT_FIGURE = "curve.png"


def add_curve_command(subparsers):
    """Register ``orange-relief curve``."""
    from orangecontrib.relief.core.options import N_FOLDS, PARAMETERS
    from orangecontrib.relief.curve import SCORES

    parser = subparsers.add_parser(
        "curve", help="how many of the best attributes to keep: a "
                      "learner's cross-validated score against their number",
        description="Rank the attributes on the training part of each fold "
                    "of a cross-validation, fit the learner there on the "
                    "best 1, 2, ... of them (a log scale where there are "
                    "many) and score it on the test part; print the mean "
                    "score of every number with its standard error, choose "
                    "the smallest number whose mean is within one standard "
                    "error of the best and draw the curve.")
    add_table_arguments(parser, "the Relief variant that ranks")
    parser.add_argument(
        "--learner", choices=list(LEARNERS), default="knn",
        help="the learner scored: knn (Orange's kNN, the default), tree or "
             "logreg (logistic regression, a categorical class)")
    parser.add_argument(
        "--score", choices=list(SCORES),
        help="the score of the test parts: CA or AUC for a categorical "
             "class, R2 for a numeric one (default CA, R2)")
    parser.add_argument(
        "--folds", type=declared("n_folds"), default=N_FOLDS, dest="n_folds",
        metavar="F", help=f"folds of the cross-validation (default {N_FOLDS})")
    parser.add_argument("--seed", type=declared("random_state"), default=0,
                        dest="random_state", metavar="S",
                        help="seed of the folds (default: 0)")
    figure = parser.add_mutually_exclusive_group()
    figure.add_argument(
        "--figure", metavar="FILE",
        help=f"where to draw the curve, in the format of its extension "
             f"(.png, .pdf, .svg; none: .png is added; default: "
             f"{DEFAULT_FIGURE})")
    figure.add_argument("--no-figure", action="store_true",
                        help="draw no figure")
    parser.set_defaults(run=run_curve,
                        options=option_names(parser, PARAMETERS))


def make_learner(name, class_var):
    """The Orange learner of --learner `name` for data with `class_var`."""
    from Orange.classification import LogisticRegressionLearner
    from Orange.modelling import KNNLearner, TreeLearner

    words, numeric = LEARNERS[name]
    if class_var.is_continuous and not numeric:
        raise CliError(f"--learner {name} ({words}) needs a categorical "
                       f"class, and {class_var.name} is numeric; use "
                       f"--learner knn or tree")
    return {"knn": KNNLearner, "tree": TreeLearner,
            "logreg": LogisticRegressionLearner}[name]()


def format_curve(curve):
    """The lines of a table: the number of attributes, the mean score, its
    standard error and which count is the best and the chosen."""
    lines = [f"{'attributes':>10}  {curve.score:>7}  {'std.err':>7}"]
    for count, mean, error in zip(curve.counts, curve.mean, curve.error):
        marks = [name for name, at in (("best", curve.best),
                                       ("chosen", curve.chosen))
                 if count == at]
        lines.append(f"{count:>10}  {mean:>7.4f}  {error:>7.4f}"
                     + (f"  {', '.join(marks)}" if marks else ""))
    return lines


def run_curve(args):
    """Compute the curve of `args.file`, print it and draw it."""
    from orangecontrib.relief.core.registry import by_name
    from orangecontrib.relief.curve import curve_figure, selection_curve
    from orangecontrib.relief.preprocess import SelectReliefFeatures
    from orangecontrib.relief.scorers import checked
    from orangecontrib.relief.variants import make_scorer

    table, method = scored_table(args)
    learner = make_learner(args.learner, table.domain.class_var)
    figure = None if args.no_figure else drawn_figure(args.figure)
    start = time.perf_counter()
    try:
        scorer = checked(make_scorer(  # the options checked as parsed
            method, k_nearest=args.k_nearest, ties=args.ties,
            convention=args.convention), by_caller=True)
        # the method weighs the training part of each fold
        engine = engines.status(table.X, None, by_name(method).parts,
                                passes=args.n_folds)
        curve = selection_curve.unchecked(  # the values parsed by the table
            table, learner, scorer, score=args.score, n_folds=args.n_folds,
            random_state=args.random_state,
            progress_callback=ProgressBar("curve", heading=engine))
        kept = SelectReliefFeatures(scorer, k=curve.chosen).selected(table)
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    seconds = time.perf_counter() - start
    print("\n".join(format_curve(curve)))
    names = ", ".join(table.domain.attributes[i].name for i in kept)
    print(f"chosen: {curve.chosen} of {len(table.domain.attributes)} "
          f"attributes, the fewest whose mean {curve.score} is within one "
          f"standard error of the best ({curve.best}); on all the data: "
          f"{names}")
    print(f"{len(table)} instances, {method}, "
          f"{LEARNERS[args.learner][0]}, {len(curve.folds)}-fold "
          f"cross-validation, {timed(seconds, 'the curve')}")
    if figure is not None:
        write_figure(lambda path: curve_figure(
            curve, path, f"{table.name or args.file}: {method}, "
                         f"{LEARNERS[args.learner][0]}"), figure)
    return 0


def drawn_figure(name):
    """The file of --figure `name` (None: the default), checked before the
    curve is computed: its format, and a folder to write it in."""
    import os

    from orangecontrib.relief.curve import figure_path

    try:
        path = figure_path(DEFAULT_FIGURE if name is None else name)
    except ValueError as error:
        raise CliError(f"--figure: {error}") from None
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path) or not os.path.isdir(folder):
        raise CliError(f"--figure {name}: "
                       + ("a folder, not a file" if os.path.isdir(path)
                          else f"no folder {folder} to write it in"))
    return path
