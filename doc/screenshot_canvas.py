"""Pictures of the example workflows in a real Orange canvas, as a person
meets them on a laptop (1280 x 800) or a projector (1024 x 768): each
tutorial opened from Help > Example Workflows in a fresh canvas (no
settings of earlier work), its canvas window, then the windows of its
add-on widgets (and Rank) at the size the canvas opens them, once their
work is done.

Usage (a screen is needed; a virtual one will do)::

    xvfb-run -a -s "-screen 0 1280x800x24" python doc/screenshot_canvas.py
    xvfb-run -a -s "-screen 0 1024x768x24" python doc/screenshot_canvas.py

The pictures go to doc/widgets/images/canvas-<width>x<height>/: for
tutorial ``name.ows``, ``name.png`` (the whole screen, the canvas window
on it) and ``name-<widget>.png`` (a widget's window).  ``--only NAME``
takes one tutorial; each runs in a canvas process of its own.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

DOC = Path(__file__).resolve().parent
sys.path.insert(0, str(DOC))
from screenshot_helpers import IMAGES  # noqa: E402

#: the longest a widget's work may take before its picture, in seconds
LIMIT = 120
#: how often a waiting scenario looks again, in milliseconds
POLL = 200
#: seconds a window gets to lay itself out before its picture
SETTLE = 1.0


def done(widget):
    """Whether `widget` has no work left (a ConcurrentWidgetMixin's task,
    or a Selection Curve or Separability run)."""
    return getattr(widget, "task", None) is None


def relief_done(widget):
    return widget.scores is not None and done(widget)


def rank_done(rank):
    return rank.ranksModel.rowCount() > 0 and done(rank)


def steps(widget, count):
    """Take `count` whole steps in the step-by-step widget."""
    for _ in range(count):
        widget.whole_step()
    return True


#: the pictures of each tutorial: (node title, picture name, ready(widget),
#: what to do once ready, or None); Rank's and the add-on's widgets
SCENARIOS = {
    "relief-rank.ows": (
        ("Relief", "relief", relief_done, None),
        ("Rank", "rank", rank_done, None)),
    "relief-significance.ows": (
        ("Relief (significance)", "relief", relief_done, None),
        ("Rank (by significance)", "rank", rank_done, None)),
    "relief-stability.ows": (
        ("Relief (stability)", "relief", relief_done, None),),
    "relief-preprocess.ows": (
        ("Relief (best 5)", "relief", relief_done, None),
        ("Rank (best 5)", "rank", rank_done, None)),
    "generator-relief.ows": (
        ("Relief Data Generator", "generator", done, None),
        ("Relief", "relief", relief_done, None)),
    "relief-step-by-step.ows": (
        ("Relief, step by step", "steps", lambda w: w.stepper is not None,
         lambda w: steps(w, 5)),
        ("Rank", "rank", rank_done, None)),
    "selection-curve.ows": (
        ("Selection Curve", "curve",
         lambda w: w.result is not None and done(w), None),),
    "consensus-rank.ows": (
        ("Consensus Ranking", "consensus",
         lambda w: w.model.rowCount() > 0 and done(w), None),
        ("Rank", "rank", rank_done, None)),
    "classdep-knn.ows": (
        ("Class-Dependent kNN", "classdep",
         lambda w: w.model is not None and done(w), None),
        ("Rank (per class)", "rank", rank_done, None)),
    "separability.ows": (
        ("Separability", "separability", None,
         lambda w: w.run_button.click()),),
    "rfsm-parity.ows": (
        ("RFSM Selection", "rfsm",
         lambda w: w.result is not None and done(w), None),),
    "rfsm-zoo.ows": (
        ("RFSM Selection", "rfsm",
         lambda w: w.result is not None and done(w), None),),
}


def inside_canvas(tutorial, out):
    """Run a canvas, open `tutorial` as Help > Example Workflows does,
    picture the screen and the scenario's widgets into `out`, and quit."""
    from AnyQt.QtCore import QTimer
    from AnyQt.QtWidgets import QApplication
    from Orange.canvas.__main__ import OMain

    from orangecontrib.relief import tutorials

    stem = Path(tutorial).stem
    path = str(Path(tutorials.__file__).parent / tutorial)

    def screen(name):
        QApplication.primaryScreen().grabWindow(0).save(str(out / name))

    def window_picture(widget, name):
        frame = widget.frameGeometry()
        QApplication.primaryScreen().grabWindow(
            0, frame.x(), frame.y(), frame.width(), frame.height()).save(
                str(out / name))
        print(f"{name}: {widget.width()} x {widget.height()}", flush=True)

    def scenario(window):
        started = time.monotonic()
        window.open_example_scheme(path)
        window = QApplication.instance().activeWindow() or window
        yield lambda: time.monotonic() - started > 3
        screen(f"{stem}.png")
        document = [w for w in QApplication.topLevelWidgets()
                    if hasattr(w, "current_document")
                    and w.current_document().scheme().nodes]
        shown = document[-1].current_document().view()
        visible = shown.mapToScene(shown.viewport().rect()).boundingRect()
        items = shown.scene().itemsBoundingRect()
        print(f"{stem}: window {document[-1].width()} x "
              f"{document[-1].height()}, the view shows the scene's "
              f"{visible.left():.0f} .. {visible.right():.0f} x "
              f"{visible.top():.0f} .. {visible.bottom():.0f}; its items "
              f"{items.left():.0f} .. {items.right():.0f} x "
              f"{items.top():.0f} .. {items.bottom():.0f}", flush=True)
        scheme = document[-1].current_document().scheme()
        for title, name, ready, action in SCENARIOS.get(tutorial, ()):
            node = next(n for n in scheme.nodes if n.title == title)
            widget = scheme.widget_manager.widget_for_node(node)
            widget.show()
            widget.raise_()
            widget.activateWindow()
            if action is not None and ready is None:
                action(widget)
                ready = done
            yield (lambda w=widget, r=ready: r(w)) if ready else None
            if action is not None and ready is not done:
                action(widget)
            shown = time.monotonic()
            yield lambda s=shown: time.monotonic() - s > SETTLE
            window_picture(widget, f"{stem}-{name}.png")
            widget.hide()

    class Canvas(OMain):
        def open_files(self, paths):
            steps_ = scenario(self.window)

            def advance():
                try:
                    condition = next(steps_)
                    while condition is None:
                        condition = next(steps_)
                except StopIteration:
                    QApplication.instance().exit(0)
                    return
                except Exception:  # a broken scenario: say so and stop
                    traceback.print_exc()
                    QApplication.instance().exit(1)
                    return
                wait(condition, time.monotonic())

            def wait(condition, since):
                try:
                    met = condition()
                except Exception:
                    traceback.print_exc()
                    met = True
                if not met and time.monotonic() - since > LIMIT:
                    print(f"gave up waiting after {LIMIT} s", flush=True)
                    met = True
                if met:
                    advance()
                else:
                    QTimer.singleShot(POLL, lambda: wait(condition, since))

            QTimer.singleShot(500, advance)

    # a path on the command line makes the canvas call open_files; the
    # scenario opens the tutorial itself, as an example workflow
    return Canvas().run([sys.argv[0], "--no-splash", "--no-welcome",
                         path])


