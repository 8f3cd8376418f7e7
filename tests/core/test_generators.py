"""The artificial problems of the core (Prat & Belanche 2006, section 4;
Arauzo-Azofra et al.'s CorrAL and Parity3+3): every generated class follows
its definition; seeds reproduce."""
import inspect
from itertools import islice

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import generators as core
from orangecontrib.relief.core.errors import ReliefInputError


def holds(op, value, x):
    return {"<": x < value, ">=": x >= value, "==": x == value}[op]


def literal_rdg1_classes(problem):
    """Replay RDG1 one instance at a time, as the paper describes it: the
    first rule of the current decision list that fires gives the class; if
    none fires, the next rule of the final list must be the one made from
    this instance, and it must fire on it."""
    rules = problem.info["rules"]
    n_made = 0
    classes = []
    for x in problem.X:
        for klass, tests in rules[:n_made]:
            if all(holds(op, v, x[a]) for a, op, v in tests):
                classes.append(klass)
                break
        else:
            klass, tests = rules[n_made]
            assert all(holds(op, v, x[a]) for a, op, v in tests)
            n_made += 1
            classes.append(klass)
    assert n_made == len(rules)  # every rule was made by some instance
    return np.array(classes)


@pytest.mark.parametrize("boolean", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_rdg1_follows_its_decision_list(boolean, seed):
    n_relevant, n_irrelevant = 6 + seed, 4
    problem = core.rdg1(150, n_relevant, n_irrelevant, boolean=boolean,
                        n_classes=2 + seed % 2, seed=seed)
    assert_array_equal(problem.y, literal_rdg1_classes(problem))
    rules = problem.info["rules"]
    for number, (klass, tests) in enumerate(rules):
        assert klass == number % (2 + seed % 2)   # Weka: classes in turn
        attributes = [a for a, _, _ in tests]
        assert 1 <= len(tests) <= min(10, n_relevant)
        assert len(set(attributes)) == len(attributes)
        assert max(attributes) < n_relevant       # irrelevant: never tested
        ops = {op for _, op, _ in tests}
        assert ops <= ({"=="} if boolean else {"<", ">="})
    if boolean:
        assert set(np.unique(problem.X)) <= {0.0, 1.0}
        assert problem.discrete.all()
    else:
        assert ((problem.X >= 0) & (problem.X < 1)).all()
        assert not problem.discrete.any()
    assert_array_equal(problem.relevant,
                       [True] * n_relevant + [False] * n_irrelevant)


def test_rdg1_rule_sizes_reach_both_ends():
    sizes = set()
    for seed in range(30):
        sizes |= {len(t) for _, t in core.rdg1(60, 12, 0, seed=seed)
                  .info["rules"]}
    assert min(sizes) == 1 and max(sizes) == 10


def test_random_rbf_follows_its_centroids():
    problem = core.random_rbf(300, 4, 3, n_classes=3, n_centroids=7, seed=3)
    info = problem.info
    centroids, noise = info["centroids"], info["noise_centroids"]
    assert_array_equal(problem.y, centroids["klass"][info["chosen"]])
    relevant, irrelevant = problem.X[:, :4], problem.X[:, 4:]
    distance = np.linalg.norm(relevant - centroids["centre"][info["chosen"]],
                              axis=1)
    assert_allclose(distance, np.abs(info["length"]), atol=1e-12)
    # the length is a Gaussian scaled by the centroid's deviation
    assert (distance <= 6 * centroids["stddev"][info["chosen"]]).all()
    noise_distance = np.linalg.norm(
        irrelevant - noise["centre"][info["noise_chosen"]], axis=1)
    assert (noise_distance <= 6 * noise["stddev"][info["noise_chosen"]]).all()
    # centroids are picked by weight, the noise ones independently
    assert not np.array_equal(info["chosen"], info["noise_chosen"])
    assert problem.relevant.tolist() == [True] * 4 + [False] * 3


def test_random_rbf_weights_pick_the_centroids():
    problem = core.random_rbf(20000, 2, 0, n_centroids=5, seed=4)
    weight = problem.info["centroids"]["weight"]
    counts = np.bincount(problem.info["chosen"], minlength=5)
    assert_allclose(counts / counts.sum(), weight / weight.sum(), atol=0.02)


def test_non_monotonic_is_eq_4_4():
    n_relevant = 5
    problem = core.non_monotonic(200, n_relevant, 3, seed=5)
    r_a, r_i = problem.info["r_a"], problem.info["r_i"]
    odd = np.arange(200) % 2 == 1
    assert_allclose(problem.X[odd, :n_relevant], np.outer(r_i[odd], r_a))
    assert_allclose(problem.X[~odd, :n_relevant],
                    np.outer(np.sqrt(r_i[~odd]), r_a))
    assert_array_equal(problem.y, np.floor(r_i))
    assert set(problem.y) <= set(range(n_relevant + 1))
    assert len(problem.class_values) == n_relevant + 1
    irrelevant = problem.X[:, n_relevant:]
    assert ((irrelevant >= 0) & (irrelevant < 1)).all()


def test_non_monotonic_one_relevant_attribute_has_two_classes():
    problem = core.non_monotonic(100, 1, 1, seed=0)
    assert set(problem.y) == {0.0, 1.0}


@pytest.mark.parametrize("n_relevant", [1, 4, 5])
def test_majority(n_relevant):
    problem = core.majority(200, n_relevant, 3, seed=n_relevant)
    ones = problem.X[:, :n_relevant].sum(axis=1)
    assert_array_equal(problem.y, ones > n_relevant / 2)
    assert set(np.unique(problem.X)) == {0.0, 1.0}
    assert problem.discrete.all()


@pytest.mark.parametrize("p", [2, 3, 5])
def test_modulo(p):
    problem = core.modulo(200, 3, 2, p=p, seed=p)
    assert_array_equal(problem.y, problem.X[:, :3].sum(axis=1) % p)
    assert set(np.unique(problem.X)) == set(range(p))
    assert problem.discrete.all()
    assert not core.modulo(10, 2, 1, p=p, numeric=True).discrete.any()


def test_corral_is_the_classic_truth_table():
    problem = core.corral(seed=6)
    X = problem.X.astype(int)
    assert problem.names == ["A0", "A1", "B0", "B1", "Irrelevant",
                             "Correlated"]
    # the five independent bits: every combination exactly once
    assert len({tuple(row) for row in X[:, :5]}) == 32
    assert_array_equal(problem.y, (X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 3]))
    assert (X[:, 5] == problem.y).sum() == 24          # 75 %
    assert problem.relevant.tolist() == [True] * 4 + [False] * 2
    assert problem.roles[4:] == ["irrelevant", "correlated"]


