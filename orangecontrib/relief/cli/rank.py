"""``orange-relief rank``: the attributes of a data set by Relief weight."""
import math
import sys
import time

from ..core import engines
from .common import (DEFAULT_DATASET, CliError, ProgressBar, archive_class,
                     input_error, level, load_table, non_negative_int,
                     option_names, positive_int, share, with_class,
                     without_unused_classes)

#: the significance options (by destination), and those each test uses:
#: given with another test or none, an option has no effect
SIGNIFICANCE_OPTIONS = ("alpha", "adjustment", "n_permutations",
                        "r_compatible")
TEST_OPTIONS = {None: (), "stir": ("alpha", "adjustment", "r_compatible"),
                "permutation": ("alpha", "adjustment", "n_permutations"),
                "regression": ("alpha", "adjustment")}
#: the significance test of each test's summary line
TEST_NAMES = {"stir": "STIR", "permutation": "permutation test",
              "regression": "NPDR's regressions"}

#: what an adjustment makes of the p-values
ADJUSTED = {"bh": "Benjamini-Hochberg q", "holm": "Holm's adjusted p",
            "bonferroni": "Bonferroni's adjusted p"}


def add_rank_command(subparsers):
    """Register ``orange-relief rank``."""
    from orangecontrib.relief.core.options import (ALPHA, N_PERMUTATIONS,
                                                   PARAMETERS, T_DIFF, T_EQ)
    from orangecontrib.relief.significance import TESTS
    from orangecontrib.relief.variants import DIFFS

    ADJUSTMENTS = PARAMETERS["adjustment"].allowed

    parser = subparsers.add_parser(
        "rank", help="rank the attributes of a data set by Relief weights",
        description="Rank the attributes of a data set by their Relief "
                    "weights and print them best first.")
    add_table_arguments(parser, "the Relief variant")
    parser.add_argument(
        "--covariates", type=lambda text: tuple(text.split(",")),
        metavar="NAMES",
        help="NPDR: comma-separated columns (attributes or metas) whose "
             "diffs adjust every attribute's fit, e.g. age,sex")
    parser.add_argument(
        "--iterations", type=positive_int, dest="n_iterations",
        metavar="M",
        help="number of randomly drawn reference instances "
             "(default: every instance once)")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        dest="random_state", metavar="S",
                        help="seed of the reference sampling (default: 0)")
    parser.add_argument("--diff", choices=DIFFS, default="linear",
                        help="diff of numeric attributes (default: linear)")
    parser.add_argument("--t-eq", type=float, default=T_EQ, metavar="T",
                        help="ramp diff: differences up to this fraction of "
                             f"the range count as equal (default: {T_EQ})")
    parser.add_argument("--t-diff", type=float, default=T_DIFF, metavar="T",
                        help="ramp diff: differences from this fraction of "
                             "the range count as different (default: "
                             f"{T_DIFF})")
    parser.add_argument("--top", type=positive_int, metavar="N",
                        help="print only the N best attributes; with "
                             "--stability, the N best count as selected in "
                             "each resample (default: 10, at most half of "
                             "the attributes)")
    parser.add_argument(
        "--significance", choices=TESTS,
        help="also test every attribute: stir (ReliefF and the SURF "
             "family; a categorical class), permutation (any method) or "
             "regression (NPDR's own p-values, its default)")
    # the significance options default to None, to tell those given
    parser.add_argument(
        "--fdr", type=level, metavar="Q", dest="alpha",
        help="with --significance: an attribute is significant when its "
             f"adjusted p-value is at most Q (default {ALPHA}; with bh the "
             "false discovery rate)")
    parser.add_argument(
        "--adjust", choices=ADJUSTMENTS, dest="adjustment",
        help="adjustment for testing every attribute: bh (Benjamini-"
             "Hochberg), holm or bonferroni (default bh)")
    parser.add_argument(
        "--r-compatible", action="store_const", const=True,
        dest="r_compatible",
        help="with --significance stir: the pairs as the authors' R package "
             "(insilico/stir) finds them, to match a published R analysis "
             "(the misses of all other classes pooled, R's handling of "
             "identical rows of different classes; doc/significance.md)")
    parser.add_argument(
        "--permutations", type=positive_int, metavar="B",
        dest="n_permutations",
        help=f"with --significance permutation: permutations of the class "
             f"(default {N_PERMUTATIONS}; seed --seed)")
    parser.add_argument(
        "--stability", type=positive_int, metavar="B", dest="n_resamples",
        help="also score B bootstrap samples of the instances (stratified "
             "by class; seed --seed) and print how often each attribute "
             "is among the --top best, its median rank and the interval "
             "of 95%% of its ranks, and the stability index of those sets")
    parser.add_argument(
        "--subsample", type=share, metavar="SHARE",
        help="with --stability: subsamples of this share of each class, "
             "without replacement, instead of bootstrap samples")
    parser.set_defaults(run=run_rank,
                        options=option_names(parser, PARAMETERS))


