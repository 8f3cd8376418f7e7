"""The code blocks of the documentation, and how the tests run them.

README.md's section "Writing the documentation" states the conventions:

* every fenced block names its language: ``python`` (an example, run as a
  script), ``sh`` (commands, run) or ``text`` (not run: usage synopses,
  output, file trees);
* ``<!-- skip-test: REASON -->`` on the line before a ``python`` or ``sh``
  block keeps it from running and says why;
* ``<!-- output-of: COMMAND -->`` on the line before a ``text`` block says
  that the block shows what COMMAND prints: its lines, in order; a line
  ``...`` stands for lines left out, and a line ending in ``...`` for a
  line that begins with what precedes it.

Each example runs in a process of its own in an empty directory of its
own, as a reader who pastes it into a file (``python example.py``) or a
shell would run it: ``python`` and ``orange-relief`` are the interpreter
running the tests and the add-on installed in it, each program forked
from an interpreter that imported the add-on once
(tests/warm_interpreter.py).
"""
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).resolve().parent.parent
WARM_INTERPRETER = str(Path(__file__).with_name("warm_interpreter.py"))
#: the languages a fenced block may name: run as a script, run in a
#: shell, not run
PYTHON, SHELL, TEXT = "python", "sh", "text"
LANGUAGES = (PYTHON, SHELL, TEXT)
FENCE = re.compile(r"^```(.*)$")
SKIP = re.compile(r"^<!-- skip-test: (.+?) -->$")
OUTPUT_OF = re.compile(r"^<!-- output-of: (.+?) -->$")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its page (relative to the repository), the line
    of its opening fence, its language (the fence's word, "" if none),
    its code, the reason it is not run (None: it runs) and the command
    whose output it shows (None: none)."""
    page: str
    line: int
    language: str
    code: str
    skip: str | None = None
    output_of: str | None = None

    @property
    def name(self):
        return f"{self.page}:{self.line}"

    @property
    def runs(self):
        return self.language in (PYTHON, SHELL) and self.skip is None


def pages():
    """README.md and every page under doc/ (not the built help)."""
    found = [ROOT / "README.md",
             *(page for page in (ROOT / "doc").rglob("*.md")
               if "_build" not in page.parts)]
    return sorted(str(page.relative_to(ROOT)) for page in found)


def blocks(page):
    """The fenced blocks of `page`, in order."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    found, number = [], 0
    while number < len(lines):
        opening = FENCE.match(lines[number])
        if not opening:
            number += 1
            continue
        end = number + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        before = lines[number - 1] if number else ""
        skip, output_of = SKIP.match(before), OUTPUT_OF.match(before)
        found.append(Block(page, number + 1, opening.group(1).strip(),
                           "\n".join(lines[number + 1:end]) + "\n",
                           skip and skip.group(1),
                           output_of and output_of.group(1)))
        number = end + 1
    return found


def all_blocks():
    return [block for page in pages() for block in blocks(page)]


@contextmanager
def commands(folder):
    """The environment of the examples while the context lasts: `python`
    and `orange-relief` of the interpreter that runs the tests first on
    PATH (in `folder`), plots to files, Qt without a screen.  The two
    commands hand their programs to a warm interpreter
    (tests/warm_interpreter.py), which imported the add-on once and forks
    each program a process of its own."""
    folder = Path(folder)
    socket_path = folder / "warm.socket"
    for name in ("python", "orange-relief"):
        shim = folder / name
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -I -S '
                        f'"{WARM_INTERPRETER}" "{socket_path}" {name} "$@"\n')
        shim.chmod(0o755)
    environment = dict(os.environ, MPLBACKEND="Agg",
                       QT_QPA_PLATFORM="offscreen",
                       PATH=f"{folder}{os.pathsep}{os.environ['PATH']}")
    server = subprocess.Popen(
        [sys.executable, WARM_INTERPRETER, "serve", str(socket_path)],
        cwd=folder, env=environment, stdin=subprocess.DEVNULL,
        start_new_session=True)
    try:
        waited = 0.0  # until it serves (or ended: each command then starts
        while not socket_path.exists() and server.poll() is None:  # Python)
            time.sleep(0.1)
            waited += 0.1
            assert waited < HANG_GUARD_S, "the warm interpreter hangs"
        yield environment
    finally:  # the interpreter and any program a timeout left behind
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def run(code, language, directory, environment):
    """Run `code` (python or sh) as a file in `directory` with the
    `environment` of :func:`commands`; the completed process, its output
    captured as text."""
    directory = Path(directory)
    if language == PYTHON:
        (directory / "example.py").write_text(code, encoding="utf-8")
        command = ["python", "example.py"]
    else:
        (directory / "example.sh").write_text(code, encoding="utf-8")
        command = ["bash", "-e", "-o", "pipefail", "example.sh"]
    return subprocess.run(command, cwd=directory, env=environment,
                          capture_output=True, text=True, timeout=HANG_GUARD_S,
                          check=False)


def shown_lines_missing(shown, printed):
    """The first line of `shown` (a block of output, see the module's
    docstring for ``...``) that `printed` lacks in that order, or None if
    all are there.  Trailing spaces do not count."""
    printed_lines = [line.rstrip() for line in printed.splitlines()]
    position = 0
    for line in (line.rstrip() for line in shown.splitlines()):
        if line == "...":
            continue
        begins = line[:-len("...")] if line.endswith("...") else None
        found = next((number for number in
                      range(position, len(printed_lines))
                      if printed_lines[number] == line
                      or begins and printed_lines[number].startswith(begins)),
                     None)
        if found is None:
            return line
        position = found + 1
    return None
