"""Pieces shared by the widgets of the Relief category (no widget here)."""
import pyqtgraph as pg

#: the text of a widget's error for data without a (single) class variable
NO_CLASS = "Data has no (single) class variable."


class Interrupted(Exception):
    """Raised in the worker when the widget cancelled the task."""


class PlainPlot(pg.PlotWidget):
    """A plot on white with dark grey axis text, a grid, no buttons, no
    context menu and no SI prefixes on the axes.

    `interactive=False` also turns off panning and zooming with the mouse;
    `grid_y` adds horizontal grid lines to the vertical ones.
    """

    def __init__(self, parent=None, *, interactive=False, grid_y=False):
        super().__init__(parent, background="w")
        item = self.getPlotItem()
        if not interactive:
            item.setMouseEnabled(False, False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(x=True, y=grid_y, alpha=0.3)
        for name in ("left", "bottom"):
            item.getAxis(name).setTextPen(pg.mkPen("#404040"))
            item.getAxis(name).enableAutoSIPrefix(False)
