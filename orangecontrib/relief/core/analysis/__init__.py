"""What the weights are used for: which attributes to keep, whether they
are significant, how stable their ranking is.

* :mod:`.threshold` -- attributes chosen by a threshold or a count;
* :mod:`.significance` -- STIR (:mod:`.r_pairs`: its pairs as the
  authors' R package finds them), permutation p-values and the
  adjustments for testing many attributes;
* :mod:`.resampling` -- resamples and folds of the instances;
  :mod:`.subset_relief` -- Relief of many of them from one neighbour
  search;
* :mod:`.stability` -- how stable a ranking is over resamples;
  :mod:`.target_rankings` -- the significance and stability of the
  rankings of several targets;
* :mod:`.selection_curve` -- how many attributes to keep;
* :mod:`.weighted_knn` -- the class-dependent kNN of CDRelief's and
  IWCDRelief's weights.
"""
