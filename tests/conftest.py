"""Shared fixtures: the repository's problem set and one warm judge for the session."""
from __future__ import annotations

import signal
from pathlib import Path

import pytest

from judge.judging.session import Judge

REPO = Path(__file__).resolve().parent.parent


def pytest_configure(config) -> None:
    """Ctrl+C as a terminal delivers it. A suite started in the background by a script (CI's quick
    start as the learner) inherits SIGINT ignored, and so would every judge it starts: a watch or a
    server the tests interrupt would never stop. A handler of the suite's own is reset to the default
    in each program it starts, which then installs Python's KeyboardInterrupt as a terminal's would."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def judge_home(tmp_path_factory) -> Path:
    """Progress records (issue 7) go to a temporary JUDGE_HOME, never the user's data directory.

    Set for the whole session (CLI subprocesses inherit it); tests that need
    their own database pass a `ProgressStore` or set JUDGE_HOME themselves.
    """
    home = tmp_path_factory.mktemp("judge_home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_HOME", str(home))
        # Cached expectations (issue 6) likewise stay out of the user's cache directory.
        patch.setenv("JUDGE_CACHE_DIR", str(home / "expected-cache"))
        # No `judge run` of the suite starts a warm judge in the background (each would hold a fork
        # server for minutes); the warm judge's own tests start theirs, in their own runtime directory.
        patch.setenv("JUDGE_NO_WARM", "1")
        yield home


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def judge() -> Judge:
    """One judge (and one warm fork server) shared by every test that judges code."""
    with Judge(REPO) as j:
        yield j
