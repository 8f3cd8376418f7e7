"""Every compiled kernel run once, so that numba compiles and caches it:
the preparation of the compiled engine (:mod:`.engines.preparation`).

:data:`WORKLOAD` is a list of small calls that, between them, reach every
kernel with every kind of argument a call of the add-on gives it:
numeric, nominal and mixed columns, missing values, every reference and
sampled ones, classes and a numeric target, every variant, STIR and NPDR.  A
test checks that after :func:`prepare` a wide range of calls compiles
nothing more.  ``python -m orangecontrib.relief.core.warmup --part NAME``
runs a part of it in a worker process (:mod:`.engines.keeper`), for
the background preparation and for :func:`prepare`, which ``orange-relief
prepare`` calls with a progress bar.
"""
import argparse
import json
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from functools import partial

import numpy as np
from scipy import sparse

from .variants import (classdep, double, estimators, multitarget, murelief,
                       npdr, streaming, surf, swrf)
from .analysis import significance
from . import termination
from .columns import ArrayColumns
from .engines import COMPILED, cache, forced, keeper, preparation
from .progress import report
from .subsets import RFSM, backward_elimination, greedy_forward
from .analysis.weighted_knn import fit_class_weights, predict_votes


def _data(seed=0, n=48, a=6):
    """Small data of every kind: numeric, mixed (every third column
    nominal), mixed with missing values; two classes, three, a target."""
    rng = np.random.default_rng(seed)
    numeric = rng.random((n, a))
    nominal = np.arange(a) % 3 == 0
    mixed = np.where(nominal, rng.integers(0, 3, (n, a)), numeric)
    missing = np.where(rng.random((n, a)) < 0.15, np.nan, mixed)
    two = np.arange(n) % 2
    three = np.arange(n) % 3
    target = numeric[:, 0] + rng.random(n)
    return dict(numeric=(numeric, None), mixed=(mixed, nominal),
                missing=(missing, nominal)), two, three, target


DATA, TWO, THREE, TARGET = _data()
#: sampled references: fewer than half of the instances (the search of
#: given references rather than of all pairs)
SAMPLED = 5


def _share(kinds, share):
    """The kinds of data of a piece of a part: all of them with (0, 1),
    else (i, n) the i-th of every n, from 0 (:func:`.engines.preparation.
    shares`)."""
    first, every = share
    return kinds[first::every]


def _each_kind(call, share=(0, 1)):
    """`call(X, discrete)` on every kind of data, or on a share of them
    (:func:`_share`)."""
    for X, discrete in _share(list(DATA.values()), share):
        call(X, discrete)


def _relieff(X, discrete):
    for n_iterations in (None, SAMPLED):
        estimators.relieff(X, THREE, discrete, k_nearest=3,
                           n_iterations=n_iterations)
    estimators.relief(X, TWO, discrete)
    estimators.relieff(X, THREE, discrete, k_nearest=3,
                       distance_weights=np.linspace(0, 1, X.shape[1]))
    for convention in ("add-on", "scikit-rebate"):
        murelief.murelief(X, THREE, discrete, k_nearest=3,
                          convention=convention)


def _rrelieff(X, discrete):
    for n_iterations in (None, SAMPLED):
        estimators.rrelieff(X, TARGET, discrete, k_nearest=3,
                            n_iterations=n_iterations)
    significance.rrelieff_rescorer(X, TARGET, discrete, k_nearest=3)(TARGET)
    targets = np.c_[TARGET, TARGET[::-1]]
    multitarget.rrelieff_multitarget(X, targets, discrete, k_nearest=3)
    multitarget.relieff_multilabel(X, targets > np.median(TARGET), discrete,
                                   k_nearest=3)


def _double(X, discrete):
    double.drelieff(X, THREE, discrete, k_nearest=3)
    double.pdrelieff(X, THREE, discrete, k_nearest=3)


def _class_dependent(X, discrete):
    classdep.cdrelief(X, THREE, discrete, k_nearest=3)
    classdep.iwcdrelief(X, THREE, discrete, k_nearest=3)


