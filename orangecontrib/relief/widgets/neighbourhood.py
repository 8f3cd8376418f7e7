"""The plot of Relief, step by step: the instances on two attributes, a
step's reference, its neighbours and how far they are."""
from html import escape

import numpy as np
import pyqtgraph as pg

from AnyQt.QtCore import QPointF, QRectF, Qt, pyqtSignal as Signal
from AnyQt.QtGui import QPainterPath, QPolygonF
from AnyQt.QtWidgets import QGraphicsPathItem

from Orange.widgets.visualize.owscatterplotgraph import AxisItem

from orangecontrib.relief.widgets.common import PlainPlot

#: a nominal attribute's points spread this far around its value
JITTER = 0.3
#: the shade of where the plotted attributes stay within the hits' distance
REACH_BRUSH = pg.mkBrush(0, 0, 0, 22)


def plot_coordinates(data, var, jitter):
    """The positions of `data`'s instances along `var`: numeric values, or
    the value codes of a nominal attribute spread by `jitter` (n,)."""
    values = data.get_column(var).astype(float)
    return values + jitter if var.is_discrete else values


#: the farthest a view reaches from 0: a plot cannot draw spans beyond the
#: largest float (values farther lie outside the view)
VIEW_LIMIT = np.finfo(float).max / 8


def fitted_range(values):
    """(low, high) of a view of `values` with a margin, within
    :data:`VIEW_LIMIT`; an interval of 1 around a single value, whose axis
    would otherwise read 3.5000000002."""
    low, high = np.clip([np.min(values), np.max(values)], -VIEW_LIMIT,
                        VIEW_LIMIT)
    if high - low <= 1e-9 * max(1.0, abs(low), abs(high)):
        return low - 0.5, high + 0.5
    margin = 0.05 * (high - low)
    return low - margin, high + margin


def reach_path(centre, radius, axes):
    """The region of the plot within `radius` of `centre` when the distance
    is summed over the two plotted attributes only (a QPainterPath).

    `centre` is the reference's (x, y), the value codes of a nominal
    attribute unjittered; `axes` says for each attribute ("numeric", its
    range) or ("nominal", its number of values).  A numeric attribute adds
    |difference| / range, a nominal one 0 for the reference's value and 1
    for another: the region is a diamond for two numeric attributes and
    rectangles around the values (as wide as their spread) otherwise.
    """
    def options(axis, value):
        kind, size = axis
        if kind == "nominal":
            return [(code, float(code != value)) for code in range(size)]
        return [(value, 0.0)]

    def half(axis, budget):
        kind, size = axis
        return JITTER + 0.1 if kind == "nominal" else budget * size

    path = QPainterPath()
    both_numeric = all(kind == "numeric" for kind, _ in axes)
    for x, cost_x in options(axes[0], centre[0]):
        for y, cost_y in options(axes[1], centre[1]):
            budget = radius - cost_x - cost_y
            if budget < 0:
                continue
            hx, hy = half(axes[0], budget), half(axes[1], budget)
            shape = QPainterPath()
            if both_numeric:
                shape.addPolygon(QPolygonF([
                    QPointF(x - hx, y), QPointF(x, y + hy),
                    QPointF(x + hx, y), QPointF(x, y - hy),
                    QPointF(x - hx, y)]))
            else:
                shape.addRect(QRectF(x - hx, y - hy, 2 * hx, 2 * hy))
            path = path.united(shape)
    return path


def legend_html(class_names, class_colours, runners_up, reaches,
                points=10.0):
    """What the plot's marks mean, as one strip of rich text at `points`
    pt: each class's colour (`class_colours`, QColors), the reference, the
    hits and misses, the runners-up and the shaded distances where they
    are shown."""
    entries = [f'<span style="color:{colour.name()}">\u25cf</span>&nbsp;'
               f'{escape(name)}'
               for name, colour in zip(class_names, class_colours)]
    if class_names:
        entries += ["\u2605&nbsp;reference",
                    "\u25cb\u2014&nbsp;hit (same class)",
                    "\u25a1- -&nbsp;miss (other class)"]
    if class_names and runners_up:
        entries.append('<span style="color:#808080">\u25c7</span>&nbsp;'
                       'next nearest, not chosen')
    if class_names and reaches:
        entries.append('<span style="color:#a0a0a0">\u25a0</span>&nbsp;'
                       'within their distance on these two attributes')
    return (f'<span style="font-size:{points:g}pt">'
            + " &nbsp;&nbsp; ".join(entries) + "</span>")


