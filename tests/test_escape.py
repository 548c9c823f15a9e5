"""Child-derived text is shown with its control characters escaped (issue 10, class 8)."""
from __future__ import annotations

from judge.escape import escape_controls


def test_escape_sequences_bells_and_carriage_returns_become_visible() -> None:
    text = "\x1b[1A\x1b[2K\r  ✓ ok\x07 \x9b2K \x00"
    shown = escape_controls(text)
    assert shown == "\\x1b[1A\\x1b[2K\\r  ✓ ok\\x07 \\x9b2K \\x00"
    assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in shown)


def test_newlines_are_kept_and_tabs_only_when_asked() -> None:
    assert escape_controls("a\nb\tc") == "a\nb\\tc"
    assert escape_controls("a\nb\tc", keep="\n\t") == "a\nb\tc"
    assert escape_controls("plain text, ünïcode ✓") == "plain text, ünïcode ✓"
