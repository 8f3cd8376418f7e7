"""Artificial problems with known relevant attributes, in plain numpy.

Prat & Belanche (2006), section 4.4: RDG1 with numeric and with boolean
attributes, RandomRBF, NonMonotonic (eq. 4.4), MajorityN and ModuloP (eq.
4.5); Arauzo-Azofra, Benitez & Castro (2004), section 5: CorrAL and
Parity3+3; GAMETES-like SNP data (Urbanowicz et al. 2012: an epistatic
pair and a main effect among random SNPs, int8 genotypes, also as a
column-block source made on demand for data larger than memory).  Each
function returns a :class:`Problem`: the data as numbers
(nominal attributes and the class as value codes 0, 1, ...), which
attributes are relevant, and the hidden parts of the generating process
(rules, centroids, ...) in ``info``, so that tests and users can check the
class against its definition.  :mod:`orangecontrib.relief.generators` wraps
them as Orange tables.

Every generator takes ``seed`` (an int, a ``numpy.random.Generator`` or
None) and draws everything from ``numpy.random.default_rng(seed)``.
Relevant attributes come first, then the irrelevant ones.
"""
from dataclasses import dataclass, field

import numpy as np

from .errors import ReliefInputError
from .sampling import check_memory
from .options import MAX_VALUES, Integer, Interval, Seed, check

__all__ = ["Problem", "rdg1", "random_rbf", "non_monotonic", "majority",
           "modulo", "corral", "parity", "gametes", "GametesSource",
           "PROBLEMS", "BOOLEAN"]

BOOLEAN = ("false", "true")


@dataclass
class Problem:
    """A generated data set and its ground truth.

    Attributes
    ----------
    name : str
    X : float array (n, a), int8 for genotypes
        Attribute values; nominal attributes hold codes 0 .. len(values) - 1.
    y : float array (n,)
        Class codes 0 .. len(class_values) - 1.
    names : list of str
        Attribute names.
    relevant : bool array (a,)
        True for the attributes the class depends on (including redundant
        copies of them), False for the others.
    roles : list of str
        "relevant", "irrelevant", "redundant" (a copy of a relevant
        attribute) or "correlated" (correlated with the class, not needed).
    values : list
        For each attribute, the tuple of its value names (nominal), or None
        (numeric).
    class_values : tuple of str
    info : dict
        The hidden parts of the generating process.
    """
    name: str
    X: np.ndarray
    y: np.ndarray
    names: list
    relevant: np.ndarray
    roles: list
    values: list
    class_values: tuple
    info: dict = field(default_factory=dict)

    @property
    def discrete(self):
        """Bool mask of the nominal attributes."""
        return np.array([v is not None for v in self.values], dtype=bool)


def _rng(seed):
    return np.random.default_rng(Seed()("seed", seed))


#: the bytes a generated cell takes while it is made (drawn, converted,
#: stacked: a few float64 copies)
BYTES_PER_CELL = 32


def _check_size(n_rows, n_attributes, rows="n_instances"):
    """ReliefInputError, before anything is drawn, if a table of `n_rows`
    (the parameter `rows`) x `n_attributes` would not fit in this
    machine's memory (:func:`.variants.estimators.check_memory`)."""
    check_memory(f"{rows} x attributes",
                 n_rows * n_attributes * BYTES_PER_CELL)


def _check_counts(n_instances, n_relevant, n_irrelevant, min_relevant=1):
    """The three counts as ints (`n_relevant` at least `min_relevant`),
    their table within memory (:func:`_check_size`)."""
    counts = (Integer(1)("n_instances", n_instances),
              Integer(min_relevant)("n_relevant", n_relevant),
              Integer(0)("n_irrelevant", n_irrelevant))
    _check_size(counts[0], counts[1] + counts[2])
    return counts


def _check_classes(n_classes):
    """A number of classes: 2 to :data:`.options.MAX_VALUES`."""
    return Integer(2, MAX_VALUES)("n_classes", n_classes)


def _names(n_relevant, n_irrelevant):
    return [f"a{i}" for i in range(n_relevant + n_irrelevant)]


def _roles(n_relevant, n_irrelevant):
    return ["relevant"] * n_relevant + ["irrelevant"] * n_irrelevant


