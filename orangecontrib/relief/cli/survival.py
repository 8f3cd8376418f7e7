"""``orange-relief rank FILE --time T --event E``: survival NPDR
(:mod:`orangecontrib.relief.survival`) of the attributes of a table with
censored survival times."""
import time
from types import SimpleNamespace

from .common import CliError, input_error, load_table, timed

#: survival NPDR's own switches (option: what it does)
SWITCHES = {
    "--signed": "signed diffs x_i - x_j and T_i - T_j (main effects; "
                "ranked by |b|), not absolute ones (interactions)",
    "--logistic": "regress whether the neighbour lives at least as long "
                  "as the reference (logistic), not the time difference",
    "--impute": "replace censored times by their Kaplan-Meier conditional "
                "mean",
    "--keep-unknown-order": "keep the pairs whose order is unknown (the "
                            "neighbour censored at or before the "
                            "reference's time)",
}
#: the switches' destinations
SURVIVAL_OPTIONS = [option[2:].replace("-", "_") for option in SWITCHES]
#: rank's options survival NPDR has no use for (destination: option)
UNUSED = {"wrapper": "--wrapper", "pheno": "--pheno",
          "n_iterations": "--iterations", "n_resamples": "--stability",
          "t_eq": "--t-eq", "t_diff": "--t-diff", "r_compatible":
          "--r-compatible", "n_permutations": "--permutations",
          "class_name": "--class", "convention": "--convention"}


def add_survival_arguments(parser):
    """--time, --event and survival NPDR's own options, on ``rank``."""
    parser.add_argument(
        "--time", metavar="COLUMN",
        help="survival NPDR (with --method NPDR): the column of survival "
             "times (default: the time the Survival Analysis add-on "
             "marked); needs --event")
    parser.add_argument(
        "--event", metavar="COLUMN",
        help="survival NPDR: the column saying which times are events (1) "
             "and which are censored (0)")
    for option, text in SWITCHES.items():
        parser.add_argument(option, action="store_true",
                            help=f"survival NPDR: {text}")


def wants_survival(args):
    """Whether `args` ask for survival NPDR (--time, --event, or one of
    its own options)."""
    return (args.time is not None or args.event is not None
            or any(getattr(args, name) for name in SURVIVAL_OPTIONS))


def run_survival(args):
    """Survival NPDR of `args.file`: the ranking with p and q, a summary
    line."""
    from orangecontrib.relief.survival import SurvivalNPDR

    from .rank import (format_ranking, significance_summary, warn)

    check_arguments(args)
    table = load_table(args.file)
    adjustment = args.adjustment or "bh"
    alpha = 0.05 if args.alpha is None else args.alpha
    given = {name: getattr(args, name)
             for name in ("k_nearest", "ties", "covariates")
             if getattr(args, name) is not None}
    if "k_nearest" in given or "ties" in given:
        given["neighbourhood"] = "relieff"
    start = time.perf_counter()
    try:
        scorer = SurvivalNPDR(
            args.time, args.event, diffs="signed" if args.signed
            else "absolute", regression="logistic" if args.logistic
            else "linear", impute=args.impute,
            filter_pairs=not args.keep_unknown_order,
            adjustment=adjustment, **given)
        result = scorer.result(table)
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    seconds = time.perf_counter() - start
    tested = SimpleNamespace(p=result.p, q=result.q,
                             significant=result.q <= alpha,
                             test="regression", adjustment=adjustment,
                             alpha=alpha)
    names = [var.name for var in table.domain.attributes]
    print("\n".join(format_ranking(names, result.coefficient, args.top_k,
                                   tested,
                                   absolute=args.signed or args.absolute)))
    scored = int((result.p == result.p).sum())
    print(significance_summary(tested, scored))
    if tested.significant.any():
        warn("survival NPDR's test counts every neighbour pair as "
             "independent: its p-values come out too small; read them as "
             "a screen.")
    print(f"{len(table)} instances, {scored} attributes, method survival "
          f"NPDR ({'signed' if args.signed else 'absolute'} diffs, "
          f"{result.regression}, {result.n_pairs} pairs), "
          f"{timed(seconds, 'weights, test')}")
    return 0


def check_arguments(args):
    """CliError for a method other than NPDR, or an option survival NPDR
    does not use."""
    if args.method not in (None, "NPDR"):
        raise CliError(f"--time and --event score by survival NPDR; "
                       f"--method {args.method} takes a class (use --method "
                       f"NPDR or leave --method out)")
    if args.significance not in (None, "regression"):
        raise CliError("survival NPDR tests by its regressions; "
                       "--significance takes regression only")
    for name, option in UNUSED.items():
        if getattr(args, name, None) not in (None, False):
            raise CliError(f"{option} has no effect on survival NPDR "
                           f"(--time, --event)")
    if args.diff != "linear":
        raise CliError("survival NPDR's diffs are linear; --diff takes "
                       "linear only with --time and --event")
