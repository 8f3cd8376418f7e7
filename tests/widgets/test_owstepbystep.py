"""The Relief, step by step widget (run with QT_QPA_PLATFORM=offscreen),
driven through its buttons as a teacher would."""
import numpy as np
from AnyQt.QtCore import QPointF
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         Table, TimeVariable)
from Orange.widgets.tests import base
from orangewidget.tests.utils import simulate

from orangecontrib.relief import Relief, ReliefF
from orangecontrib.relief.generators import parity
from orangecontrib.relief.widgets.owstepbystep import (ALL_CLASSES,
                                                       NEAREST_CLASS,
                                                       SPEEDS,
                                                       OWReliefSteps)
from orangecontrib.relief.widgets.weights import RELEVANT_MARK
from tests.core.test_ties import BY_HAND, BY_HAND_CLASS
from tests.orange.test_input_matrix import tables


def weights_by_name(table):
    """{attribute name: weight} of the widget's Weights output."""
    return dict(zip(table.get_column("attribute"),
                    table.get_column("weight")))


def expected_by_name(scorer, data):
    return {attr.name: weight
            for attr, weight in zip(data.domain.attributes, scorer(data))}


def headers(table):
    """The texts of `table`'s column headers."""
    return [table.horizontalHeaderItem(c).text()
            for c in range(table.columnCount())]


def row_names(table):
    return [table.verticalHeaderItem(r).text()
            for r in range(table.rowCount())]


