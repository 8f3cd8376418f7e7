"""``orange-relief curve`` (orangecontrib.relief.cli.curve)."""
import numpy as np
import pytest
from Orange.data import Table
from Orange.modelling import KNNLearner

from orangecontrib.relief import ReliefF
from orangecontrib.relief.cli import main
from orangecontrib.relief.curve import selection_curve
from orangecontrib.relief.datasets import path


def run(capsys, *argv):
    """Run the CLI; return (exit code, stdout lines, stderr), argparse's
    refusals too."""
    try:
        code = main(list(argv))
    except SystemExit as end:
        code = end.code
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_the_curve_of_heart_disease_its_choice_and_its_figure(capsys,
                                                              tmp_path):
    figure = tmp_path / "heart.png"
    code, lines, _ = run(capsys, "curve", "--folds", "4", "--figure",
                         str(figure))
    assert code == 0
    expected = selection_curve(Table(path("heart_disease")), KNNLearner(),
                               ReliefF(), n_folds=4)
    assert lines[0].split() == ["attributes", "CA", "std.err"]
    rows = [line.split() for line in lines[1:len(expected.counts) + 1]]
    assert [int(row[0]) for row in rows] == list(expected.counts)
    np.testing.assert_allclose([float(row[1]) for row in rows],
                               expected.mean, atol=5e-5)
    chosen = [row[0] for row in rows if "chosen" in row[-1]]
    assert chosen == [str(expected.chosen)]
    assert lines[-3].startswith(f"chosen: {expected.chosen} of 13 "
                                f"attributes")
    assert "ReliefF, kNN, 4-fold cross-validation" in lines[-2]
    assert lines[-1] == f"figure: {figure}"
    assert figure.read_bytes()[:4] == b"\x89PNG"


def test_no_figure_and_another_learner(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, lines, _ = run(capsys, "curve", "wine", "--learner", "tree",
                         "--folds", "3", "--score", "AUC", "--no-figure")
    assert code == 0 and lines[0].split()[1] == "AUC"
    assert not any(tmp_path.iterdir())
    assert "tree, 3-fold" in lines[-1]


@pytest.mark.parametrize("argv, message", [
    (["cpu", "--learner", "logreg"], "--learner logreg (logistic "
     "regression) needs a categorical class"),
    (["--score", "R2"], "R2 scores a numeric class"),
    (["--folds", "1"], "argument --folds: must be an integer >= 2, not '1'"),
    (["--folds", "0"], "argument --folds: must be an integer >= 2, not '0'"),
    (["--method", "RReliefF"], "RReliefF does not fit")])
def test_bad_choices_are_one_line_errors(capsys, argv, message):
    code, lines, err = run(capsys, "curve", "--no-figure", *argv)
    assert code == 2 and not lines
    assert err.startswith("orange-relief curve: error: ")
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("name, message", [
    ("no/such/folder.png", "no folder"),
    ("folder.png", "a folder, not a file"),
    ("curve.xyz", "cannot draw a figure as 'xyz'")])
def test_a_figure_that_cannot_be_written(capsys, tmp_path, name, message):
    """Refused before the curve is computed."""
    (tmp_path / "folder.png").mkdir()
    code, lines, err = run(capsys, "curve", "--folds", "2", "--figure",
                           str(tmp_path / name))
    assert code == 2 and not lines and message in err


def test_a_figure_is_written_where_it_says(capsys, tmp_path):
    """In the format of its extension; without one, as a PNG whose name
    the command gives."""
    for name, written, magic in (("curve", "curve.png", b"\x89PNG"),
                                 ("curve.pdf", "curve.pdf", b"%PDF")):
        code, lines, _ = run(capsys, "curve", "--folds", "2", "--figure",
                             str(tmp_path / name))
        assert code == 0 and lines[-1] == f"figure: {tmp_path / written}"
        assert (tmp_path / written).read_bytes()[:4] == magic
    with pytest.raises(SystemExit) as end:
        main(["curve", "--figure", "a.png", "--no-figure"])
    assert end.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_the_learners_warnings_are_summarised_once(capsys):
    # Orange's logistic regression against scikit-learn 1.8 warns at every
    # fit (180 lines for this curve before): each kind once, with a count
    import warnings

    code, lines, err = run(capsys, "curve", "--learner", "logreg",
                           "--folds", "5", "--no-figure")
    assert code == 0 and lines
    for line in err.splitlines():
        assert line.startswith("orange-relief curve: warning: "), line
    assert len(err.splitlines()) == len(set(err.splitlines())) <= 5
    # the filters are as they were: nothing silenced for the rest
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("after the command", FutureWarning)
    assert len(caught) == 1


def test_the_engine_that_answers_is_named(capsys, monkeypatch):
    from orangecontrib.relief.core import engines

    monkeypatch.setattr(engines, "decide", lambda work, parts=(): (
        engines.VECTORISED, engines.PREPARING))
    code, _, err = run(capsys, "curve", "--folds", "3", "--no-figure")
    assert code == 0
    assert err.startswith("Vectorised engine (numpy); the compiled engine ")
