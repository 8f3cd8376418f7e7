"""Phenotypes of PLINK data: the .fam file's sixth column, or a phenotype
file matched to the .fam's individuals by their IDs.

A phenotype file (PLINK's ``--pheno``) is text, one individual a line,
columns separated by spaces or tabs: the family ID, the individual ID and
one or more phenotypes.  A first line that starts with ``FID`` (or
``#FID``) names the columns; one that starts with ``IID`` (or ``#IID``)
names them too and says that the lines hold no family ID (PLINK 2).

The values are read as PLINK reads them:

* only 1, 2 and the missing codes -9 and 0: case/control, 1 a control and
  2 a case (a categorical class "control", "case");
* only 0, 1 and -9: case/control coded 0 and 1 (PLINK's ``--1``), -9
  missing;
* other numbers: a quantitative trait (a numeric target), -9 missing;
* words: the classes of a categorical class, sorted.

``NA``, ``nan`` and ``.`` are missing everywhere.  An individual of the
.fam without a line in the file, or with a missing value, is left out of
the scoring (the readers say how many).
"""
from dataclasses import dataclass

import numpy as np

from ..core.errors import ReliefInputError

#: what marks a missing phenotype in any column
MISSING_WORDS = ("na", "nan", ".", "")
#: PLINK's codes of a missing phenotype
MISSING_CODES = (-9.0,)
#: the classes of a case/control phenotype, by their codes 0 and 1
CASE_CONTROL = ("control", "case")
CLASSIFICATION, REGRESSION = "classification", "regression"


@dataclass(frozen=True)
class Phenotype:
    """A phenotype of the individuals of a .fam file, in its order.

    Attributes
    ----------
    name : str
        The phenotype's name (its column's, or "phenotype").
    y : float64 array (n,)
        Class codes 0 .. C - 1 (classification) or the trait's values
        (regression); NaN for an individual without a phenotype.
    task : str
        "classification" or "regression".
    values : tuple of str or None
        The class names, in the order of their codes (None for a trait).
    """
    name: str
    y: np.ndarray
    task: str
    values: tuple = None

    @property
    def n_missing(self):
        """How many individuals have no phenotype."""
        return int(np.isnan(self.y).sum())


def as_phenotype(name, texts):
    """The :class:`Phenotype` of the strings `texts`, one an individual,
    read as the module docstring says."""
    texts = [text.strip() for text in texts]
    missing = np.array([text.lower() in MISSING_WORDS for text in texts])
    numbers = np.full(len(texts), np.nan)
    try:
        numbers[~missing] = [float(t) for t, m in zip(texts, missing)
                             if not m]
    except ValueError:
        words = sorted({t for t, m in zip(texts, missing) if not m})
        code = {word: float(c) for c, word in enumerate(words)}
        y = np.array([np.nan if m else code[t]
                      for t, m in zip(texts, missing)])
        return Phenotype(name, y, CLASSIFICATION, tuple(words))
    known = numbers[~np.isnan(numbers)]
    if np.isinf(known).any():
        raise ReliefInputError(f"Phenotype {name} holds an infinite "
                               f"value.")
    numbers[np.isin(numbers, MISSING_CODES)] = np.nan
    coded = set(numbers[~np.isnan(numbers)].tolist())
    if coded <= {0.0, 1.0, 2.0} and 2.0 in coded:  # 0 is missing there
        numbers[numbers == 0] = np.nan
        return Phenotype(name, numbers - 1, CLASSIFICATION, CASE_CONTROL)
    if coded <= {0.0, 1.0}:
        return Phenotype(name, numbers, CLASSIFICATION, CASE_CONTROL)
    return Phenotype(name, numbers, REGRESSION)


def fam_phenotype(path, phenotypes):
    """The phenotype of the .fam file `path` (its sixth column, the
    strings `phenotypes`), or None if every individual's is missing."""
    phenotype = as_phenotype("phenotype", phenotypes)
    return None if phenotype.n_missing == len(phenotypes) else phenotype


def read_lines(path):
    """The lines of `path` split into fields (blank lines skipped), or
    ReliefInputError if it cannot be read as text."""
    try:
        with open(path, encoding="utf-8") as file:
            return [line.split() for line in file if line.strip()]
    except OSError as error:
        raise ReliefInputError(f"Cannot read the phenotype file {path}: "
                               f"{error.strerror}.") from None
    except UnicodeDecodeError:
        raise ReliefInputError(f"{path} is not a text file of phenotypes "
                               f"(FID IID value per line).") from None


def read_phenotype(path, fids, iids, column=None):
    """The phenotype in file `path` of the individuals (`fids`, `iids`)
    of a .fam file, in their order.

    `column` names the phenotype of a file whose first line names the
    columns (default: the first phenotype of the file).

    Raises ReliefInputError for an empty file, a line of too few fields,
    an individual listed twice, a `column` the file does not have, or IDs
    of which none is in the .fam file.
    """
    lines = read_lines(path)
    if not lines:
        raise ReliefInputError(f"The phenotype file {path} is empty.")
    first = lines[0][0].lstrip("#").upper() if lines[0] else ""
    has_fid = first != "IID"
    header = lines.pop(0) if first in ("FID", "IID") else None
    n_ids = 2 if has_fid else 1
    width = len(header) if header else max(len(line) for line in lines)
    if width <= n_ids:
        raise ReliefInputError(
            f"{path} holds IDs but no phenotype: each line needs "
            f"{'FID IID' if has_fid else 'IID'} and a value.")
    names = (header[n_ids:] if header
             else [f"phenotype {i}" for i in range(1, width - n_ids + 1)])
    if column is None:
        index = 0
    elif column in names:
        index = names.index(column)
    elif header is None:
        raise ReliefInputError(
            f"{path} has no first line naming its columns, so it has no "
            f"column {column!r}; its phenotypes are numbered: "
            f"{', '.join(names)}.")
    else:
        raise ReliefInputError(f"{path} has no column {column!r}; its "
                               f"phenotypes are {', '.join(names)}.")
    values = {}
    for number, fields in enumerate(lines, start=2 if header else 1):
        if header and len(fields) != len(header):
            raise ReliefInputError(
                f"{path}, line {number}: {len(fields)} fields, and the "
                f"first line names {len(header)}.")
        if len(fields) < n_ids + index + 1:
            raise ReliefInputError(
                f"{path}, line {number}: {len(fields)} fields, too few for "
                f"the IDs and the phenotype {names[index]}.")
        key = tuple(fields[:n_ids])
        if key in values:
            raise ReliefInputError(f"{path}, line {number}: individual "
                                   f"{' '.join(key)} is listed twice.")
        values[key] = fields[n_ids + index]
    if not values:
        raise ReliefInputError(f"The phenotype file {path} names its "
                               f"columns but lists no individual.")
    keys = (list(zip(fids, iids)) if has_fid else [(i,) for i in iids])
    matched = [key in values for key in keys]
    if not any(matched):
        raise ReliefInputError(
            f"None of the {len(values)} individuals of {path} is in the "
            f".fam file (the phenotype file's first is "
            f"{' '.join(next(iter(values)))}, the .fam's "
            f"{' '.join(keys[0]) if keys else 'none'}): the IDs must match "
            f"({'FID and IID' if has_fid else 'IID'}).")
    return as_phenotype(names[index],
                        [values.get(key, "NA") for key in keys])
