"""Every Orange scorer of the add-on: drop-in replacements for Orange's.

``ReliefF(k_nearest=10)(table)`` returns one weight per attribute, in the
domain's order, so the scorers work wherever an Orange ``Scorer`` does
(e.g. ``Orange.preprocess.fss.SelectBestFeatures(method=ReliefF(), k=5)``).
Unlike Orange's built-ins, ``n_iterations=None`` (the default) uses every
instance once, in order, and missing values follow Kononenko's RELIEF-D.

* :class:`Relief`, :class:`ReliefF`, :class:`RReliefF` -- Kira & Rendell
  (1992), Kononenko (1994), Robnik-Sikonja & Kononenko (1997);
* :class:`DReliefF`, :class:`PDReliefF` -- Prat & Belanche (2006);
* :class:`CDRelief`, :class:`IWCDRelief` -- Marchiori (2013), Qiu & He
  (2019): one weight vector per class, whose prior-weighted mean the
  scorer returns (:meth:`ClassDependentScorer.class_weights` gives them
  all);
* :class:`RFSMScorer` -- the order and gains of the greedy RFSM search
  (Arauzo-Azofra, Benitez & Castro);
* :class:`SURF`, :class:`SURFstar`, :class:`MultiSURF`,
  :class:`MultiSURFstar` -- Greene et al. (2009, 2010), Urbanowicz et al.
  (2018), Granizo-Mackenzie & Moore (2013): neighbourhoods within a
  distance, for a categorical or a numeric class;
* :class:`TuRF` -- Moore & White (2007) around any of them;
* :class:`Iter` -- scikit-rebate 0.8's rounds around any of them that
  weights its distance, each round's distance weighted by the scores
  before;
* :class:`VLS` -- Eppstein & Haake (2008) around any of them: subsets of
  the attributes, every pair of attributes together in one;
* :class:`Absolute` -- any scorer's scores by their magnitude, for
  ranking by |weight| (Freda et al. 2024) in Rank and
  ``SelectBestFeatures``;
* :class:`NPDR` -- Le, Dawkins & McKinney (2020): each attribute's diff
  over the neighbour pairs as a regression, with covariates; its
  coefficient as the score, p and q by :meth:`NPDR.result` (and by
  :class:`~orangecontrib.relief.significance.Significance`).

Each scorer computes a variant of the core's registry
(:mod:`.core.registry`): its ``variant`` gives its name, the class types
it fits and its weights.  Orange's Rank widget calls ``score_data(data)``
and wants one row per score column; :mod:`.rank` adapts these scorers to
it.
"""
import copy

import numpy as np
import scipy.sparse as sp

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Variable
from Orange.data.filter import HasClass
from Orange.preprocess.score import Scorer

from .arrays import check_table, table_arrays, without_weights
from .core.variants import double
from .core.analysis import significance
from .core import registry
from .core.variants.npdr import (PER_ATTRIBUTE, column_labels, npdr,
                                 npdr_columns, unconverged_message)
from .core.options import (ABSOLUTE, ADJUSTMENT, DEVIATION, DIFF,
                           K_CLASS_DEPENDENT, K_RELIEFF,
                           K_RFSM, K_RRELIEFF, RANDOM_STATE, CONVENTION,
                           T_DIFF, T_EQ,
                           TIES, NPDR_NEIGHBOURHOOD, THRESHOLD,
                           TURF_FRACTION, TURF_SCHEDULE, COVER_PAIRS,
                           ITER_BETA, ITER_CONVERGENCE, ITER_ROUNDS, ITER_TOL,
                           check_choice)
from .core.subsets import RFSM, greedy_forward
from .core.subsets.rfsm import SCORES
from .core.analysis.threshold import float_array
from .core.validation import NPDR_NAMES, checked_options
from .core.variants.iterative import iterated
from .core.variants.turf import PREPARED_ONCE, turf, turf_prepared, turf_rounds
from .core.variants.vls import vls, vls_rounds

__all__ = ["ReliefScorer", "Relief", "ReliefF", "RReliefF", "MuRelief",
           "DReliefF", "PDReliefF", "ClassDependentScorer", "CDRelief",
           "IWCDRelief", "RFSMScorer", "NeighbourhoodScorer", "SURF", "SURFstar",
           "MultiSURF", "MultiSURFstar", "WeightedNeighbourhoodScorer",
           "SWRF", "SWRFstar", "MultiSWRF", "MultiSWRFstar", "MultiSWRFDB",
           "MultiSWRFDBstar", "WrapperScorer", "TuRF", "Iter", "VLS", "NPDR",
           "Absolute"]


#: the class variable of data of each task
CLASS_TYPES = {registry.CLASSIFICATION: DiscreteVariable,
               registry.REGRESSION: ContinuousVariable}


def task_of(class_var):
    """The task of data whose class is `class_var` (None: no class of
    either kind)."""
    for task, class_type in CLASS_TYPES.items():
        if isinstance(class_var, class_type):
            return task
    return None


def fits(scorer, class_var):
    """Whether `scorer`, this module's or any Orange scorer, can score data
    whose class is `class_var`."""
    check = getattr(scorer, "fits", None)
    return (check(class_var) if check is not None
            else isinstance(class_var, scorer.class_type))


