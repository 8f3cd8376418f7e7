"""Which attributes act together: networks of pairs of attributes.

* :mod:`.interactions` -- the Relief interaction map, from the neighbour
  pairs the weights use (:mod:`.neighbour_pairs`), and
  :mod:`.map_permutations` -- its label-permutation test;
* :mod:`.regain` -- reGAIN, a regression per attribute and per pair
  (:mod:`.glm`, fitted as R fits them); :mod:`.epistasis_rank` --
  EpistasisRank and EpistasisKatz, the attributes ranked by their place
  in such a network.
"""
