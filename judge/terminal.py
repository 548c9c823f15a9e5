"""What the terminal allows: colour or not, and its width (standard library only).

Apart from judge.report so that the warm `judge run` client, which must start
in a few milliseconds, can ask without importing the renderer.
"""
from __future__ import annotations

import os


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
    import shutil  # only when asked: a few milliseconds of the warm client's start

    return max(60, min(120, shutil.get_terminal_size((100, 24)).columns))
