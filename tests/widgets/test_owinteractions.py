"""The Interactions widget (run with QT_QPA_PLATFORM=offscreen)."""
import subprocess
import sys
import threading
import unittest
from unittest.mock import patch

import numpy as np
from AnyQt.QtCore import Qt
from AnyQt.QtTest import QTest
from AnyQt.QtWidgets import QApplication
import pyqtgraph as pg
from AnyQt.QtCore import QPointF
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         Table)
from Orange.widgets.tests import base

from orangecontrib.relief.core.networks.neighbour_pairs import (
    METHODS as PAIR_METHODS)
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.datasets import path
from orangecontrib.relief.generators import xor
from orangecontrib.relief.interactions import (MAP_METHODS, interactions,
                                               pairs_table)
from orangecontrib.relief.regain import (best_attributes, ranking_table,
                                         regain_network, regain_pairs_table)
from orangecontrib.relief.variants import METHODS
from orangecontrib.relief.widgets import interaction_plots, owinteractions
from orangecontrib.relief.widgets.owinteractions import OWInteractions
from tests.widgets.widget_helpers import (FakeState, SendAndWaitMixin,
                                          choose)


def table_values(table):
    """The pairs of a pairs table: its names and numbers, row by row."""
    return [tuple(row.metas) + tuple(row.x) for row in table]


