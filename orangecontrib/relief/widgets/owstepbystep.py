"""Relief, step by step: one reference instance at a time, its nearest hits
and misses, the diffs it reads and how it moves the weights (for teaching),
shown a stage at a time."""
from html import escape

import numpy as np

from AnyQt.QtCore import QSize, Qt, QTimer
from AnyQt.QtGui import QColor, QFontMetrics, QKeySequence
from AnyQt.QtWidgets import (QComboBox, QScrollArea, QShortcut, QSizePolicy,
                             QSplitter, QStackedWidget)

from Orange.data import ContinuousVariable, DiscreteVariable, Table
from Orange.widgets import gui
from Orange.widgets.settings import (ContextSetting, DomainContextHandler,
                                     Setting)
from Orange.widgets.utils.itemmodels import DomainModel
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.steps import (STAGES, VARIANTS, Lesson,
                                             ReliefSteps, references)
from orangecontrib.relief.core.registry import RELIEF, RELIEFF
from orangecontrib.relief.widgets.common import (NO_CLASS, known_flags,
                                                 scaled_font, within_ranges)
from orangecontrib.relief.widgets.neighbourhood import (
    JITTER, NeighbourhoodPlot, legend_html, plot_coordinates, reach_path)
from orangecontrib.relief.widgets.steptable import (StepTable, StepView,
                                                    step_columns)
from orangecontrib.relief.widgets.weights import (
    RELEVANT_MARK, WeightsPlot, is_relevant, weights_table)

#: (label, milliseconds between two steps) of the speed slider's places
SPEEDS = (("2 s a step", 2000), ("1 s a step", 1000), ("0.5 s a step", 500),
          ("0.25 s a step", 250), ("0.1 s a step", 100),
          ("as fast as it draws", 20))
#: the places of the three speeds of settings version 1
SPEEDS_OF_VERSION_1 = (0, 2, 4)
#: the keys of the buttons (the first of each is named in its tooltip)
KEYS = {"next": ("Right", "N"), "whole": ("Shift+Right", "W"),
        "back": ("Left", "B"), "run": ("R",)}
#: the largest k the k slider offers
MAX_K = 20
#: what the narration calls the stages
STAGE_TITLES = {"reference": "the reference",
                "neighbours": "hits and misses",
                "diffs": "the diffs",
                "update": "the update"}
#: what the stage button says: the stage it shows next
STAGE_BUTTONS = {"reference": "Choose a reference",
                 "neighbours": "Find hits and misses",
                 "diffs": "Show the diffs",
                 "update": "Update the weights"}
#: the choices of which misses the views show, before the class values:
#: the class whose misses move the weights most, the class of the nearest
#: miss, all
MOST_UPDATE, NEAREST_CLASS, ALL_CLASSES = 0, 1, 2
MISS_CHOICES = ("Largest share", "Nearest class", "All classes")
#: the size of texts and marks with "Presentation size" (times the default)
PRESENTATION = 1.6
#: the weight axis held over a run: every weight lies in it
FIXED_RANGE = (-1.0, 1.0)
#: the default size of the widget, the smallest its layout is made for
DEFAULT_SIZE = QSize(1024, 640)
#: the most bars the narrow weights panel shows (the best weights)
MAX_BARS = 20
#: the table's rows (below its header) the lower part makes room for
TABLE_ROWS = 4
#: the least height of the plots when the table takes its room
MIN_PLOTS = 200
#: the size of the legend's text, times the main area's
LEGEND_SCALE = 0.85
#: the most attributes a point's tooltip lists
MAX_TIP_VALUES = 15

EXPLANATION = (
    "<p>Relief weighs the attributes one reference instance at a time. A "
    "step</p><ol>"
    "<li>takes a <b>reference</b> (the star);</li>"
    "<li>finds its nearest <b>hits</b> (same class, circled) and nearest "
    "<b>misses</b> (other classes, in squares). The distance is measured "
    "with <i>all</i> attributes: it is the sum of their diffs;</li>"
    "<li>reads the <b>diffs</b>: how much each attribute differs between "
    "the reference and each neighbour, 0 the same, 1 as different as can "
    "be (a numeric difference is divided by the attribute's range);</li>"
    "<li><b>updates</b> the weights: each moves down by its diffs to the "
    "hits and up by its diffs to the misses, each diff times its "
    "neighbour's multiplier.</li></ol>"
    "<p>The weights are the mean of the steps' updates. An attribute that "
    "differs between near instances of different classes gains; one that "
    "differs between near instances of the same class loses.</p>"
    "<p><b>Multipliers.</b> Each of the k hits counts \u22121/k. ReliefF "
    "weighs the misses of each other class C by that class's share of the "
    "instances of the classes other than the reference's, P(C) / (1 \u2212 "
    "P(class of the reference)), divided by k: the misses together count as "
    "much as the hits (+1 against \u22121), and a small class's misses get "
    "small multipliers.</p>"
    "<p><b>The plot</b> shows two attributes only: a neighbour near in all "
    "attributes may look far here, and a point that looks near may be far "
    "in the others. The shaded areas are where the two plotted attributes "
    "alone stay within the distance of the farthest hit (solid) and the "
    "farthest miss (dashed) shown: a projection. Every neighbour lies "
    "inside, but not every point inside is near.</p>"
    "<p><b>A pass.</b> With the references in order, after every instance "
    "has been the reference once the weights are final: those of the "
    "Relief widget with every instance a reference. Moving <i>k</i> takes "
    "the same references again and shows how the weights moved.</p>"
    "<p><b>Keys</b> (with the window active): \u2192 or N the next stage, "
    "Shift+\u2192 or W a whole step, \u2190 or B back, R run and "
    "stop.</p>"
    "<p>Relief: Kira &amp; Rendell (1992); ReliefF: Kononenko (1994); the "
    "update as Prat &amp; Belanche (2006), Fig. 1 and 2, write it.</p>")


