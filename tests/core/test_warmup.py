"""After the compiled engine's preparation, no public call compiles again.

:data:`core.warmup.WORKLOAD` is what ``orange-relief prepare`` and the
background preparation compile.  A call that numba meets with argument
types the workload never gave a kernel (float32 data, a Fortran-ordered
or read-only array, unsigned bytes, another size's code path)
compiles a second signature of that kernel: for the person, the wait
the preparation was meant to spare.  Here a fresh process runs the workload, notes every
kernel's signatures, then makes the public calls of :data:`CALLS` on
inputs of every usual kind, and the signatures must not change.  Those
calls are small, so they take the serial form of the kernels compiled
serial and parallel; a larger call takes the parallel form with the same
argument types, so the workload must leave both forms of each with the
same signatures.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy import sparse

from orangecontrib.relief.core import (RFSM, backward_elimination,
                                       greedy_forward)
from orangecontrib.relief.core.variants import (classdep, double, estimators,
                                                multitarget, murelief,
                                                streaming, surf, swrf, turf)
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.analysis.weighted_knn import (fit_class_weights,
                                                             predict_votes)
from orangecontrib.relief.core.engines.compiled.neighbours.panels import (
    smallest_budget)
from orangecontrib.relief.core.engines.compiled.neighbours.sides import (
    bytes_of)
from orangecontrib.relief.core.engines.compiled.rules.surf import PANEL
from orangecontrib.relief.core.warmup import distance_budget

#: the kernels' package
KERNELS = "orangecontrib.relief.core.engines.compiled"
ROOT = Path(__file__).resolve().parents[2]


def dispatchers():
    """{name: dispatcher} of every numba dispatcher of KERNELS' modules,
    those of a kernel's serial and parallel forms (a tuple of two) by
    the tuple's name and their place in it."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    package = importlib.import_module(KERNELS)
    found = {}
    for info in pkgutil.walk_packages(package.__path__, KERNELS + "."):
        for name, value in vars(importlib.import_module(info.name)).items():
            forms = value if isinstance(value, tuple) else (value,)
            for place, form in enumerate(forms):
                if isinstance(form, CPUDispatcher):
                    found[f"{info.name}.{name}"
                          + (f"[{place}]" if forms is value else "")] = form
    return found


def signatures():
    """{kernel: its compiled signatures, as text}."""
    return {name: sorted(map(str, dispatcher.signatures))
            for name, dispatcher in dispatchers().items()}


def inputs(folder, n=300, a=12):
    """Data of n instances (more than a tile of the all-pairs search) in
    every form a caller gives: {name: (X, discrete)} and the targets."""
    rng = np.random.default_rng(0)
    numeric = rng.random((n, a))
    nominal = np.arange(a) % 3 == 0
    mixed = np.where(nominal, rng.integers(0, 3, (n, a)), numeric)
    memmap = np.lib.format.open_memmap(folder / "X.npy", mode="w+",
                                       shape=(n, a), dtype=np.float32)
    memmap[:] = numeric
    memmap.flush()
    readonly = np.load(folder / "X.npy", mmap_mode="r")
    frozen = mixed.copy()
    frozen.flags.writeable = False
    missing = np.where(rng.random((n, a)) < 0.1, np.nan, mixed)
    data = {"float64": (numeric, None),
            "float32": (numeric.astype(np.float32), None),
            "Fortran": (np.asfortranarray(mixed), nominal),
            "int": (mixed.astype(np.int64), nominal.astype(int)),
            "bool": (mixed > 0.5, list(nominal)),
            "read-only memmap": (readonly, None),
            "read-only mixed": (frozen, nominal),
            "missing": (missing, nominal),
            "Fortran missing": (np.asfortranarray(missing.astype(np.float32)),
                                nominal),
            "int8": (np.floor(numeric * 3).astype(np.int8), None),
            "uint8": (np.floor(numeric * 3).astype(np.uint8), None),
            "sparse": (sparse.csr_matrix(np.where(numeric > 0.7, numeric, 0)),
                       None)}
    targets = {"classes": np.arange(n) % 3,
               "float classes": (np.arange(n) % 2).astype(np.float32),
               "bool classes": np.arange(n) % 2 == 0,
               "target": numeric[:, 0].astype(np.float32) + rng.random(n)}
    return data, targets


def _relieff(X, discrete, t, folder):
    for n_iterations in (None, 40):
        estimators.relieff(X, t["classes"], discrete, k_nearest=5,
                           n_iterations=n_iterations)
    estimators.relieff(X, t["bool classes"], discrete,
                       distance_weights=np.linspace(0, 1, X.shape[1],
                                                    dtype=np.float32))
    estimators.relief(X, t["float classes"], discrete)
    estimators.rrelieff(X, t["target"], discrete, k_nearest=5)
    estimators.rrelieff(X, t["target"], discrete, n_iterations=40)
    murelief.murelief(X, t["classes"], discrete, k_nearest=5)
    murelief.murelief(X, t["bool classes"], discrete, n_iterations=40,
                      convention="scikit-rebate")


