"""``orange-relief interactions``: which attributes act together, the
strongest pairs of a Relief interaction map with their test, and its heat
map."""
import time

from .common import (CliError, ProgressBar, declared, input_error,
                     option_names, positive_int, write_figure)
from .rank import add_file_arguments, add_ties_argument, data_table
from .regain import REGAIN_OPTIONS, comma_names, refused_options, run_regain

DEFAULT_FIGURE = "interactions.png"
#: the pairs printed unless --pairs says
DEFAULT_PAIRS = 10


def add_interactions_command(subparsers):
    """Register ``orange-relief interactions``."""
    from orangecontrib.relief.core.networks.interactions import TOP_K
    from orangecontrib.relief.core.networks.neighbour_pairs import METHODS
    from orangecontrib.relief.core.options import (ADJUSTMENT,
                                                   N_PERMUTATIONS, PARAMETERS,
                                                   RANDOM_STATE)

    parser = subparsers.add_parser(
        "interactions", help="which attributes act together: the strongest "
                             "pairs of a Relief interaction map",
        description="Weigh the attributes by a Relief method, take the best "
                    "K and, over the same neighbour pairs, compute for every "
                    "two of them how much more (or less) often they differ "
                    "together between near instances of different classes "
                    "than between near instances of the same class, beyond "
                    "what each does alone (an XOR pair is strongly "
                    "negative); print the strongest pairs with a t test or "
                    "a label-permutation test and draw the map.")
    add_file_arguments(parser)
    parser.add_argument(
        "--top", type=declared("top_k"), dest="top_k", metavar="K",
        help=f"map the best K attributes by weight (default {TOP_K}, or all "
             f"where there are fewer)")
    parser.add_argument(
        "--method", choices=list(METHODS), default="relieff",
        help="whose neighbour pairs: relief, relieff (the default; the k "
             "nearest per class, or RReliefF's for a numeric class), or the "
             "near sets of surf, multisurf (surf* and multisurf* as surf "
             "and multisurf: their near pairs)")
    parser.add_argument(
        "--k", type=declared("k_nearest"), dest="k_nearest", metavar="K",
        help="nearest neighbours of relieff (per class, default 10; for a "
             "numeric class, default 50)")
    add_ties_argument(parser)
    parser.add_argument(
        "--absolute", action="store_true",
        help="choose the best attributes by the magnitude of their weights "
             "(the bits of a higher-order XOR can weigh negative)")
    parser.add_argument(
        "--test", choices=["t", "permutation", "none"],
        help="the test of every pair: t (a t of the references' shares, "
             "quick but optimistic; the default for a categorical class), "
             "permutation (the map computed again for --permutations "
             "permutations of the class or target; holds its level, for "
             "a numeric target too) or none (the default for a numeric "
             "target)")
    parser.add_argument(
        "--permutations", type=declared("n_permutations"), metavar="B",
        dest="n_permutations",
        help=f"with --test permutation: how many (default "
             f"{N_PERMUTATIONS}; the smallest p-value is 1 / (B + 1))")
    parser.add_argument(
        "--seed", type=declared("random_state"), dest="random_state", metavar="S",
        help=f"with --test permutation: the seed of the permutations "
             f"(default {RANDOM_STATE})")
    parser.add_argument(
        "--adjust", dest="adjustment",
        choices=PARAMETERS["adjustment"].allowed,
        default=ADJUSTMENT, help=f"the adjustment of the p-values for the "
                                 f"K (K - 1) / 2 pairs (default: "
                                 f"{ADJUSTMENT})")
    parser.add_argument(
        "--pairs", type=positive_int, default=DEFAULT_PAIRS, metavar="N",
        help=f"print the strongest N pairs (default {DEFAULT_PAIRS})")
    parser.add_argument(
        "--figure", default=DEFAULT_FIGURE, metavar="PNG",
        help=f"where to draw the heat map (default: {DEFAULT_FIGURE})")
    parser.add_argument("--no-figure", action="store_true",
                        help="draw no figure")
    parser.add_argument(
        "--map", choices=("relief", "regain"), default="relief",
        help="relief (the default): the Relief interaction map over the "
             "neighbour pairs; regain: reGAIN (Davis et al. 2013), a "
             "logistic regression per attribute and per pair (a linear one "
             "for a numeric class), its pairs by the z of the product and "
             "the attributes ranked by EpistasisRank and EpistasisKatz; "
             "where there are more attributes than --top, the best by "
             "--method's weights are fitted")
    parser.add_argument(
        "--covariates", type=comma_names, metavar="NAMES",
        help="with --map regain: attributes or numeric meta attributes "
             "(comma-separated names) in every model and not scored, "
             "e.g. age,sex")
    parser.add_argument(
        "--no-main-effects", action="store_true",
        help="with --map regain: a pair's model without the two main "
             "effects, only their product")
    parser.set_defaults(run=run_interactions, options=option_names(
        parser, set(PARAMETERS) | {"top_k"}))


