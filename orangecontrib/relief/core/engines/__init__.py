"""Two engines, one result: which one computes a call.

Every variant is "prepare, find neighbours, apply a rule", and two engines
implement the neighbour search and the rules behind one interface
(:mod:`.interface`):

* ``compiled`` (:mod:`.compiled`): numba kernels, the fastest from a few
  thousand instances on (a float32 search of each pair once, in tiles,
  re-ranked exactly).  Numba compiles the kernels once per installation
  and caches the machine code (:mod:`.cache`).
* ``vectorised`` (:mod:`.vectorised`): numpy only, nothing to compile.

Both compute the same float64 formulas (:mod:`..formulas`), hand the same
neighbour lists to the rules (:mod:`..neighbours`: by exact distance, then
instance index, the places of tied candidates by the tie rule), and are
tested against the same slow literal implementations.  They add the same
terms in the same order, the RELIEF-D expectations of missing values
included, so their distances, their ties and their weights are
identical (the SURF family's compiled engine adds its references class
by class, so its weights agree to rounding, with the same thresholds and
neighbourhoods).

Nobody waits for the compiler.  A call whose work, references x instances
x attributes, is at most :data:`SMALL_WORK` runs on the vectorised engine;
a larger one runs on the compiled engine once its kernels are prepared
(:mod:`.preparation`), and until then on the vectorised engine, while a
background process of low priority prepares them.  The environment
variable ``ORANGE_RELIEF_ENGINE`` (``auto``, ``compiled`` or
``vectorised``) overrides the choice; ``compiled`` compiles in the
calling process if it must.  Its fourth value, ``prefer-compiled``, is
that of many small problems (the experiments): the compiled engine
whatever the work once it is prepared, the vectorised one until then.
"""
import os
from contextlib import contextmanager

import numpy as np

from ..errors import ReliefInputError
from . import preparation, vectorised

COMPILED, VECTORISED = "compiled", "vectorised"
ENGINES = (COMPILED, VECTORISED)
#: the largest work (references x instances x attributes) that the
#: vectorised engine takes when the compiled one is prepared: 1000 x 1000
#: x 50, about a third of a second of numpy, less than loading the
#: compiled kernels
SMALL_WORK = 5e7
VARIABLE = "ORANGE_RELIEF_ENGINE"
#: the setting of many small problems: the compiled engine when prepared
PREFER_COMPILED = "prefer-compiled"


def check_engine(engine):
    """`engine` if it names an engine, else ReliefInputError."""
    if engine not in ENGINES:
        raise ReliefInputError(f"engine must be one of "
                               f"{', '.join(map(repr, ENGINES))}, "
                               f"got {engine!r}.")
    return engine


def choose(work):
    """The engine of a call whose work (references x instances x
    attributes) is `work`: see the module docstring.  Choosing the
    vectorised engine for large work because the compiled one is not
    prepared starts its preparation in the background."""
    setting = os.environ.get(VARIABLE, "auto")
    if setting in ENGINES:
        return setting
    if work <= SMALL_WORK and setting != PREFER_COMPILED:
        return VECTORISED
    if preparation.is_ready():
        return COMPILED
    preparation.start_in_background()
    return VECTORISED


def choose_for(X, n_references=None):
    """The engine of a call on data `X` (instances x attributes) with
    `n_references` references (None: every instance)."""
    return choose(work_of(X, n_references))


def work_of(X, n_references=None):
    """references x instances x attributes of a call on data `X` with
    `n_references` references (None: every instance); 0 for what is not
    a table (the preparation will say what is wrong)."""
    try:
        shape = np.shape(X)
    except ValueError:  # ragged rows
        shape = ()
    if len(shape) != 2:
        return 0
    n, a = shape
    m = n if n_references is None else n_references  # drawn with replacement
    return m * n * a


def waits_for_preparation(X, n_references=None):
    """Whether a call on data `X` would run the compiled engine but is
    answered by the vectorised one because the compiled kernels are not
    prepared yet (what a person is told: :func:`status`)."""
    return (os.environ.get(VARIABLE, "auto") not in ENGINES
            and work_of(X, n_references) > SMALL_WORK
            and not preparation.is_ready())


def status(X, n_references=None):
    """One line on the engine that answers a call on `X`, for a person
    waiting for it, or None when there is nothing to say (small data, or
    an engine forced).  Where the call waits for the preparation, it
    starts it, as the call will."""
    if (os.environ.get(VARIABLE, "auto") in ENGINES
            or work_of(X, n_references) <= SMALL_WORK):
        return None
    if preparation.is_ready():
        return "Compiled engine (numba), prepared."
    return preparation_status()


def preparation_status():
    """The line of a call that the vectorised engine answers while the
    compiled one is prepared; it starts the preparation, as the call
    will."""
    preparation.start_in_background()
    return preparation.status_line()


def forced(engine):
    """Run the block with every call on `engine` (the setting is restored
    afterwards; processes started meanwhile inherit it)."""
    return _setting(check_engine(engine))


def preferring_compiled():
    """Run the block with every call on the compiled engine once it is
    prepared, on the vectorised one until then (:data:`PREFER_COMPILED`;
    restored afterwards, inherited by processes started meanwhile)."""
    return _setting(PREFER_COMPILED)


@contextmanager
def _setting(value):
    previous = os.environ.get(VARIABLE)
    os.environ[VARIABLE] = value
    try:
        yield
    finally:
        if previous is None:
            del os.environ[VARIABLE]
        else:
            os.environ[VARIABLE] = previous


def kernels(engine):
    """The module that implements `engine`'s interface
    (:class:`.interface.Engine`).

    The compiled engine is imported here, on its first use, and not at the
    top of the module: importing it imports numba and declares every
    kernel, which a call on the vectorised engine never needs.
    """
    if check_engine(engine) == VECTORISED:
        return vectorised
    from . import compiled
    return compiled
