"""Every public entry checks each option it takes once a call, from the
declared table (``core/options.py``, :data:`PARAMETERS`), by the name its
user typed: the keyword of the selector or scorer they called, the
``--flag`` of the command line.

One matrix: every scikit-learn selector, every Orange scorer of the
registry (and of survival NPDR) and the declared options of
``orange-relief rank``; each option given a value its declared constraint
refuses (:func:`refused`), and the entry called once with every option
valid, counting the checks.
"""
import gc
import inspect
import sys
from collections import Counter

import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from Orange.classification import KNNLearner

from orangecontrib.relief import (curve, knn, preprocess, regain, scorers,
                                  significance, sklearn, stability, survival)
from orangecontrib.relief.cli import main
from orangecontrib.relief.core import options
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.options import PARAMETERS
from orangecontrib.relief.core.registry import VARIANTS

#: every kind of declared constraint, Optional too (one check of an
#: Optional option counts once, not again for its inner constraint)
KINDS = (options.Integer, options.OneOf, options.Interval, options.Seed,
         options.Flag, options.Names, options.Optional)
#: NPDR's and survival NPDR's names of the options the table declares
#: apart
NPDR = {"neighbourhood": "npdr_neighbourhood", "k_nearest": "npdr_k",
        "ties": "npdr_ties"}
SURVIVAL = dict(NPDR, diffs="survival_diffs",
                regression="survival_regression")
#: the selectors' `threshold` (a weight to exceed) and `covariates`
#: (columns of X) are not the table's
SELECTOR = {"threshold": None, "covariates": None}


def refused(constraint):
    """A value that `constraint` refuses."""
    if isinstance(constraint, options.Optional):
        return refused(constraint.inner)
    if isinstance(constraint, options.Integer):
        return constraint.low - 1
    if isinstance(constraint, options.Interval):
        return float("nan")
    if isinstance(constraint, options.Seed):
        return -1
    if isinstance(constraint, options.Flag):
        return "yes"
    if isinstance(constraint, options.Names):
        return "age"  # a string, not a list of names
    return "no such"  # OneOf


@pytest.fixture
def checks(monkeypatch):
    """How many times each option is checked (by name)."""
    counted, depth = Counter(), []
    for kind in KINDS:
        def counting(self, name, value, check=kind.__call__):
            if not depth:
                counted[name] += 1
            depth.append(name)
            try:
                return check(self, name, value)
            finally:
                depth.pop()
        monkeypatch.setattr(kind, "__call__", counting)
    return counted


def declared(defaults, names, shared=()):
    """{name the user types: (the table's name, the checks of a call)} of
    the options `defaults` ({name: default}) that the table declares
    (`names` renames some; None: not the table's): one, none where the
    default is resolved later (None, where the data are known) and
    checked there, two where a wrapped scorer has an option of the same
    name (`shared`)."""
    return {name: (names.get(name, name),
                   accepts(PARAMETERS[names.get(name, name)], default)
                   * (1 + (name in shared)))
            for name, default in defaults.items()
            if names.get(name, name) in PARAMETERS}


def accepts(constraint, value):
    """Whether `constraint` accepts `value`."""
    try:
        constraint("option", value)
    except ReliefInputError:
        return False
    return True


def signature_defaults(function):
    """{name: default} of the parameters of `function`."""
    return {name: parameter.default for name, parameter
            in inspect.signature(function).parameters.items()
            if parameter.default is not parameter.empty}


RNG = np.random.default_rng(7)
X = RNG.random((24, 4))
CLASSES = np.arange(24.0) % 2
TARGET = X[:, 0] + RNG.random(24)
TARGETS = np.column_stack([TARGET, X[:, 1] * 2])
LABELS = (X[:, :2] > 0.5).astype(float)
SURVIVAL_Y = np.column_stack([np.arange(24) % 3 > 0, 1 + 10 * X[:, 0]])
Y_OF = {"classification": CLASSES, "regression": TARGET}


def selector_y(cls):
    if cls is sklearn.SurvivalNPDR:
        return SURVIVAL_Y
    if issubclass(cls, sklearn.TargetSelector):
        return LABELS if cls is sklearn.MultiLabelReliefF else TARGETS
    return Y_OF[cls().task]


def selector_entry(cls):
    names = dict(SELECTOR, **(SURVIVAL if cls is sklearn.SurvivalNPDR
                              else {}))

    def call(**given):
        cls(**given).fit(X, selector_y(cls))
    return cls.__name__, call, declared(cls().get_params(deep=False), names)


def table(task):
    attributes = [ContinuousVariable(f"a{i}") for i in range(4)]
    class_var = (DiscreteVariable("c", values=("x", "y"))
                 if task == "classification" else ContinuousVariable("t"))
    return Table.from_numpy(Domain(attributes, class_var), X, Y_OF[task])


