"""Workflows saved by another version, or edited by hand, open: stored
settings outside their controls' ranges are brought into them, and
values that are not numbers (NaN, None, text) take the setting's default.

The table: every widget x every setting it stores (bar Orange's own window
geometry and learner name) x the bad values that reach each control (not a
number, text, beyond both ends of every range); a widget opens with one bad
value in all its settings at once (one at a time where it computes as it
opens).  Every bad value x every kind of setting on the helpers that all
widgets share (widgets/common.py), which alone handle the others."""
import copy
import math
from types import SimpleNamespace

import numpy as np
from AnyQt.QtWidgets import QAbstractSpinBox, QComboBox
from Orange.data import Table
from Orange.widgets.settings import ContextSetting, Setting
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief.core.options import TOP_K
from orangecontrib.relief.widgets.owclassdepknn import OWClassDependentKNN
from orangecontrib.relief.widgets.owconsensus import OWConsensus
from orangecontrib.relief.widgets.owgenerator import OWReliefGenerator
from orangecontrib.relief.widgets.owinteractions import OWInteractions
from orangecontrib.relief.widgets.owrelief import OWRelief
from orangecontrib.relief.widgets.owrfsm import OWRFSM
from orangecontrib.relief.widgets.owselectioncurve import (TURF,
                                                           OWSelectionCurve)
from orangecontrib.relief.widgets.owseparability import OWSeparability
from orangecontrib.relief.widgets.common import (known_choices, known_flags,
                                                 within_ranges)
from orangecontrib.relief.widgets.owstepbystep import OWReliefSteps

WIDGETS = (OWClassDependentKNN, OWConsensus, OWReliefGenerator,
           OWInteractions, OWRelief, OWRFSM, OWSelectionCurve, OWSeparability,
           OWReliefSteps)
#: widgets that compute as they open: each bad value in one setting at a
#: time (in all of the generator's at once, every size at its top end would
#: make a table of 100000 x 2000)
ONE_AT_A_TIME = (OWReliefGenerator,)
#: Orange's own settings of every widget, which the add-on does not check
ORANGES_OWN = ("savedWidgetGeometry", "learner_name")
#: stored values that are not numbers: every setting takes its default
NOT_NUMBERS = {"NaN": math.nan, "numpy NaN": np.float32("nan"),
               "None": None, "text": "many", "a list": [3], "True": True}
#: numbers beyond every control's range: a number setting takes the
#: nearer end of its control's range, any other its default
BEYOND = {"inf": math.inf, "-inf": -math.inf, "huge int": 10 ** 400,
          "huge float": 1e300, "negative": -7}
#: the bad values every widget opens with: not a number, text, beyond both
#: ends of every range (each control's range checked against its
#: widget's); the others meet the shared helpers alone (:data:`SHARED`)
OPENED_WITH = ("NaN", "text", "inf", "-inf")
#: bad values beside :data:`OPENED_WITH` for a widget that reads a setting
#: with code of its own before the helpers: the generator looks an old
#: problem name up in a dict, which a stored list must not reach
READ_FIRST = {OWReliefGenerator: ("a list",)}
#: a stand-in widget's settings, one of each kind the helpers bring back:
#: {name: (default, its control's range or choices; None: a check box)}
SHARED = {"flag": (True, None), "unset flag": (False, None),
          "count": (10, (1, 100)), "fraction": (0.5, (0.0, 1.0)),
          "choice": ("ReliefF", {"ReliefF": 1, "Relief": 2})}


def stored_settings(widget_class):
    """{name: default} of the settings `widget_class` stores (the context
    settings are stored per domain: the step-by-step widget's test covers
    them)."""
    settings = widget_class.settingsHandler.provider.settings
    return {name: setting.default for name, setting in settings.items()
            if name not in ORANGES_OWN
            and not isinstance(setting, ContextSetting)}


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def bad_values(labels):
    every = NOT_NUMBERS | BEYOND
    return {label: every[label] for label in labels}


