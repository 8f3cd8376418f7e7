"""Make doc/widgets/images/rfsm.png: the RFSM Selection widget on zoo.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_rfsm.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_helpers import screenshot_on_data  # noqa: E402

from orangecontrib.relief.widgets.owrfsm import OWRFSM  # noqa: E402


def main():
    """Show the widget with the shipped zoo data and save it."""
    print(screenshot_on_data(OWRFSM, "zoo", "rfsm.png", size=(860, 560),
                             ready=lambda widget: widget.result is not None,
                             timeout=300))


if __name__ == "__main__":
    main()