def _problem(name, X, y, n_relevant, n_irrelevant, values, class_values,
             info, names=None, roles=None):
    roles = roles or _roles(n_relevant, n_irrelevant)
    return Problem(
        name=name, X=np.asarray(X, dtype=float), y=np.asarray(y, dtype=float),
        names=names or _names(n_relevant, n_irrelevant),
        relevant=np.array([r in ("relevant", "redundant") for r in roles]),
        roles=roles, values=values, class_values=tuple(class_values),
        info=info)


# --- RDG1 -------------------------------------------------------------------

def rule_fires(rule, X):
    """Which rows of X satisfy every test of `rule` (a list of tests).

    A test is ``(attribute, op, value)`` with op "<", ">=" (numeric) or
    "==" (boolean codes).
    """
    attributes = [test[0] for test in rule]
    values = np.array([test[2] for test in rule])
    columns = X[:, attributes]
    less = np.array([test[1] == "<" for test in rule])
    equal = np.array([test[1] == "==" for test in rule])
    holds = np.where(equal, columns == values,
                     np.where(less, columns < values, columns >= values))
    return holds.all(axis=1)


def _new_rule(rng, x, n_relevant, boolean, min_rule_size, max_rule_size):
    """A conjunction of random tests on relevant attributes that `x` meets."""
    largest = min(max_rule_size, n_relevant)
    size = int(rng.integers(min(min_rule_size, largest), largest + 1))
    attributes = rng.permutation(n_relevant)[:size]
    if boolean:
        return [(int(a), "==", float(x[a])) for a in attributes]
    splits = rng.random(size)
    return [(int(a), "<" if x[a] < split else ">=", float(split))
            for a, split in zip(attributes, splits)]


def rdg1(n_instances=100, n_relevant=10, n_irrelevant=0, *, boolean=False,
         n_classes=2, min_rule_size=1, max_rule_size=10, seed=None):
    """Weka's RDG1: classes from a decision list that grows as needed.

    Attribute values are uniform in [0, 1) (numeric) or fair booleans.
    Instances are taken one by one; the class of an instance is that of the
    first rule of the decision list that is true for it.  When no rule is
    true, a new rule is made from the instance and appended: a conjunction
    of n tests (n uniform in [min_rule_size, max_rule_size], at most the
    number of relevant attributes) on distinct relevant attributes, each
    true for the instance (``a < v`` or ``a >= v`` with v uniform in [0, 1)
    for numeric attributes, ``a == value`` for boolean ones).  As in Weka,
    the new rule's class is the class after that of the previous rule,
    cyclically (the first rule has class 0).  Irrelevant attributes are
    never tested (Prat & Belanche 2006, section 4.4.1 and 4.4.6).

    ``info["rules"]`` is the decision list: ``(class, tests)`` pairs, and
    ``info["rule_of"]`` the index of the rule that classified each instance.
    """
    n_instances, n_relevant, n_irrelevant = _check_counts(
        n_instances, n_relevant, n_irrelevant)
    n_classes = _check_classes(n_classes)
    boolean = check("boolean", boolean)
    min_rule_size = Integer(1)("min_rule_size", min_rule_size)
    max_rule_size = Integer(min_rule_size)("max_rule_size", max_rule_size)
    rng = _rng(seed)
    n_attrs = n_relevant + n_irrelevant
    if boolean:
        X = (rng.random((n_instances, n_attrs)) < 0.5).astype(float)
    else:
        X = rng.random((n_instances, n_attrs))
    rules, rule_of = [], np.full(n_instances, -1)
    # Instances are classified in order: a rule made at instance i never
    # applies to instances before i, and earlier rules have been tried on
    # every later instance before it is made, so applying each new rule to
    # the later unclassified instances is the one-by-one process.
    first = 0
    while first < n_instances:
        rule = _new_rule(rng, X[first], n_relevant, boolean, min_rule_size,
                         max_rule_size)
        klass = len(rules) % n_classes
        rules.append((klass, rule))
        later = np.flatnonzero(rule_of[first:] < 0) + first
        rule_of[later[rule_fires(rule, X[later])]] = len(rules) - 1
        unclassified = np.flatnonzero(rule_of < 0)
        first = unclassified[0] if len(unclassified) else n_instances
    y = np.array([rules[r][0] for r in rule_of])
    values = [BOOLEAN if boolean else None] * n_attrs
    name = "RDG1-boolean" if boolean else "RDG1-numeric"
    return _problem(name, X, y, n_relevant, n_irrelevant, values,
                    [str(c) for c in range(n_classes)],
                    dict(rules=rules, rule_of=rule_of))


