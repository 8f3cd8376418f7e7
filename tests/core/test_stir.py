"""STIR as its authors compute it: the add-on against the literal port of
their R package (tests.reference.stir), the port against R's own output,
the known answer of a GAMETES epistasis set, and the evidence that gets no
verdict."""
import gzip
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.options import PARAMETERS
from tests.core.engines import each_engine
from tests.degenerate_evidence import CASES, degenerate
from tests.reference import stir as port

GAMETES = (Path(__file__).parent.parent / "data"
           / "gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01.txt.gz")

#: the add-on's neighbourhoods and the R settings that find the same
#: near pairs (SURF*'s and MultiSURF*'s near sets are SURF's and
#: MultiSURF's; Greene et al.'s SURF is R's with sd.frac = 0)
R_SETTINGS = {
    "relieff": dict(method="relieff", k=3),
    "surf": dict(method="surf", sd_frac=0.0),
    "surf*": dict(method="surf", sd_frac=0.0),
    "multisurf": dict(method="multisurf"),
    "multisurf*": dict(method="multisurf"),
}


def neighbourhood_options(neighbourhood, k, deviation="sample"):
    """The options of `neighbourhood`: ReliefF's k, MultiSURF's deviation
    (each refused where the neighbourhood does not read it)."""
    if neighbourhood == "relieff":
        return dict(k_nearest=k)
    if neighbourhood.startswith("multisurf"):
        return dict(deviation=deviation)
    return {}


def r_ties(neighbourhood):
    """R's rule for ties at the k-th neighbour, where the neighbourhood has
    one: its stable sort gives the tied places to the lower indices."""
    return {"ties": "lower-index"} if neighbourhood == "relieff" else {}


def random_data(seed, n=30, a=5):
    rng = np.random.default_rng(seed)
    return rng.random((n, a)), rng.permutation(np.arange(n) % 2).astype(float)


