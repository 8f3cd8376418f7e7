"""Every registered variant against families of bad or extreme inputs, on
both engines.

A case ends in one of two ways: the error it names (a ReliefInputError
whose message matches the case's), or the weights of the variant's slow
literal reference (``tests/reference``) to 1e-9, on each engine.  The
families: shapes, classes, values, array kinds, nominal codes and
duplicates (:data:`DATA`), and parameters (:data:`PARAMETERS`).  The
inputs are never modified.  Each case draws its data from a seed of its
own name, so that no case depends on which others run.
"""
import copy
import re
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
import scipy.sparse

from orangecontrib.relief.core.engines import ENGINES, forced
from orangecontrib.relief.core.errors import ReliefInputError
from tests.variants import (each_variant_task, literal_weights,
                            matrix_options, rng_of)

N, A = 24, 4
#: the largest difference from the literal reference
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Case:
    """A family's case.

    make : callable(rng, task) -> (X, y, discrete)
    error : a regular expression the error's message must match, a dict of
        them by task, or None: the literal reference's weights
    literal : callable(X) -> X
        The data the literal reference gets where it cannot take X as it
        is (None: X)
    """
    make: Callable
    error: Optional[object] = None
    literal: Optional[Callable] = None

    def expected_error(self, task):
        return (self.error.get(task) if isinstance(self.error, dict)
                else self.error)


def base(rng, task):
    """Numeric columns in [0, 1); two classes in turn, or a numeric
    target."""
    X = rng.random((N, A))
    y = ((np.arange(N) % 2).astype(float) if task == "classification"
         else rng.random(N))
    return X, y, None


def changed(change):
    """A case's data: :func:`base` changed by ``change(X, y, discrete,
    rng)``."""
    def make(rng, task):
        return change(*base(rng, task), rng)
    return make


def column(values):
    """A case's data: column 1 of :func:`base` set to ``values(rng)``."""
    def change(X, y, discrete, rng):
        X[:, 1] = values(rng)
        return X, y, discrete
    return changed(change)


def classes(y):
    """A case's data: :func:`base` with the class (or target) `y`."""
    return changed(lambda X, _, discrete, rng: (X, np.asarray(y, float),
                                                discrete))


def rescaled_column(X):
    """Column 1 divided by its largest magnitude: the same diffs, a range
    that a float holds."""
    X = np.array(X, dtype=float)
    X[:, 1] /= np.abs(X[:, 1]).max()
    return X


NO_INSTANCES = "no instances with a known target"
ONE_CLASS = {"classification": "a single class",
             "regression": "target is constant"}
NOT_CODES = "must hold non-negative integer codes"
INFINITE = "infinite values"
COMPLEX = "holds complex numbers"

