"""Pieces shared by the widgets of the Relief category (no widget here)."""
import numbers
from contextlib import contextmanager

import numpy as np

import pyqtgraph as pg

from AnyQt.QtCore import Qt
from AnyQt.QtGui import QFont, QStandardItem, QStandardItemModel
from AnyQt.QtWidgets import QComboBox, QSizePolicy, QStyle, \
    QStyleOptionComboBox, QStylePainter

from Orange.data import DiscreteVariable
from Orange.statistics.util import countnans
from Orange.widgets.utils.concurrent import TaskState

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.progress import Interrupted, wrap_callback
from orangecontrib.relief.variants import METHODS, fitting_methods, needs

#: the text of a widget's error for data without a (single) class variable
NO_CLASS = "Data has no (single) class variable."


def unknown_columns(data):
    """The names of `data`'s attributes without a known value (none in
    data without instances)."""
    if not len(data):
        return []
    unknown = countnans(data.X, axis=0) == len(data)
    return [attr.name for attr, empty in zip(data.domain.attributes, unknown)
            if empty]


def class_present(data):
    """The class variable of `data`, a categorical one with only the
    values some instance has (in their order): which variants fit the data
    depends on the classes present (Relief fits two of three declared).
    Data without a known class keep theirs."""
    class_var = data.domain.class_var
    if class_var is None or not class_var.is_discrete:
        return class_var
    classes = data.get_column(class_var)
    codes = np.unique(classes[~np.isnan(classes)]).astype(int)
    if len(codes) in (0, len(class_var.values)):
        return class_var
    return DiscreteVariable(class_var.name,
                            values=[class_var.values[c] for c in codes])


def fitting_choice(chosen, displaced, fitting, default):
    """The method to use on data that the methods `fitting` fit, and what
    it displaced: (method, displaced).

    The `chosen` method is kept if it fits, else the `default` takes its
    place and `displaced` becomes (chosen, default); a method so replaced
    comes back with data it fits, unless another was chosen meanwhile
    (`displaced` is then (None, None)).
    """
    earlier, replacement = displaced
    if chosen == replacement and earlier in fitting:
        return earlier, (None, None)
    if chosen not in fitting:
        return default, (chosen, default)
    return chosen, displaced


def known_choices(widget, choices):
    """Stored settings that must be one of ``choices[name]`` and are not
    (a workflow of another version, or edited by hand) take the setting's
    default, so that the workflow opens."""
    for name, allowed in choices.items():
        # a list: a stored value need not be hashable (a dict's keys would)
        if getattr(widget, name) not in list(allowed):
            setattr(widget, name, _default(widget, name))


def known_flags(widget):
    """Every stored setting of `widget` whose default is True or False
    (a check box's) and that holds anything but a truth value (0 and 1
    count as False and True) takes its default, so that the workflow
    opens."""
    for name, setting in widget.settingsHandler.provider.settings.items():
        if isinstance(setting.default, bool):
            value = getattr(widget, name)
            setattr(widget, name, bool(value) if _is_flag(value)
                    else setting.default)


def _is_flag(value):
    return isinstance(value, (bool, np.bool_, numbers.Integral)) and \
        value in (0, 1)


def within_ranges(widget, ranges):
    """Bring stored settings that a workflow saved (or edited by hand)
    into the ranges of their controls, ``ranges[name] = (low, high)``: a
    number outside becomes the nearest legal one (an infinite one the
    nearer end), a value that is not a number (NaN, None, a string, a
    truth value) the setting's default, and each the type of `low`, so
    that an odd workflow opens instead of failing and no NaN reaches the
    computation."""
    for name, (low, high) in ranges.items():
        value = getattr(widget, name)
        if not _is_number(value):
            value = _default(widget, name)
        setattr(widget, name, type(low)(min(max(value, low), high)))


def _is_number(value):
    """Whether `value` is a real number other than NaN (infinities are
    numbers, beyond every range)."""
    return (isinstance(value, numbers.Real)
            and not isinstance(value, (bool, np.bool_))
            and value == value)  # NaN alone is unequal to itself (and a
    # huge int has no float for math.isnan)


def _default(widget, name):
    return widget.settingsHandler.provider.settings[name].default


def task_progress(state, start=0.0, end=1.0):
    """A ``progress_callback`` for the core, from a worker's ``TaskState``:
    it shows the fraction done within [start, end] of the widget's
    progress bar and raises :class:`Interrupted` once the widget cancelled
    the task, which stops the computation there."""
    def progress(fraction):
        state.set_progress_value(100 * fraction)
        if state.is_interruption_requested():
            raise Interrupted
    return wrap_callback(progress, start, end)


