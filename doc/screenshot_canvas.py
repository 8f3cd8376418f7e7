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
from build_workflows import RANK, RELIEF, STEPS  # noqa: E402
from screenshot_helpers import IMAGES  # noqa: E402

from orangecontrib.relief.significance import TESTS  # noqa: E402

#: the longest a widget's work may take before its picture, in seconds
LIMIT = 120
#: how often a waiting scenario looks again, in milliseconds
POLL = 200
#: seconds a window gets to lay itself out before its picture
SETTLE = 1.0
#: the canvas's settings of a fresh installation, less its network
#: look-ups (which fail without a network and would only slow it)
CANVAS_SETTINGS = """[startup]
check-updates=false
[notifications]
check-notifications=false
[error-reporting]
send-statistics=false
"""


def done(widget):
    """Whether `widget` has no work left (a ConcurrentWidgetMixin's task)."""
    return getattr(widget, "task", None) is None


def relief_done(widget):
    return widget.scores is not None and done(widget)


def rank_done(rank):
    return rank.ranksModel.rowCount() > 0 and done(rank)


def result_done(widget):
    return widget.result is not None and done(widget)


def map_done(widget):
    return widget.found is not None and done(widget)


class Shot:
    """What a scenario does in the canvas: open a node's widget, add nodes,
    wait, picture a window (yield what it returns to wait)."""

    def __init__(self, window, scheme, stem, out):
        self.window, self.scheme = window, scheme
        self.stem, self.out = stem, out

    def widget(self, title):
        node = next(n for n in self.scheme.nodes if n.title == title)
        return self.scheme.widget_manager.widget_for_node(node)

    def open(self, title, ready=done):
        """Show the widget of node `title`; a condition: it is `ready`."""
        widget = self.widget(title)
        widget.show()
        widget.raise_()
        widget.activateWindow()
        return lambda: ready(widget)

    def add(self, qualified_name, title, position, settings, links):
        """A node of widget `qualified_name` with `settings`, its inputs
        linked from `links` ((source title, output, input) triples)."""
        from orangecanvas.scheme import SchemeLink, SchemeNode

        description = self.window.widget_registry.widget(qualified_name)
        node = SchemeNode(description, title=title, position=position,
                          properties=settings)
        self.scheme.add_node(node)
        for source, output, input_ in links:
            source = next(n for n in self.scheme.nodes if n.title == source)
            self.scheme.add_link(SchemeLink(source, output, node, input_))
        return self.widget(title)

    @staticmethod
    def settle(seconds=SETTLE):
        """A condition: `seconds` have passed (the window laid out)."""
        since = time.monotonic()
        return lambda: time.monotonic() - since > seconds

    def picture(self, title, name):
        """Save the window of node `title` as <stem>-<name>.png."""
        from AnyQt.QtWidgets import QApplication

        widget = self.widget(title)
        frame = widget.frameGeometry()
        popup = QApplication.activePopupWidget()
        if popup is not None:  # an open list, which may reach beyond
            frame = frame.united(popup.frameGeometry())
        filename = f"{self.stem}-{name}.png"
        QApplication.primaryScreen().grabWindow(
            0, frame.x(), frame.y(), frame.width(), frame.height()).save(
                str(self.out / filename))
        print(f"{filename}: {widget.width()} x {widget.height()}",
              flush=True)

    def window_of(self, title, name, ready=done, action=None):
        """Open node `title`'s window, wait until `ready`, do `action`,
        picture it and hide it (a generator of conditions)."""
        yield self.open(title, ready)
        if action is not None:
            action(self.widget(title))
        yield self.settle()
        self.picture(title, name)
        self.widget(title).hide()


def simple(*windows):
    """A scenario that pictures `windows`, (title, name, ready) each."""
    def scenario(shot):
        for title, name, ready in windows:
            yield from shot.window_of(title, name, ready)
    return scenario


def significance(shot):
    from AnyQt.QtWidgets import QTabWidget

    yield from shot.window_of("Relief (significance)", "relief",
                              relief_done)
    yield from shot.window_of("Relief (significance)", "relief-tests",
                              relief_done,
                              lambda w: w.controlArea.findChild(
                                  QTabWidget).setCurrentIndex(1))
    yield from shot.window_of("Rank (by significance)", "rank", rank_done)
    # NPDR adjusted for age and gender, and its columns in Rank
    relief = shot.add(RELIEF, "Relief (NPDR)", (250, 400),
                      {"method": "NPDR", "test_significance": True,
                       "test_index": TESTS.index("stir")},
                      [("File (heart disease)", "Data", "Data")])
    yield lambda: relief.data is not None
    domain = relief.data.domain
    relief.covariates = [domain["age"], domain["gender"]]
    relief.commit.now()
    shot.add(RANK, "Rank (NPDR)", (430, 400),
             {"selected_methods": {"Univariate Regression"}},
             [("File (heart disease)", "Data", "Data"),
              ("Relief (NPDR)", "Scorer", "Scorer"),
              ("Relief (NPDR)", "Significance Scorer", "Scorer")])
    yield from shot.window_of("Relief (NPDR)", "npdr", relief_done)
    yield from shot.window_of("Rank (NPDR)", "npdr-rank", rank_done)


