"""The "Relief" widget category of Orange3-Relief."""
import sysconfig

# the File widget reads PLINK .bed and AnnData .h5ad files through the
# add-on's readers, registered with Orange when imported
from orangecontrib.relief import fileformats  # noqa: F401

NAME = "Relief"
DESCRIPTION = "Relief family feature weighting (Relief, ReliefF, RReliefF)."
ICON = "icons/category.svg"
BACKGROUND = "#F5C89A"
PRIORITY = 2150

# Help pages for the canvas: (index page, XPath of the widget links).
# setup.py renders doc/ with doc/build_html.py into doc/_build/html (found
# through DEVELOP_ROOT in an editable install) and installs a copy under
# <prefix>/help/orange3-relief; the first page that exists is used.
_WIDGET_LINKS = ".//li/a"
WIDGET_HELP_PATH = (
    ("{DEVELOP_ROOT}/doc/_build/html/index.html", _WIDGET_LINKS),
    (sysconfig.get_path("data") + "/help/orange3-relief/index.html",
     _WIDGET_LINKS),
)
