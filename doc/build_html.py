"""Render the Markdown pages in doc/ to HTML for the Orange canvas help viewer.

Usage: ``python doc/build_html.py`` (setup.py runs it on every build).  The
pages go to ``doc/_build/html`` with the same layout as ``doc/``; links to
``.md`` pages are rewritten to ``.html`` and images are copied.  The canvas
finds a widget's page through the links of ``index.html`` whose text is the
widget's name (see ``WIDGET_HELP_PATH`` in orangecontrib/relief/widgets).

Only the standard library and ``commonmark`` (a dependency of Orange's
canvas) are used, so setup.py can import this file before anything is
installed.
"""
import html
import re
import shutil
from pathlib import Path

import commonmark

DOC_DIR = Path(__file__).resolve().parent
BUILD_DIR = DOC_DIR / "_build" / "html"
IMAGE_SUFFIXES = (".png", ".svg")
_MD_LINK = re.compile(r'href="([^":#]+)\.md(#[^"]*)?"')

PAGE = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8" />
<title>{title}</title>
</head>
<body>
{body}
</body>
</html>
"""


def source_files(doc_dir=DOC_DIR):
    """Return the Markdown pages and images of `doc_dir` (not the build)."""
    build_root = doc_dir / "_build"
    return [path for path in sorted(doc_dir.rglob("*"))
            if path.is_file() and build_root not in path.parents
            and path.suffix in (".md",) + IMAGE_SUFFIXES]


def render_page(markdown_text):
    """Return a complete XHTML page for one Markdown document."""
    body = commonmark.commonmark(markdown_text)
    body = _MD_LINK.sub(lambda m: f'href="{m[1]}.html{m[2] or ""}"', body)
    title_match = re.search(r"^#\s+(.+)$", markdown_text, re.MULTILINE)
    title = title_match[1].strip() if title_match else "Orange3-Relief"
    return PAGE.format(title=html.escape(title), body=body)


def build(doc_dir=DOC_DIR, build_dir=BUILD_DIR):
    """Render the pages of `doc_dir` into `build_dir`; return the new files."""
    made = []
    for source in source_files(doc_dir):
        target = build_dir / source.relative_to(doc_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".md":
            target = target.with_suffix(".html")
            target.write_text(render_page(source.read_text(encoding="utf-8")),
                              encoding="utf-8")
        else:
            shutil.copyfile(source, target)
        made.append(target)
    return made


if __name__ == "__main__":
    for path in build():
        print(path)
