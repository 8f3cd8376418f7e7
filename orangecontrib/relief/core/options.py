"""The parameters of every estimator: defaults and checks, declared once.

Every public function of the core takes its options by these names, with
these defaults, and checks them with :func:`check`, so that a bad value
gets the same message wherever it is passed (in the spirit of
scikit-learn's declared parameter constraints)::

    k = check("k_nearest", k_nearest)

A message names the parameter, says what it must be and shows the value:
``"k_nearest must be a positive integer, got 0."``.  A setting that only
another makes count, given a value of its own without that one, is
refused by :func:`check_needs`, which names the other:
``"t_eq needs diff='ramp': without it t_eq has no effect."``.
"""
import numbers

import numpy as np

from .errors import ReliefInputError
from .formulas import ties
from .formulas.ties import TIE_RULES

#: the diff of numeric attributes (see :mod:`.formulas.diffs`) and the ramp's
#: thresholds, as fractions of the attribute's range
DIFF = "linear"
T_EQ = 0.04
T_DIFF = 0.10

#: nearest neighbours: ReliefF per class (Kononenko 1994 suggests 10),
#: RReliefF in all (Robnik-Sikonja & Kononenko 2003 use 70; 50 here),
#: CDRelief and IWCDRelief per class (Qiu & He 2019 try 3 to 7), RFSM per
#: class (Arauzo-Azofra et al. use Relief's 1)
K_RELIEFF = 10
K_RRELIEFF = 50
K_CLASS_DEPENDENT = 5
K_RFSM = 1

#: seed of the reference sampling: equal inputs give equal outputs
RANDOM_STATE = 0

#: how a ranking orders the attributes: by their weights (False), or by
#: the weights' magnitude (True), so that an attribute whose near
#: instances of the same class differ in it more than those of different
#: classes (a large negative weight, as the bits of a higher-order XOR
#: get from MultiSURF; Freda et al. 2024) ranks high too
ABSOLUTE = False

#: the candidates at the k-th distance of a k-nearest list: "share" (each
#: of the t takes r / t of the r places left, the expectation over a
#: random tie-break, so that the weights do not depend on the order of
#: the rows) or "lower-index" (the lower instance indices take them, as a
#: stable sort by distance does); declared in :mod:`.formulas.ties`,
#: where the engines read it
TIES = ties.TIES

#: the standard deviation of MultiSURF's thresholds: the population's
#: (scikit-rebate, fast-select) or the sample's (STIR, NPDR)
DEVIATION = "population"

#: the conventions of the variants scikit-rebate 0.8 added: the add-on's
#: ("add-on": the SWRF family's every far neighbour by its weighted
#: similarity and T over distinct pairs, :mod:`.variants.swrf`; mu-Relief's tied
#: places shared, the reference never its own neighbour and ReliefF's
#: priors, :mod:`.variants.murelief`) or scikit-rebate 0.8's ("scikit-rebate")
CONVENTION = "add-on"

#: the share of the remaining attributes TuRF drops each round (scikit-rebate's
#: default; Moore & White 2007 drop a tenth)
TURF_FRACTION = 0.5

#: TuRF's rounds (:mod:`.variants.turf`): every one of int(1 / fraction), or
#: scikit-rebate 0.8.4's, which stop after the first round that leaves at
#: most n_keep attributes, SKREBATE_N_KEEP unless given (its
#: ``num_scores_to_return``)
TURF_SCHEDULE = "every round"
SKREBATE_N_KEEP = 100

#: Iter (:mod:`.variants.iterative`): at most ITER_ROUNDS fits of the wrapped
#: variant, stopping once no score moves by ITER_TOL or more, the distance
#: weights mixed by the Widrow-Hoff rule at the rate ITER_BETA (scikit-rebate
#: 0.8's max_iter, convergence_threshold and beta); the change measured
#: between the scores of two rounds ("scores") or as scikit-rebate 0.8.4
#: measures it
ITER_ROUNDS = 10
ITER_TOL = 1e-4
ITER_BETA = 0.1
ITER_CONVERGENCE = "scores"

