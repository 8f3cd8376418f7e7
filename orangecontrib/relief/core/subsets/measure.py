"""The interface of a measure of attribute sets (larger is better), which
the searches of :mod:`.searches` maximise."""
import numpy as np


class SetMeasure:
    """Interface of a measure of attribute sets (larger is better).

    Subclasses set ``n_attributes`` and implement :meth:`evaluate`; they may
    override :meth:`forward_values` / :meth:`backward_values` with faster
    (incremental) versions.  ``monotone`` tells whether S_i subset of S_j
    implies value(S_i) <= value(S_j).
    """
    n_attributes = 0
    monotone = False

    def evaluate(self, subset):
        """The value of the attribute set `subset` (column indices)."""
        raise NotImplementedError

    def forward_values(self, subset, candidates):
        """Values of ``subset + [c]`` for each c in `candidates`."""
        subset = list(subset)
        return np.array([self.evaluate(subset + [c]) for c in candidates],
                        dtype=float)

    def backward_values(self, subset, candidates=None):
        """Values of ``subset - {c}`` for each c in `candidates` (default:
        every member of the subset)."""
        subset = list(subset)
        candidates = subset if candidates is None else list(candidates)
        return np.array([self.evaluate([a for a in subset if a != c])
                         for c in candidates], dtype=float)
