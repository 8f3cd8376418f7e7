"""``orange-relief rank FILE --class a,b,c``: several class columns,
ranked by multi-target RReliefF (every one numeric) or multi-label
ReliefF (every one binary): the overall ranking, best first, and each
target's weight beside it."""
import time

from .common import (CliError, ProgressBar, input_error, load_table, timed,
                     with_class)

#: the options of ``rank`` that one ranking of one class reads, refused
#: with several classes (destination: option)
SINGLE_CLASS_OPTIONS = {"method": "--method", "wrapper": "--wrapper",
                        "covariates": "--covariates", "pheno": "--pheno",
                        "absolute": "--absolute"}


def several_classes(class_name):
    """The names of ``--class a,b,c`` (None for one name)."""
    names = [] if class_name is None else class_name.split(",")
    return names if len(names) > 1 else None


def with_classes(table, names):
    """`table` whose class variables are the columns `names`, in that
    order (CliError for a column that is not there or holds text)."""
    from Orange.data import Domain

    chosen = [with_class(table, name).domain.class_var for name in names]
    domain = table.domain
    rest = [var for var in domain.class_vars + domain.metas
            if var not in chosen]
    attributes = [var for var in domain.attributes if var not in chosen]
    return table.transform(Domain(attributes, chosen, rest))


def format_targets(names, weights, targets, top=None):
    """The lines of a table of the attributes by overall weight, best
    first, each target's weight in a column of its own."""
    import numpy as np

    order = np.argsort(-weights.overall, kind="stable")[:top]
    width = max([len("attribute")] + [len(names[i]) for i in order])
    columns = [max(10, len(target)) for target in targets]
    lines = [f"{'rank':>4}  {'attribute':<{width}}  {'overall':>10}"
             + "".join(f"  {target:>{w}}" for target, w in zip(targets,
                                                              columns))]
    for rank, i in enumerate(order, start=1):
        lines.append(f"{rank:>4}  {names[i]:<{width}}  "
                     f"{weights.overall[i]:>10.6f}"
                     + "".join(f"  {row[i]:>{w}.6f}" for row, w in
                               zip(weights.per_target, columns)))
    return lines


def checked_test(args):
    """CliError for a --significance test other than the permutation
    test, which alone tests the rankings of several targets."""
    from orangecontrib.relief.significance import NOT_OF_TARGETS

    if args.significance not in (None, "permutation"):
        raise CliError(f"--significance {args.significance} cannot test "
                       f"several targets ({NOT_OF_TARGETS[args.significance]}"
                       f"); --significance permutation permutes the "
                       f"targets' rows together")


def run_targets(args, names):
    """Rank the attributes of `args.file` by the targets `names`: the
    overall ranking and each target's, with --significance permutation
    and --stability each ranking tested and summarised."""
    from orangecontrib.relief.core.options import RANDOM_STATE
    from orangecontrib.relief.core.validation import unchecked_instance
    from orangecontrib.relief.multitarget import target_scorer
    from orangecontrib.relief.scorers import checked
    from orangecontrib.relief.significance import Significance
    from orangecontrib.relief.stability import target_stability
    from .rank import (TEST_OPTIONS, check_needed_options,
                       too_few_permutations, warn)

    for destination, option in SINGLE_CLASS_OPTIONS.items():
        if getattr(args, destination, None):
            raise CliError(f"{option} works with one class; several "
                           f"(--class {args.class_name}) are ranked by "
                           f"multi-target RReliefF or multi-label ReliefF")
    checked_test(args)
    check_needed_options(args)
    table = with_classes(load_table(args.file), names)
    given = {name: getattr(args, name) for name in ("n_iterations",
                                                    "k_nearest", "t_eq",
                                                    "t_diff", "ties")
             if getattr(args, name) is not None}
    seed = RANDOM_STATE if args.random_state is None else args.random_state
    tested = stable = None
    try:
        scorer = checked(  # the options checked as parsed
            target_scorer(table.domain.class_vars, random_state=seed,
                          diff=args.diff, **given), by_caller=True)
        start = time.perf_counter()
        weights = scorer.weights(table)
        if args.significance is not None:
            tester = unchecked_instance(  # the values parsed by the table
                Significance, scorer, test=args.significance,
                random_state=seed, **{
                    name: getattr(args, name)
                    for name in TEST_OPTIONS["permutation"]
                    if getattr(args, name) is not None})
            too_few = too_few_permutations(tester,
                                           len(table.domain.attributes))
            if too_few is not None:
                warn(too_few)
            tested = tester.target_results(
                table, progress_callback=ProgressBar("permutation test"))
        if args.n_resamples is not None:
            stable = target_stability.unchecked(  # parsed by the table
                table, scorer, n_resamples=args.n_resamples,
                resampling="bootstrap" if args.subsample is None
                else "subsample", subsample=args.subsample,
                top_k=args.top_k, random_state=seed,
                progress_callback=ProgressBar("stability"))
        seconds = time.perf_counter() - start
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    attributes = [var.name for var in table.domain.attributes]
    if tested is None and stable is None:
        print("\n".join(format_targets(attributes, weights, names,
                                       args.top_k)))
    else:
        print_rankings(args, attributes, weights, scorer.ranking_names(table),
                       tested, stable)
    computed = ", ".join(["weights"] + ["tests"] * (tested is not None)
                         + ["stability"] * (stable is not None))
    print(f"{len(table)} instances, {len(table.domain.attributes)} "
          f"attributes, {len(names)} targets, method "
          f"{scorer.friendly_name}, {timed(seconds, computed)}")
    return 0


def print_rankings(args, attributes, weights, rankings, tested, stable):
    """Print each ranking (the overall one, then each target's) as
    ``rank`` prints the ranking of one class, with its p- and q-values
    (`tested`) and its stability (`stable`), each with its summary."""
    from .rank import format_ranking, significance_summary, stability_summary

    resampling = "bootstrap" if args.subsample is None else "subsample"
    for r, (name, row) in enumerate(zip(rankings, [weights.overall,
                                                   *weights.per_target])):
        test = None if tested is None else tested[name]
        resampled = None if stable is None else stable[name]
        print(("" if r == 0 else "\n") + (
            "overall ranking" if r == 0 else f"ranking by {name}"))
        print("\n".join(format_ranking(attributes, row, args.top_k, test,
                                       resampled)))
        if test is not None:
            print(significance_summary(test, len(row)))
        if resampled is not None:
            print(stability_summary(resampled, resampling))