def assert_one_hit_and_one_miss(step):
    """Relief's one place of each: a neighbour, or the tied ones that
    share it."""
    np.testing.assert_allclose([step.shares[step.is_hit].sum(),
                                step.shares[~step.is_hit].sum()], 1.0)


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
        self.press(self.widget.whole_button, len(self.mixed) - 2)
        self.assert_weights(ReliefF(k_nearest=3), self.mixed)

    def test_random_references_give_the_sampled_scorers_weights(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.choose_relieff(4)
        self.choose_random(7)
        self.press(self.widget.whole_button, 12)
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
        self.press(self.widget.whole_button, 9)
        self.assert_weights(Relief(n_iterations=9, random_state=3),
                            self.parity)
        assert_one_hit_and_one_miss(self.widget.steps[-1])

    def test_changing_k_recomputes_the_same_references(self):
        self.send_signal(self.widget.Inputs.data, self.mixed)
        self.choose_relieff(2)
        self.choose_random(1)
        self.press(self.widget.whole_button, 6)
        self.widget.controls.k_nearest.setValue(5)
        self.assertEqual(len(self.widget.steps), 6)
        self.assert_weights(
            ReliefF(k_nearest=5, n_iterations=6, random_state=1), self.mixed)

    def test_reset_forgets_the_steps(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.whole_button, 3)
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
        self.assertEqual(self.widget.stage, "reference")
        subset = self.get_output(self.widget.Outputs.neighbourhood)
        self.assertEqual(len(subset), 1)  # the reference
        self.press(self.widget.stage_button)  # find hits and misses
        subset = self.get_output(self.widget.Outputs.neighbourhood)
        # the reference, its hit and its miss (or the tied sharing them)
        np.testing.assert_array_equal(
            subset.ids, self.parity.ids[[10, *step.neighbours]])
        classes = subset.get_column(self.parity.domain.class_var)
        np.testing.assert_array_equal(classes[1:] == classes[0], step.is_hit)
        assert_one_hit_and_one_miss(step)
        # the plot marks the reference where the point is
        x, y = self.widget.scatter.reference_mark.getData()
        self.assertEqual((x[0], y[0]), (spot.pos().x(), spot.pos().y()))

    def test_the_weights_show_whole_short_names(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.whole_button, 1)
        ticks = self.widget.bars.getAxis("left")._tickLevels[0]
        labels = {label.lstrip(RELEVANT_MARK) for _, label in ticks}
        self.assertEqual(labels, {a.name for a in
                                  self.parity.domain.attributes})
        self.assertEqual(self.widget.bars.getAxis("bottom").labelText,
                         "weight, 1 update")

    def test_many_attributes_show_the_best_weights(self):
        """Bars for hundreds of attributes would overlap in the narrow
        panel: it shows the best ones and says so."""
        rng = np.random.default_rng(0)
        domain = Domain([ContinuousVariable(f"g{i}") for i in range(300)],
                        DiscreteVariable("c", values=("x", "y")))
        data = Table.from_numpy(domain, rng.normal(size=(30, 300)),
                                np.repeat([0.0, 1.0], 15))
        self.send_signal(self.widget.Inputs.data, data)
        self.press(self.widget.whole_button, 2)
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
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.mixed)
        self.choose_relieff(2)
        widget.controls.miss_choice.setCurrentIndex(ALL_CLASSES)
        widget.controls.miss_choice.activated.emit(ALL_CLASSES)
        self.press(widget.whole_button, 2)
        step, table = widget.steps[-1], widget.table
        n_neighbours = len(step.neighbours)
        self.assertEqual(headers(table)[n_neighbours:], ["update", "weight"])
        self.assertEqual(row_names(table)[:2], ["distance", "multiplier"])
        self.assertEqual(table.rowCount(), 2 + len(step.update))
        self.assertTrue(headers(table)[0].startswith("hit 1"))
        for number in range(n_neighbours):
            self.assertEqual(float(table.item(0, number).text()),
                             round(step.distances[number], 3))
            self.assertEqual(float(table.item(1, number).text()),
                             round(step.coefficients[number], 3))
        for a, update in enumerate(step.update):
            self.assertEqual(float(table.item(a + 2, n_neighbours).text()),
                             round(update, 3))
            self.assertEqual(float(table.item(a + 2, 1).text()),
                             round(step.diffs[a, 1], 3))
        self.assertIn("Step 2", widget.narration.text())

    def test_the_table_names_the_share_of_tied_neighbours(self):
        """k = 3: the reference's three hits at distance 1 share the two
        places after its twin's, 2/3 each, and so do its three misses at
        distance 2 after its nearest miss."""
        widget = self.widget
        nominal = [DiscreteVariable(name, values=("0", "1"))
                   for name in "abc"]
        data = Table.from_numpy(
            Domain(nominal, DiscreteVariable("cls", values=("x", "y"))),
            BY_HAND, BY_HAND_CLASS)
        self.send_signal(widget.Inputs.data, data)
        self.choose_relieff(3)
        self.press(widget.whole_button)
        shared = [header for header in headers(widget.table)
                  if header.endswith("share 2/3")]
        self.assertEqual(len(shared), 6)
        self.assertEqual(sum(h.startswith("hit") for h in shared), 3)

    def test_run_makes_one_pass_and_stops(self):
        data = self.parity[:16]
        self.send_signal(self.widget.Inputs.data, data)
        self.widget.controls.speed_index.setValue(len(SPEEDS) - 1)
        self.press(self.widget.run_button)
        self.assertTrue(self.widget.timer.isActive())
        self.assertFalse(self.widget.whole_button.isEnabled())
        self.process_events(until=lambda: not self.widget.timer.isActive())
        self.assertEqual(len(self.widget.steps), 16)
        self.assertEqual(self.widget.run_button.text(), "Run")
        self.assert_weights(Relief(), data)

    def test_stop_stops(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.run_button)
        self.press(self.widget.run_button)
        self.assertFalse(self.widget.timer.isActive())
        self.assertTrue(self.widget.whole_button.isEnabled())

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
        self.assertFalse(widget.whole_button.isEnabled())
        self.press(widget.whole_button)
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
                self.press(widget.whole_button)
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
        self.assertEqual(widget.speed_index,
                         OWReliefSteps.speed_index.default)

    def test_report_mid_lesson(self):
        self.send_signal(self.widget.Inputs.data, self.parity)
        self.press(self.widget.whole_button, 2)
        self.widget.send_report()


