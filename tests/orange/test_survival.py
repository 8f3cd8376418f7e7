"""Survival NPDR in Orange (orangecontrib.relief.survival) and on the
command line (``orange-relief rank --time T --event E``)."""
import os
import re
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import SurvivalNPDR, sklearn
from orangecontrib.relief.cli import main
from orangecontrib.relief.core.variants.survival_npdr import survival_npdr

SIMULATED = os.path.join(os.path.dirname(__file__), os.pardir, "data",
                         "survival", "survival_sim.csv")


def survival_table(n=80, marked=True, censored=0.3, seed=0):
    """Five attributes, a meta "age", and the time and event as the
    Survival Analysis add-on marks them (the two targets), or as plain
    attributes "time" and "status"."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 5))
    time = np.exp(3 + 0.6 * X[:, 0] + 0.2 * rng.standard_normal(n))
    event = (rng.random(n) >= censored).astype(float)
    age = rng.uniform(20, 80, (n, 1))
    time_var = ContinuousVariable("time")
    event_var = DiscreteVariable("status", values=("0", "1"))
    attributes = [ContinuousVariable(f"x{a}") for a in range(5)]
    age_var = ContinuousVariable("age")
    if not marked:
        domain = Domain(attributes + [time_var, event_var], metas=[age_var])
        return Table.from_numpy(domain, np.column_stack([X, time, event]),
                                metas=age)
    time_var.attributes["_time_to_event_var"] = "time"
    event_var.attributes["_time_to_event_var"] = "event"
    domain = Domain(attributes, [time_var, event_var], [age_var])
    return Table.from_numpy(domain, X, np.column_stack([time, event]), age)


def test_marked_and_named_columns_give_the_core_result():
    data = survival_table()
    marked = SurvivalNPDR(diffs="signed", covariates=["age"]).result(data)
    plain = survival_table(marked=False)
    named = SurvivalNPDR("time", "status", diffs="signed",
                         covariates=["age"]).result(plain)
    core = survival_npdr(data.X, data.Y[:, 0], data.Y[:, 1],
                         covariates=data.metas.astype(float),
                         diffs="signed")
    assert_allclose(marked.coefficient, core.coefficient, rtol=1e-12)
    assert_allclose(named.coefficient[:5], core.coefficient, rtol=1e-12)
    # time and status are attributes of the plain table: not scored
    assert np.isnan(named.coefficient[5:]).all()
    scores = SurvivalNPDR("time", "status", diffs="signed")(plain)
    assert_array_equal(scores[5:], -np.inf)
    assert scores[0] == scores.max()  # |b| of the main effect


@pytest.mark.parametrize("scorer, message", [
    (SurvivalNPDR(), "needs a survival time and an event"),
    (SurvivalNPDR(time="x0"), "has no event column"),
    (SurvivalNPDR(time="x0", event="x0"), "both the time and the event"),
    (SurvivalNPDR(time="nothing", event="x1"), "'nothing' is not a column"),
    (SurvivalNPDR("time", "status", covariates=["time"]),
     "is the survival time or the event"),
])
def test_missing_or_wrong_columns_are_named(scorer, message):
    with pytest.raises(ValueError, match=message):
        scorer(survival_table(marked=False))


def run(capsys, *argv):
    """Run the CLI; return (exit code, stdout lines, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_command_line_ranks_by_survival_npdr(capsys):
    code, lines, err = run(capsys, "rank", SIMULATED, "--method", "NPDR",
                           "--time", "time", "--event", "status",
                           "--covariates", "age,sex", "--signed",
                           "--impute", "--top", "6")
    assert code == 0
    assert lines[0].split() == ["rank", "attribute", "weight", "p", "q"]
    assert {line.split()[1] for line in lines[1:7]} == {
        f"x{a}" for a in range(1, 7)}  # the six main effects
    assert "24 attributes" in lines[-1] and "signed diffs" in lines[-1]
    assert "too small" in err


def test_command_line_refuses_a_method_of_classes(capsys):
    code, lines, err = run(capsys, "rank", SIMULATED, "--time", "time",
                           "--event", "status", "--method", "ReliefF")
    assert code == 2 and lines == []
    assert len(err.strip().splitlines()) == 1
    assert "--method ReliefF takes a class" in err


def changed_file(tmp_path, change):
    """survival_sim.csv with `change` made to its time and status columns
    (lists of strings, the data rows'); the path of the copy."""
    with open(SIMULATED) as f:
        rows = [line.rstrip("\n").split(",") for line in f]
    times, events = [row[-2] for row in rows[1:]], [row[-1]
                                                      for row in rows[1:]]
    change(times, events)
    for row, time, event in zip(rows[1:], times, events):
        row[-2:] = time, event
    path = tmp_path / "survival.csv"
    path.write_text("\n".join(",".join(row) for row in rows) + "\n")
    return path


def every(value):
    def change(column):
        column[:] = [value] * len(column)
    return change


def at(row, value):
    def change(column):
        column[row] = value
    return change


#: (case, change of (times, events), whether the event column is given,
#: what is expected of each entry point: an error with this message, or
#: a warning (the rows left out) where the entry point leaves them out)
BAD_INPUT = [
    ("every event censored", lambda t, e: every("0")(e), True,
     dict(all="Every time is censored")),
    ("a negative time", lambda t, e: at(2, "-1")(t), True,
     dict(all="not negative, got -1 in row 2")),
    ("an event of 2", lambda t, e: at(3, "2")(e), True,
     dict(all=r"must be 1 \(an event\) or 0 \(censored\), got 2 in row 3")),
    ("every time the same", lambda t, e: every("50")(t), True,
     dict(all="Every survival time is 50")),
    ("a time without an event column", lambda t, e: None, False,
     dict(scorer="'time' has no event column",
          cli="'time' has no event column",
          estimator="structured array .* or two columns")),
    ("a missing time", lambda t, e: at(4, "?")(t), True,
     dict(scorer="warning: 1 of the 150 instances have no survival time",
          cli="warning: 1 of the 150 instances have no survival time",
          estimator=r"times are missing \(NaN\) in row 4")),
]


def run_scorer(path, with_event):
    scorer = (SurvivalNPDR("time", "status") if with_event
              else SurvivalNPDR("time"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scorer(Table.from_file(str(path)))
    return "".join(f"warning: {w.message}\n" for w in caught)


def run_estimator(path, with_event):
    data = np.genfromtxt(path, delimiter=",", skip_header=1,
                         missing_values="?", filling_values=np.nan)
    y = data[:, -2] if not with_event else data[:, [-1, -2]]
    sklearn.SurvivalNPDR().fit(data[:, :-2], y)


@pytest.mark.parametrize("entry", ["scorer", "cli", "estimator"])
@pytest.mark.parametrize("case, change, with_event, expected", BAD_INPUT,
                         ids=[case[0] for case in BAD_INPUT])
def test_bad_input_is_one_clear_line_everywhere(capsys, tmp_path, entry,
                                                case, change, with_event,
                                                expected):
    path = changed_file(tmp_path, change)
    message = expected.get(entry, expected.get("all"))
    warns = message.startswith("warning: ")
    message = message.removeprefix("warning: ")
    if entry == "cli":
        argv = ["rank", str(path), "--time", "time"]
        code, lines, err = run(capsys, *argv, *(["--event", "status"]
                                               if with_event else []))
        matching = [line for line in err.splitlines()
                    if re.search(message, line)]
        assert len(matching) == 1, err
        if warns:
            assert code == 0
        else:
            assert code == 2 and lines == [] and err.count("\n") == 1
        return
    run_entry = run_scorer if entry == "scorer" else run_estimator
    if warns:
        assert re.search(message, run_entry(path, with_event))
        return
    with pytest.raises(ValueError, match=message) as raised:
        run_entry(path, with_event)
    assert "\n" not in str(raised.value)
