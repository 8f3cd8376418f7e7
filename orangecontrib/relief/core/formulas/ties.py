"""Ties at the k-th distance: how a k-nearest list fills its places.

A reference's candidates of a group, sorted by exact distance, fill the
list's places 0, 1, ..., k - 1, the nearest first.  Candidates at equal
distance form a *tie set*; one whose members would stand at places
p .. p + t - 1 leaves their order to a tie-break.  Two rules
(:data:`TIE_RULES`, the option ``ties``):

* ``"share"``: every member of a tie set takes r / t of the places, where
  r = min(t, k - p) of the set's places are among the k.  A tie set inside
  the k (r = t) gives each member one place, as any tie-break would; the
  tie set at the k-th distance gives each of its t members the r / t of
  the r places left.  This is the expectation over a uniformly random
  tie-break: each member stands at each of the places p .. p + t - 1
  with probability 1 / t, so its expected number of places among the k
  is r / t, and with place weights w_s (RReliefF's influence by rank) its
  expected weight is (1 / t) sum_{s = p}^{p + r - 1} w_s.  It does not
  depend on the order of the rows.
* ``"lower-index"``: the members of lower instance index come first, one
  place each (a stable sort by distance; scikit-rebate's argsort, whose
  order of equal distances is not defined, gives this rule's weights
  with a stable sort).  The list holds min(k, candidates) instances,
  which depend on the order of the rows when the k-th distance is tied.

The functions are plain Python on numbers and arrays: the compiled engine
compiles them, the vectorised one and :mod:`..neighbours` call them as
they are.
"""
import numpy as np

SHARE, LOWER_INDEX = "share", "lower-index"
#: the rules, as the option ``ties`` names them
TIE_RULES = (SHARE, LOWER_INDEX)
#: the default rule, as :mod:`..options` declares it: declared here, where
#: the engines read it, so that the table of options is no source of the
#: compiled kernels (an edit of it compiles nothing again)
TIES = SHARE


def places_taken(first, tied, k):
    """r: how many of the places first .. first + tied - 1 of a tie set
    are among the k places 0 .. k - 1 (numbers or arrays)."""
    return np.minimum(tied, k - first)


def tie_share(first, tied, k):
    """r / t: the expected number of the k places a member of a tie set
    of `tied` candidates from place `first` takes (numbers or arrays)."""
    return places_taken(first, tied, k) / tied


def listed(distance, count, k, shared):
    """How many of a ranked list's `count` candidates (`distance`,
    ascending) enter a list of k: min(k, count) under ``"lower-index"``,
    every candidate as near as the min(k, count)-th one when `shared`."""
    places = min(k, count)
    if not shared or places == 0:
        return places
    last = distance[places - 1]
    while places < count and distance[places] == last:
        places += 1
    return places


def fill_shares(distance, count, k, shared, share):
    """The shares of a ranked list of `count` entries (`distance`,
    ascending; every one listed, :func:`listed`), into `share`: with
    `shared`, equal distances form tie sets, each member taking
    :func:`tie_share` of the places; otherwise every entry is a tie set of
    its own (share 1).  Calls no other function, so that the compiled
    engine compiles it as it is."""
    s = 0
    while s < count:
        end = s + 1
        if shared:
            while end < count and distance[end] == distance[s]:
                end += 1
        tied = end - s
        for j in range(s, end):
            share[j] = np.minimum(tied, k - s) / tied  # tie_share(s, tied, k)
        s = end
