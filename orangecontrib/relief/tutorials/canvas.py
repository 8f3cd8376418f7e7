"""The example workflows as Orange's canvas shows them, without the
canvas.

:func:`open_workflow` opens one as the canvas opens it: Orange's own
workflow (``WidgetsScheme``) loads the ``.ows`` with the tutorials'
folder as its base directory, where the File widgets find the add-on's
data sets, creates every widget with its stored settings and passes the
signals along the links.  :func:`beyond_first_view` lists what of a
workflow the canvas's first window would not show.

The workflows' builder (doc/build_workflows.py) packs every widget's
complete settings and checks the layout this way, and the tests open
every tutorial this way and check what its notes promise.
"""
import io
import time
from pathlib import Path

__all__ = ["TUTORIALS", "FIRST_VIEW", "open_workflow", "close_workflow",
           "process_until", "settle", "widget_of", "beyond_first_view"]

#: the folder of the example workflows, the base directory of their paths
TUTORIALS = Path(__file__).resolve().parent
#: the part of a workflow's scene that the canvas's first window (852 x 534
#: on a 1280 x 800 screen) shows, from the scene's origin: its view shows
#: the scene from 0 to 529 across and 478 down
FIRST_VIEW = (525, 475)


def open_workflow(source, registry):
    """A ``WidgetsScheme`` of the workflow `source` (a file name in
    :data:`TUTORIALS`, or the bytes of a workflow) with the widgets of
    `registry`, every widget created, its signals passed on as the canvas
    passes them.

    Raises
    ------
    ValueError
        For a node or a link the registry does not know.
    """
    from orangewidget.workflow.widgetsscheme import WidgetsScheme

    content = (source if isinstance(source, bytes)
               else (TUTORIALS / source).read_bytes())
    scheme = WidgetsScheme()
    # as the canvas sets it on opening a file: the File widgets resolve
    # the paths the tutorials store relative to it
    scheme.set_runtime_env("basedir", str(TUTORIALS))
    errors = []
    scheme.load_from(io.BytesIO(content), registry=registry,
                     error_handler=errors.append)
    if errors:
        raise ValueError(f"The workflow does not load: {errors}")
    manager = scheme.widget_manager
    manager.set_creation_policy(manager.Immediate)
    return scheme


def close_workflow(scheme):
    """Delete `scheme`'s widgets without their settings becoming the
    widgets' defaults: the canvas keeps a deleted widget's settings as the
    defaults of the next one of its kind, so that a workflow opened after
    another would start with the other's settings."""
    for node in scheme.nodes:
        widget = scheme.widget_manager.widget_for_node(node)
        widget.saveSettings = lambda: None
    scheme.clear()


def widget_of(scheme, title):
    """The widget of `scheme`'s node titled `title`."""
    node = next(node for node in scheme.nodes if node.title == title)
    return scheme.widget_manager.widget_for_node(node)


def process_until(done, timeout=120.0):
    """Let Qt pass signals and finish tasks until `done()` is true (at
    most `timeout` seconds); return whether it is."""
    from AnyQt.QtCore import QCoreApplication, QEventLoop

    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        QCoreApplication.processEvents(QEventLoop.AllEvents, 50)
        time.sleep(0.01)
    return True


#: how long a workflow must stay idle to count as settled, in seconds: a
#: widget may start its work a moment after its input arrived (the signal
#: manager passes signals on a timer of 0.1 s; File loads and a learner
#: widget applies on a timer of no delay), three times the longest
STEADY = 0.3


def settle(scheme, timeout=600.0):
    """Let `scheme`'s signals pass and its widgets finish their work (a
    ``ConcurrentWidgetMixin``'s task, or the progress bar of a widget with
    work of its own, such as Test & Score), until all have been idle for
    :data:`STEADY` seconds (at most `timeout`); return whether they are."""
    from AnyQt.QtCore import QCoreApplication

    widgets = [scheme.widget_manager.widget_for_node(node)
               for node in scheme.nodes]

    def idle():
        return (not scheme.signal_manager.has_pending()
                and all(getattr(w, "task", None) is None
                        and not w.processingState for w in widgets))

    def stays_idle():
        """Whether the widgets stay idle for :data:`STEADY` seconds, the
        events that fell due meanwhile passed (a busy machine may have
        kept this process waiting past a timer)."""
        since = time.monotonic()
        if not process_until(lambda: not idle()
                             or time.monotonic() - since > STEADY,
                             deadline - time.monotonic()):
            return False
        QCoreApplication.processEvents()
        return idle()

    deadline = time.monotonic() + timeout
    while process_until(idle, deadline - time.monotonic()):
        if stays_idle():
            return True
    return False


def beyond_first_view(path, registry):
    """The titles of the nodes of the workflow at `path`, and the first
    words of its notes, that lie beyond :data:`FIRST_VIEW` as the canvas
    draws them (a node: its body and its title)."""
    from orangecanvas.canvas.scene import CanvasScene
    from orangecanvas.scheme import Scheme
    from orangecanvas.scheme.readwrite import scheme_load

    scheme = Scheme()
    with open(path, "rb") as stream:
        scheme_load(scheme, stream, registry=registry)
    scene = CanvasScene()
    scene.set_registry(registry)
    scene.set_scheme(scheme)
    outside = []
    for node in scheme.nodes:
        item = scene.item_for_node(node)
        drawn = item.shapeItem.sceneBoundingRect().united(
            item.captionTextItem.sceneBoundingRect())
        # the view starts where the scene's items do, their hidden parts
        # (a node's icons for messages) included: one left of 0 or above
        # it would push the others out on the other side
        whole = item.sceneBoundingRect()
        if not _in_first_view(drawn) or whole.left() < 0 or whole.top() < 0:
            outside.append(node.title)
    for note in scheme.annotations:
        if not _in_first_view(
                scene.item_for_annotation(note).sceneBoundingRect()):
            outside.append(note.text[:30] + " ...")
    scene.clear()
    return outside


def _in_first_view(rect):
    width, height = FIRST_VIEW
    return (rect.left() >= 0 and rect.top() >= 0 and rect.right() <= width
            and rect.bottom() <= height)
