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
:mod:`.formulas`.  The estimators put the steps together:
:mod:`.estimators` (Relief, ReliefF, RReliefF), :mod:`.murelief`
(mu-Relief), :mod:`.double` (dReliefF, pdReliefF), :mod:`.classdep`
(CDRelief, IWCDRelief), :mod:`.surf` (the SURF family, over the
distance-threshold neighbourhoods of :mod:`.formulas.neighbourhoods`),
:mod:`.swrf` (the SWRF family), :mod:`.turf`, :mod:`.iterative` (Iter),
:mod:`.vls`, :mod:`.npdr` (:mod:`.variants` names each variant's
estimator), :mod:`.multitarget` (several numeric targets or 0/1
labels); :mod:`.significance`
tests the weights (STIR, permutations, adjustments); :mod:`.streaming`
reads data larger than memory a chunk at a time; :mod:`.subsets` measures
and searches attribute sets (RFSM, Liu's consistency).  Selection:
:mod:`.resampling` draws resamples and folds, :mod:`.subset_relief`
weighs many subsets of the instances from one neighbour search,
:mod:`.stability` measures how stable a ranking is over resamples and
:mod:`.selection_curve` how many attributes to keep.  :mod:`.variants`
declares every variant once (the layers above read it), :mod:`.options`
every default and check, :mod:`.progress` the progress and cancellation
idiom.
"""
from .classdep import ClassDependentRelief, cdrelief, iwcdrelief
from .double import drelieff, pdrelieff, solve_s
from .errors import ReliefInputError
from .estimators import (rank_weights, reference_instances, relief, relieff,
                         rrelieff)
from .multitarget import (TargetWeights, relieff_multilabel,
                          rrelieff_multitarget)
from .neighbours import NeighbourLists, Neighbours
from .prepare import PreparedData, prepare
from .progress import Interrupted
from .subsets import (RFSM, Consistency, SetMeasure, backward_elimination,
                      branch_and_bound, greedy_forward, rfsm_value)
from .threshold import chebyshev_threshold, select_features

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