# --- RandomRBF --------------------------------------------------------------

def _centroids(rng, n_centroids, n_attrs):
    return dict(centre=rng.random((n_centroids, n_attrs)),
                stddev=rng.random(n_centroids),
                weight=rng.random(n_centroids))


def _rbf_points(rng, centroids, n_instances):
    """Points offset from weighted-random centroids (Weka's RandomRBF)."""
    weight = centroids["weight"]
    chosen = rng.choice(len(weight), size=n_instances, p=weight / weight.sum())
    n_attrs = centroids["centre"].shape[1]
    direction = rng.random((n_instances, n_attrs)) * 2 - 1
    norm = np.sqrt((direction ** 2).sum(axis=1, keepdims=True))
    norm[norm == 0] = 1
    length = rng.normal(size=(n_instances, 1)) * centroids["stddev"][chosen, None]
    offset = direction / norm * length
    return centroids["centre"][chosen] + offset, chosen, length[:, 0]


def random_rbf(n_instances=100, n_relevant=10, n_irrelevant=0, *,
               n_classes=2, n_centroids=50, seed=None):
    """Weka's RandomRBF with irrelevant attributes (section 4.4.2).

    `n_centroids` random centres in [0, 1)^n_relevant, each with a class,
    a standard deviation and a weight (uniform in [0, 1)).  An instance
    picks a centre with probability proportional to the weights and lies
    at a random direction from it, at a distance drawn from a Gaussian with
    the centre's standard deviation; the centre gives the class.  The
    irrelevant attributes are made the same way from a second, independent
    set of centres without classes, picked independently of the first.

    ``info``: ``centroids`` and ``noise_centroids`` (dicts of arrays),
    ``chosen`` / ``noise_chosen`` (the centre of each instance) and
    ``length`` (its signed Gaussian distance from the centre).
    """
    n_instances, n_relevant, n_irrelevant = _check_counts(
        n_instances, n_relevant, n_irrelevant)
    n_classes = _check_classes(n_classes)
    n_centroids = Integer(1)("n_centroids", n_centroids)
    _check_size(n_centroids, n_relevant + n_irrelevant, "n_centroids")
    rng = _rng(seed)
    centroids = _centroids(rng, n_centroids, n_relevant)
    centroids["klass"] = rng.integers(0, n_classes, n_centroids)
    relevant, chosen, length = _rbf_points(rng, centroids, n_instances)
    noise = _centroids(rng, n_centroids, n_irrelevant)
    irrelevant, noise_chosen, _ = _rbf_points(rng, noise, n_instances)
    X = np.hstack([relevant, irrelevant])
    return _problem("RandomRBF", X, centroids["klass"][chosen], n_relevant,
                    n_irrelevant, [None] * (n_relevant + n_irrelevant),
                    [str(c) for c in range(n_classes)],
                    dict(centroids=centroids, noise_centroids=noise,
                         chosen=chosen, noise_chosen=noise_chosen,
                         length=length))


# --- NonMonotonic -----------------------------------------------------------

