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


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def fed(bar, clock, steps, seconds_each=1.0):
    """Report 0, 1/steps, ..., 1 to `bar`, `seconds_each` apart."""
    for step in range(steps + 1):
        clock.now += seconds_each
        bar(step / steps)


@pytest.mark.parametrize("terminal", [False, True])
def test_progress_bar_takes_the_fraction_done(terminal):
    stream, clock = (Terminal() if terminal else io.StringIO()), Clock()
    bar = ProgressBar("work", stream=stream, clock=clock, enabled=True)
    fed(bar, clock, 200)
    bar(1.0)  # a repeated end shows nothing more
    text = stream.getvalue()
    if terminal:  # one line, redrawn
        assert text.count("\r") == 201 and text.count("\n") == 1
    else:  # a log: the first line, the milestones and the end
        lines = text.splitlines()
        assert [line.split("]")[1].split("%")[0].strip() for line in lines] \
            == ["0.0", "25.0", "50.0", "75.0", "100.0"]
    assert text.rstrip().endswith("0.0 s left")
    assert "100.0%" in text and "#" * bar.width in text


def test_progress_bar_says_no_time_left_before_it_can_tell():
    # the first pieces of a run (an experiment's first tasks) are slower
    # or quicker than the rest: extrapolated from them the time left is
    # wild, so a bar says it only once a twentieth is done
    stream, clock = io.StringIO(), Clock()
    bar = ProgressBar("work", stream=stream, clock=clock, enabled=True)
    clock.now = 90.0
    bar(0.005)
    clock.now = 120.0
    bar(0.3)
    first, second = stream.getvalue().splitlines()
    assert first.endswith("90.0 s elapsed, time left not known yet")
    assert second.endswith("280.0 s left")


@pytest.mark.parametrize("terminal", [False, True])
def test_progress_bar_is_quiet_for_quick_work_or_when_switched_off(
        terminal, monkeypatch):
    clock = Clock()
    quick = ProgressBar("work", stream=Terminal() if terminal
                        else io.StringIO(), clock=clock, quiet_seconds=60,
                        enabled=True)
    fed(quick, clock, 10)
    assert quick.stream.getvalue() == ""
    monkeypatch.setenv("ORANGE_RELIEF_PROGRESS", "off")
    off = ProgressBar("work", stream=Terminal() if terminal
                      else io.StringIO(), clock=clock, heading="heading")
    fed(off, clock, 10, seconds_each=10)
    assert off.stream.getvalue() == "heading\n"


