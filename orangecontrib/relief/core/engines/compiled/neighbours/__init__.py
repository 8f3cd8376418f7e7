"""Step 2 of every Relief variant: find the near hits and near misses.

For each reference instance R the search returns the k nearest instances of
every group (class; a single group in regression), nearest first.  The
distance is the weighted sum of diffs (Prat & Belanche 2006, eq. 2.1 and,
with attribute weights, eq. 3.1).  R is never its own neighbour; ties are
broken by the lower instance index; a group with fewer than k candidates
returns all it has and pads with -1.

The modules, in the order the search uses them:

* :mod:`.block` -- ROWS x BLOCK distance blocks and their unrolled helpers;
* :mod:`.distances` -- the distance kernel, RELIEF-D corrections included;
* :mod:`.topk` -- sorted top-k lists, ties by index;
* :mod:`.all_pairs` -- every instance a reference (Kononenko's deterministic
  "Relieved" mode, m = n): each pair once, in tiles;
* :mod:`.references` -- a subset of references: one row of distances each;
* :mod:`.exact_ranking` -- float32 lists ranked as float64 arithmetic would;
* :mod:`.search` -- :func:`find_neighbours`, which runs them.

The search tables hold the instances sorted by class (PreparedData.
search_order); the lists are returned in instance numbers, and the order
within a class, hence the tie-break by index, is that of the instances.
Memory is O(n * a) for the data (O(n * a * groups) with missing values)
plus O(n * groups * k) for the top-k lists: never an n x n matrix.
"""
from .search import EXTRA, find_neighbours

__all__ = ["EXTRA", "find_neighbours"]
