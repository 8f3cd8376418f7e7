"""``orange-relief rank`` on the files of wide data that Orange does not
read: PLINK .bed (with its .bim, .fam and a phenotype file) and AnnData
.h5ad, read a block at a time by :mod:`orangecontrib.relief.readers`
rather than as an Orange table."""
import time

from .common import CliError, ProgressBar, input_error

#: the options of ``orange-relief rank`` that need an Orange table
TABLE_ONLY = {"significance": "--significance", "n_resamples": "--stability",
              "covariates": "--covariates"}
#: the name of each format's instances, for the summary line
INSTANCES = {".bed": "individuals", ".h5ad": "cells"}


def choose_wide_method(requested, data):
    """The registered variant to run on `data` (a WideData): `requested`
    if it fits the class, else CliError; by default ReliefF for classes
    and RReliefF for a numeric target."""
    import numpy as np

    from orangecontrib.relief.core.registry import RELIEFF, RRELIEFF, by_name
    from orangecontrib.relief.variants import METHODS

    classes = len(np.unique(data.y[~np.isnan(data.y)]))
    if data.task == "classification" and classes < 2:
        raise CliError(f"every instance with a known {data.class_name} is "
                       f"of one class; Relief needs at least two")
    if requested is None:
        return (RELIEFF if data.task == "classification" else RRELIEFF).name
    if not by_name(requested).fits(data.task, classes):
        fitting = [name for name, variant in METHODS.items()
                   if variant.fits(data.task, classes)]
        kind = (f"a class with {classes} values"
                if data.task == "classification" else "a numeric class")
        raise CliError(f"{requested} does not fit {kind} "
                       f"({data.class_name}); use " + " or ".join(fitting))
    return requested


#: the options whose None means "not given" (the core's default), never
#: a value passed on: the core refuses t_eq=None, say
UNSET_DEFAULTS = ("k_nearest", "ties", "convention", "t_eq", "t_diff")


def core_options(method, args):
    """The options of the core's estimator of `method` that ``rank`` sets
    (k only where the variant takes it; CliError where given to one that
    does not)."""
    from orangecontrib.relief.core.registry import by_name
    from orangecontrib.relief.variants import DEFAULT_K, no_k

    variant = by_name(method)
    if args.k_nearest is not None and not variant.takes_k:
        raise CliError(f"{method} takes no k: {no_k(method).lower()} "
                       f"--k applies to {', '.join(DEFAULT_K)}")
    given = dict(k_nearest=args.k_nearest, ties=args.ties,
                 convention=args.convention, n_iterations=args.n_iterations,
                 random_state=args.random_state, diff=args.diff,
                 t_eq=args.t_eq, t_diff=args.t_diff)
    return {name: value for name, value in given.items()
            if name in variant.parameters
            and not (name in UNSET_DEFAULTS and value is None)}


def wrapper_options(args):
    """The options of ``--wrapper``: VLS's subset size and seed, Iter's
    rounds and whether its distance weights are the weights' magnitudes
    (``--absolute``)."""
    if args.wrapper == "vls":
        return dict(subset_size=args.subset_size,
                    random_state=args.random_state)
    if args.wrapper == "iter":
        return dict(absolute=args.absolute,
                    **({} if args.max_rounds is None
                       else {"max_rounds": args.max_rounds}))
    return {}


def wrapper_words(args):
    """" in TuRF", " in VLS" or " in Iter" for the summary line ("" without
    ``--wrapper``)."""
    return {None: "", "turf": " in TuRF", "vls": " in VLS",
            "iter": " in Iter"}[args.wrapper]


def describe(path, data):
    """One line on what was read: the shape, the dtype, the class."""
    n, a = data.shape
    kind = ("a numeric target" if data.class_values is None
            else f"classes {', '.join(data.class_values)}")
    return (f"{path}: {n:,} {INSTANCES.get(path.suffix.lower(), 'rows')} x "
            f"{a:,} attributes ({data.X.dtype}), {data.class_name}: {kind}")


def run_wide(args):
    """Rank the attributes of the .bed or .h5ad file of `args.file`; print
    the ranking and a summary.  Progress (reading, then weighting) and
    the engine's line on stderr."""
    from pathlib import Path

    from orangecontrib.relief.core import engines
    from orangecontrib.relief.readers import MissingExtra, read_wide

    from .rank import format_ranking, warn

    for name, option in TABLE_ONLY.items():
        if getattr(args, name) is not None:
            raise CliError(f"{option} needs the data as an Orange table; "
                           f"{Path(args.file).suffix} files are ranked "
                           f"without it")
    try:
        data = read_wide(args.file, pheno=args.pheno,
                         class_name=args.class_name,
                         progress_callback=ProgressBar("reading"))
        method = choose_wide_method(args.method, data)
        options = core_options(method, args)
        summary = describe(Path(args.file), data)
        for note in data.notes:
            warn(note)
        engine = engines.status(data.X, args.n_iterations)
        heading = summary if engine is None else f"{summary}\n{engine}"
        start = time.perf_counter()
        weights = data.weights(
            method, wrapper=args.wrapper, wrapper_options=wrapper_options(args),
            progress_callback=ProgressBar("weighting", heading=heading),
            checked=True, **options)  # as the command line was parsed
        seconds = time.perf_counter() - start
    except MissingExtra as error:
        raise CliError(str(error)) from None
    except ValueError as error:  # includes the core's ReliefInputError
        raise input_error(error, args.options) from None
    print("\n".join(format_ranking(data.names, weights, args.top_k,
                                   absolute=args.absolute)))
    n, a = data.shape
    print(f"{n} instances, {a} attributes, method {method}"
          f"{wrapper_words(args)}, {seconds:.2f} s")
    return 0