DATA = {
    # shapes
    "0 rows": Case(lambda rng, task: (np.empty((0, A)), np.empty(0), None),
                   NO_INSTANCES),
    "1 row": Case(changed(lambda X, y, d, rng: (X[:1], y[:1], d)),
                  ONE_CLASS),
    "2 rows": Case(changed(lambda X, y, d, rng: (X[:2], y[:2], d))),
    "3 rows": Case(changed(lambda X, y, d, rng: (X[:3], y[:3], d))),
    "0 attributes": Case(changed(lambda X, y, d, rng: (X[:, :0], y, d)),
                         "no attributes to score"),
    "1 attribute": Case(changed(lambda X, y, d, rng: (X[:, :1], y, d))),
    "3-D X": Case(changed(lambda X, y, d, rng: (X[None], y, d)), "2-D"),
    "wrong target length": Case(
        changed(lambda X, y, d, rng: (X, y[:-1], d)),
        "has 24 rows but the target has 23 values"),
    "wrong discrete length": Case(
        changed(lambda X, y, d, rng: (X, y, np.ones(A + 1, bool))),
        "`discrete` has 5 entries for 4 attributes"),
    # classes (a numeric target of the same values)
    "one class": Case(classes(np.zeros(N)), ONE_CLASS),
    "a class with one instance": Case(classes(np.r_[np.zeros(N - 1), 1])),
    "three classes": Case(classes(np.arange(N) % 3)),
    "15 classes of 2": Case(lambda rng, task: (
        rng.random((30, A)), (np.arange(30) % 15).astype(float), None)),
    "class codes 5 and 9": Case(classes(np.where(np.arange(N) % 2, 9, 5))),
    "some classes missing": Case(changed(lambda X, y, d, rng: (
        X, np.where(np.arange(N) % 5 == 0, np.nan, y), d))),
    "all classes missing": Case(classes(np.full(N, np.nan)), NO_INSTANCES),
    # values
    "missing values, nominal columns": Case(changed(lambda X, y, d, rng: (
        np.where(rng.random(X.shape) < 0.2, np.nan,
                 np.c_[X[:, :2], np.floor(X[:, 2:] * 3)]),
        y, np.array([False, False, True, True])))),
    "constant column": Case(column(lambda rng: 0.5)),
    "all-missing column": Case(column(lambda rng: np.nan)),
    "one known value": Case(column(
        lambda rng: np.r_[0.3, np.full(N - 1, np.nan)])),
    "every cell missing": Case(changed(lambda X, y, d, rng: (
        np.full(X.shape, np.nan), y, d))),
    "inf": Case(column(lambda rng: np.r_[np.inf, rng.random(N - 1)]),
                INFINITE),
    "-inf": Case(column(lambda rng: np.r_[-np.inf, rng.random(N - 1)]),
                 INFINITE),
    "1e300": Case(column(lambda rng: rng.random(N) * 1e300)),
    "a range beyond the largest float": Case(
        column(lambda rng: (rng.random(N) - 0.5) * 2 * 1.7e308),
        literal=rescaled_column),
    "1e-300": Case(column(lambda rng: rng.random(N) * 1e-300)),
    "denormals": Case(column(lambda rng: rng.random(N) * 5e-324 * 1000)),
    # array kinds
    "float32": Case(changed(lambda X, y, d, rng: (X.astype(np.float32), y,
                                                  d))),
    # a range of 16: every diff and distance exact, so ties are real ties
    "int": Case(lambda rng, task: (
        np.r_[[[0] * A, [16] * A], rng.integers(0, 17, (N - 2, A))],
        rng.integers(0, 2 if task == "classification" else 100, N), None)),
    "Fortran order": Case(changed(lambda X, y, d, rng: (
        np.asfortranarray(X), y, d))),
    "strided slice": Case(changed(lambda X, y, d, rng: (
        np.repeat(X, 2, axis=1)[:, ::2], y, d))),
    "strings": Case(changed(lambda X, y, d, rng: (
        X.astype(str).astype(object), y, d))),
    "lists": Case(changed(lambda X, y, d, rng: (X.tolist(), y.tolist(),
                                                d))),
    # dtypes no float holds: refused, never converted with a part dropped
    "complex": Case(changed(lambda X, y, d, rng: (X + 0j, y, d)), COMPLEX),
    "complex target": Case(changed(lambda X, y, d, rng: (X, y + 0j, d)),
                           COMPLEX),
    "complex objects": Case(changed(lambda X, y, d, rng: (
        (X + 1j).astype(object), y, d)), "must be numeric"),
    "complex lists": Case(changed(lambda X, y, d, rng: (
        (X + 1j).tolist(), y, d)), COMPLEX),
    "structured": Case(changed(lambda X, y, d, rng: (
        np.rec.fromarrays(X.T).view(np.ndarray)[:, None], y, d)),
        "structured dtype"),
    "ragged rows": Case(changed(lambda X, y, d, rng: (
        [list(row[:1 + i % A]) for i, row in enumerate(X)], y, d)),
        "rectangular array of numbers; its rows differ in length"),
    # a sparse matrix is read as it is, its stored values checked
    "sparse matrix": Case(changed(lambda X, y, d, rng: (
        scipy.sparse.csr_matrix(np.where(X < 0.5, 0.0, X)), y, d)),
        literal=lambda X: X.toarray()),
    "complex sparse matrix": Case(changed(lambda X, y, d, rng: (
        scipy.sparse.csr_matrix(X + 1j), y, d)), COMPLEX),
    # nominal columns
    "negative nominal codes": Case(changed(lambda X, y, d, rng: (
        np.where(X < 0.5, -1.0, 1.0), y, np.ones(A, bool))), NOT_CODES),
    "fractional nominal codes": Case(changed(lambda X, y, d, rng: (
        X, y, np.ones(A, bool))), NOT_CODES),
    "200 nominal values": Case(changed(lambda X, y, d, rng: (
        np.floor(X * 200), y, np.ones(A, bool)))),
    # duplicates
    "all rows equal": Case(changed(lambda X, y, d, rng: (
        np.ones(X.shape), y, d))),
    "equal rows of different classes": Case(changed(lambda X, y, d, rng: (
        np.repeat(X[:N // 2], 2, axis=0), y, d))),
}


def expected_error(variant, task, case, y):
    """The message the variant must give on the case's data (None: the
    literal weights): the case's own, or that of a variant that needs a
    number of classes on data of another."""
    error = case.expected_error(task)
    if error is None and variant.n_classes is not None:
        known = np.asarray(y, dtype=float)
        if len(np.unique(known[~np.isnan(known)])) != variant.n_classes:
            return "handles two classes"
    return error


def outcome(variant, task, engine, X, y, discrete, **options):
    """The variant's weights on `engine`, or the message of its
    ReliefInputError."""
    try:
        with forced(engine):
            return variant.weights(X, y, discrete, task=task, **options)
    except ReliefInputError as error:
        return str(error)


def mismatch(result, error, literal):
    """Why `result` (weights or a message) is not what the case expects
    (None: it is)."""
    if isinstance(result, str):
        if error is not None and re.search(error, result):
            return None
        return f"raised {result!r}, expected " + (
            f"an error matching {error!r}" if error else "weights")
    if error is not None:
        return f"gave weights, expected an error matching {error!r}"
    if not np.allclose(result, literal, rtol=0, atol=TOLERANCE,
                       equal_nan=True):
        return f"gave {result}, the literal reference {literal}"
    return None


def unchanged(before, after):
    def dense(values):
        return [value.toarray() if scipy.sparse.issparse(value) else value
                for value in values]
    try:
        np.testing.assert_equal(dense(after), dense(before))
    except AssertionError:
        return False
    return True


def failures(variant, task, name, X, y, discrete, error, literal,
             options=dict):
    """The failures of a case on each engine, each a line naming the case
    and the engine; ``options()`` gives the case's options (the matrix's,
    :func:`matrix_options`, under them)."""
    found = []
    for engine in ENGINES:
        before = copy.deepcopy((X, y))
        wrong = mismatch(outcome(variant, task, engine, X, y, discrete,
                                 **matrix_options(variant, **options())),
                         error, literal)
        if not unchanged(before, (X, y)):
            wrong = "modified its input"
        if wrong is not None:
            found.append(f"{name} [{engine}]: {wrong}")
    return found


#: (case, variant): where a case's premise does not hold for a variant.
#: pdReliefF weighs its distances by f(w, t) (Prat & Belanche 2006, eq.
#: 3.3), an irrational fraction: the integer case's distances are then no
#: longer exact, so which candidates tie at the k-th distance depends on
#: the order of a sum's terms, which the engines and the literal reference
#: choose each their own way.  Iter weighs its distances by the scores of
#: the round before: with 200 values, nearly every pair differs in every
#: attribute, so that most of a reference's distances are the same sum of
#: those weights, and whether they fall below MultiSURF's limit (their
#: mean less half a deviation of about 0) depends on that order too.
INEXACT = {("int", "PDReliefF"), ("200 nominal values", "Iter")}


@each_variant_task
def test_data_families(variant, task):
    wrong = []
    for name, case in DATA.items():
        if (name, variant.name) in INEXACT:
            continue
        X, y, discrete = case.make(rng_of(name), task)
        error = expected_error(variant, task, case, y)
        literal = None
        if error is None:
            try:
                literal = literal_weights(
                    variant, X if case.literal is None else case.literal(X),
                    y, discrete, task=task, **matrix_options(variant))
            except ReliefInputError as refusal:  # no weights by definition
                error = re.escape(str(refusal))
        wrong += failures(variant, task, name, X, y, discrete, error,
                          literal)
    assert not wrong, "\n".join(wrong)


@dataclass(frozen=True)
class Options:
    """A parameter family's case: the options (made anew for each call,
    a Generator being used up by its draws) and the error they give,
    or a dict of them by task (None: the literal reference's weights with
    the same options)."""
    make: Callable
    error: Optional[object] = None

    def expected_error(self, task):
        return (self.error.get(task) if isinstance(self.error, dict)
                else self.error)


PARAMETERS = {
    "k 0": Options(lambda: dict(k_nearest=0),
                   "k_nearest must be a positive integer, got 0"),
    "k -1": Options(lambda: dict(k_nearest=-1), "k_nearest must be"),
    "k 2.5": Options(lambda: dict(k_nearest=2.5), "k_nearest must be"),
    "k True": Options(lambda: dict(k_nearest=True), "k_nearest must be"),
    "k numpy int": Options(lambda: dict(k_nearest=np.int64(3))),
    "k above the instances": Options(lambda: dict(k_nearest=10 ** 9)),
    "m 0": Options(lambda: dict(n_iterations=0),
                   "n_iterations must be a positive integer or None"),
    "m -3": Options(lambda: dict(n_iterations=-3), "n_iterations must be"),
    "m 1.5": Options(lambda: dict(n_iterations=1.5), "n_iterations must be"),
    "m numpy int": Options(lambda: dict(n_iterations=np.int32(7))),
    "m beyond memory": Options(lambda: dict(n_iterations=10 ** 13),
                               "n_iterations asks for at least"),
    "seed Generator": Options(lambda: dict(
        n_iterations=5, random_state=np.random.default_rng(1))),
    "seed negative": Options(
        lambda: dict(n_iterations=5, random_state=-1),
        "random_state must be None, a non-negative integer or a numpy "
        "Generator, got -1"),
    "diff squared": Options(lambda: dict(diff="squared")),
    "diff ramp": Options(lambda: dict(diff="ramp", t_eq=0.05, t_diff=0.3)),
    "diff unknown": Options(lambda: dict(diff="cubic"),
                            "diff must be one of 'linear', 'squared', "
                            "'ramp', got 'cubic'"),
    "ramp reversed": Options(lambda: dict(diff="ramp", t_eq=0.3,
                                          t_diff=0.1),
                             "t_eq must be at most t_diff"),
    "ramp nan": Options(lambda: dict(diff="ramp", t_eq=float("nan")),
                        "t_eq must be a number >= 0, got nan"),
    # a setting without the one it needs is refused, naming that one
    "thresholds without the ramp": Options(
        lambda: dict(t_eq=0.1), "t_eq needs diff='ramp'"),
    "thresholds of the squared diff": Options(
        lambda: dict(diff="squared", t_diff=0.5), "t_diff needs diff='ramp'"),
    "sigma without exp_rank": Options(
        lambda: dict(weighting="equal", sigma=2.0),
        {"regression": "sigma needs weighting='exp_rank'",
         "classification": "sigma needs task='regression'"}),
    "sigma True": Options(lambda: dict(sigma=True),
                          "sigma must be a number > 0 or None"),
    "clip_negative 1": Options(lambda: dict(clip_negative=1),
                               "clip_negative must be True or False, got 1"),
    "clip_negative a word": Options(lambda: dict(clip_negative="no"),
                                    "clip_negative must be True or False"),
    "convention scikit-rebate": Options(
        lambda: dict(convention="scikit-rebate")),
    "convention unknown": Options(
        lambda: dict(convention="skrebate"),
        "convention must be one of 'add-on', 'scikit-rebate', got "
        "'skrebate'"),
}


@each_variant_task
def test_parameter_families(variant, task):
    """Every option a variant takes, at and beyond its limits (the cases
    of options it does not take are left out)."""
    wrong = []
    for name, case in PARAMETERS.items():
        if not set(case.make()) <= set(variant.parameters):
            continue
        X, y, discrete = base(rng_of(name), task)
        error = case.expected_error(task)
        literal = None if error is not None else literal_weights(
            variant, X, y, discrete, task=task,
            **matrix_options(variant, **case.make()))
        wrong += failures(variant, task, name, X, y, discrete, error,
                          literal, case.make)
    assert not wrong, "\n".join(wrong)
