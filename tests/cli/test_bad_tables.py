"""``orange-relief rank`` on files of bad or extreme tables: each ends with
the ranking (exit 0) or one line of error (exit 2), never a traceback."""
import numpy as np
import pytest

from orangecontrib.relief.cli import main
from tests.orange.test_input_matrix import tables

#: tables a .tab file cannot hold as they are
UNSAVABLE = ("sparse", "0 attributes", "two targets")


@pytest.mark.parametrize("case", [c for c in tables() if c not in UNSAVABLE])
@pytest.mark.parametrize("method", [[], ["--method", "Relief"],
                                    ["--method", "RReliefF"]])
def test_rank_ends_cleanly(case, method, tmp_path, capsys):
    data = tables()[case]
    filename = str(tmp_path / "data.tab")
    with np.errstate(all="ignore"):
        data.save(filename)
    code = main(["rank", filename, *method])
    out, err = capsys.readouterr()
    assert code in (0, 2)
    assert "Traceback" not in err
    if code == 2:
        assert err.count("\n") == 1 and out == ""
    else:
        assert out.splitlines()[0].split() == ["rank", "attribute", "weight"]


def one_line_error(code, out, err):
    """Whether a command ended with one line of error (exit 2), no
    traceback and no output."""
    return (code == 2 and out == "" and err.count("\n") == 1
            and err.startswith("orange-relief") and "Traceback" not in err)


#: name -> (write the file into a folder, given as its path; a phrase the
#: one-line error must hold, or None: the ranking)
FILES = {
    "missing": (lambda folder: folder / "missing.tab", "no such file"),
    "a folder": (lambda folder: folder, "is a folder"),
    "empty": (lambda folder: write(folder / "empty.tab", b""), "is empty"),
    "binary bytes": (lambda folder: write(
        folder / "binary.tab", bytes(range(256)) * 4), "binary data"),
    "text of no known format": (lambda folder: write(
        folder / "notes.md", b"hello world\n"), "cannot read"),
    "plain text without a table": (lambda folder: write(
        folder / "notes.txt", b"hello world\n"), "holds no table"),
    "a header only": (lambda folder: write(
        folder / "header.tab", b"a\tb\tc\n"), "holds no table"),
    "a class declaring an absent value": (lambda folder: write(
        folder / "absent.tab",
        b"a\tb\tc\ncontinuous\tcontinuous\ta b c\n\t\tclass\n"
        b"1\t2\ta\n2\t3\tc\n3\t1\ta\n4\t5\tc\n"), None),
}


def write(path, content):
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("method", [[], ["--method", "Relief"]])
@pytest.mark.parametrize("case", FILES)
def test_files(case, method, tmp_path, capsys):
    """7 files x 2 methods: 12 one-line errors, 2 rankings (Relief on the
    two classes present of three declared)."""
    make, phrase = FILES[case]
    code = main(["rank", str(make(tmp_path)), *method])
    out, err = capsys.readouterr()
    if phrase is None:
        assert code == 0 and err == ""
        assert out.splitlines()[0].split() == ["rank", "attribute", "weight"]
    else:
        assert one_line_error(code, out, err) and phrase in err, err


#: bad values of the flags of ``orange-relief rank``: each is refused on
#: one line that names the flag
FLAGS = [
    ["--top", "0"], ["--top", "-3"], ["--top", "nan"], ["--top", "2.5"],
    ["--k", "0"], ["--k", "nan"], ["--k", "inf"],
    ["--iterations", "0"], ["--iterations", "1e9"],
    ["--iterations", str(10 ** 30)],
    ["--seed", "-1"], ["--seed", "nan"],
    ["--method", "Unknown"], ["--method", ""], ["--diff", "cubic"],
    ["--diff", "ramp", "--t-eq", "nan"], ["--diff", "ramp", "--t-diff", "-1"],
    ["--diff", "ramp", "--t-eq", "0.5", "--t-diff", "0.1"],
    ["--significance", "magic"],
    ["--significance", "stir", "--fdr", "nan"],
    ["--significance", "stir", "--fdr", "inf"],
    ["--significance", "stir", "--fdr", "-0.1"],
    ["--significance", "stir", "--adjust", "sidak"],
    ["--significance", "permutation", "--permutations", "0"],
    ["--significance", "permutation", "--permutations", "nan"],
    ["--significance", "permutation", "--permutations", str(10 ** 9)],
    ["--class", "no such column"], ["--class", "name"],
    ["--stability", "0"], ["--stability", "many"],
    ["--stability", "3", "--subsample", "1.5"],
    ["--stability", "1"], ["--stability", "3", "--top", "17"],
    ["--method", "NPDR", "--covariates", "hair,hair"],
    ["--method", "NPDR", "--covariates", "type"],
    ["--t-eq", "0.1"], ["--subsample", "0.5"], ["--seed", "2"],
]


@pytest.mark.parametrize("flags", FLAGS, ids=" ".join)
def test_flags(flags, capsys):
    """Bad flag values, flags without the flag they need: one-line errors
    naming the flag."""
    try:
        code = main(["rank", "zoo", *flags])
    except SystemExit as exit_info:  # argparse's own checks
        code = exit_info.code
    out, err = capsys.readouterr()
    assert one_line_error(code, out, err), err
    assert flags[-2] in err, err