def opening_size(screen):
    """The size the widget opens at on a screen of `screen` (a QRect of
    its available area): :data:`DEFAULT_SIZE`, or at most nearly all of
    the screen."""
    return QSize(min(DEFAULT_SIZE.width(), int(screen.width() * 0.94)),
                 min(DEFAULT_SIZE.height(), int(screen.height() * 0.88)))


def shown_neighbours(step, choice):
    """Which of `step`'s neighbours the views show (bool (s,)): the hits
    and the misses of the chosen class (:data:`MISS_CHOICES` index, then
    ALL_CLASSES + 1 + the step's class number, which counts the classes
    present)."""
    misses = ~step.is_hit
    if choice == ALL_CLASSES or not misses.any():
        return np.ones(len(step.neighbours), bool)
    if choice == MOST_UPDATE:
        klass = moving_class(step)
    elif choice == NEAREST_CLASS:
        nearest = np.flatnonzero(misses)[np.argmin(step.distances[misses])]
        klass = step.classes[nearest]
    else:
        klass = choice - ALL_CLASSES - 1
    return step.is_hit | (step.classes == klass)


def moving_class(step):
    """The class whose misses move `step`'s weights most: the largest sum
    of their diffs times their multipliers, over the attributes (a miss's
    diffs add up to its distance).  With many classes the nearest miss may
    belong to a small class, whose multiplier is small."""
    misses = np.flatnonzero(~step.is_hit)
    moves = step.coefficients[misses] * step.distances[misses]
    classes = step.classes[misses]
    totals = {klass: moves[classes == klass].sum()
              for klass in np.unique(classes)}
    return max(totals, key=totals.get)


