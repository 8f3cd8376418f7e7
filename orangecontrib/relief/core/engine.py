"""Two engines, one result: which one computes a call.

Every variant is "prepare, find neighbours, apply a rule", and two engines
implement the neighbour search and the rules behind one interface:

* ``compiled`` (:mod:`.compiled`): numba kernels, the fastest from a few
  thousand instances on (a float32 search of each pair once, in tiles,
  re-ranked exactly).  Numba compiles each kind of work the first time it
  runs, about a minute for all of them, once per installation (the
  machine code is cached on disk).
* ``vectorised`` (:mod:`.vectorised`): numpy only, no compilation: small
  problems are answered at once, on a fresh installation too.

Both compute the same float64 formulas, with neighbour ties going to the
lower instance index, and are tested against the same slow literal
implementations.  They add the same terms in the same order, the
RELIEF-D expectations of missing values included, so their distances,
their ties and their weights are identical (the SURF family's compiled
engine adds its references class by class, so its weights agree to
rounding, with the same thresholds and neighbourhoods).  A
call uses the vectorised engine when its work, references x instances x
attributes, is at most :data:`SMALL_WORK`, and the compiled one
otherwise.  The environment variable ``ORANGE_RELIEF_ENGINE`` (``auto``,
``compiled`` or ``vectorised``) overrides the choice, for tests and
benchmarks.
"""
import importlib
import os
from contextlib import contextmanager

import numpy as np

from .errors import ReliefInputError

COMPILED, VECTORISED = "compiled", "vectorised"
ENGINES = (COMPILED, VECTORISED)
#: the largest work (references x instances x attributes) that the
#: vectorised engine takes in auto mode: 1000 x 1000 x 50, about a third
#: of a second of numpy
SMALL_WORK = 5e7
VARIABLE = "ORANGE_RELIEF_ENGINE"


def check_engine(engine):
    """`engine` if it names an engine, else ReliefInputError."""
    if engine not in ENGINES:
        raise ReliefInputError(f"engine must be one of "
                               f"{', '.join(map(repr, ENGINES))}, "
                               f"got {engine!r}.")
    return engine


def choose(work):
    """The engine of a call whose work (references x instances x
    attributes) is `work`: see the module docstring."""
    setting = os.environ.get(VARIABLE, "auto")
    if setting in ENGINES:
        return setting
    return VECTORISED if work <= SMALL_WORK else COMPILED


def choose_for(X, n_references=None):
    """The engine of a call on data `X` (instances x attributes) with
    `n_references` references (None: every instance)."""
    try:
        shape = np.shape(X)
    except ValueError:  # ragged rows
        shape = ()
    if len(shape) != 2:
        return choose(0)  # the preparation will say what is wrong
    n, a = shape
    m = n if n_references is None else n_references  # drawn with replacement
    return choose(m * n * a)


@contextmanager
def forced(engine):
    """Run the block with every call on `engine` (the setting is restored
    afterwards; processes started meanwhile inherit it)."""
    previous = os.environ.get(VARIABLE)
    os.environ[VARIABLE] = check_engine(engine)
    try:
        yield
    finally:
        if previous is None:
            del os.environ[VARIABLE]
        else:
            os.environ[VARIABLE] = previous


#: the compiled engine's main kernel of each kind of work: module, function
KERNELS = {"neighbours": ("neighbours.tiles", "search_all_pairs"),
           "radius": ("rules.radius", "radius_sums")}


def compiled_is_cached(kernel="neighbours"):
    """Whether numba's on-disk cache already holds the compiled engine's
    main `kernel` (:data:`KERNELS`: the all-pairs search of the k-nearest
    variants, or the SURF family's rows), i.e. whether its first use in
    this process loads machine code rather than compiling for about a
    minute.

    Imports the compiled engine (and numba).  A cache that holds the kernel
    for other kinds of data than the next call's still compiles those.
    """
    module, name = KERNELS[kernel]
    function = getattr(importlib.import_module(f".{module}", __package__),
                       name)
    cache = getattr(function, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return index is not None and os.path.exists(index)


#: what a person is told while the compiled engine compiles
PREPARING = ("Preparing the fast core (first use only): numba compiles it "
             "once, about a minute; later calls take seconds.")


def needs_compiling(X, n_references=None, kernel="neighbours"):
    """Whether a call on data `X` with `n_references` references will run
    the compiled engine's `kernel` before numba has cached it
    (:data:`PREPARING`)."""
    return (choose_for(X, n_references) == COMPILED
            and not compiled_is_cached(kernel))


def kernels(engine):
    """The module that implements `engine`'s interface (imported on first
    use: the compiled engine imports numba)."""
    return importlib.import_module(f".{check_engine(engine)}", __package__)
