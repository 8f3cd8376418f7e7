"""``orange-relief rank FILE --class a,b,c``: several class columns,
ranked by multi-target RReliefF (every one numeric) or multi-label
ReliefF (every one binary): the overall ranking, best first, and each
target's weight beside it."""
import time

from .common import CliError, input_error, load_table, timed, with_class

#: the options of ``rank`` that one ranking of one class reads, refused
#: with several classes (destination: option)
SINGLE_CLASS_OPTIONS = {"method": "--method", "significance": "--significance",
                        "n_resamples": "--stability", "wrapper": "--wrapper",
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


def run_targets(args, names):
    """Rank the attributes of `args.file` by the targets `names`."""
    from orangecontrib.relief.core.options import RANDOM_STATE
    from orangecontrib.relief.multitarget import target_scorer

    for destination, option in SINGLE_CLASS_OPTIONS.items():
        if getattr(args, destination, None):
            raise CliError(f"{option} works with one class; several "
                           f"(--class {args.class_name}) are ranked by "
                           f"multi-target RReliefF or multi-label ReliefF")
    table = with_classes(load_table(args.file), names)
    given = {name: getattr(args, name) for name in ("n_iterations",
                                                    "k_nearest", "t_eq",
                                                    "t_diff", "ties")
             if getattr(args, name) is not None}
    seed = RANDOM_STATE if args.random_state is None else args.random_state
    try:
        scorer = target_scorer(table.domain.class_vars, random_state=seed,
                               diff=args.diff, **given)
        start = time.perf_counter()
        weights = scorer.weights(table)
        seconds = time.perf_counter() - start
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    print("\n".join(format_targets(
        [var.name for var in table.domain.attributes], weights, names,
        args.top_k)))
    print(f"{len(table)} instances, {len(table.domain.attributes)} "
          f"attributes, {len(names)} targets, method "
          f"{scorer.friendly_name}, {timed(seconds, 'weights')}")
    return 0
