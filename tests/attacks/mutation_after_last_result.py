"""Zero every kept input after the last result is sent, before the worker exits.

The worker flushes stdout once after each call (before sending its result) and once more after
DONE, while it closes its channel. A stdout whose flush finds no call since the previous flush
knows that every result is sent, and zeroes every input it kept: no later result will ever read
them. The judge reads every call's arguments again when the run has ended: the mutation test fails.
"""
import sys

_kept = []
_calls_since_flush = 0


class _Stdout:
    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(text)

    def flush(self):
        global _calls_since_flush
        if _kept and _calls_since_flush == 0:  # a flush with no call before it: after DONE
            for old in _kept:
                old.detach().zero_()
        _calls_since_flush = 0
        return self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


sys.stdout = _Stdout(sys.stdout)


def double_rows(x):
    global _calls_since_flush
    _calls_since_flush += 1
    _kept.append(x)
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    return x * 2
