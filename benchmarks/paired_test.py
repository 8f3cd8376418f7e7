"""The paired test of two methods over the folds of a repeated k-fold
cross-validation that accounts for the training rows the folds share:
the corrected resampled t-test of Nadeau & Bengio (2003, "Inference for
the generalization error", Machine Learning 52, section 4), as Bouckaert
& Frank (2004, "Evaluating the replicability of significance tests for
comparing learning algorithms", PAKDD) apply it to r times repeated
k-fold cross-validation.  The benchmarks import it from beside them."""
import math

import numpy as np
from scipy import stats


def corrected_t_test(differences, test_share):
    """(mean, p) of the paired `differences` of two methods' scores on the
    n = r k folds of an r times repeated k-fold cross-validation:

        t = mean / sqrt((1 / n + n2 / n1) s^2),

    s^2 the differences' variance (n - 1 in the denominator) and n2 / n1 =
    `test_share` a fold's test rows over its training rows (1 / (k - 1)),
    whose term corrects the variance for the folds' overlapping training
    sets; t is Student's of n - 1 degrees of freedom and p two-sided.  Equal
    differences give p 1 where they are all 0 and 0 otherwise.
    (`test_share` 0 gives the ordinary paired t-test.)"""
    differences = np.asarray(differences, np.float64)
    mean = float(differences.mean())
    variance = (float(differences.var(ddof=1)) if len(differences) > 1
                else 0.0)
    if variance == 0:
        return mean, float(mean == 0)
    t = mean / math.sqrt((1 / len(differences) + test_share) * variance)
    return mean, float(2 * stats.t.sf(abs(t), len(differences) - 1))