def add_table_arguments(parser, method_role):
    """The arguments :func:`scored_table` and the scorer read: FILE,
    --class, --method (`method_role`, in words) and --k."""
    from orangecontrib.relief.variants import (CONVENTIONS, DEFAULT_K,
                                               METHODS, TIE_RULES)

    parser.add_argument(
        "file", nargs="?", default=DEFAULT_DATASET, metavar="FILE",
        help="a data file Orange reads (.tab, .csv, .tsv, gzipped or not), "
             "a table of plain text (.txt, .txt.gz: tab- or comma-"
             "separated, as the ReBATE archive's), or the name of a "
             f"shipped data set (default: {DEFAULT_DATASET})")
    parser.add_argument(
        "--class", dest="class_name", metavar="COLUMN",
        help="the column to use as the class (default: the file's class, "
             "else a column named Class, categorical if it holds integer "
             "codes, as in the ReBATE archive; needed for other files "
             "without one, e.g. a plain CSV)")
    parser.add_argument(
        "--method", choices=list(METHODS),
        help=f"{method_role} (default: ReliefF for a discrete class, "
             f"RReliefF for a numeric one)")
    parser.add_argument(
        "--k", type=positive_int, dest="k_nearest", metavar="K",
        help=f"nearest neighbours (ReliefF: per class, default "
             f"{DEFAULT_K['ReliefF']}; RReliefF: default "
             f"{DEFAULT_K['RReliefF']})")
    parser.add_argument(
        "--ties", choices=TIE_RULES,
        help="the neighbours tied at the k-th distance: share (default; "
             "each of the t tied takes r/t of the r places left, so that "
             "the weights do not depend on the order of the rows) or "
             "lower-index (the lower row numbers take them, as a stable "
             "sort by distance does)")
    parser.add_argument(
        "--convention", choices=CONVENTIONS,
        help="the SWRF family's far scoring and SWRF's statistics: "
             "weighted (default; every far neighbour by its weighted "
             "similarity, T over distinct pairs) or scikit-rebate (its "
             "0.8 weights)")


def choose_method(requested, class_var):
    """Return the variant to run on data with `class_var` (a categorical
    one with only the values of some instance).

    Raises `CliError` if the data has no class or a single class value, or
    the requested variant does not fit the class type.
    """
    from orangecontrib.relief.variants import default_method, fitting_methods

    if class_var is None:
        raise CliError("the data has no (single) class variable; "
                       "Relief needs one: name a column with --class")
    if class_var.is_discrete and not class_var.values:
        raise CliError(f"no instance has a known class ({class_var.name})")
    if class_var.is_discrete and len(class_var.values) < 2:
        raise CliError(f"every instance is of one class "
                       f"({class_var.name}); Relief needs at least two")
    if requested is None:
        return default_method(class_var)
    if requested not in fitting_methods(class_var):
        kind = (f"a class with {len(class_var.values)} values"
                if class_var.is_discrete else "a numeric class")
        raise CliError(f"{requested} does not fit {kind} "
                       f"({class_var.name}); use "
                       + " or ".join(fitting_methods(class_var)))
    return requested