def run(tutorial, out):
    """`tutorial`'s pictures, from a canvas process of its own with fresh
    settings; return what it printed."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=f"{home}/data",
                   XDG_CONFIG_HOME=f"{home}/config",
                   XDG_CACHE_HOME=f"{home}/cache")
        result = subprocess.run(
            [sys.executable, __file__, "--inside", tutorial, str(out)],
            env=env, capture_output=True, text=True, timeout=LIMIT + 60)
    errors = [line for line in result.stderr.splitlines()
              if "Error" in line or "Traceback" in line]
    return result.stdout + "".join(f"  {line}\n" for line in errors)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append",
                        help="this tutorial only (e.g. relief-rank.ows)")
    parser.add_argument("--inside", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        tutorial, out = args.inside
        sys.exit(inside_canvas(tutorial, Path(out)))
    from AnyQt.QtWidgets import QApplication
    app = QApplication([])
    size = app.primaryScreen().size()
    out = IMAGES / f"canvas-{size.width()}x{size.height()}"
    out.mkdir(exist_ok=True)
    del app
    from orangecontrib.relief import tutorials
    names = args.only or sorted(
        p.name for p in Path(tutorials.__file__).parent.glob("*.ows"))
    for name in names:
        print(name, flush=True)
        print(run(name, out), flush=True)


if __name__ == "__main__":
    main()