def test_corral_random_rows_and_correlation():
    problem = core.corral(100, correlation=0.9, seed=7)
    X = problem.X.astype(int)
    assert_array_equal(problem.y, (X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 3]))
    assert (X[:, 5] == problem.y).sum() == 90


def test_parity_3_3():
    problem = core.parity(seed=8)
    X = problem.X.astype(int)
    assert X.shape == (64, 12)
    assert_array_equal(problem.y, X[:, 0] ^ X[:, 1] ^ X[:, 2])
    assert_array_equal(X[:, :3], X[:, 3:6])
    assert len({tuple(row) for row in X[:, :3]}) == 8
    assert len({tuple(row) for row in X[:, 6:]}) == 64
    assert problem.relevant.tolist() == [True] * 6 + [False] * 6
    assert problem.roles[3:6] == ["redundant"] * 3


GENERATED = [
    (core.rdg1, {}), (core.rdg1, dict(boolean=True)), (core.random_rbf, {}),
    (core.non_monotonic, {}), (core.majority, {}), (core.modulo, {}),
]


@pytest.mark.parametrize("function, kw", GENERATED)
def test_seeds_reproduce_and_differ(function, kw):
    first = function(50, 3, 2, seed=11, **kw)
    again = function(50, 3, 2, seed=11, **kw)
    other = function(50, 3, 2, seed=12, **kw)
    assert_array_equal(first.X, again.X)
    assert_array_equal(first.y, again.y)
    assert not np.array_equal(first.X, other.X)
    assert first.X.shape == (50, 5) and first.y.shape == (50,)


@pytest.mark.parametrize("kw", [dict(n_instances=0), dict(n_relevant=0),
                                dict(n_irrelevant=-1)])
def test_bad_counts(kw):
    args = dict(n_instances=10, n_relevant=2, n_irrelevant=1) | kw
    with pytest.raises(ValueError):
        core.majority(**args)


@pytest.mark.parametrize("function, kw", [
    (core.rdg1, dict(n_instances=20, n_relevant=np.int64(3), n_classes=3,
                     min_rule_size=np.int32(1), max_rule_size=2)),
    (core.random_rbf, dict(n_instances=np.int64(20), n_centroids=4)),
    (core.modulo, dict(n_instances=np.uint8(20), p=np.int64(4))),
    (core.parity, dict(n_instances=16, n_bits=np.int16(2))),
])
def test_numpy_integers_are_integers(function, kw):
    as_ints = {name: int(value) for name, value in kw.items()}
    got, expected = function(**kw, seed=2), function(**as_ints, seed=2)
    assert_array_equal(got.X, expected.X)
    assert_array_equal(got.y, expected.y)
    assert got.class_values == expected.class_values


@pytest.mark.parametrize("function, kw, message", [
    (core.rdg1, dict(n_classes=2.5), "n_classes must be an integer >= 2"),
    (core.rdg1, dict(n_instances=20.0), "n_instances must be a positive "),
    (core.modulo, dict(p=3.0), "p must be an integer >= 2 up to 10,000, got 3.0"),
    (core.rdg1, dict(min_rule_size=3, max_rule_size=2),
     "max_rule_size must be an integer >= 3"),
    (core.random_rbf, dict(n_centroids=0), "n_centroids must be a positive"),
    (core.modulo, dict(p=True), "p must be an integer >= 2"),
    (core.parity, dict(n_bits=0), "n_bits must be a positive integer"),
    (core.majority, dict(n_instances=3.5), "n_instances must be a positive"),
    (core.corral, dict(correlation=float("nan")),
     "correlation must be a number between 0 and 1, got nan"),
    (core.corral, dict(correlation="0.5"), "correlation must be a number"),
    (core.corral, dict(correlation=None), "correlation must be a number"),
    (core.rdg1, dict(boolean=1), "boolean must be True or False, got 1"),
    (core.modulo, dict(numeric="yes"), "numeric must be True or False"),
])
def test_bad_sizes_are_named(function, kw, message):
    with pytest.raises(ReliefInputError, match=message):
        function(**kw)


