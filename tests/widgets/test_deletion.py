"""Deleting a widget while its task works returns at once: the task is asked
to stop and left to end in its thread (numba compiling a kernel, or a
learner's fit, cannot stop at once)."""
import threading

from Orange.data import Table
from Orange.widgets.tests import base  # (the module: pytest would collect
# an imported WidgetTest class as a test case of its own)

from orangecontrib.relief import ReliefF
from orangecontrib.relief.datasets import path
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.widgets import (owclassdepknn, owconsensus,
                                          owinteractions, owrelief, owrfsm,
                                          owselectioncurve,
                                          owseparability)

#: how long a blocked task waits before it gives up (a test that deleted
#: its widget sets the event long before)
PATIENCE = 60


class BlockedTask:
    """A stand-in for a widget's worker function that blocks until released
    (or until PATIENCE runs out) and tells when it has returned."""

    def __init__(self):
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()

    def __call__(self, *args, **kwargs):
        self.started.set()
        self.release.wait(PATIENCE)
        self.finished.set()


class TestDeletionDuringWork(base.WidgetTest):
    def delete_while_blocked(self, module, worker, widget_class, begin):
        blocked = BlockedTask()
        original = getattr(module, worker)
        setattr(module, worker, blocked)
        try:
            widget = self.create_widget(widget_class)
            begin(widget)
            assert blocked.started.wait(PATIENCE)
            widget.onDeleteWidget()
            # the deletion returned while the task still blocks (had it
            # waited for the task, the task would have returned first)
            self.assertFalse(blocked.finished.is_set())
        finally:
            blocked.release.set()
            setattr(module, worker, original)

    def test_relief(self):
        data = Table(path("heart_disease"))
        self.delete_while_blocked(
            owrelief, "compute_weights", owrelief.OWRelief,
            lambda w: self.send_signal(w.Inputs.data, data, widget=w))

    def test_rfsm(self):
        data = Table(path("zoo"))
        self.delete_while_blocked(
            owrfsm, "run_selection", owrfsm.OWRFSM,
            lambda w: self.send_signal(w.Inputs.data, data, widget=w))

    def test_interactions(self):
        data = Table(path("heart_disease"))
        self.delete_while_blocked(
            owinteractions, "compute_map", owinteractions.OWInteractions,
            lambda w: self.send_signal(w.Inputs.data, data, widget=w))

    def test_separability(self):
        self.delete_while_blocked(
            owseparability, "run_design", owseparability.OWSeparability,
            lambda w: w.toggle_run())

    def test_class_dependent_knn(self):
        data = Table(path("heart_disease"))
        self.delete_while_blocked(
            owclassdepknn, "fit_model", owclassdepknn.OWClassDependentKNN,
            lambda w: self.send_signal(w.Inputs.data, data, widget=w))

    def test_selection_curve(self):
        data = Table(path("heart_disease"))
        self.delete_while_blocked(
            owselectioncurve, "compute_curve",
            owselectioncurve.OWSelectionCurve,
            lambda w: self.send_signal(w.Inputs.data, data, widget=w))

    def test_consensus(self):
        data = Table(path("heart_disease"))

        def begin(widget):  # a second scorer beside Information Gain
            self.send_signal(widget.Inputs.scorers, RankScorer(ReliefF()), 0,
                             widget=widget)
            self.send_signal(widget.Inputs.data, data, widget=widget)

        self.delete_while_blocked(owconsensus, "compute_ranks",
                                  owconsensus.OWConsensus, begin)
