"""Step 3: the update rules, applied to the neighbours the search found.

Each rule reads the float64 exact tables, so the weights are exact given
the neighbours.  References are processed in fixed blocks whose partial
sums are added in block order: the result does not depend on the number of
threads.

* :mod:`.relieff` -- Relief, ReliefF and RReliefF;
* :mod:`.double` -- double ReliefF's loop of search and rule;
* :mod:`.classdep` -- CDRelief and IWCDRelief;
* :mod:`.targets` -- multi-target RReliefF's and multi-label ReliefF's
  sums, every ranking's in one pass;
* :mod:`.surf` -- the SURF family's rules and STIR's sums, with
  :mod:`.unrolled` adding numeric data's terms four references at a time
  and :mod:`.group_lanes` a group's rows, limits and members in vector
  registers.
"""
from .relieff import UPDATE_BLOCK, relieff_rule, rrelieff_sums

__all__ = ["UPDATE_BLOCK", "relieff_rule", "rrelieff_sums"]
