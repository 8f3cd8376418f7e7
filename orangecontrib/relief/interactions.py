"""The Relief interaction map of an Orange table: which attributes act
together, over the neighbour pairs the weights use
(:mod:`.core.networks.interactions`, derived in ``doc/interactions.md``).

:func:`interactions` maps the best attributes of a table;
:func:`pairs_table` gives its pairs, strongest first, as a table;
:func:`heat_map_figure` draws it.
"""
from collections import namedtuple

import numpy as np
from Orange.data import ContinuousVariable, Domain, StringVariable, Table

from .arrays import table_arrays
from .core.networks.interactions import (clustered_order, interaction_map,
                                         strongest_pairs)
from .core.options import (ABSOLUTE, ADJUSTMENT, N_PERMUTATIONS,
                           RANDOM_STATE, TIES)

TableInteractions = namedtuple("TableInteractions", [
    "map",         # the core's InteractionMap
    "variables",   # the mapped attributes (Orange variables), best first
])

#: the registry's variants (:mod:`.variants`) whose neighbour pairs the map
#: reads, with the core's name of their pairs (RReliefF's are ReliefF's k
#: nearest of a numeric class; the starred SURFs' near pairs are their
#: plain versions')
MAP_METHODS = {"Relief": "relief", "ReliefF": "relieff", "RReliefF": "relieff",
               "SURF": "surf", "SURF*": "surf*", "MultiSURF": "multisurf",
               "MultiSURF*": "multisurf*"}

#: the numeric columns of :func:`pairs_table`, by the map's field
PAIR_COLUMNS = (("interaction", "interaction"),
                ("co-difference", "co_difference"),
                ("marginal", "marginal"), ("t", "statistic"), ("p", "p"),
                ("q", "q"))


def interactions(data, *, method="relieff", top_k=None, attributes=None,
                 absolute=ABSOLUTE, test="t", adjustment=ADJUSTMENT,
                 n_permutations=N_PERMUTATIONS, random_state=RANDOM_STATE,
                 k_nearest=None, ties=TIES, progress_callback=None):
    """The interaction map of `data` (an Orange table with a class): of its
    best `top_k` attributes by `method`'s weights (default the best 30),
    or of `attributes` (variables or their names).

    `method`: "relief", "relieff", "surf", "surf*", "multisurf" or
    "multisurf*"; `test` "t" (a categorical class), "permutation"
    (`n_permutations` of the class or target, seeded by `random_state`)
    or None; the other options as
    :func:`.core.networks.interactions.interaction_map`'s.

    Returns
    -------
    TableInteractions

    Raises
    ------
    ValueError
        The table or the options do not suit the map (the core's
        ``ReliefInputError`` is a ValueError), or `attributes` names a
        column that is not an attribute of `data`.
    """
    arrays = table_arrays(data, "The interaction map")
    domain = data.domain
    if attributes is not None:
        attributes = [attribute_index(domain, a) for a in attributes]
    result = interaction_map(
        arrays.X, arrays.y, arrays.discrete, method=method,
        task=arrays.task, top_k=top_k, attributes=attributes,
        absolute=absolute, test=test, adjustment=adjustment,
        n_permutations=n_permutations, random_state=random_state,
        k_nearest=k_nearest, ties=ties,
        names=[var.name for var in domain.attributes],
        progress_callback=progress_callback)
    return TableInteractions(
        result, [domain.attributes[i] for i in result.attributes])


def attribute_index(domain, attribute):
    """The index among the attributes of `domain` of `attribute` (a
    variable or a name)."""
    name = getattr(attribute, "name", attribute)
    names = [var.name for var in domain.attributes]
    if name not in names:
        raise ValueError(f"{name!r} is not an attribute of the data.")
    return names.index(name)


def pairs_table(found, absolute=True):
    """The pairs of the map `found` (a :class:`TableInteractions`),
    strongest first (by |interaction|, or with ``absolute=False`` by the
    interaction): the two attributes' names as meta columns, and the
    interaction, co-difference, product of the marginals, t, p and q."""
    order = strongest_pairs(found.map, absolute)
    first = np.array([a for a, _ in order], np.int64)
    second = np.array([b for _, b in order], np.int64)
    values = np.column_stack([getattr(found.map, field)[first, second]
                              for _, field in PAIR_COLUMNS])
    names = np.array([[found.variables[a].name, found.variables[b].name]
                      for a, b in order], object).reshape(-1, 2)
    domain = Domain([ContinuousVariable(name) for name, _ in PAIR_COLUMNS],
                    metas=[StringVariable("attribute 1"),
                           StringVariable("attribute 2")])
    table = Table.from_numpy(domain, values, metas=names)
    table.name = "interactions"
    return table


def heat_map_figure(found, filename, title=None, dpi=110):
    """Draw the map `found` into the PNG file `filename`: the interaction
    of every pair in the clustered order, blue where near instances of
    different classes differ in the two together less often than those of
    the same class (an XOR), red where more often; the diagonal blank, a
    dot on the pairs with q < 0.05."""
    return draw_heat_map(found.map.interaction,
                         [var.name for var in found.variables], found.map.q,
                         filename, "interaction", title, dpi)


def draw_heat_map(matrix, names, q, filename, label, title=None, dpi=110):
    """Draw the square `matrix` of the attributes `names` into the PNG file
    `filename` in the clustered order (:func:`.core.networks.interactions.
    clustered_order`) on a colour scale symmetric about 0 (its bar named
    `label`), the diagonal blank, a dot on the pairs where `q` < 0.05."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    matrix = np.array(matrix, dtype=np.float64)
    order = clustered_order(matrix)
    matrix = matrix[np.ix_(order, order)]
    np.fill_diagonal(matrix, np.nan)
    names = [names[i] for i in order]
    size = 3.0 + 0.22 * len(names)
    figure = Figure(figsize=(size + 1.2, size))
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    top = np.nanmax(np.abs(matrix)) if np.isfinite(matrix).any() else 1.0
    image = ax.imshow(matrix, cmap="RdBu_r", vmin=-top, vmax=top)
    marked = np.argwhere(np.asarray(q)[np.ix_(order, order)] < 0.05)
    ax.plot(marked[:, 1], marked[:, 0], "k.", ms=4,
            label="q < 0.05" if len(marked) else None)
    ax.set_xticks(range(len(names)), names, rotation=90, fontsize=7)
    ax.set_yticks(range(len(names)), names, fontsize=7)
    figure.colorbar(image, ax=ax, shrink=0.8, label=label)
    if title:
        ax.set_title(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(filename, dpi=dpi)
    return filename
