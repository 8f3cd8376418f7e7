"""``orange-relief experiment <name>``: the papers' experiments.

Each experiment of :mod:`orangecontrib.relief.experiments` has the same
shape (``Settings`` -> ``run`` -> ``Results`` that write and summarise
themselves); this module only turns the command line into its settings.
"""
import dataclasses
import os

from .common import (CliError, ProgressBar, input_error, non_negative_int,
                     option_names, positive_int)


def _add_separability(experiments):
    """``orange-relief experiment separability`` (Prat & Belanche 2006,
    Fig. 5, 7 and 8)."""
    from orangecontrib.relief.experiments import separability

    parser = experiments.add_parser(
        "separability",
        help="ReliefF vs dReliefF vs pdReliefF on artificial problems",
        description="Separability of relevant from irrelevant attributes "
                    "(Prat & Belanche 2006, eq. 5.1-5.2) over the blocking "
                    "design of their Fig. 5; writes separability.csv and "
                    "the figures separability.png and "
                    "accumulated_separability.png to --out.")
    parser.add_argument(
        "--problem", action="append", choices=separability.PROBLEMS,
        dest="problems",
        help="a problem to run (repeat for several; default: all six)")
    parser.add_argument("--max-relevant", type=positive_int, default=50,
                        help="relevant attributes 1..N (default: 50)")
    parser.add_argument("--irrelevant-factor", type=positive_int, default=2,
                        help="irrelevant attributes 1..F*n (default: 2)")
    parser.add_argument("--relevant-step", type=positive_int, default=1,
                        help="use every STEP-th number of relevant "
                             "attributes (default: 1, all)")
    parser.add_argument("--datasets", type=positive_int, default=10,
                        dest="n_datasets",
                        help="data sets per cell (default: 10)")
    parser.add_argument("--instances", type=positive_int, default=100,
                        dest="n_instances",
                        help="instances per data set (default: 100)")
    parser.add_argument("--k", type=positive_int, default=10,
                        dest="k_nearest",
                        help="nearest hits and misses per class "
                             "(default: 10)")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="base seed of the data sets (default: 0)")

    def settings(args):
        return separability.Settings(
            problems=tuple(args.problems or separability.PROBLEMS),
            max_relevant=args.max_relevant,
            irrelevant_factor=args.irrelevant_factor,
            relevant_step=args.relevant_step, n_datasets=args.n_datasets,
            n_instances=args.n_instances, k_nearest=args.k_nearest,
            seed=args.seed)
    _add_common(parser, separability, settings, "separability",
                jobs=os.cpu_count() or 1)


def _add_classdep(experiments):
    """``orange-relief experiment classdep`` (Qiu & He 2019, Table 2)."""
    from orangecontrib.relief.experiments import class_dependent_knn as exp

    parser = experiments.add_parser(
        "classdep",
        help="Table 2 of Qiu & He: CDRelief, IWCDRelief, class-dependent kNN",
        description="10-fold cross-validated accuracy of class-dependent "
                    "kNN with CDRelief and IWCDRelief weights (Qiu & He "
                    "2019, Table 2) next to plain kNN and kNN with ReliefF "
                    "weights; writes classdep.csv, classdep.md and "
                    "classdep_accuracy_vs_k.png to --out.")
    parser.add_argument("--datasets", nargs="+", default=list(exp.DATASETS),
                        choices=list(exp.DATASETS), metavar="NAME",
                        help="data sets (default: all five)")
    parser.add_argument("--k", nargs="+", type=positive_int,
                        default=list(exp.K_VALUES), dest="k_values",
                        help="neighbours (default: 3 5 7)")
    parser.add_argument("--thresholds", nargs="+", type=float,
                        default=list(exp.THRESHOLDS),
                        help="IWCDRelief thresholds (default: 0.1 .. 0.9)")
    parser.add_argument("--folds", type=positive_int, default=10,
                        help="cross-validation folds (default: 10)")
    parser.add_argument("--inner-folds", type=positive_int, default=5,
                        help="folds of the threshold choice inside the "
                             "training part (default: 5)")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="seed of the folds (default: 0)")
    parser.add_argument("--negative", choices=["clip", "square"],
                        default="clip",
                        help="negative weights: set to 0 (default) or "
                             "squared as eq. 1 is written")
    parser.add_argument("--no-plot", action="store_true",
                        help="skip the plot")

    def settings(args):
        return exp.Settings(
            datasets=tuple(args.datasets), k_values=tuple(args.k_values),
            thresholds=tuple(args.thresholds), folds=args.folds,
            inner_folds=args.inner_folds, seed=args.seed,
            negative=args.negative, plot=not args.no_plot)
    _add_common(parser, exp, settings, "classdep-results")


