"""scikit-rebate 0.8.4's weights on the GAMETES files the tests compare the
add-on's scikit-rebate convention with, recorded once.

scikit-rebate's Python loops take seconds a call on a few hundred rows,
and a pinned version gives the same answer every time: its answers are
read from ``tests/data/scikit-rebate/answers.npz``, while the add-on's side
is computed on every run.  This module is that file's only source::

    python -m tests.reference.scikit_rebate_answers

calls scikit-rebate on every case of :data:`CASES` and writes, beside the
weights, the version and each case's call and data, which :func:`answer`
checks against :data:`CASES` before it gives an answer (a case changed
here and not recorded again fails every test that reads the file).
"""
import gzip
from pathlib import Path
from typing import NamedTuple

import numpy as np

VERSION = "0.8.4"
DATA = Path(__file__).parent.parent / "data"
ANSWERS = DATA / "scikit-rebate" / "answers.npz"
#: one data set of the ReBATE benchmark (tests/data/README.md)
REBATE = DATA / "gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01.txt.gz"
#: scikit-rebate's own example data (tests/data/scikit-rebate/README.md)
TWO_CLASSES = (DATA / "scikit-rebate"
               / "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.csv.gz")
THREE_CLASSES = DATA / "scikit-rebate" / "3Class_Datasets_Loc_2_01.csv.gz"


def rows(path, step):
    """(X, y) of every `step`-th row of a gzipped table with a header
    line, the class last (its classes come in blocks: every step-th row
    keeps their shares); comma-separated where the name says so."""
    delimiter = "," if path.name.endswith(".csv.gz") else None
    with gzip.open(path, "rt") as file:
        table = np.loadtxt(file, delimiter=delimiter, skiprows=1)[::step]
    return table[:, :-1], table[:, -1]


class Call(NamedTuple):
    """A scikit-rebate estimator: its class, its options, and the
    estimator it wraps (Iter's), if any."""
    estimator: str
    options: dict
    inner: "Call | None" = None

    def build(self, skrebate):
        wrapped = () if self.inner is None else (self.inner.build(skrebate),)
        return getattr(skrebate, self.estimator)(*wrapped, **self.options)

    def __str__(self):
        given = [] if self.inner is None else [str(self.inner)]
        given += [f"{key}={value!r}" for key, value in self.options.items()]
        return f"{self.estimator}({', '.join(given)})"


class Case(NamedTuple):
    """scikit-rebate's `call` fitted to every `step`-th row of `path`."""
    path: Path
    step: int
    call: Call

    def __str__(self):
        return f"{self.call} on {self.path.name}[::{self.step}]"


def selecting(estimator, **options):
    """`estimator` with two attributes to select (its weights are of every
    attribute) on one process."""
    return Call(estimator, dict(n_features_to_select=2, n_jobs=1, **options))


def iter_around(estimator, **options):
    """Iter with its defaults (10 rounds, tol 1e-4, beta 0.1)."""
    return Call("Iter", {}, selecting(estimator, **options))


#: scikit-rebate's class of each SWRF method of the add-on
SWRF_PEERS = {"swrf": "SWRF", "swrf*": "SWRFstar", "multiswrf": "MultiSWRF",
              "multiswrf*": "MultiSWRFstar", "multiswrfdb": "MultiSWRFDB",
              "multiswrfdb*": "MultiSWRFDBstar"}

#: name -> case.  The ReBATE file: every fourth row (200 of each class),
#: every eighth for Iter's ten rounds.  scikit-rebate's own data: three
#: classes of about 66 instances at k = 100 (each class gives all it
#: has, and scikit-rebate weighs the misses of each class by their share
#: of the misses read).
CASES = {
    **{f"{method} on ReBATE": Case(REBATE, 4, selecting(peer))
       for method, peer in SWRF_PEERS.items()},
    **{f"mu-Relief k={k} on ReBATE": Case(
        REBATE, 4, selecting("MuRelief", n_neighbors=k)) for k in (10, 100)},
    **{f"Iter around {name}{', absolute' * absolute} on ReBATE": Case(
        REBATE, 8, iter_around(peer, rank_absolute=absolute))
       for name, peer in (("MultiSURF", "MultiSURF"),
                          ("MultiSURF*", "MultiSURFstar"))
       for absolute in (False, True)},
    **{peer: Case(TWO_CLASSES, 4, selecting(peer))
       for peer in SWRF_PEERS.values()},
    **{f"mu-Relief k={k}": Case(
        TWO_CLASSES, 4, selecting("MuRelief", n_neighbors=k))
       for k in (10, 100)},
    **{f"mu-Relief k={k}, three classes": Case(
        THREE_CLASSES, 8, selecting("MuRelief", n_neighbors=k))
       for k in (10, 100)},
    "Iter around MultiSURF": Case(TWO_CLASSES, 8, iter_around("MultiSURF")),
}
#: the case a test computes with the installed scikit-rebate (the
#: fastest of those whose answer is the same on every CPU: under a
#: second), so that the file cannot silently belong to another version
LIVE = "SWRF"
#: the cases whose answer depends on the CPU: scikit-rebate's mu-Relief
#: takes the first k of a class in the order of numpy's argsort, and numpy
#: orders equal deviations (genotypes tie everywhere) by the sort its
#: build chose for the CPU (x86-simd-sort's kernels where there is
#: AVX-512), so that an Intel Xeon with AVX-512 and an AMD EPYC with AVX2
#: give weights up to 0.01 apart.  Their recorded answers are the
#: recording machine's; :func:`expected` computes them on the machine at
#: hand.
SORTED_TIES = frozenset(name for name in CASES if name.startswith("mu-Relief"))


def described():
    """Each case's name, call and data, as the file records them."""
    return [f"{name}: {case}" for name, case in CASES.items()]


def computed(case, skrebate):
    """scikit-rebate's weights of `case`."""
    return case.call.build(skrebate).fit(
        *rows(case.path, case.step)).feature_importances_


_recorded = {}


def answer(name):
    """(X, y, scikit-rebate's recorded weights) of the case `name`, after
    checking that the file holds the cases of :data:`CASES` as they are."""
    if not _recorded:
        with np.load(ANSWERS) as file:
            found = (str(file["version"]), file["cases"].tolist())
            if found != (VERSION, described()):
                raise AssertionError(
                    f"{ANSWERS} does not hold scikit-rebate {VERSION}'s "
                    f"answers to the cases of {__name__}: record them "
                    f"again (python -m {__name__})")
            _recorded.update(zip(CASES, file["weights"]))
    case = CASES[name]
    return (*rows(case.path, case.step), _recorded[name])


_here = {}


def expected(name):
    """(X, y, scikit-rebate's weights) of the case `name` on this machine:
    its recorded answer (:func:`answer`), or, for a case of
    :data:`SORTED_TIES`, the installed scikit-rebate's (the test that asks
    is skipped without it)."""
    X, y, recorded = answer(name)
    if name not in SORTED_TIES:
        return X, y, recorded
    if name not in _here:
        import pytest
        skrebate = pytest.importorskip("skrebate")
        _here[name] = computed(CASES[name], skrebate)
    return X, y, _here[name]


def main():
    import skrebate
    if skrebate.__version__ != VERSION:
        raise SystemExit(f"scikit-rebate {VERSION} records these answers, "
                         f"not {skrebate.__version__}")
    np.savez_compressed(
        ANSWERS, version=VERSION,
        cases=described(),
        weights=[computed(case, skrebate) for case in CASES.values()])


if __name__ == "__main__":
    main()
