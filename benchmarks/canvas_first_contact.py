"""What a person sees in the Orange canvas the first time: a workflow opened
with an empty numba cache, pictures of the screen at 5 s and at the first
result.

Two workflows: the shipped Separability tutorial (Run pressed as soon as
the widget is there), and File (a generated 5000 x 100 CSV) -> Relief with
MultiSURF and the STIR test.  Each runs in a fresh canvas process with an
empty ``NUMBA_CACHE_DIR``; the widget's window is opened as a person would
open it, and the whole screen is saved 5 s after the workflow opened, as
``<out>/<case>/5s.png``, a second after the first result (Relief's
weights, shown while their test runs) as ``<out>/<case>/result.png``, and
when the widget has finished, as ``<out>/<case>/complete.png``; the
seconds to the first and to the complete result are printed.
It needs a screen: run it under a virtual one,

    xvfb-run -a -s "-screen 0 1600x1000x24" \
        python benchmarks/canvas_first_contact.py OUT

(``--case relief`` or ``--case separability`` for one of them;
``--busy`` beside two processes spinning on a core each).  The background
preparation a case starts ends when the case's cache folder is deleted,
with the case.  ``first_contact.py`` runs both cases, idle and busy,
among its own.
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arguments import Parser
from first_contact import busy

#: seconds after the canvas started at which the first picture is taken
EARLY = 5.0
#: the longest a case may take
LIMIT = 600.0

CASES = ("separability", "relief")

RELIEF_WORKFLOW = """<?xml version='1.0' encoding='utf-8'?>
<scheme version="2.0" title="First contact" description="">
  <nodes>
    <node id="0" name="File" qualified_name="Orange.widgets.data.owfile.OWFile"
          project_name="Orange3" version="" title="File" position="(100, 150)" />
    <node id="1" name="Relief"
          qualified_name="orangecontrib.relief.widgets.owrelief.OWRelief"
          project_name="Orange3-Relief" version="" title="Relief"
          position="(300, 150)" />
  </nodes>
  <links>
    <link id="0" source_node_id="0" sink_node_id="1" source_channel="Data"
          sink_channel="Data" enabled="true" />
  </links>
  <annotations />
  <node_properties>
    <properties node_id="0" format="literal">{file}</properties>
    <properties node_id="1" format="literal">{relief}</properties>
  </node_properties>
</scheme>
"""


def relief_workflow(folder):
    """File -> Relief (MultiSURF, STIR) on a 5000 x 100 data set saved in
    `folder`."""
    import numpy as np
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

    from orangecontrib.relief.widgets.owrelief import OWRelief

    rng = np.random.default_rng(0)
    X = rng.random((5000, 100))
    y = (X[:, 0] + X[:, 1] > 1).astype(float)
    domain = Domain([ContinuousVariable(f"a{i}") for i in range(100)],
                    DiscreteVariable("class", values=("0", "1")))
    data = folder / "data-5000x100.tab"
    Table.from_numpy(domain, X, y).save(str(data))
    workflow = folder / "relief-first-contact.ows"
    file = {"recent_paths": [], "source": 1, "url": data.as_uri(),
            "recent_urls": [data.as_uri()], "xls_sheet": "",
            "sheet_names": {}, "savedWidgetGeometry": None, "__version__": 3}
    relief = {"method": "MultiSURF", "test_significance": True,
              "test_index": 0, "__version__": OWRelief.settings_version}
    workflow.write_text(RELIEF_WORKFLOW.format(file=repr(file),
                                               relief=repr(relief)))
    return workflow


#: the program of the canvas process: the canvas of Orange, which opens the
#: workflow; a timer opens the widget's window and pictures the screen
CANVAS = r"""
import sys, time
from AnyQt.QtCore import QTimer
from AnyQt.QtWidgets import QApplication
from Orange.canvas.__main__ import OMain

workflow, title, out, early, limit, press_run = sys.argv[1:7]
early, limit, launched = float(early), float(limit), time.monotonic()


