"""Artificial problems with known relevant attributes, as Orange tables.

The problems of Prat & Belanche (2006, section 4.4) and of Arauzo-Azofra,
Benitez & Castro (CorrAL, Parity3+3).  Each function returns an Orange
``Table`` whose attributes say whether they are relevant::

    >>> data = majority(n_instances=100, n_relevant=5, n_irrelevant=3, seed=0)
    >>> [var.attributes["relevant"] for var in data.domain.attributes]
    [True, True, True, True, True, False, False, False]

``var.attributes["role"]`` tells more: "relevant", "irrelevant",
"redundant" (a copy of a relevant attribute) or "correlated".  The numbers
come from :mod:`orangecontrib.relief.core.generators` (plain numpy); the
hidden parts of the process (rules, centroids, ...) are in
``table.attributes["info"]``.
"""
from dataclasses import dataclass

import numpy as np
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from .core import generators as core

__all__ = ["to_table", "rdg1", "random_rbf", "non_monotonic", "majority",
           "modulo", "xor", "corral", "parity", "gametes", "GENERATORS",
           "Generator", "PROBLEM_GROUPS", "relevant_mask"]


def _variable(name, values, relevant, role):
    var = (ContinuousVariable(name) if values is None
           else DiscreteVariable(name, values=list(values)))
    var.attributes["relevant"] = bool(relevant)
    var.attributes["role"] = role
    return var


def _describe_rules(problem):
    """The RDG1 decision list as lines of text."""
    names = problem.names
    lines = []
    for number, (klass, tests) in enumerate(problem.info["rules"]):
        terms = []
        for attribute, op, value in tests:
            if op == "==":
                terms.append(f"{names[attribute]} = "
                             f"{problem.values[attribute][int(value)]}")
            else:
                terms.append(f"{names[attribute]} {op} {value:.3g}")
        lines.append(f"RULE {number}: class {problem.class_values[klass]} "
                     f":= {' and '.join(terms)}")
    return lines


def to_table(problem, seed=None):
    """The Orange table of a :class:`~orangecontrib.relief.core.generators.Problem`.

    Attributes carry ``attributes["relevant"]`` (bool) and
    ``attributes["role"]``; the table's ``attributes`` hold the problem's
    name, the seed and its ``info`` (and, for RDG1, the rules as text).
    """
    attributes = [_variable(name, values, relevant, role)
                  for name, values, relevant, role in zip(
                      problem.names, problem.values, problem.relevant,
                      problem.roles)]
    class_var = DiscreteVariable("class", values=list(problem.class_values))
    table = Table.from_numpy(Domain(attributes, class_var), problem.X,
                             problem.y)
    table.name = problem.name
    table.attributes = {"problem": problem.name, "seed": seed,
                        "info": problem.info}
    if "rules" in problem.info:
        table.attributes["rules"] = _describe_rules(problem)
    return table


def relevant_mask(domain):
    """Bool array: which attributes of `domain` are flagged relevant."""
    return np.array([bool(var.attributes.get("relevant", False))
                     for var in domain.attributes])


def rdg1(n_instances=100, n_relevant=10, n_irrelevant=0, *, boolean=False,
         n_classes=2, min_rule_size=1, max_rule_size=10, seed=None):
    """RDG1 (section 4.4.1 and 4.4.6): see
    :func:`orangecontrib.relief.core.generators.rdg1`."""
    return to_table(core.rdg1(
        n_instances, n_relevant, n_irrelevant, boolean=boolean,
        n_classes=n_classes, min_rule_size=min_rule_size,
        max_rule_size=max_rule_size, seed=seed), seed)


def random_rbf(n_instances=100, n_relevant=10, n_irrelevant=0, *,
               n_classes=2, n_centroids=50, seed=None):
    """RandomRBF (section 4.4.2): see
    :func:`orangecontrib.relief.core.generators.random_rbf`."""
    return to_table(core.random_rbf(
        n_instances, n_relevant, n_irrelevant, n_classes=n_classes,
        n_centroids=n_centroids, seed=seed), seed)