class TestOWInteractions(SendAndWaitMixin, base.WidgetTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.heart = Table(path("heart_disease"))
        cls.cpu = Table(path("cpu"))
        cls.zoo = Table(path("zoo"))
        # the class is a0 xor a1; a2 .. a9 are noise
        cls.xor = xor(80, n_relevant=2, n_irrelevant=8, seed=2)

    def setUp(self):
        self.widget = self.create_widget(OWInteractions)

    def pairs(self):
        return self.get_output(self.widget.Outputs.pairs)

    def click(self, row, column):
        """Click cell (row, column) of the heat map as a person does."""
        heat_map = self.widget.heat_map
        self.widget.resize(self.widget.sizeHint())
        self.widget.show()  # laid out: the cells have their places
        QApplication.processEvents()
        point = heat_map.mapFromScene(heat_map.cell_centre(row, column))
        QTest.mouseClick(heat_map.viewport(), Qt.LeftButton, pos=point)

    def shown_names(self):
        return [self.widget.found.variables[i].name
                for i in self.widget.order]

    def test_the_map_is_the_scripts(self):
        """The Interactions output and the map equal the script's, for a
        categorical class (tested) and a numeric one (untested), with the
        options of the controls."""
        for data, method, options in (
                (self.heart, "ReliefF", dict(method="relieff", k_nearest=10,
                                             ties="share")),
                (self.heart, "MultiSURF", dict(method="multisurf")),
                (self.cpu, "RReliefF", dict(method="relieff", k_nearest=50,
                                            ties="share", test=None))):
            with self.subTest(method=method):
                choose(self.widget.method_combo, method)
                self.send_and_wait(data)
                self.assertEqual(self.widget.method, method)
                n_attributes = len(data.domain.attributes)
                expected = interactions(data, top_k=n_attributes, **options)
                np.testing.assert_array_equal(
                    self.widget.found.map.interaction,
                    expected.map.interaction)
                np.testing.assert_array_equal(self.widget.found.map.q,
                                              expected.map.q)
                np.testing.assert_equal(table_values(self.pairs()),
                                        table_values(pairs_table(expected)))

    def test_regain_is_the_scripts(self):
        """reGAIN's map, its pairs and its ranking by either centrality
        equal the script's: the best K attributes by the Relief method's
        weights, then their network; the test's choice is hidden."""
        widget = self.widget
        choose(widget.kind_combo, "regain")
        self.assertFalse(widget.test_combo.isVisibleTo(widget))
        self.assertTrue(widget.regain_box.isVisibleTo(widget))
        widget.top_k, widget.k_relieff = 6, 5
        self.send_and_wait(self.heart)
        attributes = best_attributes(self.heart, 6, k_nearest=5)
        expected = regain_network(self.heart, attributes=attributes)
        self.assertEqual(widget.found.variables, expected.variables)
        np.testing.assert_array_equal(widget.view.matrix,
                                      expected.network.statistic)
        np.testing.assert_equal(
            table_values(self.pairs()),
            table_values(regain_pairs_table(expected)))
        ranking = self.get_output(widget.Outputs.ranking)
        np.testing.assert_equal(table_values(ranking),
                                table_values(ranking_table(expected)))
        choose(widget.centrality_combo, "EpistasisKatz")
        ranking = self.get_output(widget.Outputs.ranking)
        katz = np.abs(ranking.get_column("EpistasisKatz"))
        self.assertTrue(np.all(katz[:-1] >= katz[1:]))
        self.assertIn("reGAIN", widget.legend.text())
        self.assertIn("z = ", widget.pair_caption.text())
        self.assertIn("EpistasisKatz", widget._tooltips()[0][0])
        widget.send_report()
        # a numeric class: linear fits; three classes: refused by name
        self.send_and_wait(self.cpu)
        self.assertFalse(widget.Error.active)
        self.assertEqual(widget.found.network.regression, "linear")
        self.send_and_wait(self.zoo)
        self.assertTrue(widget.Error.map.is_shown())
        self.assertIn("two values", str(widget.Error.map))
        self.assertIsNone(self.get_output(widget.Outputs.ranking))
        # back to the Relief map: its ranking is the weights
        choose(widget.kind_combo, "relief")
        self.send_and_wait(self.xor)
        ranking = self.get_output(widget.Outputs.ranking)
        self.assertEqual([str(name) for name in ranking.get_column(
            "attribute")], [var.name for var in widget.found.variables])

    def test_regain_covariates_are_the_meta_attributes(self):
        """The numeric and categorical meta attributes enter every model
        when asked, and a note says which (or that they could)."""
        domain = self.heart.domain
        covariates = [domain["age"], domain["gender"]]
        data = self.heart.transform(Domain(
            [var for var in domain.attributes if var not in covariates],
            domain.class_var, covariates))
        widget = self.widget
        widget.map_kind, widget.top_k = "regain", 5
        self.send_and_wait(data)
        note = widget.Information.covariates
        self.assertTrue(note.is_shown())
        self.assertIn("could enter", str(note))
        widget.controls.covariates.click()
        self.wait_until_finished()
        self.assertIn("age, gender", str(note))
        attributes = best_attributes(data, 5)
        expected = regain_network(data, attributes=attributes,
                                  covariates=covariates)
        np.testing.assert_array_equal(widget.found.network.statistic,
                                      expected.network.statistic)
        self.assertIn("covariates age, gender", widget.legend.text())
        widget.controls.main_effects.click()
        self.wait_until_finished()
        expected = regain_network(data, attributes=attributes,
                                  covariates=covariates, main_effects=False)
        np.testing.assert_array_equal(widget.found.network.statistic,
                                      expected.network.statistic)
        choose(widget.kind_combo, "relief")  # no note on the Relief map
        self.assertFalse(note.is_shown())

    def test_k_top_k_and_absolute_reach_the_map(self):
        widget = self.widget
        widget.k_relieff, widget.top_k, widget.absolute = 5, 4, True
        self.send_and_wait(self.heart)
        expected = interactions(self.heart, top_k=4, k_nearest=5,
                                absolute=True)
        self.assertEqual(widget.found.variables, expected.variables)
        np.testing.assert_array_equal(widget.found.map.interaction,
                                      expected.map.interaction)
        self.assertEqual(len(self.pairs()), 6)

    def test_the_xor_pair_comes_first_and_a_click_outputs_a_pair(self):
        self.send_and_wait(self.xor)
        first = self.pairs()[0]
        self.assertEqual({str(first["attribute 1"]),
                          str(first["attribute 2"])}, {"a0", "a1"})
        # the strongest pair is chosen at first
        selected = self.get_output(self.widget.Outputs.selected_data)
        self.assertEqual({var.name for var in selected.domain.attributes},
                         {"a0", "a1"})
        names = self.shown_names()
        # the two XOR bits stand together in the clustered order
        self.assertEqual(abs(names.index("a0") - names.index("a1")), 1)
        row, column = names.index("a1"), names.index("a0")
        self.click(row, column)
        selected = self.get_output(self.widget.Outputs.selected_data)
        self.assertEqual([var.name for var in selected.domain.attributes],
                         ["a0", "a1"])
        self.assertEqual(selected.domain.class_var,
                         self.xor.domain.class_var)
        np.testing.assert_array_equal(selected.X, self.xor[:, ["a0", "a1"]].X)
        # another cell: its column's attribute first, its row's second
        row, column = names.index("a7"), names.index("a3")
        self.click(row, column)
        selected = self.get_output(self.widget.Outputs.selected_data)
        self.assertEqual([var.name for var in selected.domain.attributes],
                         ["a3", "a7"])
        self.assertEqual(self.widget.selected_pair, ("a3", "a7"))
        self.assertEqual(self.widget.pair_plot.getAxis("bottom").labelText,
                         "a3")
        # the diagonal is no pair
        self.click(row, row)
        self.assertEqual(self.widget.selected_pair, ("a3", "a7"))

    def test_two_discrete_attributes_show_a_mosaic(self):
        """A pair of discrete attributes: a cell per pair of values, as wide
        and high as its counts, split by class and saying its counts; a
        numeric attribute in the pair: the scatter plot."""
        self.send_and_wait(self.xor)
        names = self.shown_names()
        self.click(names.index("a1"), names.index("a0"))
        plot = self.widget.pair_plot
        a0, a1 = self.xor.get_column("a0"), self.xor.get_column("a1")
        classes = self.xor.Y
        self.assertEqual(len(plot.cells), 4)
        for cell in plot.cells:
            members = (a0 == cell.first) & (a1 == cell.second)
            np.testing.assert_array_equal(cell.counts,
                                          np.flatnonzero(members))
            # an XOR: every cell holds one class, drawn in one stripe
            self.assertEqual(len(set(classes[members])), 1)
            self.assertAlmostEqual(cell.width, np.mean(a0 == cell.first)
                                   * (1 - interaction_plots.MOSAIC_GAP),
                                   places=12)
        tip = plot.cell_tips[0]
        self.assertTrue(tip.startswith(
            f"a0 = 0, a1 = 0: {len(plot.cells[0].counts)} instances"))
        self.assertIn("class = 0: ", tip)
        self.assertEqual(plot.getAxis("bottom").labelText, "a0")
        cell = plot.cells[3]
        centre = plot.getViewBox().mapViewToScene(QPointF(
            cell.left + cell.width / 2, cell.bottom + cell.height / 2))
        self.assertEqual(plot.cell_at(centre), 3)
        # a numeric attribute in the pair: points
        choose(self.widget.method_combo, "ReliefF")
        self.send_and_wait(self.heart)
        self.widget._choose_pair(*[
            [var.name for var in self.widget.found.variables].index(name)
            for name in ("chest pain", "age")])
        self.assertEqual(plot.cells, [])
        self.assertTrue(any(isinstance(item, pg.ScatterPlotItem)
                            for item in plot.getPlotItem().items))

    def test_a_mosaic_of_a_numeric_class_and_of_missing_values(self):
        """Cells coloured by the mean target; instances without a value of
        the pair or the class left out; an empty cell has no stripe."""
        domain = Domain([DiscreteVariable("p", ("a", "b")),
                         DiscreteVariable("q", ("x", "y", "z"))],
                        ContinuousVariable("t"))
        data = Table.from_numpy(
            domain, np.array([[0, 0], [0, 0], [0, 1], [1, 2], [1, np.nan],
                              [0, 1]], float),
            np.array([1.0, 3.0, 5.0, 7.0, 9.0, np.nan]))
        plot = self.widget.pair_plot
        plot.set_pair(data, domain["p"], domain["q"])
        self.assertEqual([len(cell.counts) for cell in plot.cells],
                         [2, 1, 0, 0, 0, 1])
        usable = 1 - 2 * interaction_plots.MOSAIC_GAP
        np.testing.assert_allclose(
            [(cell.width, cell.height) for cell in plot.cells],
            [(0.75 * (1 - interaction_plots.MOSAIC_GAP), share * usable)
             for share in (2 / 3, 1 / 3, 0)]
            + [(0.25 * (1 - interaction_plots.MOSAIC_GAP), share * usable)
               for share in (0, 0, 1)])
        self.assertEqual(plot.cell_tips[0],
                         "p = a, q = x: 2 instances\nt: mean 2")
        self.assertEqual(interaction_plots.stripes(
            plot.cells[2], data.Y[[0, 1, 2]], domain.class_var), [])


    def test_cells_say_their_pair_and_its_numbers(self):
        self.send_and_wait(self.xor)
        names = self.shown_names()
        heat_map = self.widget.heat_map
        row, column = names.index("a1"), names.index("a0")
        text = heat_map.tooltip_at(heat_map.cell_centre(row, column))
        result = self.widget.found.map
        a0, a1 = (self.widget.found.variables.index(self.xor.domain[name])
                  for name in ("a0", "a1"))
        self.assertTrue(text.startswith("a1 \u00d7 a0"), text)
        for number in (result.interaction[a0, a1],
                       result.co_difference[a0, a1]):
            self.assertIn(f"{number:.4g}", text)
        self.assertIn(f"t = {result.statistic[a0, a1]:.3g}", text)
        self.assertIn(f"q = {result.q[a0, a1]:.3g}", text)
        self.assertIn("weight", heat_map.tooltip_at(
            heat_map.cell_centre(row, row)))
        # the marks are the pairs of q <= alpha, and the legend says so
        marked = len(heat_map.marks.data)
        self.assertEqual(marked, 2 * np.sum(np.triu(result.q <= 0.05, 1)))
        self.assertIn(f"({marked // 2} marked", self.widget.legend.text())
        self.assertIn("q \u2264 0.05", self.widget.legend.text())
        self.widget.controls.alpha.setValue(1e-4)
        self.assertLess(len(heat_map.marks.data), marked)

    def test_bad_inputs_say_what_is_wrong(self):
        widget = self.widget
        no_class = self.heart.transform(Domain(self.heart.domain.attributes))
        self.send_and_wait(no_class)
        self.assertTrue(widget.Error.no_class.is_shown())
        self.assertIsNone(self.pairs())
        one = self.heart.transform(Domain(self.heart.domain.attributes[:1],
                                          self.heart.domain.class_var))
        self.send_and_wait(one)
        self.assertTrue(widget.Error.few_attributes.is_shown())
        self.assertIn("the data have 1", str(widget.Error.few_attributes))
        self.send_and_wait(self.heart[:0])
        self.assertTrue(widget.Error.map.is_shown())
        self.assertIsNone(self.pairs())
        # K above the attributes: all are mapped, and it says so
        self.send_and_wait(self.heart)
        self.assertFalse(widget.Error.active)
        self.assertTrue(widget.Information.top_k.is_shown())
        self.assertEqual(len(widget.found.variables), 13)
        widget.controls.top_k.setValue(13)
        widget.commit.now()
        self.wait_until_finished()
        self.assertFalse(widget.Information.top_k.is_shown())

    def test_a_numeric_class_replaces_a_method_of_classes(self):
        widget = self.widget
        self.send_and_wait(self.cpu)
        self.assertTrue(widget.Warning.method_replaced.is_shown())
        self.assertIn("ReliefF needs a categorical class",
                      str(widget.Warning.method_replaced))
        self.assertEqual(widget.method, "RReliefF")
        self.assertTrue(widget.Information.untested.is_shown())
        self.assertFalse(widget.test_controls[0].isEnabled())
        self.assertTrue(np.isnan(widget.found.map.q).all())
        self.send_and_wait(self.heart)
        self.assertEqual(widget.method, "ReliefF")
        self.assertFalse(widget.Warning.method_replaced.is_shown())
        # Relief: two classes only
        choose(widget.method_combo, "Relief")
        self.send_and_wait(self.zoo)
        self.assertTrue(widget.Warning.method_replaced.is_shown())
        self.assertEqual(widget.method, "ReliefF")

    def test_the_permutation_test(self):
        """The map's p-values are the script's permutation p-values, for a
        categorical class and a numeric one (which the t cannot test);
        the cells, the caption, the legend and the report say so."""
        widget = self.widget
        choose(widget.test_combo, "permutation")
        widget.n_permutations, widget.top_k = 40, 4
        for data, options in ((self.xor, dict(method="relieff", k_nearest=10,
                                              ties="share")),
                              (self.cpu, dict(method="relieff",
                                              k_nearest=50, ties="share"))):
            with self.subTest(data=data.name):
                self.send_and_wait(data)
                expected = interactions(data, top_k=4, test="permutation",
                                        n_permutations=40, **options)
                np.testing.assert_array_equal(widget.found.map.p,
                                              expected.map.p)
                self.assertFalse(widget.Information.untested.is_shown())
                self.assertTrue(widget.test_controls[0].isEnabled())
                self.assertIn("40 permutations of the class",
                              widget.legend.text())
                self.assertIn(", p = ", widget.pair_caption.text())
                self.assertNotIn("t = ", widget.pair_caption.text())
                self.assertNotIn("t = ", widget._tooltips()[0][1])
        self.assertFalse(widget.permutations_spin.box.isHidden())
        widget.send_report()
        choose(widget.test_combo, "t")
        self.assertTrue(widget.permutations_spin.box.isHidden())
        self.assertTrue(widget.Information.untested.is_shown())

    def test_the_methods_are_the_registrys_whose_pairs_the_map_reads(self):
        self.assertLessEqual(set(MAP_METHODS.values()), set(PAIR_METHODS))
        self.assertEqual(self.widget.method_combo.values(),
                         [name for name in METHODS if name in MAP_METHODS])

    def test_the_work_runs_in_a_worker_thread(self):
        threads = []
        compute = owinteractions.compute_map

        def recording(data, options, state):
            threads.append(threading.current_thread())
            return compute(data, options, state)

        with patch.object(owinteractions, "compute_map", recording):
            self.send_and_wait(self.xor)
        self.assertEqual(len(threads), 1)
        self.assertIsNot(threads[0], threading.main_thread())
        self.assertIsNotNone(self.pairs())

    def test_interruption_stops_the_core(self):
        options = dict(variant="ReliefF", method="relieff")
        with self.assertRaises(Interrupted):
            owinteractions.compute_map(self.heart, options, FakeState())

    def test_new_data_while_running_discards_the_old_task(self):
        release = threading.Event()
        compute = owinteractions.compute_map

        def blocking(data, options, state):
            release.wait(10)
            return compute(data, options, state)

        with patch.object(owinteractions, "compute_map", blocking):
            self.send_signal(self.widget.Inputs.data, self.heart)
            self.assertIsNotNone(self.widget.task)
            self.send_signal(self.widget.Inputs.data, self.xor)
            release.set()
            self.wait_until_finished()
        self.assertEqual(self.widget.found.variables[0].name[:1], "a")
        self.assertEqual(len(self.pairs()), 45)

    def test_removing_data_while_running_cancels(self):
        release = threading.Event()

        def blocking(data, options, state):
            release.wait(10)
            return interactions(data)

        with patch.object(owinteractions, "compute_map", blocking):
            self.send_signal(self.widget.Inputs.data, self.heart)
            self.send_signal(self.widget.Inputs.data, None)
            release.set()
            self.wait_until_finished()
        self.assertIsNone(self.widget.task)
        self.assertIsNone(self.widget.found)
        self.assertIsNone(self.pairs())

    def test_settings_and_the_chosen_pair_persist(self):
        widget = self.widget
        choose(widget.method_combo, "MultiSURF")
        widget.top_k, widget.absolute, widget.alpha = 6, True, 0.01
        widget.adjustment_index = 1
        self.send_and_wait(self.xor)
        names = self.shown_names()
        self.click(4, 5)  # row 4, column 5
        widget.test, widget.n_permutations = "permutation", 30
        settings = widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWInteractions,
                                      stored_settings=settings)
        for name in ("method", "top_k", "absolute", "alpha",
                     "adjustment_index", "test", "n_permutations"):
            self.assertEqual(getattr(restored, name), getattr(widget, name))
        self.assertEqual(restored.method_combo.value(), "MultiSURF")
        self.send_and_wait(self.xor, widget=restored)
        selected = self.get_output(restored.Outputs.selected_data,
                                   widget=restored)
        self.assertEqual([var.name for var in selected.domain.attributes],
                         [names[5], names[4]])
        # a stored pair that is no pair of names is dropped
        odd = self.create_widget(OWInteractions,
                                 stored_settings={"selected_pair": [3],
                                                  "test": "z",
                                                  "n_permutations": -5})
        self.assertEqual(odd.selected_pair, ())
        self.assertEqual((odd.test, odd.n_permutations), ("t", 1))

    def test_settings_of_an_earlier_version_draw_the_relief_map(self):
        widget = self.create_widget(OWInteractions, stored_settings={
            "__version__": 1, "method": "MultiSURF", "top_k": 7})
        self.assertEqual((widget.map_kind, widget.method, widget.top_k),
                         ("relief", "MultiSURF", 7))
        widget.map_kind, widget.centrality = "regain", "EpistasisKatz"
        widget.covariates, widget.main_effects = True, False
        settings = widget.settingsHandler.pack_data(widget)
        restored = self.create_widget(OWInteractions,
                                      stored_settings=settings)
        for name in ("map_kind", "centrality", "covariates",
                     "main_effects"):
            self.assertEqual(getattr(restored, name), getattr(widget, name))
        odd = self.create_widget(OWInteractions, stored_settings={
            "map_kind": "stir", "centrality": "degree"})
        self.assertEqual((odd.map_kind, odd.centrality),
                         ("relief", "EpistasisRank"))

    def test_report(self):
        self.widget.send_report()
        self.send_and_wait(self.xor)
        self.widget.send_report()
        self.send_and_wait(self.cpu)
        self.widget.send_report()

    def test_every_control_has_a_tooltip(self):
        from tests.widgets.test_tooltips import controls
        found = controls(self.widget)
        self.assertGreaterEqual(len(found), 6)
        self.assertEqual([c for c in found if not c.toolTip().strip()], [])

    @unittest.skipIf(owinteractions.Network is None,
                     "orange3-network is not installed")
    def test_the_network_of_the_significant_pairs(self):
        self.send_and_wait(self.xor)
        network = self.get_output(self.widget.Outputs.network)
        result = self.widget.found.map
        self.assertEqual(network.number_of_nodes(), 10)
        self.assertEqual(network.number_of_edges(),
                         np.sum(np.triu(result.q <= 0.05, 1)))
        self.send_and_wait(self.cpu)  # untested: the strongest pairs
        network = self.get_output(self.widget.Outputs.network)
        self.assertEqual(network.number_of_edges(), network.number_of_nodes())
        self.widget.map_kind = "regain"  # the nodes score by centrality
        self.send_and_wait(self.heart)
        network = self.get_output(self.widget.Outputs.network)
        found = self.widget.found
        np.testing.assert_array_equal(network.nodes.get_column(
            "EpistasisRank"), found.epistasis_rank)
        self.assertEqual(network.number_of_edges(),
                         np.sum(np.triu(found.q <= 0.05, 1)))

    def test_without_the_network_add_on(self):
        """Without orange3-network the widget has no Network output, and
        maps as before."""
        code = ("import sys; sys.modules['orangecontrib.network'] = None; "
                "from orangecontrib.relief.widgets.owinteractions import "
                "OWInteractions as W; "
                "print(sorted(vars(W.Outputs)))")
        out = subprocess.run([sys.executable, "-c", code], check=True,
                             capture_output=True, text=True).stdout
        self.assertIn("'pairs'", out)
        self.assertNotIn("'network'", out)
        with patch.object(owinteractions, "Network", None):
            self.send_and_wait(self.xor)
            self.assertIsNotNone(self.pairs())
            self.send_and_wait(None)

