"""The Relief family in plain numpy and numba, with no Orange or Qt import.

Every variant is three steps: :func:`prepare` the data, find the near hits
and misses (:mod:`.neighbours`), and apply an update rule (:mod:`.rules`).
"""
from .errors import ReliefInputError
from .estimators import relief, relieff, rrelieff, reference_instances, rank_weights
from .prepare import prepare, PreparedData
from .neighbours import find_neighbours
from .threshold import chebyshev_threshold, select_features
from .double import drelieff, pdrelieff, solve_s
from .rfsm import RFSM, rfsm_value
from .consistency import Consistency
from .search import (SetMeasure, greedy_forward, backward_elimination,
                     branch_and_bound)
from .classdep import cdrelief, iwcdrelief, ClassDependentRelief

__all__ = ["ReliefInputError", "relief", "relieff", "rrelieff",
           "reference_instances", "rank_weights", "prepare", "PreparedData",
           "find_neighbours", "chebyshev_threshold", "select_features",
           "drelieff", "pdrelieff", "solve_s",
           "RFSM", "rfsm_value", "Consistency", "SetMeasure", "greedy_forward",
           "backward_elimination", "branch_and_bound",
           "cdrelief", "iwcdrelief", "ClassDependentRelief"]