def check_scorer(scorer, what):
    """`scorer`, if it is an Orange scorer (the add-on's, Orange's own, a
    learner that scores); ValueError saying what `what` takes otherwise."""
    if not isinstance(scorer, Scorer):
        raise ValueError(f"{what} takes an Orange scorer, such as "
                         f"ReliefF(), got {scorer!r}.")
    return scorer


def table_scores(scorer, data):
    """The scores of every attribute of `data` by any Orange scorer, one per
    attribute, real numbers (ValueError otherwise)."""
    scores = float_array(scorer(data))
    if scores is None:
        raise ValueError(f"{type(scorer).__name__} gave scores that are "
                         f"not real numbers: one number per attribute is "
                         f"needed.")
    if scores.shape not in ((len(data.domain.attributes),),
                            (1, len(data.domain.attributes))):
        raise ValueError(f"{type(scorer).__name__} gave {scores.size} "
                         f"scores, shape {scores.shape}, for "
                         f"{len(data.domain.attributes)} attributes: one "
                         f"per attribute is needed.")
    return scores.ravel()


def sortable(scores):
    """`scores` with -inf for NaN (an attribute without a score, such as
    NPDR's covariates): Orange's scripted contract sorts the scores
    (``SelectBestFeatures``, Rank), where a NaN would sort anywhere and
    misplace the others; -inf sorts last (as the significance scores'
    "no verdict")."""
    scores = np.asarray(scores, dtype=np.float64)
    return np.where(np.isnan(scores), -np.inf, scores)


def of_feature(data, scores, feature=None):
    """`scores` (one per attribute of `data`), or `feature`'s alone: a
    Relief scorer weighs every attribute in the context of the others."""
    if feature is None:
        return scores
    variable = data.domain[feature]
    if variable not in data.domain.attributes:
        raise ValueError(f"{variable.name} is not an attribute of the data "
                         f"(the class and metas have no score).")
    return scores[data.domain.attributes.index(variable)]


def checked(scorer, by_caller=False):
    """`scorer` with its options checked once, for a caller that calls it
    many times (:meth:`CheckedOnce.checked`); any scorer not of this
    module as it is (it checks its own at each call)."""
    method = getattr(scorer, "checked", None)
    return scorer if method is None else method(by_caller)


class CheckedOnce:
    """A scorer's options (:meth:`_given_options`), kept as given and
    checked by the declared table (:func:`.core.validation.checked_options`)
    once a call, or once for every call of the copy :meth:`checked`
    makes (a wrapper's rounds, resamples, permutations: checked at the
    outermost entry, trusted within)."""
    #: the table's names of the options the scorer names otherwise
    declared_as = {}
    #: whether the options are checked already (:meth:`checked`)
    _trusted = False

    def _given_options(self):
        """{name: value} of the options, as given."""
        raise NotImplementedError

    def _checked_once(self):
        """The options, checked by the table unless the scorer trusts
        them."""
        options = self._given_options()
        return (options if self._trusted
                else checked_options(options, **self.declared_as))

    def checked(self, by_caller=False):
        """A copy of the scorer whose options are checked now, once, in
        their working types, and trusted by its calls; `by_caller`: the
        caller has checked them by the same table (the command line, as it
        parses them), taken as they are.  The scorer itself where it
        trusts them already."""
        if self._trusted:
            return self
        trusting = copy.copy(self)
        if not by_caller:
            trusting.__dict__.update(self._checked_once())
        trusting._trusted = True
        return trusting


