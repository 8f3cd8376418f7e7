"""The command line: ``orange-relief <command> ...``.

Every argument parser of the add-on lives in this package: :mod:`.rank`
(``orange-relief rank``) and :mod:`.experiment` (``orange-relief
experiment <name>``); :mod:`.common` holds what they share.  Each command
adds one sub-parser and sets its ``run(args) -> exit code``; a command
signals a user error (bad file, unsuitable data) by raising
:class:`~.common.CliError`, which :func:`main` prints on one line to stderr
before exiting with status 2.
"""
import argparse
import sys

from .common import CliError
from .experiment import add_experiment_command
from .rank import add_rank_command

EXIT_USAGE = 2

#: functions that register a sub-command
COMMANDS = (add_rank_command, add_experiment_command)


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
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND",
                                       required=True,
                                       parser_class=OneLineParser)
    for add_command in COMMANDS:
        add_command(subparsers)
    return parser


def main(argv=None):
    """Run the command line `argv` (default: sys.argv[1:]); return the exit
    code."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CliError as error:
        print(f"orange-relief {args.command}: error: {error}",
              file=sys.stderr)
        return EXIT_USAGE