def _surf(X, discrete, t, folder):
    for method in surf.NEIGHBOURHOODS:
        surf.neighbourhood_sums(X, t["classes"], discrete, method=method,
                                stir=True)
        surf.neighbourhood_sums(X, t["target"], discrete, method=method,
                                task="regression", n_iterations=40)
    significance.stir(X, t["bool classes"], discrete)
    significance.surf_rescorer(X, t["classes"], discrete).many(
        [t["classes"], t["classes"][::-1]])
    turf.turf(surf.multisurf, X, t["classes"], discrete)
    swrf.swrf_weights(X, t["target"], discrete, method="swrf",
                      task="regression", convention="scikit-rebate")
    with distance_budget():  # data above the budget of kept distances
        surf.surf(X, t["classes"], discrete)
        surf.surf(X, t["target"], discrete, task="regression")
        swrf.swrf_weights(X, t["bool classes"], discrete, method="swrf*")
        swrf.swrf_weights(X, t["target"], discrete, method="swrf",
                          task="regression", convention="scikit-rebate")
    with distance_budget(bytes_of(X.shape[0])):  # the sides of SURF's pairs
        surf.surf(X, t["classes"], discrete)
        surf.surfstar(X, t["target"], discrete, task="regression")
    with distance_budget(smallest_budget(PANEL)):  # by panels
        surf.multisurf(X, t["classes"], discrete)


def _others(X, discrete, t, folder):
    double.drelieff(X, t["classes"], discrete, k_nearest=5)
    double.pdrelieff(X, t["float classes"], discrete, n_iterations=40)
    classdep.cdrelief(X, t["classes"], discrete, k_nearest=5)
    classdep.iwcdrelief(X, t["bool classes"], discrete, k_nearest=5)
    significance.rrelieff_rescorer(X, t["target"], discrete)(t["target"])
    significance.permutation_pvalues(estimators.relieff, X, t["classes"],
                                     discrete, n_permutations=3)
    if not sparse.issparse(X):  # several targets weigh dense arrays
        targets = np.c_[t["target"], t["target"][::-1]]
        multitarget.rrelieff_multitarget(X, targets, discrete, k_nearest=5)
        multitarget.relieff_multilabel(X, targets > 1, discrete,
                                       n_iterations=40)
    if sparse.issparse(X) or np.isnan(X).any():
        return  # the learner imputes before it weighs (dense data)
    weights = fit_class_weights(X, t["classes"], discrete, 3, k=5)
    predict_votes(X, t["classes"], weights, discrete, X[:7], 5)


def _rfsm(X, discrete, t, folder):
    for y, task in ((t["classes"], "classification"),
                    (t["target"], "regression")):
        measure = RFSM(X, y, discrete, task=task, k_nearest=5)
        greedy_forward(measure)
        backward_elimination(measure)


def _streaming(X, discrete, t, folder):
    if sparse.issparse(X) or np.isnan(X).any():
        return  # streaming refuses missing values (and reads dense rows)
    streaming.relieff_streaming(X, t["classes"], discrete, n_iterations=40,
                                k_nearest=5, chunk_rows=64)
    streaming.relieff_streaming(folder / "X.npy", t["float classes"],
                                n_iterations=40, chunk_rows=100)


#: the public calls, each made on every kind of data of :func:`inputs`
CALLS = {"ReliefF, Relief, RReliefF and mu-Relief": _relieff,
         "the SURF family, STIR and TuRF": _surf,
         "dReliefF, CDRelief, permutations, several targets, the kNN":
             _others,
         "RFSM": _rfsm,
         "streaming": _streaming}


def child(folder):
    """In this fresh process: the workload, then every call of CALLS on
    every kind of data; prints {call: {kernel: new signatures}} as JSON,
    the workload's kernels compiled in one of their two forms only under
    "the workload, in one form only"."""
    from orangecontrib.relief.core import warmup
    from orangecontrib.relief.core.engines import COMPILED, forced
    from orangecontrib.relief.core.engines.compiled.threads import (
        one_form_only)

    with forced(COMPILED):
        for _, call in warmup.WORKLOAD:
            call()
        new = {}
        lopsided = {kernel.py_func.__qualname__: list(map(str, lacks))
                    for kernel, lacks in one_form_only().items()}
        if lopsided:
            new["the workload, in one form only"] = lopsided
        prepared = signatures()
        data, targets = inputs(Path(folder))
        for name, call in CALLS.items():
            for kind, (X, discrete) in data.items():
                call(X, discrete, targets, Path(folder))
                now = signatures()
                grown = {kernel: sorted(set(now[kernel]) - set(before))
                         for kernel, before in prepared.items()
                         if now[kernel] != before}
                if grown:
                    new[f"{name} on {kind} data"] = grown
                prepared = now
    print(json.dumps(new))


def new_signatures(folder):
    """child()'s answer, from a fresh process sharing this one's numba
    cache (the workload's kernels are loaded, not compiled, once cached)."""
    environment = dict(os.environ, ORANGE_RELIEF_BACKGROUND="0")
    environment.pop("ORANGE_RELIEF_ENGINE", None)
    program = ("import sys; from tests.core.test_warmup import child; "
               "child(sys.argv[1])")
    done = subprocess.run([sys.executable, "-c", program, str(folder)],
                          cwd=ROOT, env=environment, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_no_public_call_compiles_after_the_preparation(tmp_path):
    assert new_signatures(tmp_path) == {}
