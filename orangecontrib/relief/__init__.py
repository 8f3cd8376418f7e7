"""Orange3-Relief: the Relief family of attribute estimators for Orange.

Scripting::

    from orangecontrib.relief import ReliefF
    weights = ReliefF(k_nearest=10)(table)

The numeric core (:mod:`orangecontrib.relief.core`) imports neither Orange
nor Qt; the Orange-facing names below are loaded on first use so that
importing the core stays free of them.
"""
import importlib

#: public name -> the submodule that defines it
_EXPORTS = {
    "ReliefScorer": "scorers",
    "Relief": "scorers",
    "ReliefF": "scorers",
    "RReliefF": "scorers",
    "DReliefF": "scorers",
    "PDReliefF": "scorers",
    "CDRelief": "scorers",
    "IWCDRelief": "scorers",
    "RFSMScorer": "scorers",
    "SURF": "scorers",
    "SURFstar": "scorers",
    "MultiSURF": "scorers",
    "MultiSURFstar": "scorers",
    "TuRF": "scorers",
    "Significance": "significance",
    "RankScorer": "rank",
    "ClassDependentRankScorer": "rank",
    "ClassDependentKNNLearner": "knn",
    "SelectReliefFeatures": "preprocess",
    "Consensus": "consensus",
    "selection_curve": "curve",
    "ranking_stability": "stability",
}

__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        module = importlib.import_module(f".{_EXPORTS[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