class Canvas(OMain):
    def open_files(self, paths):
        super().open_files(paths)
        QTimer.singleShot(100, lambda: watch(self.window))


def picture(name):
    QApplication.primaryScreen().grabWindow(0).save(f"{out}/{name}.png")


def watch(window):
    started = time.monotonic()  # the workflow is open
    scheme = window.current_document().scheme()
    node = next(node for node in scheme.nodes if node.title == title)
    widget = scheme.widget_manager.widget_for_node(node)
    widget.show()
    widget.raise_()
    if press_run == "run":
        widget.run_button.click()
    pictured, first = [], []

    def tick():
        elapsed = time.monotonic() - started
        if not pictured and elapsed >= early:
            picture("5s")
            pictured.append(elapsed)
        shown = getattr(widget, "results",
                        getattr(widget, "scores", None)) is not None
        if shown and not first:  # weights shown while their test runs
            first.append(elapsed)
            QTimer.singleShot(1000, lambda: picture("result"))
        done = shown and widget.task is None
        if done or elapsed > limit:
            QTimer.singleShot(1500, lambda: finish(elapsed, done))
            return
        QTimer.singleShot(200, tick)

    def finish(elapsed, done):
        picture("complete")
        print(f"first result {first[0]:.1f} s and complete {elapsed:.1f} s "
              f"after the workflow opened, "
              f"{time.monotonic() - launched - 1.5:.1f} s after the canvas "
              f"started" if done else f"no result after {elapsed:.0f} s",
              flush=True)
        QApplication.instance().exit(0)

    tick()


sys.exit(Canvas().run([sys.argv[0], "--no-splash", "--no-welcome",
                       workflow]))
"""


def run_case(case, out, busy_count=0):
    """Run `case` in a fresh canvas with an empty cache, beside
    `busy_count` busy processes; its pictures go to `out`; return what the
    canvas printed."""
    from orangecontrib.relief import tutorials

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        if case == "relief":
            workflow, title, press = relief_workflow(folder), "Relief", "no"
        else:
            workflow = Path(tutorials.__file__).parent / "separability.ows"
            title, press = "Separability", "run"
        pictures = out / case
        pictures.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, NUMBA_CACHE_DIR=str(folder / "numba-cache"))
        for name in ("ORANGE_RELIEF_ENGINE", "ORANGE_RELIEF_BACKGROUND"):
            env.pop(name, None)
        # a script, not ``python -c``: the canvas application parses its
        # arguments with the program's name among them, and takes the "-c"
        # of ``python -c`` for its --colortheme option, which swallows the
        # workflow's path: the canvas would open empty and wait forever
        program = folder / "canvas.py"
        program.write_text(CANVAS)
        start = time.perf_counter()
        try:  # the preparation the case starts ends with its folder
            with busy(busy_count):
                done = subprocess.run(
                    [sys.executable, str(program), str(workflow), title,
                     str(pictures), str(EARLY), str(LIMIT), press],
                    env=env, capture_output=True, text=True,
                    timeout=LIMIT + 120)
        except subprocess.TimeoutExpired:
            return (f"{case}: the canvas neither opened the workflow nor "
                    f"gave a result in {LIMIT + 120:.0f} s")
        total = time.perf_counter() - start
        return (f"{case}: {done.stdout.strip() or done.stderr[-500:]} "
                f"(canvas process {total:.1f} s); pictures in {pictures}")


def main(argv=None):
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="folder for the pictures")
    parser.add_argument("--case", choices=CASES, action="append",
                        help="only this case (default: both)")
    parser.add_argument("--busy", action="store_true",
                        help="beside two processes spinning on a core each")
    args = parser.parse_args(argv)
    out = Path(args.out)
    for case in args.case or CASES:
        print(run_case(case, out, 2 if args.busy else 0), flush=True)


if __name__ == "__main__":
    main()
