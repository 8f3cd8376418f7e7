"""Make doc/widgets/images/selection-curve-turf.png: Selection Curve on
ionosphere with kNN and TuRF, the sets of its rounds marked (the canvas's
pictures, doc/screenshot_canvas.py, show it with ReliefF).

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_selection.py``
"""
import sys
from pathlib import Path

from Orange.data import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import (application, save_screenshot,  # noqa: E402
                                show_with_data)

from orangecontrib.relief.datasets import path  # noqa: E402
from orangecontrib.relief.widgets.owselectioncurve import (  # noqa: E402
    TURF, OWSelectionCurve)

#: a curve's tasks take long on a busy machine
CURVE_TIMEOUT = 600


def main():
    app = application()
    widget = OWSelectionCurve()
    widget.method = TURF
    show_with_data(widget, Table(path("ionosphere")), size=(1000, 560))
    print(save_screenshot(app, widget, "selection-curve-turf.png",
                          lambda: widget.result is not None,
                          timeout=CURVE_TIMEOUT))


if __name__ == "__main__":
    main()
