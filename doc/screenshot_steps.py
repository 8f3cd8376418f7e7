"""Make doc/widgets/images/step-by-step.png: Relief, step by step in the
middle of the lesson on Parity3+3 (ReliefF, k = 3, twenty steps in order).

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_steps.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import (application, save_screenshot,  # noqa: E402
                                show_with_data)

from orangecontrib.relief.generators import parity  # noqa: E402
from orangecontrib.relief.widgets.owstepbystep import (  # noqa: E402
    OWReliefSteps)

STEPS = 20


def main():
    """Show the widget on Parity3+3 after STEPS steps and save it."""
    app = application()
    widget = OWReliefSteps()
    widget.variant_index, widget.k_nearest = 1, 3
    show_with_data(widget, parity(64, seed=0), size=(1240, 860))
    for _ in range(STEPS):
        widget.step()
    print(save_screenshot(app, widget, "step-by-step.png"))


if __name__ == "__main__":
    main()
