"""Searches through attribute subsets guided by a set measure (numpy only).

A feature selection search has a starting point, a way to generate the next
sets and a stopping criterion; a set measure evaluates the sets (Arauzo-
Azofra, Benitez & Castro, section 2 and Fig. 1).  Any object with the
:class:`~.measure.SetMeasure` interface can guide the searches here: RFSM
(:mod:`.rfsm`), Liu's consistency (:mod:`.consistency`), or a wrapper that
cross-validates a learner (``orangecontrib.relief.selection``).  Larger
values are better.

* :func:`greedy_forward` -- the paper's search (section 5): start with the
  empty set, add the attribute that gives the largest value, stop when the
  maximum does not improve.
* :func:`backward_elimination` -- start with all attributes, remove the one
  whose removal leaves the largest value, stop when every removal lowers the
  value by more than `tol`.
* :func:`branch_and_bound` -- Liu, Motoda & Dash's automatic branch and bound
  (ABB) for a monotone measure: the smallest sets whose value is within
  `tol` of the full set's; a monotone measure lets it prune every subset of
  a set that is already below the bound.
"""
from dataclasses import dataclass, field

import numpy as np

from ..options import check
from ..progress import report

__all__ = ["SearchStep", "SearchResult", "greedy_forward",
           "backward_elimination", "branch_and_bound", "SEARCHES"]


@dataclass
class SearchStep:
    """One step of a search: the set after it and its value.

    `attribute` is the attribute added (forward) or removed (backward),
    None for the starting point; `accepted` is False for the best move of
    the last step, which the stopping criterion refused.
    """
    size: int
    value: float
    attribute: object = None
    accepted: bool = True


@dataclass
class SearchResult:
    """Outcome of a search.

    selected : list of int
        The chosen attributes (forward: in the order they were added).
    value : float
        The measure of the chosen set.
    trace : list of SearchStep
        Every step, the starting point first.
    n_evaluations : int
        How many sets were evaluated.
    complete : bool
        False if a search with a budget (branch and bound) ran out of it.
    """
    selected: list
    value: float
    trace: list = field(default_factory=list)
    n_evaluations: int = 0
    complete: bool = True

    @property
    def gains(self):
        """Value gained by each selected attribute (forward searches)."""
        values = [step.value for step in self.trace if step.accepted]
        return list(np.diff(values))


def _best(values, candidates):
    """Index into `candidates` of the largest value, the lowest attribute
    index among ties."""
    values = np.asarray(values, dtype=float)
    best = np.flatnonzero(values == values.max())
    return best[np.argmin(np.asarray(candidates)[best])]


def greedy_forward(measure, *, tol=0.0, max_features=None,
                   continue_to_end=False, progress_callback=None):
    """The greedy forward search of section 5 of the RFSM paper.

    Start with the empty set; at every step evaluate the set plus each
    remaining attribute and move to the best one (ties: the lowest
    attribute index); stop when the best value does not exceed the current
    one by more than `tol` ("when maximum can not be improved").

    Parameters
    ----------
    measure : SetMeasure
    tol : float
        A step must raise the value by more than this (default 0: any
        strict improvement).
    max_features : int or None
        Stop after this many attributes.
    continue_to_end : bool
        Keep adding attributes after the stopping criterion holds, to rank
        all of them (the result's `selected` is still where it stopped).
    progress_callback : callable(float) or None
        Receives the fraction of steps done (of at most n_attributes); may
        raise to cancel.

    Returns
    -------
    SearchResult
        With `trace[t]` the set of size t along the path.
    """
    tol, max_features = check("tol", tol), check("max_features", max_features)
    continue_to_end = check("continue_to_end", continue_to_end)
    n = measure.n_attributes
    limit = n if max_features is None else min(n, max_features)
    subset, remaining = [], list(range(n))
    value = float(measure.evaluate(subset))
    trace = [SearchStep(0, value)]
    n_evaluations, stopped_at = 1, None
    while remaining and len(subset) < (n if continue_to_end else limit):
        values = measure.forward_values(subset, remaining)
        n_evaluations += len(remaining)
        best = _best(values, remaining)
        attribute, best_value = remaining[best], float(values[best])
        if stopped_at is None and best_value <= value + tol:
            stopped_at = len(subset)
            if not continue_to_end:
                trace.append(SearchStep(len(subset) + 1, best_value,
                                        attribute, accepted=False))
                break
        subset.append(attribute)
        remaining.remove(attribute)
        value = best_value
        trace.append(SearchStep(len(subset), value, attribute,
                                accepted=stopped_at is None))
        if stopped_at is None and len(subset) >= limit:
            stopped_at = len(subset)
        report(progress_callback, len(subset) / (n if continue_to_end
                                                  else max(limit, 1)))
    report(progress_callback, 1.0)
    if stopped_at is None:
        stopped_at = len(subset)
    return SearchResult(subset[:stopped_at], trace[stopped_at].value, trace,
                        n_evaluations)


