"""Every compiled kernel run once, so that numba compiles and caches it:
the preparation of the compiled engine (:mod:`.engines.preparation`).

:data:`WORKLOAD` is a list of small calls that, between them, reach every
kernel with every kind of argument a call of the add-on gives it:
numeric, nominal and mixed columns, missing values, every reference and
sampled ones, classes and a numeric target, every variant, STIR and NPDR.  A
test checks that after :func:`prepare` a wide range of calls compiles
nothing more.  ``python -m orangecontrib.relief.core.warmup --background``
is the background preparation; ``orange-relief prepare`` calls
:func:`prepare` with a progress bar.
"""
import argparse
import sys
import time

import numpy as np
from scipy import sparse

from . import (classdep, double, estimators, npdr, significance, streaming,
               surf)
from .columns import ArrayColumns
from .engines import COMPILED, forced, preparation
from .progress import report
from .subsets import RFSM, backward_elimination, greedy_forward
from .weighted_knn import fit_class_weights, predict_votes


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


def _each_kind(call):
    """`call(X, discrete)` on every kind of data."""
    for X, discrete in DATA.values():
        call(X, discrete)


def _relieff(X, discrete):
    for n_iterations in (None, SAMPLED):
        estimators.relieff(X, THREE, discrete, k_nearest=3,
                           n_iterations=n_iterations)
    estimators.relief(X, TWO, discrete)
    estimators.relieff(X, THREE, discrete, k_nearest=3,
                       distance_weights=np.linspace(0, 1, X.shape[1]))


def _rrelieff(X, discrete):
    for n_iterations in (None, SAMPLED):
        estimators.rrelieff(X, TARGET, discrete, k_nearest=3,
                            n_iterations=n_iterations)
    significance.rrelieff_rescorer(X, TARGET, discrete, k_nearest=3)(TARGET)


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
        # enough candidates x pairs for the kernels' parallel form
        many = np.tile(np.arange(X.shape[1]), PARALLEL_PAIRS // X.shape[1])
        measure.forward_values([0], many)
    wide = np.random.default_rng(1).random((WIDE, WIDE // 4))
    RFSM(wide, np.arange(WIDE) % 3, k_nearest=3).backward_values(
        np.arange(wide.shape[1]))


#: candidates x pairs and instances (x attributes / 4) of RFSM's calls
#: large enough for its kernels' parallel form (PARALLEL_WORK of
#: :mod:`.engines.compiled.rfsm`)
PARALLEL_PAIRS, WIDE = 12_000, 1000


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


def _compact():
    """The variants that read narrow, sparse and streamed columns as they
    are (:mod:`.compact`): bit planes, running sums with and without
    missing values, sparse rows, a source with a missing code."""
    genotypes = np.floor(DATA["numeric"][0] * 3).astype(np.int8)
    floats = DATA["missing"][0].astype(np.float32)
    coded = np.where(np.isnan(DATA["missing"][0]), -1, genotypes)
    kinds = [(genotypes, None), (genotypes > 0, None),
             (floats, DATA["missing"][1]),
             (sparse.csr_matrix(np.where(genotypes > 1, DATA["numeric"][0],
                                         0)), None),
             (sparse.csr_matrix(genotypes.astype(np.float32)), None),
             (ArrayColumns(coded.astype(np.int8), missing_code=-1), None)]
    for X, discrete in kinds:
        _relieff(X, discrete)
        _rrelieff(X, discrete)
        for method in surf.NEIGHBOURHOODS:
            surf.neighbourhood_sums(X, THREE, discrete, method=method,
                                    stir=True)
            surf.neighbourhood_sums(X, TARGET, discrete, method=method,
                                    task="regression")


#: (what it compiles, the call), in the order of a first use
WORKLOAD = [
    ("ReliefF and Relief", lambda: _each_kind(_relieff)),
    ("RReliefF", lambda: _each_kind(_rrelieff)),
    ("the SURF family and STIR", lambda: _each_kind(_surf)),
    ("NPDR", lambda: _each_kind(_npdr)),
    ("dReliefF and pdReliefF", lambda: _each_kind(_double)),
    ("CDRelief and IWCDRelief", lambda: _each_kind(_class_dependent)),
    ("the class-dependent kNN", lambda: _each_kind(_class_dependent_knn)),
    ("RFSM", lambda: _each_kind(_rfsm)),
    ("streaming", lambda: _each_kind(_streaming)),
    ("narrow, sparse and streamed columns", _compact),
]


def prepare(progress_callback=None, wait=True, describe=None):
    """Compile every kernel of the compiled engine (:data:`WORKLOAD`) into
    the kernel folder and mark it ready; nothing to do where it is ready.

    `progress_callback(fraction)` follows the workload, `describe(text)`
    receives each part's name.  With `wait` false, return at once if
    another process prepares (holds the lock).

    Returns
    -------
    bool
        Whether the kernels are ready.
    """
    with preparation.preparation_lock(wait) as held:
        if not held:
            return preparation.is_ready()
        if preparation.is_ready():
            report(progress_callback, 1.0)
            return True
        start = time.process_time()
        with forced(COMPILED):
            for done, (name, call) in enumerate(WORKLOAD):
                if describe is not None:
                    describe(name)
                call()
                report(progress_callback, (done + 1) / len(WORKLOAD))
        preparation.mark_ready(f"prepared in {time.process_time() - start:.1f}"
                               f" s of processor time")
        return True


def main(argv=None):
    """``python -m orangecontrib.relief.core.warmup [--background]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--background", action="store_true",
                        help="at the lowest priority, and only if no other "
                             "preparation runs")
    args = parser.parse_args(argv)
    if args.background:
        preparation.lower_priority()
    ready = prepare(wait=not args.background)
    return 0 if ready else 1


if __name__ == "__main__":
    sys.exit(main())
