"""Orange scorers for double ReliefF and progressively weighted double ReliefF.

``DReliefF()(table)`` and ``PDReliefF()(table)`` return one weight per
attribute, like :class:`~orangecontrib.relief.scorers.ReliefF`, whose
options they share (missing values as RELIEF-D, nominal and numeric
attributes).  See :mod:`orangecontrib.relief.core.double`.
"""
from Orange.data import DiscreteVariable

from .core import double
from .scorers import _DiffOptions

__all__ = ["DReliefF", "PDReliefF"]


class DReliefF(_DiffOptions):
    """Double ReliefF (Prat & Belanche 2006, section 3): ReliefF whose
    neighbour search weights the attributes by its own current estimates.

    See :func:`orangecontrib.relief.core.double.drelieff`.
    """
    class_type = DiscreteVariable
    friendly_name = "DReliefF"

    def __init__(self, n_iterations=None, k_nearest=10, random_state=0,
                 diff="linear", t_eq=0.04, t_diff=0.10, clip_negative=True):
        super().__init__(n_iterations, random_state, diff, t_eq, t_diff)
        self.k_nearest = k_nearest
        self.clip_negative = clip_negative

    def _weights(self, X, y, discrete, progress_callback):
        return double.drelieff(X, y, discrete, k_nearest=self.k_nearest,
                               clip_negative=self.clip_negative,
                               **self._options(progress_callback))


class PDReliefF(_DiffOptions):
    """Progressively weighted double ReliefF (Prat & Belanche 2006,
    section 3.1): the distance weights move from 1 (ReliefF) to the
    estimates (dReliefF) as f(w, t) = (w - 1) c(t) / (c(t) + s) + 1,
    c(t) = (t / m)^a.

    See :func:`orangecontrib.relief.core.double.pdrelieff`.
    """
    class_type = DiscreteVariable
    friendly_name = "PDReliefF"

    def __init__(self, n_iterations=None, k_nearest=10, random_state=0,
                 diff="linear", t_eq=0.04, t_diff=0.10,
                 a=double.DEFAULT_EXPONENT, s=double.DEFAULT_S,
                 clip_negative=True):
        super().__init__(n_iterations, random_state, diff, t_eq, t_diff)
        self.k_nearest = k_nearest
        self.a = a
        self.s = s
        self.clip_negative = clip_negative

    def _weights(self, X, y, discrete, progress_callback):
        return double.pdrelieff(X, y, discrete, k_nearest=self.k_nearest,
                                a=self.a, s=self.s,
                                clip_negative=self.clip_negative,
                                **self._options(progress_callback))