def scored_table(args):
    """The table of `args.file`, its class as ``--class`` says (without
    it, :func:`archive_class`; unused values of a categorical one dropped),
    and the variant that scores it (:func:`choose_method` of
    ``--method``)."""
    table = load_table(args.file)
    if args.class_name is not None:
        table = with_class(table, args.class_name)
    else:
        table = archive_class(table)
    table = without_unused_classes(table)
    return table, choose_method(args.method, table.domain.class_var)


def format_ranking(attributes, weights, top=None, tested=None,
                   stable=None):
    """Return the lines of a table (rank, attribute, weight), best first;
    with `tested` (a SignificanceResult) also p, q and a mark of the
    significant attributes; with `stable` (a RankingStability) how often
    each was selected, its median rank and its rank interval."""
    order = sorted(range(len(weights)),  # no weight (NaN) last
                   key=lambda i: (math.isnan(weights[i]), -weights[i]))[:top]
    names = [attributes[i].name for i in order]
    width = max([len("attribute")] + [len(name) for name in names])
    header = f"{'rank':>4}  {'attribute':<{width}}  {'weight':>10}"
    if tested is not None:
        header += f"  {'p':>9}  {'q':>9}" + ("  " if stable is not None
                                              else "")
    if stable is not None:
        header += f"  {'selected':>8}  {'median':>6}  {'ranks':>7}"
    lines = [header]
    for rank, (i, name) in enumerate(zip(order, names), start=1):
        line = f"{rank:>4}  {name:<{width}}  {weights[i]:>10.6f}"
        if tested is not None:
            # as wide as " *" where more columns follow
            mark = (" *" if tested.significant[i]
                    else "" if stable is None else "  ")
            line += f"  {tested.p[i]:>9.2e}  {tested.q[i]:>9.2e}{mark}"
        if stable is not None:
            ranks = f"{stable.rank_low[i]}-{stable.rank_high[i]}"
            line += (f"  {stable.frequency[i]:>8.0%}  "
                     f"{stable.median_rank[i]:>6g}  {ranks:>7}")
        lines.append(line)
    return lines


def stir_fits(scorer, table):
    """Whether STIR can test `scorer`'s neighbour pairs on `table`."""
    from orangecontrib.relief.significance import Significance

    try:
        tester = Significance(scorer, test="stir")
    except ValueError:
        return False
    return tester.fits(table.domain.class_var)


def significance_summary(tested, n_attributes):
    """One line: how many attributes are significant, by which test."""
    test = TEST_NAMES[tested.test]
    return (f"{int(tested.significant.sum())} of {n_attributes} attributes "
            f"significant (*): {test}, {ADJUSTED[tested.adjustment]} <= "
            f"{tested.alpha}")


def stability_summary(stable, resampling):
    """One line: the stability index of the selected sets and its
    interval, or why it is undefined."""
    drawn = (f"{len(stable.resamples)} "
             + ("bootstrap samples" if resampling == "bootstrap"
                else "subsamples"))
    index = stable.index
    if index is None:
        return (f"stability over {drawn}: undefined, every resample "
                f"selects all {stable.selected.shape[1]} attributes")
    return (f"stability of the best {stable.top_k} over {drawn}: "
            f"{index.value:.3f} ({index.confidence:.0%} interval "
            f"{index.low:.3f} to {index.high:.3f}; Nogueira, Sechidis & "
            f"Brown 2018: 1 for the same attributes every time, 0 for "
            f"chance)")


def warn(message):
    """Print the one-line warning `message` to stderr."""
    print(f"orange-relief rank: warning: {message}", file=sys.stderr)


def ignored_options(args):
    """A warning naming the significance options given that the chosen
    test (or none) does not use; None if there are none."""
    used = TEST_OPTIONS[args.significance]
    ignored = [args.options[name] for name in SIGNIFICANCE_OPTIONS
               if getattr(args, name) is not None and name not in used]
    if not ignored:
        return None
    test = ("without --significance" if args.significance is None
            else f"with --significance {args.significance}")
    return (f"{', '.join(ignored)} {'has' if len(ignored) == 1 else 'have'} "
            f"no effect {test}")


