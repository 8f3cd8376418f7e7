"""Make doc/widgets/images/relief.png: the Relief widget on heart_disease.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot.py``
"""
import os
import time
from pathlib import Path

from AnyQt.QtWidgets import QApplication
from Orange.data import Table

from orangecontrib.relief.datasets import path
from orangecontrib.relief.widgets.owrelief import OWRelief

TARGET = Path(__file__).resolve().parent / "widgets" / "images" / "relief.png"
SIZE = (820, 520)
TIMEOUT = 60
SETTLE = 0.5  # seconds for the plot to lay out its axes after the data


def process_events_until(app, done, timeout=TIMEOUT):
    """Let Qt work until `done()` is true or `timeout` seconds passed."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)


def main():
    """Show the widget with the shipped heart_disease data and save it."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication([])
    widget = OWRelief()
    widget.set_data(Table(path("heart_disease")))
    widget.handleNewSignals()
    widget.resize(*SIZE)
    widget.show()
    process_events_until(app, lambda: widget.weights is not None)
    process_events_until(app, lambda: False, timeout=SETTLE)
    widget.grab().save(str(TARGET))
    print(TARGET)


if __name__ == "__main__":
    main()
