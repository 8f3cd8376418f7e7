"""Make the screenshots of the Class-Dependent kNN page:
doc/widgets/images/classdep-knn.png (the widget) and
doc/widgets/images/classdep-rank.png (Rank with the widget's scorer on the
voting data: one column per party).

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_classdep.py``
"""
import sys
from pathlib import Path

from AnyQt.QtGui import QFont, QFontMetrics
from Orange.data import Table
from Orange.widgets.data.owrank import OWRank

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import (  # noqa: E402
    IMAGES, application, process_events_until, save_screenshot,
    show_with_data)

from orangecontrib.relief.datasets import path  # noqa: E402
from orangecontrib.relief.widgets.owclassdepknn import (  # noqa: E402
    OWClassDependentKNN)


def learner_widget(app, data):
    widget = OWClassDependentKNN()
    show_with_data(widget, data)
    save_screenshot(app, widget, "classdep-knn.png",
                    lambda: widget.model is not None)
    return widget.create_scorer()


def rank_widget(app, data, scorer):
    rank = OWRank.__new__(OWRank, stored_settings={
        "selected_methods": {"ReliefF"}})
    rank.__init__()
    rank.set_data(data)
    rank.insert_learner(0, scorer)
    rank.handleNewSignals()
    rank.resize(1250, 520)
    rank.show()
    process_events_until(app, lambda: rank.ranksModel.columnCount() > 4)
    # widen the columns so that their names (class values) are not elided
    header = rank.ranksView.horizontalHeader()
    header.resizeSection(0, 230)
    font = QFont(header.font())
    font.setBold(True)
    metrics = QFontMetrics(font)
    for column in range(2, rank.ranksModel.columnCount()):
        label = rank.ranksModel.headerData(column, 1)
        header.resizeSection(column, metrics.horizontalAdvance(label) + 36)
    save_screenshot(app, rank, "classdep-rank.png")


def main():
    app = application()
    scorer = learner_widget(app, Table(path("heart_disease")))
    rank_widget(app, Table(path("voting")), scorer)
    print(IMAGES / "classdep-knn.png", IMAGES / "classdep-rank.png")


if __name__ == "__main__":
    main()
