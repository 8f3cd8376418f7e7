"""Orange scorers for class-dependent Relief: CDRelief and IWCDRelief.

Their natural result is a (classes x attributes) matrix, one weight vector
per class (:mod:`orangecontrib.relief.core.classdep`).  Orange's scorer
contract is one score per attribute, so

* ``CDRelief()(table)`` -- the plain scorer call, usable anywhere an Orange
  ``Scorer`` is (``SelectBestFeatures`` ...) -- returns the *prior-weighted
  mean of the class rows*, ``sum_c P(c) W[c]`` with P(c) the class
  frequencies.  For CDRelief with every instance a reference this is the
  global k-nearest-neighbour Relief with pooled misses (paper 001, eq. 3,
  divided by k);
* ``CDRelief().class_weights(table)`` returns the full matrix, one row per
  value of the class variable (NaN rows for values without instances);
* :class:`ClassDependentRankScorer` hands the matrix to Orange's Rank
  widget, one column per class, each named by its class value.
"""
import copy

from Orange.data import DiscreteVariable

from . import core
from .core import classdep
from .scorers import RankScorer, _DiffOptions

__all__ = ["CDRelief", "IWCDRelief", "ClassDependentRankScorer"]


class ClassDependentScorer(_DiffOptions):
    """Common ground of CDRelief and IWCDRelief (discrete class only).

    A subclass implements ``_matrix(X, y, discrete, n_classes,
    progress_callback)``.
    """
    class_type = DiscreteVariable
    #: rows of the matrix that ``_weights`` returns (set by class_weights);
    #: None: the 1-D summary of the scorer's call
    _n_classes = None

    def __init__(self, k_nearest=5, n_iterations=None, random_state=0,
                 diff="linear", t_eq=0.04, t_diff=0.10):
        super().__init__(n_iterations, random_state, diff, t_eq, t_diff)
        self.k_nearest = k_nearest

    def _options(self, n_classes, progress_callback):
        return dict(super()._options(progress_callback),
                    k_nearest=self.k_nearest, n_classes=n_classes)

    def _matrix(self, X, y, discrete, n_classes, progress_callback):
        raise NotImplementedError

    def _weights(self, X, y, discrete, progress_callback):
        """The 1-D summary: sum_c P(c) W[c] (see the module docstring), or
        the matrix for :meth:`class_weights`."""
        matrix = self._matrix(X, y, discrete, self._n_classes,
                              progress_callback)
        if self._n_classes is not None:
            return matrix
        return core.classdep.prior_summary(matrix, y)

    def class_weights(self, data, progress_callback=None):
        """The (classes x attributes) matrix: row c holds the weights of the
        c-th value of ``data.domain.class_var``, NaN if it has no instance.
        """
        # score_table checks the domain and turns the table into arrays; a
        # copy (the scorer may serve other threads) returns the matrix
        rows = copy.copy(self)
        rows._n_classes = len(getattr(data.domain.class_var, "values", ()))
        return rows.score_table(data, progress_callback)


class CDRelief(ClassDependentScorer):
    """Marchiori's class-dependent Relief (paper 001, eq. 4).

    One weight vector per class, learnt from the reference instances of that
    class with their k nearest hits and k nearest misses (pooled over the
    other classes); neighbours by Euclidean distance.  See
    :func:`orangecontrib.relief.core.classdep.cdrelief`.  Calling the scorer
    gives the prior-weighted mean of the class rows; :meth:`class_weights`
    gives the rows.
    """
    friendly_name = "CDRelief"

    def _matrix(self, X, y, discrete, n_classes, progress_callback):
        return classdep.cdrelief(X, y, discrete,
                                 **self._options(n_classes, progress_callback))


class IWCDRelief(ClassDependentScorer):
    """Instance-weighted class-dependent Relief (paper 001, eq. 5 and 6).

    `threshold` (0..1) keeps only references near the class border;
    `update` is the reading of eq. 6 ("as_printed" or "as_text").  See
    :func:`orangecontrib.relief.core.classdep.iwcdrelief`.  Calling the
    scorer gives the prior-weighted mean of the class rows;
    :meth:`class_weights` gives the rows.
    """
    friendly_name = "IWCDRelief"

    def __init__(self, k_nearest=5, threshold=0.5, update="as_printed",
                 n_iterations=None, random_state=0, diff="linear",
                 t_eq=0.04, t_diff=0.10):
        super().__init__(k_nearest, n_iterations, random_state, diff, t_eq,
                         t_diff)
        self.threshold = threshold
        self.update = update

    def _matrix(self, X, y, discrete, n_classes, progress_callback):
        return classdep.iwcdrelief(
            X, y, discrete, threshold=self.threshold, update=self.update,
            **self._options(n_classes, progress_callback))


class _ColumnName(str):
    """The name Rank gives its column(s) for a class-dependent scorer.

    Rank labels a scorer's columns ``shortname + "_" + str(i)`` (i = 1, 2,
    ...) when it returns several rows.  This ``str`` remembers the class
    values the scorer last scored: adding "_" and then "i" gives the i-th
    class value's column name.  Anything else treats it as a plain string,
    so a Rank that builds labels differently shows name_1, name_2, ...:
    the i-th column is then the i-th value of the class variable.
    """

    def __new__(cls, text, scorer):
        name = super().__new__(cls, text)
        name.scorer = scorer
        return name

    def __add__(self, other):
        if other == "_":
            return _ColumnPrefix(str(self) + other, self.scorer)
        return str(self) + other

    def __reduce__(self):
        return str, (str(self),)


class _ColumnPrefix(str):
    """``name + "_"`` awaiting the column number (see :class:`_ColumnName`)."""

    def __new__(cls, text, scorer):
        prefix = super().__new__(cls, text)
        prefix.scorer = scorer
        return prefix

    def __add__(self, other):
        labels = self.scorer.column_labels
        if other.isdigit() and 1 <= int(other) <= len(labels):
            return labels[int(other) - 1]
        return str(self) + other

    def __reduce__(self):
        return str, (str(self),)


class ClassDependentRankScorer(RankScorer):
    """A class-dependent scorer for Orange's Rank widget: one column per class.

    ``score_data`` returns the scorer's (classes x attributes) matrix, so
    Rank shows one column per value of the class variable.  The columns are
    named "<name>: <class value>", e.g. "CDRelief: present" (see
    :class:`_ColumnName` for how; should a Rank version name them
    "<name>_1", "<name>_2", ..., column i is the i-th class value).  The
    plain call keeps Orange's 1-D contract (the prior-weighted mean).
    """

    def __init__(self, scorer, name=None):
        super().__init__(scorer, name)
        self.column_labels = ()
        self.name = _ColumnName(self.name, self)

    def score_data(self, data, feature=None):
        matrix = self.scorer.class_weights(data)
        self.column_labels = tuple(f"{self.name}: {value}"
                                   for value in data.domain.class_var.values)
        if feature is not None:
            return matrix[:, data.domain.attributes.index(data.domain[feature])]
        return matrix