def too_few_permutations(tester, n_attributes):
    """A warning if no attribute can be significant with `tester`'s
    permutations, whatever the data; None if one can."""
    from orangecontrib.relief.core.significance import permutation_shortfall

    shortfall = permutation_shortfall(n_attributes, tester.n_permutations,
                                      tester.alpha, tester.adjustment)
    if shortfall is None:
        return None
    smallest, needed = shortfall
    advice = ("use a larger --fdr" if needed is None
              else f"use --permutations {needed} or more")
    return (f"with {tester.n_permutations} permutations and "
            f"{n_attributes} attributes no {ADJUSTED[tester.adjustment]} "
            f"can be at most {tester.alpha} (the smallest is "
            f"{smallest:.3g}), so no attribute can be significant; {advice}")


def run_rank(args):
    """Score the data of `args.file` and print the ranking and a summary."""
    from orangecontrib.relief.core.significance import stir_caveat
    from orangecontrib.relief.core.options import SUBSAMPLE
    from orangecontrib.relief.significance import Significance
    from orangecontrib.relief.stability import ranking_stability
    from orangecontrib.relief.variants import make_scorer

    table, method = scored_table(args)
    npdr = method == "NPDR"
    if args.covariates is not None and not npdr:
        raise CliError(f"--covariates adjusts NPDR's fits; {method} takes "
                       f"none (use --method NPDR)")
    if npdr and args.significance is None:
        args.significance = "regression"
    ignored = ignored_options(args)
    if ignored is not None:
        warn(ignored)
    if args.subsample is not None and args.n_resamples is None:
        warn("--subsample has no effect without --stability")
    resampling = "bootstrap" if args.subsample is None else "subsample"
    try:
        scorer = make_scorer(
            method, k_nearest=args.k_nearest, ties=args.ties,
            convention=args.convention, n_iterations=args.n_iterations,
            random_state=args.random_state, diff=args.diff,
            t_eq=args.t_eq, t_diff=args.t_diff,
            **({"covariates": args.covariates} if npdr and args.covariates
               else {}))
        tester = None
        if args.significance == "stir" and not stir_fits(scorer, table):
            raise CliError(f"--significance stir tests the neighbour pairs "
                           f"of ReliefF and the SURF family on a "
                           f"categorical class; use --significance "
                           f"permutation with {method} on this data")
        if args.significance is not None:
            given = {name: getattr(args, name)
                     for name in TEST_OPTIONS[args.significance]
                     if getattr(args, name) is not None}
            tester = Significance(scorer, test=args.significance,
                                  random_state=args.random_state, **given)
        if args.significance == "permutation" and table.domain.attributes:
            too_few = too_few_permutations(tester,
                                           len(table.domain.attributes))
            if too_few is not None:
                warn(too_few)
        if args.significance == "stir":
            caveat = stir_caveat(table.Y)
            if caveat is not None:
                warn(f"{caveat} Use --significance permutation for these "
                     f"data.")
        engine = engines.status(table.X, args.n_iterations)
        start = time.perf_counter()
        weights = tested = None
        if tester is not None:  # NPDR's and the SURF family's weigh too
            weights, tested = tester.scores_and_result(
                table, progress_callback=ProgressBar(
                    f"{args.significance} test", heading=engine))
        if weights is None:
            weights = scorer(table, progress_callback=None if engine is None
                             else ProgressBar("weighting", heading=None
                                              if tester else engine))
        stable = None if args.n_resamples is None else ranking_stability(
            table, scorer, n_resamples=args.n_resamples,
            resampling=resampling, subsample=args.subsample or SUBSAMPLE,
            top_k=args.top, random_state=args.random_state,
            progress_callback=ProgressBar("stability"))
        seconds = time.perf_counter() - start
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    print("\n".join(format_ranking(table.domain.attributes, weights,
                                   args.top, tested, stable)))
    if tested is not None:
        print(significance_summary(tested, len(weights)))
        if tested.note is not None:
            warn(tested.note)
    if stable is not None:
        print(stability_summary(stable, resampling))
    print(f"{len(table)} instances, {len(table.domain.attributes)} "
          f"attributes, method {method}, {seconds:.2f} s")
    return 0
