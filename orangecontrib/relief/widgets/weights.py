"""Attribute weights as the widgets show them (a bar plot, best on top)
and send them (a table, best first)."""
import numpy as np
import pyqtgraph as pg

from AnyQt.QtCore import Qt
from AnyQt.QtGui import QCursor, QFont, QFontMetrics
from AnyQt.QtWidgets import QToolTip

from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         StringVariable, Table)
from Orange.data.util import get_unique_names

from orangecontrib.relief.stability import stability_columns
from orangecontrib.relief.widgets.common import PlainPlot, scaled_font

#: attribute names longer than this many pixels are elided (full on hover)
NAME_WIDTH = 220
POSITIVE_BRUSH = pg.mkBrush("#1f77b4")
NEGATIVE_BRUSH = pg.mkBrush("#a0a0a0")
FADED_BRUSH = pg.mkBrush("#c9d9ea")
RELEVANT_PEN = pg.mkPen("#d62728", width=2)
#: the outline of a bar's previous weight
PREVIOUS_PEN = pg.mkPen("#505050", width=1, style=Qt.DashLine)
#: a prefix of attributes a generator made relevant
RELEVANT_MARK = "\u2605 "


def weights_table(attributes, weights, tested=None, stable=None,
                  targets=None):
    """A table with one row per attribute, best weight first: "weight", with
    `tested` also "p", "q" and "significant", with `stable` (a
    RankingStability) the columns of
    :data:`~orangecontrib.relief.stability.STABILITY_COLUMNS`, and the
    attribute name as a string meta.  With `targets` ((target names, their
    weights, a row per target) of a ranking by several targets), the
    overall weight is "overall" and each target's is a column named after
    the target."""
    order = np.argsort(-weights, kind="stable")
    columns = [ContinuousVariable("weight")]
    values = [weights[order]]
    if targets is not None:
        names, per_target = targets
        overall = get_unique_names(list(names), "overall")
        columns = [ContinuousVariable(name) for name in [overall, *names]]
        values += list(per_target[:, order])
    if tested is not None:
        columns += [ContinuousVariable("p"), ContinuousVariable("q"),
                    DiscreteVariable("significant", values=("no", "yes"))]
        values += [tested.p[order], tested.q[order],
                   tested.significant[order].astype(float)]
    if stable is not None:
        variables, columns_values = stability_columns(stable)
        columns += variables
        values += list(columns_values[order].T)
    domain = Domain(columns, metas=[StringVariable("attribute")])
    names = np.array([[attributes[i].name] for i in order], dtype=object)
    table = Table.from_numpy(domain, np.column_stack(values), metas=names)
    table.name = "Relief weights"
    return table


def is_relevant(variable):
    """Whether a generator of the add-on made `variable` relevant."""
    return bool(variable.attributes.get("relevant", False))


def elided(text, width=NAME_WIDTH, font=None):
    """`text` elided in the middle to `width` pixels of `font` (default:
    the default font)."""
    return QFontMetrics(font or QFont()).elidedText(text, Qt.ElideMiddle,
                                                    width)


def text_width(texts, font=None):
    """The width in pixels of the widest of `texts` in `font` (default: the
    default font)."""
    metrics = QFontMetrics(font or QFont())
    return max((metrics.horizontalAdvance(text) for text in texts), default=0)


