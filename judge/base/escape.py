"""Text that came from a submission, made safe to show: the one rule every face applies.

A submission's messages, printed output, dictionary keys and traceback lines,
and the names of the files it came in, reach a learner's or an instructor's
terminal, a CSV file, JSON, a web page and a notebook. What is escaped, and why:

- C0 and C1 control characters and DEL: an ESC or CSI sequence could move the
  cursor and redraw a failing row as a green AC, an OSC 52
  sequence could write to the clipboard;
- Unicode's format characters (category Cf): bidirectional overrides, embeddings,
  isolates and marks (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)
  reorder what is shown ("Trojan Source"), zero-width characters and the BOM hide
  text; a row could read as another, `\\u202eyp.exe` as `exe.py`;
- the line and paragraph separators (U+2028, U+2029), line breaks to some viewers
  that the text's own layout never uses;
- lone surrogates: not characters at all, so no UTF-8 writer takes them (one in
  an exception message crashed the text report and made JSON invalid).

Each becomes its Python escape (`\\x1b`, `\\u202e`, `\\ud800`), visible, the
same in every face, and the result is always valid UTF-8. Newlines (and, in
printed output, tabs) that the text's own layout uses are kept where asked.

A file name is escaped the same way, except that the bytes its name could not
be decoded from (Python's surrogate escapes, U+DC80-U+DCFF) are shown as those
bytes, `\\xff`, and a newline is escaped too. Escaping is idempotent: text shown
once is shown unchanged again, so a face may escape what was escaped before.
"""
from __future__ import annotations

import os
import re
from typing import Any

# Unicode's format characters (category Cf, as of Unicode 15.0), in and beyond the BMP. A test checks
# them against `unicodedata`, so a newer Python's tables cannot leave one out unnoticed.
_FORMAT = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
           "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb")
_ASTRAL_FORMAT = re.compile("[\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
                            "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]")
# Every astral character is a candidate, looked at again one by one: a class naming the few astral
# format characters makes the regex engine test each range in turn, three times slower on plain text.
_CANDIDATES = re.compile(f"[\x00-\x1f\x7f-\x9f{_FORMAT}\u2028\u2029\ud800-\udfff\U00010000-\U0010ffff]")
_UNDECODED = re.compile("[\udc80-\udcff]")   # a byte os.fsdecode could not decode, as surrogateescape keeps it


def escape_controls(text: str, keep: str = "\n") -> str:
    """`text` with every hidden character (see the module) not in `keep` written as its escape."""
    if not _CANDIDATES.search(text):  # the common case: a report's text has none
        return text

    def shown(match: re.Match[str]) -> str:
        char = match.group()
        if char in keep or (char > "\uffff" and not _ASTRAL_FORMAT.match(char)):
            return char
        return char.encode("unicode_escape").decode("ascii")

    return _CANDIDATES.sub(shown, text)


def escape_name(name: str | os.PathLike[str]) -> str:
    """A file name as shown: its undecodable bytes as `\\xff`, every other hidden character escaped."""
    text = os.fspath(name)
    text = _UNDECODED.sub(lambda m: f"\\x{ord(m.group()) - 0xdc00:02x}", text)
    return escape_controls(text, keep="")


def escape_tree(value: Any, keep: str = "\n\t") -> Any:
    """A JSON value (dicts, lists, strings, numbers) with every string in it, keys too, escaped:
    what a face writes as JSON is then valid UTF-8 whatever a submission put into it."""
    if isinstance(value, str):
        return escape_controls(value, keep)
    if isinstance(value, dict):
        return {escape_controls(k, keep) if isinstance(k, str) else k: escape_tree(v, keep) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [escape_tree(v, keep) for v in value]
    return value
