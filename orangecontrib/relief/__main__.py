"""``python -m orangecontrib.relief``: the ``orange-relief`` command line."""
import sys

from orangecontrib.relief.cli import console

sys.exit(console())
