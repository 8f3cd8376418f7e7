"""Every Relief variant of the add-on, declared once.

A :class:`Variant` says what the layers above need to offer, call and test
a variant: its name, the core function that computes it (its estimator),
the tasks it handles, its neighbourhood, its parameters (read off the
estimator's signature, with the defaults of :mod:`.options`) and the names
under which the other layers know it (its Orange scorer, its scikit-learn
selector, its literal reference in the tests).  :data:`VARIANTS` holds them
in the order the command line and the widgets list them; the command line,
the widgets, the Orange scorers, the scikit-learn selectors and the tests'
matrices read it, so a new variant is an entry here, a constant added to
:data:`VARIANTS` (``doc/contributing.md`` walks through one).
"""
import inspect
from dataclasses import dataclass
from typing import Optional, Protocol

import numpy as np

from .variants import (classdep, double, estimators, iterative, murelief,
                       npdr, surf, swrf, turf, vls)
from .engines import preparation
from .errors import ReliefInputError
from .targets import TASKS
from .subsets import rfsm

__all__ = ["Variant", "Estimator", "VARIANTS", "by_name", "offered", "CLASSIFICATION",
           "REGRESSION", "TASKS", "K_NEAREST", "WITHIN_DISTANCE", "RELIEF",
           "RELIEFF", "RRELIEFF", "MURELIEF", "DRELIEFF", "PDRELIEFF",
           "MULTISURF", "MULTISURFSTAR", "SURF", "SURFSTAR", "CDRELIEF", "IWCDRELIEF",
           "RFSM", "TURF", "VLS", "NPDR", "SWRF", "SWRFSTAR", "MULTISWRF",
           "MULTISWRFSTAR", "MULTISWRFDB", "MULTISWRFDBSTAR", "ITER"]

#: what a variant weighs for: a categorical class, a numeric one
CLASSIFICATION, REGRESSION = TASKS
#: the two kinds of neighbourhood: a reference's k nearest instances (of
#: each class), or every instance within a distance of it
K_NEAREST, WITHIN_DISTANCE = "k nearest", "within a distance"
#: parameters of the estimators that no layer above passes as an option
NOT_OPTIONS = ("task", "progress_callback", "client", "n_classes")


class Estimator(Protocol):
    """What a variant's core function is (:attr:`Variant.estimator`).

    ``estimator(X, y, discrete, **options)``: `X` the data (instances x
    attributes: an array, a sparse matrix or columns of :mod:`.columns`),
    `y` the class or target (NaN where unknown), `discrete` which columns
    are nominal (None: none); the options are keyword-only, each with its
    default of :mod:`.options` (:attr:`Variant.parameters` reads them off
    the signature), with ``task=`` where the variant handles both tasks
    and ``progress_callback(fraction)``.  It returns one float64 weight
    per attribute, or with :attr:`Variant.per_class` one row per class;
    bad input raises :class:`.errors.ReliefInputError`.
    """

    def __call__(self, X, y, discrete=None, *, progress_callback=None,
                 **options) -> np.ndarray:
        ...


