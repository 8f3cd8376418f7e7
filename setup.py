#!/usr/bin/env python
"""Packaging of the Orange3-Relief add-on."""
import importlib.util
import os

from setuptools import find_namespace_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))

NAME = "Orange3-Relief"
VERSION = "0.1.0"
DESCRIPTION = ("Relief, ReliefF and RReliefF feature weighting for "
               "Orange data mining, with a numba core")
KEYWORDS = (
    # PyPI packages with the keyword "orange3 add-on" are listed in
    # Orange's add-on manager
    "orange3 add-on",
    "feature selection",
    "relief",
)

PACKAGES = find_namespace_packages(
    include=["orangecontrib*"], exclude=["*.__pycache__"])

PACKAGE_DATA = {
    "orangecontrib.relief.datasets": ["*.tab", "*.tab.gz"],
    "orangecontrib.relief.widgets": ["icons/*.svg"],
    "orangecontrib.relief.tutorials": ["*.ows"],
}

INSTALL_REQUIRES = [
    "Orange3>=3.38",
    "orange-widget-base",
    "AnyQt",
    "numpy",
    "numba>=0.59",
    # the t distribution of STIR's test (core.analysis.significance)
    "scipy",
    "pyqtgraph",
    # figures of `orange-relief experiment separability` and `classdep`
    "matplotlib",
    # the ReBATE study's summary spreadsheet (`experiment rebate --summary`)
    "openpyxl",
]

EXTRAS_REQUIRE = {
    # pip's Orange3 brings no Qt binding; the widget tests need one; the
    # peers' own implementations check ours where the definitions agree
    "test": ["pytest", "pytest-qt", "pytest-xdist>=3.8", "hypothesis", "PyQt5", "ruff",
             "skrebate", "fast-select", "dask[array]", "distributed",
             "bed-reader", "anndata",
             # the processes a stopped command or preparation leaves
             "psutil"],
    # ReliefF streamed on a dask.distributed cluster (core.variants.streaming)
    "dask": ["dask[array]", "distributed"],
    "bench": ["fast-select", "skrebate", "bed-reader"],
    # wide data from files (orangecontrib.relief.readers): PLINK .bed read
    # a block of SNPs at a time, AnnData .h5ad in backed mode
    "genomics": ["bed-reader", "anndata"],
    # the Interactions widget's Network output (for Network Explorer)
    "network": ["orange3-network"],
}

ENTRY_POINTS = {
    # marks the distribution as an Orange add-on (shown in the add-on manager)
    "orange3.addon": ("relief = orangecontrib.relief",),
    # the widget category package
    "orange.widgets": ("Relief = orangecontrib.relief.widgets",),
    # example workflows (Help > Example Workflows in the canvas)
    "orange.widgets.tutorials": ("relief = orangecontrib.relief.tutorials",),
    # help pages of the widgets in the canvas
    "orange.canvas.help": (
        "html-index = orangecontrib.relief.widgets:WIDGET_HELP_PATH",),
    # a callable yielding (prefix, directory) pairs of documentation data sets
    "orange.data.io.search_paths": (
        "relief = orangecontrib.relief.datasets:dataset_dirs",),
    "console_scripts": ("orange-relief = orangecontrib.relief.cli:console",),
}

HELP_INSTALL_DIR = "help/orange3-relief"


def read(filename):
    """Return the text of a file next to setup.py."""
    with open(os.path.join(HERE, filename), encoding="utf-8") as file:
        return file.read()


def build_help():
    """Render doc/ to HTML and return its setuptools ``data_files`` entries.

    The pages are installed to ``<prefix>/help/orange3-relief``, where
    ``WIDGET_HELP_PATH`` looks for them (as in Orange's example add-on).
    """
    spec = importlib.util.spec_from_file_location(
        "build_html", os.path.join(HERE, "doc", "build_html.py"))
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    files = builder.build()
    by_dir = {}
    for path in files:
        relative = os.path.relpath(path.parent, builder.BUILD_DIR)
        target = os.path.normpath(os.path.join(HELP_INSTALL_DIR, relative))
        by_dir.setdefault(target, []).append(os.path.relpath(path, HERE))
    return sorted(by_dir.items())


if __name__ == "__main__":
    setup(
        name=NAME,
        version=VERSION,
        description=DESCRIPTION,
        long_description=read("README.md"),
        long_description_content_type="text/markdown",
        keywords=KEYWORDS,
        python_requires=">=3.10",
        packages=PACKAGES,
        package_data=PACKAGE_DATA,
        data_files=build_help(),
        install_requires=INSTALL_REQUIRES,
        extras_require=EXTRAS_REQUIRE,
        entry_points=ENTRY_POINTS,
        zip_safe=False,
        license="GPL-3.0-or-later",
        classifiers=[
            "Programming Language :: Python :: 3",
            "Topic :: Scientific/Engineering :: Artificial Intelligence",
        ],
    )
