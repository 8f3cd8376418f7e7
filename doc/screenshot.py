"""Make doc/widgets/images/relief.png: the Relief widget on heart_disease.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import screenshot_on_data  # noqa: E402

from orangecontrib.relief.widgets.owrelief import OWRelief  # noqa: E402


def main():
    """Show the widget with the shipped heart_disease data and save it."""
    print(screenshot_on_data(OWRelief, "heart_disease", "relief.png",
                             size=(820, 520),
                             ready=lambda widget: widget.weights is not None))


if __name__ == "__main__":
    main()