def non_monotonic(n_instances=100, n_relevant=10, n_irrelevant=0, *,
                  seed=None):
    """NonMonotonic (section 4.4.3, eq. 4.4): see
    :func:`orangecontrib.relief.core.generators.non_monotonic`."""
    return to_table(core.non_monotonic(n_instances, n_relevant, n_irrelevant,
                                       seed=seed), seed)


def majority(n_instances=100, n_relevant=5, n_irrelevant=0, *, seed=None):
    """MajorityN (section 4.4.4): see
    :func:`orangecontrib.relief.core.generators.majority`."""
    return to_table(core.majority(n_instances, n_relevant, n_irrelevant,
                                  seed=seed), seed)


def modulo(n_instances=100, n_relevant=2, n_irrelevant=0, *, p=3,
           numeric=False, seed=None):
    """Modulo-p (section 4.4.5, eq. 4.5): see
    :func:`orangecontrib.relief.core.generators.modulo`."""
    return to_table(core.modulo(n_instances, n_relevant, n_irrelevant, p=p,
                                numeric=numeric, seed=seed), seed)


def xor(n_instances=100, n_relevant=2, n_irrelevant=0, *, seed=None):
    """XOR: the class is the exclusive or (the parity) of `n_relevant`
    random bits; Modulo-p with p = 2 (:func:`modulo`), named XOR."""
    table = modulo(n_instances, n_relevant, n_irrelevant, p=2, seed=seed)
    table.name = table.attributes["problem"] = "XOR"
    return table


def corral(n_instances=32, *, correlation=0.75, seed=None):
    """CorrAL: see :func:`orangecontrib.relief.core.generators.corral`."""
    return to_table(core.corral(n_instances, correlation=correlation,
                                seed=seed), seed)


def parity(n_instances=64, *, n_bits=3, n_irrelevant=6, seed=None):
    """Parity3+3: see :func:`orangecontrib.relief.core.generators.parity`."""
    return to_table(core.parity(n_instances, n_bits=n_bits,
                                n_irrelevant=n_irrelevant, seed=seed), seed)


def gametes(n_instances=1600, n_snps=100, *, maf=(0.05, 0.5),
            predictive_maf=0.2, heritability=0.2, main_effect=0.02,
            seed=None):
    """GAMETES-like SNP data: a purely epistatic pair (M0P0, M0P1) and a
    main effect (M1P0) among `n_snps` SNPs, genotypes 0, 1, 2 as numeric
    attributes, a class control/case; see
    :class:`orangecontrib.relief.core.generators.GametesSource`."""
    return to_table(core.gametes(
        n_instances, n_snps, maf=maf, predictive_maf=predictive_maf,
        heritability=heritability, main_effect=main_effect, seed=seed), seed)


@dataclass(frozen=True)
class Generator:
    """A problem as the Data Generator widget offers it.

    `function` is called with ``seed`` and the keyword arguments named in
    `parameters` (plus the fixed `options`); `description` says in plain
    words how the class depends on the attributes, `short` the same in a
    few words (beside the name in the widgets' lists), `source` where the
    problem comes from (the papers, for a tooltip).
    """
    function: object
    description: str
    parameters: tuple
    options: tuple = ()
    source: str = ""
    short: str = ""

    def __call__(self, seed=None, **kwargs):
        chosen = {name: kwargs[name] for name in self.parameters
                  if name in kwargs}
        return self.function(seed=seed, **chosen, **dict(self.options))


_RDG1 = ("Classes from a random decision list (Weka's RDG1). Instances "
         "are generated one by one; the first rule that is true gives the "
         "class, and an instance no rule covers makes a new rule: a "
         "conjunction of 1 to 10 random tests on relevant attributes that "
         "the instance meets, with the next class.")


def _prat(section):
    """Where Prat & Belanche (2006) describe a problem."""
    return f"Prat & Belanche (2006), section 4.4.{section}"