def _add_rfsm(experiments):
    """``orange-relief experiment rfsm`` (Arauzo-Azofra, Benitez & Castro,
    Tables 1 and 2: RFSM vs Liu's consistency vs the wrapper)."""
    from orangecontrib.relief.experiments import subset_selection as exp

    names = exp.TABLE1_DATASETS + exp.TABLE2_DATASETS
    parser = experiments.add_parser(
        "rfsm",
        help="Tables 1 and 2 of the RFSM paper: RFSM, Liu, wrapper",
        description="Greedy forward selection with RFSM, Liu's consistency "
                    "and the wrapper (tree, kNN with k = 21) in 10-fold "
                    "cross-validation: selected attributes on CorrAL and "
                    "Parity3+3 (Table 1), accuracy / MSE and number of "
                    "attributes on six data sets (Table 2); writes "
                    "rfsm_table1.csv, rfsm_table2.csv and rfsm.md to --out.")
    parser.add_argument("--folds", type=positive_int, default=10,
                        help="outer cross-validation folds (default: 10)")
    parser.add_argument("--inner-folds", type=positive_int, default=5,
                        help="the wrapper's cross-validation folds "
                             "(default: 5)")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="seed of the folds and the generated data "
                             "(default: 0)")
    parser.add_argument("--dataset", action="append", dest="datasets",
                        choices=names,
                        help="run only this data set (repeat for several; "
                             "default: all)")
    parser.add_argument("--max-instances", type=non_negative_int,
                        default=0,
                        help="use a random sample of at most this many "
                             "instances of each data set (default: all)")

    def settings(args):
        chosen = args.datasets or names
        return exp.Settings(
            folds=args.folds, inner_folds=args.inner_folds, seed=args.seed,
            table1=tuple(n for n in exp.TABLE1_DATASETS if n in chosen),
            table2=tuple(n for n in exp.TABLE2_DATASETS if n in chosen),
            max_instances=args.max_instances)
    _add_common(parser, exp, settings, "rfsm",
                jobs=min(2, os.cpu_count() or 1))


def _add_rebate(experiments):
    """``orange-relief experiment rebate DIR`` (Urbanowicz et al. 2018,
    the ReBATE benchmark)."""
    from orangecontrib.relief.core.options import check_needs
    from orangecontrib.relief.experiments import rebate
    from orangecontrib.relief.variants import TIE_RULES

    parser = experiments.add_parser(
        "rebate",
        help="the ReBATE benchmark: power to rank the predictive features",
        description="Weigh every replicate of a folder laid out as the "
                    "ReBATE benchmark's archive (Urbanowicz et al. 2018; "
                    "EpistasisLab/rebate-benchmark, benchmark-data/"
                    "Simulated_Benchmark_Archive) with each method; write "
                    "the power at every r (the share of replicates whose "
                    "key variables all rank within the top r) to "
                    "rebate_power.csv, each replicate's worst rank to "
                    "rebate_replicates.csv, the heat map and the curves to "
                    "rebate_heatmap.png and rebate_power_curves.png, the "
                    "mean and median rank of the key variables and the "
                    "time per data set by family to rebate_ranks.csv, the "
                    "Mann-Whitney comparisons of the methods' ranks "
                    "(Benjamini-Hochberg adjusted within a family) to "
                    "rebate_mannwhitney.csv and the ranks' heat map to "
                    "rebate_rank_heatmap.png, and print the power at the "
                    "top and the mean ranks.")
    parser.add_argument("folder", metavar="DIR",
                        help="the archive's folder (or any folder below it)")
    parser.add_argument(
        "--method", action="append", dest="methods", metavar="METHOD",
        choices=rebate.METHODS,
        help="a method to run (repeat for several; default: "
             + ", ".join(rebate.DEFAULT_METHODS) + "; also "
             + ", ".join(name for name in rebate.OURS
                         if name not in rebate.DEFAULT_METHODS)
             + "); a peer's as '<peer> <method>', e.g. 'skrebate "
             "MultiSURF'")
    parser.add_argument("--urbslab", action="store_true",
                        help="the methods of UrbsLab's re-benchmark the "
                             "add-on has, in their order, the controls "
                             "first: " + ", ".join(rebate.URBSLAB)
                             + " (with --method: besides those)")
    parser.add_argument("--controls", action="store_true",
                        help="also run the controls of UrbsLab's "
                             "re-benchmark: " + ", ".join(rebate.CONTROLS)
                             + " (the features in random orders, "
                             f"{rebate.SHUFFLES} a replicate, and "
                             "scikit-learn's mutual information)")
    parser.add_argument("--shuffles", type=positive_int,
                        help="random orders per replicate of the shuffle "
                             f"control (default: {rebate.SHUFFLES})")
    parser.add_argument("--absolute", action="store_true",
                        help="also show every method ranked by the "
                             "magnitude of its scores as a column of its "
                             "own (|METHOD|) in the heat maps, the ranks "
                             "and the Mann-Whitney comparisons")
    parser.add_argument("--peers", action="store_true",
                        help="also run the installed peers (scikit-rebate, "
                             "fast-select) on the methods they have")
    parser.add_argument("--replicates", type=positive_int,
                        help="the first N replicates of each configuration "
                             "(default: all)")
    parser.add_argument("--quick", action="store_true",
                        help=f"--replicates {rebate.QUICK_REPLICATES}")
    parser.add_argument("--discrete-limit", type=non_negative_int,
                        default=rebate.DISCRETE_LIMIT,
                        help="columns with at most this many values are "
                             f"nominal (default: {rebate.DISCRETE_LIMIT}, "
                             "the study's; 0: all numeric)")
    parser.add_argument("--summary", metavar="FILE",
                        help="the study's SimulatedDataArchiveSummary.xlsx: "
                             "the key variables of the configurations it "
                             "lists (default, and for the others: by the "
                             "archive's names, M<m>P<k> and the "
                             "multiplexers' address bits A_<k>)")
    parser.add_argument("--permute-rows", action="store_true",
                        help="weigh every table with its rows in a random "
                             "order (seed --seed and the file's name)")
    parser.add_argument("--seed", type=non_negative_int,
                        help="seed of --permute-rows (default: 0)")
    parser.add_argument("--ties", choices=TIE_RULES,
                        help="the rule for ties at the k-th neighbour of the "
                             "methods with k nearest neighbours: share or "
                             "lower-index (default: share)")

    def settings(args):
        methods = tuple(args.methods or ()) + (
            rebate.URBSLAB if args.urbslab else ())
        methods = tuple(dict.fromkeys(methods or rebate.DEFAULT_METHODS))
        if args.controls:
            methods += tuple(name for name in rebate.CONTROLS
                             if name not in methods)
        if args.peers:
            methods += tuple(name for name in rebate.peer_methods()
                             if name.split(" ", 1)[1] in methods
                             and name not in methods)
        if args.quick and args.replicates is not None:
            raise ValueError("give --quick or --replicates, not both")
        check_needs("--seed", args.seed, None, "--permute-rows",
                    args.permute_rows)
        check_needs("--ties", args.ties, None, "a method with k nearest "
                    "neighbours (" + ", ".join(rebate.TAKE_TIES) + ")",
                    any(name in rebate.TAKE_TIES for name in methods))
        check_needs("--shuffles", args.shuffles, None, "the shuffle control "
                    "(--controls)", rebate.SHUFFLE in methods)
        return rebate.Settings(
            folder=args.folder, methods=methods,
            replicates=(rebate.QUICK_REPLICATES if args.quick
                        else args.replicates),
            discrete_limit=args.discrete_limit, summary=args.summary,
            permute_rows=args.permute_rows,
            seed=0 if args.seed is None else args.seed, ties=args.ties,
            absolute=args.absolute,
            shuffles=args.shuffles or rebate.SHUFFLES)
    _add_common(parser, rebate, settings, "rebate", jobs=os.cpu_count() or 1)


