"""The plots of the Interactions widget: the heat map of a Relief
interaction map, and the two attributes of a pair against each other (a
scatter plot, or a mosaic of two discrete attributes)."""
import html
from collections import namedtuple

import numpy as np

import pyqtgraph as pg

from AnyQt.QtCore import QPointF, QRectF, Qt, Signal
from AnyQt.QtGui import QColor, QCursor
from AnyQt.QtWidgets import QToolTip

from Orange.widgets.visualize.utils.plotutils import AxisItem

from orangecontrib.relief.widgets.common import PlainPlot
from orangecontrib.relief.widgets.weights import elided, text_width

#: the colours of the map: blue where near instances of different classes
#: differ in the two attributes together less often than those of the same
#: class (an XOR), white where as often as apart, red where more often
MAP_COLOURS = pg.ColorMap([0.0, 0.5, 1.0], [(33, 102, 172), (247, 247, 247),
                                            (178, 24, 43)])
#: the colour of the diagonal (an attribute with itself: no pair)
DIAGONAL = (225, 225, 225, 255)
#: the pixels an attribute's name may take beside the map
NAME_WIDTH = 120
#: the spread of the jitter of a discrete attribute's values (in values)
JITTER = 0.35
#: the marks of the pair plot
POINT_SIZE = 7
#: the space between the columns and between the rows of a mosaic (a
#: share of the plot)
MOSAIC_GAP = 0.02


def map_image(matrix):
    """The RGBA image of the square `matrix` (NaN on the diagonal drawn
    grey), coloured on a scale symmetric about 0; and the scale's end."""
    shown = np.array(matrix, dtype=float)
    np.fill_diagonal(shown, np.nan)
    finite = np.isfinite(shown)
    top = float(np.max(np.abs(shown[finite]))) if finite.any() else 0.0
    scale = top if top > 0 else 1.0
    rgba = MAP_COLOURS.map(
        np.clip(np.where(finite, shown, 0) / scale / 2 + 0.5, 0, 1),
        mode="byte")
    rgba[~finite] = DIAGONAL
    return rgba, top


