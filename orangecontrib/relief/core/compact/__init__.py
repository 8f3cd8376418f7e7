"""Data read as the user gave them: narrow arrays, sparse matrices and
column-block sources, never widened to float64 as a whole.

* :mod:`.store` -- the columns a block at a time, and each column's range;
* :mod:`.data` -- :class:`.data.CompactData`, step 1 of every variant on
  such data, and the exact tables of any block of columns;
* :mod:`.planes` -- small integers as bit planes, with exact popcount
  distances;
* :mod:`.distances` -- exact distances, added up over blocks of columns;
* :mod:`.search` -- step 2, the k nearest of each group from those
  distances;
* :mod:`.rules` -- step 3, each rule applied a block of columns at a
  time.
"""
