"""A problem's Markdown as HTML for the page: the same text `judge show` renders for a terminal.

CommonMark with tables; raw HTML in a statement is escaped, never passed
through. `$...$` and `$$...$$` become `.math` elements that the page's
KaTeX renders, so maths needs no server-side TeX.
"""
from __future__ import annotations

import functools

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin


@functools.lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).use(dollarmath_plugin, double_inline=True).enable("table")


def to_html(markdown: str) -> str:
    return _parser().render(markdown)
