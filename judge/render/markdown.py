"""Markdown statements rendered for a terminal (`judge show`).

Covers the subset problem statements use: paragraphs (re-wrapped to the
terminal's width), `#` headings, nested `-`/`*`/`1.` lists with hanging
indents, fenced code blocks (kept verbatim), and inline `**bold**`,
`*emphasis*`, `` `code` `` and `[links](url)`; TeX maths (`$...$`, `$$...$$`) as
Unicode text (judge.render.maths). Output is lines of (text,
style) segments (judge.render.segments). Without colour the Markdown
markers that carry meaning stay readable: code keeps its backticks, bold
and emphasis become plain text.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass

from judge.render.segments import Line


MAX_WIDTH = 100
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)"
                     r"|\[([^\]]+)\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class _Token:
    text: str
    style: str | None
    space_before: bool


def terminal_width() -> int:
    return min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, 24)).columns)


def render_markdown(text: str, *, width: int | None = None, colour: bool = False, indent: str = "") -> list[Line]:
    """The Markdown `text` as terminal lines of at most `width` columns (code blocks excepted)."""
    from judge.render.maths import replace_maths

    width = width or terminal_width()
    lines: list[Line] = []
    source = replace_maths(text).expandtabs(4).splitlines()   # TeX formulas as readable Unicode
    i = 0

    def blank() -> None:
        if lines and lines[-1]:
            lines.append([])

    while i < len(source):
        line = source[i]
        if not line.strip():
            blank()
            i += 1
            continue
        if _FENCE.match(line):
            fence = _FENCE.match(line).group(1)
            i += 1
            while i < len(source) and not source[i].strip().startswith(fence):
                lines.append([(f"{indent}    {source[i].rstrip()}", "cyan")])
                i += 1
            i += 1
            blank()
            continue
        heading = _HEADING.match(line)
        if heading:
            blank()
            lines.extend(_wrap(_inline(heading.group(2), "bold", colour), width, indent, indent))
            blank()
            i += 1
            continue
        item = _ITEM.match(line)
        if item:
            depth = len(item.group(1)) // 2
            marker = "•" if item.group(2) in "-*+" else item.group(2)
            text_lines = [item.group(3)]
            content_col = len(item.group(1)) + len(item.group(2)) + 1
            i += 1
            while i < len(source) and source[i].strip() and not _ITEM.match(source[i]) \
                    and not _FENCE.match(source[i]) and len(source[i]) - len(source[i].lstrip()) >= content_col:
                text_lines.append(source[i].strip())
                i += 1
            first = f"{indent}{'  ' * depth}{marker} "
            lines.extend(_wrap(_inline(" ".join(text_lines), None, colour), width, first, " " * len(first)))
            continue
        paragraph = [line.strip()]
        i += 1
        while i < len(source) and source[i].strip() and not (_ITEM.match(source[i]) or _FENCE.match(source[i])
                                                             or _HEADING.match(source[i])):
            paragraph.append(source[i].strip())
            i += 1
        lines.extend(_wrap(_inline(" ".join(paragraph), None, colour), width, indent, indent))
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _inline(text: str, base: str | None, colour: bool) -> list[tuple[str, str | None, bool]]:
    """(text, style, atomic) pieces; code spans are atomic (never broken across lines)."""
    pieces: list[tuple[str, str | None, bool]] = []
    pos = 0
    for match in _INLINE.finditer(text):
        if match.start() > pos:
            pieces.append((text[pos:match.start()], base, False))
        code, bold, bold2, emphasis, link_text, url = match.groups()
        if code is not None:
            pieces.append((code if colour else f"`{code}`", _join(base, "cyan"), True))
        elif bold is not None or bold2 is not None:
            pieces.extend(_inline(bold if bold is not None else bold2, _join(base, "bold"), colour))
        elif emphasis is not None:
            pieces.extend(_inline(emphasis, base, colour))
        else:
            pieces.extend(_inline(link_text, base, colour))
            pieces.append((f" ({url})", _join(base, "dim"), False))
        pos = match.end()
    if pos < len(text):
        pieces.append((text[pos:], base, False))
    return pieces


def _join(base: str | None, style: str) -> str:
    return f"{base} {style}" if base else style


def _tokens(pieces: list[tuple[str, str | None, bool]]) -> list[_Token]:
    tokens: list[_Token] = []
    space = False
    for text, style, atomic in pieces:
        if atomic:
            tokens.append(_Token(text, style, space))
            space = False
            continue
        for match in re.finditer(r"\s+|\S+", text):
            if match.group().isspace():
                space = True
            else:
                tokens.append(_Token(match.group(), style, space))
                space = False
    return tokens


def _wrap(pieces: list[tuple[str, str | None, bool]], width: int, first: str, rest: str) -> list[Line]:
    """Greedy fill; a word that does not fit starts a new line with the hanging prefix `rest`."""
    lines: list[Line] = []
    line: Line = [(first, None)]
    used, empty = len(first), True
    for token in _tokens(pieces):
        gap = " " if token.space_before and not empty else ""
        if gap and used + len(gap) + len(token.text) > width:  # break only where the source had a space
            lines.append(line)
            line, used, gap = [(rest, None)], len(rest), ""
        if gap:
            line.append((gap, None))
        line.append((token.text, token.style))
        used += len(gap) + len(token.text)
        empty = False
    lines.append(line)
    return lines