#: Problem name -> Generator (the widget's list, in this order).
GENERATORS = {
    "RDG1-numeric": Generator(
        rdg1, _RDG1 + " Attributes are uniform in [0, 1); tests are "
        "a < v or a >= v.",
        ("n_instances", "n_relevant", "n_irrelevant", "n_classes",
         "max_rule_size"), (("boolean", False),),
        f"Weka's RDG1; RDG1NamedContinuous in {_prat('1')}.",
        "random rules on numbers"),
    "RDG1-boolean": Generator(
        rdg1, _RDG1 + " Attributes are random booleans; tests are a = value.",
        ("n_instances", "n_relevant", "n_irrelevant", "n_classes",
         "max_rule_size"), (("boolean", True),),
        f"Weka's RDG1; RDG1NamedCategorical in {_prat('6')}.",
        "random rules on yes/no values"),
    "RandomRBF": Generator(
        random_rbf, "Random cluster centres, each with a class, a weight and "
        "a spread (Weka's RandomRBF); an instance lies at a random, normally "
        "distributed distance from a centre picked by weight and has its "
        "class. Irrelevant attributes come from other random centres.",
        ("n_instances", "n_relevant", "n_irrelevant", "n_classes",
         "n_centroids"), (), f"Weka's RandomRBF; {_prat('2')}.",
        "clusters, a class each"),
    "NonMonotonic": Generator(
        non_monotonic, "A hidden random number r_i gives the class, its "
        "integer part (0 .. N for N relevant attributes). Every relevant "
        "attribute a is a random factor r_a times r_i in odd instances and "
        "times the square root of r_i in even ones, so its values do not "
        "grow with the class in one way. Irrelevant attributes are uniform "
        "in [0, 1).",
        ("n_instances", "n_relevant", "n_irrelevant"), (),
        _prat("3, eq. 4.4") + ".", "values not in step with the class"),
    "MajorityN": Generator(
        majority, "Random bits; the class is 1 when most of the relevant "
        "bits are 1.",
        ("n_instances", "n_relevant", "n_irrelevant"), (), _prat("4") + ".",
        "class 1 when most bits are 1"),
    "ModuloP": Generator(
        modulo, "Attributes with values 0 .. p-1; the class is the sum of "
        "the relevant ones modulo p (the remainder after dividing by p).",
        ("n_instances", "n_relevant", "n_irrelevant", "p"), (),
        _prat("5, eq. 4.5") + ".", "sum of the values modulo p"),
    "XOR": Generator(
        xor, "Random bits; the class is their exclusive or (XOR): 1 when an "
        "odd number of the relevant bits are 1. No relevant bit alone says "
        "anything about the class; together they decide it.",
        ("n_instances", "n_relevant", "n_irrelevant"), (),
        f"ModuloP with p = 2 ({_prat('5')}).",
        "class 1 when an odd number of bits are 1"),
    "CorrAL": Generator(
        corral, "Class (A0 and A1) or (B0 and B1), a random bit "
        "'Irrelevant' and a bit 'Correlated' that equals the class in 75 % "
        "of the instances but is not needed. 32 instances give the classic "
        "truth table.",
        ("n_instances",), (),
        "John, Kohavi & Pfleger (1994); Arauzo-Azofra, Benitez & Castro.",
        "two ANDs and a misleading bit"),
    "Parity3+3": Generator(
        parity, "Class x1 xor x2 xor x3; the three relevant bits are "
        "duplicated (redundant copies) and six random bits added.",
        ("n_instances",), (), "Arauzo-Azofra, Benitez & Castro.",
        "XOR of three bits, each copied"),
}

#: the problems as the widgets list them, grouped by how the class depends
#: on the relevant attributes: (heading, [name, ...])
PROBLEM_GROUPS = (
    ("Attributes that matter only together", ["XOR", "Parity3+3",
                                              "ModuloP", "CorrAL"]),
    ("Attributes that matter one by one", ["MajorityN", "NonMonotonic",
                                           "RandomRBF"]),
    ("Classes from random rules", ["RDG1-numeric", "RDG1-boolean"]))
