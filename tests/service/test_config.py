"""The service's settings: defaults, the environment, and bad values as one-line errors."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")


from judge.errors import ConfigError
from judge.service.config import ServiceConfig


def test_the_default_database_is_sqlite_in_the_judge_home(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    for name in ("JUDGE_SERVICE_DATABASE", "JUDGE_SERVICE_REDIS", "JUDGE_SERVICE_LEASE_S"):
        monkeypatch.delenv(name, raising=False)
    config = ServiceConfig.from_env()
    assert config.database_url == f"sqlite:///{tmp_path / 'service.sqlite3'}"
    assert config.redis_url is None and config.lease_s == 120.0


def test_the_environment_round_trips_to_another_process(monkeypatch, tmp_path):
    config = ServiceConfig(database_url="sqlite:///x.db", redis_url="redis://127.0.0.1:1/0", problems_dir=str(tmp_path),
                           lease_s=7.5, requeue_after_s=3, rate_burst=9, sandbox_threads=1)
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
