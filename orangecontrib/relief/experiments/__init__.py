"""Experiments of the papers the add-on implements, runnable from the
command line (``orange-relief experiment <name>``) and from widgets."""