class NeighbourhoodPlot(PlainPlot):
    """The instances on two attributes coloured by class; a step's reference
    (a star) joined to its hits by solid lines and to its misses by dashed
    ones, the runners-up in grey diamonds, and the hits' and the misses'
    distances projected on the plotted pair as shaded areas.  Clicking an
    instance emits its index; hovering one shows ``describe(index)``.  Its
    legend is a strip outside the plot (:func:`legend_html`)."""
    instance_clicked = Signal(int)

    def __init__(self, parent=None, describe=str):
        # Orange's scatter plot's axes: they can show dates and times
        super().__init__(parent, grid_y=True,
                         axis_items={side: AxisItem(side)
                                     for side in ("bottom", "left")})
        self.describe = describe
        self.points = pg.ScatterPlotItem(
            size=10, pen=pg.mkPen("#ffffff"), hoverable=True,
            hoverPen=pg.mkPen("#000000", width=2),
            tip=lambda x, y, data: self.describe(data))
        self.points.sigClicked.connect(self._on_clicked)
        self.hit_lines = pg.PlotCurveItem(connect="pairs")
        self.miss_lines = pg.PlotCurveItem(connect="pairs")
        self.runner_lines = pg.PlotCurveItem(connect="pairs")
        self.neighbour_marks = pg.ScatterPlotItem(brush=None)
        self.runner_marks = pg.ScatterPlotItem(symbol="d", brush=None)
        self.reference_mark = pg.ScatterPlotItem(symbol="star")
        self.reaches = [QGraphicsPathItem(), QGraphicsPathItem()]
        for reach in self.reaches:
            reach.setZValue(-10)
            self.addItem(reach)
        for item in (self.hit_lines, self.miss_lines,
                     self.runner_lines, self.points, self.runner_marks,
                     self.neighbour_marks, self.reference_mark):
            self.addItem(item)
        self.extent = None  # the plotted points' (x, y) ranges
        self.scale = 1.0
        self.set_scale(1.0)

    def set_scale(self, scale):
        """Texts, marks and lines `scale` times their default size."""
        self.scale = scale
        self.set_text_scale(scale)
        dark = "#2a2a2a"
        self.points.setSize(10 * scale)
        self.hit_lines.setPen(pg.mkPen(dark, width=2.5 * scale))
        dashed = pg.mkPen(dark, width=2.5 * scale)
        dashed.setDashPattern([2, 1.5])  # in pen widths: visible in the legend
        self.miss_lines.setPen(dashed)
        self.runner_lines.setPen(pg.mkPen("#909090", width=1.5 * scale,
                                          style=Qt.DotLine))
        self.neighbour_marks.setSize(17 * scale)
        self.neighbour_marks.setPen(pg.mkPen(dark, width=2 * scale))
        self.runner_marks.setSize(17 * scale)
        self.runner_marks.setPen(pg.mkPen("#808080", width=1.5 * scale))
        self.reference_mark.setSize(26 * scale)
        self.reference_mark.setPen(pg.mkPen("#000000", width=1.5 * scale))
        for reach, style, brush in zip(self.reaches,
                                       (Qt.SolidLine, Qt.DashLine),
                                       (REACH_BRUSH, pg.mkBrush(None))):
            pen = pg.mkPen("#707070", width=1.5 * scale, style=style)
            pen.setCosmetic(True)
            reach.setPen(pen)
            reach.setBrush(brush)

    def set_instances(self, x, y, colours, names):
        """Show instances at (`x`, `y`) (NaN: not shown) with `colours`;
        `names` are the axis labels."""
        shown = np.flatnonzero(~(np.isnan(x) | np.isnan(y)))
        self.points.setData(
            x=x[shown], y=y[shown], data=shown,
            brush=[pg.mkBrush(colours[i]) for i in shown])
        self.clear_step()
        for axis, name in zip(("bottom", "left"), names):
            self.getAxis(axis).setLabel(name)
        self.extent = ((fitted_range(x[shown]), fitted_range(y[shown]))
                       if len(shown) else None)
        if self.extent is not None:  # every point in view
            (left, right), (low, high) = self.extent
            self.setXRange(left, right, padding=0)
            self.setYRange(low, high, padding=0)

    def set_ticks(self, axis, values, time=False):
        """Label `axis` with nominal `values` at their codes (None: the
        numeric axis's own ticks, as dates and times if `time`)."""
        item = self.getAxis(axis)
        item.use_time(time)
        item.enableAutoSIPrefix(False)  # use_time(False) turns it on
        item.setTicks(None if values is None
                      else [list(enumerate(values)), []])

    def show_step(self, x, y, reference, colour, neighbours=(), is_hit=(),
                  runners_up=(), reaches=(None, None)):
        """Mark `reference` (in `colour`), join it to its `neighbours`
        (hits where `is_hit`) and to its `runners_up`, and shade the
        `reaches` (QPainterPaths of the hits and of the misses, or None);
        instances at NaN are left out."""
        def joined(members):
            ends = [(x[reference], y[reference], x[j], y[j]) for j in members]
            ends = np.array([e for e in ends if not np.isnan(e).any()]
                            ).reshape(-1, 4)
            return (np.column_stack([ends[:, 0], ends[:, 2]]).ravel(),
                    np.column_stack([ends[:, 1], ends[:, 3]]).ravel())
        neighbours = np.asarray(neighbours, dtype=int)
        is_hit = np.asarray(is_hit, dtype=bool)
        runners_up = np.asarray(runners_up, dtype=int)
        for lines, members in ((self.hit_lines, neighbours[is_hit]),
                               (self.miss_lines, neighbours[~is_hit]),
                               (self.runner_lines, runners_up)):
            lines.setData(*joined(members))
        self.neighbour_marks.setData(x=x[neighbours], y=y[neighbours],
                                     symbol=["o" if h else "s"
                                             for h in is_hit])
        self.runner_marks.setData(x=x[runners_up], y=y[runners_up])
        self.reference_mark.setData(x=x[[reference]], y=y[[reference]],
                                    brush=pg.mkBrush(colour))
        for reach, path in zip(self.reaches, reaches):
            reach.setPath(path if path is not None else QPainterPath())

    def clear_step(self):
        for item in (self.hit_lines, self.miss_lines, self.runner_lines):
            item.setData([], [])
        for item in (self.neighbour_marks, self.runner_marks,
                     self.reference_mark):
            item.setData([], [])
        for reach in self.reaches:
            reach.setPath(QPainterPath())

    def _on_clicked(self, _, points, *__):
        if len(points):
            self.instance_clicked.emit(int(points[0].data()))
