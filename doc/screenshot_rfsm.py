"""Make doc/widgets/images/rfsm.png: the RFSM Selection widget on zoo.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_rfsm.py``
"""
import os
import sys
from pathlib import Path

from AnyQt.QtWidgets import QApplication
from Orange.data import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot import SETTLE, process_events_until  # noqa: E402

from orangecontrib.relief.datasets import path  # noqa: E402
from orangecontrib.relief.widgets.owrfsm import OWRFSM  # noqa: E402

TARGET = Path(__file__).resolve().parent / "widgets" / "images" / "rfsm.png"
SIZE = (860, 560)


def main():
    """Show the widget with the shipped zoo data and save it."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication([])
    widget = OWRFSM()
    widget.set_data(Table(path("zoo")))
    widget.handleNewSignals()
    widget.resize(*SIZE)
    widget.show()
    process_events_until(app, lambda: widget.result is not None, timeout=300)
    process_events_until(app, lambda: False, timeout=SETTLE)
    widget.grab().save(str(TARGET))
    print(TARGET)


if __name__ == "__main__":
    main()
