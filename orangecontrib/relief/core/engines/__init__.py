"""Two engines, one result: which one computes a call.

Every variant is "prepare, find neighbours, apply a rule", and two engines
implement the neighbour search and the rules behind one interface
(:mod:`.interface`):

* ``compiled`` (:mod:`.compiled`): numba kernels, the fastest from a few
  thousand instances on (a float32 search of each pair once, in tiles,
  re-ranked exactly).  Numba compiles the kernels once for each cache
  folder and version of the sources and caches the machine code
  (:mod:`.cache`).
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
x attributes, is at most :data:`SMALL_WORK` runs on the vectorised engine
(loading the compiled kernels would take longer than it), unless this
process has loaded the compiled kernels of its part, or its small calls
of that part have together taken about as long as loading them would
(:data:`LOAD_SECONDS`): from then on they run on the compiled engine,
once it is prepared, for the parts whose weights are the same to the bit
on both engines (:data:`SAME_BITS`), so that a process's results never
depend on the calls it made before.  A larger call runs on the compiled
engine once the parts of the preparation that compile its kernels are
prepared (:mod:`.preparation`), and until then on the vectorised engine,
while a background process of low priority prepares them, the call's
parts first; where the vectorised engine would take much longer than
compiling the call's kernels and running them (:mod:`.costs`), the call
compiles them itself.  The environment
variable ``ORANGE_RELIEF_ENGINE`` (``auto``, ``compiled`` or
``vectorised``) overrides the choice; ``compiled`` compiles in the
calling process if it must.  Its fourth value, ``prefer-compiled``, is
that of many small problems (the experiments): the compiled engine
whatever the work once it is prepared, the vectorised one until then.
Any other value is refused, naming it (:func:`setting`).
"""
import os
from collections import namedtuple
from contextlib import contextmanager

import numpy as np

from ..errors import ReliefInputError
from ..progress import duration
from . import costs, preparation, vectorised
from .interface import Engine

COMPILED, VECTORISED = "compiled", "vectorised"
ENGINES = (COMPILED, VECTORISED)
AUTO = "auto"
#: the largest work (references x instances x attributes) that the
#: vectorised engine takes when the compiled one is prepared: 1000 x 1000
#: x 50, about a third of a second of numpy, less than loading the
#: compiled kernels
SMALL_WORK = 5e7
VARIABLE = "ORANGE_RELIEF_ENGINE"
#: the setting of many small problems: the compiled engine when prepared
PREFER_COMPILED = "prefer-compiled"
#: the parts of the preparation whose calls give the same weights to the
#: bit on both engines: their small calls may take the compiled engine
#: once this process has loaded its kernels (:func:`decide`)
SAME_BITS = (preparation.RELIEFF,)
#: about the wall seconds of loading the compiled engine into a process
#: (importing numba and reading a part's kernels from the cache): the
#: small calls of a part take the vectorised engine until they have
#: spent as long (by :func:`.costs.run_seconds`), then load the compiled
#: one, which is faster for every later call (rent, then buy)
LOAD_SECONDS = 0.5
#: the parts whose kernels the compiled engine ran in this process, and
#: the estimated seconds the vectorised engine spent on small calls of
#: each part (:func:`choose`)
_loaded, _small_seconds = set(), {}
#: the values of :data:`VARIABLE`
SETTINGS = (AUTO, COMPILED, VECTORISED, PREFER_COMPILED)


def setting():
    """The value of :data:`VARIABLE` (``auto`` where it is unset or
    empty); any other value than :data:`SETTINGS` is refused by name,
    rather than taken for ``auto``."""
    value = os.environ.get(VARIABLE, "").strip() or AUTO
    if value not in SETTINGS:
        raise ReliefInputError(
            f"{VARIABLE}={value!r} is not a setting of the engine; use "
            f"{', '.join(SETTINGS[:-1])} or {SETTINGS[-1]}.")
    return value


def check_engine(engine):
    """`engine` if it names an engine, else ReliefInputError."""
    if engine not in ENGINES:
        raise ReliefInputError(f"engine must be one of "
                               f"{', '.join(map(repr, ENGINES))}, "
                               f"got {engine!r}.")
    return engine


#: why an engine answers a call (:func:`decide`): an engine forced, small
#: work, small work of kernels this process has loaded (or whose small
#: calls took as long as loading them), the compiled engine prepared (or
#: the part of it the call needs), its kernels compiled first (quicker
#: than the vectorised engine), or the vectorised engine while the
#: compiled one is prepared
FORCED, SMALL, LOADED, PREPARED, COMPILE_FIRST, PREPARING = (
    "forced", "small", "loaded", "prepared", "compile first", "preparing")


def decide(work, parts=()):
    """(engine, why) of a call whose work (references x instances x
    attributes) is `work` and whose kernels the parts `parts` of the
    preparation compile (:data:`.preparation.PARTS`; none: all of them):
    see the module docstring; `why` is one of
    :data:`FORCED`, :data:`SMALL`, :data:`LOADED`, :data:`PREPARED`,
    :data:`COMPILE_FIRST` and :data:`PREPARING`.  Nothing is started
    here."""
    chosen = setting()
    if chosen in ENGINES:
        return chosen, FORCED
    ready = prepared_for(parts)
    if work <= SMALL_WORK and chosen != PREFER_COMPILED:
        return (COMPILED, LOADED) if ready and loaded(parts) else (
            VECTORISED, SMALL)
    if ready:
        return COMPILED, PREPARED
    if chosen == AUTO and costs.compiling_pays(work, parts):
        return COMPILED, COMPILE_FIRST
    return VECTORISED, PREPARING


def prepared_for(parts):
    """Whether the compiled engine is prepared, or the parts `parts` of its
    preparation are."""
    return preparation.is_ready() or preparation.parts_ready(parts)


