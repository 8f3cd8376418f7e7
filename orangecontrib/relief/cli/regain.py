"""``orange-relief interactions --map regain``: the reGAIN network of the
attributes (a regression per attribute and per pair), its strongest pairs
and EpistasisRank's ranking of the attributes, and its heat map."""
import time

from .common import CliError, ProgressBar, input_error, write_figure

#: the options of the Relief map's test, refused with --map regain
RELIEF_TEST_OPTIONS = ("test", "n_permutations", "random_state")
#: the options of reGAIN, refused with the Relief map
REGAIN_OPTIONS = ("covariates", "no_main_effects")


def comma_names(text):
    """argparse type: a comma-separated list of column names."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError("no column named")
    return names


def format_regain_pairs(found, count):
    """The lines of a table of the `count` strongest pairs of the network
    `found` (a :class:`...regain.TableRegain`): the two attributes, the
    statistic of the interaction (z, or t for a numeric class), its
    coefficient, p and q."""
    from orangecontrib.relief.regain import pair_order

    network = found.network
    statistic = "z" if network.regression == "logistic" else "t"
    order = pair_order(found)[:count]
    names = [(found.variables[a].name, found.variables[b].name)
             for a, b in order]
    width = max([len("attribute 1")] + [len(n) for pair in names
                                         for n in pair])
    lines = [f"{'rank':>4}  {'attribute 1':<{width}}  "
             f"{'attribute 2':<{width}}  {statistic:>7}  {'coefficient':>11}"
             f"  {'p':>9}  {'q':>9}"]
    for rank, ((a, b), (first, second)) in enumerate(zip(order, names),
                                                      start=1):
        q = found.q[a, b]
        lines.append(f"{rank:>4}  {first:<{width}}  {second:<{width}}  "
                     f"{network.statistic[a, b]:>7.2f}  "
                     f"{network.coefficient[a, b]:>11.5f}  "
                     f"{network.p[a, b]:>9.2e}  {q:>9.2e}"
                     + (" *" if q < 0.05 else ""))
    return lines


def format_epistasis_rank(found, count):
    """The lines of a table of the `count` attributes EpistasisRank ranks
    first (by its magnitude), with EpistasisKatz and the main effect."""
    from orangecontrib.relief.regain import ranking_table

    table = ranking_table(found)[:count]
    names = [str(name) for name in table.get_column("attribute")]
    statistic = "z" if found.network.regression == "logistic" else "t"
    width = max([len("attribute")] + [len(name) for name in names])
    lines = [f"{'rank':>4}  {'attribute':<{width}}  {'EpistasisRank':>13}  "
             f"{'EpistasisKatz':>13}  {'main ' + statistic:>7}"]
    for rank, (name, row) in enumerate(zip(names, table.X), start=1):
        lines.append(f"{rank:>4}  {name:<{width}}  {row[0]:>13.6f}  "
                     f"{row[1]:>13.4f}  {row[2]:>7.2f}")
    return lines


def refused_options(args, names, needs):
    """CliError naming the first option of `names` (destinations) given
    in `args`, which needs `needs`."""
    for name in names:
        if getattr(args, name) not in (None, False):
            option = args.options.get(name, "--" + name.replace("_", "-"))
            raise CliError(f"{option} needs {needs}.")


def chosen_attributes(table, args):
    """The attributes reGAIN fits: every attribute but the covariates,
    or, where they are more than --top (default 30), the best of them by
    the Relief weights of --method (:func:`...regain.best_attributes`)."""
    from orangecontrib.relief.core.options import TIES
    from orangecontrib.relief.regain import best_attributes

    covariates = set(args.covariates or ())
    names = [var.name for var in table.domain.attributes
             if var.name not in covariates]
    if len(names) >= 2 and args.top_k is not None \
            and not 2 <= args.top_k <= len(names):
        raise CliError(f"--top {args.top_k}: reGAIN fits pairs of the "
                       f"{len(names)} attributes"
                       + (" that are not covariates" if covariates else "")
                       + f"; give between 2 and {len(names)}.")
    return best_attributes(table, args.top_k, covariates,
                           method=args.method, absolute=args.absolute,
                           k_nearest=args.k_nearest, ties=args.ties or TIES)


def run_regain(args, table):
    """Fit reGAIN on the attributes of `table`, print its strongest pairs
    and EpistasisRank's ranking, draw its heat map."""
    from orangecontrib.relief.regain import regain_figure, regain_network

    refused_options(args, RELIEF_TEST_OPTIONS,
                    "the Relief map (--map relief); reGAIN tests every "
                    "pair by its regression")
    start = time.perf_counter()
    try:
        found = regain_network(
            table, attributes=chosen_attributes(table, args),
            covariates=args.covariates,
            main_effects=not args.no_main_effects,
            adjustment=args.adjustment,
            progress_callback=ProgressBar("reGAIN"))
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    seconds = time.perf_counter() - start
    print("\n".join(format_regain_pairs(found, args.pairs)))
    print()
    print("\n".join(format_epistasis_rank(found, args.pairs)))
    for note in found.notes:
        print(f"note: {note}")
    k = len(found.variables)
    covariates = ", ".join(var.name for var in found.covariates)
    print(f"{len(table)} instances, reGAIN ({found.network.regression}"
          + ("" if args.no_main_effects else " with the main effects")
          + f"), {k} of {len(table.domain.attributes)} attributes, "
          f"{k * (k - 1) // 2} pairs"
          + (f", covariates {covariates}" if covariates else "")
          + f", q by {args.adjustment}, * q < 0.05, {seconds:.2f} s")
    if not args.no_figure:
        write_figure(lambda path: regain_figure(
            found, path, f"{table.name or args.file}: reGAIN"), args.figure)
    return 0
