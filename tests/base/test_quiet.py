"""judge.base.quiet: warnings of the code the judge runs itself reach no stream, per thread, without catch_warnings races."""
from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

from judge.base.quiet import quiet, trust


@pytest.fixture
def shown():
    """What the process's warnings hook is handed (what Python would print), every warning each time.

    pytest records warnings itself during a test; this puts a plain hook in place, as a fresh
    interpreter has, and `quiet` must wrap it as it wraps the default one."""
    heard: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, category, filename, lineno, file=None, line=None: heard.append(
            f"{filename}:{lineno}: {category.__name__}: {message}")
        yield heard


def test_a_warning_inside_is_dropped_and_one_outside_is_shown(shown) -> None:
    with quiet():
        warnings.warn("from a trap", RuntimeWarning)
        np.log(np.zeros(1))                     # numpy's divide-by-zero warning
        np.mean(np.zeros(0))                    # numpy's "Mean of empty slice", raised in numpy's own file
    assert shown == []
    warnings.warn("the judge's own", UserWarning)
    assert len(shown) == 1 and "the judge's own" in shown[0]


def test_nested_blocks_and_heard_lists(shown) -> None:
    heard: list[warnings.WarningMessage] = []
    with quiet(heard):
        warnings.warn("the author's reference", RuntimeWarning)
        with quiet():                           # a block inside (grading.expect) adds to the outer list
            warnings.warn("inner", RuntimeWarning)
            np.log(np.zeros(1))                 # heard, not silenced: the author is told of it
        with quiet([]):                         # a list of its own takes its own
            warnings.warn("elsewhere", RuntimeWarning)
    assert [str(w.message) for w in heard] == ["the author's reference", "inner", "divide by zero encountered in log"]
    assert shown == []
    with quiet():
        warnings.warn("dropped", RuntimeWarning)
    assert heard[-1].message.args == ("divide by zero encountered in log",) and shown == []


def test_another_thread_is_untouched_while_one_is_quiet(shown) -> None:
    inside, done = threading.Event(), threading.Event()

    def trap() -> None:
        with quiet():
            inside.set()
            done.wait(10)
            warnings.warn("a trap's, late", RuntimeWarning)

    thread = threading.Thread(target=trap)
    thread.start()
    assert inside.wait(10)
    warnings.warn("the judge's, meanwhile", UserWarning)  # not silenced by the other thread's block
    done.set()
    thread.join(10)
    assert [s.rsplit(": ", 1)[1] for s in shown] == ["the judge's, meanwhile"]


def test_many_threads_leave_the_filters_and_the_hook_as_they_were(shown) -> None:
    with quiet():  # puts the hook in place (the fixture took it out), once
        pass
    filters, hook = list(warnings.filters), warnings.showwarning

    def trap() -> None:
        for _ in range(200):
            with quiet():
                warnings.warn("a trap's", RuntimeWarning)

    threads = [threading.Thread(target=trap) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert warnings.filters == filters and warnings.showwarning is hook and shown == []
    warnings.warn("after", UserWarning)
    assert len(shown) == 1


def test_a_trusted_file_warns_nowhere_even_outside_a_block(shown, tmp_path) -> None:
    path = str(tmp_path / "hidden_tests" / "p" / "traps.py")
    trust(path)
    warnings.warn_explicit("a trap called outside a block", RuntimeWarning, path, 3)
    warnings.warn_explicit("a learner-facing file", RuntimeWarning, str(tmp_path / "other.py"), 3)
    assert len(shown) == 1 and "other.py" in shown[0]


def test_a_hook_put_back_by_someone_else_is_wrapped_again(shown) -> None:
    with warnings.catch_warnings(record=True) as recorded:  # swaps the hook out, as pytest does per test
        warnings.simplefilter("always")
        with quiet():
            warnings.warn("a trap's", RuntimeWarning)
        warnings.warn("shown to the recorder", UserWarning)
    assert [str(w.message) for w in recorded] == ["shown to the recorder"]
    with quiet():
        warnings.warn("a trap's, after", RuntimeWarning)
    assert shown == []
