"""Fixtures of the service's tests: stores on SQLite and PostgreSQL, a Redis server, accounts."""
from __future__ import annotations

import os

import pytest

from servers import Missing, postgres_server, redis_server

# Each test module skips itself, with the reason, where the service extra is not installed (the
# README's quick start installs the test and web extras only); fixtures import the service lazily.

REQUIRED = os.environ.get("JUDGE_TEST_REQUIRE_SERVERS", "") not in ("", "0")


def _missing(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"JUDGE_TEST_REQUIRE_SERVERS is set but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_url():
    try:
        with postgres_server() as url:
            yield url
    except Missing as exc:
        _missing(str(exc))


@pytest.fixture
def redis():
    try:
        with redis_server() as server:
            yield server
    except Missing as exc:
        _missing(str(exc))


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """An empty store on each database the service supports."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'service.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")
    from judge.service.storage import Store

    s = Store(url)
    if request.param == "postgresql":  # one cluster for the session: start each test from empty tables
        from judge.service.storage.schema import Base

        Base.metadata.drop_all(s.engine)
        Base.metadata.create_all(s.engine)
    yield s
    s.close()
