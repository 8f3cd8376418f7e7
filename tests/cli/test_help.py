"""What the command line says of itself is what it does: the README's
synopsis has every command and option of the parser (and nothing else),
a default a help text names is the parser's, ``--version`` answers, and
the help of ``prepare`` says what it prepares and how often."""
import argparse
import re
from pathlib import Path

import pytest

from orangecontrib.relief.cli import build_parser, main
from orangecontrib.relief.variants import METHODS

README = Path(__file__).resolve().parents[2] / "README.md"


def subparsers(parser):
    """{name: parser} of the sub-commands of `parser`."""
    action, = [a for a in parser._actions
               if isinstance(a, argparse._SubParsersAction)]
    return action.choices


def options(parser):
    """{option: choices or None} of `parser`, but --help."""
    return {action.option_strings[-1]: (None if action.choices is None
                                        else sorted(map(str, action.choices)))
            for action in parser._actions
            if action.option_strings and action.dest != "help"}


def synopsis():
    """{command: its text} of the README's synopsis block."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## Command line", 1)[1].split("```text\n", 1)[1]
    block = block.split("```", 1)[0]
    commands = {}
    for line in block.splitlines():
        if line.startswith("orange-relief"):
            name = line.split()[1]
            commands[name] = line
        else:
            commands[name] += line
    return commands


def synopsis_options(text):
    """{option: choices or None} of a command's synopsis."""
    found = {}
    for option, choices in re.findall(r"\[(--[\w-]+)(?: \{([^}]*)\})?", text):
        found[option] = sorted(choices.split(",")) if choices else None
    return found


def test_the_readme_synopsis_is_the_parser():
    parser = build_parser()
    commands = subparsers(parser)
    written = synopsis()
    assert set(written) == set(commands) | {"--version"}
    for name in ("rank", "curve"):
        expected = options(commands[name])
        # METHOD: listed in the text after the block, not in braces
        assert expected.pop("--method") == sorted(METHODS)
        written_options = synopsis_options(written[name])
        assert written_options.pop("--method") is None
        assert written_options == expected, name
    experiments = sorted(subparsers(commands["experiment"]))
    assert re.search(r"\{([^}]*)\}", written["experiment"])[1].split(",") \
        == list(subparsers(commands["experiment"])) and experiments
    assert options(commands["prepare"]) == {}
    assert "--version" in options(parser)
    text = " ".join(README.read_text(encoding="utf-8").split())
    listed = text.split("`METHOD` is one of", 1)[1].split("(", 1)[0]
    assert sorted(re.findall(r"[\w-]+\\?\*?", listed.replace(" and ", " "))
                  ) == sorted(m.replace("*", "\\*") for m in METHODS)


def declared_defaults():
    """(command, option, what its help says the default is, the parser's
    default) of every option whose help names a default and whose parser
    has one."""
    found = []
    parser = build_parser()
    for name, command in subparsers(parser).items():
        parsers = ([command] if name != "experiment"
                   else list(subparsers(command).values()))
        for sub in parsers:
            for action in sub._actions:
                said = re.search(r"default:? ([^),;]+)", action.help or "")
                if said and action.default not in (None, argparse.SUPPRESS):
                    found.append((sub.prog, (action.option_strings
                                             or [action.dest])[-1],
                                  said[1].strip(), action.default))
    return found


@pytest.mark.parametrize("prog, option, said, default", declared_defaults())
def test_a_default_the_help_names_is_the_parsers(prog, option, said,
                                                 default):
    if said.startswith("all"):  # every one: all given, or 0 for no limit
        assert default == 0 or isinstance(default, (list, tuple)), said
        return
    span = re.fullmatch(r"(\S+) \.\. (\S+)", said)
    if span:  # the first and the last of a list
        assert [str(default[0]), str(default[-1])] == list(span.groups())
        return
    if isinstance(default, (list, tuple)):
        default = " ".join(map(str, default))
    shown = str(default)
    assert said.startswith((shown, f"./{shown}")), (prog, option, said)


def test_rank_prints_every_attribute_unless_top_is_given(capsys):
    assert main(["rank", "zoo"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 16 + 2
    help_text = subparsers(build_parser())["rank"].format_help()
    assert "(default: all)" in " ".join(help_text.split())


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    line = capsys.readouterr().out
    assert re.match(r"orange-relief \S+ \(Orange \S+, numba \S+, numpy \S+, "
                    r"Python \S+\)\n$", line)


def test_prepare_says_what_it_prepares_and_how_often():
    commands = subparsers(build_parser())
    help_text = " ".join(commands["prepare"].format_help().split())
    assert "compile the compiled" not in help_text
    assert "once for each cache folder" in help_text
    assert "once per installation" not in help_text
