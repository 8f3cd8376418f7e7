"""The Relief variants, a module per family: each puts the three steps
together (prepare the data, find the neighbours, apply the family's
update rule) and checks its options once, on entry.

* :mod:`.estimators` -- Relief, ReliefF and RReliefF, and the steps the
  other families share; :mod:`.streaming` -- ReliefF on rows read a
  chunk at a time;
* :mod:`.surf` -- SURF, SURF*, MultiSURF and MultiSURF*, over distance
  thresholds; :mod:`.swrf` -- the SWRF family, their neighbours weighted
  by a sigmoid of the distance;
* :mod:`.double` -- dReliefF and pdReliefF; :mod:`.classdep` -- CDRelief
  and IWCDRelief; :mod:`.murelief` -- mu-Relief;
* :mod:`.npdr`, :mod:`.npdr_net` -- NPDR and its penalised fit;
  :mod:`.survival_npdr`, :mod:`.survival_npdr_net` -- of a censored
  survival time (:mod:`.kaplan_meier`);
* :mod:`.multitarget` -- several numeric targets or 0/1 labels;
* :mod:`.turf`, :mod:`.vls` -- rounds over subsets of the attributes
  around any variant (:mod:`.attribute_subsets`); :mod:`.iterative` --
  Iter, rounds that weight the distance by the scores.

The registry (:mod:`..registry`) names each variant's estimator here.
"""