class ReliefScorer(CheckedOnce, Scorer):
    """Common ground of the scorers: an Orange table becomes the core's
    arrays (metas ignored, rows without a class dropped), and the options
    shared by every variant (sampling and the diff of numeric attributes).

    A subclass names its ``variant`` (of :mod:`.core.registry`), which
    gives its ``friendly_name``, the ``class_type`` it fits and its
    weights; its constructor takes the variant's own options, kept as
    given, and each call checks them once (:meth:`~CheckedOnce._checked_once`;
    once for all calls of :meth:`~CheckedOnce.checked`) before it calls
    the core's ``unchecked`` functions.
    """
    feature_type = Variable
    #: a sparse table stays sparse (:func:`.arrays.table_arrays`)
    supports_sparse_data = True
    preprocessors = [HasClass()]
    #: the variant of :mod:`.core.registry` the scorer computes
    variant = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "variant" in vars(cls):
            cls.friendly_name = cls.variant.name
            types = tuple(CLASS_TYPES[task] for task in cls.variant.tasks)
            cls.class_type = types[0] if len(types) == 1 else types

    def __init__(self, n_iterations=None, random_state=RANDOM_STATE,
                 diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF):
        self._keep(locals())

    def _keep(self, arguments):
        """Store a constructor's `arguments` (its ``locals()``) verbatim,
        each as the attribute of its name, as scikit-learn's estimators
        keep their parameters."""
        for name, value in arguments.items():
            if name not in ("self", "__class__"):
                setattr(self, name, value)

    @classmethod
    def fits(cls, class_var):
        """Whether the scorer can weigh data whose class is `class_var`."""
        task = task_of(class_var)
        return task is not None and cls.variant.fits(
            task, len(class_var.values) if task == registry.CLASSIFICATION
            else None)

    def __call__(self, data, feature=None, *, progress_callback=None):
        """Weights of all attributes, or of `feature` (scored in the context
        of all attributes, as Relief's weights depend on the others); -inf
        for an attribute without a weight (:func:`sortable`)."""
        return of_feature(data, sortable(self.score_table(
            data, progress_callback)), feature)

    def score_data(self, data, feature=None):
        return self(data, feature)

    def score_table(self, data, progress_callback=None):
        """One weight per attribute of `data`, in domain order."""
        options = self._options(progress_callback)
        return self._weights(self.arrays(data), options)

    def arrays(self, data):
        """The core's arrays of `data`, after checking that its class fits
        the scorer."""
        name = self.friendly_name
        check_table(data, name)
        if not isinstance(data.domain.class_var, self.class_type):
            kind = ("categorical" if self.class_type is DiscreteVariable
                    else "numeric")
            raise ValueError(f"{name} needs a {kind} target variable.")
        for preprocess in self.preprocessors:
            data = preprocess(data)
        return table_arrays(data, name, sparse=True)

    def _options(self, progress_callback):
        """The core's options, checked
        (:meth:`~CheckedOnce._checked_once`), and `progress_callback`."""
        return dict(self._checked_once(),
                    progress_callback=progress_callback)

    def _given_options(self):
        """The scorer's parameters that its variant's estimator takes."""
        return {name: value for name, value in vars(self).items()
                if name in self.variant.parameters}

    def _weights(self, arrays, options):
        """The weights of `arrays` with the checked `options`
        (:meth:`_options`)."""
        return self.variant.weights(arrays.X, arrays.y, arrays.discrete,
                                    task=arrays.task, checked=True,
                                    **options)

    def rescorer(self, arrays):
        """``rescore(y)``: the weights of `arrays` with the target `y`, a
        permutation of theirs (for
        :func:`~orangecontrib.relief.core.analysis.significance.permutation_test`).
        Scorers whose neighbours do not depend on the target find them
        once."""
        options = self._options(None)
        return lambda y: self._weights(arrays._replace(y=y), options)


class Relief(ReliefScorer):
    """Kira & Rendell's Relief: one nearest hit and miss, two classes;
    `ties` ("share" or "lower-index") places a tied nearest hit or miss
    (see :func:`orangecontrib.relief.core.relieff`).

    See :func:`orangecontrib.relief.core.relief`.
    """
    variant = registry.RELIEF

    def __init__(self, n_iterations=None, random_state=RANDOM_STATE,
                 diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, ties=TIES):
        self._keep(locals())


class ReliefF(ReliefScorer):
    """Kononenko's ReliefF: k near hits and misses per class, class priors,
    RELIEF-D missing values; `ties` ("share", default, or "lower-index")
    places the candidates at the k-th distance.  See
    :func:`orangecontrib.relief.core.relieff`.
    """
    variant = registry.RELIEFF

    def __init__(self, n_iterations=None, k_nearest=K_RELIEFF,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, ties=TIES):
        self._keep(locals())


class MuRelief(ReliefF):
    """mu-Relief (Aggarwal et al. 2023; scikit-rebate 0.8): ReliefF's
    update over the k hits and the k misses of each class whose distances
    lie farthest from their class's mean distance; `convention`
    ("add-on", the add-on's, or "scikit-rebate") and `ties` as
    :func:`orangecontrib.relief.core.variants.murelief.murelief` takes them.
    """
    variant = registry.MURELIEF

    def __init__(self, n_iterations=None, k_nearest=K_RELIEFF,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, ties=TIES, convention=CONVENTION):
        self._keep(locals())


class RReliefF(ReliefScorer):
    """Robnik-Sikonja & Kononenko's RReliefF for a numeric target.

    See :func:`orangecontrib.relief.core.rrelieff`.
    """
    variant = registry.RRELIEFF

    def __init__(self, n_iterations=None, k_nearest=K_RRELIEFF,
                 random_state=RANDOM_STATE, weighting="exp_rank", sigma=None,
                 diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, ties=TIES):
        self._keep(locals())

    def rescorer(self, arrays):
        return significance.rrelieff_rescorer.unchecked(
            arrays.X, arrays.y, arrays.discrete, **self._checked_once())


class DReliefF(ReliefF):
    """Double ReliefF (Prat & Belanche 2006, section 3): ReliefF whose
    neighbour search weights the attributes by its own current estimates.

    See :func:`orangecontrib.relief.core.variants.double.drelieff`.
    """
    variant = registry.DRELIEFF

    def __init__(self, n_iterations=None, k_nearest=K_RELIEFF,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, clip_negative=True, ties=TIES):
        self._keep(locals())


