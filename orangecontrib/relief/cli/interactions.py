"""``orange-relief interactions``: which attributes act together, the
strongest pairs of a Relief interaction map with their test, and its heat
map."""
import time

from .common import (CliError, ProgressBar, input_error, option_names,
                     positive_int, write_figure)
from .rank import add_file_arguments, add_ties_argument, data_table

DEFAULT_FIGURE = "interactions.png"
#: the pairs printed unless --pairs says
DEFAULT_PAIRS = 10


def add_interactions_command(subparsers):
    """Register ``orange-relief interactions``."""
    from orangecontrib.relief.core.interactions import TOP_K
    from orangecontrib.relief.core.neighbour_pairs import METHODS
    from orangecontrib.relief.core.options import ADJUSTMENT, PARAMETERS

    parser = subparsers.add_parser(
        "interactions", help="which attributes act together: the strongest "
                             "pairs of a Relief interaction map",
        description="Weigh the attributes by a Relief method, take the best "
                    "K and, over the same neighbour pairs, compute for every "
                    "two of them how much more (or less) often they differ "
                    "together between near instances of different classes "
                    "than between near instances of the same class, beyond "
                    "what each does alone (an XOR pair is strongly "
                    "negative); print the strongest pairs with a t test and "
                    "draw the map.")
    add_file_arguments(parser)
    parser.add_argument(
        "--top", type=positive_int, dest="top_k", metavar="K",
        help=f"map the best K attributes by weight (default {TOP_K}, or all "
             f"where there are fewer)")
    parser.add_argument(
        "--method", choices=list(METHODS), default="relieff",
        help="whose neighbour pairs: relief, relieff (the default; the k "
             "nearest per class, or RReliefF's for a numeric class), or the "
             "near sets of surf, multisurf (surf* and multisurf* as surf "
             "and multisurf: their near pairs)")
    parser.add_argument(
        "--k", type=positive_int, dest="k_nearest", metavar="K",
        help="nearest neighbours of relieff (per class, default 10; for a "
             "numeric class, default 50)")
    add_ties_argument(parser)
    parser.add_argument(
        "--absolute", action="store_true",
        help="choose the best attributes by the magnitude of their weights "
             "(the bits of a higher-order XOR can weigh negative)")
    parser.add_argument(
        "--test", choices=["t", "none"],
        help="the test of every pair: t (a t of the references' shares, "
             "the default for a categorical class) or none (the default, "
             "and the only choice, for a numeric one)")
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
    parser.set_defaults(run=run_interactions, options=option_names(
        parser, set(PARAMETERS) | {"top_k"}))


def format_pairs(found, count):
    """The lines of a table of the `count` strongest pairs of `found` (a
    :class:`...interactions.TableInteractions`): the two attributes, the
    interaction, the co-difference and, where tested, t, p and q."""
    from orangecontrib.relief.core.interactions import strongest_pairs

    result = found.map
    order = strongest_pairs(result)[:count]
    names = [(found.variables[a].name, found.variables[b].name)
             for a, b in order]
    width = max([len("attribute 1")] + [len(n) for pair in names
                                         for n in pair])
    tested = result.df == result.df  # not NaN
    header = (f"{'rank':>4}  {'attribute 1':<{width}}  "
              f"{'attribute 2':<{width}}  {'interaction':>11}  "
              f"{'co-diff.':>9}")
    if tested:
        header += f"  {'t':>7}  {'p':>9}  {'q':>9}"
    lines = [header]
    for rank, ((a, b), (first, second)) in enumerate(zip(order, names),
                                                      start=1):
        line = (f"{rank:>4}  {first:<{width}}  {second:<{width}}  "
                f"{result.interaction[a, b]:>11.6f}  "
                f"{result.co_difference[a, b]:>9.6f}")
        if tested:
            line += (f"  {result.statistic[a, b]:>7.2f}  "
                     f"{result.p[a, b]:>9.2e}  {result.q[a, b]:>9.2e}"
                     + (" *" if result.q[a, b] < 0.05 else ""))
        lines.append(line)
    return lines


def run_interactions(args):
    """Map the attributes of `args.file`, print the strongest pairs and draw
    the heat map."""
    from orangecontrib.relief.core.options import TIES
    from orangecontrib.relief.interactions import (heat_map_figure,
                                                   interactions)

    table = data_table(args)
    class_var = table.domain.class_var
    if class_var is None:
        raise CliError("the data has no (single) class variable; name one "
                       "with --class")
    numeric = class_var.is_continuous
    test = args.test or ("none" if numeric else "t")
    start = time.perf_counter()
    try:
        found = interactions(
            table, method=args.method, top_k=args.top_k,
            absolute=args.absolute, test=None if test == "none" else "t",
            adjustment=args.adjustment, k_nearest=args.k_nearest,
            ties=args.ties or TIES,
            progress_callback=ProgressBar("interactions"))
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    seconds = time.perf_counter() - start
    print("\n".join(format_pairs(found, args.pairs)))
    for note in found.map.notes:
        print(f"note: {note}")
    print(f"{len(table)} instances, {args.method}, "
          f"{len(found.variables)} of {len(table.domain.attributes)} "
          f"attributes mapped, {found.map.n_pairs} neighbour pairs"
          + ("" if test == "none" else
             f", t with {found.map.df} degrees of freedom, q by "
             f"{args.adjustment}, * q < 0.05")
          + f", {seconds:.2f} s")
    if not args.no_figure:
        write_figure(lambda path: heat_map_figure(
            found, path, f"{table.name or args.file}: {args.method}"),
            args.figure)
    return 0
