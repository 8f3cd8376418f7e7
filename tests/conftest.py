"""Shared pytest setup: Qt runs without a screen (before any Qt import), and
no call of the tests starts the compiled engine's background preparation
(a test that wants one asks for it)."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ORANGE_RELIEF_BACKGROUND"] = "0"
