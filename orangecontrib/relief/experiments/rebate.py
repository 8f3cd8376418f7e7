"""The ReBATE benchmark of Urbanowicz, Olson, Schmitt, Meeker & Moore
(2018): Relief-based methods on simulated genetic data with known answers.

The archive (EpistasisLab/rebate-benchmark, ``benchmark-data/
Simulated_Benchmark_Archive``) holds one folder per configuration (2-way
and 3-way epistasis, main effects, heterogeneous and additive effects,
XOR, multiplexers, missing values, class imbalance, continuous endpoints,
3 and 9 classes, 20 to 100,000 features), each with 30 replicates: gzipped
tab-separated tables whose column ``Class`` is the target.  A folder with
at least one such table is a configuration (:func:`configurations`),
wherever it lies below the folder given, so that families other than the
ones a copy holds are read the same way.

The key variables of a configuration, those whose ranks the study
measures, are the ones its summary spreadsheet names
(``SimulatedDataArchiveSummary.xlsx``, :func:`read_summary`) when it is
given, and otherwise those the archive's naming rules tell
(:data:`KEY`): GAMETES' predictive SNPs ``M<model>P<locus>`` and the
multiplexers' address bits ``A_k``.  A multiplexer's register bits
``R_k`` (:data:`REGISTER`) are predictive too, but every one of them
matters only for the addresses that select it; the study's summary leaves
them out, and counting them would make the power at the top of a
multiplexer, whose every column is an address or a register bit, 1 for any
scores.  They are reported apart.  The other columns (``N<k>``) are noise.

The study's measure of a method on a configuration is its power at r:
the share of the replicates in which every key variable ranks within the
top r of all features (:func:`worst_rank`, ties counted against the
method), ranked by score and, as UrbsLab's re-benchmark does, by its
magnitude, where a large negative weight counts too (Freda et al. 2024
find higher-order XOR only so).  :func:`run` weighs every replicate with every
method, the files read where they are, in parallel (each worker process
reads, weighs and returns the worst rank of the predictive features);
:class:`Results` write the power at every r (a CSV), the study's heat map
(configurations by methods, colour the power at r = the number of
predictive features) and power-against-r curves, and summarise
themselves in a table.

UrbsLab's re-benchmark of scikit-rebate 0.8 (2025-26, the ``analysis``
folder of UrbsLab/scikit-rebate) adds two controls run as methods
(:data:`CONTROLS`: the features in random orders, :func:`shuffle_scores`,
and scikit-learn's mutual information, :func:`mutual_information`), the
rank of every key variable (:func:`feature_ranks`) and, from them, the
mean and median ranks by family and the Mann-Whitney comparisons of the
methods (:mod:`.rebate_statistics`), with a heat map of the mean ranks.

The experiment has the shape of every experiment of the add-on
(:mod:`.`): :class:`Settings` -> :func:`run` -> :class:`Results`.

This module imports neither Orange nor Qt.
"""
import dataclasses
import gzip
import hashlib
import inspect
import io
import os
import re
import time
import warnings
import zlib
from collections import namedtuple
from dataclasses import asdict, dataclass, field

import numpy as np

from . import (Progress, check_at_least, check_some_of, fastest_engine,
               run_in_processes)
from . import peers, rebate_statistics
from ..core.variants import double, estimators, surf, swrf
from ..core.variants.murelief import murelief
from ..core.variants.npdr import npdr
from ..core.options import TURF_FRACTION, TURF_SCHEDULE
from ..core.analysis.threshold import ranking_scores
from ..core.variants.turf import turf

#: the target column of every table of the archive
CLASS = "Class"
#: a key variable's name by the archive's naming rules: GAMETES'
#: predictive SNPs M<model>P<locus>, a multiplexer's address bits A_<k>
KEY = re.compile(r"M\d+P\d+|A_\d+")
#: a multiplexer's register bit R_<k>: predictive, not a key variable
REGISTER = re.compile(r"R_\d+")
#: the archive's folder in the paths of the study's summary
ARCHIVE = "Simulated_Benchmark_Archive"
#: the summary's columns of a configuration's folder and its key variables
SUMMARY_PATH, SUMMARY_KEYS = "Specific Path", "Key Variables"
#: the tables' file names
SUFFIXES = (".txt.gz", ".txt", ".tsv.gz", ".tsv")
#: a column with at most this many values is nominal (the study's
#: scikit-rebate, ``discrete_threshold``; 0: every column numeric)
DISCRETE_LIMIT = 10
#: replicates per configuration of ``--quick``
QUICK_REPLICATES = 3

#: our methods: name -> (the study's algorithm, ReliefF's k); the study's
#: ReliefF with k = 10 and 100, the SURF family, TuRF around MultiSURF
#: (every round, and scikit-rebate's rounds: :data:`.core.variants.turf.SCHEDULES`),
#: the add-on's own Relief, (p)dReliefF and NPDR, and scikit-rebate 0.8's
#: mu-Relief and SWRF family (the add-on's conventions, :mod:`.core.variants.swrf`)
OURS = {
    "ReliefF k=10": ("relieff", 10),
    "ReliefF k=100": ("relieff", 100),
    "SURF": ("surf", None),
    "SURF*": ("surf*", None),
    "MultiSURF": ("multisurf", None),
    "MultiSURF*": ("multisurf*", None),
    "TuRF MultiSURF": ("turf", None),
    "TuRF MultiSURF, scikit-rebate's rounds": ("turf/scikit-rebate", None),
    "Relief": ("relief", None),
    "DReliefF": ("drelieff", 10),
    "PDReliefF": ("pdrelieff", 10),
    "NPDR": ("npdr", None),
    "mu-Relief k=10": ("murelief", 10),
    "mu-Relief k=100": ("murelief", 100),
    "SWRF": ("swrf", None),
    "SWRF*": ("swrf*", None),
    "MultiSWRF": ("multiswrf", None),
    "MultiSWRF*": ("multiswrf*", None),
    "MultiSWRFDB": ("multiswrfdb", None),
    "MultiSWRFDB*": ("multiswrfdb*", None),
}
#: the methods a run takes by default: the study's and the add-on's
#: earlier ones (the table of doc/rebate.md)
DEFAULT_METHODS = tuple(name for name, (algorithm, _) in OURS.items()
                        if algorithm != "murelief"
                        and algorithm not in swrf.METHODS)
