"""EpistasisRank and EpistasisKatz: attributes ranked by their place in an
interaction network.

Both read a square matrix G of attributes, main effects on the diagonal
and interactions off it (reGAIN's, :mod:`.regain`, or the Relief
interaction map's, :mod:`.interactions`), and score an attribute high when
it has a strong effect of its own and interacts with attributes that do.

**EpistasisRank** (Davis et al. 2013), PageRank with the main effects as
the teleportation: with G0 the matrix without its diagonal, c_j its
column sums, gamma (0.85) the damping and n the attributes,

    r = gamma G0 diag(1 / c) r + (1 - gamma) / n + diag(G) / (n tr G),

the scores r / sum(r) (without the last term when the trace is 0).

**EpistasisKatz** (Katz 1953), the walks of every length through the
network, weighed by alpha per step, from the prior beta (by default the
main effects):

    r = (I - alpha G0)^-1 beta,  alpha = 0.8 / rho(G0)

(80 % of the largest alpha for which the walks' series converges; rho is
the spectral radius).  The authors' R code (insilico/npdr ``R/regain.R``)
computes G0 as ``A - diag(A)``, which in R subtracts the diagonal's vector
from every column (entry (i, j) less G[i, i]) instead of clearing the
diagonal, and takes alpha from the largest eigenvalue of G with its
diagonal; ``r_compatible=True`` does the same, to match a published R
analysis (``doc/interactions.md`` shows what it changes).

This module imports neither Orange nor Qt.

References
----------
Davis, N. A. et al. (2013). Encore: genetic association interaction
network centrality pipeline and application to SLE exome data. Genetic
Epidemiology 37(6):614-621.
Katz, L. (1953). A new status index derived from sociometric analysis.
Psychometrika 18(1):39-43.
"""
import numpy as np

from ..errors import ReliefInputError
from ..options import R_COMPATIBLE, Interval, Optional, check
from ..prepare import as_real

#: EpistasisRank's damping (the R code's ``Gamma_vec``, PageRank's 0.85)
GAMMA = 0.85
#: EpistasisKatz's alpha as a share of the largest that converges
KATZ_SHARE = 0.8


def network(matrix, what):
    """`matrix` as a finite square float64 array (a copy)."""
    matrix = np.array(as_real(matrix, what), dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] \
            or not len(matrix):
        raise ReliefInputError(f"The {what} must be a square matrix, got "
                               f"shape {matrix.shape}.")
    if not np.isfinite(matrix).all():
        raise ReliefInputError(f"The {what} must be finite (an entry "
                               f"without a fit is NaN: leave its attribute "
                               f"out).")
    return matrix


def without_diagonal(matrix):
    """G0: `matrix` with a zero diagonal."""
    cleared = matrix.copy()
    np.fill_diagonal(cleared, 0)
    return cleared


def epistasis_rank(matrix, gamma=GAMMA):
    """EpistasisRank of every attribute of the network `matrix` (the
    equation in the module's docstring; the R code's ``EpistasisRank``).

    Parameters
    ----------
    matrix : array (a, a)
        Main effects on the diagonal, interactions off it.
    gamma : float in [0, 1] or array (a,)
        The damping, one for all or one per attribute.

    Returns
    -------
    float64 array (a,)
        The scores, summing to 1 (negative ones where the network's
        entries are negative: rank them by magnitude, as the R code does).
    """
    G = network(matrix, "interaction matrix")
    n = len(G)
    gamma = np.broadcast_to(np.asarray(gamma, dtype=np.float64), (n,))
    if ((gamma < 0) | (gamma > 1)).any():
        raise ReliefInputError(f"gamma must be between 0 and 1, got "
                               f"{gamma.tolist()}.")
    diagonal = np.diag(G).copy()
    trace = diagonal.sum() * n
    G0 = without_diagonal(G)
    sums = G0.sum(axis=0)
    if (sums == 0).any():
        raise ReliefInputError(
            f"EpistasisRank divides by the sum of each attribute's "
            f"interactions; attribute {int(np.flatnonzero(sums == 0)[0])}'s "
            f"sum to 0.")
    b = (1 - gamma) / n + (diagonal / trace if trace else 0)
    r = np.linalg.solve(np.eye(n) - gamma[:, None] * G0 / sums, b)
    return r / r.sum()


def epistasis_katz(matrix, alpha=None, beta=None, r_compatible=R_COMPATIBLE):
    """EpistasisKatz of every attribute of the network `matrix` (the
    equation in the module's docstring).

    Parameters
    ----------
    matrix : array (a, a)
        Main effects on the diagonal, interactions off it; symmetric.
    alpha : float or None
        The weight of a step; None: 0.8 / rho(G0), or with `r_compatible`
        0.8 over the largest eigenvalue of G.
    beta : array (a,) or None
        The prior of each attribute; None: the main effects, diag(G).
    r_compatible : bool
        G0 as the R code computes it, entry (i, j) less G[i, i], and
        alpha from G's eigenvalues.

    Returns
    -------
    float64 array (a,)
        Rank them by magnitude (the R code's default): negative effects
        count as much as positive ones.
    """
    G = network(matrix, "interaction matrix")
    if not np.allclose(G, G.T, rtol=0, atol=100 * np.finfo(float).eps
                       * np.abs(G).max()):
        raise ReliefInputError("EpistasisKatz needs a symmetric matrix.")
    r_compatible = check("r_compatible", r_compatible)
    alpha = Optional(Interval(-np.inf), "from the spectrum")("alpha", alpha)
    beta = np.diag(G).copy() if beta is None else np.array(
        as_real(beta, "beta"), dtype=np.float64).ravel()
    if len(beta) != len(G) or not np.isfinite(beta).all():
        raise ReliefInputError(f"beta must have one finite number per "
                               f"attribute ({len(G)}), got {len(beta)}.")
    if r_compatible:
        G0 = G - np.diag(G)[:, None]
        dominant = np.linalg.eigvalsh(G)[-1]
    else:
        G0 = without_diagonal(G)
        dominant = np.abs(np.linalg.eigvalsh(G0)).max()
    if alpha is None:
        alpha = KATZ_SHARE / dominant if dominant else 0.0
    return np.linalg.solve(np.eye(len(G)) - alpha * G0, beta)