def format_pairs(found, count):
    """The lines of a table of the `count` strongest pairs of `found` (a
    :class:`...interactions.TableInteractions`): the two attributes, the
    interaction, the co-difference and, where tested, t (of the t test),
    p and q."""
    from orangecontrib.relief.core.networks.interactions import strongest_pairs

    result = found.map
    order = strongest_pairs(result)[:count]
    names = [(found.variables[a].name, found.variables[b].name)
             for a, b in order]
    width = max([len("attribute 1")] + [len(n) for pair in names
                                         for n in pair])
    header = (f"{'rank':>4}  {'attribute 1':<{width}}  "
              f"{'attribute 2':<{width}}  {'interaction':>11}  "
              f"{'co-diff.':>9}")
    if result.test == "t":
        header += f"  {'t':>7}"
    if result.test is not None:
        header += f"  {'p':>9}  {'q':>9}"
    lines = [header]
    for rank, ((a, b), (first, second)) in enumerate(zip(order, names),
                                                      start=1):
        line = (f"{rank:>4}  {first:<{width}}  {second:<{width}}  "
                f"{result.interaction[a, b]:>11.6f}  "
                f"{result.co_difference[a, b]:>9.6f}")
        if result.test == "t":
            line += f"  {result.statistic[a, b]:>7.2f}"
        if result.test is not None:
            line += (f"  {result.p[a, b]:>9.2e}  {result.q[a, b]:>9.2e}"
                     + (" *" if result.q[a, b] < 0.05 else ""))
        lines.append(line)
    return lines


def test_summary(result, adjustment, seed):
    """What the summary line says of the map's test."""
    if result.test is None:
        return ""
    test = (f"t with {result.df} degrees of freedom" if result.test == "t"
            else f"{result.n_permutations} label permutations (seed {seed})")
    return f", {test}, q by {adjustment}, * q < 0.05"


def too_few_permutations(found, adjustment):
    """Why no pair of the map `found` can have q < 0.05 with its
    permutations, whatever the data, or None."""
    from orangecontrib.relief.core.analysis.significance import (
        permutation_shortfall)

    result = found.map
    k = len(found.variables)
    if result.test != "permutation":
        return None
    shortfall = permutation_shortfall(k * (k - 1) // 2,
                                      result.n_permutations, 0.05,
                                      adjustment)
    if shortfall is None:
        return None
    smallest, needed = shortfall
    return (f"with {result.n_permutations} permutations and "
            f"{k * (k - 1) // 2} pairs no q can be below 0.05 (the smallest "
            f"is {smallest:.3g})"
            + ("" if needed is None
               else f"; use --permutations {needed} or more"))


def run_interactions(args):
    """Map the attributes of `args.file`, print the strongest pairs and draw
    the heat map."""
    from orangecontrib.relief.core.options import (N_PERMUTATIONS,
                                                   RANDOM_STATE, TIES)
    from orangecontrib.relief.interactions import (heat_map_figure,
                                                   interactions)

    table = data_table(args)
    class_var = table.domain.class_var
    if class_var is None:
        raise CliError("the data has no (single) class variable; name one "
                       "with --class")
    if args.map == "regain":
        return run_regain(args, table)
    refused_options(args, REGAIN_OPTIONS, "--map regain")
    numeric = class_var.is_continuous
    test = args.test or ("none" if numeric else "t")
    for name in ("n_permutations", "random_state"):
        if getattr(args, name) is not None and test != "permutation":
            raise CliError(f"{args.options[name]} needs --test permutation: "
                           f"without it {args.options[name]} has no effect.")
    permutations = dict(
        n_permutations=args.n_permutations or N_PERMUTATIONS,
        random_state=(RANDOM_STATE if args.random_state is None
                      else args.random_state))
    start = time.perf_counter()
    try:
        found = interactions(
            table, method=args.method, top_k=args.top_k,
            absolute=args.absolute, test=None if test == "none" else test,
            adjustment=args.adjustment, k_nearest=args.k_nearest,
            ties=args.ties or TIES, **permutations,
            progress_callback=ProgressBar("interactions"))
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    seconds = time.perf_counter() - start
    print("\n".join(format_pairs(found, args.pairs)))
    for note in found.map.notes:
        print(f"note: {note}")
    warning = too_few_permutations(found, args.adjustment)
    if warning:
        print(f"note: {warning}")
    print(f"{len(table)} instances, {args.method}, "
          f"{len(found.variables)} of {len(table.domain.attributes)} "
          f"attributes mapped, {found.map.n_pairs} neighbour pairs"
          + test_summary(found.map, args.adjustment,
                         permutations["random_state"])
          + f", {seconds:.2f} s")
    if not args.no_figure:
        write_figure(lambda path: heat_map_figure(
            found, path, f"{table.name or args.file}: {args.method}"),
            args.figure)
    return 0
