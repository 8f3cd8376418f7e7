"""Data sets shipped with Orange3-Relief (Orange ``.tab`` files of UCI origin).

``path(name)`` gives the absolute path of a shipped data set, e.g.
``Orange.data.Table(path("heart_disease"))``.  ``dataset_dirs`` is the target
of the add-on's ``orange.data.io.search_paths`` entry point.
"""
import os

__all__ = ["DATASETS_DIR", "dataset_dirs", "names", "path"]

DATASETS_DIR = os.path.dirname(os.path.abspath(__file__))
_SUFFIX = ".tab"


def dataset_dirs():
    """Yield ``(prefix, directory)`` pairs of the directories with data sets.

    This is the contract of the ``orange.data.io.search_paths`` entry point
    (as in orange3-network and orange3-text): the loaded object is called and
    yields pairs like the ``SEARCH_PATHS`` entries of Orange's file widgets.
    """
    yield "relief-datasets", DATASETS_DIR


def names():
    """Return the sorted names (without ``.tab``) of the shipped data sets."""
    return sorted(entry[:-len(_SUFFIX)] for entry in os.listdir(DATASETS_DIR)
                  if entry.endswith(_SUFFIX))


def path(name):
    """Return the absolute path of the shipped data set `name`.

    Parameters
    ----------
    name : str
        Data set name with or without the ``.tab`` extension, e.g.
        ``"heart_disease"`` or ``"zoo.tab"``.

    Raises
    ------
    FileNotFoundError
        If no such data set is shipped; the message lists the available names.
    """
    stem = name[:-len(_SUFFIX)] if name.endswith(_SUFFIX) else name
    if stem not in names():
        raise FileNotFoundError(
            f"no shipped data set named {name!r}; available: "
            + ", ".join(names()))
    return os.path.join(DATASETS_DIR, stem + _SUFFIX)