#: every generator with each of its sizes
SIZES = [(function, name) for function in (
    core.rdg1, core.random_rbf, core.non_monotonic, core.majority,
    core.modulo, core.corral, core.parity)
    for name, parameter in inspect.signature(function).parameters.items()
    if isinstance(parameter.default, int)
    and not isinstance(parameter.default, bool)]


@pytest.mark.parametrize("function, name", SIZES,
                         ids=[f"{f.__name__} {name}" for f, name in SIZES])
def test_unbounded_sizes(function, name):
    """A size beyond any table (10**12) is refused before anything is
    drawn, by its name or by the memory the table would take; the largest
    rule of RDG1 is capped by the relevant attributes instead."""
    if name == "max_rule_size":
        assert function(**{name: 10 ** 12}, seed=0).X.shape == (100, 10)
        return
    # min_rule_size above max_rule_size: the latter's error names both
    named = "max_rule_size" if name == "min_rule_size" else name
    with pytest.raises(ReliefInputError,
                       match=f"^{named} must be|x attributes asks for"):
        function(**{name: 10 ** 12})


# --- GAMETES-like SNP data --------------------------------------------------

def test_gametes_genotypes_are_int8_balanced_and_seeded():
    problem = core.gametes(200, 50, seed=3)
    assert problem.X.dtype == np.int8 and problem.X.shape == (200, 50)
    assert set(np.unique(problem.X)) <= {0, 1, 2}
    assert problem.y.sum() == 100
    assert problem.names[:4] == ["M0P0", "M0P1", "M1P0", "N0"]
    assert problem.relevant.tolist() == [True] * 3 + [False] * 47
    again = core.gametes(200, 50, seed=3)
    assert np.array_equal(again.X, problem.X)
    assert np.array_equal(again.y, problem.y)
    assert not np.array_equal(core.gametes(200, 50, seed=4).X, problem.X)


def test_gametes_blocks_do_not_depend_on_their_width():
    source = core.GametesSource(30, 2 * core.TILE + 50, seed=0)
    whole = source.columns(0, source.n_snps)
    for size in (1, 7, core.TILE, core.TILE + 3, 10 * core.TILE):
        # a block of one column draws its tile anew: those blocks up to
        # past the first tile's end only (the other widths cross both)
        n_columns = core.TILE + 50 if size == 1 else source.n_snps
        blocks = islice(source.column_blocks(size), -(-n_columns // size))
        assert np.array_equal(np.hstack([b for _, b in blocks]),
                              whole[:, :n_columns])


@pytest.mark.parametrize("maf", [0.2, 0.35, 0.45, 0.5])
def test_the_pair_is_purely_epistatic_with_the_heritabilities_asked(maf):
    table = core.penetrance_table(maf, 0.05, 0.01)
    p = core.hwe_frequencies(maf)
    K = 0.5
    # P(case | g1) and P(case | g2) are K whatever the genotype
    assert np.allclose(np.einsum("abc,b,c->a", table, p, p), K)
    assert np.allclose(np.einsum("abc,a,c->b", table, p, p), K)
    pair = np.einsum("abc,c->ab", table, p)
    main = np.einsum("abc,a,b->c", table, p, p)
    pair_var = np.einsum("ab,a,b->", (pair - K) ** 2, p, p)
    assert pair_var / (K * (1 - K)) == pytest.approx(0.05)
    assert p @ (main - K) ** 2 / (K * (1 - K)) == pytest.approx(0.01)


def test_the_data_follow_the_penetrances():
    problem = core.gametes(20000, 4, seed=0, heritability=0.2, main_effect=0.02)
    g1, g2, g3 = problem.X[:, :3].T.astype(int)
    table = problem.info["penetrance"]
    # the population's rate of cases is K = 1/2, the sample's too, so
    # P(case | g) in the sample is the penetrance
    for cell in [(0, 0, 0), (1, 1, 0), (0, 1, 1)]:
        chosen = (g1 == cell[0]) & (g2 == cell[1]) & (g3 == cell[2])
        assert problem.y[chosen].mean() == pytest.approx(table[cell],
                                                         abs=0.05)


@pytest.mark.parametrize("options, message", [
    (dict(heritability=0.9), "too strong for a minor allele frequency"),
    (dict(maf=(0.3, 0.1)), "low <= high"),
    (dict(predictive_maf=0.6), "predictive_maf must be a number between"),
    (dict(n_snps=2), "n_snps must be an integer >= 3"),
])
def test_gametes_bad_parameters(options, message):
    with pytest.raises(ReliefInputError, match=message):
        core.gametes(**{"n_instances": 10, "n_snps": 10, **options})
