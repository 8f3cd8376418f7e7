"""The Relief family in plain numpy and numba, with no Orange or Qt import.

Every variant is three steps: :func:`prepare` the data (:mod:`.prepare`,
with the tables of :mod:`.tables`), find the near hits and misses (the
k-nearest lists of :mod:`.neighbours`, whose tied candidates share the
places left, :mod:`.formulas.ties`), and apply an update rule.  Two
engines run the steps behind one interface (:mod:`.engines`,
:mod:`.engines.interface`): the compiled one (numba,
:mod:`.engines.compiled`, loaded only when it runs and prepared ahead of
use, :mod:`.engines.preparation`) and the vectorised one (numpy,
:mod:`.engines.vectorised`); what both compute is defined once in
:mod:`.formulas`.  The folders follow the pipeline:

* here, the infrastructure every step reads: :mod:`.registry` declares
  every variant once (the layers above read it), :mod:`.options` every
  default and check, :mod:`.validation` checks them once where a call
  enters, :mod:`.progress` the progress and cancellation idiom; step 1
  (:mod:`.prepare`, :mod:`.targets`, :mod:`.values`, :mod:`.tables`,
  :mod:`.columns`, :mod:`.sampling`) and what step 2 hands to the rules
  (:mod:`.neighbours`); :mod:`.steps` shows the steps one reference at a
  time, :mod:`.generators` makes the papers' artificial problems;
* :mod:`.variants` -- the estimators, a module per family (Relief,
  ReliefF and RReliefF in :mod:`.variants.estimators`, the SURF and SWRF
  families, dReliefF, CDRelief, mu-Relief, NPDR, several targets, TuRF,
  VLS, Iter);
* :mod:`.analysis` -- what the weights are used for: choosing attributes,
  significance (STIR, permutations, adjustments), resampling, stability,
  the selection curve;
* :mod:`.networks` -- which attributes act together: the interaction
  map, reGAIN, EpistasisRank;
* :mod:`.subsets` -- measures of attribute sets and the searches over
  them (RFSM, Liu's consistency); :mod:`.compact` -- narrow, sparse and
  column-block data, never widened.
"""
from .variants.classdep import ClassDependentRelief, cdrelief, iwcdrelief
from .variants.double import drelieff, pdrelieff, solve_s
from .errors import ReliefInputError
from .variants.estimators import (rank_weights, reference_instances, relief,
                                  relieff, rrelieff)
from .variants.multitarget import (TargetWeights, relieff_multilabel,
                                   rrelieff_multitarget)
from .neighbours import NeighbourLists, Neighbours
from .prepare import PreparedData, prepare
from .progress import Interrupted
from .subsets import (RFSM, Consistency, SetMeasure, backward_elimination,
                      branch_and_bound, greedy_forward, rfsm_value)
from .analysis.threshold import chebyshev_threshold, select_features

__all__ = ["ReliefInputError", "Interrupted", "relief", "relieff", "rrelieff",
           "reference_instances", "rank_weights", "prepare", "PreparedData",
           "find_neighbours", "Neighbours", "NeighbourLists",
           "chebyshev_threshold", "select_features",
           "drelieff", "pdrelieff", "solve_s",
           "RFSM", "rfsm_value", "Consistency", "SetMeasure", "greedy_forward",
           "backward_elimination", "branch_and_bound",
           "cdrelief", "iwcdrelief", "ClassDependentRelief",
           "rrelieff_multitarget", "relieff_multilabel", "TargetWeights"]


def __getattr__(name):
    # the compiled engine's search imports numba: loaded on first use
    if name == "find_neighbours":
        from .engines.compiled.neighbours import find_neighbours
        return find_neighbours
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
