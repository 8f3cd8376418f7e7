"""The table of Relief, step by step: what the current step shows at its
stage, one column per instance (the reference, its neighbours, the
runners-up) and the update's columns, one row per attribute under the
neighbours' distances and multipliers."""
from dataclasses import dataclass
from html import escape
from typing import Callable

import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtGui import QBrush, QColor
from AnyQt.QtWidgets import (QAbstractItemView, QHeaderView, QTableWidget,
                             QTableWidgetItem)

from Orange.data import Table

from orangecontrib.relief.core.steps import STAGES, Step
from orangecontrib.relief.widgets.weights import elided

#: the rows above the attributes
ROWS = ("distance", "multiplier")
#: the background of an update that raises (lowers) a weight
UP, DOWN = QColor("#d8ecd0"), QColor("#f6d5d0")
#: the text of a diff of 0, and of a runner-up's column
FAINT, RUNNER_UP = QColor("#a0a0a0"), QColor("#707070")
#: a class's name in a header is elided to this many pixels (at scale 1)
CLASS_WIDTH = 90

DIFFS, UPDATE = STAGES.index("diffs"), STAGES.index("update")


@dataclass
class Column:
    """A column of the table: its header, its tooltip, the text of each row
    (:data:`ROWS`, then the attributes) and how the cells look."""
    header: str
    tip: str
    cells: list
    runner_up: bool = False
    bold: list = None
    backgrounds: list = None

    def __post_init__(self):
        self.bold = self.bold or [False] * len(self.cells)
        self.backgrounds = self.backgrounds or [None] * len(self.cells)


@dataclass
class StepView:
    """What the table of a step reads.

    `stage` indexes :data:`orangecontrib.relief.core.steps.STAGES`;
    `shown` says which neighbours the views show, `runners` which
    runners-up (indices into the step's);
    `weights` are those after the updates applied (`n_applied` of them);
    `class_names` names the step's classes (:attr:`Step.classes`: the
    classes present, numbered 0, 1, ...) and `row_name` an instance;
    `name_classes` asks the first miss of each class to name it.
    """
    data: Table
    step: Step
    stage: int
    shown: np.ndarray
    runners: np.ndarray
    weights: np.ndarray
    n_applied: int
    class_names: list
    row_name: Callable
    name_classes: bool = False


def step_columns(view, header_font=None, scale=1.0):
    """The columns of `view`'s step at its stage: the reference's values
    (before the diffs), then each neighbour shown with its values or diffs
    (each class's runner-up after its neighbours), then at the update the
    part of the misses not shown, the update and the weights."""
    step, stage = view.step, view.stage
    columns = []
    if stage < DIFFS:
        class_var = view.data.domain.class_var
        klass = class_var.str_val(view.data[step.reference][class_var])
        columns.append(Column(
            f"reference\n{view.row_name(step.reference)}",
            f"The reference's values (class {klass}).",
            ["", ""] + _values(view.data, step.reference)))
    if stage == 0:
        return columns
    counts = {}
    for number in np.flatnonzero(view.shown):
        klass = step.classes[number]
        counts[klass] = counts.get(klass, 0) + 1
        columns.append(_neighbour_column(view, number, counts[klass],
                                         header_font, scale))
        last_of_class = (number + 1 == len(step.classes)
                         or step.classes[number + 1] != klass)
        if last_of_class:
            columns += [_runner_up_column(view, i) for i in view.runners
                        if step.runner_up_classes[i] == klass]
    if stage == UPDATE:
        columns += _update_columns(view)
    return columns


def _values(data, instance):
    row = data[instance]
    return [var.str_val(row[var]) for var in data.domain.attributes]


def _neighbour_column(view, number, rank, header_font, scale):
    """The column of `view`'s step's neighbour `number`, the `rank`-th of
    its class."""
    step = view.step
    j, klass = step.neighbours[number], step.classes[number]
    kind = "hit" if step.is_hit[number] else "miss"
    header = f"{kind} {rank}\n{view.row_name(j)}"
    if kind == "miss" and view.name_classes and rank == 1:
        header += "\n" + elided(view.class_names[klass],
                                round(CLASS_WIDTH * scale), header_font)
    if step.is_hit[number]:
        why = "each of the k hits counts \u22121/k"
    else:
        why = ("the misses of a class count the class's share of the "
               "instances of the classes other than the reference's, "
               "divided by k")
    tip = (f"A near {kind} of class {view.class_names[klass]}, at distance "
           f"{step.distances[number]:.3f} (all attributes). Its diffs are "
           f"multiplied by {step.coefficients[number]:+.4f} in the update: "
           f"{why}.")
    share = _share(step, number)
    if share:
        header += f"\nshare {share}"
        tip += (f" It is one of {step.tied[number]} instances at the same "
                f"distance, which share the places left among the k: it "
                f"takes {share} of a place.")
    multiplier = (number_text(step.coefficients[number], signed=True)
                  if view.stage == UPDATE else "")
    cells = (_values(view.data, j) if view.stage < DIFFS
             else [number_text(d) for d in step.diffs[:, number]])
    return Column(header, tip,
                  [number_text(step.distances[number]), multiplier] + cells)


def number_text(value, signed=False):
    """`value` to three decimals without trailing zeros ("1" for 1.000,
    "0.5", "+0.022" with `signed`), so that a narrow column shows it
    whole."""
    text = f"{value:+.3f}" if signed else f"{value:.3f}"
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "+0") else text


