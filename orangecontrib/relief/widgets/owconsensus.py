"""The Consensus Ranking widget: one ranking from several scorers, for the
Rank widget."""
import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtGui import QStandardItem, QStandardItemModel
from AnyQt.QtWidgets import QCheckBox, QTableView

from Orange.data import ContinuousVariable, Domain, StringVariable, Table
from Orange.preprocess import score
from Orange.preprocess.score import Scorer
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, MultiInput, Msg, Output, OWWidget

from orangecontrib.relief.consensus import Consensus
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.scorers import fits
from orangecontrib.relief.widgets.common import (NO_CLASS, known_flags,
                                                 shut_down_at_once)

#: Orange's own univariate scorers the widget offers beside its inputs,
#: and what each measures, in plain words
ORANGE_SCORERS = {"Information Gain": score.InfoGain,
                  "Gain Ratio": score.GainRatio,
                  "Gini Decrease": score.Gini,
                  "ANOVA": score.ANOVA,
                  "\u03c7\u00b2": score.Chi2,
                  "Univariate Regression": score.UnivariateLinearRegression}
ORANGE_TIPS = {
    "Information Gain": "How much the attribute alone tells about the "
                        "class: the drop in the class's entropy "
                        "(uncertainty) once the attribute is known.",
    "Gain Ratio": "Information gain divided by the attribute's own "
                  "entropy, so that attributes of many values are not "
                  "favoured.",
    "Gini Decrease": "How much the attribute alone lowers the Gini "
                     "impurity of the class (the chance that two instances "
                     "drawn at random differ in class).",
    "ANOVA": "How far apart the classes' means of a numeric attribute are, "
             "against the spread within the classes (the F statistic).",
    "\u03c7\u00b2": "How far the counts of the attribute's values in each "
                   "class are from independence (chi-square).",
    "Univariate Regression": "For a numeric class: how well a straight "
                             "line of the attribute alone predicts it (the "
                             "F statistic)."}
#: the name of the consensus, as Rank's column and the first of the
#: table: what its numbers say (short enough for Rank's narrow columns)
CONSENSUS = "Outranks"
#: the widest a column of ranks gets (a longer name is elided; its tooltip
#: is whole)
RANK_COLUMN_WIDTH = 120


def scorer_name(scorer):
    """A scorer's column name: Rank's (`name`), else its own."""
    return (getattr(scorer, "name", None)
            or getattr(scorer, "friendly_name", type(scorer).__name__))


def compute_ranks(consensus, data, state: TaskState):
    """The (scorers, a) ranks of `data`'s attributes (runs in a worker
    thread)."""
    state.set_status("Ranking ...")
    return consensus.ranks(data)


def ranks_table(attributes, names, ranks):
    """A table of the attributes, the best consensus first: the consensus
    (Borda's count: how many attributes the scorers put below it, on
    average), the mean rank, the rank by each scorer and the attribute's
    name (a meta)."""
    mean = ranks.mean(axis=0)
    order = np.argsort(mean, kind="stable")
    columns = [ContinuousVariable(CONSENSUS.lower()),
               ContinuousVariable("mean rank")] + [
        ContinuousVariable(f"rank by {name}") for name in names]
    table = Table.from_numpy(
        Domain(columns, metas=[StringVariable("attribute")]),
        np.column_stack([len(mean) - mean, mean, ranks.T])[order],
        metas=np.array([[attributes[i].name] for i in order], dtype=object))
    table.name = "Consensus ranks"
    return table


