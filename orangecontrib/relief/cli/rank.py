"""``orange-relief rank``: the attributes of a data set by Relief weight."""
import sys
import time

from ..core import engines
from ..core.analysis.significance import STIR_METHODS, STIR_PARTS
from .common import (DEFAULT_DATASET, CliError, ProgressBar, archive_class,
                     declared, input_error, load_table, option_names, timed,
                     with_class, without_unused_classes)
from .survival import add_survival_arguments, run_survival, wants_survival
from .targets import run_targets, several_classes
from .wide import run_wide, wrapper_options, wrapper_words

#: the significance options (by destination) each test uses
TEST_OPTIONS = {None: (), "stir": ("alpha", "adjustment", "r_compatible"),
                "permutation": ("alpha", "adjustment", "n_permutations"),
                "regression": ("alpha", "adjustment")}
#: the significance test of each test's summary line
TEST_NAMES = {"stir": "STIR", "permutation": "permutation test",
              "regression": "NPDR's regressions"}
#: the tests over neighbour pairs, whose p-values come out too small
PAIR_TESTS = ("stir", "regression")

#: what an adjustment makes of the p-values
ADJUSTED = {"bh": "Benjamini-Hochberg q", "holm": "Holm's adjusted p",
            "bonferroni": "Bonferroni's adjusted p"}


def add_rank_command(subparsers):
    """Register ``orange-relief rank``."""
    from orangecontrib.relief.core.options import (ALPHA, ITER_ROUNDS,
                                                   N_PERMUTATIONS,
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
        "--pheno", metavar="FILE",
        help="a PLINK .bed file's phenotypes: a text file of FID, IID and "
             "phenotype columns (a first line FID IID NAME... names them; "
             "--class picks one; default: the first, or the .fam's)")
    parser.add_argument(
        "--wrapper", choices=("turf", "vls", "iter"),
        help="run the method several times: turf drops the worst half of "
             "the attributes and scores again (Moore & White 2007); vls "
             "scores subsets that hold every pair of attributes together, "
             "each attribute's best weight (Eppstein & Haake 2008); iter "
             "scores again with the distance weighted by the weights "
             "before, until they settle (scikit-rebate 0.8's Iter; a "
             "method that weights its distance: Relief, ReliefF, "
             "RReliefF, the SURF family)")
    parser.add_argument(
        "--subset-size", type=declared("subset_size"), metavar="N",
        help="with --wrapper vls: attributes per subset, at least 2 "
             "(default: a third of them)")
    parser.add_argument(
        "--rounds", type=declared("max_rounds"), metavar="N", dest="max_rounds",
        help=f"with --wrapper iter: at most N rounds (default "
             f"{ITER_ROUNDS})")
    parser.add_argument(
        "--covariates", type=lambda text: tuple(text.split(",")),
        metavar="NAMES",
        help="NPDR: comma-separated columns (attributes or metas) whose "
             "diffs adjust every attribute's fit, e.g. age,sex")
    parser.add_argument(
        "--iterations", type=declared("n_iterations"), dest="n_iterations",
        metavar="M",
        help="number of randomly drawn reference instances "
             "(default: every instance once)")
    parser.add_argument("--seed", type=declared("random_state"),
                        dest="random_state", metavar="S",
                        help="seed of --iterations, --stability and "
                             "--significance permutation (default: 0)")
    parser.add_argument("--diff", choices=DIFFS, default="linear",
                        help="diff of numeric attributes (default: linear)")
    parser.add_argument("--t-eq", type=declared("t_eq", float), metavar="T",
                        help="ramp diff: differences up to this fraction of "
                             f"the range count as equal (default: {T_EQ})")
    parser.add_argument("--t-diff", type=declared("t_diff", float), metavar="T",
                        help="ramp diff: differences from this fraction of "
                             "the range count as different (default: "
                             f"{T_DIFF})")
    parser.add_argument("--top", type=declared("top_k"), metavar="N",
                        dest="top_k",
                        help="print only the N best attributes (default: "
                             "all); with --stability, the N best count as "
                             "selected in each resample (there the default "
                             "is 10, at most half of the attributes)")
    parser.add_argument(
        "--absolute", action="store_true",
        help="rank by the magnitude of the weights: an attribute of large "
             "negative weight (near instances of one class differ in it "
             "more than those of different classes, as the bits of a "
             "higher-order XOR) ranks high too; with --stability, the "
             "resamples are ranked so too")
    parser.add_argument(
        "--significance", choices=TESTS,
        help=f"also test every attribute: stir ({STIR_METHODS}; a "
             f"categorical class), permutation (any method) or "
             f"regression (NPDR's own p-values, its default)")
    # the significance options default to None, to tell those given
    parser.add_argument(
        "--fdr", type=declared("alpha", float), metavar="Q", dest="alpha",
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
             "identical rows of different classes; doc/significance.md); "
             "R has no weighted neighbours: not for the SWRF family")
    parser.add_argument(
        "--permutations", type=declared("n_permutations"), metavar="B",
        dest="n_permutations",
        help=f"with --significance permutation: permutations of the class "
             f"(default {N_PERMUTATIONS}; seed --seed)")
    parser.add_argument(
        "--stability", type=declared("n_resamples"), metavar="B", dest="n_resamples",
        help="also score B bootstrap samples of the instances (stratified "
             "by class; seed --seed) and print how often each attribute "
             "is among the --top best, its median rank and the interval "
             "of 95%% of its ranks, and the stability index of those sets")
    parser.add_argument(
        "--subsample", type=declared("subsample", float), metavar="SHARE",
        help="with --stability: subsamples of this share of each class, "
             "without replacement, instead of bootstrap samples")
    add_survival_arguments(parser)
    parser.set_defaults(run=run_rank,
                        options=option_names(parser, PARAMETERS))


