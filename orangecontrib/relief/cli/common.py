"""What every command of ``orange-relief`` shares: the error a user sees,
argument types, loading a data set and a progress bar."""
import argparse
import os
import re
import sys
import time
import warnings
from contextlib import contextmanager

DEFAULT_DATASET = "heart_disease"
#: when the command line started (its module is among the first imported)
STARTED = time.perf_counter()


class CliError(Exception):
    """A user error: printed as one line to stderr, exit code 2."""


def option_names(parser, parameters):
    """{parameter: option} of the options of `parser` whose destination is
    one of `parameters` (the names the library's messages use)."""
    return {action.dest: action.option_strings[0]
            for action in parser._actions
            if action.option_strings and action.dest in parameters}


def input_error(error, options):
    """A `CliError` with the message of `error` (the library refusing the
    input), every parameter of `options` ({parameter: option}) named by
    its option, as the user typed it: ``--seed``, not ``random_state``."""
    pattern = "|".join(map(re.escape, options))
    return CliError(re.sub(rf"(?<![\w-])({pattern})(?![\w-])",
                           lambda match: options[match[1]], str(error)))


def _checked(convert, kind, valid, requirement):
    """argparse type: ``convert(text)``, `kind` if it converts, and refused
    unless ``valid(value)`` (`requirement` says what it must be)."""
    def parse(text):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be {kind}, not {text!r}") from None
        if not valid(value):
            raise argparse.ArgumentTypeError(
                f"must be {requirement}, not {value}")
        return value
    return parse


def declared(name, convert=int):
    """argparse type of an option whose parameter is `name` in the
    declared table (:data:`...core.options.PARAMETERS`): the text read by
    `convert` and checked by the declared constraint as the command line
    is parsed, once, before any work, so that the error names the option
    the user typed (``argument --k: must be a positive integer, not
    '0'``)."""
    def parse(text):
        from ..core.options import PARAMETERS
        constraint = PARAMETERS[name]
        typed = getattr(constraint, "inner", constraint)  # text is no None
        try:
            return constraint(name, convert(text))
        except ValueError:  # the text or the value (ReliefInputError)
            raise argparse.ArgumentTypeError(
                f"must be {typed.requirement}, not {text!r}") from None
    return parse


#: argparse types of the options the table does not declare (the
#: experiments' sizes): an integer >= 1, an integer >= 0
positive_int = _checked(int, "a positive integer", lambda v: v >= 1,
                        "at least 1")
non_negative_int = _checked(int, "a non-negative integer", lambda v: v >= 0,
                            "at least 0")


def timed(seconds, what):
    """What the summary line says of the time: `what` took `seconds`,
    and the whole command so far (imports and reading the data too)."""
    return (f"{what} in {seconds:.2f} s, "
            f"{time.perf_counter() - STARTED:.2f} s in all")


def load_table(name):
    """The Orange table in file `name` or the shipped data set `name`; the
    readers' warnings (bytes skipped, ...) are printed a line each.

    Raises `CliError` if there is no such file or data set, `name` is a
    folder or an empty file, or it can't be read as a table with columns.
    """
    from orangecontrib.relief import datasets

    if os.path.isdir(name):
        raise CliError(f"{name} is a folder, not a data file")
    if os.path.exists(name):
        filename = name
        if os.path.getsize(name) == 0:
            raise CliError(f"{name} is empty: no table to read")
        if is_binary_text_table(name):
            raise CliError(f"{name} holds binary data, not a table of text "
                           f"that its extension promises")
    else:
        try:
            filename = datasets.path(name)
        except FileNotFoundError as error:
            raise CliError(f"{name}: no such file, and {error}") from None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            table = read_file(filename)
        except Exception as error:  # Orange's readers raise many kinds
            raise CliError(f"cannot read {name}: {error}") from None
    domain = table.domain
    if not len(table) and not domain.class_vars:
        raise CliError(f"{name} holds no table: no rows and no class "
                       f"(is it a data file Orange reads, such as .tab or "
                       f".csv?)")
    for warning in caught:
        print(f"orange-relief: warning: {name}: {warning.message}",
              file=sys.stderr)
    return table