#: our methods that weigh classes only (None on a numeric target)
CLASSES_ONLY = ("relief", "drelieff", "pdrelieff", "murelief",
                *swrf.METHODS)
#: the peers' methods (:mod:`.peers`): "<peer> <method of OURS>"
PEER_METHODS = {f"{peer} {name}": (peer, algorithm, k)
                for peer, algorithms in peers.ALGORITHMS.items()
                for name, (algorithm, k) in OURS.items()
                if algorithm in algorithms}
#: the controls of UrbsLab's re-benchmark of scikit-rebate 0.8
#: (``analysis/job_rebate_analysis.py`` of UrbsLab/scikit-rebate): the
#: features in a random order (:func:`shuffle_scores`) and a univariate
#: filter, mutual information (:func:`mutual_information`)
SHUFFLE, MUTUAL_INFORMATION = "Random shuffle", "Mutual information"
CONTROLS = (SHUFFLE, MUTUAL_INFORMATION)
#: random orders of the features per replicate of the shuffle control
#: (UrbsLab's 40)
SHUFFLES = 40
#: the seed of scikit-learn's mutual information (UrbsLab's)
MI_SEED = 42
#: a target with at most this many values is a class for the mutual
#: information (UrbsLab's rule)
MI_CLASSES = 10
METHODS = tuple(OURS) + tuple(CONTROLS) + tuple(PEER_METHODS)
#: UrbsLab's re-benchmark's methods that the add-on has, in the order of
#: their heat maps (``job_process_heatmap_unified.py``), the controls first
URBSLAB = CONTROLS + (
    "ReliefF k=10", "ReliefF k=100", "mu-Relief k=10", "mu-Relief k=100",
    "SURF", "MultiSURF", "SWRF", "MultiSWRF", "MultiSWRFDB", "SURF*",
    "MultiSURF*", "SWRF*", "MultiSWRF*", "MultiSWRFDB*")
#: our methods with k nearest neighbours, which take a rule for the ties
#: at the k-th (``Settings.ties``)
TAKE_TIES = tuple(name for name, (algorithm, _) in OURS.items()
                  if algorithm in ("relief", "relieff", "drelieff",
                                   "pdrelieff", "murelief"))


def peer_methods(installed=None):
    """The peers' methods, of the installed peers only (all of them with
    `installed` False)."""
    return tuple(name for name, (peer, _, _) in PEER_METHODS.items()
                 if installed is False or peers.available(peer))


@dataclass(frozen=True)
class Settings:
    """The knobs of the experiment.

    Attributes
    ----------
    folder : str
        A folder laid out as the benchmark's archive (its configurations
        anywhere below it).
    methods : tuple of str
        Keys of :data:`METHODS`: ours, the controls (:data:`CONTROLS`)
        and the peers' (default: :data:`DEFAULT_METHODS`).
    replicates : int or None
        The first replicates of each configuration (by file name; None:
        all).
    discrete_limit : int
        Columns with at most this many values are nominal (the study's
        10; 0: every column numeric).
    summary : str or None
        The study's summary spreadsheet (:func:`read_summary`): the key
        variables of the configurations it lists (None, or a configuration
        it does not list: by the naming rules, :data:`KEY`).
    permute_rows : bool
        Weigh every table with its rows in a random order (seeded by
        `seed` and the file's name) instead of as they are given: a
        weight that depends on the order of the rows shows it.
    seed : int
        The seed of the permutations.
    ties : str or None
        The rule for ties at the k-th neighbour, passed as ``ties=`` to the
        methods with k nearest neighbours (None: their default).
    absolute : bool
        Also show every method ranked by the magnitude of its scores as a
        column of its own (``|method|``) in the heat maps, the ranks and
        the Mann-Whitney comparisons; the power both ways is written
        always.
    shuffles : int
        Random orders of the features per replicate of the shuffle
        control (UrbsLab's 40).
    """
    folder: str
    methods: tuple = DEFAULT_METHODS
    replicates: int = None
    discrete_limit: int = DISCRETE_LIMIT
    summary: str = None
    permute_rows: bool = False
    seed: int = 0
    ties: str = None
    absolute: bool = False
    shuffles: int = SHUFFLES

    def __post_init__(self):
        check_some_of("methods", self.methods, METHODS)
        if self.replicates is not None:
            check_at_least(self, 1, "replicates")
        check_at_least(self, 0, "discrete_limit", "seed")
        check_at_least(self, 1, "shuffles")
        if self.summary is not None and not os.path.isfile(self.summary):
            raise ValueError(f"summary {self.summary!r} is not a file; give "
                             f"the study's SimulatedDataArchiveSummary.xlsx")
        if not os.path.isdir(self.folder):
            raise ValueError(f"folder {self.folder!r} is not a folder; give "
                             f"the folder of the benchmark's archive "
                             f"(EpistasisLab/rebate-benchmark)")