def may_load(parts):
    """Whether small calls of the parts `parts` may take the compiled
    engine once loading it pays: parts of :data:`SAME_BITS`, all of
    them."""
    return bool(parts) and all(part in SAME_BITS for part in parts)


def loaded(parts):
    """Whether the small calls of the parts `parts` may take the compiled
    engine in this process: parts of :data:`SAME_BITS` whose kernels it
    ran, or whose small calls took :data:`LOAD_SECONDS` on the
    vectorised engine."""
    return may_load(parts) and all(
        part in _loaded or _small_seconds.get(part, 0.0) >= LOAD_SECONDS
        for part in parts)


def steady(engine, why, parts=()):
    """The engine that calls decided as `engine` for the reason `why`
    (:func:`decide`), of the parts `parts`, take in this process once it
    has made enough of them, the compiled engine prepared as far as it is
    now: `engine`, but the small calls that take the vectorised engine
    until loading the compiled one pays (:func:`loaded`) take the
    compiled one."""
    if why == SMALL and may_load(parts) and prepared_for(parts):
        return COMPILED
    return engine


#: what :func:`recording` notes of a call: the engine that answers it,
#: why (:func:`decide`), and the engine that calls of its work take once
#: this process has made enough of them (:func:`steady`)
Choice = namedtuple("Choice", "engine why steady")
#: the lists of the :func:`recording` blocks open now
_recordings = []


@contextmanager
def recording():
    """Within it, the choice of the engine of each call (:func:`choose`)
    is added to the list it gives, as a :class:`Choice`: which engine
    answered the calls a benchmark times, and whether more calls would
    take another."""
    choices = []
    _recordings.append(choices)
    try:
        yield choices
    finally:
        _recordings.remove(choices)


def choose(work, parts=()):
    """The engine of a call (:func:`decide`).  Where the vectorised engine
    answers large work because the compiled one is not prepared, the
    preparation starts in the background, the call's parts first.  The
    parts of a call on the compiled engine count as loaded, and a small
    call's estimated time on the vectorised engine counts towards loading
    them (:func:`loaded`).  Within :func:`recording`, the choice is
    noted."""
    engine, why = decide(work, parts)
    if why == PREPARING:
        preparation.start_in_background(parts)
    if _recordings:
        choice = Choice(engine, why, steady(engine, why, parts))
        for choices in _recordings:
            choices.append(choice)
    if engine == COMPILED:
        _loaded.update(parts)
    elif why == SMALL:
        seconds = costs.run_seconds(work, parts)[0] if parts else 0.0
        for part in parts:
            _small_seconds[part] = _small_seconds.get(part, 0.0) + seconds
    return engine


def choose_for(X, n_references=None, parts=()):
    """The engine of a call on data `X` (instances x attributes) with
    `n_references` references (None: every instance), whose kernels the
    parts `parts` of the preparation compile."""
    return choose(work_of(X, n_references), parts)


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


def waits_for_preparation(X, n_references=None, parts=()):
    """Whether a call on data `X` would run the compiled engine but is
    answered by the vectorised one because the compiled kernels are not
    prepared yet (what a person is told: :func:`status`)."""
    return decide(work_of(X, n_references), parts)[1] == PREPARING


def status(X, n_references=None, parts=(), passes=1):
    """One line on the engine that answers `passes` calls on `X`, for a
    person waiting for it, or None when there is nothing to say (small
    data, or an engine forced).  Where the vectorised engine answers
    while the compiled one is prepared, the line says how long each
    would take, and it starts the preparation, as the call will."""
    work = work_of(X, n_references)
    engine, why = decide(work, parts)
    if why in (FORCED, SMALL, LOADED):
        return None
    if why == PREPARED:
        return "Compiled engine (numba), prepared."
    load = costs.load_average()
    vectorised, compiled = costs.estimates(work, parts, passes, load)
    if why == COMPILE_FIRST:
        return (f"Compiled engine (numba): its kernels for this are "
                f"compiled first, about "
                f"{duration(costs.compile_seconds(parts, load))}"
                f", then about {duration(compiled)} of work (the vectorised "
                f"engine would take about {duration(vectorised)}).")
    line = preparation_status(parts)
    if vectorised >= LONG_RUN:
        line += (f" This takes about {duration(vectorised)} on the "
                 f"vectorised engine, about {duration(compiled)} on the "
                 f"compiled one once prepared.")
    return line


#: a run of the vectorised engine this long (seconds, estimated) is told
#: how long it would take on the compiled one
LONG_RUN = 60.0


def preparation_status(parts=()):
    """The line of a call that the vectorised engine answers while the
    compiled one is prepared; it starts the preparation, as the call
    will (the call's `parts` first)."""
    preparation.start_in_background(parts)
    return preparation.status_line()


def forced(engine):
    """Run the block with every call on `engine` (the setting is restored
    afterwards; processes started meanwhile inherit it)."""
    return _setting(check_engine(engine))


def preferring_compiled():
    """Run the block with every call on the compiled engine once it is
    prepared, on the vectorised one until then (:data:`PREFER_COMPILED`;
    restored afterwards, inherited by processes started meanwhile), unless
    :data:`VARIABLE` forces an engine, which is kept."""
    chosen = setting()
    return _setting(chosen if chosen in ENGINES else PREFER_COMPILED)


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


def kernels(engine: str) -> Engine:
    """The module that implements `engine`'s interface
    (:class:`.interface.Engine`: the estimators call its functions and
    nothing else of it).

    The compiled engine is imported here, on its first use, and not at the
    top of the module: importing it imports numba and declares every
    kernel, which a call on the vectorised engine never needs.
    """
    if check_engine(engine) == VECTORISED:
        return vectorised
    from . import compiled
    return compiled
