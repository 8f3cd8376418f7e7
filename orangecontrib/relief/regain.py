"""reGAIN, EpistasisRank and EpistasisKatz of an Orange table: a
regression per attribute and per pair (:mod:`.core.networks.regain`, Davis et al.
2013) and the attributes ranked by their place in that network
(:mod:`.core.networks.epistasis_rank`).

:func:`regain_network` fits the network of a table's attributes;
:func:`ranking_table` gives the attributes in EpistasisRank's order,
:func:`regain_pairs_table` the pairs strongest first, both as tables;
:func:`regain_figure` draws the network as a heat map.
"""
import re
from collections import namedtuple

import numpy as np
from Orange.data import ContinuousVariable, Domain, StringVariable, Table

from .arrays import table_arrays
from .core.networks.epistasis_rank import epistasis_katz, epistasis_rank
from .core.errors import ReliefInputError
from .core.networks.interactions import TOP_K, adjusted
from .core.options import ADJUSTMENT, TIES
from .core.validation import validated
from .core.networks.regain import regain
from .core.analysis.threshold import best_first
from .interactions import attribute_index, draw_heat_map, interactions

TableRegain = namedtuple("TableRegain", [
    "network",         # the core's RegainResult, in the order of variables
    "variables",       # the attributes fitted (Orange variables)
    "covariates",      # the covariates in every model (Orange variables)
    "q",               # (a, a) the pairs' p adjusted over the a (a - 1) / 2
                       # pairs; NaN on the diagonal and where no fit
    "epistasis_rank",  # (a,) EpistasisRank (NaN where the network has a gap)
    "epistasis_katz",  # (a,) EpistasisKatz, as EpistasisRank
    "notes",           # tuple of str: what could not be fitted or ranked
])

#: the numeric columns of :func:`regain_pairs_table`, by the network's
#: field
PAIR_COLUMNS = (("statistic", "statistic"), ("coefficient", "coefficient"),
                ("standard error", "standard_error"), ("p", "p"))


@validated(covariates=None)  # variables or names, see covariate_variable
def regain_network(data, *, attributes=None, covariates=None,
                   main_effects=True, adjustment=ADJUSTMENT,
                   progress_callback=None):
    """The reGAIN network of `data` (an Orange table whose class has two
    values, logistic fits, or is numeric, linear fits), ranked by
    EpistasisRank and EpistasisKatz.

    Parameters
    ----------
    data : Orange.data.Table
    attributes : sequence of variables or names, or None
        The attributes to fit, at least two (default: every attribute that
        is not a covariate).  A nominal attribute enters by its value
        codes (a genotype 0, 1, 2).
    covariates : sequence of variables or names, or None
        Attributes or numeric meta attributes in every model and not
        scored (age, sex, batch); a nominal one of more than two values
        enters as one indicator per value but the first.
    main_effects : bool
        Whether a pair's model has the two main effects (the authors'
        default) or only their product.
    adjustment : "bh", "holm" or "bonferroni"
        Of the pairs' p-values (:attr:`TableRegain.q`).
    progress_callback : callable(float) or None

    Returns
    -------
    TableRegain

    Raises
    ------
    ValueError
        A class of other than two values, fewer than two attributes, a
        constant one (named), a name that is not an attribute of `data`
        (the core's ``ReliefInputError`` is a ValueError).
    """
    arrays = table_arrays(data, "reGAIN")
    domain = data.domain
    covariates = [covariate_variable(domain, c) for c in covariates or ()]
    if attributes is None:
        chosen = [i for i, var in enumerate(domain.attributes)
                  if var not in covariates]
    else:
        chosen = list(dict.fromkeys(attribute_index(domain, a)
                                    for a in attributes))
    variables = [domain.attributes[i] for i in chosen]
    if len(variables) < 2:
        raise ReliefInputError(f"reGAIN fits pairs of attributes and needs "
                               f"at least two; got {len(variables)}.")
    if any(var in covariates for var in variables):
        raise ReliefInputError("An attribute cannot be both fitted and a "
                               "covariate.")
    columns, column_names = covariate_columns(data, covariates)
    try:
        network = regain(arrays.X[:, chosen], class_codes(data, arrays.y),
                         columns,
                         task=arrays.task, main_effects=main_effects,
                         progress_callback=progress_callback)
    except ReliefInputError as error:  # name the core's "attribute 3"
        raise ReliefInputError(named_columns(
            str(error), [var.name for var in variables],
            column_names)) from None
    ranks, notes = network_ranks(network.statistic, variables)
    return TableRegain(network, variables, covariates,
                       adjusted(network.p, adjustment), *ranks, tuple(notes))


