"""The service's settings: defaults, the environment, and bad values as one-line errors."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")


import os
import stat

from judge.base.errors import ConfigError
from judge.service.accounts import add_user
from judge.service.config import ServiceConfig
from judge.service.storage import Store


def test_the_default_database_is_a_private_sqlite_file_in_the_judge_home(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    for name in ("JUDGE_SERVICE_DATABASE", "JUDGE_SERVICE_REDIS", "JUDGE_SERVICE_LEASE_S"):
        monkeypatch.delenv(name, raising=False)
    old = os.umask(0o022)           # a usual umask: files 0644 and directories 0755 unless made private
    try:
        config = ServiceConfig.from_env()
        store = Store(config.database_url)
        add_user(store, "alice")    # a write: SQLite makes its -wal and -shm files now
        store.close()
    finally:
        os.umask(old)
    database = tmp_path / "service" / "service.sqlite3"
    assert config.database_url == f"sqlite:///{database}"
    assert config.redis_url is None and config.lease_s == 120.0
    assert stat.S_IMODE(database.parent.stat().st_mode) == 0o700
    made = [p for p in database.parent.iterdir()]
    assert database in made
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in made} == {p.name: 0o600 for p in made}


def test_a_database_an_older_version_made_stays_in_use_and_is_made_private(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    monkeypatch.delenv("JUDGE_SERVICE_DATABASE", raising=False)
    legacy = tmp_path / "service.sqlite3"
    store = Store(f"sqlite:///{legacy}")
    add_user(store, "alice")
    store.close()
    legacy.chmod(0o644)
    config = ServiceConfig.from_env()
    assert config.database_url == f"sqlite:///{legacy}"
    assert stat.S_IMODE(legacy.stat().st_mode) == 0o600
    assert [a.user.name for a in Store(config.database_url).accounts()] == ["alice"]


def test_the_environment_round_trips_to_another_process(monkeypatch, tmp_path):
    config = ServiceConfig(database_url="sqlite:///x.db", redis_url="redis://127.0.0.1:1/0", problems_dir=str(tmp_path),
                           lease_s=7.5, requeue_after_s=3, rate_burst=9, sandbox_threads=1, max_queued=7,
                           max_queued_bytes=1000, allowed_hosts=("judge.example.org", "*.example.net"),
                           read_timeout_s=2.5, max_connections=9)
    for key, value in config.environment().items():
        monkeypatch.setenv(key, value)
    assert ServiceConfig.from_env() == config


def test_options_override_the_environment(monkeypatch):
    monkeypatch.setenv("JUDGE_SERVICE_REDIS", "redis://env:6379/0")
    assert ServiceConfig.from_env(redis_url="redis://option:6379/0", database_url="sqlite://").redis_url == \
        "redis://option:6379/0"


def test_a_bad_number_is_a_one_line_error(monkeypatch):
    monkeypatch.setenv("JUDGE_SERVICE_LEASE_S", "soon")
    with pytest.raises(ConfigError, match=r"^JUDGE_SERVICE_LEASE_S='soon': expected a number$"):
        ServiceConfig.from_env(database_url="sqlite://")
