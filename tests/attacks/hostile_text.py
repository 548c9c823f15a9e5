"""Class 8, issue 32: text that is not plain. A message with a right-to-left override, an isolate, an OSC 52
clipboard write and a lone surrogate; printed bytes that are not UTF-8 and an encoded surrogate. Every face
shows them as escapes and every report is valid UTF-8 (`_plain_report`)."""
import sys

HOSTILE = "\u202eKO\u202c \u2066x\u2069 \x1b]52;c;UFdORUQ=\x07 \ud800"


def double(x):
    print("\u202eKO\u202c \x1b]52;c;UFdORUQ=\x07")
    sys.stdout.flush()
    sys.stdout.buffer.write(b"\xff\xfe \xe2\x80\xae \xed\xa0\x80\n")
    sys.stdout.buffer.flush()
    raise ValueError(HOSTILE)