@dataclass(frozen=True)
class Configuration:
    """A folder of replicates of one simulated design."""
    path: str      # the folder, relative to the settings' folder
    files: tuple   # its tables' names, sorted
    keys: tuple = ()        # the names of its key variables
    key_source: str = ""    # "summary" or "names": who named them

    @property
    def family(self):
        """The top folder of the configuration (the study's family)."""
        return self.path.split(os.sep)[0]

    @property
    def short_family(self):
        """The family without GAMETES' decoration."""
        return re.sub(r"^GAMETES_[\d.]+_dev_\w+?_|_Datasets.*$|_Loc_.*$", "",
                      self.family)

    @property
    def instances(self):
        """The number of instances its path names (``s_<n>``), or None."""
        found = re.search(r"(?:^|[\\/])s_(\d+)(?:[\\/]|$)", self.path)
        return None if found is None else int(found[1])

    @property
    def label(self):
        """A short name: the family without GAMETES' decoration, then
        the parts of the path the leaf folder does not repeat."""
        parts = self.path.split(os.sep)
        leaf = parts[-1]
        middle = [part for part in parts[1:-1] if part not in leaf]
        return " ".join([self.short_family] + middle
                        + ([leaf] if len(parts) > 1 else []))


def family_groups(configurations):
    """[(label, configurations)] of the families of `configurations`, in
    order: a family's configurations together (:attr:`Configuration.
    short_family`), those of a family with several numbers of instances
    apart by that number."""
    sizes = {}
    for c in configurations:
        sizes.setdefault(c.short_family, set()).add(c.instances)
    groups = {}
    for c in configurations:
        label = c.short_family
        if len(sizes[label]) > 1:
            label += f", {c.instances} instances"
        groups.setdefault(label, []).append(c)
    return list(groups.items())


def table_header(path):
    """The column names of a table of the archive, or None if `path` is
    not one (another text file, a report)."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as file:
            header = file.readline().rstrip("\n").split("\t")
    except (OSError, UnicodeDecodeError, EOFError):
        return None
    return header if CLASS in header else None


def configurations(folder):
    """Every configuration below `folder`, in sorted order of its path:
    the folders that hold at least one table (:func:`table_header`)."""
    found = []
    for root, directories, files in os.walk(folder):
        directories.sort()
        tables = tuple(sorted(name for name in files
                              if name.endswith(SUFFIXES)
                              and table_header(os.path.join(root, name))))
        if tables:
            found.append(Configuration(os.path.relpath(root, folder),
                                       tables))
    return sorted(found, key=lambda c: c.path)


def read_table(path):
    """(feature names, X, y) of a table: tab-separated, a header line,
    ``NA`` for a missing value, the target in column ``Class``."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        header = file.readline().rstrip("\n").split("\t")
        body = re.sub(r"(?<![^\t\n])NA(?![^\t\n])", "nan", file.read())
    if not body.strip():
        raise ValueError(f"{path}: the table has a header and no rows")
    try:
        values = np.loadtxt(io.StringIO(body), delimiter="\t", ndmin=2)
    except ValueError as error:
        raise ValueError(f"{path}: not a table of numbers ({error})") \
            from None
    if values.shape[1] != len(header):
        raise ValueError(f"{path}: {values.shape[1]} values a row for "
                         f"{len(header)} columns in the header")
    target = header.index(CLASS)
    names = header[:target] + header[target + 1:]
    return names, np.delete(values, target, axis=1), values[:, target]


def named(names, pattern):
    """Which of `names` `pattern` matches whole (bool array)."""
    return np.array([pattern.fullmatch(name) is not None for name in names],
                    dtype=bool)


def key_variables(names):
    """Which features are key variables by the archive's naming rules
    (:data:`KEY`)."""
    return named(names, KEY)


def register_bits(names):
    """Which features are a multiplexer's register bits (:data:`REGISTER`)."""
    return named(names, REGISTER)


def path_parts(path):
    """The folders of `path`, split at either slash (the summary's paths
    are POSIX, a user's folder may not be)."""
    return tuple(part for part in re.split(r"[\\/]+", path)
                 if part not in ("", "."))


def read_summary(path):
    """The key variables the study's summary spreadsheet names:
    {folders of a configuration below the archive: key variable names}.

    ``SimulatedDataArchiveSummary.xlsx`` of EpistasisLab/rebate-benchmark
    has a row per configuration, its folder in the column
    :data:`SUMMARY_PATH` (an absolute path on the authors' machine, which
    passes through the archive's folder :data:`ARCHIVE`) and its key
    variables, comma-separated, in :data:`SUMMARY_KEYS`.  Raises
    ValueError if the file is not such a spreadsheet.
    """
    import zipfile

    import openpyxl

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its unknown extensions
            workbook = openpyxl.load_workbook(path, read_only=True)
            rows = [tuple(row) for row in workbook.worksheets[0].iter_rows(
                values_only=True)]
        workbook.close()
    except (OSError, zipfile.BadZipFile, KeyError, ValueError) as error:
        raise ValueError(f"summary {path!r} cannot be read as a spreadsheet "
                         f"({error})") from None
    header = next((row for row in rows if SUMMARY_PATH in row
                   and SUMMARY_KEYS in row), None)
    if header is None:
        raise ValueError(f"summary {path!r} has no columns {SUMMARY_PATH!r} "
                         f"and {SUMMARY_KEYS!r}")
    where, keys = header.index(SUMMARY_PATH), header.index(SUMMARY_KEYS)
    named_keys = {}
    for row in rows[rows.index(header) + 1:]:
        if not row[where] or not row[keys]:
            continue
        parts = path_parts(str(row[where]))
        if ARCHIVE in parts:
            parts = parts[parts.index(ARCHIVE) + 1:]
        named_keys[parts] = tuple(name.strip()
                                  for name in str(row[keys]).split(",")
                                  if name.strip())
    return named_keys