class PDReliefF(DReliefF):
    """Progressively weighted double ReliefF (Prat & Belanche 2006,
    section 3.1): the distance weights move from 1 (ReliefF) to the
    estimates (dReliefF) as f(w, t) = (w - 1) c(t) / (c(t) + s) + 1,
    c(t) = (t / m)^a.

    See :func:`orangecontrib.relief.core.variants.double.pdrelieff`.
    """
    variant = registry.PDRELIEFF

    def __init__(self, n_iterations=None, k_nearest=K_RELIEFF,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, a=double.DEFAULT_EXPONENT, s=double.DEFAULT_S,
                 clip_negative=True, ties=TIES):
        self._keep(locals())


class ClassDependentScorer(ReliefScorer):
    """Common ground of CDRelief and IWCDRelief (discrete class only).

    Their natural result is a (classes x attributes) matrix, one weight
    vector per class.  Orange's scorer contract is one score per
    attribute, so the call returns the *prior-weighted mean of the class
    rows*, ``sum_c P(c) W[c]`` with P(c) the class frequencies (for
    CDRelief with every instance a reference: the global k-nearest-neighbour
    Relief with pooled misses, Qiu & He 2019, eq. 3, divided by k), and
    :meth:`class_weights` returns the matrix.
    """

    def __init__(self, k_nearest=K_CLASS_DEPENDENT, n_iterations=None,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, ties=TIES):
        self._keep(locals())

    def class_weights(self, data, progress_callback=None):
        """The (classes x attributes) matrix: row c holds the weights of the
        c-th value of ``data.domain.class_var``, NaN if it has no instance.
        """
        arrays = self.arrays(data)
        return self.variant.estimator(
            arrays.X, arrays.y, arrays.discrete,
            n_classes=len(data.domain.class_var.values),
            **self._options(progress_callback))


class CDRelief(ClassDependentScorer):
    """Marchiori's class-dependent Relief (Qiu & He 2019, eq. 4).

    One weight vector per class, learnt from the reference instances of that
    class with their k nearest hits and k nearest misses (pooled over the
    other classes); neighbours by Euclidean distance.  See
    :func:`orangecontrib.relief.core.variants.classdep.cdrelief`.
    """
    variant = registry.CDRELIEF


class IWCDRelief(ClassDependentScorer):
    """Instance-weighted class-dependent Relief (Qiu & He 2019, eq. 5, 6).

    `threshold` (0..1) keeps only references near the class border;
    `update` is the reading of eq. 6 ("as_printed" or "as_text").  See
    :func:`orangecontrib.relief.core.variants.classdep.iwcdrelief`.
    """
    variant = registry.IWCDRELIEF

    def __init__(self, k_nearest=K_CLASS_DEPENDENT, threshold=THRESHOLD,
                 update="as_printed", n_iterations=None,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, ties=TIES):
        self._keep(locals())


class RFSMScorer(ReliefScorer):
    """Scores attributes by the greedy RFSM search (for the Rank widget).

    The greedy forward search of the RFSM paper is run to the end (every
    attribute gets a place); ``score="gain"`` (default) gives each attribute
    the increase of W_S it brought when it was added, ``score="order"``
    gives a - position (a for the first added), so that sorting by the
    score reproduces the order.  Attributes added after the search's
    stopping point brought no gain.  Either class type is scored (RFSM's
    classification or regression form).

    The other parameters are those of
    :class:`orangecontrib.relief.core.RFSM`; see
    :func:`orangecontrib.relief.core.subsets.rfsm.rfsm_scores`.
    """
    variant = registry.RFSM
    SCORES = SCORES

    def __init__(self, score="gain", k_nearest=K_RFSM, n_iterations=None,
                 random_state=RANDOM_STATE, priors="eq2", diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, ties=TIES):
        self._keep(locals())
        self.score = check_choice("score", score, self.SCORES)

    def search(self, data, progress_callback=None):
        """The :class:`~orangecontrib.relief.core.subsets.SearchResult` of
        the greedy search to the end on `data` (``selected``: where the
        search stopped)."""
        arrays = self.arrays(data)
        options = self._options(progress_callback)
        del options["score"]
        measure = RFSM(arrays.X, arrays.y, arrays.discrete, task=arrays.task,
                       **options)
        return greedy_forward(measure, continue_to_end=True)


class NeighbourhoodScorer(ReliefScorer):
    """Common ground of the SURF family: neighbourhoods bounded by a
    distance instead of a count (:mod:`orangecontrib.relief.core.variants.surf`).
    Either class type is scored: a categorical class by ReliefF's rule, a
    numeric one by RReliefF's.
    """

    @property
    def method(self):
        """The variant's key of
        :data:`~orangecontrib.relief.core.variants.surf.NEIGHBOURHOODS`: the
        neighbourhood that STIR tests for it."""
        return self.variant.stir

    def rescorer(self, arrays):
        return significance.surf_rescorer.unchecked(
            arrays.X, arrays.y, arrays.discrete, method=self.method,
            task=arrays.task, **self._checked_once())


class SURF(NeighbourhoodScorer):
    """SURF (Greene et al. 2009): every instance nearer than the mean
    distance of all pairs is a neighbour.  See
    :func:`orangecontrib.relief.core.variants.surf.surf`."""
    variant = registry.SURF


