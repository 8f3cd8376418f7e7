"""Make the pictures of example workflows (doc/widgets/images/*-workflow.png)
from orangecontrib/relief/tutorials/*.ows, as the canvas draws them.

Usage: ``QT_QPA_PLATFORM=offscreen python doc/screenshot_workflow.py``
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_workflows import TUTORIALS, registry  # noqa: E402
from screenshot_helpers import IMAGES, application  # noqa: E402

#: tutorial -> picture
PICTURES = {"relief-step-by-step.ows": "step-by-step-workflow.png",
            "relief-significance.ows": "relief-significance-workflow.png",
            "relief-preprocess.ows": "relief-preprocess-workflow.png",
            "selection-curve.ows": "selection-curve-workflow.png",
            "relief-stability.ows": "relief-stability-workflow.png",
            "consensus-rank.ows": "consensus-workflow.png"}
MARGIN = 20


def render(reg, tutorial, picture):
    """Draw the workflow `tutorial` as the canvas shows it, save it as
    IMAGES / `picture` and return that path."""
    from AnyQt.QtCore import QRectF, Qt
    from AnyQt.QtGui import QImage, QPainter
    from orangecanvas.canvas.scene import CanvasScene
    from orangecanvas.scheme import Scheme
    from orangecanvas.scheme.readwrite import scheme_load

    scheme = Scheme()
    with open(TUTORIALS / tutorial, "rb") as stream:
        scheme_load(scheme, stream, registry=reg)
    scene = CanvasScene()
    scene.set_registry(reg)
    scene.set_scheme(scheme)
    scene.clearSelection()
    bounds = scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN,
                                                MARGIN)
    image = QImage(bounds.size().toSize(), QImage.Format_ARGB32)
    image.fill(Qt.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing)
    scene.render(painter, QRectF(image.rect()), bounds)
    painter.end()
    target = IMAGES / picture
    image.save(str(target))
    scene.clear()
    return target


def main():
    app = application()  # noqa: F841 (keeps Qt alive)
    reg = registry()
    for tutorial, picture in PICTURES.items():
        print(render(reg, tutorial, picture))


if __name__ == "__main__":
    main()
