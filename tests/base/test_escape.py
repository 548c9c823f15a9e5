"""Child-derived text and file names are shown with their hidden characters escaped (issue 10, class 8;
issue 32: bidirectional controls, lone surrogates, names that are not UTF-8)."""
from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

from judge.base.escape import escape_controls, escape_name, escape_tree


def test_escape_sequences_bells_and_carriage_returns_become_visible() -> None:
    text = "\x1b[1A\x1b[2K\r  ✓ ok\x07 \x9b2K \x00"
    shown = escape_controls(text)
    assert shown == "\\x1b[1A\\x1b[2K\\r  ✓ ok\\x07 \\x9b2K \\x00"
    assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in shown)


def test_newlines_are_kept_and_tabs_only_when_asked() -> None:
    assert escape_controls("a\nb\tc") == "a\nb\\tc"
    assert escape_controls("a\nb\tc", keep="\n\t") == "a\nb\tc"
    assert escape_controls("plain text, ünïcode ✓") == "plain text, ünïcode ✓"


def test_bidirectional_and_invisible_characters_and_lone_surrogates_become_visible() -> None:
    text = "ok \u202eKO\u202c \u2066x\u2069 \u200e\u200f\u061c zero\u200bwidth \ufeff \u2028 \ud800 \udcff \U000e0041"
    shown = escape_controls(text)
    assert shown == ("ok \\u202eKO\\u202c \\u2066x\\u2069 \\u200e\\u200f\\u061c zero\\u200bwidth \\ufeff \\u2028 "
                     "\\ud800 \\udcff \\U000e0041")
    shown.encode("utf-8")  # valid UTF-8: no surrogate is left


def test_the_rule_is_unicodes_controls_and_format_characters_and_nothing_else() -> None:
    """Every control (Cc), format character (Cf), surrogate (Cs) and line or paragraph separator is escaped,
    as this Python's Unicode tables have them; letters, marks, digits, symbols, spaces and emoji are not."""
    hidden = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    escaped, kept = [], []
    for code in range(0x110000):
        category = unicodedata.category(chr(code))
        if category in hidden:
            escaped.append(chr(code))
        elif category not in ("Cn", "Co"):  # unassigned and private use: either way
            kept.append(chr(code))
    shown = escape_controls("".join(escaped), keep="")
    assert not any(unicodedata.category(c) in hidden for c in shown)
    assert len(shown) == sum(len(c.encode("unicode_escape")) for c in escaped)
    kept_text = "".join(kept)
    assert escape_controls(kept_text) == kept_text


def test_a_file_name_shows_its_undecodable_bytes_as_bytes_and_escapes_everything_else() -> None:
    name = os.fsdecode(b"\xff\xfe.py")  # as Python lists a name that is not UTF-8
    assert escape_name(name) == "\\xff\\xfe.py"
    assert escape_name(Path("\x1b]52;c;SGVsbG8=\x07.py")) == "\\x1b]52;c;SGVsbG8=\\x07.py"
    assert escape_name("\u202eyp.exe") == "\\u202eyp.exe"
    assert escape_name("two\nlines.py") == "two\\nlines.py"  # a name is one line wherever it is shown
    assert escape_name("plain/ünïcode name.py") == "plain/ünïcode name.py"


def test_escaping_twice_changes_nothing() -> None:
    """A face may escape what another escaped before: what is shown once is shown the same again."""
    text = "\x1b[31m \u202e \ud800 \x9b \t\n"
    once = escape_controls(text)
    assert escape_controls(once) == once
    name = os.fsdecode(b"\xff\x1b.py")
    assert escape_name(escape_name(name)) == escape_name(name)


def test_a_json_tree_is_escaped_keys_and_all_and_dumps_as_utf8() -> None:
    tree = {"message": "bad \ud800", "rows": [{"k\u202e": ("x\ty\n", 1, None, 2.5, True)}], "n": 3}
    shown = escape_tree(tree)
    assert shown == {"message": "bad \\ud800", "rows": [{"k\\u202e": ["x\ty\n", 1, None, 2.5, True]}], "n": 3}
    json.dumps(shown, ensure_ascii=False).encode("utf-8")