class SURFstar(NeighbourhoodScorer):
    """SURF* (Greene et al. 2010): SURF, minus the same update over the
    instances farther than the mean distance.  See
    :func:`orangecontrib.relief.core.variants.surf.surfstar`."""
    variant = registry.SURFSTAR


class MultiSURF(NeighbourhoodScorer):
    """MultiSURF (Urbanowicz et al. 2018): the neighbours of each reference
    are nearer than its mean distance minus half its standard deviation
    (`deviation`: "population" or "sample").  See
    :func:`orangecontrib.relief.core.variants.surf.multisurf`."""
    variant = registry.MULTISURF

    def __init__(self, n_iterations=None, random_state=RANDOM_STATE,
                 deviation=DEVIATION, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF):
        self._keep(locals())


class MultiSURFstar(MultiSURF):
    """MultiSURF* (Granizo-Mackenzie & Moore 2013): MultiSURF, and the
    instances beyond the mean distance plus half the standard deviation
    scored by their similarity.  See
    :func:`orangecontrib.relief.core.variants.surf.multisurfstar`."""
    variant = registry.MULTISURFSTAR


class WeightedNeighbourhoodScorer(ReliefScorer):
    """Common ground of the SWRF family (a categorical class): the SURF
    family's neighbourhoods, each neighbour weighted by a sigmoid of its
    distance from its set's limit; `convention` ("add-on" or
    "scikit-rebate") scores the far sets and takes SWRF's statistics
    (:mod:`orangecontrib.relief.core.variants.swrf`); `deviation` ("population"
    or "sample") the deviation of a reference's own distances.
    """

    def __init__(self, n_iterations=None, random_state=RANDOM_STATE,
                 convention=CONVENTION, deviation=DEVIATION, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF):
        self._keep(locals())


class SWRF(WeightedNeighbourhoodScorer):
    """SWRF (Stokes & Visweswaran 2012): SURF's neighbours weighted by
    tanh(2 |D - T| / sigma).  See
    :func:`orangecontrib.relief.core.variants.swrf.swrf`."""
    variant = registry.SWRF


class SWRFstar(WeightedNeighbourhoodScorer):
    """SWRF*: SWRF and the far instances, by their weighted similarity.
    See :func:`orangecontrib.relief.core.variants.swrf.swrfstar`."""
    variant = registry.SWRFSTAR


class MultiSWRF(WeightedNeighbourhoodScorer):
    """MultiSWRF: the instances nearer than each reference's mean distance,
    weighted by their distance from it.  See
    :func:`orangecontrib.relief.core.variants.swrf.multiswrf`."""
    variant = registry.MULTISWRF


class MultiSWRFstar(WeightedNeighbourhoodScorer):
    """MultiSWRF*: MultiSWRF and the far instances.  See
    :func:`orangecontrib.relief.core.variants.swrf.multiswrfstar`."""
    variant = registry.MULTISWRFSTAR


class MultiSWRFDB(WeightedNeighbourhoodScorer):
    """MultiSWRFDB: MultiSURF's neighbours weighted by their distance from
    its limit.  See :func:`orangecontrib.relief.core.variants.swrf.multiswrfdb`."""
    variant = registry.MULTISWRFDB


class MultiSWRFDBstar(WeightedNeighbourhoodScorer):
    """MultiSWRFDB*: MultiSURF*'s neighbourhoods, weighted.  See
    :func:`orangecontrib.relief.core.variants.swrf.multiswrfdbstar`."""
    variant = registry.MULTISWRFDBSTAR


class WrapperScorer(CheckedOnce, Scorer):
    """Common ground of TuRF, VLS and Iter: another scorer, run several
    times.  TuRF and VLS run it on subsets of the attributes: a scorer of
    this module on the core's arrays (:meth:`run_on_arrays`); any other
    Orange scorer (Orange's own,
    :class:`~orangecontrib.relief.significance.Significance`, another
    wrapper) on the table of the subset's attributes
    (:meth:`run_on_columns`)."""
    feature_type = Variable
    supports_sparse_data = True

    @property
    def class_type(self):
        return self.scorer.class_type

    def fits(self, class_var):
        """Whether the wrapped scorer can weigh data with `class_var`."""
        return fits(self.scorer, class_var)

    def __call__(self, data, feature=None, *, progress_callback=None):
        return of_feature(data, sortable(self.result(
            data, progress_callback).scores), feature)

    def score_data(self, data, feature=None):
        return self(data, feature)

    def result(self, data, progress_callback=None):
        """The wrapper's result on `data`: its scores and how it came to
        them (TuRF's :class:`~.core.variants.turf.TurfResult`, VLS's
        :class:`~.core.variants.vls.VlsResult`, Iter's
        :class:`~.core.variants.iterative.IterResult`).  The options of
        the wrapper and of the scorers it wraps are checked once, here,
        whatever the rounds (:meth:`checked`)."""
        return self.checked()._result(data, progress_callback)

    def checked(self, by_caller=False):
        """:meth:`CheckedOnce.checked`, the wrapped scorer's options
        too."""
        wrapper = super().checked(by_caller)
        if wrapper is not self:
            wrapper.scorer = checked(self.scorer, by_caller)
        return wrapper

    def _result(self, data, progress_callback):
        """:meth:`result`, the options trusted: the core's wrapper around
        the scorer on the core's arrays or on tables of columns."""
        if isinstance(self.scorer, ReliefScorer):
            options = self.scorer._checked_once()  # once, every round
            arrays = self.scorer.arrays(data)

            def score(X, y, discrete, progress_callback=None):
                return self.scorer._weights(
                    arrays._replace(X=X, discrete=discrete),
                    dict(options, progress_callback=progress_callback))

            return self.run_on_arrays(score, arrays, progress_callback)
        check_table(data, self.friendly_name)
        data = without_weights(data)  # Orange's scorers would read them
        domain = data.domain

        def score_columns(columns, progress_callback):
            kept = Domain([domain.attributes[c] for c in columns],
                          domain.class_vars, domain.metas)
            return table_scores(self.scorer, data.transform(kept))

        return self.run_on_columns(score_columns, len(domain.attributes),
                                   progress_callback)

    def _options(self, progress_callback):
        """The wrapper's options, checked once a call unless trusted, and
        `progress_callback`."""
        return dict(self._checked_once(), progress_callback=progress_callback)

    def run_on_arrays(self, score, arrays, progress_callback):
        """The core's wrapper around ``score(X, y, discrete, ...)`` on the
        columns of `arrays`."""
        raise NotImplementedError

    def run_on_columns(self, score_columns, n_attributes, progress_callback):
        """The core's wrapper around ``score_columns(columns, ...)``."""
        raise NotImplementedError