def _add_common(parser, module, settings, out, jobs=None):
    """--out, --quiet and (for experiments that run processes) --jobs; the
    experiment `module`, the function that turns the arguments into its
    settings, and the options of the settings' fields."""
    parser.add_argument("--out", default=out, metavar="DIR",
                        help=f"output directory (default: ./{out})")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar")
    if jobs is not None:
        parser.add_argument("--jobs", type=positive_int, default=jobs,
                            help=f"worker processes (default: {jobs})")
    fields = {field.name for field in dataclasses.fields(module.Settings)}
    parser.set_defaults(experiment_module=module, settings=settings,
                        options=option_names(parser, fields))


#: functions that register one experiment each
EXPERIMENTS = (_add_separability, _add_classdep, _add_rfsm, _add_rebate)


def add_experiment_command(subparsers):
    """Register ``orange-relief experiment <name>`` for every experiment."""
    parser = subparsers.add_parser(
        "experiment", help="run an experiment of the papers",
        description="Run an experiment of the papers the add-on implements.")
    experiments = parser.add_subparsers(dest="experiment",
                                        metavar="EXPERIMENT", required=True)
    for add in EXPERIMENTS:
        add(experiments)
    parser.set_defaults(run=run_experiment)


def output_directory(path):
    """Make the directory `path` (of --out) if need be; raise `CliError`
    if it cannot be made or written to."""
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        raise CliError(f"--out {path!r}: not a directory") from None
    except OSError as error:
        raise CliError(f"--out {path!r}: {error.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise CliError(f"--out {path!r}: cannot write to the directory")


def run_experiment(args):
    """Run the experiment of the command line; write and summarise it.

    The settings and the output directory are checked before the run; the
    experiment's refusal of the settings or the data, before or during the
    run, is a `CliError`.
    """
    options = {}
    if hasattr(args, "jobs"):
        options["jobs"] = args.jobs
    progress = None if args.quiet else ProgressBar(args.experiment)
    try:
        settings = args.settings(args)
        output_directory(args.out)
        results = args.experiment_module.run(
            settings, progress_callback=progress, **options)
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    paths = results.write(args.out)
    print(results.summary())
    print(f"wrote {', '.join(paths)}")
    return 0