@dataclass(frozen=True)
class Variant:
    """One Relief variant.

    Attributes
    ----------
    name : str
        What the command line, the widgets and Rank call it ("ReliefF").
    estimator : Estimator
        The core function: ``estimator(X, y, discrete, **options)`` (with
        ``task=`` where it takes one) returns one weight per attribute, or
        with `per_class` one row of weights per class (:class:`Estimator`).
    tasks : tuple of str
        :data:`CLASSIFICATION` (a categorical class), :data:`REGRESSION`
        (a numeric one) or both.
    neighbourhood : str
        :data:`K_NEAREST` (one of each class where k is no option of it,
        as Relief's) or :data:`WITHIN_DISTANCE`.
    summary : str
        What the variant is, in a line of plain words (the Relief widget's
        tooltip).
    scorer : str
        The name of its Orange scorer (``orangecontrib.relief.<scorer>``).
    reference : str
        Its slow literal implementation in the tests, ``module.function``
        under ``tests/reference`` (called as the estimator is).
    selector : str or None
        The name of its scikit-learn selector
        (``orangecontrib.relief.sklearn.<selector>``), if it has one.
    n_classes : int or None
        The number of classes it needs, if it needs a number (Relief: 2).
    per_class : bool
        Whether the estimator gives a row of weights per class (the
        variant's weights are their prior-weighted mean,
        :func:`.variants.classdep.prior_summary`).
    stir : str or None
        The neighbourhood STIR tests for it (:func:`.analysis.significance.stir`),
        None if STIR cannot test it.
    offered : bool
        Whether ``orange-relief rank`` and the Relief widget offer it (the
        class-dependent variants and RFSM have widgets of their own, TuRF
        and VLS wrap another scorer).
    short : str
        A few plain words that tell it from its neighbours in the Relief
        widget's list ("numeric class"), for a reader who has not read
        the papers (`summary` names the paper).
    parts : tuple of str
        The parts of the compiled engine's preparation that compile its
        kernels (:data:`.engines.preparation.PARTS`): once they are
        prepared, it may run on the compiled engine.
    column : str
        A shorter name for its column in Orange's Rank widget, where its
        name is wider than Rank's columns ("" : its name).
    """
    name: str
    estimator: Estimator
    tasks: tuple
    neighbourhood: str
    summary: str
    scorer: str
    reference: str
    selector: Optional[str] = None
    n_classes: Optional[int] = None
    per_class: bool = False
    stir: Optional[str] = None
    offered: bool = True
    short: str = ""
    parts: tuple = ()
    column: str = ""

    @property
    def parameters(self):
        """{name: default} of the options the estimator takes (not `task`,
        the progress callback, a Dask client or a number of classes)."""
        signature = inspect.signature(self.estimator).parameters.values()
        return {p.name: p.default for p in signature
                if p.kind is p.KEYWORD_ONLY and p.name not in NOT_OPTIONS}

    @property
    def takes_k(self):
        """Whether the number of neighbours k is an option of it."""
        return "k_nearest" in self.parameters

    @property
    def takes_ties(self):
        """Whether the places of tied k-th neighbours (``ties``,
        :mod:`.formulas.ties`) are an option of it: the variants of a k
        nearest neighbourhood."""
        return "ties" in self.parameters

    @property
    def default_k(self):
        """Its default k (None if it takes no k)."""
        return self.parameters.get("k_nearest")

    def fits(self, task, n_classes=None):
        """Whether it weighs data of `task` with `n_classes` classes."""
        return task in self.tasks and (self.n_classes is None
                                       or n_classes == self.n_classes)

    def weights(self, X, y, discrete=None, *, task=None,
                progress_callback=None, checked=False, **options):
        """One weight per attribute of (X, y): the estimator with
        `options` (the variant's first task if `task` is None); with
        `checked`, options that the caller has checked
        (:func:`.validation.checked_options`), given to the estimator's
        ``unchecked`` function."""
        task = self.tasks[0] if task is None else task
        if task not in self.tasks:
            raise ReliefInputError(
                f"{self.name} handles {' and '.join(self.tasks)}, not "
                f"{task}.")
        if "task" in inspect.signature(self.estimator).parameters:
            options["task"] = task
        estimator = (getattr(self.estimator, "unchecked", self.estimator)
                     if checked else self.estimator)
        result = estimator(X, y, discrete,
                           progress_callback=progress_callback, **options)
        return classdep.prior_summary(result, y) if self.per_class else result


RELIEF = Variant(
    "Relief", estimators.relief, tasks=(CLASSIFICATION,),
    neighbourhood=K_NEAREST,
    summary="one nearest hit and miss, two classes (Kira & Rendell 1992)",
    scorer="Relief", reference="relief.relief", n_classes=2,
    short="two classes, one neighbour of each",
    parts=(preparation.RELIEFF,))
RELIEFF = Variant(
    "ReliefF", estimators.relieff, tasks=(CLASSIFICATION,),
    neighbourhood=K_NEAREST,
    summary="k nearest hits and misses of each class (Kononenko 1994)",
    scorer="ReliefF", selector="ReliefF", reference="relief.relieff",
    stir="relieff", short="categorical class",
    parts=(preparation.RELIEFF,))
RRELIEFF = Variant(
    "RReliefF", estimators.rrelieff, tasks=(REGRESSION,),
    neighbourhood=K_NEAREST,
    summary="a numeric class, k nearest neighbours (Robnik-Sikonja & "
            "Kononenko 1997)",
    scorer="RReliefF", selector="RReliefF", reference="relief.rrelieff",
    short="numeric class",
    parts=(preparation.RRELIEFF,))
MURELIEF = Variant(
    "mu-Relief", murelief.murelief, tasks=(CLASSIFICATION,),
    neighbourhood=K_NEAREST,
    summary="ReliefF over the k hits and misses of each class whose "
            "distances lie farthest from their class's mean distance "
            "(scikit-rebate 0.8 after Aggarwal et al. 2023)",
    scorer="MuRelief", selector="MuRelief", reference="relief.murelief",
    short="farthest from the class mean",
    parts=(preparation.RELIEFF,))
DRELIEFF = Variant(
    "DReliefF", double.drelieff, tasks=(CLASSIFICATION,),
    neighbourhood=K_NEAREST,
    summary="ReliefF that weights its own distance (Prat & Belanche 2006)",
    scorer="DReliefF", reference="double.drelieff",
    short="learns its own distance",
    parts=(preparation.DOUBLE,))
