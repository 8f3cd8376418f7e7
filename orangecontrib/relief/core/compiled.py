"""The compiled engine (numba kernels) behind the interface of
:mod:`.engine`; :mod:`.vectorised` is the other one.

Importing this module imports numba; the first call of each kernel on a
new kind of data compiles it (or loads it from numba's on-disk cache).
"""
from .neighbours import find_neighbours
from .neighbours.prototypes import nearest_prototypes
from .rules import relieff_rule, rrelieff_sums
from .rules.radius import radius_rule
from .rules.classdep import cdrelief_rule, iwcdrelief_rule
from .rules.double import double_relieff
from .subsets.rfsm_kernels import (backward_kernel, forward_kernel,
                                   pair_diffs, set_value)

__all__ = ["find_neighbours", "nearest_prototypes", "relieff_rule",
           "rrelieff_sums", "cdrelief_rule", "iwcdrelief_rule",
           "double_relieff", "radius_rule", "pair_diffs", "set_value",
           "forward_kernel", "backward_kernel"]