#: the extensions of the tables of text that Orange reads
TEXT_TABLES = (".tab", ".tsv", ".csv", ".txt", ".basket")
#: tables of text named as no reader of Orange's is: read as CSV, whose
#: reader tells tabs from commas and opens them gzipped, bzipped or xz'd
#: (the ReBATE archive's ``.txt.gz``; Orange reads ``.tsv.gz`` and
#: ``.csv.gz`` itself)
PLAIN_TEXT = (".txt", ".txt.gz", ".txt.bz2", ".txt.xz")


def read_file(filename):
    """The Orange table of the file `filename`: by Orange's reader of its
    extension, or as CSV where it is named as plain text
    (:data:`PLAIN_TEXT`)."""
    from Orange.data import Table
    from Orange.data.io import CSVReader

    if filename.lower().endswith(PLAIN_TEXT):
        return CSVReader(filename).read()
    return Table(filename)


def archive_class(table):
    """`table` with its column named as the ReBATE archive's target
    (``Class``) as the class, categorical where it holds integer codes, as
    ``orange-relief experiment rebate`` reads the archive's tables;
    `table` itself if it has a class already or no such column."""
    import numpy as np
    from Orange.data import DiscreteVariable, Domain, Table

    from orangecontrib.relief.experiments.rebate import CLASS, task_of

    if table.domain.class_vars or CLASS not in table.domain:
        return table
    table = with_class(table, CLASS)
    domain, y = table.domain, table.Y
    if not domain.class_var.is_continuous or task_of(y) != "classification":
        return table
    codes = np.unique(y[~np.isnan(y)])
    class_var = DiscreteVariable(CLASS, [f"{code:g}" for code in codes])
    indices = np.where(np.isnan(y), np.nan, np.searchsorted(codes, y))
    return Table.from_numpy(Domain(domain.attributes, class_var,
                                   domain.metas), table.X, indices,
                            table.metas)


def is_binary_text_table(filename):
    """Whether file `filename`, named as a table of text, holds a NUL byte
    in its first 4 kB (binary data: text never has one)."""
    if not filename.lower().endswith(TEXT_TABLES):
        return False
    with open(filename, "rb") as file:
        return b"\0" in file.read(4096)


def with_class(table, name):
    """`table` with its column `name` (an attribute, a class or a meta) as
    the only class; the class it had, if another, becomes a meta.

    Raises `CliError` if there is no such column or it holds text.
    """
    from Orange.data import Domain

    domain = table.domain
    columns = domain.attributes + domain.class_vars + domain.metas
    found = [var for var in columns if var.name == name]
    if not found:
        raise CliError(f"--class {name}: no such column; the columns are "
                       + ", ".join(var.name for var in columns))
    class_var = found[0]
    if not (class_var.is_discrete or class_var.is_continuous):
        raise CliError(f"--class {name}: a column of text cannot be the "
                       f"class; Relief needs a categorical or numeric one")
    others = [var for var in domain.class_vars + domain.metas
              if var is not class_var]
    attributes = [var for var in domain.attributes if var is not class_var]
    return table.transform(Domain(attributes, class_var, others))


def without_unused_classes(table):
    """`table` whose categorical class keeps only the values some instance
    has (a table filtered to two of three classes fits Relief)."""
    import numpy as np
    from Orange.preprocess import Remove

    class_var = table.domain.class_var
    if class_var is None or not class_var.is_discrete:
        return table
    classes = table.get_column(class_var)
    if len(np.unique(classes[~np.isnan(classes)])) == len(class_var.values):
        return table
    with np.errstate(invalid="ignore"):  # casting the unknown classes
        return Remove(class_flags=Remove.RemoveUnusedValues)(table)


#: the environment variable that switches every progress bar off ("0")
PROGRESS = "ORANGE_RELIEF_PROGRESS"
#: the fractions a log gets a line at, between its first and its last
MILESTONES = (0.25, 0.5, 0.75)
#: the share of the work done from which a bar says the time left
ESTIMATED_FROM = 0.05


def progress_allowed():
    """Whether the environment allows progress bars."""
    return os.environ.get(PROGRESS, "1").strip().lower() not in (
        "0", "false", "no", "off")


