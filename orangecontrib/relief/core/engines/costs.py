"""Roughly how long a call takes on each engine, and its kernels to
compile: what a person is told before a long run on the vectorised
engine, and when compiling first is quicker than not.

A call's work is references x instances x attributes
(:func:`..engines.work_of`); its processor time on an engine is the work
times the engine's rate for the part of the preparation that compiles
the call's kernels (:data:`RATES`, measured by
``benchmarks/bench_engines.py``).  Both engines share a call's work among
the processors; on a busy machine they get what the others leave
(:func:`available_cores`), and the vectorised engine shares them with the
background preparation that a call it answers starts
(:func:`estimates`).  Estimates are good to a factor of two or
so: they say "about 6 min" against "about 40 s", not to the second.

This module imports no compiler.
"""
import os

from . import keeper, preparation

#: processor nanoseconds per unit of work (reference x instance x
#: attribute) of the vectorised and the compiled engine, for the calls of
#: each part of the preparation (4000 x 50 numeric data, every instance a
#: reference; measured on a 2-core AMD EPYC by benchmarks/bench_engines.py;
#: dReliefF and CDRelief taken as ReliefF).  ReliefF's vectorised rate
#: since its search reads a group's distances in place, in larger tiles:
#: core.relieff on 4000 x 50, processor time of 3 runs interleaved with
#: those of the search before (1.4 - 1.9) on the same machine under load
#: 8, 1.0 - 1.2
RATES = {preparation.RELIEFF: (1.1, 0.22),
         preparation.RRELIEFF: (1.3, 0.3),
         preparation.SURF: (3.5, 0.6),
         preparation.NPDR: (40.0, 11.0),
         preparation.DOUBLE: (1.1, 0.22),
         preparation.CLASS_DEPENDENT: (1.1, 0.22)}
#: the rates of a call of another part (or of no known part)
DEFAULT_RATES = RATES[preparation.RELIEFF]
#: the processor seconds a call takes to compile the kernels of each part
#: of the preparation itself: its own kernels only, for its kind of data
#: and in the form its size takes, well below the part's budget in
#: :data:`.preparation.PARTS`, which compiles them for every kind of data
#: and in both forms.  These are the parts' budgets with which compiling
#: first was chosen and the first-contact goals were met (not measured
#: again since), but the SURF family's: MultiSURF with STIR from an empty
#: cache, the processor time of its kernels' compilation (numba's compile
#: events), 92 s idle before its rules were compiled apart and each call
#: compiled only its own; after, 0.39 times as long as before with both
#: measured side by side on a busy 2-core AMD EPYC (53 s against 136 s);
#: then 0.66 times as long once its radius sums ran without numba's
#: parallel loop and its numeric calls without the diffs of any kind
#: (5000 x 100, 30.7 s against 46.6 s, one after the other at a load
#: average of 10 on the same machine)
COMPILE_FIRST_SECONDS = {
    preparation.RELIEFF: 52.0, preparation.RRELIEFF: 8.0,
    preparation.SURF: 24.0, preparation.NPDR: 22.0, preparation.DOUBLE: 8.0,
    preparation.CLASS_DEPENDENT: 16.0, preparation.KNN: 4.0,
    preparation.RFSM: 4.0, preparation.STREAMING: 4.0,
    preparation.COMPACT: 60.0}
#: compiling first must be this many times quicker than the vectorised
#: engine for a call to compile its kernels rather than wait
COMPILE_GAIN = 1.5


def load_average():
    """This machine's load average over the last minute (0 where it is not
    known)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def available_cores(beside=0, load=None):
    """The processors a computation can count on: those this process may
    use, less the load of the others (`load`, this machine's now if not
    given) and `beside` more busy threads (at least one)."""
    cores = keeper.processors()
    load = (load_average() if load is None else load) + beside
    return max(1.0, cores - load) if load < cores else cores / (1 + load)


def preparation_threads():
    """The busy threads that the background preparation adds beside a call
    that the vectorised engine answers while it runs (the call starts
    it): a worker per processor at full priority
    (:func:`.keeper.background_workers`), its last step, which it takes
    within about a minute on any machine, its budget at one processor
    (:func:`.preparation.budget`) being longer than its deadline
    (:data:`.keeper.DEADLINE`); none where it is switched off."""
    return (keeper.background_workers() if preparation.background_allowed()
            else 0)


def run_seconds(work, parts, passes=1, beside=(0, 0), load=None):
    """(vectorised, compiled) wall seconds of `passes` calls of `work`
    whose kernels the parts `parts` compile (the first of them sets the
    rates), each engine beside its number in `beside` of busy threads of
    ours, at the load average `load` (this machine's now if not given)."""
    rates = (RATES.get(parts[0], DEFAULT_RATES) if parts
             else DEFAULT_RATES)
    load = load_average() if load is None else load
    return tuple(work * passes * rate * 1e-9 / available_cores(threads, load)
                 for rate, threads in zip(rates, beside))


def estimates(work, parts, passes=1, load=None):
    """(vectorised, compiled) wall seconds of `passes` calls of `work`
    (:func:`run_seconds`) as a call would take them: the vectorised
    engine beside the background preparation it starts
    (:func:`preparation_threads`), the compiled one alone."""
    return run_seconds(work, parts, passes, (preparation_threads(), 0), load)


def compile_seconds(parts, load=None):
    """Wall seconds to compile the kernels of the parts `parts` not
    prepared yet, here (a single thread compiles): their seconds of
    :data:`COMPILE_FIRST_SECONDS`, on the processor they get at the load
    average `load` (this machine's now if not given)."""
    done = preparation.done_parts()
    return (sum(COMPILE_FIRST_SECONDS[part] for part in parts
                if part not in done)
            / min(1.0, available_cores(load=load)))


def compiling_pays(work, parts, passes=1):
    """Whether compiling the kernels of the parts `parts` and running the
    compiled engine beats the vectorised engine by :data:`COMPILE_GAIN`
    on `passes` calls of `work` (never for calls of unknown parts)."""
    if not parts:
        return False
    load = load_average()  # one look at the machine for every estimate
    vectorised, compiled = estimates(work, parts, passes, load)
    return vectorised > COMPILE_GAIN * (compile_seconds(parts, load)
                                        + compiled)
