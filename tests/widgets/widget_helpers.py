"""Helpers shared by the widget tests (not a test module)."""


class FakeState:
    """A stand-in for the ``TaskState`` that a widget's worker function gets.

    With ``interrupted=True`` (the default) it reports a cancelled task, so
    the worker must stop at its first check; it ignores status and progress
    and keeps the partial results in `partial`.
    """

    def __init__(self, interrupted=True):
        self.interrupted = interrupted
        self.partial = []

    def set_status(self, _):
        pass

    def set_partial_result(self, result):
        self.partial.append(result)

    def set_progress_value(self, _):
        pass

    def is_interruption_requested(self):
        return self.interrupted


class SendAndWaitMixin:
    """``send_and_wait`` for a ``WidgetTest`` of a widget with a Data input.

    A test class lists the mixin before ``WidgetTest``; the wait guards
    against a hang only (tests/waiting.py).
    """

    def send_and_wait(self, data, widget=None):
        """Send `data` to `widget` (default: ``self.widget``) and wait until
        its task finished."""
        widget = widget or self.widget
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.wait_until_finished(widget=widget)


def choose(combo, value):
    """Choose `value` in a ``GroupedComboBox`` as a user does (its row
    made current, then ``activated``)."""
    row = combo.values().index(value)
    index = [i for i in range(combo.count())
             if combo.model().item(i).isSelectable()][row]
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