#: VLS builds its subsets so that every pair of attributes shares one
#: (False: random subsets, as Eppstein & Haake 2008 drew them)
COVER_PAIRS = True

#: significance: permutations of the class, the adjustment of the p-values
#: for testing every attribute (Benjamini-Hochberg's false discovery rate)
#: and the level at which an attribute counts as significant; more than
#: MAX_PERMUTATIONS would take days and resolve p-values no test needs
N_PERMUTATIONS = 1000
MAX_PERMUTATIONS = 10 ** 8
ADJUSTMENT = "bh"
ALPHA = 0.05

#: STIR's p-values come out too small when the classes differ in size
#: (random attributes pass as significant; doc/significance.md): from
#: this ratio of the largest class to the smallest on, the add-on says so
STIR_BALANCE = 1.5

#: STIR's variances of the diffs: weighted alike and divided by the number
#: of references, the population's (Le et al. 2019 and their R package), or
#: made unbiased, the sample's (the textbook pooled t-test)
VARIANCE = "population"

#: STIR's pairs: the paper's (False), or as the authors' R package finds
#: and weighs them (True: pooled misses, its twins, its keep rule;
#: :mod:`.analysis.r_pairs`), for a user who must match a published R analysis
R_COMPATIBLE = False

#: the fewest instances of every class on which STIR gives a verdict: with
#: one, every miss pair of the other classes' references is that instance
STIR_MIN_CLASS = 2

#: the most values a generated nominal attribute or class may have (each
#: is named; a million names would take minutes and no table needs them)
MAX_VALUES = 10_000

#: IWCDRelief's instance-weight threshold (Qiu & He 2019, eq. 5)
THRESHOLD = 0.5

#: stability: resamples of the instances and how they are drawn (with
#: replacement, or a share of them without), the attributes counted as
#: selected in each (the best TOP_K, at most half of the attributes), and
#: the confidence of the rank intervals and of the stability index
N_RESAMPLES = 100
RESAMPLING = "bootstrap"
SUBSAMPLE = 0.5
TOP_K = 10
CONFIDENCE = 0.95

#: the cross-validation of the selection curve
N_FOLDS = 10

#: NPDR's neighbourhood (the R package's default), and how much of the
#: R package's conventions it follows where they differ from the add-on's
#: (doc/npdr.md): identical instances, the diffs' scale (and k's ties,
#: where NPDR also offers the R package's "all", PARAMETERS["npdr_ties"])
NPDR_NEIGHBOURHOOD = "multisurf"
TWINS = "include"
SCALE = "range"

#: survival NPDR (:mod:`.variants.survival_npdr`): the authors' defaults -- absolute
#: diffs, linear fits, censored times as observed, the pairs of unknown
#: order left out
SURVIVAL_DIFFS = "absolute"
SURVIVAL_REGRESSION = "linear"
IMPUTE = False
FILTER_PAIRS = True


class Constraint:
    """What a parameter may be: ``constraint(name, value)`` returns the
    value in its working type or raises ReliefInputError."""
    requirement = ""

    def __call__(self, name, value):
        raise NotImplementedError

    def fail(self, name, value):
        raise ReliefInputError(
            f"{name} must be {self.requirement}, got {value!r}.")


class Integer(Constraint):
    """An integer (a bool is not one, nor a float of integral value) of at
    least `low`, at most `maximum` if given."""

    def __init__(self, low=0, maximum=None):
        self.low, self.maximum = low, maximum
        least = "a positive integer" if low == 1 else f"an integer >= {low}"
        self.requirement = (least if maximum is None
                            else f"{least} up to {maximum:,}")

    def __call__(self, name, value):
        if (not isinstance(value, numbers.Integral)
                or isinstance(value, bool) or value < self.low
                or self.maximum is not None and value > self.maximum):
            self.fail(name, value)
        return int(value)


class PositiveInt(Integer):
    """An integer >= 1, at most `maximum` if given."""

    def __init__(self, maximum=None):
        super().__init__(1, maximum)


