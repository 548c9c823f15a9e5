"""Zero every kept input as the worker exits, 0.2 s later, from a thread started there (joined, at most 1 s).

The worker closes its channel and then calls os._exit; a submission can rebind it to run code
of its own first, after the judge has seen the channel close. The judge's last look at the arguments
comes once no process maps them writable any more (the arena's seal against writing is granted),
or once the worker has ended: the mutation test fails.
"""
import os
import threading
import time

_kept = []
_exit = os._exit


def _zero_kept():
    time.sleep(0.2)  # well after the channel closed; within the half second the judge grants after DONE
    for old in _kept:
        old.detach().zero_()


def _zero_then_exit(code):
    thread = threading.Thread(target=_zero_kept)
    thread.start()
    thread.join(1.0)
    _exit(code)


setattr(os, "_ex" + "it", _zero_then_exit)


def double_rows(x):
    _kept.append(x)
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    return x * 2
