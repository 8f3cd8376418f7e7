"""Make the screenshots of the Relief Data Generator and Separability widgets:
doc/widgets/images/generator.png and doc/widgets/images/separability.png.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_double.py``
"""
import os
import sys
from pathlib import Path

from AnyQt.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot import SETTLE, process_events_until  # noqa: E402

from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator  # noqa: E402
from orangecontrib.relief.widgets.owseparability import OWSeparability  # noqa: E402

IMAGES = Path(__file__).resolve().parent / "widgets" / "images"


def generator(app):
    widget = OWReliefGenerator()
    widget.problem = "RDG1 (numeric)"
    widget._update_controls()
    widget.commit.now()
    widget.show()
    process_events_until(app, lambda: False, timeout=SETTLE)
    widget.grab().save(str(IMAGES / "generator.png"))


def separability(app):
    widget = OWSeparability()
    wanted = ("RandomRBF", "MajorityN")
    widget.max_relevant, widget.n_datasets = 8, 5
    for row in range(widget.problem_list.count()):
        item = widget.problem_list.item(row)
        item.setCheckState(2 if item.data(256) in wanted else 0)
    widget.resize(980, 640)
    widget.show()
    widget.toggle_run()
    process_events_until(app, lambda: widget.results is not None,
                         timeout=600)
    process_events_until(app, lambda: False, timeout=SETTLE)
    widget.grab().save(str(IMAGES / "separability.png"))


def main():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication([])
    generator(app)
    separability(app)
    print(IMAGES / "generator.png", IMAGES / "separability.png")


if __name__ == "__main__":
    main()
