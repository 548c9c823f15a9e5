"""`judge service` without Redis: the in-process pool judges, and work left by a previous run is picked up."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("fastapi")
pytest.importorskip("httpx", reason="httpx drives FastAPI's TestClient (pip install -e '.[service]')")
from fastapi.testclient import TestClient  # noqa: E402

from judge.cli import main  # noqa: E402
from judge.service.accounts import add_user  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.server import build  # noqa: E402
from judge.service.storage import DONE, Store  # noqa: E402


def test_submissions_left_unfinished_are_judged_when_the_service_starts(tmp_path, repo):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo), allowed_hosts=("testserver",))
    store = Store(config.database_url)
    account = add_user(store, "alice")
    source = (repo / "submissions/patchify/wrong_answer/overlapping.py").read_text()
    [left] = store.create(account.user, [("patchify", source)])        # queued by a run that then stopped
    store.close()

    service = build(config, pool_threads=1)
    try:
        with TestClient(service.app) as client:
            headers = {"Authorization": f"Bearer {account.token}"}
            new = client.post("/api/v1/submissions", json={"problem": "patchify", "source": source},
                              headers=headers).json()["id"]
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and any(
                    client.get(f"/api/v1/submissions/{i}", headers=headers).json()["status"] != DONE
                    for i in (left, new)):
                time.sleep(0.2)
            reports = [client.get(f"/api/v1/submissions/{i}", headers=headers).json()["report"] for i in (left, new)]
    finally:
        service.close()
    assert [r["verdict"] for r in reports] == ["wrong_answer", "wrong_answer"]


def test_worker_without_redis_is_a_one_line_error(monkeypatch, tmp_path):
    monkeypatch.delenv("JUDGE_SERVICE_REDIS", raising=False)
    result = CliRunner().invoke(main, ["service", "--database", f"sqlite:///{tmp_path / 'db'}", "worker"])
    assert result.exit_code == 2
    assert result.output.strip() == ("error: judge service worker needs a Redis URL: --redis URL or "
                                     "JUDGE_SERVICE_REDIS")


def test_an_unusable_database_is_a_one_line_error(tmp_path):
    result = CliRunner().invoke(main, ["service", "--database", "nosuch://x", "users", "add", "alice"])
    assert result.exit_code == 2 and result.output.startswith("error: database ") and \
        result.output.count("\n") == 1