class HeatMap(PlainPlot):
    """A square heat map of named rows and columns (the same names), row 0
    on top; a mark on the cells given as marked, an outline on the chosen
    cell and its mirror.  Hovering shows a cell's tooltip (and that of an
    attribute's name on the left); a left click on a cell emits
    :attr:`cell_clicked` (row, column)."""

    cell_clicked = Signal(int, int)

    def __init__(self, parent=None):
        super().__init__(parent, axis_items={
            "bottom": AxisItem("bottom", rotate_ticks=True),
            "left": AxisItem("left")})
        self.showGrid(False, False)
        self.getViewBox().invertY(True)
        self.getViewBox().setAspectLocked(True)
        self.image = pg.ImageItem()
        self.marks = pg.ScatterPlotItem(size=6, symbol="o",
                                        brush=pg.mkBrush("#202020"),
                                        pen=pg.mkPen("#ffffff", width=0.8))
        self.outlines = [pg.QtWidgets.QGraphicsRectItem() for _ in range(2)]
        for outline in self.outlines:
            outline.setPen(pg.mkPen("#000000", width=2.5, cosmetic=True))
        self.bar = pg.ColorBarItem(colorMap=MAP_COLOURS, interactive=False,
                                   width=12, label="interaction")
        self.bar.setVisible(False)
        self.getPlotItem().layout.addItem(self.bar, 2, 5)
        self.message = pg.TextItem(anchor=(0.5, 0.5), color="#606060")
        self.tooltips = None
        self.names = []
        self.scene().sigMouseMoved.connect(self._hover)
        self.scene().sigMouseClicked.connect(self._click)
        self.show_message("No data.")

    def set_map(self, matrix, names, tooltips, marked):
        """Show the square `matrix` (its rows and columns `names`), each
        cell's text `tooltips[row][column]`, a dot on the cells where
        `marked` is True."""
        self.clear()
        self._show_axes(True)
        rgba, top = map_image(matrix)
        # ImageItem reads its array as [x, y]: the columns first
        self.image.setImage(rgba.transpose(1, 0, 2), autoLevels=False)
        self.image.setRect(QRectF(0, 0, len(names), len(names)))
        self.addItem(self.image)
        rows, columns = np.nonzero(np.asarray(marked, bool))
        self.marks.setData(columns + 0.5, rows + 0.5)
        self.addItem(self.marks)
        for outline in self.outlines:
            outline.setVisible(False)
            self.addItem(outline)
        self.bar.setLevels((-top, top) if top > 0 else (-1, 1))
        self.bar.setVisible(True)
        font = self.getAxis("left").style.get("tickFont")
        labels = [elided(name, NAME_WIDTH, font) for name in names]
        ticks = [list(zip(np.arange(len(names)) + 0.5, labels)), []]
        for side in ("left", "bottom"):
            self.getAxis(side).setTicks(ticks)
            self.getAxis(side).setStyle(tickLength=0)
        # the names beside the cells without an axis line (Orange's
        # rotated names below are drawn with the axis's pen)
        self.getAxis("left").setPen(pg.mkPen(None))
        width = text_width(labels, font) + 12
        self.getAxis("left").setWidth(width)
        self.getAxis("bottom").setHeight(width)
        self.setRange(QRectF(0, 0, len(names), len(names)), padding=0.02)
        self.names, self.tooltips = list(names), tooltips

    def choose(self, row, column):
        """Outline the cell (row, column) and its mirror (None: none)."""
        for outline, (r, c) in zip(self.outlines,
                                   ((row, column), (column, row))):
            outline.setVisible(row is not None)
            if row is not None:
                outline.setRect(QRectF(c, r, 1, 1))

    def show_message(self, text):
        """No map and no axes, only `text` in the middle."""
        self.clear()
        self.tooltips, self.names = None, []
        self._show_axes(False)
        self.bar.setVisible(False)
        self.message.setText(text)
        self.addItem(self.message)
        self.setRange(QRectF(0, 0, 1, 1), padding=0)
        self.message.setPos(0.5, 0.5)

    def mark_outdated(self):
        """Fade the map shown: it belongs to the previous options."""
        self.image.setOpacity(0.3)
        self.marks.setOpacity(0.3)

    def _show_axes(self, shown):
        for side in ("left", "bottom"):
            self.getPlotItem().showAxis(side, shown)
            if not shown:
                self.getAxis(side).setTicks(None)
        self.image.setOpacity(1)
        self.marks.setOpacity(1)

    def cell_at(self, scene_position):
        """The (row, column) of the map at `scene_position`, or None; a
        point over a name on the left axis: (row, None)."""
        if self.tooltips is None:
            return None
        point = self.getViewBox().mapSceneToView(scene_position)
        row, column = int(np.floor(point.y())), int(np.floor(point.x()))
        size = len(self.names)
        if not 0 <= row < size:
            return None
        left = self.getAxis("left").sceneBoundingRect()
        if left.contains(scene_position):
            return row, None
        return (row, column) if 0 <= column < size else None

    def cell_centre(self, row, column):
        """The scene position of the middle of cell (row, column)."""
        return self.getViewBox().mapViewToScene(
            QPointF(column + 0.5, row + 0.5))

    def tooltip_at(self, scene_position):
        """The text of what lies at `scene_position` ("" for nothing)."""
        cell = self.cell_at(scene_position)
        if cell is None:
            return ""
        row, column = cell
        return self.names[row] if column is None \
            else self.tooltips[row][column]

    def _hover(self, position):
        text = self.tooltip_at(position)
        if text:
            QToolTip.showText(QCursor.pos(), text, self)
        else:
            QToolTip.hideText()

    def _click(self, event):
        if event.button() != Qt.LeftButton:
            return
        cell = self.cell_at(event.scenePos())
        if cell is not None and cell[1] is not None and cell[0] != cell[1]:
            self.cell_clicked.emit(*cell)


def jittered(values, variable, seed=0):
    """`values` of `variable`, a discrete one's spread by a uniform jitter
    (the same for the same values: seeded) so that its points do not hide
    each other."""
    if not variable.is_discrete:
        return values
    rng = np.random.default_rng(seed)
    return values + rng.uniform(-JITTER, JITTER, len(values))


Cell = namedtuple("Cell", ["left", "bottom", "width", "height", "first",
                           "second", "counts"])


def mosaic_cells(x, y, n_x, n_y):
    """The rectangles of a mosaic of the value codes `x` (of `n_x` values)
    and `y` (`n_y`) in the unit square: a column per value of x, as wide
    as its share of the instances, split into a row per value of y, as
    high as its share within the column; :data:`MOSAIC_GAP` between them.
    A :class:`Cell` per (x, y) pair of values, column by column, with the
    indices of its instances in `counts`."""
    total = len(x)
    widths = np.bincount(x, minlength=n_x) / max(total, 1) \
        * (1 - MOSAIC_GAP * (n_x - 1))
    cells, left = [], 0.0
    for first in range(n_x):
        members = np.flatnonzero(x == first)
        heights = np.bincount(y[members], minlength=n_y) \
            / max(len(members), 1) * (1 - MOSAIC_GAP * (n_y - 1))
        bottom = 0.0
        for second in range(n_y):
            cells.append(Cell(left, bottom, widths[first], heights[second],
                              first, second,
                              members[y[members] == second]))
            bottom += heights[second] + MOSAIC_GAP
        left += widths[first] + MOSAIC_GAP
    return cells


