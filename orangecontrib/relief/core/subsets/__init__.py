"""Measures of attribute *sets* and the searches over them (Arauzo-Azofra,
Benitez & Castro): a search proposes sets, a measure scores them.

* :mod:`.measure` -- the interface every set measure has;
* :mod:`.rfsm` -- RFSM, the Relief feature set measure;
* :mod:`.consistency` -- Liu's consistency;
* :mod:`.searches` -- greedy forward, backward elimination and Liu's
  automatic branch and bound.
"""
from .consistency import Consistency
from .measure import SetMeasure
from .rfsm import RFSM, rfsm_value
from .searches import (SEARCHES, SearchResult, SearchStep,
                       backward_elimination, branch_and_bound, greedy_forward)

__all__ = ["Consistency", "SetMeasure", "RFSM", "rfsm_value", "SEARCHES",
           "SearchResult", "SearchStep", "backward_elimination",
           "branch_and_bound", "greedy_forward"]
