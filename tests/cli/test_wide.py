"""``orange-relief rank`` on PLINK .bed and AnnData .h5ad files (cli.wide),
and ``--wrapper`` on any data."""
import numpy as np
import pytest

from orangecontrib.relief.cli import main
from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.variants.swrf import swrfstar
from orangecontrib.relief.readers import extras
from tests.readers.conftest import genotypes_and_class, write_bed


def run(capsys, *argv):
    """(exit code, stdout lines, stderr) of the command line `argv`,
    argparse's refusals too."""
    try:
        code = main([str(arg) for arg in argv])
    except SystemExit as end:
        code = end.code
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def ranked(lines):
    """{attribute: weight} of a ranking's rows."""
    return {row.split()[1]: float(row.split()[2]) for row in lines[1:-1]}


@pytest.fixture
def bed(tmp_path):
    genotypes, y = genotypes_and_class()
    path = write_bed(tmp_path, genotypes, [str(v + 1) for v in y])
    (tmp_path / "pheno.txt").write_text("FID IID status\n" + "".join(
        f"0 iid{i + 1} {v + 1}\n" for i, v in enumerate(y)))
    return path, genotypes, y


def test_a_bed_ranked_with_its_phenotype_file(capsys, bed, monkeypatch):
    path, genotypes, y = bed
    monkeypatch.setenv("ORANGE_RELIEF_PROGRESS", "1")
    code, lines, err = run(capsys, "rank", path, "--pheno",
                           path.parent / "pheno.txt", "--k", 5)
    assert code == 0
    assert err.splitlines()[0] == (
        f"{path}: 80 individuals x 30 attributes (int8), status: classes "
        f"control, case")
    weights = relieff(genotypes.astype(float), y, k_nearest=5)
    expected = {f"sid{j + 1}": w for j, w in enumerate(weights)}
    assert ranked(lines) == pytest.approx(
        {name: expected[name] for name in ranked(lines)}, abs=1e-6)
    assert set(list(ranked(lines))[:2]) == {"sid1", "sid2"}
    assert lines[-1].startswith("80 instances, 30 attributes, method "
                                "ReliefF, ")


def test_the_convention_reaches_a_bed_s_swrf(capsys, bed):
    """--convention on a .bed file: SWRF* with scikit-rebate's far scores,
    as the core gives them, and other weights by default."""
    path, genotypes, y = bed
    weights = {}
    for convention in ("add-on", "scikit-rebate"):
        code, lines, _ = run(capsys, "rank", path, "--method", "SWRF*",
                             "--convention", convention)
        assert code == 0
        weights[convention] = ranked(lines)
    expected = swrfstar(genotypes.astype(float), y,
                        convention="scikit-rebate")
    assert weights["scikit-rebate"] == pytest.approx(
        {f"sid{j + 1}": w for j, w in enumerate(expected)}, abs=1e-6)
    assert weights["add-on"] != weights["scikit-rebate"]


def test_the_wrappers_name_themselves(capsys, bed):
    for wrapper, words in (("turf", "in TuRF"), ("vls", "in VLS"),
                           ("iter", "in Iter")):
        code, lines, _ = run(capsys, "rank", bed[0], "--wrapper", wrapper,
                             "--subset-size", 10, "--top", 2)
        assert code == 0 and len(lines) == 4
        assert f"method ReliefF {words}, " in lines[-1]


def test_an_h5ad_ranked_by_a_column_of_obs(capsys, tmp_path):
    from tests.readers.test_h5ad import counts, write

    path = write(tmp_path / "cells.h5ad", *counts())
    code, lines, err = run(capsys, "rank", path, "--class", "cell_type",
                           "--top", 1)
    assert code == 0 and lines[1].split()[1] == "gene3"
    assert lines[-1].startswith("60 instances, 40 attributes, method "
                                "ReliefF")


def test_the_table_path_takes_a_wrapper(capsys):
    code, lines, _ = run(capsys, "rank", "heart_disease", "--wrapper", "vls",
                         "--top", 3)
    assert code == 0 and "method ReliefF in VLS" in lines[-1]


#: arguments after the study's .bed (None: a .bed file that is not there)
#: and the start of the one line of error
BAD = {
    "no such .bed": (None, [], "orange-relief rank: error: "),
    "a test of a table": ([], ["--significance", "stir"],
                          "--significance needs the data as an Orange "
                          "table"),
    "stability": ([], ["--stability", "10"], "--stability needs the data"),
    "a method of the other task": ([], ["--method", "RReliefF"],
                                   "RReliefF does not fit a class with 2"),
    "k of a method without": ([], ["--method", "MultiSURF", "--k", "3"],
                              "MultiSURF takes no k"),
    "--class without --pheno": ([], ["--class", "status"],
                                "--class status names a column of a "
                                "phenotype file"),
    "a subset of one": ([], ["--wrapper", "vls", "--subset-size", "1"],
                        "--subset-size: must be an integer >= 2, not "
                        "'1'"),
    "iter around a method without distance weights": (
        [], ["--wrapper", "iter", "--method", "MultiSWRF"],
        "MultiSWRF takes no distance weights"),
}


@pytest.mark.parametrize("args, more, message", BAD.values(), ids=BAD.keys())
def test_bad_input_is_one_line_and_exit_2(capsys, bed, args, more, message):
    path = bed[0] if args is not None else bed[0].with_name("none.bed")
    code, lines, err = run(capsys, "rank", path, *more)
    assert code == 2 and lines == []
    assert err.count("\n") == 1 and message in err


def test_pheno_on_a_table_is_refused(capsys):
    code, _, err = run(capsys, "rank", "heart_disease", "--pheno", "p.txt")
    assert code == 2 and "--pheno gives the phenotypes of a PLINK .bed" in err


def test_a_missing_extra_is_one_line(capsys, bed, monkeypatch):
    def absent(name):
        raise ImportError(name)

    monkeypatch.setattr(extras.importlib, "import_module", absent)
    code, _, err = run(capsys, "rank", bed[0])
    assert code == 2 and err.count("\n") == 1
    assert "pip install \"Orange3-Relief[genomics]\"" in err


def test_missing_genotypes_are_scored_as_missing(capsys, tmp_path):
    genotypes, y = genotypes_and_class(n=40, a=6)
    genotypes[::5, 2] = -127
    path = write_bed(tmp_path, genotypes, [str(v + 1) for v in y])
    code, lines, _ = run(capsys, "rank", path)
    X = genotypes.astype(float)
    X[genotypes == -127] = np.nan
    assert code == 0
    assert ranked(lines)["sid3"] == pytest.approx(relieff(X, y)[2],
                                                  abs=1e-6)