def _share(step, number):
    """"r/t", the share of its list's places neighbour `number` takes when
    it shares them with others tied at its distance; "" for a place of
    its own."""
    tied, share = step.tied[number], step.shares[number]
    if share == 1:
        return ""
    return f"{round(share * tied)}/{tied}"


def _runner_up_column(view, i):
    """The column of `view`'s step's runner-up `i`."""
    step = view.step
    j, distance = step.runners_up[i], step.runner_up_distances[i]
    klass = view.class_names[step.runner_up_classes[i]]
    cells = (_values(view.data, j) if view.stage < DIFFS
             else [number_text(d) for d in step.runner_up_diffs[:, i]])
    return Column(
        f"not chosen\n{view.row_name(j)}",
        f"The nearest instance of class {klass} that was not chosen, at "
        f"distance {distance:.3f}: it does not count in the update.",
        [number_text(distance), ""] + cells, runner_up=True)


def _update_columns(view):
    """The columns of the update: the misses not shown, the update and
    the weights."""
    step, columns = view.step, []
    hidden = ~view.shown
    if hidden.any():
        other = step.diffs[:, hidden] @ step.coefficients[hidden]
        columns.append(Column(
            "other\nmisses", "The part of the update from the misses of the "
            "classes not shown (their diffs times their multipliers, added).",
            ["", ""] + [number_text(v, signed=True) for v in other]))
    columns.append(Column(
        "update", "This step's move of each weight: the diffs times their "
        "multipliers, added (a hit's diff lowers the weight, a miss's "
        "raises it).",
        ["", ""] + [number_text(v, signed=True) for v in step.update],
        bold=[False, False] + [bool(v) for v in step.update],
        backgrounds=[None, None] + [UP if v > 0 else DOWN if v < 0 else None
                                    for v in step.update]))
    columns.append(Column(
        "weight", f"The mean of the {view.n_applied} steps' updates.",
        ["", ""] + [number_text(v) for v in view.weights]))
    return columns


#: the narrowest a column of the table is made to fit the view (pixels)
MIN_COLUMN_WIDTH = 24


class StepTable(QTableWidget):
    """The columns of a step (:func:`step_columns`) under their headers,
    the rows :data:`ROWS` (hidden while empty) and the attributes."""

    def __init__(self):
        super().__init__(
            editTriggers=QAbstractItemView.NoEditTriggers,
            toolTip="The current step: the values or the diffs of every "
                    "attribute, the neighbours' distances and multipliers, "
                    "the update.")
        self.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeToContents)
        # a steady width, so that a scroll to a column stays right
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)

    def show_columns(self, columns, attribute_names, last_first=False):
        """Show `columns` beside the rows of `attribute_names`, scrolled to
        the first column, or to the last if `last_first`."""
        self.clear()
        self.setColumnCount(len(columns))
        self.setRowCount(len(ROWS) + len(attribute_names) if columns else 0)
        if not columns:
            return
        self.setVerticalHeaderLabels(list(ROWS) + list(attribute_names))
        for number, column in enumerate(columns):
            item = QTableWidgetItem(column.header)
            item.setToolTip(column.tip)
            self.setHorizontalHeaderItem(number, item)
            for row, text in enumerate(column.cells):
                self.setItem(row, number, self._cell(text, column, row))
        for row in range(len(ROWS)):  # e.g. no distances before neighbours
            self.setRowHidden(row, all(not c.cells[row] for c in columns))
        self.fit_columns()
        self.updateGeometries()  # the scroll bar's new range
        self.scrollToItem(self.item(0, len(columns) - 1 if last_first
                                    else 0))

    def fit_columns(self):
        """Columns as wide as their contents, narrowed alike (their text
        elided, whole in their tooltips) where together they would not fit
        the view, so that a step's neighbours are seen side by side."""
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeToContents)
        self.resizeColumnsToContents()
        widths = [self.columnWidth(c) for c in range(self.columnCount())]
        available = self.viewport().width()
        if not widths or sum(widths) <= available:
            return
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setMinimumSectionSize(MIN_COLUMN_WIDTH)
        narrowest = max(available // len(widths), MIN_COLUMN_WIDTH)
        for column, width in enumerate(widths):
            self.setColumnWidth(column, min(width, narrowest))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.fit_columns()

    @staticmethod
    def _cell(text, column, row):
        item = QTableWidgetItem(text)
        item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
        font = item.font()
        font.setItalic(column.runner_up or row < len(ROWS))
        font.setBold(column.bold[row])
        item.setFont(font)
        if column.runner_up:
            item.setForeground(QBrush(RUNNER_UP))
        elif text in ("0.000", "+0.000"):
            item.setForeground(QBrush(FAINT))
        if column.backgrounds[row] is not None:
            item.setBackground(QBrush(column.backgrounds[row]))
        return item

    def report_rows(self):
        """The rows for a report: the header first, its line breaks kept,
        the hidden rows left out, texts escaped."""
        def text(item):
            return "" if item is None else escape(item.text()).replace(
                "\n", "<br/>")
        columns = range(self.columnCount())
        rows = [[""] + [text(self.horizontalHeaderItem(c)) for c in columns]]
        for row in range(self.rowCount()):
            if not self.isRowHidden(row):
                rows.append([text(self.verticalHeaderItem(row))]
                            + [text(self.item(row, c)) for c in columns])
        return rows