def best_attributes(data, top_k=None, covariates=(), *, method="relieff",
                    absolute=False, k_nearest=None, ties=TIES):
    """The names of the attributes reGAIN fits: every attribute of `data`
    but the `covariates` (names), or, where they are more than `top_k`
    (None: :data:`.core.networks.interactions.TOP_K`), the best `top_k` of them by
    the Relief weights of `method`, as the Relief map chooses them (an
    XOR's bits, whose main effects are nil, are kept)."""
    covariates = set(covariates or ())
    names = [var.name for var in data.domain.attributes
             if var.name not in covariates]
    top_k = top_k or TOP_K
    if len(names) < 2 or top_k >= len(names):
        return names  # too few are refused by name in regain_network
    found = interactions(
        data, method=method,
        top_k=min(top_k + len(covariates), len(data.domain.attributes)),
        absolute=absolute, test=None, k_nearest=k_nearest, ties=ties)
    return [var.name for var in found.variables
            if var.name not in covariates][:top_k]


def class_codes(data, y):
    """`y`, the class codes of `data`, as 0 and 1 for the two values
    present (the second the one whose odds the logistic fits model); a
    number as it is.  ReliefInputError naming the class unless it has two
    values present or is numeric."""
    class_var = data.domain.class_var
    if not class_var.is_discrete:
        return y
    present = np.unique(y[~np.isnan(y)])
    if len(present) != 2:
        raise ReliefInputError(
            f"reGAIN fits a logistic regression of a class of two values "
            f"(or a linear one of a number); the class {class_var.name!r} "
            f"has {len(present)} values in the data.")
    return np.where(np.isnan(y), np.nan, y == present[1])


def covariate_variable(domain, covariate):
    """The variable of `domain` (an attribute or a numeric meta attribute)
    that `covariate` (a variable or a name) names."""
    name = getattr(covariate, "name", covariate)
    candidates = [var for var in domain.attributes + domain.metas
                  if var.name == name
                  and (var.is_continuous or var.is_discrete)]
    if not candidates:
        raise ReliefInputError(f"Covariate {name!r} is not an attribute or "
                               f"a numeric meta attribute of the data.")
    return candidates[0]


def covariate_columns(data, covariates):
    """((n, c) the numbers of `covariates` in the models, the name of
    each column): a numeric or two-valued one as it is, a nominal one of
    more values as an indicator per value but the first (NaN where
    unknown); None without covariates."""
    columns, names = [], []
    for var in covariates:
        values = data.get_column(var).astype(np.float64)
        if var.is_discrete and len(var.values) > 2:
            columns.extend(np.where(np.isnan(values), np.nan,
                                    values == level)
                           for level in range(1, len(var.values)))
            names.extend(f"{var.name}={value}" for value in var.values[1:])
        else:
            columns.append(values)
            names.append(var.name)
    return (np.column_stack(columns) if columns else None), names


def named_columns(message, attributes, covariates):
    """`message` with the core's "attribute i" and "covariate i" replaced
    by the names of the columns."""
    names = {"attribute": attributes, "covariate": covariates}
    return re.sub(r"\b(attribute|covariate) (\d+)\b",
                  lambda match: f"{match[1]} {names[match[1]][int(match[2])]!r}",
                  message)


