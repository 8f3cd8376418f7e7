"""Make doc/widgets/images/step-by-step*.png: Relief, step by step on
iris, zoo and Parity3+3, at its default size (1024 x 640, the update of a
step) and maximised on a projector (1920 x 1080, presentation size, a
step's hits and misses with the runners-up).  Parity3+3 at the default
size is step-by-step.png.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_steps.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import (application, save_screenshot,  # noqa: E402
                                show_with_data)

from orangecontrib.relief.generators import parity  # noqa: E402
from orangecontrib.relief.widgets.owstepbystep import (  # noqa: E402
    DEFAULT_SIZE, OWReliefSteps)

MAXIMISED = (1920, 1080)
#: whole steps before the step shown
WHOLE_STEPS = 5


def data_sets():
    """(name, data, plotted attributes or None) of the pictures."""
    from Orange.data import Table

    return (("iris", Table("iris"), ("petal length", "petal width")),
            ("zoo", Table("zoo"), ("milk", "feathers")),
            ("parity", parity(64, seed=0), None))


def shoot(app, name, data, axes, maximised):
    """Save the widget on `data` after WHOLE_STEPS steps, at the update
    of the next (at the default size) or at its hits and misses
    (maximised, in presentation size, with the runners-up)."""
    widget = OWReliefSteps()
    widget.presentation = widget.show_runners_up = maximised
    widget._apply_scale()
    show_with_data(widget, data,
                   MAXIMISED if maximised
                   else (DEFAULT_SIZE.width(), DEFAULT_SIZE.height()))
    if axes is not None:
        widget.attr_x, widget.attr_y = (data.domain[a] for a in axes)
        widget._plot()
    for _ in range(WHOLE_STEPS):
        widget.whole_step()
    for _ in range(2 if maximised else 4):
        widget.next_stage()
    size = "maximised" if maximised else "default"
    filename = ("step-by-step.png" if (name, size) == ("parity", "default")
                else f"step-by-step-{name}-{size}.png")
    path = save_screenshot(app, widget, filename)
    widget.close()
    return path


def main():
    app = application()
    for name, data, axes in data_sets():
        for maximised in (False, True):
            print(shoot(app, name, data, axes, maximised))


if __name__ == "__main__":
    main()