class OWReliefSteps(OWWidget):
    name = "Relief, step by step"
    description = ("Watch Relief or ReliefF at work: one reference instance "
                   "at a time, its nearest hits and misses and how they "
                   "move the attribute weights.")
    icon = "icons/StepByStep.svg"
    priority = 60
    settings_version = 2
    keywords = "relief, relieff, step, teaching, neighbours, hit, miss"

    class Inputs:
        data = Input("Data", Table)

    class Outputs:
        weights = Output("Weights", Table)
        neighbourhood = Output("Neighbourhood", Table)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        numeric_class = Msg("The class is numeric; Relief, step by step "
                            "needs a categorical class.")
        relief = Msg("{}")

    class Warning(OWWidget.Warning):
        missing_class = Msg("{} instance(s) with an unknown class are left "
                            "out.")

    class Information(OWWidget.Information):
        not_plotted = Msg("{} instance(s) with a missing value on the "
                          "plotted attributes are not shown.")

    settingsHandler = DomainContextHandler()
    attr_x = ContextSetting(None)
    attr_y = ContextSetting(None)
    miss_choice = ContextSetting(MOST_UPDATE)
    variant_index = Setting(0)
    k_nearest = Setting(3)
    sampled = Setting(0)
    random_seed = Setting(0)
    speed_index = Setting(SPEEDS_OF_VERSION_1[1])
    show_runners_up = Setting(False)
    show_reach = Setting(True)
    fixed_axis = Setting(True)
    presentation = Setting(False)
    show_table = Setting(True)

    graph_name = "scatter.plotItem"

    def __init__(self):
        super().__init__()
        known_flags(self)
        within_ranges(self, {"variant_index": (0, len(VARIANTS) - 1),
                             "k_nearest": (1, MAX_K), "sampled": (0, 1),
                             "random_seed": (0, 2 ** 31 - 1),
                             "speed_index": (0, len(SPEEDS) - 1)})
        self.data = None      # the instances with a known class
        self.input_rows = None  # their rows in the input
        #: the class values present in the data, by code: the classes the
        #: steps number 0, 1, ... (a declared value no instance has is
        #: not among them)
        self.class_codes = None
        self.stepper = None   # ReliefSteps of self.data
        self.lesson = Lesson()  # the steps so far, the last a stage at a time
        #: whether Relief, chosen, gave way to ReliefF for data of other
        #: than two classes (it comes back with two, unless another choice)
        self.relief_displaced = False
        self.jitter = None    # (n, 2) spread of nominal coordinates
        self.timer = QTimer(self, timeout=self._run_step)
        self.run_until = 0
        #: (the previous k, the weights with it) while the bars show how a
        #: new k moved them
        self.k_before = None
        self._opened = False
        self._build_controls()
        self._build_main_area()
        self._apply_scale()
        self._on_pages_toggled()
        self._update_controls()

    def sizeHint(self):
        return DEFAULT_SIZE

    @classmethod
    def migrate_settings(cls, settings, version):
        # version 1 had three speeds, now places on a slider among more
        if version is not None and version < 2 and isinstance(
                settings.get("speed_index"), int) and \
                0 <= settings["speed_index"] < len(SPEEDS_OF_VERSION_1):
            settings["speed_index"] = SPEEDS_OF_VERSION_1[
                settings["speed_index"]]

    @classmethod
    def migrate_context(cls, context, version):
        # version 1 had no "Largest share" before its miss choices
        if version is not None and version < 2:
            stored = context.values.get("miss_choice")
            if isinstance(stored, tuple) and isinstance(stored[0], int):
                context.values["miss_choice"] = (stored[0] + 1, stored[1])

    def showEvent(self, event):
        """Open, the first time, at the size the layout is made for, or at
        most nearly the screen: Qt would open a new window at two thirds
        of the screen (853 x 533 on a laptop's 1280 x 800, 682 x 512 on
        a projector's 1024 x 768), where the plots and the table are too
        small to teach with.  A size the person gave it stays, and so
        does one given before it is shown."""
        if not self._opened:
            self._opened = True
            if self.savedWidgetGeometry is None \
                    and not self.testAttribute(Qt.WA_Resized):
                self.resize(opening_size(self.screen().availableGeometry()))
            # the heights once the splitter has its size
            QTimer.singleShot(0, self._share_height)
        super().showEvent(event)

    @property
    def steps(self):
        """The steps begun (the last perhaps not shown to its update)."""
        return self.lesson.steps

    # --- GUI --------------------------------------------------------------

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Method")
        self.variant_buttons = gui.radioButtons(
            box, self, "variant_index", btnLabels=VARIANTS,
            orientation=Qt.Horizontal,
            tooltips=["Relief (Kira & Rendell 1992): one nearest hit and "
                      "one nearest miss; two classes only.",
                      "ReliefF (Kononenko 1994): the k nearest hits and the "
                      "k nearest misses of every other class, each class "
                      "weighted by its share of the data."],
            callback=self._on_variant_chosen)
        self.k_slider = gui.hSlider(
            box, self, "k_nearest", minValue=1, maxValue=MAX_K,
            label="k:", createLabel=True, width=120,
            callback=self._on_k_changed,
            tooltip="ReliefF's k: how many nearest hits, and how many "
                    "nearest misses of each other class, a step takes. "
                    "Moving it takes the same references again with the "
                    "new k: the bars show how the weights moved (dashed: "
                    "with the previous k).")

        box = gui.radioButtons(
            self.controlArea, self, "sampled", box="Next reference",
            callback=self._update_controls)
        gui.appendRadioButton(
            box, "In order", tooltip="The instances in their order: after a "
            "pass over all of them the weights are those of the Relief "
            "widget.")
        row = gui.hBox(box)
        gui.appendRadioButton(
            box, "Random, seed:", insertInto=row,
            tooltip="Drawn at random with this seed, as the Relief widget's "
                    "sampled references.")
        self.seed_spin = gui.spin(
            row, self, "random_seed", 0, 2 ** 31 - 1, controlWidth=70,
            tooltip="The same seed gives the same references.")

        box = gui.vBox(self.controlArea, "Steps")
        self.stage_button = gui.button(
            box, self, STAGE_BUTTONS["reference"], callback=self.next_stage,
            autoDefault=False,
            tooltip="Show the next stage of the step: choose a reference, "
                    "find its hits and misses, show the diffs, update the "
                    "weights. Clicking a point chooses it as the reference. "
                    "Key: \u2192 (right arrow) or N.")
        row = gui.hBox(box)
        self.whole_button = gui.button(
            row, self, "Whole step", callback=self.whole_step,
            autoDefault=False,
            tooltip="The rest of this step at once, or the whole next step: "
                    "a reference, its neighbours and the update. Key: "
                    "Shift+\u2192 or W.")
        self.back_button = gui.button(
            row, self, "Step back", callback=self.step_back,
            autoDefault=False,
            tooltip="Undo the last stage. Key: \u2190 (left arrow) or B.")
        row = gui.hBox(box)
        self.run_button = gui.button(
            row, self, "Run", callback=self.toggle_run, autoDefault=False,
            tooltip="Whole steps on their own until every instance had a "
                    "turn (one pass); press again to stop. Key: R.")
        self.reset_button = gui.button(
            row, self, "Reset", callback=self.reset, autoDefault=False,
            tooltip="Forget the steps: every weight back to 0.")
        self.speed_slider = gui.hSlider(
            box, self, "speed_index", minValue=0, maxValue=len(SPEEDS) - 1,
            label="Speed:", callback=self._on_speed_changed, width=90,
            createLabel=False,
            tooltip="How fast Run takes its steps, from 2 s a step to as "
                    "fast as the plots can be drawn.")
        self.speed_label = gui.widgetLabel(box, "")
        # a key presses its button, which does nothing while disabled
        buttons = {"next": self.stage_button, "whole": self.whole_button,
                   "back": self.back_button, "run": self.run_button}
        for action, keys in KEYS.items():
            for key in keys:
                QShortcut(QKeySequence(key), self,
                          activated=buttons[action].click,
                          context=Qt.WindowShortcut)

        box = gui.vBox(self.controlArea, "Show")
        self.miss_combo = gui.comboBox(
            box, self, "miss_choice", label="Misses of:",
            orientation=Qt.Horizontal, items=MISS_CHOICES,
            callback=self._show, sizePolicy=(QSizePolicy.Expanding,
                                             QSizePolicy.Fixed),
            tooltip="With many classes, the misses of one class at a time: "
                    "the class whose misses move the weights most (they "
                    "count by their class's share of the data), the class "
                    "of the nearest miss, or one you choose. The update "
                    "still counts every class's misses (the table's column "
                    "'other misses').")
        # the rest of the row, whatever its longest class name
        self.miss_combo.setSizeAdjustPolicy(
            QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.miss_combo.setMinimumContentsLength(8)
        for setting, label, callback, tip in (
                ("show_runners_up", "Next nearest, not chosen", self._show,
                 "For each class, the nearest instance that was not chosen, "
                 "with its distance: who was nearly a neighbour (grey "
                 "diamonds in the plot, grey columns in the table)."),
                ("show_reach", "Distances in the plot",
                 self._on_reach_changed,
                 "Shade where the two plotted attributes alone stay within "
                 "the distance of the farthest hit and miss (a projection "
                 "of the distance over all attributes)."),
                ("fixed_axis", "Fixed weight axis", self._show_weights,
                 "Keep the weight axis still, from \u22121 to 1, over the "
                 "run (a weight is a mean of updates between \u22121 and 1);"
                 " unchecked, it fits the weights of each step."),
                ("presentation", "Presentation size", self._on_scale_changed,
                 "Larger texts and marks in the plots and the table, for a "
                 "projector.")):
            gui.checkBox(box, self, setting, label, callback=callback,
                         tooltip=tip)
        gui.rubber(self.controlArea)

    def _build_main_area(self):
        row = top = gui.hBox(self.mainArea)
        self.var_model = DomainModel(
            DomainModel.ATTRIBUTES,
            valid_types=(ContinuousVariable, DiscreteVariable))
        for name, label in (("attr_x", "Horizontal:"),
                            ("attr_y", "Vertical:")):
            gui.comboBox(row, self, name, label=label, model=self.var_model,
                         orientation=Qt.Horizontal, callback=self._plot,
                         tooltip="The attribute the plot shows on this "
                                 "axis; the neighbours are found with all.",
                         sizePolicy=(QSizePolicy.Ignored,
                                     QSizePolicy.Fixed),
                         minimumContentsLength=8)
        #: the plot's legend, a strip above it: inside the plot it covered
        #: the points of data of many classes
        self.legend_strip = gui.widgetLabel(self.mainArea, "")
        self.legend_strip.setWordWrap(True)
        self.legend_strip.setTextFormat(Qt.RichText)
        self.legend_strip.setToolTip(
            "What the plot's marks mean: the classes' colours, the "
            "reference, its hits (same class) and misses (other classes).")
        self.splitter = splitter = QSplitter(Qt.Vertical)
        plots = QSplitter(Qt.Horizontal)
        self.scatter = NeighbourhoodPlot(self, describe=self._describe)
        self.scatter.instance_clicked.connect(self.choose_reference)
        self.scatter.setToolTip("Click a point to make it the reference.")
        self.bars = WeightsPlot(self, name_width=120)  # a narrow panel
        self.bars.setToolTip("The weights after the updates so far; "
                             "dashed: before this step's update.")
        plots.addWidget(self.scatter)
        plots.addWidget(self.bars)
        plots.setSizes([600, 400])
        lower = gui.vBox(None)
        # the narration as wide as the main area: at presentation size its
        # lines would take the table's rows
        self.narration = gui.widgetLabel(lower, "")
        self.narration.setWordWrap(True)
        self.narration.setTextFormat(Qt.RichText)
        self.narration.setSizePolicy(QSizePolicy.Expanding,
                                     QSizePolicy.Preferred)
        self.table_button = gui.button(
            top, self, "Table", toggleButton=True, autoDefault=False,
            value="show_table", callback=self._on_pages_toggled,
            tooltip="Show the table of the step (values, diffs, "
                    "multipliers, the update), or hide it and give its room "
                    "to the plots.")
        self.how_button = gui.button(
            top, self, "How it works", toggleButton=True, autoDefault=False,
            callback=self._on_pages_toggled,
            tooltip="What a step does, why the misses of each class count "
                    "as they do, and what the plot shows.")
        for button in (self.table_button, self.how_button):
            button.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.pages = QStackedWidget()
        self.table = StepTable()
        self.pages.addWidget(self.table)
        self.explanation = gui.widgetLabel(None, EXPLANATION)
        self.explanation.setWordWrap(True)
        self.explanation.setAlignment(Qt.AlignTop)
        scroll = QScrollArea(widgetResizable=True)
        scroll.setWidget(self.explanation)
        self.pages.addWidget(scroll)
        lower.layout().addWidget(self.pages)
        for part in (plots, lower):
            part.setMinimumHeight(120)
            part.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Ignored)
            splitter.addWidget(part)
        splitter.setSizes([350, 250])  # the plot first
        self.mainArea.layout().addWidget(splitter)

    @property
    def text_scale(self):
        """The size of the main area's texts, times the default."""
        return PRESENTATION if self.presentation else 1.0

    def _apply_scale(self):
        """Texts and marks of the main area at the chosen size."""
        scale = self.text_scale
        self.scatter.set_scale(scale)
        self.bars.set_text_scale(scale)
        font = scaled_font(scale)
        for widget in (self.table, self.table.horizontalHeader(),
                       self.table.verticalHeader(), self.narration,
                       self.explanation, self.how_button):
            widget.setFont(font)
        self.table.verticalHeader().setDefaultSectionSize(
            self.table.fontMetrics().height() + 6)

    def _on_pages_toggled(self):
        """Show the explanation instead of the table, the table, or
        neither (the plots get the room)."""
        how = self.how_button.isChecked()
        self.pages.setCurrentIndex(int(how))
        self.pages.setVisible(how or bool(self.show_table))
        self._share_height()

    def _share_height(self):
        """The splitter's heights: with the table (or the explanation)
        shown, room for :data:`TABLE_ROWS` of its rows at the text's size
        (a projector's large text must keep the diffs in view), the rest
        to the plots; without it, all but the narration to the plots."""
        total = sum(self.splitter.sizes())
        if total <= 0:
            return
        narration = self.narration.heightForWidth(
            max(self.narration.width(), 1)) + 12
        if self.pages.isVisible():
            table = self.table
            # a header of up to three lines (a neighbour, its row, its
            # class), the rows, a scroll bar below
            rows = (3 * table.fontMetrics().height() + 10
                    + TABLE_ROWS * table.verticalHeader().defaultSectionSize()
                    + table.horizontalScrollBar().sizeHint().height()
                    + 2 * table.frameWidth() + 4)
            lower = min(narration + rows, total - MIN_PLOTS)
        else:
            lower = narration
        self.splitter.setSizes([total - lower, lower])
        if self.stepper is not None:  # as many bars as now fit
            self._show_weights()

    def _on_scale_changed(self):
        self._apply_scale()
        self._plot()
        self._show()
        # once the texts have their new size
        QTimer.singleShot(0, self._share_height)

    def _update_controls(self):
        """Enable the controls that apply now; the stage button names the
        next stage."""
        two_classes = self.class_codes is None or len(self.class_codes) == 2
        relief = self.variant_buttons.buttons[0]
        relief.setEnabled(two_classes)
        relieff = VARIANTS[self.variant_index] == RELIEFF.name
        self.k_slider.setEnabled(relieff)
        self.speed_label.setText(SPEEDS[self.speed_index][0])
        self.miss_combo.setEnabled(relieff and not two_classes)
        self.seed_spin.setEnabled(bool(self.sampled))
        running = self.timer.isActive()
        ready = self.stepper is not None
        self.stage_button.setText(STAGE_BUTTONS[self.lesson.next_stage])
        self.stage_button.setEnabled(ready and not running)
        self.whole_button.setText("Whole step" if self.lesson.complete
                                  else "Finish step")
        self.whole_button.setEnabled(ready and not running)
        self.back_button.setEnabled(bool(self.steps) and not running)
        self.run_button.setEnabled(ready)
        self.run_button.setText("Stop" if running else "Run")
        self.reset_button.setEnabled(bool(self.steps))

    # --- input ------------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        """Check the data, choose the plotted attributes and start over."""
        self.stop()
        self.closeContext()
        self.Error.clear()
        self.Warning.clear()
        self.data = self.stepper = self.class_codes = None
        self.lesson = Lesson()
        self.var_model.set_domain(None)
        self.attr_x = self.attr_y = None
        self._set_miss_choices([])
        if data is not None and self._check_class(data):
            known = ~np.isnan(data.get_column(data.domain.class_var))
            self.Warning.missing_class(int((~known).sum()),
                                       shown=not known.all())
            self.data = data[known]
            self.input_rows = np.flatnonzero(known)
            self.class_codes = np.unique(self.data.Y).astype(int)
            self.var_model.set_domain(data.domain)
            if self.var_model:
                self.attr_x = self.var_model[0]
                self.attr_y = self.var_model[min(1, len(self.var_model) - 1)]
            self._set_miss_choices(self._class_names())
            self.openContext(data.domain)
            within_ranges(self,
                          {"miss_choice": (0, self.miss_combo.count() - 1)})
            self.jitter = np.random.default_rng(0).uniform(
                -JITTER, JITTER, (len(self.data), 2))
            self._make_stepper()
        self._plot()
        self._show()

    def _set_miss_choices(self, class_names):
        """The choices of the miss class: the nearest, all, each class
        present (named in `class_names`)."""
        self.miss_combo.clear()
        self.miss_combo.addItems(list(MISS_CHOICES) + list(class_names))
        self.miss_choice = MOST_UPDATE

    def _check_class(self, data):
        class_var = data.domain.class_var
        if class_var is None:
            self.Error.no_class()
        elif not class_var.is_discrete:
            self.Error.numeric_class()
        return class_var is not None and class_var.is_discrete

    def _make_stepper(self):
        """A ReliefSteps of the data for the chosen method (Relief needs
        two classes: ReliefF otherwise), and the steps of the references so
        far with it, each at the stage it was shown."""
        self.Error.relief.clear()
        self.stepper = None
        relief = VARIANTS.index(RELIEF.name)
        relieff = VARIANTS.index(RELIEFF.name)
        two_classes = len(self.class_codes) == 2
        if not two_classes and self.variant_index == relief:
            self.variant_index, self.relief_displaced = relieff, True
        elif two_classes and self.relief_displaced:
            self.variant_index, self.relief_displaced = relief, False
        try:
            arrays = table_arrays(self.data, "Relief, step by step")
            self.stepper = ReliefSteps(
                arrays.X, arrays.y, arrays.discrete,
                variant=VARIANTS[self.variant_index],
                k_nearest=self.k_nearest)
        except (ReliefInputError, ValueError) as error:
            self.Error.relief(str(error))
            self.lesson = Lesson()
            return
        self.lesson.redo(self.stepper)

    def _on_variant_chosen(self):
        """The user's choice of variant: it stays."""
        self.relief_displaced = False
        self._on_method_changed()

    def _on_method_changed(self):
        """The same references again with the new method."""
        self.k_before = None
        if self.data is not None:
            self._make_stepper()
        self._show()

    def _on_k_changed(self):
        """The same references again with the new k; the bars show how the
        weights moved (with the previous k dashed)."""
        before = (self.stepper.k_nearest,
                  self.stepper.weights(self.lesson.applied)) \
            if self.stepper is not None and self.lesson.applied else None
        self._on_method_changed()
        if before is not None and self.stepper is not None \
                and before[0] != self.stepper.k_nearest:
            self.k_before = before + (self._lesson_state(),)
            self._show()

    def _lesson_state(self):
        """What identifies the lesson's place: the steps and the stage."""
        return [s.reference for s in self.steps], self.lesson.stage

    def _k_effect(self):
        """(the previous k, the weights with it) while the bars show how a
        new k moved the weights (until the lesson moves on), else None."""
        if self.k_before is None or self.k_before[2] != self._lesson_state():
            return None
        return self.k_before[:2]

    def pass_complete(self):
        """Whether the steps so far are whole passes in order: every
        instance the reference once (or as often as every other), the
        last step shown to its update.  The weights are then the Relief
        widget's with every instance a reference."""
        applied = self.lesson.applied
        n = self.stepper.n_instances if self.stepper is not None else 0
        return (n > 0 and not self.sampled and self.lesson.complete
                and len(applied) > 0 and len(applied) % n == 0
                and all(step.reference == t % n
                        for t, step in enumerate(applied)))

    # --- steps ------------------------------------------------------------

    def next_reference(self):
        """The reference of the next step, by the chosen order."""
        t = len(self.steps)
        return references(self.stepper.n_instances, t + 1,
                          sampled=bool(self.sampled),
                          random_state=self.random_seed)[t]

    def next_stage(self):
        """Show the next stage: a new reference once the last step is
        complete."""
        if self.stepper is None:
            return
        if self.lesson.complete:
            self.lesson.begin(self.stepper.step(self.next_reference()))
        else:
            self.lesson.advance()
        self._show()

    def whole_step(self):
        """Finish the step shown, or take a whole new one."""
        if self.stepper is None:
            return
        if self.lesson.complete:
            self.lesson.begin(self.stepper.step(self.next_reference()))
        self.lesson.finish()
        self._show()

    def choose_reference(self, reference):
        """Make instance `reference` the reference of a new step (an
        unfinished step gives way to it)."""
        if self.stepper is None or self.timer.isActive():
            return
        self.lesson.begin(self.stepper.step(reference))
        self._show()

    def step_back(self):
        self.lesson.back()
        self._show()

    def reset(self):
        self.stop()
        self.lesson.reset()
        self._show()

    def toggle_run(self):
        if self.timer.isActive():
            self.stop()
        elif self.stepper is not None:
            n = self.stepper.n_instances
            self.run_until = (len(self.lesson.applied) // n + 1) * n
            self.timer.start(SPEEDS[self.speed_index][1])
            self._update_controls()

    def stop(self):
        self.timer.stop()
        self._update_controls()

    def _run_step(self):
        self.whole_step()
        if self.stepper is None or len(self.steps) >= self.run_until:
            self.stop()

    def _on_speed_changed(self):
        self.speed_label.setText(SPEEDS[self.speed_index][0])
        if self.timer.isActive():
            self.timer.setInterval(SPEEDS[self.speed_index][1])

    # --- what the views show ------------------------------------------------

    @property
    def stage(self):
        """The stage of the last step shown (None before any)."""
        return STAGES[self.lesson.stage] if self.steps else None

    def _shown(self, step):
        """Which neighbours of `step` the views show (bool (s,))."""
        return shown_neighbours(step, self.miss_choice)

    def _runners_up(self, step):
        """The runners-up of the classes shown (indices into the step's
        runner-up arrays), if they are asked for."""
        if not self.show_runners_up:
            return np.zeros(0, int)
        shown_classes = set(step.classes[self._shown(step)])
        return np.array([i for i, klass in enumerate(step.runner_up_classes)
                         if klass in shown_classes], dtype=int)

    def _coordinates(self):
        """The plotted (x, y) of every instance."""
        return tuple(plot_coordinates(self.data, var, self.jitter[:, i])
                     for i, var in enumerate((self.attr_x, self.attr_y)))

    def _row_name(self, instance):
        """How the views name an instance: its row number in the input
        (as the Data Table widget numbers rows, from 1)."""
        return f"row {self.input_rows[instance] + 1}"

    def _class_of(self, instance):
        return int(self.data.get_column(self.data.domain.class_var)[instance])

    def _class_name(self, code):
        """The name of the class value of `code` (as the data hold it)."""
        return self.data.domain.class_var.values[code]

    def _class_names(self):
        """The names of the classes present, by the steps' class numbers
        (:attr:`Step.classes`)."""
        return [self._class_name(code) for code in self.class_codes]

    def _describe(self, instance):
        """A point's tooltip: its row, class and values (at presentation
        size in large type, for a projector)."""
        domain = self.data.domain
        lines = [f"{self._row_name(instance)}, class "
                 f"{self._class_name(self._class_of(instance))}"]
        values = self.data[instance]
        attributes = domain.attributes
        lines += [f"{var.name} = {var.str_val(values[var])}"
                  for var in attributes[:MAX_TIP_VALUES]]
        if len(attributes) > MAX_TIP_VALUES:
            lines.append(f"... and {len(attributes) - MAX_TIP_VALUES} more "
                         f"attributes")
        if not self.presentation:
            return "\n".join(lines)
        size = scaled_font(self.text_scale).pointSizeF()
        return (f'<span style="font-size:{size:g}pt">'
                + "<br/>".join(escape(line) for line in lines) + "</span>")

    # --- views and outputs --------------------------------------------------

    def _plot(self):
        """Show the instances on the chosen attributes."""
        self.Information.not_plotted.clear()
        if self.data is None or self.attr_x is None:
            self.scatter.set_instances(np.zeros(0), np.zeros(0), [],
                                       ("", ""))
            self._show_entries()
            for axis in ("bottom", "left"):
                self.scatter.set_ticks(axis, None)
            return
        class_var = self.data.domain.class_var
        colours = [QColor(*c) for c in class_var.colors]
        codes = self.data.get_column(class_var).astype(int)
        x, y = self._coordinates()
        self.scatter.set_instances(
            x, y, [colours[c] for c in codes],
            (self.attr_x.name, self.attr_y.name))
        self._show_entries()
        for axis, var in (("bottom", self.attr_x), ("left", self.attr_y)):
            self.scatter.set_ticks(axis,
                                   var.values if var.is_discrete else None,
                                   time=var.is_time)
        hidden = int((np.isnan(x) | np.isnan(y)).sum())
        self.Information.not_plotted(hidden, shown=hidden > 0)
        self._show_step()

    def _show(self):
        """Show the last step and the weights; send them."""
        self._update_controls()
        self._show_entries()
        self._show_step()
        self._show_table()
        self._show_weights()
        self._send()

    def _show_entries(self):
        """The legend strip: the classes' colours and the marks shown."""
        if self.data is None:
            self.legend_strip.setText("")
            return
        class_var = self.data.domain.class_var
        self.legend_strip.setText(legend_html(
            self._class_names(),
            [QColor(*class_var.colors[c]) for c in self.class_codes],
            bool(self.show_runners_up), bool(self.show_reach),
            scaled_font(LEGEND_SCALE * self.text_scale).pointSizeF()))

    def _on_reach_changed(self):
        self._show_entries()
        self._show_step()

    def _show_step(self):
        if not self.steps or self.attr_x is None:
            self.scatter.clear_step()
            return
        step = self.steps[-1]
        reference = step.reference
        colour = QColor(*self.data.domain.class_var.colors[
            self._class_of(reference)])
        x, y = self._coordinates()
        if self.stage == "reference":
            self.scatter.show_step(x, y, reference, colour)
            return
        shown = self._shown(step)
        runners = self._runners_up(step)
        self.scatter.show_step(
            x, y, reference, colour, step.neighbours[shown],
            step.is_hit[shown], step.runners_up[runners],
            self._reaches(step, shown) if self.show_reach else (None, None))

    def _reaches(self, step, shown):
        """The hits' and the misses' distances projected on the plotted
        pair (QPainterPaths, None where there are none)."""
        axes, centre = [], []
        for var in (self.attr_x, self.attr_y):
            value = self.data[step.reference][var]
            if np.isnan(float(value)):
                return None, None  # the reference is not in the plot
            if var.is_discrete:
                axes.append(("nominal", len(var.values)))
            else:
                column = self.data.get_column(var)
                axes.append(("numeric", np.nanmax(column)
                             - np.nanmin(column)))
            centre.append(float(value))
        paths = []
        for members in (step.is_hit & shown, ~step.is_hit & shown):
            paths.append(reach_path(centre, step.distances[members].max(),
                                    axes)
                         if members.any() else None)
        return tuple(paths)

    def _show_table(self):
        """The current step's table at its stage, and what it shows in
        words."""
        self.narration.setText(self._narration())
        if not self.steps:
            self.table.show_columns([], [])
            return
        step = self.steps[-1]
        view = StepView(
            self.data, step, STAGES.index(self.stage), self._shown(step),
            self._runners_up(step),
            self.stepper.weights(self.lesson.applied),
            len(self.lesson.applied), self._class_names(), self._row_name,
            name_classes=(self.miss_choice != NEAREST_CLASS
                          and len(self.class_codes) > 2))
        self.table.show_columns(
            step_columns(view, self.table.font(), self.text_scale),
            [attr.name for attr in self.data.domain.attributes],
            last_first=self.stage == "update")

    def _narration(self):
        """What the stage shows, in a sentence or two."""
        if self.stepper is None:
            return ""
        if not self.steps:
            return ("No steps yet: press <i>Choose a reference</i> (or "
                    "click a point) and follow the button through the "
                    "stages of a step.")
        effect = self._k_effect()
        if effect is not None:
            return self._k_narration(*effect)
        if self.pass_complete():
            return self._end_narration()
        step = self.steps[-1]
        stage = self.stage
        head = (f"<b>Step {len(self.steps)}, {STAGE_TITLES[stage]}</b> "
                f"(stage {STAGES.index(stage) + 1} of {len(STAGES)}): ")
        if stage == "reference":
            klass = self._class_name(self._class_of(step.reference))
            return head + (f"{self._row_name(step.reference)}, class "
                           f"{escape(klass)} (the star).")
        shown = self._shown(step)
        if stage == "neighbours":
            hits = step.distances[step.is_hit]
            misses = step.distances[~step.is_hit & shown]
            hidden = int((~shown).sum())
            of_class = ""
            if hidden and len(misses):
                klass = step.classes[~step.is_hit & shown][0]
                of_class = f" of class {escape(self._class_names()[klass])}"
                if self.miss_choice == MOST_UPDATE:
                    of_class += ", whose misses move the weights most,"
            text = (f"{self._count(len(hits), 'hit')} (circled) at "
                    f"distance {self._span(hits)}, "
                    f"{self._count(len(misses), 'miss', 'misses')}{of_class}"
                    f" (squares) at {self._span(misses)}, with all "
                    f"{len(self.data.domain.attributes)} attributes.")
            if hidden and not len(misses):
                text += (" The class chosen under 'Misses of' is the "
                         "reference's own: it gives hits, no misses.")
            elif hidden:
                text += f" {hidden} misses of other classes not shown."
            return head + text
        if stage == "diffs":
            return head + ("how much each attribute differs from the "
                           "reference, 0 to 1; a neighbour's diffs add up "
                           "to its distance.")
        order = np.argsort(-np.abs(step.update), kind="stable")[:3]
        moves = ", ".join(
            f"{escape(self.data.domain.attributes[a].name)} "
            f"{step.update[a]:+.3f}" for a in order if step.update[a])
        return head + ("misses' diffs up, hits' diffs down, times the "
                       "multipliers" +
                       (f": {moves}" if moves else ": no move") +
                       " (beside the bars). The weights: the mean of "
                       f"{self._count(len(self.lesson.applied), 'update')}.")

    def _k_narration(self, k, weights):
        """What a new k did to the weights of the same references."""
        moved = self.stepper.weights(self.lesson.applied) - weights
        return (f"<b>k = {self.stepper.k_nearest} instead of {k}</b>: the "
                f"same {self._count(len(self.lesson.applied), 'reference')},"
                f" their neighbours found again. "
                f"{self._moves(moved, 'The weights moved most')} (dashed: "
                f"with k = {k}; beside the bars: the change).")

    def _end_narration(self):
        """The end of a pass: the weights are final, the Relief widget's."""
        n = self.stepper.n_instances
        passes = len(self.lesson.applied) // n
        variant = VARIANTS[self.variant_index]
        method = (f"ReliefF, k = {self.stepper.k_nearest}"
                  if variant == RELIEFF.name else "Relief")
        weights = self.stepper.weights(self.lesson.applied)
        best = np.argsort(-weights, kind="stable")[:3]
        names = ", ".join(escape(self.data.domain.attributes[a].name)
                          for a in best)
        return (f"<b>End of {'the pass' if passes == 1 else 'pass '}"
                f"{'' if passes == 1 else passes}</b>: each of the {n} "
                f"instances has been the reference "
                f"{'once' if passes == 1 else f'{passes} times'}. These are "
                f"the final weights, the Relief widget's ({method}, every "
                f"instance a reference); the best: {names}.")

    def _moves(self, moves, words):
        """`words` and the three largest `moves` of the weights."""
        order = np.argsort(-np.abs(moves), kind="stable")[:3]
        listed = ", ".join(
            f"{escape(self.data.domain.attributes[a].name)} {moves[a]:+.3f}"
            for a in order if moves[a])
        return f"{words}: {listed}." if listed else "No weight moved."

    @staticmethod
    def _count(n, word, plural=None):
        return f"{n} {word if n == 1 else plural or word + 's'}"

    @staticmethod
    def _span(distances):
        if not len(distances):
            return "none"
        low, high = np.min(distances), np.max(distances)
        return f"{low:.3f}" if low == high else f"{low:.3f} to {high:.3f}"

    def _show_weights(self):
        """The bars of the weights so far.  At a step's update the dashed
        outlines are the weights before it and the numbers beside the
        update; after a new k, the weights with the previous k and the
        change; at the end of a pass the final weights alone."""
        applied = self.lesson.applied
        if not applied:
            self.bars.show_message("No updates yet.")
            return
        attributes = self.data.domain.attributes
        weights = self.stepper.weights(applied)
        effect, end = self._k_effect(), self.pass_complete()
        if effect is not None:
            previous, marks = effect[1], (f"dashed: with k = {effect[0]}",
                                          "right: the change")
        elif self.stage == "update" and not end:
            previous = self.stepper.weights(applied[:-1])
            marks = ("dashed: before this update", "right: the update")
        else:
            previous, marks = None, ()
        shown = np.arange(len(attributes))  # in the order of the data
        best = ""
        room = self._bars_room()
        if len(attributes) > room:  # more would not be readable
            shown = np.argsort(-weights, kind="stable")[:room]
            best = f"best {room} of {len(attributes)}, "
        moves = None if previous is None else weights - previous
        self.bars.set_weights(
            [attributes[i].name for i in shown], weights[shown],
            [f"{attributes[i].name}\nweight {weights[i]:.4f}"
             + ("" if moves is None else f"\nmoved by {moves[i]:+.4f}")
             for i in shown],
            [is_relevant(attributes[i]) for i in shown],
            previous=None if previous is None else previous[shown],
            numbers=None if moves is None else moves[shown],
            x_range=FIXED_RANGE if self.fixed_axis else None,
            legend=self._bars_legend([attributes[i] for i in shown], marks,
                                     end))
        self.bars.getAxis("bottom").setLabel(
            f"weight, {best}{self._count(len(applied), 'update')}")

    def _bars_room(self):
        """How many bars the weights' panel shows: at most
        :data:`MAX_BARS`, and no more than its height holds at the text's
        size (a projector's large text in a low panel)."""
        line = scaled_font(self.text_scale)
        height = self.bars.getViewBox().height()
        if not self.bars.isVisible() or height <= 0:  # not laid out yet
            return MAX_BARS
        fits = int(height // (1.15 * QFontMetrics(line).height()))
        return max(3, min(MAX_BARS, fits))

    @staticmethod
    def _bars_legend(attributes, marks, end):
        """What the bars' marks mean: the relevant attributes' star, the
        `marks` of the outlines and the numbers, or the end of a pass."""
        entries = ["<b>the final weights</b>"] if end else []
        if any(is_relevant(attr) for attr in attributes):
            entries.append(f"{RELEVANT_MARK.strip()} relevant (generated)")
        entries += marks
        return "<br/>".join(entries)  # one a line: the panel is narrow

    def _send(self):
        applied = self.lesson.applied
        self.Outputs.weights.send(
            weights_table(self.data.domain.attributes,
                          self.stepper.weights(applied))
            if applied else None)
        if not self.steps:
            self.Outputs.neighbourhood.send(None)
            return
        step = self.steps[-1]
        rows = [step.reference]
        if self.stage != "reference":
            rows += list(step.neighbours)
        subset = self.data[rows]
        subset.name = "Neighbourhood"
        self.Outputs.neighbourhood.send(subset)

    # --- widget life ------------------------------------------------------

    def send_report(self):
        variant = VARIANTS[self.variant_index]
        items = [("Method", variant)]
        if variant == RELIEFF.name:
            items.append(("Neighbours per class (k)", self.k_nearest))
        items.append(("Next reference",
                      f"random (seed {self.random_seed})" if self.sampled
                      else "in order"))
        items.append(("Steps", len(self.steps)))
        self.report_items("Settings", items)
        if self.data is None:
            return
        self.report_data("Data", self.data)
        self.report_plot("Instances", self.scatter.plotItem)
        if self.steps:
            self.report_caption(self.narration.text())
            self.report_table("This step", self.table.report_rows(),
                              header_rows=1, header_columns=1)
        if self.lesson.applied:
            self.report_plot("Weights", self.bars.plotItem)

    def onDeleteWidget(self):
        self.timer.stop()
        super().onDeleteWidget()


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief.generators import parity
    WidgetPreview(OWReliefSteps).run(parity(64, seed=0))