class TuRF(WrapperScorer):
    """TuRF (Moore & White 2007) around another scorer: score, drop the
    worst `fraction` of the attributes, score the rest again,
    :func:`~orangecontrib.relief.core.variants.turf.rounds_of` (fraction) times or
    until `n_keep` remain; `schedule` "scikit-rebate" stops as
    scikit-rebate 0.8.4 does, after the first round that leaves at most
    `n_keep` (100 unless given; see
    :func:`orangecontrib.relief.core.variants.turf.round_sizes`); with `absolute`
    each round keeps the attributes of the largest |score|, and the kept
    attributes' scores are their magnitudes.  Dropped attributes score
    below the kept ones, those that lasted longer higher (see
    :func:`orangecontrib.relief.core.variants.turf.turf`).  Any scorer can be
    wrapped (:class:`WrapperScorer`).
    """
    #: the variant of :mod:`.core.registry` of its default: TuRF around
    #: MultiSURF
    variant = registry.TURF
    friendly_name = registry.TURF.name

    def __init__(self, scorer=None, fraction=TURF_FRACTION, n_keep=None,
                 schedule=TURF_SCHEDULE, absolute=ABSOLUTE):
        self.scorer = MultiSURF() if scorer is None else check_scorer(
            scorer, "TuRF")
        self.fraction = fraction
        self.n_keep = n_keep
        self.schedule = schedule
        self.absolute = absolute

    def _result(self, data, progress_callback):
        """The :class:`~orangecontrib.relief.core.variants.turf.TurfResult` on
        `data`: scores, the kept attributes and every round.  Around a
        variant of :data:`~orangecontrib.relief.core.variants.turf.PREPARED_ONCE`
        the data are prepared once for every round
        (:func:`~orangecontrib.relief.core.variants.turf.turf_prepared`)."""
        if (isinstance(self.scorer, ReliefScorer)
                and self.scorer.friendly_name in PREPARED_ONCE):
            options = dict(self._options(progress_callback),
                           **self.scorer._checked_once())
            arrays = self.scorer.arrays(data)
            return turf_prepared.unchecked(
                self.scorer.friendly_name, arrays.X, arrays.y,
                arrays.discrete, task=arrays.task, **options)
        return super()._result(data, progress_callback)

    def _given_options(self):
        return dict(fraction=self.fraction, n_keep=self.n_keep,
                    schedule=self.schedule, absolute=self.absolute)

    def run_on_arrays(self, score, arrays, progress_callback):
        return turf.unchecked(score, arrays.X, arrays.y, arrays.discrete,
                              **self._options(progress_callback))

    def run_on_columns(self, score_columns, n_attributes, progress_callback):
        return turf_rounds.unchecked(score_columns, n_attributes,
                                     **self._options(progress_callback))


def distance_weighing(scorer):
    """`scorer`, if it is a scorer of this module whose variant takes
    distance weights (Iter sets them); ValueError naming those that do
    otherwise."""
    if not (isinstance(scorer, ReliefScorer)
            and "distance_weights" in scorer.variant.parameters):
        weighing = [variant.name for variant in registry.VARIANTS
                    if "distance_weights" in variant.parameters]
        raise ValueError(
            f"Iter weights the distance of the scorer it wraps, one of "
            f"{', '.join(weighing)}; got {scorer!r}.")
    return scorer


