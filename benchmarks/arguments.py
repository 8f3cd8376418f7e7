"""The command line of every benchmark: a parser whose errors are one line
(exit status 2), and the argument types, each refusing a bad value with
the value and what is expected.

A size is ``NxA``: N instances (at least 2) by A attributes (at least 1),
the ``x`` in either case, spaces around N and A allowed; ``--sizes`` takes
a comma-separated list of them.  The scripts import this module from the
directory they are in."""
import argparse
import math

MIN_INSTANCES = 2
MIN_ATTRIBUTES = 1


def add_prepare_option(parser):
    """``--no-prepare``: the benchmark does not prepare the compiled engine
    before it measures (see :func:`prepare_unless`)."""
    parser.add_argument("--no-prepare", action="store_true",
                        help="do not prepare the compiled engine first "
                             "(the runs take whichever engine is ready)")


def prepare_unless(args):
    """Prepare the compiled engine, as ``orange-relief prepare`` does after
    an installation, unless ``--no-prepare`` was given."""
    if not args.no_prepare:
        from orangecontrib.relief.core import warmup
        warmup.prepare()


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} "
                     f"(see {self.prog} --help)\n")


def checked(convert, valid, expected):
    """argparse type: ``convert(text)`` if it converts and ``valid`` holds
    for it; else an error naming the text and saying what is `expected`."""
    def parse(text):
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not valid(value):
            raise argparse.ArgumentTypeError(f"{text}: expected {expected}")
        return value
    return parse


def comma_separated(item):
    """argparse type: a comma-separated list of `item`s."""
    def parse(text):
        return [item(part) for part in text.split(",")]
    return parse


def _n_by_a(text):
    n, a = (int(part) for part in text.lower().split("x"))
    return n, a


#: argparse types: counts, a seed, a positive number, a fraction
positive_int = checked(int, lambda v: v >= 1, "a whole number >= 1")
non_negative_int = checked(int, lambda v: v >= 0, "a whole number >= 0")
positive_ints = comma_separated(positive_int)
positive_number = checked(float, lambda v: 0 < v < math.inf,
                          "a number > 0")
non_negative_number = checked(float, lambda v: 0 <= v < math.inf,
                              "a number >= 0")
fraction = checked(float, lambda v: 0 <= v < 1, "a number >= 0 and < 1")

#: argparse types: a size ``NxA`` as (N, A), a list of them
size = checked(_n_by_a,
               lambda s: s[0] >= MIN_INSTANCES and s[1] >= MIN_ATTRIBUTES,
               f"NxA, N >= {MIN_INSTANCES} instances by A >= "
               f"{MIN_ATTRIBUTES} attributes, such as 2000x100")
sizes = comma_separated(size)


def add_phase_options(parser, default_sizes):
    """The options of a script that times the steps of a kernel's loop:
    ``--sizes`` (`default_sizes` unless given), ``--repeats`` (each stop
    the least of them), ``--seed`` and ``--no-prepare``."""
    parser.add_argument("--sizes", type=sizes, default=default_sizes,
                        help="comma-separated NxA list")
    parser.add_argument("--repeats", type=positive_int, default=3)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    add_prepare_option(parser)