def add_table_arguments(parser, method_role):
    """The arguments :func:`scored_table` and the scorer read: FILE,
    --class, --method (`method_role`, in words), --k, --ties and
    --convention."""
    from orangecontrib.relief.variants import DEFAULT_K, METHODS

    add_file_arguments(parser)
    parser.add_argument(
        "--method", choices=list(METHODS),
        help=f"{method_role} (default: ReliefF for a discrete class, "
             f"RReliefF for a numeric one)")
    parser.add_argument(
        "--k", type=declared("k_nearest"), dest="k_nearest", metavar="K",
        help=f"nearest neighbours (ReliefF: per class, default "
             f"{DEFAULT_K['ReliefF']}; RReliefF: default "
             f"{DEFAULT_K['RReliefF']})")
    add_ties_argument(parser)
    add_convention_argument(parser)


def add_file_arguments(parser):
    """FILE and --class, as :func:`data_table` reads them."""
    parser.add_argument(
        "file", nargs="?", default=DEFAULT_DATASET, metavar="FILE",
        help="a data file Orange reads (.tab, .csv, .tsv, gzipped or not), "
             "a table of plain text (.txt, .txt.gz: tab- or comma-"
             "separated, as the ReBATE archive's), a PLINK .bed or an "
             "AnnData .h5ad file, or the name of a shipped data set "
             f"(default: {DEFAULT_DATASET})")
    parser.add_argument(
        "--class", dest="class_name", metavar="COLUMN",
        help="the column to use as the class (default: the file's class, "
             "else a column named Class, categorical if it holds integer "
             "codes, as in the ReBATE archive; needed for other files "
             "without one, e.g. a plain CSV); several, comma-separated, "
             "rank by all of them: multi-target RReliefF where every one "
             "is numeric, multi-label ReliefF where every one is binary "
             "(rank only)")


def add_ties_argument(parser):
    """--ties: the rule of the neighbours tied at the k-th distance."""
    from orangecontrib.relief.variants import TIE_RULES

    parser.add_argument(
        "--ties", choices=TIE_RULES,
        help="the neighbours tied at the k-th distance: share (default; "
             "each of the t tied takes r/t of the r places left, so that "
             "the weights do not depend on the order of the rows) or "
             "lower-index (the lower row numbers take them, as a stable "
             "sort by distance does)")


def add_convention_argument(parser):
    """--convention: the add-on's or scikit-rebate's conventions of the
    variants that take one (the SWRF family, mu-Relief)."""
    from orangecontrib.relief.variants import CONVENTIONS

    parser.add_argument(
        "--convention", choices=CONVENTIONS,
        help="the SWRF family's far scoring and statistics, mu-Relief's "
             "selection: add-on (default; the add-on's: every far "
             "neighbour by its weighted similarity, T over distinct "
             "pairs, tied places shared) or scikit-rebate (its 0.8 "
             "weights)")


def wrapped(scorer, args):
    """`scorer` inside the Orange scorer of ``--wrapper`` (itself
    without one)."""
    from orangecontrib.relief.scorers import VLS, Iter, TuRF

    if args.wrapper is None:
        return scorer
    return {"turf": TuRF, "vls": VLS, "iter": Iter}[args.wrapper](
        scorer, **wrapper_options(args))


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
    """The table of :func:`data_table` and the variant that scores it
    (:func:`choose_method` of ``--method``)."""
    table = data_table(args)
    targets = table.domain.class_vars
    if len(targets) > 1:
        names = ",".join(var.name for var in targets)
        raise CliError(f"the data has {len(targets)} class variables; rank "
                       f"by all of them with --class {names}, or by one "
                       f"with --class NAME")
    return table, choose_method(args.method, table.domain.class_var)