class Optional(Constraint):
    """None, or what `inner` accepts."""

    def __init__(self, inner, meaning):
        self.inner = inner
        self.requirement = f"{inner.requirement} or None ({meaning})"

    def __call__(self, name, value):
        if value is None:
            return None
        try:
            return self.inner(name, value)
        except ReliefInputError:
            self.fail(name, value)


class OneOf(Constraint):
    """One of the given strings."""

    def __init__(self, *allowed):
        self.allowed = allowed
        self.requirement = "one of " + ", ".join(map(repr, allowed))

    def __call__(self, name, value):
        if not isinstance(value, str) or value not in self.allowed:
            self.fail(name, value)
        return value


class Interval(Constraint):
    """A finite real number in [low, high], or in (low, high) if `open`."""

    def __init__(self, low, high=np.inf, open=False):
        self.low, self.high, self.open = low, high, open
        self.requirement = (
            "a finite number" if np.isinf(low) and np.isinf(high)
            else f"a number {'>' if open else '>='} {low}" if np.isinf(high)
            else f"a number strictly between {low} and {high}" if open
            else f"a number between {low} and {high}")

    def __call__(self, name, value):
        if (not isinstance(value, numbers.Real) or isinstance(value, bool)
                or not np.isfinite(value)
                or not self.low <= value <= self.high
                or self.open and value in (self.low, self.high)):
            self.fail(name, value)
        return float(value)


class Seed(Constraint):
    """A seed of numpy's default_rng: None (a fresh one), a non-negative
    integer, a numpy Generator or SeedSequence."""
    requirement = "None, a non-negative integer or a numpy Generator"

    def __call__(self, name, value):
        if value is None or isinstance(value, (np.random.Generator,
                                                np.random.SeedSequence)):
            return value
        if (isinstance(value, numbers.Integral) and not isinstance(value, bool)
                and value >= 0):
            return int(value)
        self.fail(name, value)


class Flag(Constraint):
    """True or False (numpy's bools too; not 0, 1 or a string, which would
    pass as one without saying so)."""
    requirement = "True or False"

    def __call__(self, name, value):
        if not isinstance(value, (bool, np.bool_)):
            self.fail(name, value)
        return bool(value)


class Names(Constraint):
    """Distinct names of columns: a list or tuple of non-empty strings (a
    plain string is refused: it would be read as its letters)."""
    requirement = "a list of distinct column names"

    def __call__(self, name, value):
        if isinstance(value, str):
            raise ReliefInputError(
                f"{name} must be {self.requirement}, got the string "
                f"{value!r}; for one column write [{value!r}].")
        try:
            names = tuple(value)
        except TypeError:
            self.fail(name, value)
        seen = set()
        for item in names:
            if not isinstance(item, str) or not item.strip():
                raise ReliefInputError(f"{name} must be {self.requirement}; "
                                       f"{item!r} is not a name.")
            if item in seen:
                raise ReliefInputError(f"{name} names {item!r} twice; give "
                                       f"each column once.")
            seen.add(item)
        return names