def _surf(X, discrete):
    for method in surf.NEIGHBOURHOODS:
        surf.neighbourhood_sums(X, THREE, discrete, method=method, stir=True)
        surf.neighbourhood_sums(X, TARGET, discrete, method=method,
                                task="regression")
        surf.neighbourhood_sums(X, THREE, discrete, method=method,
                                n_iterations=SAMPLED)
        significance.surf_rescorer(X, THREE, discrete, method=method).many(
            [THREE, THREE[::-1]])
    significance.stir(X, THREE, discrete, neighbourhood="relieff",
                      k_nearest=3)
    _swrf_target(X, discrete)
    _surf_unkept(X, discrete)


def _swrf_target(X, discrete):
    """SWRF's classification rule over the pairs of a numeric target
    (scikit-rebate's convention)."""
    swrf.swrf_sums(X, TARGET, discrete, method="swrf", task="regression",
                   convention="scikit-rebate")


def _surf_unkept(X, discrete):
    """SURF's and SWRF's global statistics as data above the budget of
    kept distances sum them, and MultiSURF's rows as such data compute
    them (:func:`distance_budget`): the rules then compute their
    distances, each rule its own kernel; SURF's pairs put on the sides of
    its limit as it is summed, where their bits fit the budget
    (:mod:`.engines.compiled.neighbours.sides`); and MultiSURF's rows a
    panel at a time, as data whose pending tiles fit the budget take them
    (data of two panels and one tile's budget, which two panels' tiles
    fit and their whole matrix does not)."""
    with distance_budget():
        for method in ("surf", "multisurf"):
            surf.neighbourhood_sums(X, THREE, discrete, method=method)
            surf.neighbourhood_sums(X, TARGET, discrete, method=method,
                                    task="regression")
        swrf.swrf_sums(X, THREE, discrete, method="swrf")
        _swrf_target(X, discrete)
    from .engines.compiled.neighbours.sides import bytes_of
    with distance_budget(bytes_of(X.shape[0])):  # SURF's pairs' sides fit
        surf.neighbourhood_sums(X, THREE, discrete, method="surf")
        surf.neighbourhood_sums(X, TARGET, discrete, method="surf",
                                task="regression")
    from .engines.compiled.rules.surf import PANEL
    with distance_budget(PANEL ** 2 * 8):
        copies = -(-(PANEL + 1) // len(X))
        surf.neighbourhood_sums(np.tile(X, (copies, 1)),
                                np.tile(THREE, copies), discrete,
                                method="multisurf")


@contextmanager
def distance_budget(budget=0):
    """Within it, the compiled SURF family keeps at most `budget` bytes of
    distances (its budget,
    :data:`.engines.compiled.rules.surf.KEPT_DISTANCES`; none by default),
    so that any data take the kernels of data above the budget: the
    global statistics summed pair by pair, each reference's row computed
    (or a panel's rows, where their pending tiles fit `budget`)."""
    from .engines.compiled.rules import surf as rules

    kept, rules.KEPT_DISTANCES = rules.KEPT_DISTANCES, budget
    try:
        yield
    finally:
        rules.KEPT_DISTANCES = kept


def _npdr(X, discrete):
    covariates = dict(covariates=TARGET, covariate_discrete=[False])
    for y, task in ((TWO, "classification"), (TARGET, "regression")):
        for options in ({}, covariates, dict(neighbourhood="surf"),
                        dict(neighbourhood="relieff", k_nearest=3),
                        dict(neighbourhood="relieff", ties="all",
                             twins="exclude", scale="none"),
                        dict(deviation="sample", twins="exclude",
                             scale="none")):
            npdr.npdr(X, y, discrete, task=task, **options)
    levels = np.round(X * 2) / 2  # at most three values: grouped pairs
    npdr.npdr(levels, TWO, discrete)


def _rfsm(X, discrete):
    for y, task in ((THREE, "classification"), (TARGET, "regression")):
        measure = RFSM(X, y, discrete, task=task, k_nearest=3)
        greedy_forward(measure)
        backward_elimination(measure)


def _class_dependent_knn(X, discrete):
    if np.isnan(X).any():
        return  # the learner imputes before it weighs
    weights = fit_class_weights(X, THREE, discrete, 3, k=3)
    predict_votes(X, THREE, weights, discrete, X[:5], 3)


def _streaming(X, discrete):
    if np.isnan(X).any():
        return  # streaming refuses missing values
    streaming.relieff_streaming(X, THREE, discrete, n_iterations=SAMPLED,
                                k_nearest=3, chunk_rows=16)


def _compact(share=(0, 1)):
    """The variants that read narrow, sparse and streamed columns as they
    are (:mod:`.compact`): bit planes, running sums with and without
    missing values, sparse rows, a source with a missing code; all of
    them, or a share (:func:`_share`)."""
    genotypes = np.floor(DATA["numeric"][0] * 3).astype(np.int8)
    floats = DATA["missing"][0].astype(np.float32)
    coded = np.where(np.isnan(DATA["missing"][0]), -1, genotypes)
    kinds = [(genotypes, None), (genotypes > 0, None),
             (floats, DATA["missing"][1]),
             (sparse.csr_matrix(np.where(genotypes > 1, DATA["numeric"][0],
                                         0)), None),
             (sparse.csr_matrix(genotypes.astype(np.float32)), None),
             (ArrayColumns(coded.astype(np.int8), missing_code=-1), None)]
    for X, discrete in _share(kinds, share):
        _relieff(X, discrete)
        _rrelieff(X, discrete)
        for method in surf.NEIGHBOURHOODS:
            surf.neighbourhood_sums(X, THREE, discrete, method=method,
                                    stir=True)
            surf.neighbourhood_sums(X, TARGET, discrete, method=method,
                                    task="regression")


#: what each part of the preparation (:data:`.engines.preparation.PARTS`)
#: compiles, given the share of its kinds of data to compile it for
CALLS = {
    "ReliefF and Relief": partial(_each_kind, _relieff),
    "RReliefF": partial(_each_kind, _rrelieff),
    "the SURF family and STIR": partial(_each_kind, _surf),
    "NPDR": partial(_each_kind, _npdr),
    "dReliefF and pdReliefF": partial(_each_kind, _double),
    "CDRelief and IWCDRelief": partial(_each_kind, _class_dependent),
    "the class-dependent kNN": partial(_each_kind, _class_dependent_knn),
    "RFSM": partial(_each_kind, _rfsm),
    "streaming": partial(_each_kind, _streaming),
    "narrow, sparse and streamed columns": _compact,
}


def in_both_forms(call, share):
    """`call(share)` run once, each kernel compiled in two forms taking
    the form that its work and the processors free give, then the other
    form of each compiled for the same argument types
    (:func:`.engines.compiled.threads.compile_twins`)."""
    def both():
        from .engines.compiled.threads import compile_twins
        call(share)
        compile_twins()
    return both


#: (what it compiles, the call with both forms of the kernels) for each
#: piece of the preparation (:func:`.engines.preparation.shares`), in the
#: order of a first use
WORKLOAD = [(name, in_both_forms(CALLS[part], (i, count)))
            for name, (part, i, count) in preparation.shares().items()]


def prepare(progress_callback=None, on_status=None, describe=None):
    """Compile every kernel of the compiled engine (:data:`WORKLOAD`) into
    the kernel folder and mark it ready; nothing to do where it is ready.
    A background preparation that runs hands the work over, which goes on
    from the part it was in; a foreground one (another ``orange-relief
    prepare``) is followed to its end.

    `progress_callback(fraction)` follows the parts' budgets;
    `on_status(state)` receives the state of the preparation as it changes
    (:class:`.engines.keeper.Run`: the part, the fraction done, the
    seconds elapsed and left); `describe(text)` a line on whose work it
    takes over or follows.

    Returns
    -------
    bool
        Whether the kernels are ready.

    Raises
    ------
    CacheError
        Where the kernel folder cannot be written.
    """
    def status(state):
        report(progress_callback, state.get("fraction", 0.0))
        if on_status is not None and "fraction" in state:
            on_status(state)

    def say(text):
        if describe is not None:
            describe(text)

    if preparation.is_ready():
        report(progress_callback, 1.0)
        return True
    folder = cache.ensure_kernel_folder()
    if folder is None:
        raise CacheError(cache.kernel_folder(), "it cannot be made or written")
    state = keeper.read_state(folder)
    if keeper.is_held(folder) and state.get("role") == "background":
        say(f"The compiled engine was being prepared in the background "
            f"({preparation.how_far(state)}); this command takes the work "
            f"over.")
    lock = keeper.take_over(folder)
    if lock is None:
        say("Another `orange-relief prepare` prepares it; its progress:")
    while lock is None:
        status(keeper.read_state(folder))
        time.sleep(1.0)
        if preparation.is_ready():
            report(progress_callback, 1.0)
            return True
        lock = keeper.take_over(folder)
    try:
        if preparation.is_ready():
            report(progress_callback, 1.0)
            return True
        keeper.Run(folder, lock, preparation.foreground_order(),
                   preparation.worker_command(),
                   preparation.worker_environment(), "foreground",
                   on_status=status,
                   workers=preparation.foreground_workers()).run()
    except keeper.Outcome as outcome:
        if outcome.kind == "unwritable":
            raise CacheError(folder, outcome.detail) from None
        return False
    finally:
        lock.release()
    return preparation.is_ready()


class CacheError(OSError):
    """The compiled engine's cache cannot be written: its folder, and
    why."""

    def __init__(self, folder, reason):
        super().__init__(f"cannot write the compiled engine's cache in "
                         f"{folder} ({reason})")
        self.folder, self.reason = folder, reason


def work(name, nice=None):
    """Prepare the part `name` of :data:`WORKLOAD` in this worker process
    (:class:`.engines.keeper.Worker`): its kernels compiled into the
    kernel folder, each version by one worker of the preparation at a
    time, the others loading it (:func:`.engines.compiled.locator.
    compile_alone`), its reports written to stdout a line of JSON each (the
    kernel it compiles, its processor seconds every second, an error where
    the cache cannot be written); exit status 0 when done,
    :data:`.engines.keeper.UNWRITABLE` when the cache could not be
    written.

    The worker ends when its parent (which writes nothing to its stdin)
    is gone, and when the kernel folder is deleted; SIGTERM ends it after
    the file it writes, and Ctrl-C is its parent's to handle.
    """
    if nice is not None:
        keeper.set_nice(nice)
    termination.install()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    folder = cache.kernel_folder()
    reports = Reports()
    # watched, and never made again, from before the compiled engine is
    # imported: a folder deleted while this worker runs is left alone
    cache.existing_only(end)
    watch(folder, reports)
    from numba.core import event

    from .engines.compiled.locator import compile_alone

    class Compiling(event.Listener):
        def on_start(self, ev):
            reports.send(kernel=ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Compiling())
    compile_alone()
    with forced(COMPILED):
        dict(WORKLOAD)[name]()
    if cache.write_failures:
        reports.send(error=cache.write_failures[0])
        return keeper.UNWRITABLE
    reports.send()
    return 0


class Reports:
    """A worker's reports: lines of JSON on stdout, each with the
    processor seconds so far."""

    def __init__(self):
        self.lock = threading.Lock()

    def send(self, **fields):
        line = json.dumps(dict(fields, cpu=time.process_time()))
        with self.lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()


def end():
    """End this worker at once: nobody will read what it compiles."""
    os._exit(1)


def watch(folder, reports, every=1.0):
    """Threads of a worker: its processor time reported every second; the
    worker ended at once (:func:`end`) when its parent is gone (its stdin
    ends) or the kernel folder is deleted (its lock file is unlinked), so
    that nothing is left compiling into a folder nobody will read."""
    try:
        lock = open(folder / keeper.LOCK, "rb")
    except OSError:  # deleted already
        end()

    def parent():  # the descriptor, not sys.stdin, whose buffer's lock
        while os.read(sys.stdin.fileno(), 4096):  # Python takes at exit
            pass
        end()

    def beat():
        while True:
            if os.fstat(lock.fileno()).st_nlink == 0:
                end()
            reports.send()
            time.sleep(every)

    for target in (parent, beat):
        threading.Thread(target=target, daemon=True).start()


def main(argv=None):
    """``python -m orangecontrib.relief.core.warmup --part NAME [--nice
    N]``: a worker of the preparation (:func:`work`)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=dict(WORKLOAD), required=True,
                        help="the part (or piece of one) of the "
                             "preparation to compile")
    parser.add_argument("--nice", type=int,
                        help="the worker's nice value (POSIX)")
    args = parser.parse_args(argv)
    try:
        return work(args.part, args.nice)
    except termination.Stopped as stop:
        return stop.status


if __name__ == "__main__":
    sys.exit(main())
