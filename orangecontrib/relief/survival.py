"""Survival NPDR in Orange: the scorer :class:`SurvivalNPDR` of a table
whose survival time and event are marked as the Survival Analysis add-on
marks them, or named.

The Survival Analysis add-on (orange3-survival-analysis, its "As Survival
Data" widget) makes the time and the event the table's two targets, each
marked in its variable's ``attributes`` dict: ``"_time_to_event_var"``
is ``"time"`` or ``"event"``.  :func:`survival_variables` reads that
mark, or takes the two variables by name (among the targets, the
attributes or the metas).  An event variable is numeric (1 an event, 0
censored), categorical of values "0" and "1" (or one of them), or
categorical of two values, the second the event (as "no", "yes" sort).
"""
import warnings
from collections import namedtuple

import numpy as np
from Orange.data import Variable
from Orange.preprocess.score import Scorer

from .core.variants.npdr import PER_ATTRIBUTE, spread
from .core.options import (ADJUSTMENT, DEVIATION, FILTER_PAIRS, IMPUTE,
                           NPDR_NEIGHBOURHOOD, SCALE, SURVIVAL_DIFFS,
                           SURVIVAL_REGRESSION, TIES, TWINS, check)
from .core.variants.survival_npdr import survival_npdr
from .core.validation import SURVIVAL_NAMES, checked_options
from .scorers import of_feature, sortable

#: the Survival Analysis add-on's mark of the time and event variables
MARK = "_time_to_event_var"
TIME, EVENT = "time", "event"

SurvivalColumns = namedtuple("SurvivalColumns", [
    "time", "event",  # the variables
    "attributes",     # the attributes scored: the domain's, but these
    "covariates",     # the covariates' variables
])


def marked(domain):
    """The (time, event) variables the Survival Analysis add-on marked
    among the targets of `domain` (None for one not marked)."""
    found = {var.attributes.get(MARK): var for var in domain.class_vars}
    return found.get(TIME), found.get(EVENT)


def named_variable(domain, name, role):
    """The variable `name` of `domain` (a target, an attribute or a meta),
    for `role`; ValueError if there is none."""
    for var in domain.variables + domain.metas:
        if var.name == name:
            if not var.is_primitive():
                raise ValueError(f"The {role} {name!r} is a column of text; "
                                 f"it must be numeric or categorical.")
            return var
    raise ValueError(f"The {role} {name!r} is not a column of the data.")


def survival_variables(domain, time=None, event=None):
    """The time and event variables of `domain`: named (`time`, `event`)
    or marked by the Survival Analysis add-on.  ValueError naming what is
    missing: a time without an event, or neither."""
    marked_time, marked_event = marked(domain)
    time = (marked_time if time is None
            else named_variable(domain, time, "survival time"))
    event = (marked_event if event is None
             else named_variable(domain, event, "event"))
    if time is None and event is None:
        raise ValueError(
            "Survival NPDR needs a survival time and an event: name them "
            "(time, event; --time, --event) or mark them with the Survival "
            "Analysis add-on's As Survival Data widget.")
    if event is None:
        raise ValueError(f"The survival time {time.name!r} has no event "
                         f"column: name the column that says which times "
                         f"are events (1) and which censored (0).")
    if time is None:
        raise ValueError(f"The event {event.name!r} has no survival time: "
                         f"name the column of the times.")
    if time is event:
        raise ValueError(f"{time.name!r} cannot be both the time and the "
                         f"event.")
    if not time.is_continuous:
        raise ValueError(f"The survival time {time.name!r} must be numeric.")
    if (event.is_discrete and numeric_values(event) is None
            and len(event.values) != 2):
        raise ValueError(f"The event {event.name!r} has {len(event.values)} "
                         f"values; it needs two (censored, event) or "
                         f"numbers 0 and 1.")
    return time, event


def numeric_values(variable):
    """The numbers a categorical variable's values spell ("0", "1"), as
    a float array; None if one does not spell a number."""
    try:
        return np.array([float(value) for value in variable.values])
    except ValueError:
        return None


def event_column(data, event):
    """The events of `data`: a numeric column as it is; a categorical
    one's numbers where its values spell them, else its codes (the
    second value the event)."""
    column = data.get_column(event)
    numbers = numeric_values(event) if event.is_discrete else None
    if numbers is None:
        return column
    known = ~np.isnan(column)
    out = np.full(len(column), np.nan)
    out[known] = numbers[column[known].astype(int)]
    return out


