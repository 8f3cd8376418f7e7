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

from orangecontrib.relief.consensus import METHODS, Consensus
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.scorers import fits
from orangecontrib.relief.widgets.common import (NO_CLASS, known_flags,
                                                 shut_down_at_once,
                                                 within_ranges)

#: Orange's own univariate scorers the widget offers beside its inputs
ORANGE_SCORERS = {"Information Gain": score.InfoGain,
                  "Gain Ratio": score.GainRatio,
                  "Gini Decrease": score.Gini,
                  "ANOVA": score.ANOVA,
                  "\u03c7\u00b2": score.Chi2,
                  "Univariate Regression": score.UnivariateLinearRegression}
METHOD_LABELS = ("Mean rank", "Borda count")
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


def ranks_table(attributes, names, ranks, method_index):
    """A table of the attributes, the best consensus first: the mean rank
    or the Borda count (as `method_index` chooses), the rank by each
    scorer and the attribute's name (a meta)."""
    mean = ranks.mean(axis=0)
    order = np.argsort(mean, kind="stable")
    values = mean if METHODS[method_index] == "mean rank" \
        else len(mean) - mean
    columns = [ContinuousVariable(METHOD_LABELS[method_index].lower())] + [
        ContinuousVariable(f"rank by {name}") for name in names]
    table = Table.from_numpy(
        Domain(columns, metas=[StringVariable("attribute")]),
        np.column_stack([values, ranks.T])[order],
        metas=np.array([[attributes[i].name] for i in order], dtype=object))
    table.name = "Consensus ranks"
    return table


class OWConsensus(OWWidget, ConcurrentWidgetMixin):
    name = "Consensus Ranking"
    description = ("One ranking from several scorers: the mean of their "
                   "ranks, or Borda's count, as a scorer for Rank.")
    icon = "icons/Consensus.svg"
    priority = 17
    settings_version = 1
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

    method_index = Setting(0)
    orange_scorers = Setting(["Information Gain"])

    want_main_area = True

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        known_flags(self)
        within_ranges(self, {"method_index": (0, len(METHODS) - 1)})
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
                       "data's class are left out).")
        self.orange_boxes = {}
        for name in ORANGE_SCORERS:
            check = QCheckBox(name, checked=name in self.orange_scorers)
            check.toggled.connect(self._on_orange_changed)
            box.layout().addWidget(check)
            self.orange_boxes[name] = check
        box = gui.vBox(self.controlArea, "Combine")
        gui.radioButtons(
            box, self, "method_index", METHOD_LABELS,
            callback=self.commit,
            tooltips=["Sort by the mean of each attribute's ranks (1 for "
                      "the best); Rank's column holds minus the mean rank, "
                      "so that the best is on top.",
                      "Borda's count: how many attributes each scorer "
                      "puts below the attribute, averaged (the same order "
                      "as the mean rank, counted from the bottom)."])
        gui.rubber(self.controlArea)

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
        consensus = Consensus(scorers.values(), METHODS[self.method_index])
        self.names = list(scorers)
        self.Outputs.scorer.send(RankScorer(consensus))
        if self.data is not None:
            self.start(compute_ranks, consensus, self.data)

    def on_done(self, ranks):
        table = ranks_table(self.data.domain.attributes, self.names, ranks,
                            self.method_index)
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
        self.model.setHorizontalHeaderLabels(
            ["Attribute", METHOD_LABELS[self.method_index]] + self.names)
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
            self.model.horizontalHeaderItem(column).setToolTip(
                self.model.horizontalHeaderItem(column).text())
        self.info_label.setText(
            f"The rank of each attribute by {len(self.names)} scorers (1: "
            f"the best) and their consensus; the Scorer output gives Rank "
            f"the consensus as one column.")

    # --- widget life ------------------------------------------------------

    def send_report(self):
        self.report_items("Settings", [
            ("Scorers", ", ".join(self.scorers())),
            ("Combined by", METHOD_LABELS[self.method_index])])
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
