"""What the terminal allows: colour or not, and its width (standard library only).

Apart from judge.base.report so that the warm `judge run` client, which must start
in a few milliseconds, can ask without importing the renderer.
"""
from __future__ import annotations

import os
import sys


def use_colour(stream: object, choice: str = "auto") -> bool:
    """`always`/`never` as asked; `auto`: FORCE_COLOR forces colour, NO_COLOR (https://no-color.org) or
    TERM=dumb turns it off, otherwise colour only on a terminal."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def terminal_width() -> int:
    """The terminal's columns as shutil.get_terminal_size reads them ($COLUMNS, else the terminal
    of the standard output, else 100), kept within 60-120; shutil itself is not imported: it
    costs the warm client's start a few milliseconds."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):  # no standard output, a closed one, not a terminal
            columns = 0
    return max(60, min(120, columns or 100))
