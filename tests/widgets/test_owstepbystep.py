"""The Relief, step by step widget (run with QT_QPA_PLATFORM=offscreen),
driven through its buttons as a teacher would."""
import numpy as np
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         Table, TimeVariable)
from Orange.widgets.tests import base
from orangewidget.tests.utils import simulate

from orangecontrib.relief import Relief, ReliefF
from orangecontrib.relief.generators import parity
from orangecontrib.relief.widgets.owstepbystep import OWReliefSteps
from orangecontrib.relief.widgets.weights import RELEVANT_MARK
from tests.orange.test_input_matrix import tables


def weights_by_name(table):
    """{attribute name: weight} of the widget's Weights output."""
    return dict(zip(table.get_column("attribute"),
                    table.get_column("weight")))


def expected_by_name(scorer, data):
    return {attr.name: weight
            for attr, weight in zip(data.domain.attributes, scorer(data))}


def mixed_table(n=45, seed=0):
    """Three classes, numeric and nominal attributes, missing values (also
    of the class)."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.random(n), rng.integers(0, 3, n),
                         rng.random(n) * 4, rng.integers(0, 2, n)]).astype(float)
    X[rng.random(X.shape) < 0.1] = np.nan
    y = rng.integers(0, 3, n).astype(float)
    y[[4, 20]] = np.nan
    domain = Domain([ContinuousVariable("a"),
                     DiscreteVariable("b", values=("p", "q", "r")),
                     ContinuousVariable("c"),
                     DiscreteVariable("d", values=("no", "yes"))],
                    DiscreteVariable("cls", values=("x", "y", "z")))
    return Table.from_numpy(domain, X, y)


class TestOWReliefSteps(base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.parity = parity(64, seed=0)
        cls.mixed = mixed_table()

    def setUp(self):
        self.widget = self.create_widget(OWReliefSteps)

    def press(self, button, times=1):
        for _ in range(times):
            button.click()

    def choose_relieff(self, k):
        self.widget.variant_buttons.buttons[1].click()
        self.widget.controls.k_nearest.setValue(k)

    def choose_random(self, seed):
        self.widget.controls.sampled.buttons[1].click()
        self.widget.controls.random_seed.setValue(seed)

    def assert_weights(self, scorer, data, exact=True):
        got = weights_by_name(self.get_output(self.widget.Outputs.weights))
        expected = expected_by_name(scorer, data)
        self.assertEqual(got.keys(), expected.keys())
        for name, weight in expected.items():
            if exact:
                self.assertEqual(got[name], weight, name)
            else:
                self.assertAlmostEqual(got[name], weight, delta=1e-12)

    def test_a_pass_in_order_gives_the_relieff_scorers_weights(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.choose_relieff(3)
        self.press(self.widget.step_button, len(self.mixed) - 2)
        self.assert_weights(ReliefF(k_nearest=3), self.mixed)

    def test_random_references_give_the_sampled_scorers_weights(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.choose_relieff(4)
        self.choose_random(7)
        self.press(self.widget.step_button, 12)
        self.assert_weights(
            ReliefF(k_nearest=4, n_iterations=12, random_state=7),
            self.mixed)
        self.press(self.widget.back_button)
        self.assert_weights(
            ReliefF(k_nearest=4, n_iterations=11, random_state=7),
            self.mixed)

    def test_relief_on_two_classes(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.assertEqual(self.widget.variant_index, 0)
        self.choose_random(3)
        self.press(self.widget.step_button, 9)
        self.assert_weights(Relief(n_iterations=9, random_state=3),
                            self.parity)
        step = self.widget.steps[-1]
        self.assertEqual((len(step.hits), len(step.misses)), (1, 1))

    def test_changing_k_recomputes_the_same_references(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.choose_relieff(2)
        self.choose_random(1)
        self.press(self.widget.step_button, 6)
        self.widget.controls.k_nearest.setValue(5)
        self.assertEqual(len(self.widget.steps), 6)
        self.assert_weights(
            ReliefF(k_nearest=5, n_iterations=6, random_state=1), self.mixed)

    def test_reset_forgets_the_steps(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.step_button, 3)
        self.assertIsNotNone(self.get_output(self.widget.Outputs.weights))
        self.press(self.widget.reset_button)
        self.assertEqual(self.widget.steps, [])
        self.assertIsNone(self.get_output(self.widget.Outputs.weights))
        self.assertIsNone(self.get_output(self.widget.Outputs.neighbourhood))
        self.assertEqual(self.widget.table.rowCount(), 0)
        self.assertFalse(self.widget.back_button.isEnabled())

    def test_clicking_a_point_makes_it_the_reference(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        points = self.widget.scatter.points
        spot = next(p for p in points.points() if p.data() == 10)
        points.sigClicked.emit(points, [spot], None)
        step = self.widget.steps[-1]
        self.assertEqual(step.reference, 10)
        subset = self.get_output(self.widget.Outputs.neighbourhood)
        self.assertEqual(len(subset), 3)  # the reference, a hit and a miss
        np.testing.assert_array_equal(
            subset.ids, self.parity.ids[[10, *step.neighbours]])
        classes = subset.get_column(self.parity.domain.class_var)
        self.assertEqual(classes[1], classes[0])
        self.assertNotEqual(classes[2], classes[0])
        # the plot marks the reference where the point is
        x, y = self.widget.scatter.reference_mark.getData()
        self.assertEqual((x[0], y[0]), (spot.pos().x(), spot.pos().y()))

    def test_the_weights_show_whole_short_names(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.step_button, 1)
        ticks = self.widget.bars.getAxis("left")._tickLevels[0]
        labels = {label.lstrip(RELEVANT_MARK) for _, label in ticks}
        self.assertEqual(labels, {a.name for a in
                                  self.parity.domain.attributes})
        self.assertEqual(self.widget.bars.getAxis("bottom").labelText,
                         "weight, 1 step(s)")

    def test_many_attributes_show_the_best_weights(self):
        """Bars for hundreds of attributes would overlap in the narrow
        panel: it shows the best ones and says so."""
        rng = np.random.default_rng(0)
        domain = Domain([ContinuousVariable(f"g{i}") for i in range(300)],
                        DiscreteVariable("c", values=("x", "y")))
        data = Table.from_numpy(domain, rng.normal(size=(30, 300)),
                                np.repeat([0.0, 1.0], 15))
        self.send_signal(self.widget.Inputs.data, data)
        self.press(self.widget.step_button, 2)
        weights = weights_by_name(self.get_output(self.widget.Outputs.weights))
        self.assertEqual(len(weights), 300)  # the output keeps them all
        ticks = self.widget.bars.getAxis("left")._tickLevels[0]
        best = sorted(weights, key=weights.get, reverse=True)[:len(ticks)]
        self.assertLessEqual(len(ticks), 20)
        self.assertEqual([label for _, label in ticks], best)
        self.assertIn("best 20 of 300",
                      self.widget.bars.getAxis("bottom").labelText)
        self.widget.send_report()

    def test_the_table_shows_the_steps_diffs_and_update(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.choose_relieff(2)
        self.press(self.widget.step_button, 2)
        step, table = self.widget.steps[-1], self.widget.table
        n_neighbours = len(step.neighbours)
        self.assertEqual(table.columnCount(), n_neighbours + 2)
        self.assertEqual(table.rowCount(), 1 + len(step.update))
        self.assertTrue(table.horizontalHeaderItem(0).text().startswith("hit"))
        self.assertEqual(float(table.item(0, 0).text()),
                         round(step.coefficients[0], 3))
        for a, update in enumerate(step.update):
            self.assertEqual(float(table.item(a + 1, n_neighbours).text()),
                             round(update, 3))
            self.assertEqual(float(table.item(a + 1, 1).text()),
                             round(step.diffs[a, 1], 3))
        self.assertIn("Step 2", self.widget.step_label.text())

    def test_run_makes_one_pass_and_stops(self):
        data = self.parity[:16]
        self.send_signal(self.widget.Inputs.data, data)
        self.widget.controls.speed_index.setCurrentIndex(2)
        self.widget.speed_index = 2
        self.press(self.widget.run_button)
        self.assertTrue(self.widget.timer.isActive())
        self.assertFalse(self.widget.step_button.isEnabled())
        self.process_events(until=lambda: not self.widget.timer.isActive(),
                            timeout=20000)
        self.assertEqual(len(self.widget.steps), 16)
        self.assertEqual(self.widget.run_button.text(), "Run")
        self.assert_weights(Relief(), data)

    def test_stop_stops(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.run_button)
        self.press(self.widget.run_button)
        self.assertFalse(self.widget.timer.isActive())
        self.assertTrue(self.widget.step_button.isEnabled())

    def test_relief_is_off_for_three_classes(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.assertEqual(self.widget.variant_index, 1)
        self.assertFalse(self.widget.variant_buttons.buttons[0].isEnabled())
        self.assertTrue(self.widget.Warning.missing_class.is_shown())
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.assertTrue(self.widget.variant_buttons.buttons[0].isEnabled())
        self.assertFalse(self.widget.Warning.missing_class.is_shown())

    def test_relief_given_way_to_relieff_comes_back(self):
        widget = self.widget
        self.assertEqual(widget.variant_index, 0)  # Relief
        self.send_signal(widget.Inputs.data, self.mixed)  # three classes
        self.assertEqual(widget.variant_index, 1)
        self.send_signal(widget.Inputs.data, self.parity)
        self.assertEqual(widget.variant_index, 0)
        self.send_signal(widget.Inputs.data, self.mixed)
        widget.variant_buttons.buttons[1].click()  # ReliefF, chosen: it stays
        self.send_signal(widget.Inputs.data, self.parity)
        self.assertEqual(widget.variant_index, 1)

    def test_a_time_attribute_is_plotted_as_dates(self):
        domain = Domain([TimeVariable("when", have_date=True),
                         ContinuousVariable("x")],
                        DiscreteVariable("c", values=("a", "b")))
        rng = np.random.default_rng(0)
        seconds = rng.uniform(1.6e9, 1.7e9, 40)  # 2020 .. 2023
        data = Table.from_numpy(domain, np.column_stack(
            [seconds, rng.random(40)]), rng.integers(0, 2, 40))
        self.send_signal(self.widget.Inputs.data, data)
        bottom, left = (self.widget.scatter.getAxis(side)
                        for side in ("bottom", "left"))
        self.assertEqual(self.widget.attr_x.name, "when")
        self.assertTrue(bottom.is_time())
        self.assertFalse(left.is_time())
        (spacing, ticks), = bottom.tickValues(seconds.min(), seconds.max(),
                                              400)
        labels = bottom.tickStrings(ticks, 1, spacing)
        self.assertTrue(labels and all(label.startswith("202")
                                       for label in labels), labels)
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.assertFalse(bottom.is_time())
        self.assertFalse(bottom.autoSIPrefix)

    def test_data_it_cannot_use_shows_an_error(self):
        widget = self.widget
        no_class = self.parity.transform(
            Domain(self.parity.domain.attributes))
        self.send_signal(widget.Inputs.data, no_class)
        self.assertTrue(widget.Error.no_class.is_shown())
        numeric = Table.from_numpy(
            Domain([ContinuousVariable("a")], ContinuousVariable("t")),
            np.arange(5.0)[:, None], np.arange(5.0))
        self.send_signal(widget.Inputs.data, numeric)
        self.assertTrue(widget.Error.numeric_class.is_shown())
        self.assertFalse(widget.Error.no_class.is_shown())
        one_class = self.parity[self.parity.Y == 0]
        self.send_signal(widget.Inputs.data, one_class)
        self.assertTrue(widget.Error.relief.is_shown())
        self.assertIn("single class", str(widget.Error.relief))
        self.assertFalse(widget.step_button.isEnabled())
        self.press(widget.step_button)
        self.assertIsNone(self.get_output(widget.Outputs.weights))
        self.send_signal(widget.Inputs.data, self.parity[:0])
        self.assertTrue(widget.Error.relief.is_shown())
        self.send_signal(widget.Inputs.data, None)
        self.assertFalse(widget.Error.active)

    def test_every_bad_table_gives_a_step_or_a_message(self):
        widget = self.widget
        for case, data in tables().items():
            with self.subTest(case=case):
                self.send_signal(widget.Inputs.data, data)
                self.press(widget.step_button)
                shown = list(widget.Error.active) + list(widget.Warning.active)
                weights = self.get_output(widget.Outputs.weights)
                self.assertTrue(shown or weights is not None, case)

    def test_attribute_choices_are_remembered_per_domain(self):
        domain = self.parity.domain
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.assertEqual((self.widget.attr_x, self.widget.attr_y),
                         (domain["x1"], domain["x2"]))
        simulate.combobox_activate_item(self.widget.controls.attr_y, "irr1")
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.assertEqual(self.widget.attr_x.name, "a")
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.assertEqual(self.widget.attr_y, domain["irr1"])

    def test_points_with_missing_coordinates_are_not_drawn(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        x, y = self.widget._coordinates()
        drawn = len(self.widget.scatter.points.points())
        self.assertEqual(drawn, (~(np.isnan(x) | np.isnan(y))).sum())
        self.assertLess(drawn, len(self.mixed) - 2)
        self.assertTrue(self.widget.Information.not_plotted.is_shown())

    def test_odd_stored_settings_open(self):
        widget = self.create_widget(OWReliefSteps, stored_settings={
            "variant_index": 7, "k_nearest": -2, "speed_index": "fast"})
        self.assertEqual(widget.variant_index, 1)
        self.assertEqual(widget.k_nearest, 1)
        self.assertEqual(widget.speed_index, 0)

    def test_report_mid_lesson(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.step_button, 2)
        self.widget.send_report()
