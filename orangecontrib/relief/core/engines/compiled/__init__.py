"""The compiled engine: numba kernels behind :class:`..interface.Engine`;
:mod:`..vectorised` is the other one.

Importing this package imports numba and first points numba's cache at
the kernel folder of :mod:`..cache` (:mod:`.locator`); the first call of
each kernel then loads its machine code from there, or compiles it.  The
modules, in the order a call uses them:

* :mod:`.diffs` -- diff(A, I_i, I_j) in float32 and float64, inlined;
* :mod:`.missing` -- Kononenko's RELIEF-D tables;
* :mod:`.search_tables` -- step 1's float32 search tables;
* :mod:`.neighbours` -- step 2, the exact top-k search;
* :mod:`.rules` -- step 3, the update rules (several targets' in
  :mod:`.rules.targets`) and the SURF family's neighbourhoods;
* :mod:`.npdr` -- NPDR's neighbour pairs and per-attribute regressions;
* :mod:`.streamed` -- distances of streamed rows to sampled references;
* :mod:`.rfsm` -- RFSM's pair diffs and set values;
* :mod:`.interactions` -- the interaction map's sums over the pairs.

The preparation compiles every kernel once per cache folder, minutes of
processor time, so the kernels spare the compiler where it costs nothing
at run time: the body of a parallel loop whose body is large is a kernel
of its own, called once per iteration (numba's passes over a parallel
loop then see a call, and both forms of :func:`.threads.
serial_and_parallel` share its machine code); arrays are copied element
by element, not by slice assignment, whose check of the shapes compiles
numba's formatter of the error message, seconds in each process that
compiles one.
"""
from . import locator  # noqa: F401  (before any kernel is declared)
from .neighbours import find_neighbours
from .neighbours.farthest import mean_farthest_neighbours
from .neighbours.prototypes import nearest_prototypes
from .neighbours.wide import (add_distances, level_sums, level_tables,
                              plane_distances, sparse_distances)
from .interactions import map_sums, pair_sums
from .npdr import neighbour_pairs, pair_regressions
from .rfsm import backward_kernel, forward_kernel, pair_diffs, set_value
from .rules import relieff_rule, rrelieff_sums
from .rules.classdep import cdrelief_rule, iwcdrelief_rule
from .rules.double import double_relieff
from .rules.surf import radius_rule
from .rules.targets import neighbour_sums
from .missing import missing_diff_tables
from .search_tables import tables
from .streamed import reference_distances

__all__ = ["tables", "missing_diff_tables", "find_neighbours", "nearest_prototypes",
           "mean_farthest_neighbours",
           "relieff_rule", "rrelieff_sums", "cdrelief_rule",
           "iwcdrelief_rule", "double_relieff", "radius_rule",
           "neighbour_sums", "neighbour_pairs", "pair_regressions",
           "reference_distances",
           "pair_diffs", "set_value", "forward_kernel", "backward_kernel",
           "plane_distances", "add_distances", "sparse_distances",
           "level_tables", "level_sums", "pair_sums", "map_sums"]
