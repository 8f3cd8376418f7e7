"""The references' lists chosen again: the distinct references of a draw
with replacement and each draw's lists, as the rules read them."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from orangecontrib.relief.core.neighbours import (Neighbours,
                                                  distinct_and_inverse)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 60), m=st.integers(1, 80), seed=st.integers(0, 99))
def test_distinct_references_and_their_inverse_are_numpys(n, m, seed):
    """Marked in a table (few instances per reference) or sorted (many),
    the distinct references and where each draw finds its own are
    numpy.unique's."""
    refs = np.random.default_rng(seed).integers(0, n, m)
    unique, inverse = distinct_and_inverse(refs, n)
    expected_unique, expected_inverse = np.unique(refs, return_inverse=True)
    assert_array_equal(unique, expected_unique)
    assert_array_equal(inverse, expected_inverse)


@settings(max_examples=60, deadline=None)
@given(m=st.integers(1, 12), n_groups=st.integers(1, 3),
       draws=st.integers(1, 30), seed=st.integers(0, 99))
def test_taking_references_gives_each_its_lists_in_order(m, n_groups, draws,
                                                         seed):
    """take(rows) gives reference rows[t] every list it had (some empty),
    each entry with its index, distance, share and tie set."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 4, m * n_groups)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    size = int(offsets[-1])
    lists = Neighbours(3, n_groups, "share", offsets, rng.integers(0, 50, size),
                       rng.random(size), rng.random(size),
                       rng.integers(0, 3, size).astype(np.int32),
                       rng.integers(1, 3, size).astype(np.int32))
    rows = rng.integers(0, m, draws)
    taken = lists.take(rows)
    assert len(taken) == draws
    for t, r in enumerate(rows):
        for g in range(n_groups):
            mine = slice(taken.offsets[t * n_groups + g],
                         taken.offsets[t * n_groups + g + 1])
            theirs = slice(offsets[r * n_groups + g],
                           offsets[r * n_groups + g + 1])
            for field in ("index", "distance", "share", "first", "tied"):
                assert_array_equal(getattr(taken, field)[mine],
                                   getattr(lists, field)[theirs])
