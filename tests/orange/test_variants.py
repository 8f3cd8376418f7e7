"""The Orange layer reads the registry of variants (core.registry): every
variant has its scorer, exported by the package, and its scikit-learn
selector where it names one; the command line offers the variants the
registry offers, in its order (the Relief widget too:
tests/widgets/test_owrelief.py)."""
from Orange.data import ContinuousVariable, DiscreteVariable

import orangecontrib.relief as package
from orangecontrib.relief import sklearn as selectors
from orangecontrib.relief.cli import build_parser
from orangecontrib.relief.core.registry import VARIANTS, offered
from orangecontrib.relief.variants import METHODS, SCORERS, VariantScorer
from tests.variants import each_variant

#: a class variable of each task (two classes: Relief's)
CLASSES = {"classification": DiscreteVariable("c", values=("a", "b")),
           "regression": ContinuousVariable("t")}


@each_variant
def test_every_variant_has_its_scorer(variant):
    scorer = SCORERS[variant.name]
    assert getattr(package, variant.scorer) is scorer
    assert variant.scorer in package.__all__
    assert scorer.variant is variant and scorer.friendly_name == variant.name
    assert isinstance(scorer(), VariantScorer)
    for task, class_var in CLASSES.items():
        assert scorer().fits(class_var) == (task in variant.tasks)


def test_every_selector_computes_the_variant_that_names_it():
    named = {variant.selector: variant for variant in VARIANTS
             if variant.selector is not None}
    # Iter wraps the variant of the selector it is given; the selectors
    # of several targets compute the estimators of core.variants.multitarget, and
    # SurvivalNPDR core.variants.survival_npdr, of a survival target
    exported = set(selectors.__all__) - {"ReliefSelector", "Iter",
                                         "MultiTargetRReliefF",
                                         "MultiLabelReliefF", "SurvivalNPDR"}
    assert exported == set(named)
    for name, variant in named.items():
        assert getattr(selectors, name).variant is variant


def test_the_command_line_offers_the_offered_variants():
    parser = build_parser()
    rank = parser._subparsers._group_actions[0].choices["rank"]
    method = next(action for action in rank._actions
                  if action.dest == "method")
    assert list(method.choices) == [variant.name for variant in offered()]
    assert list(METHODS) == list(method.choices)