class Iter(WrapperScorer):
    """Iter (scikit-rebate 0.8) around another scorer of this module
    (MultiSURF by default): the scorer's weights, again with its distance
    weighted by them (the negative ones 0, the others divided by the
    largest; with `absolute`, their magnitudes), the weights of later
    rounds mixed with the last by the Widrow-Hoff rule at the rate
    `beta`, at most `max_rounds` rounds, until no weight moves by `tol`
    (`convergence`: "scores", or as scikit-rebate 0.8.4 measures the
    change).  The scores are the last round's.  The wrapped scorer must
    weight its distance: Relief, ReliefF, RReliefF, the double and the
    class-dependent variants and the SURF family do.  See
    :mod:`orangecontrib.relief.core.variants.iterative`.
    """
    #: the variant of :mod:`.core.registry` of its default: Iter around
    #: MultiSURF
    variant = registry.ITER
    friendly_name = registry.ITER.name

    def __init__(self, scorer=None, max_rounds=ITER_ROUNDS, tol=ITER_TOL,
                 beta=ITER_BETA, absolute=ABSOLUTE,
                 convergence=ITER_CONVERGENCE):
        self.scorer = MultiSURF() if scorer is None else distance_weighing(
            check_scorer(scorer, "Iter"))
        self.max_rounds = max_rounds
        self.tol = tol
        self.beta = beta
        self.absolute = absolute
        self.convergence = convergence

    @property
    def n_iterations(self):
        """The references of every round: those of the wrapped scorer."""
        return self.scorer.n_iterations

    def score_table(self, data, progress_callback=None):
        """One score per attribute of `data`, in domain order: the last
        round's, as :meth:`ReliefScorer.score_table` gives a variant's."""
        return self.result(data, progress_callback).scores

    def _given_options(self):
        return dict(max_rounds=self.max_rounds, tol=self.tol, beta=self.beta,
                    absolute=self.absolute, convergence=self.convergence)

    def _result(self, data, progress_callback):
        """The :class:`~orangecontrib.relief.core.variants.iterative.IterResult` on
        `data`: the scores, every round's distance weights and scores, and
        why the rounds stopped."""
        options = dict(self._checked_once(),
                       **self.scorer._checked_once())
        arrays = self.scorer.arrays(data)
        return iterated.unchecked(self.scorer.variant, arrays.X, arrays.y,
                                  arrays.discrete, task=arrays.task,
                                  progress_callback=progress_callback,
                                  **options)


class VLS(WrapperScorer):
    """VLSRelief (Eppstein & Haake 2008) around another scorer (ReliefF
    by default): the attributes are scored in subsets of `subset_size`
    (default a third of them), each attribute's score its largest weight.
    With `cover_pairs` every pair of attributes shares a subset, so that
    two attributes that matter only together are scored together; without,
    `n_subsets` random subsets.  See
    :func:`orangecontrib.relief.core.variants.vls.vls`; any scorer can be wrapped
    (:class:`WrapperScorer`).
    """
    #: the variant of :mod:`.core.registry` of its default: VLS around
    #: ReliefF
    variant = registry.VLS
    friendly_name = registry.VLS.name

    def __init__(self, scorer=None, subset_size=None,
                 cover_pairs=COVER_PAIRS, n_subsets=None,
                 random_state=RANDOM_STATE):
        self.scorer = ReliefF() if scorer is None else check_scorer(
            scorer, "VLS")
        self.subset_size = subset_size
        self.cover_pairs = cover_pairs
        self.n_subsets = n_subsets
        self.random_state = random_state

    def _given_options(self):
        return dict(subset_size=self.subset_size, cover_pairs=self.cover_pairs,
                    n_subsets=self.n_subsets, random_state=self.random_state)

    def run_on_arrays(self, score, arrays, progress_callback):
        return vls.unchecked(score, arrays.X, arrays.y, arrays.discrete,
                             **self._options(progress_callback))

    def run_on_columns(self, score_columns, n_attributes, progress_callback):
        return vls_rounds.unchecked(score_columns, n_attributes,
                                    **self._options(progress_callback))


class Absolute(Scorer):
    """Any Orange scorer's scores by their magnitude, |score|.

    Orange's Rank widget and ``SelectBestFeatures`` rank by the score,
    higher first; wrapped, a scorer's attributes rank by the magnitude of
    their weights, so that a large negative Relief weight (near instances
    of the same class differ in the attribute more than near instances
    of different classes, as MultiSURF weighs the bits of a higher-order
    XOR; Freda et al. 2024) ranks as high as a large positive one::

        SelectBestFeatures(method=Absolute(MultiSURF()), k=5)
    """
    feature_type = Variable
    supports_sparse_data = True

    def __init__(self, scorer):
        self.absolute_of = check_scorer(scorer, "Absolute")

    def checked(self, by_caller=False):
        """The magnitudes of the wrapped scorer :func:`checked`."""
        return Absolute(checked(self.absolute_of, by_caller))

    @property
    def friendly_name(self):
        inner = self.absolute_of
        return f"|{getattr(inner, 'friendly_name', type(inner).__name__)}|"

    @property
    def class_type(self):
        return self.absolute_of.class_type

    def fits(self, class_var):
        """Whether the wrapped scorer can weigh data with `class_var`."""
        return fits(self.absolute_of, class_var)

    def __call__(self, data, feature=None, *, progress_callback=None):
        scorer = self.absolute_of
        if isinstance(scorer, (ReliefScorer, WrapperScorer)):
            scores = scorer(data, progress_callback=progress_callback)
        else:
            scores = table_scores(scorer, data)
        return of_feature(data, np.abs(scores), feature)

    def score_data(self, data, feature=None):
        return self(data, feature)


