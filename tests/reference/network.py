"""Slow, literal EpistasisRank and EpistasisKatz, written from their
definitions (Davis et al. 2013; Katz 1953) in plain Python floats.

* :func:`epistasis_rank` -- the fixed point of
  r_i = gamma sum_j G0[i][j] r_j / c_j + (1 - gamma) / n + G[i][i] / (n tr G)
  found by iterating it (PageRank's power iteration), then r / sum(r).
* :func:`epistasis_katz` -- the walks' series
  r = sum_{k >= 0} alpha^k G0^k beta, summed term by term until the terms
  vanish, G0 the network without its diagonal, alpha = 0.8 / rho(G0).
"""


def without_diagonal(G):
    return [[0.0 if i == j else float(G[i][j]) for j in range(len(G))]
            for i in range(len(G))]


def epistasis_rank(G, gamma=0.85, iterations=5000):
    n = len(G)
    G0 = without_diagonal(G)
    sums = [sum(G0[i][j] for i in range(n)) for j in range(n)]
    trace = sum(G[i][i] for i in range(n)) * n
    b = [(1 - gamma) / n + (G[i][i] / trace if trace else 0.0)
         for i in range(n)]
    r = list(b)
    for _ in range(iterations):
        r = [gamma * sum(G0[i][j] * r[j] / sums[j] for j in range(n)) + b[i]
             for i in range(n)]
    total = sum(r)
    return [value / total for value in r]


def spectral_radius(M, iterations=20000):
    """The largest |eigenvalue| of the symmetric M by power iteration on
    M^2 (whose largest eigenvalue is rho^2, whatever its sign in M)."""
    n = len(M)
    v = [1.0 + 0.01 * i for i in range(n)]
    rho = 0.0
    for _ in range(iterations):
        w = [sum(M[i][j] * v[j] for j in range(n)) for i in range(n)]
        w = [sum(M[i][j] * w[j] for j in range(n)) for i in range(n)]
        norm = sum(x * x for x in w) ** 0.5
        if norm == 0:
            return 0.0
        rho = (norm / sum(x * x for x in v) ** 0.5) ** 0.5
        v = [x / norm for x in w]
    return rho


def epistasis_katz(G, beta=None, share=0.8, terms=100000):
    n = len(G)
    G0 = without_diagonal(G)
    rho = spectral_radius(G0)
    alpha = share / rho if rho else 0.0
    term = [G[i][i] for i in range(n)] if beta is None else list(beta)
    r = list(term)
    for _ in range(terms):
        term = [alpha * sum(G0[i][j] * term[j] for j in range(n))
                for i in range(n)]
        r = [a + b for a, b in zip(r, term)]
        if max(abs(x) for x in term) <= 1e-18 * max(abs(x) for x in r):
            break
    return r
