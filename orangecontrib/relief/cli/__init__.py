"""Command line interface: ``orange-relief <command> ...``.

Commands register themselves in `COMMANDS`: each entry is a function that
adds one sub-parser to the ``subparsers`` object it is given and sets the
parser's default ``run`` to a function ``run(args) -> exit code``.  A command
signals a user error (bad file, unsuitable data) by raising `CliError`;
`main` prints its message on one line to stderr and exits with 2.
"""
import argparse
import os
import sys
import time

EXIT_USAGE = 2
DEFAULT_DATASET = "heart_disease"


class CliError(Exception):
    """A user error: printed as one line to stderr, exit code 2."""


def positive_int(text):
    """argparse type: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def load_table(name):
    """Return the Orange table in file `name` or the shipped data set `name`.

    Raises `CliError` if there is no such file or data set, or it can't be
    read.
    """
    from Orange.data import Table
    from orangecontrib.relief import datasets

    if os.path.exists(name):
        filename = name
    else:
        try:
            filename = datasets.path(name)
        except FileNotFoundError as error:
            raise CliError(f"{name}: no such file, and {error}") from None
    try:
        return Table(filename)
    except Exception as error:  # Orange's readers raise many kinds
        raise CliError(f"cannot read {name}: {error}") from None


# --- rank -----------------------------------------------------------------

def add_rank_command(subparsers):
    """Register ``orange-relief rank``."""
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
    parser.add_argument("--t-eq", type=float, default=0.04, metavar="T",
                        help="ramp diff: differences up to this fraction of "
                             "the range count as equal (default: 0.04)")
    parser.add_argument("--t-diff", type=float, default=0.10, metavar="T",
                        help="ramp diff: differences from this fraction of "
                             "the range count as different (default: 0.10)")
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
        kind = "discrete" if class_var.is_discrete else "numeric"
        raise CliError(f"{requested} does not fit a {kind} class "
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
        start = time.perf_counter()
        weights = scorer(table)
        seconds = time.perf_counter() - start
    except ValueError as error:  # includes the core's ReliefInputError
        raise CliError(str(error)) from None
    print("\n".join(format_ranking(table.domain.attributes, weights,
                                   args.top)))
    print(f"{len(table)} instances, {len(table.domain.attributes)} "
          f"attributes, method {method}, {seconds:.2f} s")
    return 0


# --- experiment -----------------------------------------------------------

def add_separability_experiment(experiments):
    """Register ``orange-relief experiment separability`` (Prat & Belanche
    2006, Fig. 5, 7 and 8)."""
    from orangecontrib.relief.experiments import separability

    parser = experiments.add_parser(
        "separability",
        help="ReliefF vs dReliefF vs pdReliefF on artificial problems",
        description="Separability of relevant from irrelevant attributes "
                    "(Prat & Belanche 2006, eq. 5.1-5.2) over the blocking "
                    "design of their Fig. 5; writes separability.csv and "
                    "the figures separability.png and "
                    "accumulated_separability.png to --out.")
    separability.add_arguments(parser)
    parser.set_defaults(run=separability.run_cli)


def add_classdep_experiment(experiments):
    """Register ``orange-relief experiment classdep`` (Qiu & He 2019,
    Table 2: CDRelief and IWCDRelief with class-dependent kNN)."""
    from orangecontrib.relief.experiments import classdep

    parser = experiments.add_parser(
        "classdep",
        help="Table 2 of Qiu & He: CDRelief, IWCDRelief, class-dependent kNN",
        description="10-fold cross-validated accuracy of class-dependent "
                    "kNN with CDRelief and IWCDRelief weights (Qiu & He "
                    "2019, Table 2) next to plain kNN and kNN with ReliefF "
                    "weights; writes classdep.csv, classdep.md and "
                    "classdep_accuracy_vs_k.png to --out.")
    classdep.add_arguments(parser)
    parser.set_defaults(run=classdep.run_cli)


def add_rfsm_experiment(experiments):
    """Register ``orange-relief experiment rfsm`` (Arauzo-Azofra, Benitez &
    Castro, Tables 1 and 2: RFSM vs Liu's consistency vs the wrapper)."""
    from orangecontrib.relief.experiments import rfsm

    parser = experiments.add_parser(
        "rfsm",
        help="Tables 1 and 2 of the RFSM paper: RFSM, Liu, wrapper",
        description="Greedy forward selection with RFSM, Liu's consistency "
                    "and the wrapper (tree, kNN with k = 21) in 10-fold "
                    "cross-validation: selected attributes on CorrAL and "
                    "Parity3+3 (Table 1), accuracy / MSE and number of "
                    "attributes on six data sets (Table 2); writes "
                    "rfsm_table1.csv, rfsm_table2.csv and rfsm.md to --out.")
    rfsm.add_arguments(parser)
    parser.set_defaults(run=rfsm.run_cli)


#: Functions that register one experiment: each adds a sub-parser to the
#: sub-parsers of ``orange-relief experiment`` and sets its ``run``.
EXPERIMENTS = [add_separability_experiment, add_classdep_experiment,
               add_rfsm_experiment]


def add_experiment_command(subparsers):
    """Register ``orange-relief experiment <name>`` for every `EXPERIMENTS`."""
    parser = subparsers.add_parser(
        "experiment", help="run an experiment of the papers",
        description="Run an experiment of the papers the add-on implements.")
    experiments = parser.add_subparsers(dest="experiment",
                                        metavar="EXPERIMENT", required=True)
    for add_experiment in EXPERIMENTS:
        add_experiment(experiments)


#: Functions that register a sub-command; see the module docstring.
COMMANDS = [add_rank_command, add_experiment_command]


def build_parser():
    """Return the argument parser with every command of `COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="orange-relief",
        description="Relief family feature weighting for Orange data.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND",
                                       required=True)
    for add_command in COMMANDS:
        add_command(subparsers)
    return parser


def main(argv=None):
    """Run the command line `argv` (default: sys.argv[1:]); return the exit
    code."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CliError as error:
        print(f"orange-relief {args.command}: error: {error}",
              file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
