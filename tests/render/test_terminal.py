"""The terminal's width and colour as the renderer and the warm client read them."""
from __future__ import annotations

import io
import shutil

import pytest

from judge.render.terminal import terminal_width, use_colour


@pytest.mark.parametrize("columns", ["80", "200", "30", "0", "-5", "wide", None])
def test_the_width_is_what_shutil_reads_kept_within_60_and_120(columns, monkeypatch):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_width() == max(60, min(120, shutil.get_terminal_size((100, 24)).columns))


def test_without_columns_or_a_terminal_the_width_is_100(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("sys.__stdout__", io.StringIO())  # no file descriptor
    assert terminal_width() == 100


def test_colour_follows_the_choice_then_the_environment_then_the_stream(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_colour(io.StringIO(), "always") and not use_colour(io.StringIO(), "never")
    assert not use_colour(io.StringIO())  # not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert use_colour(io.StringIO())
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(io.StringIO())
