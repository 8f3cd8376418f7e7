"""Make the screenshots of selection: doc/widgets/images/selection-curve.png
(Selection Curve on ionosphere with kNN and ReliefF),
selection-curve-turf.png (the same with TuRF, its rounds marked) and
consensus.png (Consensus Ranking of ReliefF, MultiSURF, logistic
regression and Information Gain on heart_disease).

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_selection.py``
(``... screenshot_selection.py consensus``: that picture alone)
"""
import sys
from pathlib import Path

from Orange.classification import LogisticRegressionLearner
from Orange.data import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import (application, save_screenshot,  # noqa: E402
                                show_with_data)

from orangecontrib.relief import MultiSURF, ReliefF  # noqa: E402
from orangecontrib.relief.datasets import path  # noqa: E402
from orangecontrib.relief.rank import RankScorer  # noqa: E402
from orangecontrib.relief.widgets.owconsensus import OWConsensus  # noqa: E402
from orangecontrib.relief.widgets.owselectioncurve import (  # noqa: E402
    TURF, OWSelectionCurve)

#: a curve's tasks take long on a busy machine
CURVE_TIMEOUT = 600


def curves(app):
    for filename, method in (("selection-curve.png", "ReliefF"),
                             ("selection-curve-turf.png", TURF)):
        widget = OWSelectionCurve()
        widget.method = method
        show_with_data(widget, Table(path("ionosphere")), size=(1000, 560))
        print(save_screenshot(app, widget, filename,
                              lambda: widget.result is not None,
                              timeout=CURVE_TIMEOUT))


def consensus(app):
    widget = OWConsensus()
    widget.insert_scorer(0, RankScorer(ReliefF()))
    widget.insert_scorer(1, RankScorer(MultiSURF()))
    widget.insert_scorer(2, LogisticRegressionLearner())
    show_with_data(widget, Table(path("heart_disease")), size=(1180, 560))
    print(save_screenshot(app, widget, "consensus.png",
                          lambda: widget.model.rowCount() > 0))


def main():
    app = application()
    if sys.argv[1:] != ["consensus"]:
        curves(app)
    consensus(app)


if __name__ == "__main__":
    main()