@contextmanager
def work_progress(state, status, X=None, n_references=None, start=0.0,
                  end=1.0, parts=()):
    """The ``progress_callback`` of a task's work on data `X`, shown with
    `status` in [start, end] of the progress bar (:func:`task_progress`).

    Where the vectorised engine answers because the compiled one is being
    prepared (:func:`~orangecontrib.relief.core.engines.status`; `parts`
    are those of the preparation that the work needs), the status says
    so.
    """
    waits = X is not None and engines.waits_for_preparation(X, n_references,
                                                            parts)
    state.set_status(engine_status(status, waits))
    yield task_progress(state, start, end)


def preparing_line(X, n_references=None, parts=()):
    """The information line of work on data `X` that the vectorised engine
    answers while the compiled one is prepared: how far the preparation
    is, and for a long run how long each engine takes
    (:func:`~orangecontrib.relief.core.engines.status`); None where the
    work does not wait for it, or the engine setting is refused (the
    work's error says so)."""
    try:
        if engines.waits_for_preparation(X, n_references, parts):
            return engines.status(X, n_references, parts)
    except ReliefInputError:
        pass
    return None


def engine_status(status, waits):
    """A task's `status` line, saying where the vectorised engine answers
    while the compiled one is prepared (`waits`)."""
    if not waits:
        return status
    return (f"{status.rstrip(' .')} (vectorised engine; the compiled one is "
            f"being prepared) ...")


#: the states of tasks that outlive their widget, until their work ends
_ORPHANED = set()


def shut_down_at_once(widget):
    """Stop a ``ConcurrentWidgetMixin`` widget's task without waiting for it
    (in ``onDeleteWidget``, instead of ``shutdown()``, which waits).

    The task is asked to stop and the widget goes at once.  Work that cannot
    stop at its next progress report (numba compiling a kernel, a learner's
    fit) ends in its worker thread, and its result is dropped.  Its state,
    which the work still reports to, is detached from the widget (a child
    would be deleted with it) and deleted, in this thread, when the work
    has ended.
    """
    widget.cancel()
    # the current task and any cancelled earlier one that still works
    for state in widget.findChildren(TaskState):
        if state.future is not None and not state.future.done():
            _orphan(state)
    # the mixin keeps its executor private; shut it down without waiting
    widget._ConcurrentMixin__executor.shutdown(wait=False)


def _orphan(state):
    """Keep a working task's `state` alive without its widget, and delete
    it in this thread once its work has ended."""
    state.setParent(None)
    _ORPHANED.add(state)

    def ended(_):
        _ORPHANED.discard(state)
        state.deleteLater()
    state.watcher.done.connect(ended)


def show_page(stack, page):
    """Show `page` of the QStackedWidget `stack`, which then takes the
    height of that page: a stack is as tall as its tallest page unless
    the pages it hides ignore their height."""
    for index in range(stack.count()):
        other = stack.widget(index)
        other.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Preferred
                            if other is page else QSizePolicy.Ignored)
    stack.setCurrentWidget(page)
    stack.updateGeometry()


def item_tips(combo, tips):
    """Give the entries of `combo`, in order, the tooltips `tips`."""
    for index, tip in enumerate(tips):
        combo.setItemData(index, tip, Qt.ToolTipRole)


def scaled_font(scale=1.0):
    """The default font, `scale` times its size."""
    font = QFont()
    font.setPointSizeF(font.pointSizeF() * scale)
    return font