def tied_data(seed, n=30, a=5):
    """Values 0..4 (every distance a multiple of 1/4, exact, with many
    equal), exact twins of the same and of the other class."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, (n, a)).astype(float)
    X[0], X[1] = 0, 4  # every column spans 0..4
    X[3] = X[2]
    X[6] = X[5]
    y = np.arange(n) % 2  # twins 2, 3 and 5, 6 of other classes
    X[10] = X[8]  # twins of one class
    return X, y.astype(float)


@pytest.mark.parametrize("options, message", [
    (dict(k_nearest=3), "k_nearest needs neighbourhood='relieff'"),
    (dict(neighbourhood="surf", deviation="sample"),
     "deviation needs a neighbourhood of the MultiSURF"),
    (dict(ties="lower-index"), "ties needs neighbourhood='relieff'"),
    # R's pairs break ties as R's stable sort does, whatever the rule
    (dict(neighbourhood="relieff", r_compatible=True, ties="lower-index"),
     "ties needs neighbourhood='relieff' and r_compatible=False")])
def test_options_of_another_neighbourhood_are_refused(options, message):
    X, y = random_data(5)
    with pytest.raises(ReliefInputError, match=message):
        significance.stir(X, y, **options)


@pytest.mark.parametrize("neighbourhood", significance.STIR_NEIGHBOURHOODS)
def test_a_call_checks_its_options_once(monkeypatch, neighbourhood):
    """STIR checks its options on entry; the sums of the neighbour pairs
    it calls trust them (the option of the neighbourhood stands for them
    all: ReliefF's k, the others' deviation)."""
    option = "k_nearest" if neighbourhood == "relieff" else "deviation"
    constraint = type(PARAMETERS[option])
    check = constraint.__call__
    checked = []

    def counted(self, name, value):
        checked.append(name)
        return check(self, name, value)

    monkeypatch.setattr(constraint, "__call__", counted)
    X, y = random_data(2)
    significance.stir(X, y, neighbourhood=neighbourhood)
    assert checked.count(option) == 1


@each_engine
@pytest.mark.parametrize("neighbourhood", list(R_SETTINGS))
@pytest.mark.parametrize("data", [random_data, tied_data])
@pytest.mark.parametrize("variance", ["population", "sample"])
def test_stir_is_the_authors_statistic(engine, neighbourhood, data,
                                       variance):
    """t and p to 1e-9 of the literal port of R's stir(), its tie bug off
    and every reference with a pair kept (the add-on's choices)."""
    X, y = data(4)
    settings = R_SETTINGS[neighbourhood]
    hits, misses = port.find_neighbors(X.tolist(), y.tolist(), **settings,
                                       tie_bug=False, keep_rule=False)
    (score, t, p), df = port.stir_statistic(X.tolist(), hits, misses,
                                            variance)
    if data is tied_data:  # twins of other classes: R's bug would differ
        assert port.find_neighbors(X.tolist(), y.tolist(), **settings,
                                   keep_rule=False) != (hits, misses)
    with forced(engine):
        result = significance.stir(
            X, y, neighbourhood=neighbourhood, variance=variance,
            **neighbourhood_options(neighbourhood, settings.get("k")),
            **r_ties(neighbourhood))
    assert result.df == df and result.note is None
    assert_allclose(result.t, t, rtol=0, atol=1e-9)
    assert_allclose(result.p, p, rtol=0, atol=1e-9)
    assert_allclose(result.score, score, rtol=0, atol=1e-12)


# R 4.2.2, insilico/stir's R/stir.R sourced as it is: find.neighbors(X,
# Class, metric = "manhattan", method = ..., k = ...) and stir() on SMALL,
# Class alternating 0, 1 (rows 1, 2 identical, of other classes: R's tie
# bug swaps the hits and misses of reference 2)
SMALL = [[0, 0, 4, 4], [0, 0, 4, 4], [4, 4, 0, 0], [4, 0, 0, 0],
         [4, 1, 1, 0], [4, 0, 0, 0], [4, 0, 2, 2], [3, 0, 1, 2],
         [0, 4, 3, 3], [2, 2, 1, 1], [0, 1, 3, 2], [4, 1, 3, 4],
         [4, 1, 1, 1], [3, 4, 2, 1], [0, 1, 0, 0], [3, 2, 4, 1]]
R_SMALL = {
    ("relieff", 3): (48, 48, [0.97719734735610686, -0.98266619883881157,
                              -0.5755147463754603, -1.5652524081367485],
                     [0.16548983747684431, 0.83585287441551004,
                      0.71684079957975344, 0.93955791057250604]),
    ("multisurf", 0): (33, 45, [1.9873234145311147, -0.91892720729771493,
                                -1.0631763616821572, -1.2038192416759768],
                       [0.025244911536412083, 0.81947951121447393,
                        0.85446574242209417, 0.88380221523247127]),
    ("surf", 0): (25, 39, [1.1314206617687561, 0.4177434785134051,
                           -0.72649395396198335, -0.57581993233682782],
                  [0.13111771627046215, 0.33878894997340675,
                   0.76486499533810415, 0.71658940322568376]),
}


@pytest.mark.parametrize("method, k", list(R_SMALL))
def test_the_port_is_r(method, k):
    n_hits, n_misses, t, p = R_SMALL[method, k]
    y = [i % 2 for i in range(len(SMALL))]
    hits, misses = port.find_neighbors(SMALL, y, method=method, k=k)
    assert (len(hits), len(misses)) == (n_hits, n_misses)
    (_, got_t, got_p), _ = port.stir_statistic(SMALL, hits, misses)
    assert_allclose(got_t, t, rtol=0, atol=1e-12)
    assert_allclose(got_p, p, rtol=0, atol=1e-12)


def test_the_port_has_r_tie_bug_as_a_switch():
    """R: reference 2 (class 1) gets "hits" 11, 9, 7 and "misses" 2 (itself),
    12, 8 with ReliefF's k = 3 (1-based rows); without the bug its hits
    are of its class and its twin, row 1, is its nearest miss."""
    y = [i % 2 for i in range(len(SMALL))]
    for tie_bug in (True, False):
        hits, misses = port.find_neighbors(SMALL, y, method="relieff", k=3,
                                           tie_bug=tie_bug)
        own_hits = [j for i, j in hits if i == 1]
        own_misses = [j for i, j in misses if i == 1]
        if tie_bug:
            assert (own_hits, own_misses) == ([10, 8, 6], [1, 11, 7])
        else:
            assert {y[j] for j in own_hits} == {1} and 1 not in own_hits
            assert own_misses[0] == 0 and {y[j] for j in own_misses} == {0}


def gametes():
    with gzip.open(GAMETES, "rt") as f:
        names = f.readline().split()
        table = np.loadtxt(f)
    return names, table[:, :-1], table[:, -1]


# t of R's stir() on the GAMETES file, attributes in its order (N0..N17,
# M0P0, M0P1): find.neighbors(..., method = "relieff", k = 10) and
# (..., method = "multisurf"), metric "manhattan"
R_GAMETES = {
    "relieff": [
        -2.2514941650264642, -0.029410189372576719, 0.94096867163218023,
        0.97180809570359938, -0.92898903627397733, -2.1108122225669592,
        -0.79380442461579648, -1.710587890865483, -2.0332527781363159,
        -2.2142834429480458, -1.0630863516639828, -2.0278826529937728,
        -3.017171929545035, -0.70404341386520364, -0.61696242790854317,
        0.21336486065241164, -3.23720824615092, -2.9568429168577794,
        26.187371107176624, 27.218490251212064],
    "multisurf": [
        -5.838909161342146, -0.69570940496089606, -0.77023776186176562,
        -2.1154735873113042, -3.2752514330034375, -2.5887006690219718,
        -3.8997360692776808, -2.7050129399330007, -3.3774496544901638,
        -4.4826224669497137, -4.6063780498961862, -2.8008451627399205,
        -6.0666984224553619, -4.6100813977099939, -3.2631945077928699,
        -4.4261028219654559, -1.6933830913500416, -3.5854508170491126,
        49.295824224791069, 49.731818737597429],
}


@pytest.mark.parametrize("neighbourhood", list(R_GAMETES))
def test_gametes_interaction_is_significant_as_in_r(neighbourhood):
    """The known answer of an epistasis set: the interacting pair
    significant after Holm at 0.05, no noise SNP, and R's t to 1e-9
    (the file has twins only of one class, where R's tie bug changes
    nothing)."""
    names, X, y = gametes()
    result = significance.stir(X, y, neighbourhood=neighbourhood,
                               **neighbourhood_options(neighbourhood, 10),
                               **r_ties(neighbourhood))
    assert_allclose(result.t, R_GAMETES[neighbourhood], rtol=0, atol=1e-9)
    held = significance.significant(significance.adjust(result.p, "holm"),
                                    0.05)
    assert [names[i] for i in np.flatnonzero(held)] == ["M0P0", "M0P1"]


def test_the_score_is_the_method_weight():
    from orangecontrib.relief.core.variants import estimators, surf

    rng = np.random.default_rng(5)
    X, y = rng.random((40, 4)), (np.arange(40) % 3).astype(float)
    assert_allclose(significance.stir(X, y, neighbourhood="relieff",
                                      k_nearest=4).score,
                    estimators.relieff(X, y, k_nearest=4), atol=1e-15)
    assert_allclose(significance.stir(X, y).score, surf.multisurf(X, y),
                    atol=1e-15)


# ---------------------------------------------------------------------
# No verdict on evidence that cannot hold one
# ---------------------------------------------------------------------

@each_engine
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("neighbourhood", ["relieff", "multisurf"])
def test_degenerate_evidence_gets_no_verdict(engine, case, neighbourhood):
    X, y, without = degenerate(case)
    with forced(engine):
        result = significance.stir(
            X, y, neighbourhood=neighbourhood,
            **neighbourhood_options(neighbourhood, 2, "population"))
    assert_array_equal(np.flatnonzero(np.isnan(result.p)), without)
    assert_array_equal(np.isnan(result.t), np.isnan(result.p))
    assert not significance.significant(
        significance.adjust(result.p, "bh"), 1.0)[without].any()
    message = significance.no_verdict(result, list("ABCD"))
    assert CASES[case] in message
    assert ("any attribute" in message) == (len(without) == 4)


def test_too_few_pairs_get_no_verdict():
    from orangecontrib.relief.core.formulas.stir import StirSums

    zeros = np.zeros(2)
    result = significance.stir_test(StirSums(zeros, zeros, 0, 0, zeros,
                                             zeros, 5, 5, 5))
    assert np.isnan(result.p).all() and "0 hit and 5 miss" in result.note


# ---------------------------------------------------------------------
# R-compatible STIR against R's stored output
# ---------------------------------------------------------------------

DATA = Path(__file__).parent.parent / "data"
#: R's stir() on the files of tests/data/stir (its README): the name of
#: each file R read, and where it is here
R_FILES = {
    "twins.tsv": DATA / "stir" / "twins.tsv",
    "twins2.tsv": DATA / "stir" / "twins2.tsv",
    "3Class_Datasets_Loc_2_01.txt.gz": DATA / "rebate" / "3Class_Datasets_Loc_2"
    / "3Class_Datasets_Loc_2_01.txt.gz",
}


def r_outputs():
    """{(file, method, k): rows of tests/data/stir/stir_R.csv}."""
    import csv

    found = {}
    with open(DATA / "stir" / "stir_R.csv", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            found.setdefault((row["data"], row["method"], int(row["k"])),
                             []).append(row)
    return found


R_OUTPUTS = r_outputs()


def r_table(name):
    table = np.loadtxt(R_FILES[name], skiprows=1)
    return table[:, :-1], table[:, -1]


@pytest.mark.parametrize("name, method, k", list(R_OUTPUTS))
def test_r_compatible_stir_is_r(name, method, k):
    """t, p and R's score (vecW) to 1e-9 of R's stir() on its own pairs:
    three classes (R pools the misses of the other two), identical rows
    of different classes (R's reading of the twin's class) and the keep
    rule of the SURF family; the default (the paper's pairs) differs."""
    rows = R_OUTPUTS[name, method, k]
    X, y = r_table(name)
    expected = {column: np.array([float(row[column]) for row in rows])
                for column in ("t", "p", "score")}
    options = dict(neighbourhood=method,
                   **neighbourhood_options(method, max(k, 1)))
    result = significance.stir(X, y, r_compatible=True, **options)
    assert result.df == int(rows[0]["n_hits"]) + int(rows[0]["n_misses"]) - 2
    assert_allclose(result.t, expected["t"], rtol=0, atol=1e-9)
    assert_allclose(result.p, expected["p"], rtol=0, atol=1e-9)
    assert_allclose(result.score, expected["score"], rtol=0, atol=1e-12)
    paper = significance.stir(X, y, **options)
    assert np.abs(paper.t - expected["t"]).max() > 0.1


@each_engine
@pytest.mark.parametrize("neighbourhood", ["relieff", "surf*", "multisurf*"])
def test_r_compatible_pairs_of_each_engine_and_star(engine, neighbourhood):
    """R's pairs do not depend on the engine; SURF* and MultiSURF* test
    the near sets of SURF and MultiSURF."""
    X, y = r_table("twins.tsv")
    with forced(engine):
        got = significance.stir(X, y, neighbourhood=neighbourhood,
                                r_compatible=True,
                                **neighbourhood_options(neighbourhood, 3))
    expected = R_OUTPUTS["twins.tsv", neighbourhood.rstrip("*"),
                         3 if neighbourhood == "relieff" else 0]
    assert_allclose(got.t, [float(row["t"]) for row in expected], atol=1e-9)


def test_r_compatible_is_the_papers_where_r_agrees_with_it():
    """Two classes, no twins of different classes, every MultiSURF
    reference with a hit and two misses: R's pairs are the paper's (the
    k nearest with R's ties, to the lower index as its stable sort)."""
    names, X, y = gametes()
    for neighbourhood in ("relieff", "multisurf"):
        options = dict(neighbourhood=neighbourhood,
                       **neighbourhood_options(neighbourhood, 10))
        paper = dict(options, **r_ties(neighbourhood))
        assert_allclose(significance.stir(X, y, r_compatible=True,
                                          **options).t,
                        significance.stir(X, y, **paper).t, atol=1e-9)


def test_r_compatible_must_be_a_bool():
    X, y = random_data(0)
    with pytest.raises(Exception, match=r"r_compatible must be True or "
                       r"False, got 'yes'\."):
        significance.stir(X, y, r_compatible="yes")


@pytest.mark.parametrize("method, k", list(R_SMALL))
def test_r_compatible_stir_is_r_on_the_small_table(method, k):
    """R's numbers of SMALL (a twin of the other class; SURF and
    MultiSURF references with too few misses, which R drops)."""
    n_hits, n_misses, t, p = R_SMALL[method, k]
    y = np.arange(len(SMALL)) % 2
    result = significance.stir(np.array(SMALL, float), y.astype(float),
                               neighbourhood=method, r_compatible=True,
                               **neighbourhood_options(method, max(k, 1)))
    assert result.df == n_hits + n_misses - 2
    assert_allclose(result.t, t, rtol=0, atol=1e-12)
    assert_allclose(result.p, p, rtol=0, atol=1e-12)
