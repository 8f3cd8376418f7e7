"""``orange-relief prepare``: compile the compiled engine now, with a
progress bar, for a lab image or a classroom's machines before the lecture.
Without it, the first call on data large enough for the compiled engine
starts the same preparation in the background, and the vectorised engine
answers meanwhile.

The preparation is :func:`orangecontrib.relief.core.warmup.prepare`; the
first paragraph is the command's description in its help."""
import sys
import time

from ..core import warmup
from ..core.engines import cache, preparation
from .common import ProgressBar


def add_prepare_command(subparsers):
    parser = subparsers.add_parser(
        "prepare", help="compile the fast engine now (once per installation)",
        description=__doc__.split("\n\n")[0].replace("``", "'"))
    parser.set_defaults(run=run)


def run(args):
    """Prepare the compiled engine, or say it is ready; exit code 0 when
    it is, 1 when its folder cannot be written."""
    folder = cache.kernel_folder()
    if preparation.is_ready():
        print(f"The compiled engine is ready ({folder}).")
        return 0
    if preparation.is_running():
        print("Another process is preparing the compiled engine; waiting "
              "for it ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    progress = ProgressBar("preparing", quiet_seconds=0)
    ready = warmup.prepare(progress_callback=progress)
    if not ready:
        print(f"orange-relief prepare: error: cannot write the compiled "
              f"engine's cache in {folder.parent}; set NUMBA_CACHE_DIR to a "
              f"folder that can be written.", file=sys.stderr)
        return 1
    print(f"The compiled engine is ready ({folder}), prepared in "
          f"{time.perf_counter() - start:.0f} s.")
    return 0