def scorer_entry(variant):
    cls = getattr(scorers, variant.scorer)
    data = table(variant.tasks[0])

    def call(**given):
        cls(**given)(data)
    names = NPDR if variant.scorer == "NPDR" else {}
    return variant.scorer, call, declared(signature_defaults(cls.__init__),
                                          names, wrapped(cls))


def wrapped(cls):
    """The declared options of the scorer that a wrapper scorer (TuRF,
    Iter, VLS) wraps by default: checked too, once, where a wrapper's
    option has the same name (VLS's and ReliefF's random_state)."""
    if not issubclass(cls, scorers.WrapperScorer):
        return set()
    return set(declared(signature_defaults(type(cls().scorer).__init__), {}))


def survival_entry():
    attributes = [ContinuousVariable(f"a{i}") for i in range(4)]
    domain = Domain(attributes, metas=[ContinuousVariable("time"),
                                       ContinuousVariable("event")])
    data = Table.from_numpy(domain, X, metas=SURVIVAL_Y[:, ::-1])

    def call(**given):
        survival.SurvivalNPDR(time="time", event="event", **given)(data)
    return "SurvivalNPDR scorer", call, declared(
        signature_defaults(survival.SurvivalNPDR.__init__), SURVIVAL)


def orange_entry(name, entry, names=None, given=None, scorer=None):
    """An Orange entry of the add-on (a learner, a preprocessor, a test, a
    function of a table), called as ``entry(table, **options)``; `given`:
    options of every call (a small size, a test to run), checked once
    like the defaults the table accepts, which are passed too, so that
    a default's check is counted where the user gives it.  The default
    `scorer` it wraps checks its own options of the same names too."""
    data = table("classification")
    defaults = dict(signature_defaults(entry), **(given or {}))
    shared = () if scorer is None else set(declared(
        signature_defaults(scorer.__init__), {}))
    parameters = declared(defaults, names or {}, shared)
    explicit = dict({option: defaults[option]
                     for option, (_, times) in parameters.items() if times},
                    **(given or {}))

    def call(**options):
        entry(data, **dict(explicit, **options))
    return name, call, parameters


def constructed(cls, *args):
    """``cls(**options)(table, *args)``, with the signature of its
    constructor."""
    def entry(data, **options):
        return cls(**options)(data, *args)
    entry.__signature__ = inspect.signature(cls.__init__)
    return entry


def with_learner(function):
    """``function(table, KNNLearner(), **options)``, with its
    signature."""
    def entry(data, **options):
        return function(data, KNNLearner(), **options)
    entry.__signature__ = inspect.signature(function)
    return entry


#: the preprocessor's k, fraction and threshold (a share of (0, 1], a
#: weight of any sign) are not the table's
KEPT = {"k": None, "fraction": None, "threshold": None}
ORANGE = [
    orange_entry("ClassDependentKNNLearner",
                 constructed(knn.ClassDependentKNNLearner),
                 {"k": "k_nearest"}, {"threshold": 0.3}),
    orange_entry("SelectReliefFeatures",
                 constructed(preprocess.SelectReliefFeatures), KEPT,
                 {"significance": "permutation", "n_permutations": 9},
                 scorers.ReliefF),
    orange_entry("selection_curve", with_learner(curve.selection_curve),
                 given={"n_folds": 2}, scorer=scorers.ReliefF),
    orange_entry("ranking_stability", stability.ranking_stability,
                 given={"n_resamples": 4}, scorer=scorers.ReliefF),
    orange_entry("regain_network", regain.regain_network,
                 {"covariates": None}),
    orange_entry("Significance", constructed(significance.Significance),
                 given={"test": "permutation", "n_permutations": 9},
                 scorer=scorers.MultiSURF),
]
SELECTORS = [getattr(sklearn, name) for name in sklearn.__all__
             if name != "ReliefSelector"]


def nested_wrappers():
    """VLS around TuRF around ReliefF: the options of ReliefF and of TuRF
    checked once, at the outermost call, not in each of VLS's subsets
    (VLS's random_state, checked too, is ReliefF's name)."""
    data = table("classification")
    inner = signature_defaults(scorers.ReliefF.__init__)

    def call(**given):
        turf = scorers.TuRF(scorers.ReliefF(**{
            name: value for name, value in given.items() if name in inner}),
            **{name: value for name, value in given.items()
               if name not in inner})
        scorers.VLS(turf, subset_size=2)(data)
    return "VLS(TuRF(ReliefF))", call, dict(
        declared(inner, {}, {"random_state"}), **declared(signature_defaults(
            scorers.TuRF.__init__), {}))


ENTRIES = ([selector_entry(cls) for cls in SELECTORS]
           + [scorer_entry(variant) for variant in VARIANTS]
           + [survival_entry(), nested_wrappers()] + ORANGE)