def stand_in(value):
    """A widget with every setting of :data:`SHARED` stored as `value`,
    brought back by the shared helpers as each widget calls them."""
    settings = {name: Setting(default)
                for name, (default, _) in SHARED.items()}
    widget = SimpleNamespace(settingsHandler=SimpleNamespace(
        provider=SimpleNamespace(settings=settings)),
        **{name: copy.deepcopy(value) for name in SHARED})
    known_choices(widget, {name: allowed for name, (default, allowed)
                           in SHARED.items() if isinstance(default, str)})
    known_flags(widget)
    within_ranges(widget, {name: limits for name, (default, limits)
                           in SHARED.items() if is_number(default)})
    return widget


def control_range(widget, name):
    """The (lowest, highest) value of the control of setting `name`, or
    None where it has none (yet)."""
    control = getattr(widget.controls, name, None)
    if isinstance(control, QAbstractSpinBox):
        return control.minimum(), control.maximum()
    if isinstance(control, QComboBox) and control.count():
        return 0, control.count() - 1
    return None


class TestStoredSettings(WidgetTest):
    def check_every_setting(self, widget_class):
        """Create `widget_class` with each bad value in its stored settings
        (all at once: the widget brings back each on its own; one at a
        time where it computes as it opens, :data:`ONE_AT_A_TIME`); each
        opens with a value of the setting's type, its default or within
        its control's range."""
        defaults = stored_settings(widget_class)
        groups = [[name] for name in defaults] \
            if widget_class in ONE_AT_A_TIME else [list(defaults)]
        cases = 0
        for label, value in bad_values(
                OPENED_WITH + READ_FIRST.get(widget_class, ())).items():
            for group in groups:
                with self.subTest(widget=widget_class.name, value=label,
                                  settings=group):
                    widget = self.create_widget(widget_class, stored_settings={
                        name: copy.deepcopy(value) for name in group})
                    for name in group:
                        cases += 1
                        self.assert_brought_back(
                            getattr(widget, name), defaults[name], label,
                            value, control_range(widget, name))
        return cases

    def check_the_shared_helpers(self):
        """Each bad value in every kind of setting of a stand-in widget
        (:data:`SHARED`)."""
        cases = 0
        for label, value in (NOT_NUMBERS | BEYOND).items():
            widget = stand_in(value)
            for name, (default, allowed) in SHARED.items():
                with self.subTest(helpers=name, value=label):
                    cases += 1
                    self.assert_brought_back(
                        getattr(widget, name), default, label, value,
                        allowed if is_number(default) else None)
        return cases

    def assert_brought_back(self, got, default, label, value, limits):
        """A setting (`default`), stored as `value` (`label`), holds the
        value `got` of its type: its default or an end of its control's
        range, `limits` (None: not known)."""
        self.assertIs(type(got), type(default))
        if isinstance(default, list):  # the known ones kept
            self.assertLessEqual(set(got), set(default))
        elif isinstance(default, bool):  # a check box's
            self.assertEqual(got, value is True or default)
        elif label in NOT_NUMBERS or not is_number(default):
            self.assertEqual(got, default)
        else:  # finite, at an end of its control's range
            self.assertTrue(math.isfinite(got))
            if limits is not None:
                self.assertIn(got, limits)

    def test_every_widget(self):
        """9 widgets, 105 settings, 4 bad values each, a fifth in the
        generator's 11; 11 bad values in the 5 kinds of settings of the
        shared helpers."""
        cases = sum(self.check_every_setting(widget_class)
                    for widget_class in WIDGETS)
        self.assertEqual(cases, 105 * 4 + 11)
        self.assertEqual(self.check_the_shared_helpers(), 11 * 5)

    def test_a_stored_nan_alpha_still_tests_significance(self):
        widget = self.create_widget(OWRelief, stored_settings={
            "alpha": math.nan, "test_significance": True})
        self.send_signal(widget.Inputs.data, Table("zoo"), widget=widget)
        self.wait_until_finished(widget=widget)
        self.assertIsNotNone(self.get_output(widget.Outputs.significance,
                                             widget=widget))
        self.assertFalse(widget.Warning.no_stir.is_shown()
                         or widget.Warning.no_test.is_shown())
        self.assertEqual(widget.scores.tested.alpha, 0.05)

    def test_options_the_test_refuses_are_named(self):
        """An option that the significance test refuses (set by a script,
        past the stored settings' checks) is named in the widget's
        warning, not taken for STIR that does not fit."""
        widget = self.create_widget(OWRelief, stored_settings={
            "test_significance": True})
        widget.alpha = math.nan
        widget.commit.now()
        self.assertIn("alpha", str(widget.Warning.no_test))
        self.assertFalse(widget.Warning.no_stir.is_shown())

    def test_generator_with_an_unknown_problem(self):
        widget = self.create_widget(OWReliefGenerator, stored_settings={
            "problem": "No such problem", "n_instances": -5,
            "n_classes": "many"})
        self.assertEqual(widget.problem, "MajorityN")
        self.assertEqual(widget.n_instances, 1)
        self.assertEqual(widget.n_classes, 2)
        self.assertIsNotNone(self.get_output(widget.Outputs.data,
                                             widget=widget))

    def test_separability_with_one_instance_and_unknown_problems(self):
        widget = self.create_widget(OWSeparability, stored_settings={
            "n_instances": 1, "problems": ["MajorityN", "Gone"],
            "k_nearest": 0})
        self.assertEqual(widget.n_instances, 10)
        self.assertEqual(widget.k_nearest, 1)
        self.assertEqual(widget.problems, ["MajorityN"])
        self.assertIsNotNone(widget.design())

    def test_relief_with_unknown_choices_and_odd_numbers(self):
        widget = self.create_widget(OWRelief, stored_settings={
            "method": "Foo", "diff": "cubic", "k_relieff": -3,
            "n_iterations": "x", "t_eq": 7.0})
        self.assertEqual((widget.method, widget.diff), ("ReliefF", "linear"))
        self.assertEqual((widget.k_relieff, widget.n_iterations), (1, 100))
        self.assertEqual(widget.t_eq, 1.0)

    def test_rfsm_with_unknown_choices(self):
        widget = self.create_widget(OWRFSM, stored_settings={
            "measure": "Foo", "search": "bar", "k_nearest": 0})
        self.assertEqual((widget.measure, widget.search),
                         ("RFSM", "greedy forward"))
        self.assertEqual(widget.k_nearest, 1)

    def test_class_dependent_knn_with_indices_out_of_range(self):
        widget = self.create_widget(OWClassDependentKNN, stored_settings={
            "method_index": 99, "update_index": 7, "k": -1})
        self.assertEqual((widget.method_index, widget.update_index),
                         (3, 1))
        self.assertEqual(widget.k, 1)

    def test_relief_selection_and_stability_out_of_range(self):
        widget = self.create_widget(OWRelief, stored_settings={
            "selection_index": 9, "select_percent": 0, "n_resamples": 1,
            "stability_k": "many"})
        self.assertEqual((widget.selection_index, widget.select_percent),
                         (3, 1))
        # a text takes the default, a number below the range its lower end
        self.assertEqual((widget.n_resamples, widget.stability_k),
                         (2, TOP_K))

    def test_selection_curve_with_unknown_choices(self):
        widget = self.create_widget(OWSelectionCurve, stored_settings={
            "method": "Gone", "score": "F1", "n_folds": 1, "keep_index": 5})
        self.assertEqual((widget.method, widget.score), ("ReliefF", "CA"))
        self.assertEqual((widget.n_folds, widget.keep_index), (2, 1))
        widget = self.create_widget(OWSelectionCurve,
                                    stored_settings={"method": TURF})
        self.assertEqual(widget.method, TURF)

    def test_consensus_with_unknown_scorers(self):
        widget = self.create_widget(OWConsensus, stored_settings={
            "orange_scorers": ["ANOVA", "Gone"]})
        self.assertEqual(widget.orange_scorers, ["ANOVA"])
