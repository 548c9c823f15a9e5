"""Markdown statements for the terminal (judge/render/markdown.py) and `judge show`."""
from __future__ import annotations

from click.testing import CliRunner

from judge.cli.commands import main
from judge.render import render_markdown, to_text

TEXT = """# Title

Some **bold** words, `code with spaces`, *emphasis* and [a link](https://example.org) in a paragraph
that goes on for a while so that it has to wrap at the width we ask for.

- first item
  continued here
  - nested `item`
1. numbered

```
keep   this   verbatim, however long the line is, it is never wrapped or reflowed at all
```
"""


def test_plain_rendering():
    lines = to_text(render_markdown(TEXT, width=40)).splitlines()
    assert lines[0] == "Title"
    assert "**" not in "\n".join(lines) and "`code with spaces`" in "\n".join(lines)
    assert "a link (https://example.org)" in " ".join(lines)
    assert "• first item continued here" in lines
    assert "  • nested `item`" in lines
    assert "1. numbered" in lines
    assert "    keep   this   verbatim, however long the line is, it is never wrapped or reflowed at all" in lines
    assert all(len(line) <= 40 for line in lines if "verbatim" not in line and "https" not in line)


def test_colour_rendering_drops_markers():
    text = to_text(render_markdown(TEXT, width=80, colour=True), colour=True)
    assert "\x1b[1mbold\x1b[0m" in text and "\x1b[36mcode with spaces\x1b[0m" in text


def test_hanging_indent_in_lists():
    lines = to_text(render_markdown("- " + "word " * 30, width=30)).splitlines()
    assert lines[0].startswith("• ") and all(line.startswith("  ") for line in lines[1:])


def test_show_renders_the_statement_without_markdown_markers(repo, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    result = CliRunner().invoke(main, ["--problems-dir", str(repo), "show", "patchify"])
    assert result.exit_code == 0, result.output
    assert "**" not in result.output and "\x1b[" not in result.output
    assert "• " in result.output and "Signature" in result.output