def survival_columns(domain, time=None, event=None, covariates=()):
    """The :data:`SurvivalColumns` of `domain`: the attributes scored are
    those that are neither the time, the event nor a covariate."""
    time, event = survival_variables(domain, time, event)
    chosen = [named_variable(domain, name, "covariate")
              for name in covariates]
    for var in chosen:
        if var in (time, event):
            raise ValueError(f"The covariate {var.name!r} is the survival "
                             f"time or the event.")
    attributes = [var for var in domain.attributes
                  if var not in (time, event) and var not in chosen]
    if not attributes:
        raise ValueError("The data has no attribute to score besides the "
                         "time, the event and the covariates.")
    return SurvivalColumns(time, event, attributes, chosen)


class SurvivalNPDR(Scorer):
    """Survival NPDR (Kampmeyer et al. 2026): every attribute's diff over
    NPDR's neighbour pairs regressed on the difference of the survival
    times (:func:`orangecontrib.relief.core.variants.survival_npdr.survival_npdr`,
    whose options these are).

    The time and event are the targets the Survival Analysis add-on
    marks, or the columns named `time` and `event`; `covariates` names
    columns (attributes or metas) whose signed diffs adjust every fit.
    The score is the coefficient b_A, its magnitude with signed diffs
    (a main effect either way); an attribute that is the time, the event
    or a covariate has none (-inf).  :meth:`result` gives every field.
    """
    feature_type = Variable
    friendly_name = "Survival NPDR"
    preprocessors = []
    supports_sparse_data = True

    def __init__(self, time=None, event=None, covariates=(),
                 diffs=SURVIVAL_DIFFS, regression=SURVIVAL_REGRESSION,
                 impute=IMPUTE, filter_pairs=FILTER_PAIRS,
                 neighbourhood=NPDR_NEIGHBOURHOOD, k_nearest=None,
                 deviation=DEVIATION, ties=TIES, twins=TWINS, scale=SCALE,
                 adjustment=ADJUSTMENT):
        self.time, self.event = time, event
        self.covariates = check("covariates", covariates)
        self.diffs, self.regression = diffs, regression
        self.impute, self.filter_pairs = impute, filter_pairs
        self.neighbourhood, self.k_nearest = neighbourhood, k_nearest
        self.deviation, self.ties, self.twins = deviation, ties, twins
        self.scale, self.adjustment = scale, adjustment

    def __call__(self, data, feature=None, *, progress_callback=None):
        """The score of every attribute of `data`, or of `feature`."""
        result = self.result(data, progress_callback)
        scores = result.coefficient
        if self.diffs == "signed":
            scores = np.abs(scores)
        return of_feature(data, sortable(scores), feature)

    def score_data(self, data, feature=None):
        return self(data, feature)

    def result(self, data, progress_callback=None):
        """The :data:`~orangecontrib.relief.core.variants.npdr.NpdrResult` of every
        attribute of `data`, in domain order (NaN for the time, the event
        and the covariates)."""
        options = checked_options(dict(
            diffs=self.diffs, regression=self.regression, impute=self.impute,
            filter_pairs=self.filter_pairs, neighbourhood=self.neighbourhood,
            k_nearest=self.k_nearest, deviation=self.deviation,
            ties=self.ties, twins=self.twins, scale=self.scale,
            adjustment=self.adjustment), **SURVIVAL_NAMES)
        columns = survival_columns(data.domain, self.time, self.event,
                                   self.covariates)
        X = np.column_stack([data.get_column(var)
                             for var in columns.attributes])
        covariates = (np.column_stack([data.get_column(var)
                                       for var in columns.covariates])
                      if columns.covariates else None)
        time, event = (data.get_column(columns.time),
                       event_column(data, columns.event))
        unknown = int((np.isnan(time) | np.isnan(event)).sum())
        if unknown:
            warnings.warn(f"{unknown} of the {len(time)} instances have no "
                          f"survival time or event; survival NPDR leaves "
                          f"them out.", UserWarning)
        result = survival_npdr.unchecked(
            X, time, event,
            [var.is_discrete for var in columns.attributes], covariates,
            [var.is_discrete for var in columns.covariates]
            if columns.covariates else None,
            names=[var.name for var in columns.attributes + columns.covariates],
            progress_callback=progress_callback, **options)
        scored = np.array([var in columns.attributes
                           for var in data.domain.attributes], bool)
        return result._replace(**{field: spread(getattr(result, field),
                                                scored)
                                  for field in PER_ATTRIBUTE})

