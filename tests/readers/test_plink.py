"""PLINK files (readers.plink, readers.phenotypes): what is read, the
blocks, the phenotypes, and every bad input's one clear message."""
import numpy as np
import pytest

from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.readers import read_wide
from orangecontrib.relief.readers.plink import BedSource
from orangecontrib.relief.readers.sources import blocks_of, dense_of
from tests.readers.conftest import genotypes_and_class, write_bed

pytest.importorskip("bed_reader", reason="the genomics extra (bed-reader) "
                                         "is not installed")


def as_float(genotypes):
    """Genotypes as the core's float64, -127 as NaN (missing)."""
    X = genotypes.astype(np.float64)
    X[genotypes == -127] = np.nan
    return X


def test_blocks_are_the_genotypes_in_order_int8(study):
    path, genotypes, _ = study
    source = BedSource(path)
    assert source.shape == genotypes.shape and source.dtype == np.int8
    blocks = list(blocks_of(source, size=7))
    assert [start for start, _ in blocks] == list(range(0, 30, 7))
    assert all(block.dtype == np.int8 for _, block in blocks)
    assert np.array_equal(np.hstack([b for _, b in blocks]), genotypes)
    again = np.hstack([b for _, b in source.column_blocks(30)])
    assert np.array_equal(again, genotypes)  # another pass, the same


def test_weights_are_those_of_the_genotypes_in_memory(study):
    path, genotypes, y = study
    data = read_wide(path)
    assert data.task == "classification"
    assert data.class_values == ("control", "case")
    assert data.names[:2] == ["sid1", "sid2"]
    weights = data.weights("ReliefF", k_nearest=5)
    assert np.array_equal(weights, relieff(as_float(genotypes), y,
                                           k_nearest=5))
    assert set(np.argsort(-weights)[:2]) == {0, 1}


def test_the_missing_genotype_becomes_missing(study):
    path, genotypes, _ = study
    X = dense_of(BedSource(path))
    assert np.isnan(X[3, 5]) and np.isnan(X).sum() == 1
    assert X[0, 0] == genotypes[0, 0]


def phenotype_file(tmp_path, text):
    path = tmp_path / "pheno.txt"
    path.write_text(text)
    return path


def fam_ids(n):
    return [f"0 iid{i + 1}" for i in range(n)]


def test_phenotype_file_by_name_and_ids_in_any_order(study, tmp_path):
    path, genotypes, y = study
    rows = [f"{ids} {9.5 * v} {v + 1}"
            for ids, v in zip(fam_ids(len(y)), y)][::-1]
    pheno = phenotype_file(tmp_path, "FID IID trait disease\n"
                           + "\n".join(rows[:-10]) + "\n")
    data = read_wide(path, pheno=pheno, class_name="disease")
    assert data.class_name == "disease" and data.task == "classification"
    expected = y.astype(float)
    expected[:10] = np.nan  # the ten left out of the file
    assert np.array_equal(data.y, expected, equal_nan=True)
    assert data.notes == ("10 of 80 individuals have no disease and are "
                          "left out",)
    trait = read_wide(path, pheno=pheno)  # the first phenotype
    assert trait.class_name == "trait" and trait.task == "regression"


@pytest.mark.parametrize("values, task, classes, codes", [
    (["1", "2", "0", "-9"], "classification", ("control", "case"),
     [0, 1, np.nan, np.nan]),
    (["0", "1", "-9", "1"], "classification", ("control", "case"),
     [0, 1, np.nan, 1]),
    (["1.5", "2", "-9", "NA"], "regression", None, [1.5, 2, np.nan, np.nan]),
    (["b", "a", "NA", "a"], "classification", ("a", "b"), [1, 0, np.nan, 0]),
], ids=["case/control 1/2", "case/control 0/1", "quantitative", "words"])
def test_phenotype_codes(tmp_path, values, task, classes, codes):
    genotypes = np.zeros((4, 2), np.int8)
    path = write_bed(tmp_path, genotypes)
    pheno = phenotype_file(tmp_path, "".join(
        f"{ids} {v}\n" for ids, v in zip(fam_ids(4), values)))
    data = read_wide(path, pheno=pheno)
    assert (data.task, data.class_values) == (task, classes)
    assert np.array_equal(data.y, codes, equal_nan=True)


def test_iid_only_file(tmp_path):
    genotypes, y = genotypes_and_class(n=6, a=3)
    path = write_bed(tmp_path, genotypes)
    pheno = phenotype_file(tmp_path, "#IID status\n" + "".join(
        f"iid{i + 1} {v + 1}\n" for i, v in enumerate(y)))
    assert np.array_equal(read_wide(path, pheno=pheno).y, y)


