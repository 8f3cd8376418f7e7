"""What the doc/screenshot*.py scripts share: a Qt application without a
screen, waiting for a widget's work, and saving its picture under
doc/widgets/images.

A script puts doc/ on ``sys.path`` and imports this module by name.
"""
import os
import time
from pathlib import Path

IMAGES = Path(__file__).resolve().parent / "widgets" / "images"
TIMEOUT = 60
SETTLE = 0.5  # seconds for the plot to lay out its axes after the data


def application():
    """A QApplication that needs no screen (unless QT_QPA_PLATFORM says)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from AnyQt.QtWidgets import QApplication

    return QApplication([])


def process_events_until(app, done, timeout=TIMEOUT):
    """Let Qt work until `done()` is true or `timeout` seconds passed."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)


def show_with_data(widget, data, size=None):
    """Give `data` to the widget's Data input and show it (resized to
    `size`, a (width, height) pair, if given)."""
    widget.set_data(data)
    widget.handleNewSignals()
    if size is not None:
        widget.resize(*size)
    widget.show()


def save_screenshot(app, widget, filename, ready=None, timeout=TIMEOUT):
    """Wait until `ready()` (if given; at most `timeout` seconds), let the
    widget settle and save its picture as IMAGES / `filename`.

    Returns the path of the picture.
    """
    if ready is not None:
        process_events_until(app, ready, timeout)
    process_events_until(app, lambda: False, timeout=SETTLE)
    target = IMAGES / filename
    widget.grab().save(str(target))
    return target
