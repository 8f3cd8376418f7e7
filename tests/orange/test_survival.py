"""Survival NPDR in Orange (orangecontrib.relief.survival) and on the
command line (``orange-relief rank --time T --event E``)."""
import os

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import SurvivalNPDR
from orangecontrib.relief.cli import main
from orangecontrib.relief.core.survival_npdr import survival_npdr

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


@pytest.mark.parametrize("change, message", [
    ("all censored", "Every time is censored"),
    ("negative", "not negative, got -1 in row 2"),
    ("no event", "has no event column"),
    ("relieff", "--method ReliefF takes a class"),
])
def test_command_line_bad_input_is_one_line(capsys, tmp_path, change,
                                            message):
    with open(SIMULATED) as f:
        rows = [line.rstrip("\n").split(",") for line in f]
    if change == "all censored":
        for row in rows[1:]:
            row[-1] = "0"
    if change == "negative":
        rows[3][-2] = "-1"
    path = tmp_path / "survival.csv"
    path.write_text("\n".join(",".join(row) for row in rows) + "\n")
    argv = ["rank", str(path), "--time", "time"]
    if change != "no event":
        argv += ["--event", "status"]
    if change == "relieff":
        argv += ["--method", "ReliefF"]
    code, lines, err = run(capsys, *argv)
    assert code == 2 and lines == []
    assert len(err.strip().splitlines()) == 1 and message in err