class PairPlot(PlainPlot):
    """Two attributes against each other, the instances coloured by class
    (:func:`class_legend` says what the colours are): a mosaic of two
    discrete attributes, a column per value of the first as wide as its
    share of the instances, a row per value of the second in it as high
    as its share there, each cell split by class; else a scatter plot, a
    discrete attribute's values spread by a jitter and named on its
    axis.  Hovering over a cell of a mosaic says its counts."""

    def __init__(self, parent=None):
        super().__init__(parent, grid_y=True)
        self.message = pg.TextItem(anchor=(0.5, 0.5), color="#606060")
        #: the cells of the mosaic shown and their texts (empty: none)
        self.cells, self.cell_tips = [], []
        self.scene().sigMouseMoved.connect(self._hover)
        self.show_message("Click a cell of the map.")

    def set_pair(self, data, first, second):
        """Plot attribute `second` of `data` against `first` (variables),
        the instances without a value of either or without a class left
        out."""
        self.clear()
        self.cells, self.cell_tips = [], []
        for side in ("left", "bottom"):
            self.getPlotItem().showAxis(side, True)
        class_var = data.domain.class_var
        x, y = data.get_column(first), data.get_column(second)
        classes = data.get_column(class_var)
        known = ~(np.isnan(x) | np.isnan(y) | np.isnan(classes))
        x, y, classes = x[known], y[known], classes[known]
        if first.is_discrete and second.is_discrete:
            self._mosaic(x.astype(int), y.astype(int), classes, first,
                         second, class_var)
            return
        self.getPlotItem().showGrid(x=True, y=True, alpha=0.3)
        self.getAxis("left").setWidth(None)
        colours = class_colours(class_var, classes)
        self.addItem(pg.ScatterPlotItem(
            jittered(x, first, 1), jittered(y, second, 2), size=POINT_SIZE,
            brush=[pg.mkBrush(colour) for colour in colours],
            pen=pg.mkPen(QColor(255, 255, 255, 120), width=0.5)))
        for side, variable in (("bottom", first), ("left", second)):
            axis = self.getAxis(side)
            axis.setLabel(variable.name)
            axis.setTicks([list(enumerate(variable.values)), []]
                          if variable.is_discrete else None)
        self.getPlotItem().enableAutoRange()

    def _mosaic(self, x, y, classes, first, second, class_var):
        """The mosaic of the codes `x` and `y`, each cell split into
        stripes as wide as the classes' shares (a numeric class: the
        colour of the cell's mean)."""
        self.getPlotItem().showGrid(x=False, y=False)
        cells = mosaic_cells(x, y, len(first.values), len(second.values))
        outline = pg.mkPen("#808080", width=0.6, cosmetic=True)
        for cell in cells:
            for left, width, colour in stripes(cell, classes, class_var):
                rect = pg.QtWidgets.QGraphicsRectItem(
                    left, cell.bottom, width, cell.height)
                rect.setPen(pg.mkPen(None))
                rect.setBrush(pg.mkBrush(colour))
                self.addItem(rect)
            frame = pg.QtWidgets.QGraphicsRectItem(
                cell.left, cell.bottom, cell.width, cell.height)
            frame.setPen(outline)
            self.addItem(frame)
        self.cells = cells
        self.cell_tips = [cell_text(cell, classes, first, second, class_var)
                          for cell in cells]
        columns = [cell for cell in cells if cell.second == 0]
        # the second's values beside the first column with instances
        rows = next(([c for c in cells if c.first == column.first]
                     for column in columns if column.width > 0), [])
        font = self.getAxis("left").style.get("tickFont")
        labels = [elided(second.values[cell.second], NAME_WIDTH, font)
                  for cell in rows]
        self.getAxis("left").setTicks([[
            (cell.bottom + cell.height / 2, label)
            for cell, label in zip(rows, labels) if cell.height > 0], []])
        name_width = text_width(labels, font) + 36
        self.getAxis("left").setWidth(name_width)
        # a column's value in at most its share of the plot's width
        span = max(self.width() - name_width - 20, 100)
        self.getAxis("bottom").setTicks([[
            (cell.left + cell.width / 2,
             elided(first.values[cell.first],
                    max(int(0.9 * span * cell.width), 24), font))
            for cell in columns], []])
        self.getAxis("bottom").setLabel(first.name)
        self.getAxis("left").setLabel(second.name)
        self.setRange(QRectF(0, 0, 1, 1), padding=0.02)

    def cell_at(self, scene_position):
        """The index of the mosaic's cell at `scene_position`, or None."""
        point = self.getViewBox().mapSceneToView(scene_position)
        for index, cell in enumerate(self.cells):
            if cell.left <= point.x() <= cell.left + cell.width \
                    and cell.bottom <= point.y() <= cell.bottom + cell.height:
                return index
        return None

    def _hover(self, position):
        index = self.cell_at(position) if self.cells else None
        if index is None:
            QToolTip.hideText()
        else:
            QToolTip.showText(QCursor.pos(), self.cell_tips[index], self)

    def show_message(self, text):
        """No points and no axes, only `text` in the middle."""
        self.clear()
        self.cells, self.cell_tips = [], []
        self.getAxis("left").setWidth(None)
        for side in ("left", "bottom"):
            self.getPlotItem().showAxis(side, False)
        self.message.setText(text)
        self.addItem(self.message)
        self.setRange(QRectF(0, 0, 1, 1), padding=0)
        self.message.setPos(0.5, 0.5)