def non_monotonic(n_instances=100, n_relevant=10, n_irrelevant=0, *,
                  seed=None):
    """Prat & Belanche's NonMonotonic problem (section 4.4.3, eq. 4.4).

    Each relevant attribute a has a random factor r_a in [0, 1); each
    instance i a random value r_i.  Its value of a is r_a r_i for odd i and
    r_a sqrt(r_i) for even i (i counted from 0); the class is the integer
    part of r_i.  Irrelevant attributes are uniform in [0, 1).

    The paper draws r_i "in the range [0..N]" (N relevant attributes); we
    draw it uniformly from [0, N + 1) so that its integer part takes each of
    the N + 1 values 0..N (with [0, N] one relevant attribute would give a
    single class).  ``info``: ``r_a``, ``r_i``.  With N + 1 classes, N is
    at most :data:`.options.MAX_VALUES` - 1.
    """
    n_instances, n_relevant, n_irrelevant = _check_counts(
        n_instances, n_relevant, n_irrelevant)
    Integer(1, MAX_VALUES - 1)("n_relevant", n_relevant)
    rng = _rng(seed)
    r_a = rng.random(n_relevant)
    r_i = rng.random(n_instances) * (n_relevant + 1)
    odd = np.arange(n_instances) % 2 == 1
    base = np.where(odd, r_i, np.sqrt(r_i))
    X = np.hstack([base[:, None] * r_a[None, :],
                   rng.random((n_instances, n_irrelevant))])
    y = np.minimum(np.floor(r_i), n_relevant)
    return _problem("NonMonotonic", X, y, n_relevant, n_irrelevant,
                    [None] * (n_relevant + n_irrelevant),
                    [str(c) for c in range(n_relevant + 1)],
                    dict(r_a=r_a, r_i=r_i))


# --- MajorityN, ModuloP -----------------------------------------------------

def majority(n_instances=100, n_relevant=5, n_irrelevant=0, *, seed=None):
    """MajorityN (section 4.4.4): n_relevant random bits; the class is 1
    when more than half of them are 1 (a tie is 0).  Irrelevant attributes
    are random bits as well."""
    n_instances, n_relevant, n_irrelevant = _check_counts(
        n_instances, n_relevant, n_irrelevant)
    rng = _rng(seed)
    X = rng.integers(0, 2, (n_instances, n_relevant + n_irrelevant))
    y = 2 * X[:, :n_relevant].sum(axis=1) > n_relevant
    return _problem("MajorityN", X, y, n_relevant, n_irrelevant,
                    [BOOLEAN] * (n_relevant + n_irrelevant), ("0", "1"), {})


def modulo(n_instances=100, n_relevant=2, n_irrelevant=0, *, p=3,
           numeric=False, seed=None):
    """Modulo-p (section 4.4.5, eq. 4.5): relevant and irrelevant attributes
    are uniform integers in [0, p); the class is the sum of the relevant
    ones modulo p.  The attributes are nominal unless `numeric`.  The paper
    does not give p; we use p = 3 by default."""
    n_instances, n_relevant, n_irrelevant = _check_counts(
        n_instances, n_relevant, n_irrelevant)
    p = Integer(2, MAX_VALUES)("p", p)
    numeric = check("numeric", numeric)
    rng = _rng(seed)
    X = rng.integers(0, p, (n_instances, n_relevant + n_irrelevant))
    y = X[:, :n_relevant].sum(axis=1) % p
    values = [None if numeric else tuple(str(v) for v in range(p))] * (
        n_relevant + n_irrelevant)
    return _problem("ModuloP", X, y, n_relevant, n_irrelevant, values,
                    [str(c) for c in range(p)], dict(p=p))


# --- CorrAL, Parity3+3 ------------------------------------------------------

