"""Orange3-Relief: the Relief family of attribute estimators for Orange.

Scripting::

    from orangecontrib.relief import ReliefF
    weights = ReliefF(k_nearest=10)(table)

The numeric core (:mod:`orangecontrib.relief.core`) imports neither Orange
nor Qt; the Orange scorers are loaded on first use so that importing the
core stays free of them.
"""
import importlib

_SCORERS = ("Relief", "ReliefF", "RReliefF", "RankScorer", "ReliefScorer")

__all__ = list(_SCORERS)


def __getattr__(name):
    if name in _SCORERS:
        return getattr(importlib.import_module(".scorers", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