def data_table(args):
    """The table of `args.file`, its class as ``--class`` says (without
    it, :func:`archive_class`; unused values of a categorical one
    dropped)."""
    table = load_table(args.file)
    if args.class_name is not None:
        table = with_class(table, args.class_name)
    else:
        table = archive_class(table)
    return without_unused_classes(table)


def format_ranking(names, weights, top=None, tested=None, stable=None,
                   absolute=False):
    """Return the lines of a table (rank, attribute, weight) of the
    attributes `names`, best first (with `absolute`, by the magnitude of
    the weights);
    with `tested` (a SignificanceResult) also p, q and a mark of the
    significant attributes; with `stable` (a RankingStability) how often
    each was selected, its median rank and its rank interval."""
    from orangecontrib.relief.core.analysis.threshold import best_first

    order = best_first(weights, absolute)[:top]  # no weight (NaN) last
    names = [names[i] for i in order]
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
            line += (f"  {probability(tested.p[i]):>9}  "
                     f"{probability(tested.q[i]):>9}{mark}")
        if stable is not None:
            ranks = f"{stable.rank_low[i]}-{stable.rank_high[i]}"
            line += (f"  {stable.frequency[i]:>8.0%}  "
                     f"{stable.median_rank[i]:>6g}  {ranks:>7}")
        lines.append(line)
    return lines


#: the smallest p-value printed as a number: a double holds nothing much
#: smaller, and a p-value that small underflowed (it may be 0)
SMALLEST_P = 1e-300


def probability(p):
    """A p- or q-value as the table prints it: "< 1e-300" where it
    underflowed, not "0.00e+00"."""
    return f"< {SMALLEST_P:.0e}" if p < SMALLEST_P else f"{p:.2e}"


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


#: options that need another, by destination: what they need, in the
#: command's words, and whether the arguments give it
NEEDS = {
    "alpha": ("--significance", lambda args: args.significance is not None),
    "adjustment": ("--significance",
                   lambda args: args.significance is not None),
    "n_permutations": ("--significance permutation",
                       lambda args: args.significance == "permutation"),
    "r_compatible": ("--significance stir",
                     lambda args: args.significance == "stir"),
    "subsample": ("--stability", lambda args: args.n_resamples is not None),
    "t_eq": ("--diff ramp", lambda args: args.diff == "ramp"),
    "t_diff": ("--diff ramp", lambda args: args.diff == "ramp"),
    "random_state": ("--iterations, --stability or --significance "
                     "permutation", lambda args: (
                         args.n_iterations is not None
                         or args.n_resamples is not None
                         or args.significance == "permutation")),
}


def check_needed_options(args):
    """CliError for an option given without the option it needs (every
    value typed is used or refused)."""
    from orangecontrib.relief.core.options import check_needs

    for name, (requirement, met) in NEEDS.items():
        try:
            check_needs(args.options[name], getattr(args, name), None,
                        requirement, met(args))
        except ValueError as error:
            raise CliError(str(error)) from None


def check_as_a_whole(args):
    """CliError, before any work, for the checks of the table that the
    parser cannot make value by value: the ramp's thresholds, each
    checked as it was parsed, rising together (``--t-eq`` at most
    ``--t-diff``, given or by default); ``--covariates``, distinct names.
    Checked once, here: the scorer trusts them."""
    from orangecontrib.relief.core.options import (T_DIFF, T_EQ, check,
                                                   check_ramp_order)

    try:
        check_ramp_order(T_EQ if args.t_eq is None else args.t_eq,
                         T_DIFF if args.t_diff is None else args.t_diff)
        if args.covariates is not None:
            check("covariates", args.covariates)
    except ValueError as error:
        raise input_error(error, args.options) from None


