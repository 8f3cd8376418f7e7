"""What is written by hand beside the registry (core/registry.py) agrees
with it: the ``__all__`` lists of the layers that export a variant, the
README's list of methods and doc/contributing.md's commands, which start
as written and select the tests of the files they name."""
import re
import shlex
import subprocess
import sys
from collections import defaultdict

import orangecontrib.relief as package
from orangecontrib.relief import scorers
from orangecontrib.relief import sklearn as selectors
from orangecontrib.relief.core import registry
from tests.markdown_blocks import ROOT, SHELL, blocks
from tests.variants import MATRICES, VARIANTS, each_variant


@each_variant
def test_every_variant_is_exported_by_each_layer(variant):
    assert variant.scorer in package.__all__
    assert variant.scorer in scorers.__all__
    assert variant.selector is None or variant.selector in selectors.__all__
    module = sys.modules[variant.estimator.__module__]
    assert variant.estimator.__name__ in getattr(
        module, "__all__", [variant.estimator.__name__])


def test_the_registry_exports_every_entry():
    entries = {name for name, value in vars(registry).items()
               if isinstance(value, registry.Variant)}
    assert entries <= set(registry.__all__)
    for names, module in ((registry.__all__, registry),
                          (scorers.__all__, scorers),
                          (selectors.__all__, selectors),
                          (package.__all__, package)):
        assert len(set(names)) == len(names), module.__name__
        assert all(hasattr(module, name) for name in names), module.__name__


def test_the_readme_lists_the_offered_methods():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"`METHOD` is one of (.+?) \(", readme, re.S)
    names = re.split(r",\s+|\s+and\s+", " ".join(listed.group(1).split()))
    assert [name.replace("\\*", "*") for name in names] == [
        variant.name for variant in registry.offered()]


def test_the_readme_names_every_variant_or_its_family():
    """"What it brings" names each variant in bold, or its family (the
    SURF family, the SWRF family)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What it brings")[1].split("\n## ")[0]
    bold = set(re.findall(r"\*\*(.+?)\*\*", section))
    for variant in VARIANTS:
        family = re.sub(r"^Multi|DB|\*", "", variant.name)
        assert variant.name in bold or family in bold, variant.name


#: the commands of doc/contributing.md, each a list of arguments
COMMANDS = [shlex.split(line) for block in blocks("doc/contributing.md")
            if block.language == SHELL for line in block.code.splitlines()]
#: the variant the page's example adds, and a registered one for its tests
EXAMPLE, STAND_IN = "ReliefF-E", registry.RELIEFF.name


def pytest_run(arguments, *extra):
    """A command of the page, `python -m pytest ...`, run from the
    repository's root with `extra` arguments."""
    assert arguments[:3] == ["python", "-m", "pytest"], arguments
    return subprocess.run(
        [sys.executable, *arguments[1:], "-p", "no:cacheprovider", *extra],
        cwd=ROOT, capture_output=True, text=True)


def test_the_registry_checks_run_as_written():
    """Each command starts and selects tests of every file it names (the
    suite runs those tests themselves: running them again here would
    only repeat them)."""
    registry = [command for command in COMMANDS if "-k" not in command]
    assert registry
    for command in registry:
        done = pytest_run(command, "--collect-only", "-q")
        assert done.returncode == 0, done.stdout[-3000:]
        selected = {line.split("::")[0] for line in done.stdout.splitlines()
                    if "::" in line}
        assert selected == {word for word in command[3:]
                            if word.startswith("tests/")}, done.stdout[-3000:]


def test_the_variant_command_selects_every_matrix():
    """The command that runs the matrices for the new variant selects, for
    a registered variant in its place, tests of every file it names and
    every matrix of tests/variants.py."""
    command, = [command for command in COMMANDS if "-k" in command]
    assert command[command.index("-k") + 1] == EXAMPLE
    files = [word for word in command[3:] if word.startswith("tests/")]
    matrices = {module.replace(".", "/") + ".py" for module, _ in MATRICES}
    assert all(any(matrix.startswith(name) for name in files)
               for matrix in matrices), sorted(matrices)
    done = pytest_run([STAND_IN if word == EXAMPLE else word
                       for word in command], "--collect-only", "-q")
    assert done.returncode == 0, done.stdout[-3000:]
    selected = defaultdict(set)
    for line in done.stdout.splitlines():
        if "::" in line:
            path, test = line.split("::")[:2]
            selected[path].add(test.split("[")[0])
    for name in files:
        assert any(path.startswith(name) for path in selected), name
    for module, test in MATRICES:
        assert test in selected[module.replace(".", "/") + ".py"], test

