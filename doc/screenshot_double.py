"""Make the screenshots of the Relief Data Generator and Separability widgets:
doc/widgets/images/generator.png and doc/widgets/images/separability.png.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_double.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import IMAGES, application, save_screenshot  # noqa: E402

from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator  # noqa: E402
from orangecontrib.relief.widgets.owseparability import OWSeparability  # noqa: E402


def generator(app):
    widget = OWReliefGenerator()
    widget.problem = "RDG1-numeric"
    widget._update_controls()
    widget.commit.now()
    widget.show()
    save_screenshot(app, widget, "generator.png")


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
    save_screenshot(app, widget, "separability.png",
                    lambda: widget.results is not None, timeout=600)


def main():
    app = application()
    generator(app)
    separability(app)
    print(IMAGES / "generator.png", IMAGES / "separability.png")


if __name__ == "__main__":
    main()