def remove(suffix):
    def change(path):
        path.with_suffix(suffix).unlink()
    return change


def append_snp_line(path):
    with open(path.with_suffix(".bim"), "a") as file:
        file.write("1\textra\t0\t0\tA\tG\n")


def truncate(path):
    path.write_bytes(path.read_bytes()[:-1])


def not_a_bed(path):
    path.write_bytes(b"\x00" * path.stat().st_size)


def no_fam_phenotype(path):
    fam = path.with_suffix(".fam")
    fam.write_text("".join(" ".join(line.split()[:5] + ["-9"]) + "\n"
                           for line in fam.read_text().splitlines()))


#: a change of the study's files and what read_wide must say
BAD_FILES = {
    "no .bim": (remove(".bim"), r"needs its .*study\.bim beside it"),
    "no .fam": (remove(".fam"), r"needs its .*study\.fam beside it"),
    "no .bim nor .fam": (lambda p: (remove(".bim")(p), remove(".fam")(p)),
                         r"study\.bim and .*study\.fam"),
    "a SNP too many in .bim": (append_snp_line,
                               "the three files do not belong together"),
    "truncated .bed": (truncate, "the three files do not belong together"),
    "not a .bed": (not_a_bed, "not a SNP-major PLINK .bed file"),
    "no phenotype in .fam": (no_fam_phenotype,
                             "Every phenotype in .* is missing"),
}


@pytest.mark.parametrize("change, message", BAD_FILES.values(),
                         ids=BAD_FILES.keys())
def test_bad_files(study, change, message):
    path = study[0]
    change(path)
    with pytest.raises(ReliefInputError, match=message):
        read_wide(path)


#: a phenotype file's text (for the study's 80 individuals) and the
#: message
BAD_PHENOTYPES = {
    "IDs that match none": ("0 nobody 1\n0 someone 2\n",
                            "None of the 2 individuals .* is in the .fam"),
    "FIDs that differ": ("".join(f"F iid{i} 1\n" for i in range(1, 81)),
                         "the IDs must match \\(FID and IID\\)"),
    "empty": ("", "is empty"),
    "a header alone": ("FID IID status\n", "lists no individual"),
    "IDs only": ("0 iid1\n0 iid2\n", "holds IDs but no phenotype"),
    "listed twice": ("0 iid1 1\n0 iid1 2\n", "iid1 is listed twice"),
    "a line shorter than the header": (
        "FID IID a b\n0 iid1 1 2\n0 iid2 1\n",
        "line 3: 3 fields, and the first line names 4"),
    "a line too short": ("0 iid1 1 2\n0 iid2\n", "line 2: 2 fields, too few"),
    "infinite": ("0 iid1 inf\n0 iid2 1.5\n", "infinite value"),
}


@pytest.mark.parametrize("text, message", BAD_PHENOTYPES.values(),
                         ids=BAD_PHENOTYPES.keys())
def test_bad_phenotype_files(study, tmp_path, text, message):
    pheno = phenotype_file(tmp_path, text)
    with pytest.raises(ReliefInputError, match=message):
        read_wide(study[0], pheno=pheno)


@pytest.mark.parametrize("header, column, message", [
    ("FID IID a b\n", "c", "has no column 'c'; its phenotypes are a, b"),
    ("", "a", "has no first line naming its columns"),
])
def test_an_unknown_phenotype_column(study, tmp_path, header, column,
                                     message):
    pheno = phenotype_file(tmp_path, header + "0 iid1 1 2\n")
    with pytest.raises(ReliefInputError, match=message):
        read_wide(study[0], pheno=pheno, class_name=column)


def test_a_source_survives_pickling(study):
    import pickle

    path, genotypes, _ = study
    source = pickle.loads(pickle.dumps(BedSource(path)))
    assert np.array_equal(dense_of(source)[:, 0], genotypes[:, 0])


def test_generated_data_written_as_a_bed_read_back(tmp_path):
    from orangecontrib.relief.core.generators import GametesSource
    from orangecontrib.relief.readers.plink import write_bed

    source = GametesSource(50, 70, seed=2)
    path = tmp_path / "gametes.bed"
    seen = []
    write_bed(path, source, source.y, source.names,
              progress_callback=seen.append)
    assert seen[-1] == 1.0
    data = read_wide(path)
    assert data.names == source.names
    assert np.array_equal(data.y, source.y)
    assert np.array_equal(dense_of(data.X), source.columns(0, 70))