def stripes(cell, classes, class_var):
    """(left, width, colour) of the stripes of a mosaic's `cell`: one per
    class value, as wide as its share of the cell's instances; for a
    numeric class one, the colour of the cell's mean.  An empty cell has
    none."""
    members = classes[cell.counts]
    if not len(members):
        return []
    if not class_var.is_discrete:
        return [(cell.left, cell.width,
                 class_colours(class_var, [members.mean()])[0]
                 if np.ptp(classes) > 0 else (160, 160, 160))]
    shares = np.bincount(members.astype(int),
                         minlength=len(class_var.values)) / len(members)
    lefts = cell.left + cell.width * np.r_[0, np.cumsum(shares)[:-1]]
    return [(left, cell.width * share, colour) for left, share, colour in
            zip(lefts, shares, class_colours(class_var,
                                             range(len(shares))))
            if share > 0]


def cell_text(cell, classes, first, second, class_var):
    """What a mosaic's `cell` holds: its two values, how many instances
    and of what class."""
    members = classes[cell.counts]
    text = (f"{first.name} = {first.values[cell.first]}, "
            f"{second.name} = {second.values[cell.second]}: "
            f"{len(members)} instance{'s' if len(members) != 1 else ''}")
    if not len(members):
        return text
    if not class_var.is_discrete:
        return text + f"\n{class_var.name}: mean {members.mean():.4g}"
    counts = np.bincount(members.astype(int),
                         minlength=len(class_var.values))
    return text + "".join(
        f"\n{class_var.name} = {value}: {count} ({count / len(members):.0%})"
        for value, count in zip(class_var.values, counts) if count)


def class_colours(class_var, classes):
    """The RGB colour of each class value in `classes` (codes of a
    categorical class, or the numbers of a numeric one) by the class's
    palette."""
    classes = np.asarray(classes, dtype=float)
    if class_var.is_discrete:
        palette = np.asarray(class_var.palette.palette)
        return [tuple(palette[int(c)]) for c in classes]
    if not len(classes):
        return []
    colours = class_var.palette.values_to_colors(
        classes, np.min(classes), np.max(classes))
    return [tuple(colour[:3]) for colour in colours]


def class_legend(data):
    """A line of HTML that names the colour of each class value of `data`
    (a categorical class) or of the ends of the class's range (a numeric
    one)."""
    class_var = data.domain.class_var
    classes = data.get_column(class_var)
    classes = classes[~np.isnan(classes)]
    if class_var.is_discrete:
        shown = zip(class_colours(class_var, range(len(class_var.values))),
                    class_var.values)
    elif len(classes):
        ends = [np.min(classes), np.max(classes)]
        shown = zip(class_colours(class_var, ends),
                    [f"{value:.3g}" for value in ends])
    else:
        return ""
    marks = "&nbsp;&nbsp;".join(
        f'<span style="color: rgb{tuple(int(c) for c in colour)}">'
        f'\u25cf</span>&nbsp;{html.escape(str(text))}'
        for colour, text in shown)
    return f"{html.escape(class_var.name)}: {marks}"