def summary_keys(summary, folder):
    """The key variables :func:`read_summary`'s `summary` names for the
    configuration in `folder` (the entry whose folders end its path, the
    longest such), or None if it names none."""
    parts = path_parts(os.path.abspath(folder))
    for tail in sorted(summary, key=len, reverse=True):
        if tail and parts[-len(tail):] == tail:
            return summary[tail]
    return None


def with_keys(configuration, folder, summary):
    """`configuration` (in the settings' `folder`) with its key variables:
    those `summary` names for it, or by the naming rules (:data:`KEY`).
    Raises ValueError if the summary names a column its tables lack, or
    no column is a key variable."""
    where = os.path.join(folder, configuration.path)
    names = table_header(os.path.join(where, configuration.files[0]))
    keys = None if summary is None else summary_keys(summary, where)
    if keys is not None:
        missing = [name for name in keys if name not in names]
        if missing:
            raise ValueError(f"{where}: the summary's key variables "
                             f"{', '.join(missing)} are not columns of its "
                             f"tables")
        source = "summary"
    else:
        keys = tuple(np.array(names)[key_variables(names)])
        source = "names"
    if not keys:
        raise ValueError(f"{where}: no column is named as a key variable "
                         f"(M<m>P<k>, A_<k>) and no summary names one")
    return dataclasses.replace(configuration, keys=tuple(keys),
                               key_source=source)


def task_of(y):
    """"classification" for a target of integer codes, else
    "regression" (the continuous endpoints)."""
    known = y[~np.isnan(y)]
    return ("classification" if np.array_equal(known, np.round(known))
            else "regression")


def nominal_columns(X, limit):
    """Columns with at most `limit` distinct known values."""
    return np.array([len(np.unique(column[~np.isnan(column)])) <= limit
                     for column in X.T], dtype=bool)


def feature_ranks(scores, absolute=False):
    """The rank of every feature by `scores` (1 the best; with `absolute`
    by their magnitude), a tie counted against the method: a feature's
    rank is the number of features scored at least as high as it (NaN
    scores lowest).  UrbsLab rank by the place in a sort of the scores,
    which breaks ties by the sort's order; on scores without ties the two
    agree."""
    scores = np.nan_to_num(ranking_scores(scores, absolute), nan=-np.inf)
    return len(scores) - np.searchsorted(np.sort(scores), scores,
                                         side="left")


def worst_rank(scores, relevant, absolute=False):
    """The rank of the worst-ranked predictive feature by `scores`
    (:func:`feature_ranks`)."""
    return int(feature_ranks(scores, absolute)[relevant].max())


def file_stem(file_name):
    """The name of a table without its suffix (:data:`SUFFIXES`)."""
    return next((file_name[:-len(suffix)] for suffix in SUFFIXES
                 if file_name.endswith(suffix)), file_name)


def shuffle_scores(names, file_name, shuffles=SHUFFLES):
    """The random-shuffle control of UrbsLab's re-benchmark: `shuffles`
    random orders of the features, as scores (the first of an order
    scored highest, every score positive, so the magnitude ranks them
    the same).

    As ``process_random_shuffle`` of UrbsLab/scikit-rebate's analysis:
    order i permutes the sorted names with numpy's ``default_rng(seed +
    i)``, where seed is the SHA-256 of the last two characters of the
    file's stem (its replicate number), modulo 2**32, so that every run
    draws the same orders; a feature's rank is its place in the order.
    """
    stem = file_stem(file_name)
    seed = int(hashlib.sha256(stem[-2:].encode("utf-8")).hexdigest(),
               16) % 2 ** 32
    sorted_names = sorted(names)
    where = {name: i for i, name in enumerate(names)}
    draws = []
    for i in range(shuffles):
        order = np.random.default_rng(seed + i).permutation(sorted_names)
        scores = np.empty(len(names))
        scores[[where[name] for name in order]] = np.arange(len(names), 0,
                                                            -1)
        draws.append(scores)
    return draws


def mutual_information(X, y):
    """The mutual-information control of UrbsLab's re-benchmark:
    scikit-learn's ``mutual_info_classif`` (a target of at most
    :data:`MI_CLASSES` values) or ``mutual_info_regression``, every
    feature taken as continuous (its default for a dense matrix), seeded
    with :data:`MI_SEED`; None on missing values, which it does not
    take."""
    from sklearn.feature_selection import (mutual_info_classif,
                                           mutual_info_regression)

    if np.isnan(X).any():
        return None
    estimate = (mutual_info_classif if len(np.unique(y)) <= MI_CLASSES
                else mutual_info_regression)
    return estimate(X, y, random_state=MI_SEED)


def with_ties(estimate, ties):
    """`estimate` (a method with k nearest neighbours) with its rule for
    ties at the k-th neighbour set to `ties` (None: its default).  Raises
    ValueError if it has no such rule."""
    if ties is None:
        return estimate
    if "ties" not in inspect.signature(estimate).parameters:
        raise ValueError(f"ties {ties!r}: {estimate.__name__} takes no rule "
                         f"for ties at the k-th neighbour")

    def estimate_with_ties(*args, **options):
        return estimate(*args, ties=ties, **options)
    return estimate_with_ties