class NPDR(ReliefScorer):
    """NPDR (Le, Dawkins & McKinney 2020): every attribute's diff over the
    neighbour pairs regressed on whether the pair is a miss (a class) or
    on the target's diff (a number), the `covariates`' diffs beside it.

    The score is the attribute's coefficient; :meth:`result` gives its
    standard error, statistic, p- and q-values (`adjustment`).
    `covariates` names variables of the table (metas or attributes) whose
    diffs adjust every fit, a list of distinct names; a covariate that is
    an attribute is neither scored (NaN in :meth:`result`, -inf in the
    plain call: :func:`sortable`) nor in the distance.  NPDR weighs every instance:
    `n_iterations` must be None (`random_state` is unused).  See
    :func:`orangecontrib.relief.core.variants.npdr.npdr`.
    """
    variant = registry.NPDR
    declared_as = NPDR_NAMES

    def __init__(self, covariates=(), neighbourhood=NPDR_NEIGHBOURHOOD,
                 k_nearest=None, deviation=DEVIATION, adjustment=ADJUSTMENT,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, ties=TIES):
        self._keep(locals())

    def _given_options(self):
        return dict(
            covariates=self.covariates, neighbourhood=self.neighbourhood,
            k_nearest=self.k_nearest, deviation=self.deviation,
            ties=self.ties, diff=self.diff, t_eq=self.t_eq,
            t_diff=self.t_diff, adjustment=self.adjustment,
            n_iterations=self.n_iterations, random_state=self.random_state)

    def _checked_once(self):
        """The options of :func:`~.core.variants.npdr.npdr`, checked
        (:meth:`CheckedOnce._checked_once`), and the covariates' names
        (:meth:`result` finds their columns)."""
        options = super()._checked_once()
        if options.pop("n_iterations") is not None:
            raise ValueError(f"NPDR weighs every instance: n_iterations "
                             f"must be None, got {self.n_iterations!r}.")
        del options["random_state"]  # of a permutation test
        return options

    def score_table(self, data, progress_callback=None):
        return self.result(data, progress_callback).coefficient

    def _weights(self, arrays, options):
        # of TuRF's rounds and the permutation test: without covariates
        options = dict(options)
        del options["covariates"]
        return npdr.unchecked(arrays.X, arrays.y, arrays.discrete,
                              task=arrays.task, **options).coefficient

    def result(self, data, progress_callback=None):
        """The :data:`~orangecontrib.relief.core.variants.npdr.NpdrResult` of every
        attribute of `data`, in domain order (NaN for the covariates)."""
        options = self._options(progress_callback)
        covariates = [self._covariate(data, name)
                      for name in options.pop("covariates")]
        arrays = self.arrays(data)
        for preprocess in self.preprocessors:  # the rows of the arrays
            data = preprocess(data)
        attributes = data.domain.attributes
        metas = [c for c in covariates if c not in attributes]
        X = np.column_stack([arrays.X.toarray() if sp.issparse(arrays.X)
                             else arrays.X]
                            + [data.get_column(c) for c in metas])
        discrete = np.concatenate([arrays.discrete,
                                   [c.is_discrete for c in metas]])
        columns = list(attributes) + metas
        result = npdr_columns.unchecked(
            X, arrays.y, discrete, [columns.index(c) for c in covariates],
            names=[column.name for column in columns], task=arrays.task,
            **options)
        return result._replace(**{
            field: getattr(result, field)[:len(attributes)]
            for field in PER_ATTRIBUTE})

    def _covariate(self, data, name):
        """The table's variable `name` (an attribute or a meta), for a
        covariate."""
        domain = data.domain
        if name in (var.name for var in domain.class_vars):
            raise ValueError(f"covariates names {name!r}, the class: a "
                             f"covariate adjusts the fits of the class "
                             f"and cannot be it.")
        variable = next((v for v in domain.attributes + domain.metas
                         if v.name == name), None)
        if variable is None:
            raise ValueError(f"covariates names {name!r}, which is neither "
                             f"an attribute nor a meta of the data.")
        if not variable.is_primitive():
            raise ValueError(f"covariates names {name!r}, a column of "
                             f"text: a covariate must be numeric or "
                             f"categorical.")
        return variable


def convergence_note(result, data):
    """What NPDR's :class:`~orangecontrib.relief.core.errors.ConvergenceWarning`
    says of `result` (:meth:`NPDR.result` of `data`), naming the attributes
    of `data`; None where every fit converged.  For a caller that cannot
    catch the warning (catching warnings is not thread-safe: a widget's
    worker thread)."""
    attributes = data.domain.attributes
    labels, _ = column_labels([a.name for a in attributes], len(attributes),
                              None)
    return unconverged_message(result, labels)