class TestStagesAndReadingAids(base.WidgetTest):
    """A step a stage at a time, and what each stage shows."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.parity = parity(64, seed=0)
        cls.iris = Table("iris")
        cls.mixed = mixed_table()

    def setUp(self):
        self.widget = self.create_widget(OWReliefSteps)

    def choose_misses(self, index):
        combo = self.widget.controls.miss_choice
        combo.setCurrentIndex(index)
        combo.activated.emit(index)

    def test_the_button_names_the_next_stage_and_the_update_comes_last(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        said, stages = [], []
        for _ in range(5):
            said.append(widget.stage_button.text())
            weights = self.get_output(widget.Outputs.weights)
            stages.append((widget.stage, weights is None))
            widget.stage_button.click()
        self.assertEqual(said, ["Choose a reference", "Find hits and misses",
                                "Show the diffs", "Update the weights",
                                "Choose a reference"])
        self.assertEqual(stages, [(None, True), ("reference", True),
                                  ("neighbours", True), ("diffs", True),
                                  ("update", False)])
        self.assertEqual(widget.stage, "reference")  # step 2 begun
        self.assertEqual(len(widget.steps), 2)
        self.assertEqual(widget.whole_button.text(), "Finish step")
        widget.back_button.click()  # back to step 1, complete
        self.assertEqual((len(widget.steps), widget.stage), (1, "update"))
        widget.back_button.click()
        self.assertEqual(widget.stage, "diffs")
        self.assertIsNone(self.get_output(widget.Outputs.weights))
        widget.whole_button.click()  # finishes step 1 again
        self.assertEqual((len(widget.steps), widget.stage), (1, "update"))
        self.assertIsNotNone(self.get_output(widget.Outputs.weights))

    def test_each_stage_fills_its_columns(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        widget.stage_button.click()
        step = widget.steps[-1]
        table = widget.table
        self.assertEqual(len(headers(table)), 1)
        self.assertTrue(headers(table)[0].startswith("reference"))
        values = [table.item(r, 0).text() for r in range(2, 14)]
        row = self.parity[step.reference]
        self.assertEqual(values, [var.str_val(row[var]) for var in
                                  self.parity.domain.attributes])
        self.assertTrue(table.isRowHidden(0) and table.isRowHidden(1))
        widget.stage_button.click()  # the neighbours: values, distances
        shown = len(step.neighbours)  # a hit, a miss, or the tied sharing
        self.assertEqual(len(headers(table)), 1 + shown)
        self.assertFalse(table.isRowHidden(0))
        self.assertTrue(table.isRowHidden(1))  # no multipliers yet
        self.assertEqual([float(table.item(0, c).text())
                          for c in range(1, 1 + shown)],
                         list(np.round(step.distances, 3)))
        self.assertIn("distance", widget.narration.text())
        widget.stage_button.click()  # the diffs, adding up to the distances
        diffs = np.array([[float(table.item(r, c).text())
                           for c in range(shown)] for r in range(2, 14)])
        np.testing.assert_allclose(diffs.sum(axis=0), step.distances)
        widget.stage_button.click()  # the update, beside the bars
        self.assertFalse(table.isRowHidden(1))
        right = widget.bars.getAxis("right")
        self.assertTrue(right.isVisible())
        numbers = [float(text) for _, text in right._tickLevels[0]]
        np.testing.assert_allclose(numbers, np.round(step.update, 3))
        legend = widget.bars.getPlotItem().titleLabel.text
        for mark in ("relevant", "before this update", "the update"):
            self.assertIn(mark, legend)
        widget.stage_button.click()  # the next reference: no numbers
        self.assertFalse(right.isVisible())
        self.assertNotIn("update", widget.bars.getPlotItem().titleLabel.text)

    def test_runners_up_are_the_nearest_not_chosen(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.iris)
        widget.controls.show_runners_up.click()
        self.assertTrue(widget.show_runners_up)
        widget.stage_button.click()
        widget.stage_button.click()
        step, table = widget.steps[-1], widget.table
        columns = headers(table)
        nearly = [c for c, text in enumerate(columns)
                  if text.startswith("not chosen")]
        # one per class shown: the hits' and the nearest class's misses'
        self.assertEqual(len(nearly), 2)
        for column in nearly:
            row = int(columns[column].split("row ")[1]) - 1
            i = list(step.runners_up).index(row)
            self.assertEqual(float(table.item(0, column).text()),
                             round(step.runner_up_distances[i], 3))
        self.assertEqual(len(widget.scatter.runner_marks.points()), 2)
        self.assertIn("next nearest, not chosen",
                      widget.legend_strip.text())

    def test_one_miss_class_at_a_time(self):
        """Iris with k = 3: three hits and three misses of each other
        class; the views show the misses of one class, and the update's
        part from the others stands in a column of its own."""
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.iris)
        self.assertTrue(widget.miss_combo.isEnabled())
        self.assertEqual(widget.miss_combo.count(), 3 + 3)
        self.choose_misses(NEAREST_CLASS)
        widget.whole_button.click()
        step, table = widget.steps[-1], widget.table
        misses = ~step.is_hit
        nearest = step.classes[misses][np.argmin(step.distances[misses])]
        columns = headers(table)
        self.assertEqual(sum(c.startswith("miss") for c in columns), 3)
        self.assertIn("other\nmisses", columns)
        self.assertEqual(len(widget.scatter.neighbour_marks.points()), 6)
        shown = step.is_hit | (step.classes == nearest)
        other = columns.index("other\nmisses")
        for a in range(4):
            part = step.diffs[a, shown] @ step.coefficients[shown]
            self.assertAlmostEqual(
                part + float(table.item(a + 2, other).text()),
                step.update[a], delta=2e-3)
        self.choose_misses(ALL_CLASSES)
        columns = headers(table)
        self.assertEqual(sum(c.startswith("miss") for c in columns), 6)
        self.assertNotIn("other\nmisses", columns)
        self.assertEqual(len(widget.scatter.neighbour_marks.points()), 9)
        # the first miss of each class names it
        self.assertEqual(sum(c.count("\n") == 2 for c in columns), 2)
        widget.choose_reference(0)
        widget.stage_button.click()  # its hits and misses
        self.choose_misses(ALL_CLASSES + 1 + widget.steps[-1].classes[0])
        columns = headers(table)  # the reference's own class: hits only
        self.assertEqual(sum(c.startswith("miss") for c in columns), 0)
        self.assertEqual(sum(c.startswith("hit") for c in columns), 3)
        self.assertIn("reference's own", widget.narration.text())

    def test_hovering_a_point_tells_its_row_and_values(self):
        self.send_signal(self.widget.Inputs.data, self.iris)
        scatter = self.widget.scatter
        tip = scatter.points.opts["tip"](x=0, y=0, data=3)
        self.assertTrue(tip.startswith("row 4, class Iris-setosa"))
        self.assertIn("petal length = 1.5", tip)

    def test_the_weight_axis_can_stay_still(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        ranges = []
        for _ in range(3):
            widget.whole_button.click()
            ranges.append(widget.bars.viewRange()[0])
        self.assertTrue(widget.fixed_axis)
        for low, high in ranges:
            self.assertLessEqual(low, -1)
            self.assertGreaterEqual(high, 1)
            self.assertAlmostEqual(high - low, ranges[0][1] - ranges[0][0])
        widget.controls.fixed_axis.click()
        low, high = widget.bars.viewRange()[0]
        weights = widget.stepper.weights(widget.lesson.applied)
        self.assertLess(high - low, 1.5 * (weights.max() - weights.min()))

    def test_presentation_size_enlarges_texts_and_marks(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        widget.whole_button.click()
        before = (widget.table.font().pointSizeF(),
                  widget.scatter.points.opts["size"],
                  widget.scatter.getAxis("bottom").style["tickFont"])
        widget.controls.presentation.click()
        self.assertGreater(widget.table.font().pointSizeF(), before[0])
        self.assertGreater(widget.scatter.points.opts["size"], before[1])
        self.assertGreater(
            widget.scatter.getAxis("bottom").style["tickFont"].pointSizeF(),
            before[0])
        self.assertGreater(
            widget.bars.getAxis("left").style["tickFont"].pointSizeF(),
            before[0])

    def test_one_row_gives_readable_ticks(self):
        one = self.iris[:1]
        self.send_signal(self.widget.Inputs.data, one)
        self.assertTrue(self.widget.Error.relief.is_shown())  # one class
        axis = self.widget.scatter.getAxis("bottom")
        low, high = self.widget.scatter.viewRange()[0]
        self.assertGreaterEqual(high - low, 0.9)
        levels = axis.tickValues(low, high, 400)
        labels = [label for spacing, values in levels
                  for label in axis.tickStrings(values, 1, spacing)]
        self.assertTrue(labels)
        self.assertTrue(all(len(label) <= 4 for label in labels), labels)

    def test_the_shaded_distances_hold_every_neighbour(self):
        """The projected distances are regions of the plot: every shown
        hit lies in the hits' region and every miss in the misses'."""
        widget = self.widget
        for data, x, y in ((self.iris, "petal length", "sepal width"),
                           (self.parity, "x1", "irr1"),
                           (self.mixed, "b", "a")):
            self.send_signal(widget.Inputs.data, data)
            widget.attr_x = data.domain[x]
            widget.attr_y = data.domain[y]
            widget._plot()
            for reference in (0, 5, 17):
                widget.choose_reference(reference)
                widget.stage_button.click()
                step = widget.steps[-1]
                px, py = widget._coordinates()
                hits, misses = widget._reaches(step, widget._shown(step))
                if hits is None:  # the reference is not plotted
                    continue
                shown = widget._shown(step)
                row = data[widget.input_rows[step.reference]]
                centre = np.array([float(row[x]), float(row[y])])
                for j, hit in zip(step.neighbours[shown],
                                  step.is_hit[shown]):
                    if np.isnan(px[j] + py[j]):
                        continue
                    # a neighbour that differs only in the plotted
                    # attributes lies on the edge: look a hair inside
                    inside = centre + (np.array([px[j], py[j]]) - centre) \
                        * (1 - 1e-9)
                    region = hits if hit else misses
                    self.assertTrue(region.contains(QPointF(*inside)),
                                    (x, y, reference, j))

    def test_the_report_keeps_the_headers_lines(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.parity)
        widget.whole_button.click()
        widget.report_html = ""
        widget.send_report()
        self.assertIn("hit 1<br/>row", widget.report_html)
        self.assertIn("update", widget.report_html)


def with_absent_classes(data, declared):
    """`data` whose class declares the values `declared`, a superset of
    its own, in this order (some no instance has)."""
    class_var = data.domain.class_var
    codes = [declared.index(value) for value in class_var.values]
    y = np.array([np.nan if np.isnan(v) else codes[int(v)] for v in data.Y])
    domain = Domain(data.domain.attributes,
                    DiscreteVariable(class_var.name, values=declared))
    return Table.from_numpy(domain, data.X, y)


class TestAbsentClassValues(base.WidgetTest):
    """A class declaring values no instance has: the steps number the
    classes present, the views name them by the data's values."""

    def setUp(self):
        self.widget = self.create_widget(OWReliefSteps)

    def named_classes(self):
        """(the class each neighbour column's tooltip names, the class of
        its row in the data) of the current step's table."""
        table, widget = self.widget.table, self.widget
        class_var = widget.data.domain.class_var
        pairs = []
        for c in range(table.columnCount()):
            header = table.horizontalHeaderItem(c)
            if header.text().startswith(("hit", "miss", "not chosen")):
                row = int(header.text().split("row ")[1].split()[0]) - 1
                named = header.toolTip().split("class ")[1].split(",")[0]
                pairs.append((named.split(" that")[0],
                              class_var.str_val(widget.data[row][class_var])))
        return pairs

    def test_relief_runs_on_two_classes_present_of_three(self):
        widget = self.widget
        two = parity(20, seed=1)  # classes 0 and 1, declared as 0, x, 1
        declared = with_absent_classes(two, ["0", "x", "1"])
        self.send_signal(widget.Inputs.data, declared)
        self.assertTrue(widget.variant_buttons.buttons[0].isEnabled())
        self.assertEqual(widget.variant_index, 0)  # Relief, kept
        self.assertEqual(widget.miss_combo.count(), 3 + 2)
        widget.show_runners_up = True  # their columns name classes too
        for _ in range(len(two)):
            widget.whole_button.click()
            assert_one_hit_and_one_miss(widget.steps[-1])
            pairs = self.named_classes()
            self.assertTrue(pairs)
            self.assertEqual([named for named, _ in pairs],
                             [own for _, own in pairs])
        on_declared = self.get_output(widget.Outputs.weights)
        self.send_signal(widget.Inputs.data, two)
        self.press_whole(len(two))
        self.assertEqual(list(on_declared.get_column("weight")),
                         list(self.get_output(
                             widget.Outputs.weights).get_column("weight")))

    def press_whole(self, times):
        for _ in range(times):
            self.widget.whole_button.click()

    def test_relieff_names_the_classes_present_of_four(self):
        widget = self.widget
        iris = Table("iris")
        declared = with_absent_classes(
            iris, ["Iris-setosa", "none", "Iris-versicolor",
                   "Iris-virginica"])
        self.send_signal(widget.Inputs.data, declared)
        self.assertEqual(widget.variant_index, 1)  # ReliefF: three present
        self.assertFalse(widget.variant_buttons.buttons[0].isEnabled())
        self.assertEqual(widget.miss_combo.count(), 3 + 3)
        widget.controls.miss_choice.setCurrentIndex(ALL_CLASSES)
        widget.controls.miss_choice.activated.emit(ALL_CLASSES)
        for reference in (0, 60, 120):  # one of each class
            widget.choose_reference(reference)
            widget.whole_button.click()
            pairs = self.named_classes()
            self.assertEqual(len(pairs), 3 * 3)  # k hits and misses
            self.assertEqual([named for named, _ in pairs],
                             [own for _, own in pairs])

    def test_a_stored_miss_choice_that_is_no_number_opens(self):
        """The miss choice is stored with the domain: a NaN, text or a
        choice out of range brought back with it gives the nearest class
        or the nearest valid choice."""
        widget, iris = self.widget, Table("iris")
        for stored, expected in ((float("nan"), 0), ("all", 0), (99, 5),
                                 (-3, 0)):
            self.send_signal(widget.Inputs.data, iris)
            widget.miss_choice = stored
            self.send_signal(widget.Inputs.data, parity(20, seed=0))
            self.send_signal(widget.Inputs.data, iris)  # its context back
            self.assertEqual(widget.miss_choice, expected)
            widget.whole_button.click()