def step_by_step(shot):
    title = "Relief, step by step"
    steps = shot.widget(title)
    yield shot.open(title, lambda w: w.stepper is not None)
    for _ in range(5):
        steps.whole_step()
    for _ in range(4):
        steps.next_stage()
    yield shot.settle()
    shot.picture(title, "steps")
    steps.variant_buttons.buttons[1].click()  # ReliefF, then another k
    steps.controls.k_nearest.setValue(7)
    yield shot.settle()
    shot.picture(title, "steps-k")
    steps.reset()
    steps.controls.k_nearest.setValue(5)
    while not steps.pass_complete():
        steps.whole_step()
    yield shot.settle()
    shot.picture(title, "steps-end")
    steps.hide()
    yield from shot.window_of("Rank", "rank", rank_done)


def many_classes(shot):
    """Zoo: the misses shown are those that move the weights most; at
    presentation size the table keeps its rows."""
    yield from shot.window_of("RFSM Selection", "rfsm", result_done)
    title = "Relief, step by step (zoo)"
    steps = shot.add(STEPS, title, (430, 300),
                     {"variant_index": 1, "k_nearest": 5},
                     [("File (zoo)", "Data", "Data")])
    yield shot.open(title, lambda w: w.stepper is not None)
    for _ in range(3):
        steps.whole_step()
    for _ in range(2):
        steps.next_stage()
    yield shot.settle()
    shot.picture(title, "steps")
    steps.next_stage()
    steps.next_stage()
    steps.controls.presentation.click()
    yield shot.settle(2 * SETTLE)
    shot.picture(title, "steps-presentation")
    steps.table_button.click()  # the table folded away
    yield shot.settle()
    shot.picture(title, "steps-folded")
    steps.hide()


def separability(shot):
    yield shot.open("Separability")
    shot.widget("Separability").run_button.click()
    yield from shot.window_of("Separability", "separability", done)


def popups(shot):
    """The generator's and the Relief widget's grouped lists, open."""
    yield from shot.window_of(
        "Relief Data Generator", "generator", done,
        lambda w: w.problem_combo.showPopup())
    yield from shot.window_of("Relief", "relief", relief_done)
    yield from shot.window_of(
        "Relief", "relief-methods", relief_done,
        lambda w: w.method_combo.showPopup())


def xor_lesson(shot):
    """Rank and Interactions as the lesson opens; then ReliefF's k slider
    dragged to its end, and Rank again."""
    yield from shot.window_of("Rank", "rank", rank_done)
    yield from shot.window_of("Interactions", "interactions", map_done)
    slider = shot.widget("ReliefF").k_sliders["k_relieff"]
    yield from shot.window_of("ReliefF", "relief-k", relief_done,
                              lambda w: slider.setValue(slider.maximum()))
    yield from shot.window_of("Rank", "rank-k", rank_done)


#: the scenario of each tutorial: what it opens and pictures
SCENARIOS = {
    "relief-rank.ows": simple(("Relief", "relief", relief_done),
                              ("Rank", "rank", rank_done)),
    "relief-significance.ows": significance,
    "relief-stability.ows": simple(
        ("Relief (stability)", "relief", relief_done)),
    "relief-preprocess.ows": simple(
        ("Relief (best 5)", "relief", relief_done),
        ("Rank (best 5)", "rank", rank_done)),
    "generator-relief.ows": popups,
    "relief-step-by-step.ows": step_by_step,
    "selection-curve.ows": simple(
        ("Selection Curve", "curve", result_done)),
    "consensus-rank.ows": simple(
        ("Consensus Ranking", "consensus",
         lambda w: w.model.rowCount() > 0 and done(w)),
        ("Rank", "rank", rank_done)),
    "classdep-knn.ows": simple(
        ("Class-Dependent kNN", "classdep",
         lambda w: w.model is not None and done(w)),
        ("Rank (per class)", "rank", rank_done)),
    "separability.ows": separability,
    "rfsm-parity.ows": simple(("RFSM Selection", "rfsm", result_done)),
    "rfsm-zoo.ows": many_classes,
    "interactions-xor.ows": xor_lesson,
    "multitarget-collembola.ows": simple(
        ("Relief (every target)", "relief", relief_done)),
    "multilabel-yeast.ows": simple(
        ("Relief (every label)", "relief", relief_done)),
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

    def scenario(window):
        started = time.monotonic()
        window.open_example_scheme(path)
        yield lambda: time.monotonic() - started > 3
        QApplication.primaryScreen().grabWindow(0).save(
            str(out / f"{stem}.png"))
        document = [w for w in QApplication.topLevelWidgets()
                    if hasattr(w, "current_document")
                    and w.current_document().scheme().nodes][-1]
        view = document.current_document().view()
        visible = view.mapToScene(view.viewport().rect()).boundingRect()
        print(f"{stem}: window {document.width()} x {document.height()}, "
              f"its view shows the scene's {visible.left():.0f} .. "
              f"{visible.right():.0f} x {visible.top():.0f} .. "
              f"{visible.bottom():.0f}", flush=True)
        scheme = document.current_document().scheme()
        yield from SCENARIOS[tutorial](Shot(window, scheme, stem, out))

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
        # no look-ups of updates, news or statistics on the network
        settings = Path(home, "config", "biolab.si", "Orange.ini")
        settings.parent.mkdir(parents=True)
        settings.write_text(CANVAS_SETTINGS)
        result = subprocess.run(
            [sys.executable, __file__, "--inside", tutorial, str(out)],
            env=env, capture_output=True, text=True, timeout=10 * LIMIT)
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
