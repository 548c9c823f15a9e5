"""Shared fixtures: the repository's problem set and one warm judge for the session."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.session import Judge

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def judge() -> Judge:
    """One judge (and one warm fork server) shared by every test that judges code."""
    with Judge(REPO) as j:
        yield j