def network_ranks(statistic, variables):
    """((EpistasisRank, EpistasisKatz), notes) of the network `statistic`:
    NaN ranks and a note saying why where it cannot be ranked (a fit
    missing, an attribute whose interactions sum to 0)."""
    missing = np.argwhere(np.triu(~np.isfinite(statistic)))
    if len(missing):
        shown = "; ".join(f"{variables[a].name} x {variables[b].name}"
                          if a != b else variables[a].name
                          for a, b in missing[:5])
        more = len(missing) - 5
        return (np.full((2, len(variables)), np.nan),
                [f"no fit (the design is rank deficient): {shown}"
                 + (f" and {more} more" if more > 0 else "")
                 + "; EpistasisRank and EpistasisKatz need every fit"])
    try:
        return (epistasis_rank(statistic), epistasis_katz(statistic)), []
    except ReliefInputError as error:
        return (np.full((2, len(variables)), np.nan),
                [named_columns(str(error).rstrip("."),
                               [var.name for var in variables], [])
                 + "; not ranked"])


def ranking_table(found):
    """The attributes of the network `found` (a :class:`TableRegain`) as a
    table in EpistasisRank's order (by its magnitude, as the authors' R
    code ranks them): the name as a meta column, EpistasisRank,
    EpistasisKatz and the main effect's statistic (z, or t for a numeric
    class)."""
    order = np.argsort(-np.abs(np.nan_to_num(found.epistasis_rank)),
                       kind="stable")
    values = np.column_stack([found.epistasis_rank, found.epistasis_katz,
                              np.diag(found.network.statistic)])[order]
    domain = Domain([ContinuousVariable(name) for name in
                     ("EpistasisRank", "EpistasisKatz", "main effect")],
                    metas=[StringVariable("attribute")])
    table = Table.from_numpy(domain, values, metas=np.array(
        [[found.variables[i].name] for i in order], object).reshape(-1, 1))
    table.name = "EpistasisRank"
    return table


def regain_pairs_table(found):
    """The pairs of the network `found` (a :class:`TableRegain`), strongest
    interaction first (by |statistic|): the two attributes' names as meta
    columns, the statistic (z, or t), coefficient, standard error, p and
    q of the product's coefficient."""
    order = pair_order(found)
    first = np.array([a for a, _ in order], np.int64)
    second = np.array([b for _, b in order], np.int64)
    values = np.column_stack(
        [getattr(found.network, field)[first, second]
         for _, field in PAIR_COLUMNS] + [found.q[first, second]])
    names = np.array([[found.variables[a].name, found.variables[b].name]
                      for a, b in order], object).reshape(-1, 2)
    domain = Domain([ContinuousVariable(name) for name, _ in PAIR_COLUMNS]
                    + [ContinuousVariable("q")],
                    metas=[StringVariable("attribute 1"),
                           StringVariable("attribute 2")])
    table = Table.from_numpy(domain, values, metas=names)
    table.name = "reGAIN pairs"
    return table


def pair_order(found):
    """The (first, second) positions of the pairs of `found`, strongest
    interaction first (by |statistic|, ties to the earlier pair; a pair
    without a fit last)."""
    upper = np.triu_indices(len(found.variables), 1)
    order = best_first(np.abs(found.network.statistic[upper]))
    return [(int(upper[0][i]), int(upper[1][i])) for i in order]


def regain_figure(found, filename, title=None, dpi=110):
    """Draw the network `found` into the PNG file `filename`: each pair's
    statistic of interaction (z, or t) in the clustered order, red where
    the product raises the odds of the second class (or the target),
    blue where it lowers them; the diagonal blank, a dot on the pairs
    with q < 0.05."""
    statistic = ("z" if found.network.regression == "logistic" else "t")
    return draw_heat_map(found.network.statistic,
                         [var.name for var in found.variables], found.q,
                         filename, f"reGAIN interaction ({statistic})",
                         title, dpi)