PARAMETERS = {
    "k_nearest": PositiveInt(),
    "n_bins": PositiveInt(),
    "target_bins": PositiveInt(),
    "n_iterations": Optional(PositiveInt(), "every instance once"),
    "random_state": Seed(),
    "diff": OneOf("linear", "squared", "ramp"),
    "deviation": OneOf("population", "sample"),
    "convention": OneOf("add-on", "scikit-rebate"),
    "variance": OneOf("population", "sample"),
    "r_compatible": Flag(),
    "absolute": Flag(),
    "fraction": Interval(0, 1, open=True),
    "n_permutations": PositiveInt(MAX_PERMUTATIONS),
    "n_attributes": PositiveInt(),
    "chunk_rows": PositiveInt(),
    "adjustment": OneOf("bh", "holm", "bonferroni"),
    "n_keep": Optional(PositiveInt(), "every round"),
    "subset_size": Optional(Integer(2), "a third of the attributes"),
    "n_subsets": Optional(PositiveInt(), "as many as the pair design"),
    "cover_pairs": Flag(),
    "schedule": OneOf("every round", "scikit-rebate"),
    "max_rounds": PositiveInt(),
    "beta": Interval(0, 1),
    "convergence": OneOf("scores", "scikit-rebate"),
    "t_eq": Interval(0),
    "t_diff": Interval(0),
    "threshold": Interval(0, 1),
    "alpha": Interval(0, 1),
    "n_resamples": Integer(2),  # a stability compares two at least
    "resampling": OneOf("bootstrap", "subsample"),
    "subsample": Optional(Interval(0, 1, open=True),
                          f"{SUBSAMPLE} with resampling='subsample'"),
    "top_k": PositiveInt(),
    "confidence": Interval(0, 1, open=True),
    "n_folds": Integer(2),
    "npdr_neighbourhood": OneOf("multisurf", "surf", "relieff"),
    "npdr_k": Optional(PositiveInt(), "the authors' rule"),
    "subset_k": Optional(PositiveInt(), "the rule's default"),
    "ties": OneOf(*TIE_RULES),
    "npdr_ties": OneOf(*TIE_RULES, "all"),
    "twins": OneOf("include", "exclude"),
    "scale": OneOf("range", "none"),
    "survival_diffs": OneOf("absolute", "signed"),
    "survival_regression": OneOf("linear", "logistic"),
    "impute": Flag(),
    "filter_pairs": Flag(),
    "covariates": Names(),
    "sigma": Optional(Interval(0, open=True), "k / 3.5"),
    "clip_negative": Flag(),
    "nonnegative": Flag(),
    "boolean": Flag(),
    "numeric": Flag(),
    "continue_to_end": Flag(),
    "tol": Interval(0),
    "max_features": Optional(PositiveInt(), "every attribute"),
    "min_features": Integer(0),
    "max_evaluations": PositiveInt(),
}


def check(name, value):
    """`value` checked against the declared constraint of `name`."""
    return PARAMETERS[name](name, value)


def check_needs(name, value, default, requirement, met):
    """ReliefInputError for `name` given a value other than its `default`
    where the setting it needs does not hold (`met` false): the message
    says which (`requirement`, such as ``"diff='ramp'"``)."""
    given = value is not None if default is None else value != default
    if given and not met:
        raise ReliefInputError(f"{name} needs {requirement}: without it "
                               f"{name} has no effect.")


def check_choice(name, value, allowed):
    """`value` if it is one of `allowed`, else a ReliefInputError in the
    same words as :func:`check`."""
    return OneOf(*allowed)(name, value)


def check_ramp(diff, t_eq, t_diff):
    """The diff's name and its thresholds, with 0 <= t_eq <= t_diff;
    thresholds other than the defaults need the ramp, the only diff that
    reads them."""
    diff = check("diff", diff)
    t_eq, t_diff = check("t_eq", t_eq), check("t_diff", t_diff)
    check_ramp_order(t_eq, t_diff)
    for name, value, default in (("t_eq", t_eq, T_EQ),
                                 ("t_diff", t_diff, T_DIFF)):
        check_needs(name, value, default, "diff='ramp'", diff == "ramp")
    return diff, t_eq, t_diff


def check_ramp_order(t_eq, t_diff):
    """ReliefInputError unless the ramp's thresholds, each checked,
    rise: t_eq <= t_diff."""
    if t_eq > t_diff:
        raise ReliefInputError(f"t_eq must be at most t_diff, got "
                               f"t_eq={t_eq!r} and t_diff={t_diff!r}.")


def check_distance_weights(distance_weights, n_attributes):
    """Attribute weights of the distance as float64 (a,), or None."""
    if distance_weights is None:
        return None
    try:
        weights = np.array(distance_weights, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        weights = np.array([np.nan])
    if len(weights) != n_attributes:
        raise ReliefInputError(
            f"distance_weights must have one entry per attribute "
            f"({n_attributes}), got {len(weights)}.")
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise ReliefInputError("distance_weights must be finite and >= 0, "
                               f"got {distance_weights!r}.")
    return weights