PDRELIEFF = Variant(
    "PDReliefF", double.pdrelieff, tasks=(CLASSIFICATION,),
    neighbourhood=K_NEAREST,
    summary="ReliefF that weights its own distance more and more (Prat & "
            "Belanche 2006)",
    scorer="PDReliefF", reference="double.pdrelieff",
    short="learns its distance as it goes",
    parts=(preparation.DOUBLE,))
MULTISURF = Variant(
    "MultiSURF", surf.multisurf, tasks=TASKS, neighbourhood=WITHIN_DISTANCE,
    summary="every instance nearer than the reference's mean distance "
            "less half a standard deviation, good for attributes that "
            "matter only together (Urbanowicz et al. 2018)",
    scorer="MultiSURF", selector="MultiSURF", reference="surf.multisurf",
    stir="multisurf", short="a radius per instance",
    parts=(preparation.SURF,))
MULTISURFSTAR = Variant(
    "MultiSURF*", surf.multisurfstar, tasks=TASKS,
    neighbourhood=WITHIN_DISTANCE,
    summary="MultiSURF and the far instances, by their similarity "
            "(Granizo-Mackenzie & Moore 2013)",
    scorer="MultiSURFstar", selector="MultiSURFstar",
    reference="surf.multisurfstar", stir="multisurf*",
    short="MultiSURF, far instances too",
    parts=(preparation.SURF,))
SURF = Variant(
    "SURF", surf.surf, tasks=TASKS, neighbourhood=WITHIN_DISTANCE,
    summary="every instance nearer than the mean distance (Greene et al. "
            "2009)",
    scorer="SURF", selector="SURF", reference="surf.surf", stir="surf",
    short="one radius for all",
    parts=(preparation.SURF,))
SURFSTAR = Variant(
    "SURF*", surf.surfstar, tasks=TASKS, neighbourhood=WITHIN_DISTANCE,
    summary="SURF less the update of the far instances (Greene et al. "
            "2010)",
    scorer="SURFstar", selector="SURFstar", reference="surf.surfstar",
    stir="surf*", short="SURF, far instances too",
    parts=(preparation.SURF,))
SWRF = Variant(
    "SWRF", swrf.swrf, tasks=(CLASSIFICATION,),
    neighbourhood=WITHIN_DISTANCE,
    summary="SURF's neighbours weighted by a sigmoid of their distance "
            "from the mean distance (Stokes & Visweswaran 2012)",
    scorer="SWRF", selector="SWRF", reference="swrf.swrf", stir="swrf",
    short="SURF, weighted by distance", parts=(preparation.SURF,))
SWRFSTAR = Variant(
    "SWRF*", swrf.swrfstar, tasks=(CLASSIFICATION,),
    neighbourhood=WITHIN_DISTANCE,
    summary="SWRF and the far instances, by their weighted similarity "
            "(Stokes & Visweswaran 2012)",
    scorer="SWRFstar", selector="SWRFstar", reference="swrf.swrfstar",
    stir="swrf*",
    short="SWRF, far instances too", parts=(preparation.SURF,))
MULTISWRF = Variant(
    "MultiSWRF", swrf.multiswrf, tasks=(CLASSIFICATION,),
    neighbourhood=WITHIN_DISTANCE,
    summary="every instance nearer than the reference's mean distance, "
            "weighted by a sigmoid of how far it is from that mean "
            "(scikit-rebate 0.8 after Stokes & Visweswaran 2012)",
    scorer="MultiSWRF", selector="MultiSWRF", reference="swrf.multiswrf",
    stir="multiswrf",
    short="a radius per instance, weighted", parts=(preparation.SURF,))
MULTISWRFSTAR = Variant(
    "MultiSWRF*", swrf.multiswrfstar, tasks=(CLASSIFICATION,),
    neighbourhood=WITHIN_DISTANCE,
    summary="MultiSWRF and the far instances, by their weighted "
            "similarity (scikit-rebate 0.8 after Stokes & Visweswaran "
            "2012)",
    scorer="MultiSWRFstar", selector="MultiSWRFstar",
    reference="swrf.multiswrfstar", stir="multiswrf*",
    short="MultiSWRF, far instances too", parts=(preparation.SURF,),
    column="MSWRF*")
MULTISWRFDB = Variant(
    "MultiSWRFDB", swrf.multiswrfdb, tasks=(CLASSIFICATION,),
    neighbourhood=WITHIN_DISTANCE,
    summary="MultiSURF's neighbours weighted by a sigmoid of their "
            "distance from its limit (scikit-rebate 0.8 after Stokes & "
            "Visweswaran 2012)",
    scorer="MultiSWRFDB", selector="MultiSWRFDB",
    reference="swrf.multiswrfdb", stir="multiswrfdb",
    short="MultiSURF, weighted by distance", parts=(preparation.SURF,),
    column="MSWRFDB")