class ProgressBar:
    """A ``progress_callback`` that shows the fraction done on stderr.

    On a terminal, one line that moves.  Elsewhere (a log file, a pipe,
    CI), as pip and tqdm write to logs, a few whole lines: the first
    report shown, one at each of :data:`MILESTONES` passed, and the end.
    Work done within `quiet_seconds` shows nothing; ``ORANGE_RELIEF_
    PROGRESS=0`` (or `enabled` false) shows nothing at all.  A `heading`,
    if given, is written once, at the first report (so not before work
    that fails its checks), whatever the bar shows.  `clock` gives the
    seconds (tests pass their own).
    """

    def __init__(self, what, stream=None, width=30, quiet_seconds=1.0,
                 heading=None, enabled=None, clock=time.perf_counter):
        self.what = what
        self.heading = heading
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.clock = clock
        self.start = clock()
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self.quiet_seconds = quiet_seconds
        self.enabled = progress_allowed() if enabled is None else enabled
        self.shown = False  # a line of this bar has been written
        self.passed = 0  # milestones a log has had a line for
        self.ended = False  # the end has been shown

    def __call__(self, fraction):
        if self.heading is not None:
            self.write(self.heading + "\n")
            self.heading = None
        if not self.enabled or self.ended:
            return
        elapsed = self.clock() - self.start
        if elapsed < self.quiet_seconds and not self.shown:
            return
        if self.tty:
            self.write("\r" + self.line(fraction, elapsed)
                       + ("\n" if fraction >= 1 else ""))
        elif self.log_line_due(fraction):
            self.write(self.line(fraction, elapsed) + "\n")
        self.shown = True
        self.ended = fraction >= 1

    def log_line_due(self, fraction):
        """Whether a log gets a line at `fraction`: the first shown, a
        milestone passed, the end."""
        passed = sum(fraction >= milestone for milestone in MILESTONES)
        due = not self.shown or passed > self.passed or fraction >= 1
        self.passed = max(self.passed, passed)
        return due

    def line(self, fraction, elapsed):
        """The bar's text at `fraction` done after `elapsed` seconds; the
        time left, extrapolated from them, once :data:`ESTIMATED_FROM` of
        the work is done (before, the first pieces, slower or quicker
        than the rest, would make it wild)."""
        filled = int(self.width * fraction)
        text = (f"{self.what} [{'#' * filled}{'.' * (self.width - filled)}] "
                f"{100 * fraction:5.1f}%  {elapsed:6.1f} s elapsed")
        if fraction < ESTIMATED_FROM:
            return text + ", time left not known yet"
        return text + f", {elapsed / fraction - elapsed:6.1f} s left"

    def write(self, text):
        self.stream.write(text)
        self.stream.flush()
        _open_lines[id(self.stream)] = (self.stream,
                                         not text.endswith("\n"))


#: {id: (stream, whether a bar's line on it is not ended)}
_open_lines = {}


def end_progress_line():
    """End the line a progress bar left unfinished on a terminal (the
    command is stopped before the bar's end), so that the next message
    starts on a line of its own."""
    for stream, open_line in _open_lines.values():
        if open_line:
            stream.write("\n")
            stream.flush()
    _open_lines.clear()


@contextmanager
def summarised_warnings(command):
    """Run the block with the warnings Python would show caught, not shown
    as they come (a learner of scikit-learn fitted on every fold warns as
    often) but summarised at its end (not after a stop), a line each: its
    first line, and how many times it came.  The add-on's own warnings on its
    engines (a damaged cache) are shown at once, once.  Python's warning
    filters are restored afterwards."""
    from ..core.engines.preparation import CacheWarning

    counts = {}

    def show(message, category, filename, lineno, file=None, line=None):
        text = f"{category.__name__}: {str(message).strip().splitlines()[0]}"
        counts[text] = counts.get(text, 0) + 1
        if issubclass(category, CacheWarning) and counts[text] == 1:
            print(f"{command}: warning: {message}", file=sys.stderr)

    with warnings.catch_warnings():  # Python's filters kept: what they
        warnings.showwarning = show    # would show is summarised
        yield
    for text, count in counts.items():
        if not text.startswith(CacheWarning.__name__):
            times = f" ({count} times)" if count > 1 else ""
            print(f"{command}: warning: {text}{times}", file=sys.stderr)


def write_figure(draw, path):
    """``draw(path)``, then say where the figure went; a file that cannot
    be written is one line (CliError), not a traceback."""
    try:
        draw(path)
    except OSError as error:
        raise CliError(f"cannot write {path}: {error.strerror}") from None
    print(f"figure: {path}")
