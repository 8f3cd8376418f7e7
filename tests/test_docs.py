"""The documentation's examples run as written, its figures are generated,
its links resolve, its help builds.

Every ``python`` and ``sh`` block of README.md and doc/ runs on its own in
a process and an empty directory of its own (tests/markdown_blocks.py);
README's section "Writing the documentation" gives the conventions."""
import importlib.util
import re
import sys
from pathlib import Path

import pytest
from orangecanvas.help.provider import HtmlIndexProvider

from tests.markdown_blocks import (LANGUAGES, PYTHON, SHELL, TEXT, all_blocks,
                                   commands, pages, run, shown_lines_missing)

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN_PAGES = pages()
BLOCKS = all_blocks()
EXAMPLES = [block for block in BLOCKS if block.language in (PYTHON, SHELL)]
SHOWN_OUTPUTS = [block for block in BLOCKS if block.output_of]
#: {an example's name: the output block right after it that shows what it
#: prints}: its run checks the shown lines, and the output block is not
#: run again
SHOWN_BY_EXAMPLE = {example.name: shown for example, shown in
                    zip(BLOCKS, BLOCKS[1:]) if example.runs
                    and example.language == SHELL and example.page == shown.page
                    and example.code.strip() == shown.output_of}
LOCAL_LINK = re.compile(r"\]\((?!https?:)([^)#]+)(#[^)]*)?\)")
#: at most this many examples may be kept from running (each says why)
MOST_SKIPPED = 6
_NUMBER = r"\b\d+(?:[.,]\d+)*(?:\s*-\s*\d+(?:[.,]\d+)*)?\s*"
#: a time, a memory size or a speed-up stated in prose: only the tables
#: that benchmarks/publish.py writes may state them
SPEED_CLAIM = re.compile(
    _NUMBER + r"(?:ms|s|sec|seconds?|min|minutes?|h|hours?|GiB|GB|MiB|MB)"
    r"\b(?!\()"
    r"|" + _NUMBER + r"(?:x|times)\s+(?:faster|slower|the time)\b"
    r"|" + _NUMBER + r"%\s+(?:faster|slower|longer|shorter)\b"
    r"|\b(?:about|in|takes?|took)\s+(?:a|an|one|two|three|four|five|ten|"
    r"twenty)\s+(?:seconds?|minutes?|hours?)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def environment(tmp_path_factory):
    """The examples' environment (tests/markdown_blocks.py: commands)."""
    with commands(tmp_path_factory.mktemp("commands")) as environment:
        yield environment


def load_script(path, name):
    """A module from a script of the repository that is not in a package;
    its own directory first on the path, as when it runs."""
    directory = str((ROOT / path).parent)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_block_says_what_it_is():
    for block in BLOCKS:
        assert block.language in LANGUAGES, (
            f"{block.name}: a fenced block names its language, one of "
            f"{', '.join(LANGUAGES)}; got {block.language!r}")
        assert not block.skip or block.language != TEXT, (
            f"{block.name}: skip-test marks a python or sh block")
        assert not block.output_of or block.language == TEXT, (
            f"{block.name}: output-of marks a text block")


def test_the_pages_with_examples_and_few_skipped():
    pages_with_python = {block.page for block in EXAMPLES
                         if block.language == PYTHON}
    assert {"README.md", "doc/scripting.md", "doc/double-relief.md",
            "doc/generators.md", "doc/classdep.md", "doc/rfsm.md",
            "doc/large-data.md", "doc/significance.md", "doc/surf.md",
            "doc/sklearn.md", "doc/selection.md",
            "doc/wide-data.md"} <= pages_with_python
    skipped = [block for block in EXAMPLES if block.skip]
    assert len(skipped) <= MOST_SKIPPED, [block.name for block in skipped]


@pytest.mark.parametrize("block", EXAMPLES, ids=lambda block: block.name)
def test_example_runs(block, tmp_path, environment):
    if block.skip:
        pytest.skip(f"{block.name}: {block.skip}")
    done = run(block.code, block.language, tmp_path, environment)
    assert done.returncode == 0, (
        f"{block.name} ended with status {done.returncode}:\n"
        f"{block.code}\n--- stdout:\n{done.stdout}\n--- stderr:\n"
        f"{done.stderr}")
    if block.language == PYTHON:  # every example shows what it computed
        assert done.stdout.strip(), f"{block.name} printed nothing"
    if block.name in SHOWN_BY_EXAMPLE:
        assert_shows(SHOWN_BY_EXAMPLE[block.name], done)


@pytest.mark.parametrize("block", [
    block for block in SHOWN_OUTPUTS
    if block not in SHOWN_BY_EXAMPLE.values()], ids=lambda block: block.name)
def test_shown_output_is_printed(block, tmp_path, environment):
    done = run(block.output_of, SHELL, tmp_path, environment)
    assert done.returncode == 0, done.stderr
    assert_shows(block, done)


def assert_shows(block, done):
    """The output `block` shows lines that `done` printed, in order."""
    missing = shown_lines_missing(block.code, done.stdout)
    assert missing is None, (
        f"{block.name} shows a line that `{block.output_of}` does not "
        f"print (in that order): {missing!r}\n--- it printed:\n"
        f"{done.stdout}")


def test_a_broken_example_fails(tmp_path, environment):
    """An example that uses what an earlier one defined (a name, or
    anything set on a module it imported) fails as it would alone."""
    earlier = run("import numpy as np\nweights = np.ones(3)\n"
                  "np.weights = weights\nprint(weights)\n", PYTHON,
                  tmp_path, environment)
    assert earlier.returncode == 0, earlier.stderr
    done = run("import numpy as np\n"
               "print(np.argsort(getattr(np, 'weights', weights)))\n",
               PYTHON, tmp_path, environment)
    assert done.returncode != 0 and "NameError" in done.stderr
    done = run("orange-relief rank no-such-data\n", SHELL, tmp_path,
               environment)
    assert done.returncode != 0


def test_shown_lines_missing():
    printed = "a\nb  \nc\nd\n"
    assert shown_lines_missing("a\n...\nd\n", printed) is None
    assert shown_lines_missing("b\nc\n", printed) is None
    assert shown_lines_missing("c\nb\n", printed) == "b"
    assert shown_lines_missing("a\ne\n", printed) == "e"
    assert shown_lines_missing("a\nc...\n", "a\nc 0.04 s\n") is None
    assert shown_lines_missing("c...\na...\n", "a\nc 0.04 s\n") == "a..."


def prose(text):
    """`text` without its code: figures, fenced and indented blocks and
    code spans."""
    for pattern in (r"^<!-- figures: .*?^<!-- /figures -->$",
                    r"^```.*?^```$", r"^    .*$", r"`[^`\n]*`"):
        text = re.sub(pattern, "", text, flags=re.DOTALL | re.MULTILINE)
    return text


def test_speed_claims_only_in_figures():
    assert SPEED_CLAIM.search("3.36M x 631 in 45 s")
    assert SPEED_CLAIM.search("runs 94-191x faster than Orange")
    assert SPEED_CLAIM.search("compiles it, about a minute, once")
    assert not SPEED_CLAIM.search("2000 x 100, k = 10, 2 min(x, v)")
    for page in MARKDOWN_PAGES:
        text = prose((ROOT / page).read_text(encoding="utf-8"))
        claims = [match.group(0) for match in SPEED_CLAIM.finditer(text)]
        assert not claims, (
            f"{page} states {claims}: a time or speed-up belongs in a table "
            "of benchmarks/publish.py (README: Writing the documentation)")


def test_figures_are_what_the_benchmarks_printed():
    publish = load_script("benchmarks/publish.py", "publish")
    placed = {}
    for page in MARKDOWN_PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        lines = text.splitlines()
        figures = publish.marked(text)
        assert len(figures) == sum(line == publish.END for line in lines) \
            == sum(bool(publish.START.match(line)) for line in lines), page
        for name, first, end in figures:
            assert publish.FIGURES[name].page == page, (page, name)
            assert name not in placed, f"{name} on {placed[name]} and {page}"
            placed[name] = page
            record = publish.saved(name)
            assert record is not None, f"{name}: never measured"
            assert publish.FIGURES[name].measurable(record.get("simd", "")), (
                f"{name}: measured on {record.get('simd')}")
            shown = lines[first:end]
            assert shown == publish.render(record), (
                f"{page}: figure {name} is not what `python "
                f"benchmarks/publish.py --saved {name}` writes")
            heading, _, header, rule, *rows = shown
            assert record["cpu"] in heading and record["commit"] in heading
            assert all(f"`{command}`" in heading
                       for command in record["commands"])
            widths = {len(publish.cells(row)) for row in
                      [header, rule, *rows] if row.startswith("|")}
            assert len(widths) == 1 and rows, f"{page}: figure {name}"
    assert set(placed) == set(publish.FIGURES)


def test_experiment_page_shows_both_figures():
    text = (ROOT / "doc" / "separability.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert {"images/separability.png",
            "images/accumulated_separability.png"} <= set(images)
    for image in images:
        assert (ROOT / "doc" / image).read_bytes()[:4] == b"\x89PNG"


def test_readme_commands_are_the_ci_commands():
    shell = [block.code.strip() for block in BLOCKS
             if block.page == "README.md" and block.language == SHELL]
    installs = [c for c in shell if "pip install" in c]
    test_command = next(c for c in shell if "pytest" in c)
    # a plain install for the command line, the extra for the tests
    assert installs == ["pip install . && orange-relief rank",
                        'pip install ".[test]"']
    ci_script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert all(c in ci_script for c in [*installs, test_command])


#: the name the canvas' help index gives a widget -> its page's name
WIDGET_PAGES = {"relief": "relief", "relief data generator": "generator",
                "separability": "separability", "rfsm selection": "rfsm",
                "class-dependent knn": "classdep-knn",
                "relief, step by step": "step-by-step",
                "selection curve": "selection-curve",
                "consensus ranking": "consensus",
                "interactions": "interactions"}


def test_help_pages_build_and_link_the_widgets(tmp_path):
    builder = load_script("doc/build_html.py", "build_html")
    made = builder.build(build_dir=tmp_path)
    index = tmp_path / "index.html"
    assert index in made
    # parse the index as the Orange canvas does to find a widget's page
    from orangecontrib.relief.widgets import WIDGET_HELP_PATH
    parser = HtmlIndexProvider.__new__(HtmlIndexProvider)
    parser.xpathquery = WIDGET_HELP_PATH[0][1]
    items = parser._parse(index.read_text(encoding="utf-8"))
    for widget, name in WIDGET_PAGES.items():
        assert items[widget] == f"widgets/{name}.html"
        page = (tmp_path / "widgets" / f"{name}.html").read_text("utf-8")
        # a picture of the widget (the canvas's, or a headless one), and
        # every picture the page shows is built with it
        shown = re.findall(r'src="(images/[^"]+\.png)"', page)
        assert any(name in Path(src).stem for src in shown), name
        for src in shown:
            assert (tmp_path / "widgets" / src).exists(), src


def test_pages_state_the_weights_and_the_search_budget():
    import inspect

    from orangecontrib.relief.core.subsets import branch_and_bound

    scripting = (ROOT / "doc" / "scripting.md").read_text(encoding="utf-8")
    assert "table.W" in scripting and "ignore" in scripting
    rfsm = (ROOT / "doc" / "rfsm.md").read_text(encoding="utf-8")
    budget = inspect.signature(branch_and_bound).parameters[
        "max_evaluations"].default
    assert f"{budget:,}".replace(",", " ") in rfsm
    assert "complete=False" in rfsm


#: a module, or a name in one, that a page names by its dotted path
NAMED_MODULE = re.compile(r"\borangecontrib\.relief(?:\.\w+)+")
#: a source file of the core that a page names (not one of the tests')
NAMED_FILE = re.compile(r"(?<![\w/.])(?:orangecontrib/relief/)?(core/[\w/]+\.py)")


def resolves(path):
    """Whether the dotted `path` is a module or a name in one."""
    parts = path.split(".")
    for end in range(len(parts), 1, -1):
        try:
            found = importlib.import_module(".".join(parts[:end]))
        except ModuleNotFoundError:
            continue
        try:
            for name in parts[end:]:
                found = getattr(found, name)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("page", MARKDOWN_PAGES)
def test_what_a_page_names_exists(page):
    """Its local links, the modules (or names in them) it gives by their
    dotted path and the core's files it names."""
    source = ROOT / page
    text = source.read_text(encoding="utf-8")
    for target, _ in LOCAL_LINK.findall(text):
        assert (source.parent / target).exists(), f"{page}: {target}"
    package = ROOT / "orangecontrib" / "relief"
    defined = set(re.findall(r"^(?:class|def) (\w+)", text, re.MULTILINE))
    assert [path for path in NAMED_MODULE.findall(text) if not resolves(path)
            and path.rpartition(".")[2] not in defined] == []  # an example's
    assert [path for path in NAMED_FILE.findall(text)
            if not (package / path).is_file()] == []