MULTISWRFDBSTAR = Variant(
    "MultiSWRFDB*", swrf.multiswrfdbstar, tasks=(CLASSIFICATION,),
    neighbourhood=WITHIN_DISTANCE,
    summary="MultiSURF*'s neighbours and far instances, weighted by a "
            "sigmoid of their distance from their limits (scikit-rebate "
            "0.8 after Stokes & Visweswaran 2012)",
    scorer="MultiSWRFDBstar", selector="MultiSWRFDBstar",
    reference="swrf.multiswrfdbstar", stir="multiswrfdb*",
    short="MultiSWRFDB, far instances too", parts=(preparation.SURF,),
    column="MSWRFDB*")
CDRELIEF = Variant(
    "CDRelief", classdep.cdrelief, tasks=(CLASSIFICATION,),
    neighbourhood=K_NEAREST,
    summary="a weight vector per class (Marchiori 2013)",
    scorer="CDRelief", reference="classdep.cdrelief_weights",
    per_class=True, offered=False, parts=(preparation.CLASS_DEPENDENT,))
IWCDRELIEF = Variant(
    "IWCDRelief", classdep.iwcdrelief, tasks=(CLASSIFICATION,),
    neighbourhood=K_NEAREST,
    summary="a weight vector per class, from the instances near the class "
            "border (Qiu & He 2019)",
    scorer="IWCDRelief", reference="classdep.iwcdrelief_weights",
    per_class=True, offered=False, parts=(preparation.CLASS_DEPENDENT,))
RFSM = Variant(
    "RFSM", rfsm.rfsm_scores, tasks=TASKS, neighbourhood=K_NEAREST,
    summary="what each attribute adds to the Relief feature set measure "
            "in a greedy search (Arauzo-Azofra et al. 2004)",
    scorer="RFSMScorer", reference="rfsm.rfsm_scores", offered=False,
    parts=(preparation.RFSM,))
TURF = Variant(
    "TuRF", turf.turf_multisurf, tasks=TASKS, neighbourhood=WITHIN_DISTANCE,
    summary="MultiSURF by rounds, dropping the worst attributes between "
            "them (Moore & White 2007)",
    scorer="TuRF", reference="surf.turf_multisurf", offered=False,
    parts=(preparation.SURF,))
ITER = Variant(
    "Iter", iterative.iter_multisurf, tasks=TASKS,
    neighbourhood=WITHIN_DISTANCE,
    summary="MultiSURF by rounds, each weighting the distance by the "
            "scores before (scikit-rebate 0.8's Iter)",
    scorer="Iter", reference="iterative.iter_multisurf", offered=False,
    parts=(preparation.SURF,))
VLS = Variant(
    "VLS", vls.vls_relieff, tasks=(CLASSIFICATION,), neighbourhood=K_NEAREST,
    summary="ReliefF on subsets of the attributes, every pair of them "
            "together in one, each attribute's best weight (Eppstein & "
            "Haake 2008)",
    scorer="VLS", reference="vls.vls_relieff", offered=False,
    parts=(preparation.RELIEFF,))

NPDR = Variant(
    "NPDR", npdr.npdr_coefficients, tasks=TASKS,
    neighbourhood=WITHIN_DISTANCE,
    summary="each attribute's diff over MultiSURF's neighbour pairs "
            "regressed on whether the pair is a miss (or on the target's "
            "diff), with p-values and covariates (Le, Dawkins & McKinney "
            "2020)",
    scorer="NPDR", selector="NPDR", reference="npdr.npdr_coefficients",
    short="regression: p-values, covariates",
    parts=(preparation.NPDR,))

#: every variant, in the order the command line and the widgets list them
VARIANTS = (RELIEF, RELIEFF, RRELIEFF, MURELIEF, DRELIEFF, PDRELIEFF,
            MULTISURF, MULTISURFSTAR, SURF, SURFSTAR, SWRF, SWRFSTAR, MULTISWRF,
            MULTISWRFSTAR, MULTISWRFDB, MULTISWRFDBSTAR, CDRELIEF, IWCDRELIEF,
            RFSM, TURF, ITER, VLS, NPDR)

_BY_NAME = {variant.name: variant for variant in VARIANTS}


def by_name(name):
    """The variant called `name` (ReliefInputError naming the others)."""
    if name not in _BY_NAME:
        raise ReliefInputError(f"method must be one of "
                               f"{', '.join(_BY_NAME)}, got {name!r}.")
    return _BY_NAME[name]


def offered():
    """The variants that ``orange-relief rank`` and the Relief widget offer,
    in their order."""
    return [variant for variant in VARIANTS if variant.offered]