def _bits(rng, n_instances, n_bits):
    """Random bits; when n_instances is a multiple of 2^n_bits, every
    combination appears equally often (in random order)."""
    if n_instances % (2 ** n_bits) == 0:
        table = (np.arange(2 ** n_bits)[:, None] >> np.arange(n_bits)[::-1]) & 1
        rows = np.tile(table, (n_instances // 2 ** n_bits, 1))
        return rows[rng.permutation(n_instances)]
    return rng.integers(0, 2, (n_instances, n_bits))


def corral(n_instances=32, *, correlation=0.75, seed=None):
    """CorrAL (John, Kohavi & Pfleger 1994; Arauzo-Azofra et al.).

    Six boolean attributes A0, A1, B0, B1, Irrelevant, Correlated; the class
    is (A0 and A1) or (B0 and B1).  Irrelevant is a random bit; Correlated
    equals the class in round(correlation * n) instances chosen at random
    and differs in the others.  With n a multiple of 32 (default: the
    classic 32) every combination of the five independent bits appears
    equally often.  Correlated is not relevant (the class does not depend on
    it), but it has role "correlated".
    """
    n_instances = Integer(1)("n_instances", n_instances)
    correlation = Interval(0, 1)("correlation", correlation)
    _check_size(n_instances, 6)
    rng = _rng(seed)
    bits = _bits(rng, n_instances, 5)
    y = (bits[:, 0] & bits[:, 1]) | (bits[:, 2] & bits[:, 3])
    agree = np.zeros(n_instances, dtype=bool)
    agree[rng.permutation(n_instances)[:round(correlation * n_instances)]] = True
    correlated = np.where(agree, y, 1 - y)
    X = np.column_stack([bits, correlated])
    names = ["A0", "A1", "B0", "B1", "Irrelevant", "Correlated"]
    roles = ["relevant"] * 4 + ["irrelevant", "correlated"]
    return _problem("CorrAL", X, y, 4, 2, [BOOLEAN] * 6, ("0", "1"),
                    dict(correlation=correlation), names=names, roles=roles)


def parity(n_instances=64, *, n_bits=3, n_irrelevant=6, seed=None):
    """Parity3+3 (Arauzo-Azofra et al.): the class is the parity (xor) of
    three random bits x1, x2, x3; the three relevant bits are duplicated
    (x1_copy ...: role "redundant", relevant) and six random bits added
    (irr1 ...).  With n a multiple of 2^n_bits (resp. 2^n_irrelevant)
    every combination of the relevant (irrelevant) bits appears equally
    often; the default 64 balances both."""
    n_instances = Integer(1)("n_instances", n_instances)
    n_bits = Integer(1)("n_bits", n_bits)
    n_irrelevant = Integer(0)("n_irrelevant", n_irrelevant)
    _check_size(n_instances, 2 * n_bits + n_irrelevant)
    rng = _rng(seed)
    relevant = _bits(rng, n_instances, n_bits)
    irrelevant = _bits(rng, n_instances, n_irrelevant)
    y = relevant.sum(axis=1) % 2
    X = np.hstack([relevant, relevant, irrelevant])
    names = ([f"x{i + 1}" for i in range(n_bits)]
             + [f"x{i + 1}_copy" for i in range(n_bits)]
             + [f"irr{i + 1}" for i in range(n_irrelevant)])
    roles = (["relevant"] * n_bits + ["redundant"] * n_bits
             + ["irrelevant"] * n_irrelevant)
    return _problem(f"Parity{n_bits}+{n_bits}", X, y, 2 * n_bits, n_irrelevant,
                    [BOOLEAN] * len(names), ("0", "1"), {}, names=names,
                    roles=roles)


#: The six problems of Prat & Belanche's separability experiment (Fig. 7-8):
#: name -> (generator, keyword arguments, attributes are numeric).
PROBLEMS = {
    "RDG1-numeric": (rdg1, {}, True),
    "RandomRBF": (random_rbf, {}, True),
    "NonMonotonic": (non_monotonic, {}, True),
    "MajorityN": (majority, {}, False),
    "ModuloP": (modulo, {}, False),
    "RDG1-boolean": (rdg1, dict(boolean=True), False),
}


# --- GAMETES-like SNP data --------------------------------------------------

#: GAMETES' names: the two loci of the epistatic model (model 0) and the
#: locus of the main effect (model 1); N<j> for the noise SNPs
PAIR_NAMES = ("M0P0", "M0P1")
MAIN_NAME = "M1P0"
#: noise SNPs drawn together from one seed of their own (so that a block
#: of columns is the same whatever the blocks asked for)
TILE = 1024
#: the penetrance of the genotypes at the mean of the model's terms
BASE_PENETRANCE = 0.5


def hwe_frequencies(maf):
    """P(genotype 0, 1, 2) of a SNP whose minor allele has frequency
    `maf`, in Hardy-Weinberg equilibrium (the genotype counts the minor
    alleles)."""
    return np.array([(1 - maf) ** 2, 2 * maf * (1 - maf), maf ** 2])


def effect_coding(maf):
    """The coding w of a SNP's genotypes 0, 1, 2 in a penetrance model:
    two values, one on each side of the split of the genotypes into two
    sets whose frequencies (:func:`hwe_frequencies`) are nearest to a
    half, of mean 0 (so that w adds no marginal effect where it is
    multiplied by another SNP's w) and largest magnitude 1: the zero-mean
    coding of the largest variance within [-1, 1]."""
    p = hwe_frequencies(maf)
    alone = int(np.argmin(np.abs(p - 0.5)))  # the genotype set apart
    m = p[alone]
    w = np.full(3, -m)
    w[alone] = 1 - m
    return w / max(m, 1 - m)


def penetrance_table(maf, heritability, main_effect):
    """P(case | g1, g2, g3) of the 27 genotypes of the epistatic pair
    (g1, g2) and the main-effect SNP g3, all of minor allele frequency
    `maf`: K + d w1 w2 + e w3 with w the :func:`effect_coding` (mean 0,
    so the pair has no marginal effect: pure epistasis, as in GAMETES'
    models) and K = 1/2.  d and e make the pair's and the main effect's
    shares of the penetrance's variance, over K (1 - K), equal
    `heritability` and `main_effect` (the heritabilities of GAMETES,
    Urbanowicz et al. 2012).  Shape (3, 3, 3).

    Raises ReliefInputError if a penetrance would leave [0, 1]."""
    w = effect_coding(maf)
    variance = hwe_frequencies(maf) @ w ** 2
    scale = BASE_PENETRANCE * (1 - BASE_PENETRANCE)
    d = np.sqrt(heritability * scale) / variance
    e = np.sqrt(main_effect * scale / variance)
    table = (BASE_PENETRANCE + d * w[:, None, None] * w[None, :, None]
             + e * w[None, None, :])
    if table.min() < 0 or table.max() > 1:
        raise ReliefInputError(
            f"heritability {heritability} and main_effect {main_effect} are "
            f"too strong for a minor allele frequency of {maf}: some "
            f"genotypes would have a penetrance outside [0, 1]; use smaller "
            f"effects or a frequency nearer 0.5.")
    return table


class GametesSource:
    """GAMETES-like SNP data as a column-block source (see
    :mod:`orangecontrib.relief.readers.sources`), its blocks made on
    demand: int8 genotypes, n instances x `n_snps` SNPs, the class in
    :attr:`y` (half cases, half controls).

    Columns 0 and 1 are a purely epistatic pair, column 2 a main effect
    (both of minor allele frequency `predictive_maf`, penetrances of
    :func:`penetrance_table`); the other SNPs are noise, each of a minor
    allele frequency drawn uniformly from `maf`.  The instances'
    predictive genotypes are drawn given their class, P(g | case)
    proportional to P(g) f(g) (as GAMETES draws balanced data), in a
    random order.  Every number comes from `seed`; a noise column is the
    same whichever blocks are asked for.

    References
    ----------
    Urbanowicz, R. J., Kiralis, J., Sinnott-Armstrong, N. A., Heberling,
    T., Fisher, J. M., Moore, J. H. (2012). GAMETES: a fast, direct
    algorithm for generating pure, strict, epistatic models with random
    architectures. BioData Mining 5:16.
    """
    dtype = np.dtype(np.int8)
    missing_code = None

    def __init__(self, n_instances=1600, n_snps=100, *, maf=(0.05, 0.5),
                 predictive_maf=0.2, heritability=0.2, main_effect=0.02,
                 seed=None):
        self.n_instances = Integer(2)("n_instances", n_instances)
        self.n_snps = Integer(3)("n_snps", n_snps)
        low, high = (Interval(0.01, 0.5)("maf", m) for m in maf)
        if low > high:
            raise ReliefInputError(f"maf must be (low, high) with low <= "
                                   f"high, got {maf!r}.")
        self.maf = (low, high)
        self.predictive_maf = Interval(0.01, 0.5)("predictive_maf",
                                                  predictive_maf)
        self.heritability = Interval(0, 1)("heritability", heritability)
        self.main_effect = Interval(0, 1)("main_effect", main_effect)
        entropy = Seed()("seed", seed)
        if not isinstance(entropy, int):  # None, a Generator: one draw
            entropy = int(np.random.default_rng(entropy).integers(2 ** 63))
        self.entropy = entropy
        self.shape = (self.n_instances, self.n_snps)
        self.y, self.predictive = self._predictive()

    @property
    def names(self):
        return ([*PAIR_NAMES, MAIN_NAME]
                + [f"N{j}" for j in range(self.n_snps - 3)])

    def _rng(self, *key):
        return np.random.default_rng(np.random.SeedSequence(
            self.entropy, spawn_key=key))

    def _predictive(self):
        """The class (float64 codes, 0 control, 1 case) and the three
        predictive SNPs (int8, n x 3)."""
        rng = self._rng(0)
        table = penetrance_table(self.predictive_maf, self.heritability,
                                 self.main_effect).ravel()
        p = hwe_frequencies(self.predictive_maf)
        prior = (p[:, None, None] * p[None, :, None]
                 * p[None, None, :]).ravel()
        cases = self.n_instances // 2
        codes = np.concatenate((
            rng.choice(27, cases, p=prior * table / (prior * table).sum()),
            rng.choice(27, self.n_instances - cases,
                       p=prior * (1 - table) / (prior * (1 - table)).sum())))
        y = np.r_[np.ones(cases), np.zeros(self.n_instances - cases)]
        order = rng.permutation(self.n_instances)
        genotypes = np.stack(np.unravel_index(codes, (3, 3, 3)), axis=1)
        return y[order], genotypes[order].astype(np.int8)

    def _tile(self, t):
        """Noise SNPs t TILE .. (t + 1) TILE - 1 (of the noise's own
        numbering), int8."""
        rng = self._rng(1, t)
        width = min(TILE, self.n_snps - 3 - t * TILE)
        mafs = rng.uniform(*self.maf, width)
        return rng.binomial(2, mafs, (self.n_instances, width)).astype(
            np.int8)

    def column_blocks(self, size=TILE):
        """``(start, genotypes)`` of columns start .. start + size - 1,
        int8 (n, width), in order."""
        for start in range(0, self.n_snps, size):
            stop = min(start + size, self.n_snps)
            yield start, self.columns(start, stop)

    def columns(self, start, stop):
        """Genotypes of columns start .. stop - 1 (int8, Fortran order)."""
        block = np.empty((self.n_instances, stop - start), np.int8,
                         order="F")
        predictive = slice(start, min(stop, 3))
        block[:, :max(0, min(stop, 3) - start)] = self.predictive[:, predictive]
        noise_start, noise_stop = max(start, 3) - 3, stop - 3
        for t in range(noise_start // TILE, -(-noise_stop // TILE)):
            low, high = max(noise_start, t * TILE), min(noise_stop,
                                                        (t + 1) * TILE)
            if low < high:
                block[:, low + 3 - start:high + 3 - start] = self._tile(t)[
                    :, low - t * TILE:high - t * TILE]
        return block


def gametes(n_instances=1600, n_snps=100, *, maf=(0.05, 0.5),
            predictive_maf=0.2, heritability=0.2, main_effect=0.02,
            seed=None):
    """GAMETES-like SNP data in memory: a 2-way epistatic pair (M0P0,
    M0P1) and a main effect (M1P0) among `n_snps` SNPs, int8 genotypes;
    see :class:`GametesSource` for the model and the parameters.  The
    noise SNPs are N0, N1, ...; the relevant attributes come first, as
    in the other problems."""
    source = GametesSource(n_instances, n_snps, maf=maf,
                           predictive_maf=predictive_maf,
                           heritability=heritability,
                           main_effect=main_effect, seed=seed)
    _check_size(n_instances, n_snps)
    X = source.columns(0, n_snps)
    roles = ["relevant"] * 3 + ["irrelevant"] * (n_snps - 3)
    return Problem(
        name="GAMETES", X=X, y=source.y, names=source.names,
        relevant=np.array([r == "relevant" for r in roles]), roles=roles,
        values=[None] * n_snps, class_values=("control", "case"),
        info=dict(predictive_maf=source.predictive_maf,
                  heritability=source.heritability,
                  main_effect=source.main_effect, maf=source.maf,
                  penetrance=penetrance_table(source.predictive_maf,
                                              source.heritability,
                                              source.main_effect)))
