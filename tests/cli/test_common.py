"""What the commands share (orangecontrib.relief.cli.common): argument
types, loading a data set and the progress bar."""
import argparse
import io

import pytest

from orangecontrib.relief.cli.common import (CliError, ProgressBar,
                                             input_error, load_table,
                                             non_negative_int, option_names,
                                             positive_int)


def test_positive_int():
    assert positive_int("3") == 3
    for text in ("0", "-2", "x", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            positive_int(text)


def test_non_negative_int():
    assert non_negative_int("0") == 0
    for text in ("-1", "x", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            non_negative_int(text)


def test_errors_name_the_options_as_typed():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", dest="random_state")
    parser.add_argument("--t-eq", dest="t_eq")
    parser.add_argument("--negative")
    parser.add_argument("--top")
    options = option_names(parser, {"random_state", "t_eq", "negative"})
    assert options == {"random_state": "--seed", "t_eq": "--t-eq",
                       "negative": "--negative"}
    error = input_error(ValueError(
        "random_state must be a non-negative integer, got -1; "
        "t_eq=0.5 and negative or t_eq_max or top"), options)
    assert isinstance(error, CliError)
    # whole names only: not "non-negative", "t_eq_max" or another option
    assert str(error) == ("--seed must be a non-negative integer, got -1; "
                          "--t-eq=0.5 and --negative or t_eq_max or top")


def test_load_table_by_name_or_path(tmp_path):
    zoo = load_table("zoo")
    assert len(zoo) == 101
    with pytest.raises(CliError, match="no such file"):
        load_table(str(tmp_path / "missing.tab"))


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_takes_the_fraction_done():
    stream = io.StringIO()
    bar = ProgressBar("work", stream=stream, quiet_seconds=0)
    for step in range(21):
        bar(step / 20)
    lines = stream.getvalue().splitlines()
    # not a terminal: a line per tenth
    assert len(lines) == 11
    assert lines[0].startswith("work [") and "  0.0%" in lines[0]
    assert "100.0%" in lines[-1] and "#" * bar.width in lines[-1]
    terminal = Terminal()
    bar = ProgressBar("work", stream=terminal, quiet_seconds=0)
    bar(0.5)
    bar(1.0)
    text = terminal.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n")
    assert " 50.0%" in text


def test_progress_bar_is_quiet_for_quick_work():
    stream = Terminal()
    bar = ProgressBar("work", stream=stream, quiet_seconds=60)
    for step in range(11):
        bar(step / 10)
    assert stream.getvalue() == ""
