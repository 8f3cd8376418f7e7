"""Make doc/widgets/images/relief.png, the Relief widget on heart_disease
with MultiSURF and STIR's significance, relief-stability.png, ReliefF
with the stability over 100 bootstrap samples of the best five, and
relief-npdr.png, NPDR's regressions adjusted for age and gender.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import (application, save_screenshot,  # noqa: E402
                                show_with_data)

from orangecontrib.relief.significance import TESTS  # noqa: E402
from orangecontrib.relief.widgets.owrelief import OWRelief  # noqa: E402


def main():
    """Show the widget with the shipped heart_disease data and save it."""
    from Orange.data import Table

    from orangecontrib.relief.datasets import path

    app = application()
    for filename, settings in (
            ("relief.png", {"method": "MultiSURF",
                            "test_significance": True}),
            ("relief-stability.png", {"method": "ReliefF", "stability": True,
                                      "stability_k": 5}),
            ("relief-npdr.png", {"method": "NPDR", "test_significance": True,
                                 "test_index": TESTS.index("regression"),
                                 "covariates": ("age", "gender")})):
        widget = OWRelief()
        covariates = settings.pop("covariates", ())
        for name, value in settings.items():
            setattr(widget, name, value)
        widget._update_controls()
        data = Table(path("heart_disease"))
        show_with_data(widget, data, size=(1020, 930))
        if covariates:  # the data's variables: chosen once they are shown
            widget.covariates = [data.domain[name] for name in covariates]
            widget.commit.now()
        print(save_screenshot(app, widget, filename,
                              lambda: widget.scores is not None))


if __name__ == "__main__":
    main()
