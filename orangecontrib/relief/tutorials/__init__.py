"""Example workflows of Orange3-Relief (Help > Example Workflows in Orange).

The ``.ows`` files here are listed by the ``orange.widgets.tutorials`` entry
point; doc/build_workflows.py writes them.
"""
