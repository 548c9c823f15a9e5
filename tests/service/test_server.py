"""`judge service` without Redis: the in-process pool judges, and work left by a previous run is picked up."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("fastapi")
pytest.importorskip("httpx", reason="httpx drives FastAPI's TestClient (pip install -e '.[service]')")
from fastapi.testclient import TestClient  # noqa: E402

from judge.cli.commands import main  # noqa: E402
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


def _clashing_pack(site, package="clash_pack"):
    """An installed pack (as pip leaves one) holding `patchify`, which the course in use holds too."""
    from judge.model.locate import GROUP
    from judge.model.problem import problem_ids

    root = site / package
    (root / "problems").mkdir(parents=True)
    repo = Path(__file__).resolve().parents[2]
    shutil.copy(repo / "problems/patchify.yaml", root / "problems")
    shutil.copytree(repo / "hidden_tests/patchify", root / "hidden_tests/patchify")
    (root / "__init__.py").write_text("")
    info = site / f"{package}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nclash = {package}\n")
    assert problem_ids(root) == ["patchify"]
    return root


def test_the_service_and_its_workers_refuse_to_start_on_a_problem_set_in_conflict(tmp_path, repo):
    """A pack holding an id of the course: `judge service` and `judge service worker` say so in one line and
    exit 2, instead of answering every request with 500."""
    import os
    import subprocess
    import sys

    site = tmp_path / "site"
    _clashing_pack(site)
    empty = tmp_path / "elsewhere"             # not inside a problem set: the course and the packs are in use
    empty.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "JUDGE_SERVICE_DATABASE": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env.pop("JUDGE_PROBLEMS_DIR", None)
    for command in (["service", "--port", "1"], ["service", "--redis", "redis://127.0.0.1:1/0", "worker"]):
        done = subprocess.run([sys.executable, "-m", "judge", *command], cwd=empty, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        last = done.stderr.splitlines()[-1]       # the course as the installed judge finds it, and the pack
        assert last.startswith("error: problem id 'patchify' is in two problem sets: ") and last.endswith(
            f" and pack clash: {site / 'clash_pack'}; uninstall one pack, or pass --problems-dir to use one set alone")
        assert "Traceback" not in done.stderr


def test_health_reports_what_requests_would_meet(tmp_path, repo):
    from judge.model.locate import Source
    from judge.model.problemset import ProblemSet
    from judge.service.api import create_app
    from judge.judging.session import Judge

    root = tmp_path / "set"
    shutil.copytree(repo / "problems", root / "problems")
    shutil.copytree(repo / "hidden_tests", root / "hidden_tests", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "problems/vit_cost.yaml").write_text("id: vit_cost\ntitle: [unclosed\n")       # one broken file
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(root),
                           allowed_hosts=("testserver",))
    store = Store(config.database_url)
    with Judge(root, record=False) as judge, TestClient(create_app(config, store, None, judge)) as client:
        health = client.get("/api/v1/health").json()
        assert (health["status"], health["database"], health["problems"]) == ("ok", "ok", 19)
        assert [b["id"] for b in health["broken"]] == ["vit_cost"] and "invalid YAML" in health["broken"][0]["error"]
        # An installed pack holding one of its ids: every request would fail, and /health says why.
        clash = _clashing_pack(tmp_path / "site")
        judge.problem_set = ProblemSet(root, None, (Source("clash", clash, "pack"),), "working directory")
        down = client.get("/api/v1/health")
        assert down.status_code == 503
        assert down.json()["error"]["message"].startswith(
            "the problem set cannot be used: problem id 'patchify' is in two problem sets")
    store.close()
