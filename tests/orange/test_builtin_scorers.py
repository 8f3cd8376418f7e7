"""Where the add-on's estimates and Orange's built-in scorers part ways.

* XOR: a myopic impurity measure (Orange's InfoGain) cannot see the two
  interacting attributes that ReliefF finds (tests/core/test_known_answers.py).
* RELIEF-D missing values (Prat & Belanche 2006, eq. 2.5) versus Orange's
  built-in ReliefF, which uses the probability of an *equal* value (P)
  where the paper uses the probability of a *different* value (1 - P).
"""
import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.preprocess import score as orange_score

from orangecontrib.relief import core
from tests.core.known_problems import binary_xor, missing_design


def _binary_table(X, y):
    domain = Domain(
        [DiscreteVariable(f"x{i + 1}", values=("0", "1"))
         for i in range(X.shape[1])],
        DiscreteVariable("cls", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


@pytest.mark.parametrize("seed", [0, 1])
def test_xor_infogain_misses_both(seed):
    X, y = binary_xor(seed=seed)
    ig = np.asarray(orange_score.InfoGain()(_binary_table(X, y)))
    # each of x1, x2 alone carries no information about x1 xor x2
    assert abs(ig[0]) < 1e-12 and abs(ig[1]) < 1e-12, ig
    assert set(np.argsort(-ig, kind="stable")[:2]) != {0, 1}, ig
    assert max(ig[2:]) > max(ig[0], ig[1]), ig


# Orange's built-in ReliefF (Orange/preprocess/_relieff.pyx, calc_difference)
# replaces a nominal missing value by val = cont[v, class] = P(v | class),
# and for two missing values by sum_v P(v|c1) P(v|c2): a probability of
# EQUAL values, where RELIEF-D uses the probability of a DIFFERENT value,
# 1 - P(...). (Its P also counts a missing row as one occurrence of every
# value.)
#
# On missing_design, where RELIEF-D gives W[M] = 1 exactly, Orange's version
# gives P(c|c) = 2/3 to a pair with one missing value for hits and misses
# alike, and 5/9 (hit) vs 4/9 (miss) to two missing values, which pulls
# W[M] down to about 0.25.

def test_relief_d_missing_values_differ_from_orange_builtin():
    X, y = missing_design()
    ours = core.relieff(X, y, np.ones(X.shape[1], dtype=bool), k_nearest=10)
    assert ours[0] == pytest.approx(1.0, abs=1e-12)
    table = _binary_table(X, y)
    for seed in range(3):
        builtin = np.asarray(orange_score.ReliefF(
            n_iterations=200, k_nearest=10, random_state=seed)(table))
        # a large, unambiguous gap for the attribute with missing values
        assert builtin[0] < 0.5, builtin
        assert ours[0] - builtin[0] > 0.5


def test_rrelieff_on_orange_scale_data_is_finite():
    """A regression table built the Orange way (sanity: the core accepts
    Orange's X and Y arrays as they are)."""
    rng = np.random.default_rng(3)
    X = rng.random((60, 3))
    y = X[:, 0] + 0.1 * rng.random(60)
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(3)],
                    ContinuousVariable("y"))
    table = Table.from_numpy(domain, X, y)
    W = core.rrelieff(table.X, table.Y, k_nearest=10)
    assert np.all(np.isfinite(W)) and np.argmax(W) == 0
