"""The documentation's examples run, its links resolve, its help builds."""
import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest
from orangecanvas.help.provider import HtmlIndexProvider

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN_PAGES = sorted(str(p.relative_to(ROOT)) for p in
                        [ROOT / "README.md", *(ROOT / "doc").rglob("*.md")]
                        if "_build" not in p.parts)
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
PLAIN_BLOCK = re.compile(r"^```\n(.*?)^```", re.MULTILINE | re.DOTALL)
LOCAL_LINK = re.compile(r"\]\((?!https?:)([^)#]+)(#[^)]*)?\)")
#: what the examples of a page print, in part
PRINTED = {"doc/classdep.md": ["best attribute", "plain kNN"]}


def python_blocks(page):
    return PYTHON_BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))


PAGES_WITH_CODE = [page for page in MARKDOWN_PAGES if python_blocks(page)]


def load_doc_builder():
    spec = importlib.util.spec_from_file_location(
        "build_html", ROOT / "doc" / "build_html.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pages_with_examples():
    assert {"README.md", "doc/scripting.md", "doc/double-relief.md",
            "doc/generators.md", "doc/classdep.md",
            "doc/rfsm.md"} <= set(PAGES_WITH_CODE)


@pytest.mark.parametrize("page", PAGES_WITH_CODE)
def test_python_examples_run(page):
    namespace = {"__name__": "__doc_example__"}
    with contextlib.redirect_stdout(io.StringIO()) as output:
        for block in python_blocks(page):  # later blocks may use earlier names
            exec(compile(block, page, "exec"), namespace)  # noqa: S102
    assert output.getvalue()
    for text in PRINTED.get(page, []):
        assert text in output.getvalue()


def test_experiment_page_shows_both_figures():
    text = (ROOT / "doc" / "separability.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert {"images/separability.png",
            "images/accumulated_separability.png"} <= set(images)
    for image in images:
        assert (ROOT / "doc" / image).read_bytes()[:4] == b"\x89PNG"


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


#: the name the canvas' help index gives a widget -> its page's name
WIDGET_PAGES = {"relief": "relief", "relief data generator": "generator",
                "separability": "separability", "rfsm selection": "rfsm",
                "class-dependent knn": "classdep-knn",
                "relief, step by step": "step-by-step"}


def test_help_pages_build_and_link_the_widgets(tmp_path):
    builder = load_doc_builder()
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
        assert f'src="images/{name}.png"' in page
        assert (tmp_path / "widgets" / "images" / f"{name}.png").exists()


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
