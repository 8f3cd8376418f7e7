"""Orange3-Relief: the Relief family of attribute estimators for Orange.

Scripting::

    from orangecontrib.relief import ReliefF
    weights = ReliefF(k_nearest=10)(table)

The numeric core (:mod:`orangecontrib.relief.core`) imports neither Orange
nor Qt; the Orange-facing names below are loaded on first use so that
importing the package and its core stays free of them.
"""
import importlib

from .core.registry import VARIANTS

#: public name -> the submodule that defines it: every variant's scorer
#: (:mod:`.core.registry`) and the rest of the Orange layer
_EXPORTS = {"ReliefScorer": "scorers",
            **{variant.scorer: "scorers" for variant in VARIANTS},
            "Absolute": "scorers",
            "SurvivalNPDR": "survival",
            "Significance": "significance",
            "RankScorer": "rank",
            "ClassDependentRankScorer": "rank",
            "ClassDependentKNNLearner": "knn",
            "SelectReliefFeatures": "preprocess",
            "Consensus": "consensus",
            "selection_curve": "curve",
            "ranking_stability": "stability"}

__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        module = importlib.import_module(f".{_EXPORTS[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