@pytest.mark.parametrize("name, call, parameters", ENTRIES,
                         ids=[entry[0] for entry in ENTRIES])
def test_an_entry_checks_its_options_once_by_their_names(
        checks, name, call, parameters):
    assert parameters, "the entry takes no declared option"
    call()
    assert {option: checks[option] for option in parameters} == {
        option: times for option, (_, times) in parameters.items()}
    wrong = []
    for option, (table_name, _) in parameters.items():
        value = refused(PARAMETERS[table_name])
        try:
            call(**{option: value})
        except ReliefInputError as error:
            if not str(error).startswith(f"{option} "):
                wrong.append(f"{option}={value!r}: {error}")
        else:
            wrong.append(f"{option}={value!r} was accepted")
    assert not wrong, "\n".join(wrong)


def test_a_command_names_the_flag_typed(capsys, monkeypatch):
    """``orange-relief rank`` refuses a value that the declared
    constraint of its option refuses, as it parses the command line:
    one line naming the flag, exit status 2, before any work (the file,
    which does not exist, is not read).  The last is a program's call of
    ``main()`` on its own command line, which leaves its garbage
    collector as it was (only the ``orange-relief`` process skips its last
    collection)."""
    wrong = []
    for flag, value in (("--k", "0"), ("--iterations", "0"),
                        ("--seed", "-1"), ("--t-eq", "nan"),
                        ("--permutations", "0"), ("--stability", "1"),
                        ("--subsample", "1"), ("--rounds", "0"),
                        ("--subset-size", "1"), ("--fdr", "2"),
                        ("--covariates", "age,age"),
                        ("--t-eq", "0.2")):  # above --t-diff's default
        argv = ["rank", "no-such-file.tab", flag, value]
        monkeypatch.setattr(sys, "argv", ["a program", *argv])
        # the test session froze what its collection made: only what the
        # call freezes counts
        before = gc.get_freeze_count()
        try:
            code = main(None if value == "0.2" else argv)
        except SystemExit as stop:  # argparse's error
            code = stop.code
        frozen = gc.get_freeze_count() - before  # less: frozen ones freed
        if frozen > 0:
            wrong.append(f"{flag} {value}: {frozen} objects frozen")
        error = capsys.readouterr().err
        if code != 2 or error.count("\n") != 1 or flag not in error:
            wrong.append(f"{flag} {value}: exit {code}, {error!r}")
    assert not wrong, "\n".join(wrong)


#: commands of ``orange-relief``, and the options they give
COMMANDS = [
    (["rank", "--method", "MultiSURF", "--significance", "stir", "--fdr",
      "0.1"], ["alpha"]),
    (["rank", "--method", "MultiSURF", "--significance", "permutation",
      "--permutations", "9", "--fdr", "0.5", "--seed", "1"],
     ["n_permutations", "alpha", "random_state"]),
    (["rank", "--method", "MultiSURF", "--stability", "3", "--subsample",
      "0.5", "--top", "2"], ["n_resamples", "subsample", "top_k"]),
    (["rank", "--k", "3", "--iterations", "20", "--seed", "2", "--diff",
      "ramp", "--t-eq", "0.02", "--t-diff", "0.2"],
     ["k_nearest", "n_iterations", "random_state", "t_eq", "t_diff"]),
    (["rank", "--method", "NPDR", "--covariates", "age"], ["covariates"]),
    (["rank", "--wrapper", "vls", "--subset-size", "3", "--k", "4"],
     ["subset_size", "k_nearest"]),
    (["rank", "--method", "MultiSURF", "--wrapper", "iter", "--rounds", "2"],
     ["max_rounds"]),
    (["rank", "collembola", "--class", "class_spec,class_ind,class_fols",
      "--k", "3", "--iterations", "20", "--seed", "2", "--significance",
      "permutation", "--permutations", "9", "--stability", "3"],
     ["k_nearest", "n_iterations", "random_state", "n_permutations",
      "n_resamples"]),
    (["curve", "--k", "3", "--folds", "2", "--seed", "1", "--no-figure"],
     ["k_nearest", "n_folds", "random_state"]),
]


def test_a_command_checks_its_options_once(checks, capsys):
    """The values of ``orange-relief rank``'s and ``curve``'s options,
    checked as the command line is parsed, are not checked again as they
    are used: not by the scorer (of one target or several), its wrapper's
    rounds, the test, the resamples or the folds' shared search."""
    wrong = []
    for arguments, parsed in COMMANDS:
        checks.clear()
        code = main(arguments)
        capsys.readouterr()
        counted = {name: checks[name] for name in parsed}
        if code or counted != dict.fromkeys(parsed, 1):
            wrong.append(f"{' '.join(arguments)}: exit {code}, {counted}")
    assert not wrong, "\n".join(wrong)
