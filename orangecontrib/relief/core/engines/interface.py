"""The interface both engines implement, declared once.

:mod:`.compiled` and :mod:`.vectorised` are modules with these functions,
of these parameters, computing the same results
(``tests/core/test_engine.py`` checks that each module is an
:class:`Engine`, with these names and parameters;
``tests/core/test_engine_agreement.py`` checks the results).  The
estimators reach an engine through :func:`..engines.kernels`, which
returns it as an :class:`Engine`, and call nothing else of it.
"""
from typing import Protocol, runtime_checkable

from ..formulas.ties import TIES


@runtime_checkable
class Engine(Protocol):
    """What an engine module provides (steps 1-3 of every variant)."""

    def tables(self, scaled, nominal, groups, n_groups, kind, t_eq, t_diff,
               order):
        """Step 1, the engine's part: (slot, relief_d, search), the RELIEF-D
        tables of the scaled data (:mod:`..tables`) and the float32 search
        tables of the instances in `order` (None where the engine has
        none)."""

    def missing_diff_tables(self, scaled, nominal, groups, n_groups, kind,
                            t_eq, t_diff):
        """Kononenko's RELIEF-D tables of the scaled data: (slot,
        relief_d) as the exact tables hold them (:mod:`..tables`); a
        column's tables depend on that column alone."""

    def find_neighbours(self, data, refs, k, weights=None,
                        progress_callback=None, client=None, ties=TIES,
                        distances=True):
        """Step 2: the k nearest instances of each group to each reference,
        as :class:`..neighbours.NeighbourLists` (each list nearest first,
        by exact distance and then index, the places of the candidates at
        the k-th distance by the tie rule `ties`); on a Dask `client`'s
        cluster where the engine can.  Without `distances`, for a caller
        that reads the instances and places alone, the lists' distances
        may be NaN where the engine did not need them."""

    def mean_farthest_neighbours(self, data, refs, k, ties=TIES,
                                 scikit_rebate=None,
                                 progress_callback=None):
        """Step 2 of mu-Relief: each reference's k instances of each
        group whose distances lie farthest from the group's mean distance
        (:mod:`..formulas.mean_farthest`), as NeighbourLists; the tied at
        the k-th deviation by the tie rule `ties`; with `scikit_rebate` (the
        divisor of the distances in scikit-rebate's form, None for the
        add-on's selection) scikit-rebate 0.8's deviations and order."""

    def plane_distances(self, planes, digits, rows, out):
        """out[r, j] += the popcount distance, in half units, of instance
        rows[r] and every instance j of a block's bit planes
        (:mod:`..compact.planes`)."""

    def add_distances(self, exact, weights, rows, out):
        """out[r, j] += sum_A w_A diff(A, I_rows[r], I_j) over the
        attributes of the exact tables `exact` (a block of columns),
        continuing the running sums of `out` in attribute order, as the
        exact distance adds them."""

    def sparse_distances(self, scale, nominal, kind, t_eq, t_diff,
                         weights, rows, out):
        """out[r, j] = sum_A w_A diff(A, I_rows[r], I_j) of the CSR matrix
        of `scale` (:class:`..compact.distances.SparseScale`: sorted
        indices, no value missing), each value scaled as it is read, an
        entry it does not store being its column's scaled 0, the
        attributes added in their order: the exact distance of the matrix
        made dense."""

    def level_tables(self, codes, n_levels):
        """What ``level_sums`` reads of the levels `codes` (n, a) of
        attributes of n_levels values (:class:`..tables.LevelTables`)."""

    def level_sums(self, members, groups, n_groups, tables, ref_diffs,
                   squares):
        """The sums of diffs (and squared diffs) of each row of `members`
        over its members of each group, counted from the
        :meth:`level_tables` `tables` (:class:`..tables.LevelTables`)."""

    def nearest_prototypes(self, train_X, train_y, squared_weights,
                           discrete, X, k, ties=TIES):
        """The k training instances nearest to each row of X by Qiu & He's
        (2019) class-dependent distance (their eq. 1), for each set of
        class weights of `squared_weights` (sets x classes x
        attributes): a list of Neighbours, one per set, the places of the
        prototypes tied at the k-th distance by the tie rule `ties`."""

    def relieff_rule(self, exact, refs, neighbours, priors):
        """Step 3 of Relief and ReliefF: the weights (`neighbours` the
        NeighbourLists of `refs`, as for every rule)."""

    def rrelieff_sums(self, exact, refs, neighbours, target, rank_weights):
        """Step 3 of RReliefF: (N_dC, N_dA, N_dCdA)."""

    def neighbour_sums(self, exact, refs, neighbours, coefficients):
        """Step 3 of multi-target RReliefF and multi-label ReliefF: (totals
        (c,), sums (c, a)), over every reference and its neighbours in
        order, of coef[e, c] and of coef[e, c] diff(A, R, I_e), the pair's
        diffs computed once for every column c; `coefficients(start,
        part)` gives the (E, c) coefficients of a part's entries."""

    def cdrelief_rule(self, exact, refs, scale, neighbours, n_groups):
        """Step 3 of CDRelief: one weight row per class (eq. 4), the
        misses pooled from the lists by their search distances."""

    def iwcdrelief_rule(self, exact, metric, weights, refs, scale,
                        neighbours, pair_coef, thresholds, as_printed):
        """Step 3 of IWCDRelief: one weight row per class (eq. 6) for each
        of the `thresholds` (an array; the rows stacked)."""

    def double_relieff(self, data, refs, k, fixed, clip, exponent, s, ties,
                       progress_callback=None):
        """Steps 2 and 3 of (p)dReliefF, one reference at a time."""

    def radius_rule(self, data, refs, labels, task, local, far, ddof, stir,
                    progress_callback=None, given=None, band=0.5,
                    weighting=None, hit_bound=None):
        """Steps 2 and 3 of the SURF family, for each labelling of the
        instances: the rule's sums and scalars (STIR's counts, the SWRF
        family's far terms or RReliefF's N_dC); the distances computed,
        or read from `given`
        (:class:`..formulas.neighbourhoods.GivenDistances`); local limits
        `band` standard deviations about the mean; with a `weighting`
        (classification; whether SWRF's global statistics count the zero
        diagonal) each neighbour weighted by its sigmoid weight (the SWRF
        family); with a `hit_bound` (`labels` a numeric target) the
        classification rule, each reference's hits the instances whose
        target lies within the bound of its own (scikit-rebate's
        continuous endpoint)."""

    def neighbour_pairs(self, data, rule, k, ddof, exclude_twins,
                        weights=None, progress_callback=None):
        """NPDR's pairs: every (reference, neighbour) of each instance's
        neighbourhood by `rule` (:mod:`..formulas.npdr`), the attributes
        weighted by `weights` in the distance (None: 1), as two int32
        arrays, references and then neighbours in increasing order."""

    def pair_regressions(self, exact, first, second, outcome, covariates,
                         logistic, intercept, levels, pair_weights=None,
                         progress_callback=None):
        """NPDR's regression of every attribute over the pairs (first[p],
        second[p]), each weighing ``pair_weights[p]`` in the fit (None:
        1), the attributes of few `levels` from their pairs grouped by
        level: coefficients (a, k), [H^-1]_11, the linear fits' weighted
        squared residuals and whether each fit converged."""

    def reference_distances(self, rows, references, nominal, kind, t_eq,
                            t_diff, out):
        """out[j, r] = sum_A diff(A, row j, reference r) of streamed
        (scaled, complete) `rows` and the `references`, into `out` (rows x
        references), the attributes added in their order (as the
        in-memory exact distance adds them)."""

    def pair_sums(self, tables, first, second, miss, hit):
        """The interaction map: (4, a), every attribute's sums over the
        (first, second) pairs (sorted by reference) of d (u - v) (the
        weights), d u, d v and d, `miss` and `hit` the pairs' multipliers
        u and v."""

    def map_sums(self, tables, first, second, miss, hit, attributes, mean,
                 squares):
        """The interaction map: (sum_i z_i, sum_i z_i ** 2 if `squares`,
        else zeros) over the references i of the pairs (sorted by
        reference), z_i the (K, K) products of the `attributes`' diffs on
        i's pairs less `mean` (2, K: the misses' and the hits' means),
        weighted by u less those weighted by v."""

    def pair_diffs(self, tables, first, second, attributes):
        """RFSM: the diffs of the (first, second) pairs of every attribute."""

    def set_value(self, top, bottom, coef_max, coef_min):
        """RFSM: the value of a set from its pairs' running extremes."""

    def forward_kernel(self, diffs, top, bottom, coef_max, coef_min,
                       candidates):
        """RFSM: the value of the set with each candidate added."""

    def backward_kernel(self, diffs, subset, coef_max, coef_min):
        """RFSM: the value of the set with each member removed."""


#: the names of the interface's functions
NAMES = tuple(sorted(name for name in vars(Engine)
                     if not name.startswith("_")))
