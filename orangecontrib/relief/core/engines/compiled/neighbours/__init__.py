"""Step 2 of every Relief variant: find the near hits and near misses.

For each reference instance R the search returns the k nearest instances of
every group (class; a single group in regression), nearest first, as
:class:`....neighbours.NeighbourLists`.  The distance is the weighted sum
of diffs (Prat & Belanche 2006, eq. 2.1 and, with attribute weights, eq.
3.1).  R is never its own neighbour; equal distances are in instance
order, and the candidates at the k-th distance share the places left
(``ties="share"``) or the lower indices take them (``"lower-index"``,
:mod:`....formulas.ties`); a group with fewer than k candidates returns
all it has.

The modules, in the order the search uses them:

* :mod:`.block` -- ROWS x BLOCK distance blocks and their unrolled helpers;
* :mod:`.distances` -- the distance kernel, RELIEF-D corrections included;
* :mod:`.compaction` -- the columns of a row of distances that may enter
  the lists, collected sixteen at a time in vector registers;
* :mod:`.topk` -- sorted top-k lists of candidates, by (distance, index),
  :mod:`.lanes` inserting into a list of 16 in vector registers (the LLVM
  IR it shares with :mod:`.compaction` in :mod:`.vector_ir`);
* :mod:`.all_pairs` -- every instance a reference (Kononenko's deterministic
  "Relieved" mode, m = n): each pair once, in tiles;
* :mod:`.references` -- a subset of references: one row of distances each;
* :mod:`.exact_ranking` -- float32 lists ranked as float64 arithmetic would,
  each listing what the tie rule lists, or asking for more candidates;
* :mod:`.search` -- :func:`find_neighbours`, which runs them;
* :mod:`.farthest` -- mu-Relief's neighbourhood, the instances farthest
  from their class's mean distance.

The search tables hold the instances sorted by class (PreparedData.
search_order); the lists are returned in instance numbers, and the order
within a class, hence the order of equal distances, is that of the
instances.  Memory is O(n * a) for the data (O(n * a * groups) with
missing values) plus O(n * groups * k) for the float32 lists, and the
exact lists a part of the references at a time: never an n x n matrix,
even where every instance ties.
"""
from .search import find_neighbours

__all__ = ["find_neighbours"]
