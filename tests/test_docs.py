"""The documentation's examples run, its links resolve, its help builds."""
import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest
from orangecanvas.help.provider import HtmlIndexProvider

ROOT = Path(__file__).resolve().parent.parent
PAGES_WITH_CODE = ["README.md", "doc/scripting.md"]
MARKDOWN_PAGES = sorted(str(p.relative_to(ROOT)) for p in
                        [ROOT / "README.md", *(ROOT / "doc").rglob("*.md")]
                        if "_build" not in p.parts)
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
PLAIN_BLOCK = re.compile(r"^```\n(.*?)^```", re.MULTILINE | re.DOTALL)
LOCAL_LINK = re.compile(r"\]\((?!https?:)([^)#]+)(#[^)]*)?\)")


def python_blocks(page):
    return PYTHON_BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))


def load_doc_builder():
    spec = importlib.util.spec_from_file_location(
        "build_html", ROOT / "doc" / "build_html.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("page", PAGES_WITH_CODE)
def test_python_examples_run(page):
    blocks = python_blocks(page)
    assert blocks, f"{page} has no python examples"
    namespace = {"__name__": "__doc_example__"}
    with contextlib.redirect_stdout(io.StringIO()) as output:
        for block in blocks:  # later blocks may use names of earlier ones
            exec(compile(block, page, "exec"), namespace)  # noqa: S102
    assert output.getvalue()


@pytest.mark.parametrize("page", MARKDOWN_PAGES)
def test_local_links_exist(page):
    source = ROOT / page
    for target, _ in LOCAL_LINK.findall(source.read_text(encoding="utf-8")):
        assert (source.parent / target).exists(), f"{page}: {target}"


def test_readme_test_command_is_the_ci_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [block.strip() for block in PLAIN_BLOCK.findall(readme)]
    test_command = next(c for c in commands if "pytest" in c)
    install_command = next(c for c in commands if "pip install" in c)
    assert install_command == 'pip install ".[test]" && orange-relief rank'
    ci_script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci_script


def test_help_pages_build_and_link_the_widget(tmp_path):
    builder = load_doc_builder()
    made = builder.build(build_dir=tmp_path)
    index = tmp_path / "index.html"
    assert index in made
    assert (tmp_path / "widgets" / "images" / "relief.png").exists()
    # parse the index as the Orange canvas does to find a widget's page
    from orangecontrib.relief.widgets import WIDGET_HELP_PATH
    xpath = WIDGET_HELP_PATH[0][1]
    parser = HtmlIndexProvider.__new__(HtmlIndexProvider)
    parser.xpathquery = xpath
    items = parser._parse(index.read_text(encoding="utf-8"))
    assert items["relief"] == "widgets/relief.html"
    page = (tmp_path / "widgets" / "relief.html").read_text(encoding="utf-8")
    assert 'src="images/relief.png"' in page