def backward_elimination(measure, *, tol=0.0, min_features=0,
                         progress_callback=None):
    """Backward elimination: start with all attributes and remove, one at a
    time, the attribute whose removal leaves the largest value, as long as
    that value is at least the current one minus `tol`.

    For a monotone measure a removal never raises the value, so with
    ``tol=0`` only attributes that the measure does not need at all go.

    Returns
    -------
    SearchResult
        `selected` in column order; the trace runs from the full set down.
    """
    tol, min_features = check("tol", tol), check("min_features", min_features)
    n = measure.n_attributes
    subset = list(range(n))
    value = float(measure.evaluate(subset))
    trace = [SearchStep(n, value)]
    n_evaluations = 1
    while len(subset) > min_features:
        values = measure.backward_values(subset, subset)
        n_evaluations += len(subset)
        best = _best(values, subset)
        attribute, best_value = subset[best], float(values[best])
        if best_value < value - tol:
            trace.append(SearchStep(len(subset) - 1, best_value, attribute,
                                    accepted=False))
            break
        subset.remove(attribute)
        value = best_value
        trace.append(SearchStep(len(subset), value, attribute))
        report(progress_callback, (n - len(subset)) / max(n, 1))
    report(progress_callback, 1.0)
    return SearchResult(sorted(subset), value, trace, n_evaluations)


def branch_and_bound(measure, *, tol=0.0, max_evaluations=20000,
                     progress_callback=None):
    """Automatic branch and bound (Liu, Motoda & Dash 1998) for a monotone
    measure.

    The bound is the value of the full set minus `tol`.  Breadth first from
    the full set, each legitimate set (value >= bound) is expanded by
    removing one attribute; a set below the bound is pruned with all its
    subsets (monotonicity), and a set with a pruned superset is not
    evaluated.  The result is the smallest legitimate set (ties: the larger
    value, then the first found).  The search stops after
    `max_evaluations` evaluations with ``complete=False``.

    Returns
    -------
    SearchResult
        The trace holds the best set of each size, largest first.
    """
    tol = check("tol", tol)
    max_evaluations = check("max_evaluations", max_evaluations)
    n = measure.n_attributes
    full = frozenset(range(n))
    bound = float(measure.evaluate(sorted(full))) - tol
    best_set, best_value = full, bound + tol
    trace = [SearchStep(n, best_value)]
    level, pruned = [full], set()
    n_evaluations, complete = 1, True
    while level and len(next(iter(level))) > 0:
        children, values = [], {}
        for parent in level:
            for attribute in sorted(parent):
                child = parent - {attribute}
                if child in values or child in pruned:
                    continue
                if any(child | {b} in pruned for b in full - child):
                    pruned.add(child)
                    continue
                if n_evaluations >= max_evaluations:
                    complete = False
                    break
                values[child] = float(measure.evaluate(sorted(child)))
                n_evaluations += 1
                if values[child] >= bound:
                    children.append(child)
                else:
                    pruned.add(child)
            if not complete:
                break
        if children:
            size = len(children[0])
            level_best = max(children, key=lambda s: values[s])
            best_set, best_value = level_best, values[level_best]
            trace.append(SearchStep(size, best_value))
        report(progress_callback, 1 - (len(children[0]) if children else 0)
                / max(n, 1))
        level = children
        if not complete:
            break
    report(progress_callback, 1.0)
    return SearchResult(sorted(best_set), best_value, trace, n_evaluations,
                        complete)


#: name -> search function, for the widget and the experiment
SEARCHES = {"greedy forward": greedy_forward,
            "backward elimination": backward_elimination,
            "branch and bound": branch_and_bound}
