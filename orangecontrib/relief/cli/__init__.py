"""The command line: ``orange-relief <command> ...``.

Every argument parser of the add-on lives in this package: :mod:`.rank`
(``orange-relief rank``), :mod:`.curve` (``orange-relief curve``),
:mod:`.interactions` (``orange-relief interactions``), :mod:`.experiment`
(``orange-relief experiment <name>``) and :mod:`.prepare`
(``orange-relief prepare``);
:mod:`.common` holds what they share.  Each command
adds one sub-parser and sets its ``run(args) -> exit code``; a command
signals a user error (bad file, unsuitable data) by raising
:class:`~.common.CliError`, which :func:`main` prints on one line to stderr
before exiting with status 2.  Output that cannot be written ends the
command as it ends other Unix tools: quietly when the reader has gone
(``orange-relief rank | head -3``), with one line of error otherwise (a
full disk), and exit status 1.  Ctrl-C and SIGTERM end a command with
one line and the status a shell gives a process ended by the signal (130
and 143), its worker processes ended and its locks released on the way
(:mod:`..core.termination`).
"""
import argparse
import gc
import os
import sys

from ..core.termination import Stopped, installed
from .common import CliError, end_progress_line, summarised_warnings
from .curve import add_curve_command
from .experiment import add_experiment_command
from .interactions import add_interactions_command
from .prepare import add_prepare_command
from .rank import add_rank_command

EXIT_USAGE = 2
EXIT_FAILURE = 1

#: functions that register a sub-command
COMMANDS = (add_rank_command, add_curve_command, add_interactions_command,
            add_experiment_command, add_prepare_command)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2,
    like every other error of the command line."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} "
                              f"(see {self.prog} --help)\n")


def build_parser():
    """The argument parser with every command of `COMMANDS`."""
    parser = OneLineParser(
        prog="orange-relief",
        description="Relief family feature weighting for Orange data.")
    parser.add_argument("--version", action="version", version=version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND",
                                       required=True,
                                       parser_class=OneLineParser)
    for add_command in COMMANDS:
        add_command(subparsers)
    return parser


def version():
    """The line of ``orange-relief --version``: the add-on's version and
    those of what computes (Orange, numba, numpy, Python)."""
    from importlib import metadata

    def of(distribution):
        try:
            return metadata.version(distribution)
        except metadata.PackageNotFoundError:
            return "not installed"

    return (f"orange-relief {of('Orange3-Relief')} (Orange {of('Orange3')}, "
            f"numba {of('numba')}, numpy {of('numpy')}, Python "
            f"{sys.version.split()[0]})")


def main(argv=None):
    """Run the command line `argv` (default: sys.argv[1:]); return the
    exit code."""
    with installed():
        name = "orange-relief"
        try:
            args = build_parser().parse_args(argv)
            name = f"orange-relief {args.command}"
            with summarised_warnings(name):
                return run(args)
        except Stopped as stop:
            end_progress_line()
            print(f"{name}: {stop}", file=sys.stderr)
            return stop.status


def console():
    """``orange-relief`` run as a process of its own (the console script,
    ``python -m orangecontrib.relief``): :func:`main` on the process's
    arguments, the process then ending with no last collection of its
    garbage (:func:`no_last_collection`; a program that calls
    :func:`main` keeps its collector as it was); the exit code."""
    try:
        return main()
    finally:
        no_last_collection()


def no_last_collection():
    """Leave every object to the end of the process unvisited by the
    garbage collector (:func:`gc.freeze`): Python's finalization collects
    the whole heap (Orange's, numba's and the data's objects), for memory
    the process gives back as it ends anyway.  After ``orange-relief rank``
    with STIR on 5000 x 100, that collection took 1.5-1.7 s of processor
    time, 7-8 s of wall time beside busy programs (0.2 s and 1 s
    without it)."""
    gc.freeze()


def run(args):
    """Run the command of the parsed `args`; return the exit code."""
    try:
        code = args.run(args)
        sys.stdout.flush()  # fail here, not in Python's flush at exit
        return code
    except CliError as error:
        return fail(args, error, EXIT_USAGE)
    except BrokenPipeError:
        discard_output()
        return EXIT_FAILURE
    except OSError as error:  # writing stdout or the files of --out: the
        discard_output()      # commands turn their other OSErrors to CliErrors
        return fail(args, f"cannot write the output: {error.strerror}",
                    EXIT_FAILURE)


def fail(args, message, code):
    """Print the error `message` of the command of `args` on one line to
    stderr; return the exit `code`."""
    print(f"orange-relief {args.command}: error: {message}", file=sys.stderr)
    return code


def discard_output():
    """Send what stdout still holds, and all it gets, to the null device,
    so that Python's flush at exit does not fail again (the idiom of the
    "Note on SIGPIPE" of Python's signal module)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
