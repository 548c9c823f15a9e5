"""Keeping the warnings of code the judge runs in its own process out of every face.

The judge runs the problem set's trusted code itself: references (expected
values), trap functions (diagnosing a wrong answer), another problem's
reference (`output_of`), and it compiles a submission to see whether it loads.
Such code warns (a trap's division by zero on a degenerate input, torch's
deprecation notes), and Python's default hook prints a warning with its file
and source line: a hidden_tests/ path and the very line that fixes the
learner's mistake, on the stderr of `judge run`, `judge grade`, a page's
server or a notebook. Nothing of the hidden tests reaches a face (the spec).

Why not `warnings.catch_warnings`: it swaps the warnings module's global
filters and hook and puts back what it found on exit, so two threads doing it
at once (`judge grade` judges with several; the web page and the service judge
in threads) can leave either one's state behind for good. Instead, one hook is
installed in place of `warnings.showwarning` (once, when this module is
imported, and again whenever something put another in its place), and
`quiet()` marks the current thread: a warning raised in a thread inside
`quiet()` goes to that block's list, or nowhere; any other is passed on to the
hook that was there before. The mark is thread-local, so the judging threads
never race for it. numpy's floating-point warnings are also turned off at
their source inside the block (`np.errstate` is per thread and per context),
which holds even while some other code's `catch_warnings(record=True)` has the
hook swapped out, and spares the warnings machinery.

A warning raised in a file the judge loaded as trusted code
(`judge.model.solution.load_module` registers it with `trust`) is dropped even
outside `quiet()`: a call site that forgot the block still shows no trap's line.

`judge validate` may show an author the warnings of their own reference: it
passes a list (`quiet(heard)`), and every block nested in it, with no list of
its own, adds to that list; numpy's warnings are left on there so the author
hears them.
"""
from __future__ import annotations

import threading
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

_local = threading.local()      # .heard: the innermost block's list (None: drop); absent outside any block
_OUTSIDE = object()             # what `_local.heard` reads as outside every block
_install_lock = threading.Lock()
_trusted: set[str] = set()      # filenames of trusted code loaded into this process (only ever added to)
_MARK = "_judge_quiet"          # set on every hook this module installs


@contextmanager
def quiet(heard: list[warnings.WarningMessage] | None = None) -> Iterator[None]:
    """Within the block, this thread's warnings reach no stream: they go to `heard` when given, else
    to the enclosing block's list, else nowhere. Other threads are untouched."""
    _install()
    outer = getattr(_local, "heard", _OUTSIDE)
    collecting = heard if heard is not None else (None if outer is _OUTSIDE else outer)
    _local.heard = collecting
    try:
        if collecting is None:
            with np.errstate(all="ignore"):
                yield
        else:
            yield
    finally:
        if outer is _OUTSIDE:
            del _local.heard
        else:
            _local.heard = outer


def trust(filename: str) -> None:
    """Drop any warning raised in `filename` (trusted code of the problem set), in any thread, ever."""
    _trusted.add(filename)
    _install()


def _hook(previous: Callable[..., Any]) -> Callable[..., Any]:
    """A `warnings.showwarning` that keeps quiet threads' and trusted files' warnings back and passes
    every other warning on to `previous`. One per install, so that whoever restores the hook it saved
    (a `catch_warnings` block ending) restores the chain it saw."""
    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        heard = getattr(_local, "heard", _OUTSIDE)
        if heard is not _OUTSIDE:
            if heard is not None:
                heard.append(warnings.WarningMessage(message, category, filename, lineno, file, line))
            return
        if filename in _trusted:
            return
        previous(message, category, filename, lineno, file, line)

    setattr(show, _MARK, True)
    return show


def _install() -> None:
    """Put a hook in place unless one of ours is there already (cheap: checked on every block)."""
    if getattr(warnings.showwarning, _MARK, False):
        return
    with _install_lock:
        if not getattr(warnings.showwarning, _MARK, False):
            warnings.showwarning = _hook(warnings.showwarning)


_install()
