"""Styled text: the one `Segment` type every renderer produces, and its terminal form.

A rendered line is a list of (text, style) segments; a style is None or
space-separated names (`bold`, `dim`, `red`, `green`, `yellow`, `cyan`).
Renderers say what is emphasised, never how: `to_text` turns styles into ANSI
colours only when asked and `judge.render.html` into CSS, so colour is decided
in one place per medium.
"""
from __future__ import annotations

from judge.base.escape import escape_controls

Segment = tuple[str, "str | None"]
Line = list[Segment]

_ANSI = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}


def to_text(lines: list[Line], colour: bool = False) -> str:
    """The lines as terminal text, trailing spaces cut; styles as ANSI colours when `colour`."""
    out = []
    for line in lines:
        parts = []
        for text, style in line:
            text = escape_controls(text)  # the only control sequences on screen are our colours
            if colour and style and text:
                codes = ";".join(_ANSI[name] for name in style.split() if name in _ANSI)
                parts.append(f"\x1b[{codes}m{text}\x1b[0m")
            else:
                parts.append(text)
        out.append("".join(parts).rstrip())
    return "\n".join(out)


def plain(line: Line) -> str:
    """A line's text without its styles."""
    return "".join(text for text, _ in line)
