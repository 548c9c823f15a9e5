"""Text that came from a submission, made safe to show: control characters become visible escapes.

A submission's messages, printed output, dictionary keys and traceback lines
reach the learner's terminal; an ESC or CSI sequence in them could move the
cursor and redraw a failing row as a green AC (issue 10, class 8). Every C0
and C1 control character (and DEL) is replaced by its Python escape (`\\x1b`,
`\\x9b`), except the newlines (and, in printed output, tabs) that the text's
own layout uses.
"""
from __future__ import annotations

import re

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def escape_controls(text: str, keep: str = "\n") -> str:
    """`text` with every control character not in `keep` written as an escape."""
    return _CONTROLS.sub(lambda m: m.group() if m.group() in keep else m.group().encode("unicode_escape").decode(),
                         text)