class WeightsPlot(PlainPlot):
    """Horizontal bars of attribute weights, the best attribute on top;
    the names take the width of the longest one, at most `name_width`
    pixels (longer ones are elided in the middle), the full name and the
    values on hover.  Optionally, the previous weights show as dashed
    outlines and a number stands beside each bar, on the right axis (a
    step's change)."""

    def __init__(self, parent=None, name_width=NAME_WIDTH):
        super().__init__(parent)
        self.name_width = name_width
        item = self.getPlotItem()
        item.getAxis("bottom").setLabel("weight")
        # the title over the whole width, the axes' too: a title as wide as
        # the bars alone would push a narrow plot out of its panel
        item.layout.removeItem(item.titleLabel)
        item.layout.addItem(item.titleLabel, 0, 0, 1, 3)
        self.getViewBox().invertY(True)
        self.tooltips = []
        self.message = pg.TextItem(anchor=(0.5, 0.5), color="#606060")
        self.scene().sigMouseMoved.connect(self._hover)
        self.show_message("No data.")

    def set_weights(self, names, weights, tooltips, relevant, faded=None,
                    cutoff=None, previous=None, numbers=None, x_range=None,
                    legend=None, notes=None):
        """Show the attributes `names` with their `weights`, top to bottom.

        `tooltips`: the text of each bar; `relevant`: bools, bars drawn with
        a red outline and a star; `faded`: bools, bars drawn pale (not
        significant); `cutoff`: draw a dashed line and "q <= alpha" below
        that many bars (the significant ones); `previous`: weights drawn as
        dashed outlines behind the bars; `numbers`: a signed number written
        beside each bar on the right axis (`notes`: any text there instead);
        `x_range`: (low, high) of the
        weight axis instead of the weights' own range; `legend`: a line
        above the bars that says what their marks mean (also in reports).
        """
        self.clear()
        self._show_axes(True)
        faded = np.zeros(len(weights), bool) if faded is None else faded
        brushes = [FADED_BRUSH if fade else
                   POSITIVE_BRUSH if w >= 0 else NEGATIVE_BRUSH
                   for w, fade in zip(weights, faded)]
        pens = [RELEVANT_PEN if rel else pg.mkPen(None) for rel in relevant]
        positions = np.arange(len(weights))
        if previous is not None:
            self.addItem(pg.BarGraphItem(
                x0=0, y=positions, width=previous, height=0.85, brush=None,
                pen=PREVIOUS_PEN))
        self.addItem(pg.BarGraphItem(
            x0=0, y=positions, width=weights, height=0.7, brushes=brushes,
            pens=pens))
        font = scaled_font(self.text_scale)
        labels = [elided((RELEVANT_MARK if rel else "") + name,
                         round(self.name_width * self.text_scale), font)
                  for name, rel in zip(names, relevant)]
        self.getAxis("left").setTicks([list(zip(positions, labels)), []])
        self.getAxis("left").setWidth(text_width(labels, font) + 10)
        self.setYRange(-0.5, len(weights) - 0.5, padding=0.02)
        if x_range is None:
            shown = np.concatenate([weights, [] if previous is None
                                    else previous])
            x_range = min(0.0, np.min(shown)), max(0.0, np.max(shown))
        low, high = x_range
        self.setXRange(low, high if high > low else low + 1)
        if numbers is not None:
            notes = [f"{number:+.3f}" for number in numbers]
        self._write_notes(positions, notes, font)
        if cutoff is not None:
            self.addItem(pg.InfiniteLine(
                pos=cutoff - 0.5, angle=0,
                pen=pg.mkPen("#d62728", style=Qt.DashLine)))
        if legend:
            self._write_legend(legend)
        self.tooltips = list(tooltips)

    def _write_legend(self, legend):
        """`legend` as the title, as many lines high as it is."""
        size = scaled_font(0.8 * self.text_scale).pointSizeF()
        self.setTitle(legend, color="#404040", size=f"{size:g}pt")
        item = self.getPlotItem()
        height = item.titleLabel.item.boundingRect().height()
        item.titleLabel.setMaximumHeight(height)
        item.layout.setRowFixedHeight(0, height)

    def _write_notes(self, positions, texts, font):
        """Write `texts` on the right axis beside the bars at `positions`
        (None: no right axis)."""
        axis = self.getAxis("right")
        self.getPlotItem().showAxis("right", texts is not None)
        if texts is None:
            axis.setTicks(None)
            return
        axis.setTicks([list(zip(positions, texts)), []])
        axis.setStyle(tickFont=font)
        axis.setTextPen(pg.mkPen("#404040"))
        axis.setWidth(text_width(texts, font) + 10)

    def mark_outdated(self):
        """Fade the bars shown: they belong to the previous options."""
        for item in self.getPlotItem().items:
            if isinstance(item, pg.BarGraphItem):
                item.setOpacity(0.3)
        self.setTitle("Computing ... (the bars are of the previous options)",
                      color="#606060", size="9pt")

    def show_message(self, text):
        """No bars and no axes, only `text` in the middle."""
        self.clear()
        self.tooltips = []
        self._show_axes(False)
        self.message.setText(text)
        self.addItem(self.message)
        self.setXRange(0, 1)
        self.setYRange(0, 1)
        self.message.setPos(0.5, 0.5)

    def _show_axes(self, shown):
        self.setTitle(None)
        for name in ("left", "bottom"):
            self.getPlotItem().showAxis(name, shown)
        if not shown:
            self.getAxis("left").setTicks(None)
            self._write_notes(None, None, None)

    def _hover(self, position):
        """Show the full name and the values of the bar under the mouse
        (also over its name on the axis)."""
        if not self.tooltips:
            return
        row = int(round(self.getViewBox().mapSceneToView(position).y()))
        if 0 <= row < len(self.tooltips):
            QToolTip.showText(QCursor.pos(), self.tooltips[row], self)
        else:
            QToolTip.hideText()
