"""The vectorised engine: numpy only, nothing to compile.

It implements the interface of :mod:`..engine` for small problems, where
a compiled kernel would spend far longer compiling than computing:

* :mod:`.missing` -- Kononenko's RELIEF-D tables, by their definition;
* :mod:`.diffs` -- the diffs of instance pairs and the exact distance;
* :mod:`.neighbours` -- the k nearest of each group by exact float64
  distance, ties to the lower index; the class-dependent kNN's prototypes;
* :mod:`.rules` -- the update rules, reference by reference in the
  compiled rules' order, so that both engines add the same terms in the
  same order;
* :mod:`.radius` -- the SURF family's distance-threshold neighbourhoods
  and rules;
* :mod:`.rfsm` -- RFSM's pair diffs and set values.
"""
from .neighbours import find_neighbours, nearest_prototypes
from .radius import radius_rule
from .rfsm import backward_kernel, forward_kernel, pair_diffs, set_value
from .rules import (cdrelief_rule, double_relieff, iwcdrelief_rule,
                    relieff_rule, rrelieff_sums)

__all__ = ["find_neighbours", "nearest_prototypes", "relieff_rule",
           "rrelieff_sums", "cdrelief_rule", "iwcdrelief_rule",
           "double_relieff", "radius_rule", "pair_diffs", "set_value",
           "forward_kernel", "backward_kernel"]
