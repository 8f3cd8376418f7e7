"""Make doc/widgets/images/relief.png: the Relief widget on heart_disease,
MultiSURF with STIR's significance.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import (application, save_screenshot,  # noqa: E402
                                show_with_data)

from orangecontrib.relief.widgets.owrelief import OWRelief  # noqa: E402


def main():
    """Show the widget with the shipped heart_disease data and save it."""
    from Orange.data import Table

    from orangecontrib.relief.datasets import path

    app = application()
    widget = OWRelief()
    widget.method = "MultiSURF"
    widget.test_significance = True
    widget._update_controls()
    show_with_data(widget, Table(path("heart_disease")), size=(960, 700))
    print(save_screenshot(app, widget, "relief.png",
                          lambda: widget.scores is not None))


if __name__ == "__main__":
    main()