def too_few_permutations(tester, n_attributes):
    """A warning if no attribute can be significant with `tester`'s
    permutations, whatever the data; None if one can."""
    from orangecontrib.relief.core.analysis.significance import (
        permutation_shortfall)

    shortfall = permutation_shortfall.unchecked(  # parsed by the table
        n_attributes, tester.n_permutations, tester.alpha, tester.adjustment)
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
    from orangecontrib.relief.core.analysis.significance import (pairs_caveat,
                                                                 stir_caveat)
    from orangecontrib.relief.core.options import RANDOM_STATE
    from orangecontrib.relief.core.validation import unchecked_instance
    from orangecontrib.relief.scorers import Absolute, checked
    from orangecontrib.relief.significance import Significance
    from orangecontrib.relief.stability import ranking_stability
    from orangecontrib.relief.readers import is_wide_file
    from orangecontrib.relief.variants import make_scorer

    check_as_a_whole(args)
    if args.subset_size is not None and args.wrapper != "vls":
        warn("--subset-size has no effect without --wrapper vls")
    if args.max_rounds is not None and args.wrapper != "iter":
        warn("--rounds has no effect without --wrapper iter")
    if wants_survival(args):
        return run_survival(args)
    if is_wide_file(args.file):
        return run_wide(args)
    if several_classes(args.class_name) is not None:
        return run_targets(args, several_classes(args.class_name))
    if args.pheno is not None:
        raise CliError("--pheno gives the phenotypes of a PLINK .bed file; "
                       "name the class of a table with --class")
    table, method = scored_table(args)
    npdr = method == "NPDR"
    if args.covariates is not None and not npdr:
        raise CliError(f"--covariates adjusts NPDR's fits; {method} takes "
                       f"none (use --method NPDR)")
    if npdr and args.significance is None:
        args.significance = "regression"
    check_needed_options(args)
    resampling = "bootstrap" if args.subsample is None else "subsample"
    seed = RANDOM_STATE if args.random_state is None else args.random_state
    given = {name: getattr(args, name) for name in ("n_iterations", "t_eq",
                                                    "t_diff", "covariates")
             if getattr(args, name) is not None}
    try:
        scorer = make_scorer(method, k_nearest=args.k_nearest,
                             ties=args.ties, convention=args.convention,
                             random_state=seed, diff=args.diff, **given)
        # every option of the scorers checked by the table, as parsed
        scorer = checked(wrapped(scorer, args), by_caller=True)
        tester = None
        if args.significance == "stir" and not stir_fits(scorer, table):
            raise CliError(f"--significance stir tests the neighbour pairs "
                           f"of {STIR_METHODS} on a categorical class; use "
                           f"--significance permutation with {method} on "
                           f"this data")
        if args.significance is not None:
            given = {name: getattr(args, name)
                     for name in TEST_OPTIONS[args.significance]
                     if getattr(args, name) is not None}
            tester = unchecked_instance(  # the values parsed by the table
                Significance, scorer, test=args.significance,
                random_state=seed, **given)
        if args.significance == "permutation" and table.domain.attributes:
            too_few = too_few_permutations(tester,
                                           len(table.domain.attributes))
            if too_few is not None:
                warn(too_few)
        imbalanced = None
        if args.significance == "stir":
            imbalanced = stir_caveat(table.Y)
            if imbalanced is not None:
                warn(f"{imbalanced} Use --significance permutation for "
                     f"these data.")
        engine = engine_line(table, method, args)
        start = time.perf_counter()
        weights = tested = None
        if tester is not None:  # weights of the test's pass, if it weighs
            weights, tested = tester.scores_and_result(
                table, progress_callback=ProgressBar(
                    f"{args.significance} test", heading=engine))
        if weights is None:
            weights = scorer(table, progress_callback=None if engine is None
                             else ProgressBar("weighting", heading=None
                                              if tester else engine))
        stable = None if args.n_resamples is None else (
            ranking_stability.unchecked(  # the values parsed by the table
                table, Absolute(scorer) if args.absolute else scorer,
                n_resamples=args.n_resamples, resampling=resampling,
                subsample=args.subsample, top_k=args.top_k,
                random_state=seed,
                progress_callback=ProgressBar("stability")))
        seconds = time.perf_counter() - start
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    print("\n".join(format_ranking([a.name for a in table.domain.attributes],
                                   weights, args.top_k, tested, stable,
                                   args.absolute)))
    if tested is not None:
        print(significance_summary(tested, len(weights)))
        # NPDR's note of fits that did not converge is its warning's
        if tested.note is not None and tested.test != "regression":
            warn(tested.note)
        if (tested.test in PAIR_TESTS and tested.significant.any()
                and not imbalanced):
            warn(f"{pairs_caveat(TEST_NAMES[tested.test])} The "
                 f"permutation test holds its level: --significance "
                 f"permutation.")
    if stable is not None:
        print(stability_summary(stable, resampling))
    computed = ", ".join(["weights"] + ["test"] * (tested is not None)
                         + ["stability"] * (stable is not None))
    print(f"{len(table)} instances, {len(table.domain.attributes)} "
          f"attributes, method {method}{wrapper_words(args)}"
          f"{', ranked by |weight|' if args.absolute else ''}, "
          f"{timed(seconds, computed)}")
    return 0


def engine_line(table, method, args):
    """The line on the engine that answers (None where there is nothing
    to say: small data, a forced engine), with its estimated time where
    the vectorised one answers a long run: the weights, a resample of
    --stability each."""
    from orangecontrib.relief.core.registry import by_name

    parts = by_name(method).parts
    if args.significance == "stir":  # and the parts of STIR's sums
        parts = tuple(dict.fromkeys(parts + STIR_PARTS))
    return engines.status(table.X, args.n_iterations, parts,
                          passes=1 + (args.n_resamples or 0))