def our_scores(name, X, y, discrete, task, ties=None):
    """The scores of our method `name` (higher: more predictive), or None
    where it does not apply to the data (Relief beyond two classes,
    :data:`CLASSES_ONLY` on a numeric target); `ties` is the rule for ties at the
    k-th neighbour of the methods with k nearest neighbours
    (:func:`with_ties`)."""
    algorithm, k = OURS[name]
    classes = task == "classification"
    if algorithm == "relieff":
        estimate = estimators.relieff if classes else estimators.rrelieff
        return with_ties(estimate, ties)(X, y, discrete, k_nearest=k)
    if algorithm in surf.NEIGHBOURHOODS:
        return surf.neighbourhood_sums(X, y, discrete, method=algorithm,
                                       task=task).weights
    if algorithm.startswith("turf"):
        def score(X, y, discrete, progress_callback=None):
            return surf.multisurf(X, y, discrete, task=task)
        schedule = algorithm.partition("/")[2] or TURF_SCHEDULE
        return turf(score, X, y, discrete, fraction=TURF_FRACTION,
                    schedule=schedule).scores
    if algorithm == "npdr":
        return npdr(X, y, discrete, task=task).statistic
    if not classes:
        return None
    if algorithm == "murelief":
        return with_ties(murelief, ties)(X, y, discrete, k_nearest=k)
    if algorithm in swrf.METHODS:
        return swrf.swrf_weights(X, y, discrete, method=algorithm)
    if algorithm == "relief":
        if len(np.unique(y[~np.isnan(y)])) != 2:
            return None
        return with_ties(estimators.relief, ties)(X, y, discrete)
    weigh = double.drelieff if algorithm == "drelieff" else double.pdrelieff
    return with_ties(weigh, ties)(X, y, discrete, k_nearest=k)


def scores_of(name, X, y, discrete, task, discrete_limit, ties=None):
    """The scores of method `name` of :data:`METHODS` other than the
    shuffle control, or None where it does not apply (`ties`: of ours,
    :func:`our_scores`)."""
    if name in OURS:
        return our_scores(name, X, y, discrete, task, ties)
    if name == MUTUAL_INFORMATION:
        return mutual_information(X, y)
    peer, algorithm, k = PEER_METHODS[name]
    if (not peers.supports(peer, algorithm, task, np.isnan(X).any())
            or algorithm in CLASSES_ONLY and task != "classification"):
        return None
    return peers.peer_weights(peer, algorithm, X, y, k=k or 10, task=task,
                              discrete_limit=discrete_limit)


def row_order(settings, file_name, n):
    """The order in which the rows of the table `file_name` (of `n` rows)
    are weighed: as given, or with ``settings.permute_rows`` a permutation
    seeded by the settings' seed and the file's name (the same in every
    process and run)."""
    if not settings.permute_rows:
        return np.arange(n)
    rng = np.random.default_rng([settings.seed,
                                 zlib.crc32(file_name.encode("utf-8"))])
    return rng.permutation(n)


#: a method's ranks on a replicate (or, of the shuffle control, on one of
#: its orders): the worst rank of the key variables and of the key
#: variables and the register bits (None without register bits), the
#: same two ranked by the magnitude of the scores, and every key
#: variable's rank, by score and by its magnitude
Draw = namedtuple("Draw", "worst worst_with_registers absolute "
                          "absolute_with_registers keys keys_absolute")


def draw_of(scores, relevant, registers):
    """The :class:`Draw` of `scores` (`relevant`: the key variables,
    `registers`: the register bits, bool arrays)."""
    ranked = []
    for absolute in (False, True):
        ranks = feature_ranks(scores, absolute)
        ranked.append((int(ranks[relevant].max()),
                       int(ranks[relevant | registers].max())
                       if registers.any() else None,
                       tuple(int(rank) for rank in ranks[relevant])))
    (worst, with_registers, keys), (absolute, absolute_registers,
                                    keys_absolute) = ranked
    return Draw(worst, with_registers, absolute, absolute_registers, keys,
                keys_absolute)


def method_draws(settings, name, names, file_name, X, y, discrete, kind):
    """The scores of method `name` on a replicate as a list (several
    orders of the shuffle control, else one), or None where it does not
    apply."""
    if name == SHUFFLE:
        return shuffle_scores(names, file_name, settings.shuffles)
    scores = scores_of(name, X, y, discrete, kind, settings.discrete_limit,
                       settings.ties)
    return None if scores is None else [scores]


def run_replicate(settings, task):
    """One replicate, every method: {method: ([:class:`Draw`] or None
    where the method does not apply, seconds)}; `task` is (configuration
    path, file name, key variable names).
    """
    path = os.path.join(settings.folder, *task[:2])
    names, X, y = read_table(path)
    order = row_order(settings, task[1], len(y))
    X, y = X[order], y[order]
    relevant = np.isin(names, task[2])
    registers = register_bits(names) & ~relevant
    kind = task_of(y)
    discrete = nominal_columns(X, settings.discrete_limit)
    out = {}
    for name in settings.methods:
        start = time.perf_counter()
        try:
            draws = method_draws(settings, name, names, task[1], X, y,
                                 discrete, kind)
        except ValueError as error:  # the method refuses the data
            raise ValueError(f"{path}: {name}: {error}") from None
        out[name] = (None if draws is None else
                     [draw_of(scores, relevant, registers)
                      for scores in draws], time.perf_counter() - start)
    return out


def _run_replicate_in_worker(fields, task):
    return run_replicate(Settings(**fields), task)


