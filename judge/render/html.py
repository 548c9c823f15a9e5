"""HTML renderings: reports and problem lists for notebooks, styled lines as spans, statements for the web page.

Styles (judge.render.segments) become inline CSS colours here, as `to_text`
makes them ANSI colours for a terminal; every text is escaped, so nothing a
submission printed or returned can add markup, and its controls, bidirectional
and other invisible characters are shown as escapes (judge.base.escape), as in a terminal.
"""
from __future__ import annotations

import functools
import html
import re
from typing import Any, Iterable

from judge.base.escape import escape_controls
from judge.render.segments import Line
from judge.render.text import values_lines
from judge.base.report import Report
from judge.base.outcomes import Verdict


def _escape(text: str) -> str:
    """`text` as HTML: markup escaped, and what judge.base.escape makes visible made visible."""
    return html.escape(escape_controls(text, keep="\n\t"))


def report_html(report: Report, examples_only: bool) -> str:
    """A report as an HTML table (Jupyter's `_repr_html_`): one row per test, example values drawn."""
    ok = report.accepted
    colour = _CSS["green"] if ok else _CSS["red"]
    scope = " (public examples only)" if examples_only else ""
    rows = []
    for test in report.tests:
        passed = test.verdict is Verdict.ACCEPTED
        message = "<br>".join(inline_html(part) for part in test.text.splitlines())
        drawn = False
        if test.shown is not None and (examples_only or not passed):
            block, drawn = values_lines(test.shown)
            message += f"<pre style='margin:4px 0;font-size:90%'>{lines_html(block)}</pre>"
        if not passed and test.details and not drawn:  # the mismatch table (index, yours, expected)
            message += "<pre style='margin:4px 0;font-size:90%'>" + _escape("\n".join(test.details)) + "</pre>"
        rows.append(
            f"<tr><td style='color:{_CSS['green'] if passed else _CSS['red']}'>{'✓' if passed else '✗'}</td>"
            f"<td><code>{_escape(test.name)}</code></td><td>{_escape(test.group)}</td>"
            f"<td>{_escape(test.verdict.value)}</td>"
            f"<td style='text-align:right;white-space:nowrap'>{test.time_ms:.1f}&nbsp;ms</td>"
            f"<td style='text-align:left'>{message}</td></tr>")
    warnings = "".join(f"<p style='color:{_CSS['yellow']}'>warning: {_escape(w)}</p>" for w in report.warnings)
    return (f"<div>{warnings}<p><b style='color:{colour}'>{_escape(report.verdict.value)}</b>: "
            f"{report.passed}/{report.total} tests passed in {report.time_ms / 1000:.2f} s on "
            f"<code>{_escape(report.problem)}</code>{scope}</p>{tampering_html(report)}"
            "<table><thead><tr><th></th><th>test</th><th>group</th><th>verdict</th><th>time</th>"
            f"<th style='text-align:left'>message</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def check_html(report: Report, examples_only: bool) -> str:
    """A notebook check's result, compact as learntools' (`q.check(fn)` in Jupyter): one green
    "Correct" line, or one red line naming the first failing test and what failed, with the
    named mistake highlighted and its hint; every test's row folded in a <details>."""
    warnings = "".join(f"<p style='color:{_CSS['yellow']};margin:2px 0'>warning: {_escape(w)}</p>"
                       for w in report.warnings)
    scope = " (public examples only)" if examples_only else ""
    summary = f"{report.passed}/{report.total} tests passed in {report.time_ms / 1000:.2f} s{scope}"
    if report.accepted:
        head = (f"<p style='margin:2px 0'><b style='color:{_CSS['green']}'>✓ Correct</b> "
                f"<span style='color:{_CSS['dim']}'>{_escape(report.problem)}: {summary}</span></p>")
        return f"<div class='judge-check'>{warnings}{head}{tampering_html(report)}</div>"
    first = report.first_failure
    parts = [warnings]
    if report.not_attempted:
        parts.append(f"<p style='margin:2px 0'><b style='color:{_CSS['yellow']}'>Not attempted yet</b>: every test "
                     f"stops at <code>raise NotImplementedError</code>; replace it with your solution.</p>")
    else:
        what = (first.message.splitlines() or [""])[0] if first is not None else ""
        name = f"test <code>{_escape(first.name)}</code>: " if first is not None else ""
        parts.append(f"<p style='margin:2px 0'><b style='color:{_CSS['red']}'>✗ Incorrect</b> "
                     f"<span style='color:{_CSS['dim']}'>({_escape(report.verdict.value)}, {summary})</span> "
                     f"{name}{inline_html(what)}</p>")
        for mistake in first.mistakes if first is not None else ():
            parts.append(f"<p style='margin:2px 0;padding:2px 6px;background:#fff8c5;border-left:3px solid "
                         f"{_CSS['yellow']}'><b>{_escape(mistake.line)}</b></p>")
        if first is not None and first.hint:
            parts.append(f"<p style='margin:2px 0;color:{_CSS['cyan']}'>hint: {_escape(first.hint)}</p>")
    parts.append(tampering_html(report))
    parts.append(f"<details><summary>details: every test</summary>{report_html(report, examples_only)}</details>")
    return f"<div class='judge-check'>{''.join(parts)}</div>"


def tampering_html(report: Report) -> str:
    """The report's tampering as one line under its verdict (nothing when there is none)."""
    if not report.tampering:
        return ""
    return f"<p class='tampering' style='margin:2px 0;color:{_CSS['yellow']}'>{_escape(report.tampering_line)}</p>"


def problems_html(problems: Iterable[Any]) -> str:
    """Problem summaries (status, id, title, difficulty, framework, tags) as an HTML table."""
    rows = "".join(f"<tr><td>{_escape(p.status)}</td><td><code>{_escape(p.id)}</code></td>"
                   f"<td>{'(extra) ' if getattr(p, 'extra', False) else ''}{_escape(p.title)}</td>"
                   f"<td>{_escape(p.difficulty)}</td>"
                   f"<td>{_escape(p.framework)}</td><td>{_escape(', '.join(p.tags))}</td></tr>"
                   for p in problems)
    return ("<table><thead><tr><th>status</th><th>id</th><th>title</th><th>difficulty</th>"
            f"<th>framework</th><th>tags</th></tr></thead><tbody>{rows}</tbody></table>")


_CSS = {"red": "#cf222e", "green": "#1a7f37", "yellow": "#9a6700", "cyan": "#0969da", "dim": "#6e7781"}


def lines_html(lines: list[Line]) -> str:
    """Rendered lines (text, style segments) as HTML, styles as colours: differing entries in red."""
    out = []
    for line in lines:
        parts = []
        for text, style in line:
            escaped = _escape(text)
            names = (style or "").split()
            css = ";".join([f"color:{_CSS[n]}" for n in names if n in _CSS] + (["font-weight:bold"] if "bold" in names
                                                                                 else []))
            parts.append(f"<span style='{css}'>{escaped}</span>" if css and text else escaped)
        out.append("".join(parts).rstrip())
    return "\n".join(out)


def inline_html(text: str) -> str:
    """One line of a message with its Markdown: `code`, **bold**, *emphasis* (everything else escaped)."""
    pieces = re.split(r"(`[^`]+`)", text)
    out = []
    for piece in pieces:
        if len(piece) > 1 and piece.startswith("`") and piece.endswith("`"):
            out.append(f"<code>{_escape(piece[1:-1])}</code>")
            continue
        escaped = _escape(piece)
        escaped = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", escaped)
        escaped = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", escaped)
        out.append(escaped)
    return "".join(out)


@functools.lru_cache(maxsize=1)
def _parser() -> Any:
    # imported here: the web extra provides markdown-it; notebooks render reports without it
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    return MarkdownIt("commonmark", {"html": False}).use(dollarmath_plugin, double_inline=True).enable("table")


def markdown_html(markdown: str) -> str:
    """A problem's Markdown as HTML for the page: the same text `judge show` renders for a terminal.

    CommonMark with tables; raw HTML in a statement is escaped, never passed
    through. `$...$` and `$$...$$` become `.math` elements that the page's
    KaTeX renders, so maths needs no server-side TeX.
    """
    return _parser().render(markdown)
