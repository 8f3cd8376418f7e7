"""``orange-relief rank``: the attributes of a data set by Relief weight."""
import sys
import time

from ..core import engine
from .common import (DEFAULT_DATASET, CliError, ProgressBar, load_table,
                     positive_int)


def add_rank_command(subparsers):
    """Register ``orange-relief rank``."""
    from orangecontrib.relief.core.options import T_DIFF, T_EQ
    from orangecontrib.relief.variants import DEFAULT_K, DIFFS, METHODS

    parser = subparsers.add_parser(
        "rank", help="rank the attributes of a data set by Relief weights",
        description="Rank the attributes of a data set by their Relief "
                    "weights and print them best first.")
    parser.add_argument(
        "file", nargs="?", default=DEFAULT_DATASET, metavar="FILE",
        help="a data file Orange reads, or the name of a shipped data set "
             f"(default: {DEFAULT_DATASET})")
    parser.add_argument(
        "--method", choices=list(METHODS),
        help="Relief variant (default: ReliefF for a discrete class, "
             "RReliefF for a numeric one)")
    parser.add_argument(
        "--k", type=positive_int, dest="k_nearest", metavar="K",
        help=f"nearest neighbours (ReliefF: per class, default "
             f"{DEFAULT_K['ReliefF']}; RReliefF: default "
             f"{DEFAULT_K['RReliefF']})")
    parser.add_argument(
        "--iterations", type=positive_int, dest="n_iterations",
        metavar="M",
        help="number of randomly drawn reference instances "
             "(default: every instance once)")
    parser.add_argument("--seed", type=int, default=0, dest="random_state",
                        metavar="S",
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
                        help="print only the N best attributes")
    parser.set_defaults(run=run_rank)


def choose_method(requested, class_var):
    """Return the variant to run on data with `class_var`.

    Raises `CliError` if the data has no class or the requested variant
    does not fit the class type.
    """
    from orangecontrib.relief.variants import default_method, fitting_methods

    if class_var is None:
        raise CliError("the data has no (single) class variable; "
                       "Relief needs one")
    if requested is None:
        return default_method(class_var)
    if requested not in fitting_methods(class_var):
        kind = (f"a class with {len(class_var.values)} values"
                if class_var.is_discrete else "a numeric class")
        raise CliError(f"{requested} does not fit {kind} "
                       f"({class_var.name}); use "
                       + " or ".join(fitting_methods(class_var)))
    return requested


def format_ranking(attributes, weights, top=None):
    """Return the lines of a table (rank, attribute, weight), best first."""
    order = sorted(range(len(weights)), key=lambda i: -weights[i])[:top]
    names = [attributes[i].name for i in order]
    width = max([len("attribute")] + [len(name) for name in names])
    lines = [f"{'rank':>4}  {'attribute':<{width}}  {'weight':>10}"]
    for rank, (i, name) in enumerate(zip(order, names), start=1):
        lines.append(f"{rank:>4}  {name:<{width}}  {weights[i]:>10.6f}")
    return lines


def run_rank(args):
    """Score the data of `args.file` and print the ranking and a summary."""
    from orangecontrib.relief.variants import make_scorer

    table = load_table(args.file)
    method = choose_method(args.method, table.domain.class_var)
    try:
        scorer = make_scorer(
            method, k_nearest=args.k_nearest, n_iterations=args.n_iterations,
            random_state=args.random_state, diff=args.diff,
            t_eq=args.t_eq, t_diff=args.t_diff)
        progress = None
        if engine.choose_for(table.X, args.n_iterations) == engine.COMPILED:
            if not engine.compiled_is_cached(scorer.kernel):
                print(engine.PREPARING, file=sys.stderr, flush=True)
            progress = ProgressBar("weighting")
        start = time.perf_counter()
        weights = scorer(table, progress_callback=progress)
        seconds = time.perf_counter() - start
    except ValueError as error:  # includes the core's ReliefInputError
        raise CliError(str(error)) from None
    print("\n".join(format_ranking(table.domain.attributes, weights,
                                   args.top)))
    print(f"{len(table)} instances, {len(table.domain.attributes)} "
          f"attributes, method {method}, {seconds:.2f} s")
    return 0