@dataclass
class Results:
    """The worst ranks of every replicate, by configuration and method.

    ``ranks[path][method]`` is a list, one entry per replicate (of the
    shuffle control, per order of each replicate, :data:`SHUFFLES` a
    replicate, as UrbsLab count them): the rank of its worst-ranked key
    variable, or None where the method does not apply;
    ``with_registers[path][method]`` the same of the key variables and
    the register bits together, for the configurations with register
    bits; ``absolute`` and ``absolute_with_registers`` the same two ranked
    by the magnitude of the scores (UrbsLab's re-benchmark scores every
    method both ways; Freda et al. 2024); ``keys`` and ``keys_absolute``
    the ranks of every key variable, a tuple per entry (None where the
    method does not apply); ``times[path][method]`` the seconds the method
    took on each replicate, ``seconds[method]`` in all.
    """
    settings: Settings
    configurations: list
    features: dict = field(default_factory=dict)    # path -> number
    relevant: dict = field(default_factory=dict)    # path -> key variables
    registers: dict = field(default_factory=dict)   # path -> register bits
    ranks: dict = field(default_factory=dict)
    with_registers: dict = field(default_factory=dict)
    absolute: dict = field(default_factory=dict)
    absolute_with_registers: dict = field(default_factory=dict)
    keys: dict = field(default_factory=dict)
    keys_absolute: dict = field(default_factory=dict)
    times: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    wall: float = 0.0

    FILES = ("rebate_power.csv", "rebate_replicates.csv",
             "rebate_heatmap.png", "rebate_power_curves.png",
             "rebate_ranks.csv", "rebate_mannwhitney.csv",
             "rebate_rank_heatmap.png")

    def groups(self):
        """The families of the configurations (:func:`family_groups`)."""
        return family_groups(self.configurations)

    def columns(self):
        """The columns of the heat maps and the comparisons: (method,
        ranked by the magnitude of its scores), every method by score
        and, with the settings' `absolute`, by magnitude too (not the
        controls, whose scores are never negative)."""
        methods = self.settings.methods
        return [(m, False) for m in methods] + [
            (m, True) for m in methods
            if self.settings.absolute and m not in CONTROLS]

    def ranks_of(self, registers=False, absolute=False):
        """The worst ranks of the key variables (with `registers`: and of
        the register bits), ranked by score or (`absolute`) by its
        magnitude: {path: {method: [rank per replicate]}}."""
        return {(False, False): self.ranks,
                (True, False): self.with_registers,
                (False, True): self.absolute,
                (True, True): self.absolute_with_registers}[
                    registers, absolute]

    def power(self, path, method, registers=False, absolute=False):
        """The power at r = 1 .. number of features (None where the
        method does not apply): the share of replicates whose key
        variables (and with `registers` the register bits too) all rank
        within the top r (with `absolute`: by the magnitude of the
        scores)."""
        ranks = self.ranks_of(registers, absolute)[path][method]
        if any(rank is None for rank in ranks):
            return None
        r = np.arange(1, self.features[path] + 1)
        return (np.array(ranks)[:, None] <= r[None, :]).mean(axis=0)

    def power_at_top(self, path, method, registers=False, absolute=False):
        """The power at r = the number of key variables (with
        `registers`: and register bits; `absolute`: ranked by the
        magnitude of the scores)."""
        power = self.power(path, method, registers, absolute)
        top = self.relevant[path] + (self.registers[path] if registers
                                     else 0)
        return None if power is None else power[top - 1]

    def write(self, out):
        """Write the CSVs, the heat map and the curves to the directory
        `out`; return their paths."""
        from . import write_csv

        os.makedirs(out, exist_ok=True)
        paths = [os.path.join(out, name) for name in self.FILES]
        write_csv(paths[0], self.power_rows())
        write_csv(paths[1], self.replicate_rows())
        plot_heatmap(self, paths[2])
        plot_curves(self, paths[3])
        write_csv(paths[4], rebate_statistics.rank_rows(self))
        write_csv(paths[5], rebate_statistics.mann_whitney_rows(self))
        plot_rank_heatmap(self, paths[6])
        return paths

    def power_rows(self):
        """One row per configuration, method, ranked features (the key
        variables; where there are register bits, also the key variables
        and the register bits), ranking (by score, "signed", or by its
        magnitude, "absolute") and r."""
        rows = []
        for configuration in self.configurations:
            path = configuration.path
            kinds = [False] + [True] * (self.registers[path] > 0)
            for method, registers, absolute in (
                    (m, kind, by) for m in self.settings.methods
                    for kind in kinds for by in (False, True)):
                power = self.power(path, method, registers, absolute)
                if power is None:
                    continue
                for r, value in enumerate(power, start=1):
                    rows.append(dict(
                        configuration=path, family=configuration.family,
                        method=method, features=self.features[path],
                        ranked=("key and register" if registers
                                else "key"),
                        ranking="absolute" if absolute else "signed",
                        key_variables=" ".join(configuration.keys),
                        named_by=configuration.key_source,
                        predictive=self.relevant[path]
                        + registers * self.registers[path],
                        replicates=len(self.ranks[path][method]), r=r,
                        power=f"{value:.6g}"))
        return rows

    def replicate_rows(self):
        """One row per configuration, replicate, method and draw (the
        shuffle control's orders; 0 for the others): the worst rank of the
        key variables and, where there are register bits, of the key
        variables and the register bits, both by score and by its
        magnitude, and the key variables' ranks (empty where the method
        does not apply)."""
        def cell(rank):
            return "" if rank is None else rank

        def ranks(values):
            return "" if values is None else " ".join(map(str, values))

        rows = []
        for c in self.configurations:
            for method in self.settings.methods:
                entries = self.ranks[c.path][method]
                draws = len(entries) // len(c.files)
                for i, rank in enumerate(entries):
                    rows.append(dict(
                        configuration=c.path, replicate=c.files[i // draws],
                        method=method, draw=i % draws,
                        worst_rank=cell(rank),
                        worst_rank_with_registers=cell(
                            self.with_registers[c.path][method][i]),
                        worst_rank_absolute=cell(
                            self.absolute[c.path][method][i]),
                        worst_rank_absolute_with_registers=cell(
                            self.absolute_with_registers[c.path][method][i]),
                        key_ranks=ranks(self.keys[c.path][method][i]),
                        key_ranks_absolute=ranks(
                            self.keys_absolute[c.path][method][i]),
                        seconds=f"{self.times[c.path][method][i // draws]:.4g}"))
        return rows

    def summary(self):
        """The power at the top, configurations by methods, their mean,
        and the time each method took; then, for the configurations with
        register bits, the power at the top of the key variables and the
        register bits together."""
        methods = self.settings.methods
        width = max(len(c.label) for c in self.configurations)
        cells = [max(len(name), 5) for name in methods]

        def row(label, configuration, registers=False, absolute=False):
            line = f"{label:<{width}}"
            for method, w in zip(methods, cells):
                top = self.power_at_top(configuration.path, method,
                                        registers, absolute)
                line += f"  {'n/a' if top is None else f'{top:.2f}':>{w}}"
            return line

        header = f"{'configuration':<{width}}" + "".join(
            f"  {name:>{w}}" for name, w in zip(methods, cells))
        lines = [header] + [row(c.label, c) for c in self.configurations]
        means = self.mean_power_at_top()
        lines.append(f"{'mean':<{width}}" + "".join(
            f"  {means[m]:>{w}.2f}" for m, w in zip(methods, cells)))
        lines.append(f"{'seconds':<{width}}" + "".join(
            f"  {self.seconds[m]:>{w}.0f}" for m, w in zip(methods, cells)))
        n_files = sum(len(c.files) for c in self.configurations)
        by_summary = sum(c.key_source == "summary"
                         for c in self.configurations)
        lines.append(f"(power at r = the number of key variables, named "
                     f"by the summary for {by_summary} configurations and "
                     f"by the naming rules for "
                     f"{len(self.configurations) - by_summary}; "
                     f"{len(self.configurations)} configurations, "
                     f"{n_files} files in {self.wall:.0f} s)")
        with_registers = [c for c in self.configurations
                          if self.registers[c.path]]
        if with_registers:
            lines += ["", "The key variables and the register bits together "
                          "(power at r = their number):", header]
            lines += [row(c.label, c, True) for c in with_registers]
        lines += ["", "Ranked by the magnitude of the scores, |score| "
                      "(power at r = the number of key variables):", header]
        lines += [row(c.label, c, absolute=True) for c in self.configurations]
        means = self.mean_power_at_top(absolute=True)
        lines.append(f"{'mean':<{width}}" + "".join(
            f"  {means[m]:>{w}.2f}" for m, w in zip(methods, cells)))
        lines += ["", "The mean rank of the key variables (1 the best), "
                      "by family:"] + rebate_statistics.rank_table(self)
        return "\n".join(lines)

    def family_table(self, names=None):
        """The mean power at the top of each family (:func:`family_groups`)
        and of all configurations, by method: the lines of a Markdown
        table, its columns headed by `names` ({method: heading}; default
        the methods)."""
        methods = self.settings.methods
        names = names or {method: method for method in methods}

        def cells(means):
            return [("n/a" if np.isnan(means[method])
                     else f"{means[method]:.2f}") for method in methods]

        lines = ["| family (configurations) | "
                 + " | ".join(names[method] for method in methods) + " |",
                 "|---|" + "---:|" * len(methods)]
        for label, group in family_groups(self.configurations):
            lines.append(f"| {label} ({len(group)}) | "
                         + " | ".join(cells(self.mean_power_at_top(group)))
                         + " |")
        lines.append("| **mean of all** | " + " | ".join(
            f"**{cell}**" for cell in cells(self.mean_power_at_top())) + " |")
        return lines

    def mean_power_at_top(self, configurations=None, absolute=False):
        """{method: the mean power at the top over `configurations` (all
        by default) where the method applies, NaN where it applies to
        none}; with `absolute`, ranked by the magnitude of the scores."""
        chosen = self.configurations if configurations is None \
            else configurations
        means = {}
        for method in self.settings.methods:
            tops = [top for c in chosen
                    if (top := self.power_at_top(c.path, method,
                                                 absolute=absolute))
                    is not None]
            means[method] = np.mean(tops) if tops else np.nan
        return means


def chosen(settings):
    """The configurations of the settings' folder, with the replicates
    the settings keep and their key variables (:func:`with_keys`)."""
    found = configurations(settings.folder)
    if not found:
        raise ValueError(f"folder {settings.folder!r} holds no table of the "
                         f"benchmark (tab-separated, a column {CLASS!r})")
    summary = (None if settings.summary is None
               else read_summary(settings.summary))
    return [with_keys(Configuration(c.path, c.files[:settings.replicates]),
                      settings.folder, summary) for c in found]


def run(settings, *, jobs=1, progress_callback=None, should_stop=None):
    """Weigh every replicate of `settings` with every method; return
    :class:`Results`.

    Parameters
    ----------
    settings : Settings
    jobs : int
        Worker processes (1: in this process).
    progress_callback : callable(float) or None
        Receives the fraction of the files done.
    should_stop : callable() -> bool, or None
        Polled between files; True stops the run with
        :class:`~orangecontrib.relief.core.progress.Interrupted`.
    """
    start = time.perf_counter()
    found = chosen(settings)
    tasks = [(c.path, name, c.keys) for c in found for name in c.files]
    # the largest files first, so that no worker is left with one at the end
    sizes = {task: os.path.getsize(os.path.join(settings.folder, *task[:2]))
             for task in tasks}
    tasks.sort(key=lambda task: -sizes[task])
    progress = Progress(len(tasks), progress_callback, should_stop)
    per_file = {}

    def done(task, result):
        per_file[task] = result
        progress.done()

    if jobs <= 1:
        with fastest_engine():
            for task in tasks:
                progress.check()
                done(task, run_replicate(settings, task))
    else:
        run_in_processes(_run_replicate_in_worker, asdict(settings), tasks,
                         jobs, done, poll=progress.check)
    return assemble(settings, found, per_file, time.perf_counter() - start)


def assemble(settings, found, per_file, wall):
    """The :class:`Results` of every file's {method: (rank, rank with the
    register bits, seconds)} (:func:`run_replicate`)."""
    results = Results(settings, found, wall=wall,
                      seconds={m: 0.0 for m in settings.methods})
    for c in found:
        names = [name for name in table_header(
            os.path.join(settings.folder, c.path, c.files[0])) if name != CLASS]
        results.features[c.path] = len(names)
        results.relevant[c.path] = len(c.keys)
        results.registers[c.path] = int(
            (register_bits(names) & ~np.isin(names, c.keys)).sum())
        stores = (results.ranks, results.with_registers, results.absolute,
                  results.absolute_with_registers, results.keys,
                  results.keys_absolute)
        for store in stores + (results.times,):
            store[c.path] = {m: [] for m in settings.methods}
        for name in c.files:
            for method, (draws, seconds) in per_file[
                    (c.path, name, c.keys)].items():
                for draw in draws or [Draw(*(None,) * len(Draw._fields))]:
                    for store, rank in zip(stores, draw):
                        store[c.path][method].append(rank)
                results.times[c.path][method].append(seconds)
                results.seconds[method] += seconds
    return results


# --- the figures ------------------------------------------------------------

def plot_heatmap(results, path, dpi=110):
    """The study's heat map: configurations (rows) by methods (columns,
    :meth:`Results.columns`), the colour and the number the power at r =
    the number of predictive features (grey where a method does not
    apply)."""
    columns = results.columns()
    power = np.array([[np.nan if (top := results.power_at_top(
        c.path, m, absolute=absolute)) is None else top
        for m, absolute in columns] for c in results.configurations])
    draw_heatmap(power, [c.label for c in results.configurations], columns,
                 "power at r = number of predictive features",
                 [[f"{value:.2f}"[1:] if value < 1 else "1" for value in row]
                  for row in power], path, dpi)


def plot_rank_heatmap(results, path, dpi=110):
    """The ranks' heat map in the layout of :func:`plot_heatmap`: families
    (rows) by methods (columns), the number the mean rank of the key
    variables (:func:`.rebate_statistics.mean_ranks`), the colour 1 -
    (mean rank - 1) / (features - 1), features the mean number of the
    family's configurations: 1 at the top of the ranking, 0 at its
    bottom, bright where good as in the power's map."""
    groups = results.groups()
    means = np.array([[rebate_statistics.mean_ranks(
        results, group, method, absolute)[0]
        for method, absolute in results.columns()] for _, group in groups])
    features = np.array([[np.mean([results.features[c.path] for c in group])]
                         for _, group in groups])
    draw_heatmap(1 - (means - 1) / np.maximum(features - 1, 1),
                 [label for label, _ in groups], results.columns(),
                 "mean rank of the key variables (colour: 1 the top, "
                 "0 the bottom)",
                 [[f"{value:.3g}" for value in row] for row in means],
                 path, dpi)


def draw_heatmap(values, rows, columns, legend, texts, path, dpi):
    """A heat map of `values` (rows by columns, 0 to 1; grey where NaN)
    with their `texts`, its rows labelled `rows` and its columns by
    `columns` (:meth:`Results.columns`), its colour bar `legend`, saved
    to `path`."""
    columns = [rebate_statistics.column_label(*column) for column in columns]
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    longest = max(len(label) for label in rows)
    figure = Figure(figsize=(1.6 + 0.045 * longest + 0.62 * len(columns),
                             1.6 + 0.24 * len(rows)))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(1, 1, 1)
    axes.set_facecolor("#dddddd")
    image = axes.imshow(np.ma.masked_invalid(values), cmap="viridis",
                        vmin=0, vmax=1, aspect="auto")
    for (i, j), value in np.ndenumerate(values):
        if np.isfinite(value):
            axes.text(j, i, texts[i][j], ha="center", va="center",
                      fontsize=6, color="white" if value < 0.6 else "black")
    axes.set_xticks(range(len(columns)))
    axes.set_xticklabels(columns, rotation=60, ha="right", fontsize=7)
    axes.set_yticks(range(len(rows)))
    axes.set_yticklabels(rows, fontsize=6)
    colorbar = figure.colorbar(image, ax=axes, fraction=0.03, pad=0.02)
    colorbar.set_label(legend, fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=dpi, bbox_inches="tight")


def plot_curves(results, path, dpi=100):
    """The power against r, one panel per configuration, one line per
    method (r on a log scale where there are many features)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    methods = results.settings.methods
    rows = results.configurations
    n_cols = min(6, len(rows))
    n_rows = -(-len(rows) // n_cols)
    figure = Figure(figsize=(2.6 * n_cols, 2.2 * n_rows + 0.6))
    FigureCanvasAgg(figure)
    colours = {m: f"C{i % 10}" for i, m in enumerate(methods)}
    styles = {m: "-" if i < 10 else "--" for i, m in enumerate(methods)}
    for number, configuration in enumerate(rows):
        axes = figure.add_subplot(n_rows, n_cols, number + 1)
        features = results.features[configuration.path]
        r = np.arange(1, features + 1)
        for method in methods:
            power = results.power(configuration.path, method)
            if power is not None:
                axes.plot(r, power, styles[method], color=colours[method],
                          linewidth=1, label=method)
        if features > 50:
            axes.set_xscale("log")
        axes.axvline(results.relevant[configuration.path], color="#999999",
                     linewidth=0.6)
        axes.set_ylim(-0.03, 1.03)
        axes.set_title(configuration.label, fontsize=6)
        axes.tick_params(labelsize=6)
    handles, labels = figure.axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)),
                  fontsize=7, frameon=False)
    figure.supxlabel("r (top features)", fontsize=8, y=0.03)
    figure.supylabel("power", fontsize=8)
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    figure.savefig(path, dpi=dpi, bbox_inches="tight")
