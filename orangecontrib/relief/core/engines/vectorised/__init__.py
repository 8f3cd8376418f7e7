"""The vectorised engine: numpy only, nothing to compile, behind
:class:`..interface.Engine`; :mod:`..compiled` is the other one.

* :mod:`.missing` -- Kononenko's RELIEF-D tables, by their definition;
* :mod:`.diffs` -- a block of references' distances to every instance;
* :mod:`.neighbours` -- the k nearest of each group by exact float64
  distance, the places of the tied by the tie rule; the class-dependent
  kNN's prototypes;
* :mod:`.farthest` -- mu-Relief's instances farthest from their class's
  mean distance;
* :mod:`.rules` -- the update rules, reference by reference in the
  compiled rules' order, so that both engines add the same terms in the
  same order;
* :mod:`.surf` -- the SURF family's distance-threshold neighbourhoods
  and rules;
* :mod:`.npdr` -- NPDR's neighbour pairs and per-attribute regressions;
* :mod:`.rfsm` -- RFSM's pair diffs and set values;
* :mod:`.interactions` -- the interaction map's sums over the pairs.
"""
from .diffs import reference_distances
from .farthest import mean_farthest_neighbours
from .missing import missing_diff_tables, tables
from .neighbours import find_neighbours, nearest_prototypes
from .interactions import map_sums, pair_sums
from .npdr import neighbour_pairs, pair_regressions
from .rfsm import backward_kernel, forward_kernel, pair_diffs, set_value
from .rules import (cdrelief_rule, double_relieff, iwcdrelief_rule,
                    neighbour_sums, relieff_rule, rrelieff_sums)
from .surf import radius_rule
from .wide import (add_distances, level_sums, level_tables,
                   plane_distances, sparse_distances)

__all__ = ["tables", "missing_diff_tables", "find_neighbours", "nearest_prototypes",
           "mean_farthest_neighbours",
           "relieff_rule", "rrelieff_sums", "cdrelief_rule",
           "iwcdrelief_rule", "double_relieff", "radius_rule",
           "neighbour_sums", "neighbour_pairs", "pair_regressions",
           "reference_distances",
           "pair_diffs", "set_value", "forward_kernel", "backward_kernel",
           "plane_distances", "add_distances", "sparse_distances",
           "level_tables", "level_sums", "pair_sums", "map_sums"]
