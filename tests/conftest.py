"""Shared pytest setup: Qt runs without a screen (before any Qt import)."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