class OWConsensus(OWWidget, ConcurrentWidgetMixin):
    name = "Consensus Ranking"
    description = ("One ranking from several scorers: how many attributes "
                   "they rank below each, on average, as a scorer for "
                   "Rank.")
    icon = "icons/Consensus.svg"
    priority = 17
    settings_version = 2
    keywords = ("consensus, rank aggregation, borda, mean rank, ensemble "
                "feature selection, scorer")

    class Inputs:
        data = Input("Data", Table)
        scorers = MultiInput("Scorer", Scorer, filter_none=True)

    class Outputs:
        scorer = Output("Scorer", Scorer)
        ranks = Output("Ranks", Table)

    class Error(OWWidget.Error):
        no_class = Msg(NO_CLASS)
        ranking = Msg("{}")

    class Warning(OWWidget.Warning):
        too_few = Msg("A consensus needs two scorers at least: connect "
                      "scorers (the Relief widget's, a learner's) or check "
                      "Orange's.")
        misfit = Msg("Left out, as they cannot score this class: {}.")

    orange_scorers = Setting(["Information Gain"])

    want_main_area = True

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        known_flags(self)
        if not isinstance(self.orange_scorers, list):
            self.orange_scorers = []
        self.orange_scorers = [name for name in self.orange_scorers
                               if name in ORANGE_SCORERS]
        self.data = None
        self.inputs = []
        self._build_controls()
        self.view = QTableView(sortingEnabled=True,
                               editTriggers=QTableView.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.horizontalHeader().setTextElideMode(Qt.ElideMiddle)
        self.model = QStandardItemModel(self)
        self.view.setModel(self.model)
        self.mainArea.layout().addWidget(self.view)
        self.info_label = gui.widgetLabel(self.mainArea, "")
        self.info_label.setWordWrap(True)

    def _build_controls(self):
        box = gui.vBox(self.controlArea, "Orange's scorers")
        box.setToolTip("Orange's own scorers to rank with, beside the "
                       "scorers on the input (those that cannot score the "
                       "data's class are left out). Each looks at one "
                       "attribute at a time.")
        self.orange_boxes = {}
        for name in ORANGE_SCORERS:
            check = QCheckBox(name, checked=name in self.orange_scorers,
                              toolTip=ORANGE_TIPS[name])
            check.toggled.connect(self._on_orange_changed)
            box.layout().addWidget(check)
            self.orange_boxes[name] = check
        gui.rubber(self.controlArea)

    @classmethod
    def migrate_settings(cls, settings, version):
        # version 1 chose between the mean rank and Borda's count for
        # Rank's column (the same order); the table now shows both and
        # Rank gets the count, which is positive, higher the better
        if version is not None and version < 2:
            settings.pop("method_index", None)

    def _on_orange_changed(self):
        self.orange_scorers = [name for name, check in
                               self.orange_boxes.items() if check.isChecked()]
        self.commit()

    # --- inputs -----------------------------------------------------------

    @Inputs.data
    def set_data(self, data):
        self.Error.no_class.clear()
        self.data = data
        if data is not None and data.domain.class_var is None:
            self.Error.no_class()
            self.data = None

    @Inputs.scorers
    def set_scorer(self, index, scorer):
        self.inputs[index] = scorer

    @Inputs.scorers.insert
    def insert_scorer(self, index, scorer):
        self.inputs.insert(index, scorer)

    @Inputs.scorers.remove
    def remove_scorer(self, index):
        self.inputs.pop(index)

    def handleNewSignals(self):
        self.commit()

    # --- work -------------------------------------------------------------

    def scorers(self):
        """{name: scorer} of the consensus: the inputs, then Orange's
        checked ones; with data, those that fit its class."""
        chosen = {}
        for scorer in self.inputs:  # two of a name: "name (2)"
            name, copies = scorer_name(scorer), 1
            while name in chosen:
                copies += 1
                name = f"{scorer_name(scorer)} ({copies})"
            chosen[name] = scorer
        chosen.update((name, ORANGE_SCORERS[name]()) for name in ORANGE_SCORERS
                      if name in self.orange_scorers)
        if self.data is None:
            self.Warning.misfit.clear()
            return chosen
        class_var = self.data.domain.class_var
        misfits = [name for name, s in chosen.items() if not fits(s, class_var)]
        self.Warning.misfit(", ".join(misfits), shown=bool(misfits))
        return {name: s for name, s in chosen.items() if fits(s, class_var)}

    def commit(self):
        """Send the consensus scorer and, given data, rank."""
        self.cancel()
        self.Error.ranking.clear()
        scorers = self.scorers()
        self.Warning.too_few(shown=len(scorers) < 2)
        self.model.clear()
        self.info_label.setText("")
        self.Outputs.ranks.send(None)
        if len(scorers) < 2:
            self.Outputs.scorer.send(None)
            return
        consensus = Consensus(scorers.values(), "borda", name=CONSENSUS)
        self.names = list(scorers)
        self.Outputs.scorer.send(RankScorer(consensus))
        if self.data is not None:
            self.start(compute_ranks, consensus, self.data)

    def on_done(self, ranks):
        table = ranks_table(self.data.domain.attributes, self.names, ranks)
        self.Outputs.ranks.send(table)
        self._show(table)

    def on_exception(self, ex):
        if not isinstance(ex, ValueError):
            raise ex
        self.Error.ranking(str(ex))

    def on_partial_result(self, result):
        pass

    def _show(self, table):
        """The ranks in the view, the best consensus first."""
        self.model.clear()
        n_attributes = len(table)
        headers = [("Attribute", "The attribute."),
                   (CONSENSUS, f"How many attributes the scorers rank below "
                               f"it, on average ({n_attributes - 1} for one "
                               f"first by every scorer; Borda's count). "
                               f"Rank's column."),
                   ("Mean rank", "The mean of its ranks (1 for the best).")]
        headers += [(name, f"Its rank by {name} (1 for the best).")
                    for name in self.names]
        self.model.setHorizontalHeaderLabels([text for text, _ in headers])
        for column, (_, tip) in enumerate(headers):
            self.model.horizontalHeaderItem(column).setToolTip(tip)
        for name, row in zip(table.metas[:, 0], table.X):
            items = [QStandardItem(name)]
            for value in row:
                item = QStandardItem()
                item.setData(round(float(value), 3), Qt.DisplayRole)
                items.append(item)
            self.model.appendRow(items)
        self.view.resizeColumnsToContents()
        for column in range(1, self.model.columnCount()):  # long names
            self.view.setColumnWidth(column, min(
                self.view.columnWidth(column), RANK_COLUMN_WIDTH))
        self.info_label.setText(
            f"The rank of each attribute by {len(self.names)} scorers (1: "
            f"the best). {CONSENSUS}: how many attributes they rank below "
            f"it, on average ({n_attributes - 1} at most), their consensus; "
            f"the Scorer output gives Rank this column.")

    # --- widget life ------------------------------------------------------

    def send_report(self):
        self.report_items("Settings", [
            ("Scorers", ", ".join(self.scorers())),
            ("Combined by", "the mean of the ranks (Borda's count)")])
        if self.model.rowCount():
            self.report_table("Ranks", self.view)

    def onDeleteWidget(self):
        shut_down_at_once(self)
        super().onDeleteWidget()


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief import MultiSURF, ReliefF
    from orangecontrib.relief.datasets import path
    WidgetPreview(OWConsensus).run(
        set_data=Table(path("heart_disease")),
        insert_scorer=[(0, RankScorer(ReliefF())),
                       (1, RankScorer(MultiSURF()))])
