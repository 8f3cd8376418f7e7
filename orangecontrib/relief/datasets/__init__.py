"""Data sets shipped with Orange3-Relief (Orange ``.tab`` files, some
gzipped as ``.tab.gz``).

``path(name)`` gives the absolute path of a shipped data set, e.g.
``Orange.data.Table(path("heart_disease"))``.  ``dataset_dirs`` is the target
of the add-on's ``orange.data.io.search_paths`` entry point.

Origins: the UCI Machine Learning Repository, except

* ``collembola.tab``: the collembola data (Kampichler, Dzeroski & Wieland
  2000, Soil Biology and Biochemistry 32(2):197-209), 393 soil samples,
  47 attributes of the soil and the field (3,618 values missing) and
  three numeric targets of its springtail (Collembola) community,
  ``class_spec``, ``class_ind`` and ``class_fols`` (the Orange class
  variables): Clus's unit-test file ``testMTR-RealWorld.arff``
  (github.com/knowledge-technologies/clus, GNU General Public License
  version 3; a copy in ``tests/data/clus``), its values unchanged;
* ``yeast.tab.gz``: the yeast multi-label data (Elisseeff & Weston 2001,
  "A kernel method for multi-labelled classification", NIPS 14), 2,417
  genes, 103 numeric attributes (``Att1`` .. ``Att103``: micro-array
  expression and phylogenetic profiles) and 14 functional classes
  (``Class1`` .. ``Class14``, each 0 or 1, the Orange class variables).
  The Mulan library's copy (mulan.sourceforge.net/datasets-mlc.html),
  which Mulan distributes for research use; taken as ``yeast.arff`` from
  github.com/CocoJam/multi_labels_ordering_chain at commit 93a73fa.  That
  file's header lists the 14 labels before the attributes while every
  row holds the 103 attributes first and the labels last; here the
  columns are named in the rows' order, the values unchanged;
* ``emotions.tab.gz``: the emotions multi-label data (Trohidis, Tsoumakas,
  Kalliris & Vlahavas 2008, "Multi-label classification of music into
  emotions", ISMIR), 593 songs, 72 numeric attributes of a 30-second
  excerpt of each (8 of rhythm, ``BH_LowPeakAmp`` .. ``BHSUM3``, and 64
  of timbre, ``Mean_Acc1298_Mean_Mem40_Centroid`` ..) and 6 emotions
  (``amazed-suprised``, ``happy-pleased``, ``relaxing-calm``,
  ``quiet-still``, ``sad-lonely``, ``angry-aggresive``, spelt as in the
  source; each 0 or 1, the Orange class variables).  The Mulan library's
  copy (mulan.sourceforge.net/datasets-mlc.html), which Mulan distributes
  for research use; taken as ``emotions.arff`` from github.com/CquptZA/MLONC
  at commit 71e6c5a, its header's order (the 72 attributes, then the 6
  labels) that of its rows, the values unchanged.
"""
import os

__all__ = ["DATASETS_DIR", "dataset_dirs", "names", "path"]

DATASETS_DIR = os.path.dirname(os.path.abspath(__file__))
#: the endings of a data set's file, plain and gzipped
_SUFFIXES = (".tab", ".tab.gz")


def dataset_dirs():
    """Yield ``(prefix, directory)`` pairs of the directories with data sets.

    This is the contract of the ``orange.data.io.search_paths`` entry point
    (as in orange3-network and orange3-text): the loaded object is called and
    yields pairs like the ``SEARCH_PATHS`` entries of Orange's file widgets.
    """
    yield "relief-datasets", DATASETS_DIR


def names():
    """Return the sorted names (without ``.tab`` or ``.tab.gz``) of the
    shipped data sets."""
    return sorted(stem for stem, ending in map(split_name,
                                          os.listdir(DATASETS_DIR)) if ending)


def split_name(name):
    """(stem, ending) of a data set's file name, the ending "" where it is
    none of :data:`_SUFFIXES`."""
    ending = next((suffix for suffix in reversed(_SUFFIXES)
                   if name.endswith(suffix)), "")
    return name[:len(name) - len(ending)], ending


def path(name):
    """Return the absolute path of the shipped data set `name`.

    Parameters
    ----------
    name : str
        Data set name with or without its extension, e.g.
        ``"heart_disease"``, ``"zoo.tab"`` or ``"yeast"``.

    Raises
    ------
    FileNotFoundError
        If no such data set is shipped; the message lists the available names.
    """
    stem = split_name(name)[0]
    for suffix in _SUFFIXES:
        found = os.path.join(DATASETS_DIR, stem + suffix)
        if os.path.isfile(found):
            return found
    raise FileNotFoundError(
        f"no shipped data set named {name!r}; available: "
        + ", ".join(names()))