class PlainPlot(pg.PlotWidget):
    """A plot on white with dark grey axis text, a grid, no buttons, no
    context menu and no SI prefixes on the axes.

    `interactive=False` also turns off panning and zooming with the mouse;
    `grid_y` adds horizontal grid lines to the vertical ones;
    `axis_items` (a dict by side, as pyqtgraph's) replaces the axes.
    :meth:`set_text_scale` enlarges the axes' texts (for a projector).
    """

    def __init__(self, parent=None, *, interactive=False, grid_y=False,
                 axis_items=None):
        super().__init__(parent, background="w", axisItems=axis_items)
        self.text_scale = 1.0
        item = self.getPlotItem()
        if not interactive:
            item.setMouseEnabled(False, False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(x=True, y=grid_y, alpha=0.3)
        for name in ("left", "bottom"):
            item.getAxis(name).setTextPen(pg.mkPen("#404040"))
            item.getAxis(name).enableAutoSIPrefix(False)

    def set_text_scale(self, scale):
        """Write the axes' ticks and labels `scale` times the default size
        (the texts a subclass writes should follow ``text_scale``)."""
        self.text_scale = scale
        font = scaled_font(scale)
        for name in ("left", "bottom"):
            axis = self.getAxis(name)
            axis.setStyle(tickFont=font)
            axis.labelStyle = {"font-size": f"{font.pointSizeF():g}pt"}
            if axis.labelText:
                axis.setLabel(axis.labelText)


class GroupedComboBox(QComboBox):
    """A combo box of values in groups: each group's heading (bold, not
    selectable) above its values, each shown as its text, with a tooltip.

    `groups` is a sequence of ``(heading, [(value, text, tooltip), ...])``
    (a heading None: no heading row); :meth:`bind` makes a choice set a
    widget's setting.  With ``names=True`` the values are names, and the
    closed box shows the chosen one, which fits its narrow width, while
    the list that opens shows the texts.
    """

    def __init__(self, groups, tooltip="", names=False):
        super().__init__(toolTip=tooltip)
        self._names = names
        model = QStandardItemModel(self)
        self._values = []  # the value of each row, None for a heading
        bold = QFont()
        bold.setBold(True)
        for heading, entries in groups:
            if heading is not None:
                item = QStandardItem(heading)
                item.setFlags(Qt.NoItemFlags)
                item.setFont(bold)
                model.appendRow(item)
                self._values.append(None)
            for value, text, tip in entries:
                item = QStandardItem("   " * (heading is not None) + text)
                item.setToolTip(tip)
                model.appendRow(item)
                self._values.append(value)
        self.setModel(model)
        # as wide as a short entry, so that the control area stays narrow;
        # the list that opens is as wide as its longest entry
        self.setSizeAdjustPolicy(
            QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(self.NARROW)
        self.view().setMinimumWidth(self.view().sizeHintForColumn(0) + 30)

    #: the characters the closed combo box makes room for
    NARROW = 20

    def shown_text(self):
        """What the closed box shows: the current value's name
        (``names=True``) or its text."""
        if self._names and 0 <= self.currentIndex() < len(self._values):
            return self.value()
        return self.currentText()

    def paintEvent(self, _):
        """Draw the closed box with :meth:`shown_text`."""
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        option.currentText = self.shown_text()
        painter.drawComplexControl(QStyle.CC_ComboBox, option)
        painter.drawControl(QStyle.CE_ComboBoxLabel, option)

    def values(self):
        """The values, in their order (no headings)."""
        return [value for value in self._values if value is not None]

    def value(self):
        """The value of the current row."""
        return self._values[self.currentIndex()]

    def select(self, value):
        """Make `value`'s row the current one."""
        self.setCurrentIndex(self._values.index(value))

    def item_of(self, value):
        """The model's item of `value` (to enable it, or give it a tip)."""
        return self.model().item(self._values.index(value))

    def bind(self, widget, setting, callback):
        """Show `widget`'s `setting` and set it on a choice, then call
        `callback`."""
        self.select(getattr(widget, setting))

        def chosen(_):
            setattr(widget, setting, self.value())
            callback()
        self.activated.connect(chosen)


def choice_combo(widget, box, setting, choices, tooltip, callback):
    """A :class:`GroupedComboBox` without headings of `choices`, ``(values,
    labels, tips)``: each value shown by its label, its tip on hover.  It
    is bound to `widget`'s `setting` (:meth:`GroupedComboBox.bind`) and
    added to `box` (None: placed later)."""
    values, labels, tips = choices
    combo = GroupedComboBox(
        [(None, [(value, labels[value], tips[value]) for value in values])],
        tooltip=tooltip)
    combo.bind(widget, setting, callback)
    if box is not None:
        box.layout().addWidget(combo)
    return combo


def start_over(widget, *messages):
    """Stop `widget`'s work on its former data and clear its errors and
    `messages` (groups of messages, or single ones): what a widget does
    first with new data."""
    widget.cancel()
    widget.Error.clear()
    for message in messages:
        message.clear()


def with_class_and_attributes(widget, data):
    """`data` if it has a class and attributes, else None, and the
    widget's ``Error.no_class`` or ``Error.no_attributes`` shown."""
    if data is None:
        return None
    if data.domain.class_var is None:
        widget.Error.no_class()
    elif not data.domain.attributes:
        widget.Error.no_attributes()
    else:
        return data
    return None


def method_combo(groups, tooltip):
    """A :class:`GroupedComboBox` of the registry's methods, `groups` of
    ``(heading, [name, ...])``: each with its few words, its paper on
    hover, the closed box showing its name."""
    return GroupedComboBox(
        [(heading, [(name, f"{name}: {METHODS[name].short}",
                     f"{name}: {METHODS[name].summary}.")
                    for name in names])
         for heading, names in groups if names],
        tooltip=tooltip, names=True)


def show_fitting_methods(combo, data, chosen):
    """Enable the methods of `combo` (:func:`method_combo`) that fit the
    class of `data` (all without data), say on the others' entries what
    they need, and show `chosen`."""
    names = combo.values()
    fitting = (fitting_methods(class_present(data)) if data is not None
               else names)
    for name in names:
        item = combo.item_of(name)
        item.setEnabled(name in fitting)
        item.setToolTip(
            f"{name}: {METHODS[name].summary}." if name in fitting
            else f"Does not fit the class of the data: {name} needs "
                 f"{needs(name)}.")
    combo.select(chosen)
