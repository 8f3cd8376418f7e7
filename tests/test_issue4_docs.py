"""Docs of issue 4: the examples of the new pages run, the experiment page
shows its figures, and the canvas help finds the new widgets' pages."""
import contextlib
import io
import re
from pathlib import Path

import pytest
from orangecanvas.help.provider import HtmlIndexProvider

from test_docs import load_doc_builder, python_blocks

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("page", ["doc/double-relief.md", "doc/generators.md"])
def test_examples_run(page):
    blocks = python_blocks(page)
    assert blocks
    namespace = {"__name__": "__doc_example__"}
    with contextlib.redirect_stdout(io.StringIO()) as output:
        for block in blocks:
            exec(compile(block, page, "exec"), namespace)  # noqa: S102
    assert output.getvalue()


def test_experiment_page_shows_both_figures():
    text = (ROOT / "doc" / "separability.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert {"images/separability.png",
            "images/accumulated_separability.png"} <= set(images)
    for image in images:
        assert (ROOT / "doc" / image).read_bytes()[:4] == b"\x89PNG"


def test_help_index_links_the_new_widgets(tmp_path):
    builder = load_doc_builder()
    builder.build(build_dir=tmp_path)
    from orangecontrib.relief.widgets import WIDGET_HELP_PATH
    parser = HtmlIndexProvider.__new__(HtmlIndexProvider)
    parser.xpathquery = WIDGET_HELP_PATH[0][1]
    items = parser._parse((tmp_path / "index.html").read_text("utf-8"))
    assert items["relief data generator"] == "widgets/generator.html"
    assert items["separability"] == "widgets/separability.html"
    for name in ("generator", "separability"):
        page = (tmp_path / "widgets" / f"{name}.html").read_text("utf-8")
        assert f'src="images/{name}.png"' in page
        assert (tmp_path / "widgets" / "images" / f"{name}.png").exists()
