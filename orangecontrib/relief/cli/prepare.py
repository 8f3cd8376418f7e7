"""``orange-relief prepare``: prepare the fast (compiled) engine now, with a
progress bar, for a lab image or a classroom's machines before the
lecture.  Without it, the first call on data large enough for the
compiled engine starts the same preparation in the background, and the
vectorised engine answers meanwhile.  It is needed once for each cache
folder (NUMBA_CACHE_DIR, else the user's cache) and version of the
add-on, numba and Python.

The preparation is :func:`orangecontrib.relief.core.warmup.prepare`,
which takes the work over from a background preparation that runs; the
first paragraph is the command's description in its help."""
import sys
import time

from ..core import warmup
from ..core.engines import cache, preparation
from ..core.progress import duration
from .common import ProgressBar


def add_prepare_command(subparsers):
    parser = subparsers.add_parser(
        "prepare", help="prepare the fast (compiled) engine now, once for "
                        "each cache folder and version",
        description=__doc__.split("\n\n")[0].replace("``", "'"))
    parser.set_defaults(run=run)


class PreparationBar(ProgressBar):
    """The progress of the preparation: the part being compiled and the
    time left by the parts' budgets and the processor time the work gets
    (:class:`..core.engines.keeper.Run`), not by the time elapsed.  A log
    gets a line as each part starts, and at the end."""

    def __init__(self):
        super().__init__("preparing", width=20, quiet_seconds=0)
        self.state = {}
        self.part = None

    def status(self, state):
        """Show the preparation's `state`."""
        if state.get("part"):
            self.state = state
            self(state["fraction"])
        elif state.get("outcome") == "ready":
            self.state = state
            self(1.0)

    def log_line_due(self, fraction):
        due = fraction >= 1 or self.state.get("part") != self.part
        self.part = self.state.get("part")
        return due

    def line(self, fraction, elapsed):
        state = self.state
        filled = int(self.width * fraction)
        text = (f"{self.what} [{'#' * filled}{'.' * (self.width - filled)}]"
                f" {100 * fraction:3.0f}%  ")
        if state.get("part"):
            text += (f"{state['part']} ({places(state)}/"
                     f"{state['count']}), {duration(elapsed)} elapsed, "
                     f"{preparation.time_left(state)}")
        else:
            text += f"done in {duration(elapsed)}"
        return text.ljust(78) if self.tty else text


def places(state):
    """The places of the running parts among all, from 1: "3", or "3-4"
    where two run at once."""
    first = state["index"] + 1
    last = first + len(state.get("running") or [None]) - 1
    return f"{first}" if last == first else f"{first}-{last}"


def note(text):
    """A line on what the preparation does, before its bar."""
    print(text, file=sys.stderr, flush=True)


def run(args):
    """Prepare the compiled engine, or say it is ready; exit code 0 when
    it is, 1 when its cache cannot be written or a part failed."""
    folder = cache.kernel_folder()
    if preparation.is_ready():
        print(f"The compiled engine is ready ({folder}).")
        return 0
    note(f"Preparing the compiled engine in {folder}: "
         f"{len(preparation.pieces())} parts, about "
         f"{duration(preparation.budget())} of processor time.")
    start = time.perf_counter()
    bar = PreparationBar()
    try:
        ready = warmup.prepare(on_status=bar.status, describe=note)
    except warmup.CacheError as error:
        print(f"orange-relief prepare: error: {error}; set NUMBA_CACHE_DIR "
              f"to a folder that can be written.", file=sys.stderr)
        return 1
    if not ready:
        print(f"orange-relief prepare: error: the preparation did not end "
              f"({preparation.last_outcome()}).", file=sys.stderr)
        return 1
    print(f"The compiled engine is ready ({folder}), prepared in "
          f"{duration(time.perf_counter() - start)}.")
    return 0
