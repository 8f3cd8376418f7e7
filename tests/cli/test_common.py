"""What the commands share (orangecontrib.relief.cli.common): argument
types, loading a data set and the progress bar."""
import argparse
import io

import pytest

from orangecontrib.relief.cli.common import (CliError, ProgressBar,
                                             load_table, positive_int)


def test_positive_int():
    assert positive_int("3") == 3
    for text in ("0", "-2", "x", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            positive_int(text)


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
