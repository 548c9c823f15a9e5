"""The HTTP API: every endpoint, every error, who may read what, and the report as `judge run --json` gives it."""
from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from judge.service.accounts import add_user  # noqa: E402
from judge.service.api import create_app  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.queue import LocalPool  # noqa: E402
from judge.service.storage import Store  # noqa: E402
from judge.service.worker import Processor  # noqa: E402
from judge.judging.session import Judge  # noqa: E402

PATCHIFY_OK = "submissions/patchify/accepted/reshape_permute.py"


class Recorded:
    """A queue that keeps what it was handed, for tests of the API alone."""

    def __init__(self):
        self.ids: list[str] = []

    def enqueue(self, submission_id: str) -> bool:
        self.ids.append(submission_id)
        return True

    def close(self) -> None:
        pass


@pytest.fixture
def setup(tmp_path, repo):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo), allowed_hosts=("testserver",),
                           max_request_bytes=64 << 10, max_source_bytes=16 << 10, max_batch=5,
                           rate_per_minute=60, rate_burst=1000)
    store = Store(config.database_url)
    queue = Recorded()
    tokens = {name: add_user(store, name, role, course).token for name, role, course in (
        ("alice", "learner", "ml101"), ("bob", "learner", "ml101"), ("carol", "learner", "other"),
        ("teach", "instructor", "ml101"))}
    with Judge(repo, record=False) as judge, TestClient(create_app(config, store, queue, judge)) as client:
        yield client, tokens, queue, store, config
    store.close()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def error(response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["status"] == status
    return body["error"]["message"]


def submit(client, token, problem="patchify", source="def patchify(images, patch_size):\n    return images\n"):
    return client.post("/api/v1/submissions", json={"problem": problem, "source": source}, headers=auth(token))


# ---------------------------------------------------------------- submissions

def test_a_submission_is_accepted_queued_and_readable_by_its_owner(setup):
    client, tokens, queue, _, _ = setup
    response = submit(client, tokens["alice"])
    assert response.status_code == 202
    sid = response.json()["id"]
    assert set(response.json()) == {"id"} and queue.ids == [sid]
    body = client.get(f"/api/v1/submissions/{sid}", headers=auth(tokens["alice"])).json()
    assert (body["id"], body["status"], body["report"], body["problem"], body["user"]) == (
        sid, "queued", None, "patchify", "alice")


def test_one_learner_cannot_read_another_learners_submission(setup):
    client, tokens, _, _, _ = setup
    sid = submit(client, tokens["alice"]).json()["id"]
    for other in ("bob", "carol"):
        message = error(client.get(f"/api/v1/submissions/{sid}", headers=auth(tokens[other])), 404)
        assert message == f"no submission {sid!r} of yours"
        assert sid not in client.get("/api/v1/submissions", headers=auth(tokens[other])).text
    # A missing id reads the same as someone else's: ids cannot be probed.
    assert error(client.get("/api/v1/submissions/" + "0" * 32, headers=auth(tokens["bob"])), 404) == \
        f"no submission {'0' * 32!r} of yours"


def test_an_instructor_sees_their_course_and_not_other_courses(setup):
    client, tokens, _, _, _ = setup
    mine = {name: submit(client, tokens[name]).json()["id"] for name in ("alice", "bob", "carol")}
    listed = client.get("/api/v1/submissions", headers=auth(tokens["teach"])).json()["submissions"]
    assert sorted(s["id"] for s in listed) == sorted([mine["alice"], mine["bob"]])
    assert client.get(f"/api/v1/submissions/{mine['bob']}", headers=auth(tokens["teach"])).status_code == 200
    error(client.get(f"/api/v1/submissions/{mine['carol']}", headers=auth(tokens["teach"])), 404)


def test_the_source_is_readable_by_its_owner_and_their_instructor_only(setup, tmp_path):
    from click.testing import CliRunner

    from judge.cli.commands import main

    client, tokens, _, store, config = setup
    source = "def patchify(images, ph, pw):\n    return images  # \u202e mine\n"
    sid = submit(client, tokens["alice"], source=source).json()["id"]
    for reader in ("alice", "teach"):
        body = client.get(f"/api/v1/submissions/{sid}", headers=auth(tokens[reader])).json()
        assert body["source"] == source.replace("\u202e", "\\u202e")   # shown as every face shows it
    for other in ("bob", "carol"):
        error(client.get(f"/api/v1/submissions/{sid}", headers=auth(tokens[other])), 404)
    # The instructor's terminal: judge service show prints the source, who and what on stderr.
    store.claim(sid, "w", 60)
    from judge.base.report import Report, TestResult
    from judge.base.outcomes import Verdict

    store.finish(sid, Report("patchify", f"{sid}.py", [
        TestResult("t1", "hidden", Verdict.ACCEPTED),
        TestResult("t2", "hidden", Verdict.WRONG_ANSWER, message="off by one")]).to_json())
    runner = CliRunner()
    shown = runner.invoke(main, ["service", "--database", config.database_url, "show", sid])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == source.replace("\u202e", "\\u202e")
    assert shown.stderr.startswith("alice (ml101) on patchify, ") and shown.stderr.rstrip().endswith(": wrong_answer 1/2")
    with_report = runner.invoke(main, ["service", "--database", config.database_url, "show", sid, "--report"])
    assert "off by one" in with_report.stdout and "t2" in with_report.stdout
    as_json = json.loads(runner.invoke(main, ["service", "--database", config.database_url, "show", sid,
                                              "--json"]).stdout)
    assert as_json["source"] == source.replace("\u202e", "\\u202e") and as_json["report"]["passed"] == 1
    assert "the stored report" not in with_report.stderr
    [odd] = store.create(store.get(sid)[1], [("patchify", "x = 1")])
    store.claim(odd, "w", 60)
    store.finish(odd, {"verdict": "odd"})          # a report this judge cannot render is shown as stored
    odd = runner.invoke(main, ["service", "--database", config.database_url, "show", odd, "--report"])
    assert odd.exit_code == 0 and "the stored report is not one this judge renders" in odd.stderr
    assert '"verdict": "odd"' in odd.stdout
    missing = runner.invoke(main, ["service", "--database", config.database_url, "show", "nope"])
    assert missing.exit_code == 2 and missing.output.startswith("error: no submission 'nope'")


def test_listing_is_newest_first_paged_and_filtered_by_status(setup):
    client, tokens, _, store, _ = setup
    ids = [submit(client, tokens["alice"]).json()["id"] for _ in range(3)]
    store.claim(ids[0], "w", 60)
    store.finish(ids[0], {"verdict": "accepted"})
    listed = client.get("/api/v1/submissions", headers=auth(tokens["alice"])).json()["submissions"]
    assert [s["id"] for s in listed] == ids[::-1]
    assert all("report" not in s and "source" not in s for s in listed)
    page = client.get("/api/v1/submissions?limit=1&offset=1", headers=auth(tokens["alice"])).json()["submissions"]
    assert [s["id"] for s in page] == [ids[1]]
    done = client.get("/api/v1/submissions?status=done", headers=auth(tokens["alice"])).json()["submissions"]
    assert [(s["id"], s["verdict"]) for s in done] == [(ids[0], "accepted")]
    assert "status" in error(client.get("/api/v1/submissions?status=lost", headers=auth(tokens["alice"])), 422)
    assert "limit" in error(client.get("/api/v1/submissions?limit=0", headers=auth(tokens["alice"])), 422)


def test_a_batch_is_queued_in_order_or_not_at_all(setup):
    client, tokens, queue, store, _ = setup
    items = [{"problem": "patchify", "source": "a = 1"}, {"problem": "clip_loss", "source": "b = 2"}]
    response = client.post("/api/v1/submissions/batch", json={"submissions": items}, headers=auth(tokens["alice"]))
    assert response.status_code == 202
    ids = response.json()["ids"]
    assert queue.ids == ids and [store.get(i)[0].problem for i in ids] == ["patchify", "clip_loss"]
    bad = items + [{"problem": "nope", "source": "c"}]
    message = error(client.post("/api/v1/submissions/batch", json={"submissions": bad}, headers=auth(tokens["alice"])),
                    404)
    assert message.startswith("submissions.2.problem: no problem 'nope'")
    assert queue.ids == ids and len(store.visible_to(store.user_by_token_hash(
        __import__("judge.service.accounts", fromlist=["hash_token"]).hash_token(tokens["alice"])), limit=50)) == 2
    too_many = {"submissions": [items[0]] * 6}
    assert error(client.post("/api/v1/submissions/batch", json=too_many, headers=auth(tokens["alice"])), 413) == \
        "submissions: 6 in one batch; the limit is 5"
    assert "submissions" in error(client.post("/api/v1/submissions/batch", json={"submissions": []},
                                              headers=auth(tokens["alice"])), 422)


# ---------------------------------------------------------------- errors

def test_requests_without_a_valid_token_are_401(setup):
    client, tokens, queue, _, _ = setup
    for headers in ({}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "},
                    {"Authorization": "Bearer tj_not-a-token"}, {"Authorization": tokens["alice"]}):
        for method, path in (("get", "/api/v1/problems"), ("get", "/api/v1/problems/patchify"),
                             ("get", "/api/v1/submissions"), ("get", "/api/v1/submissions/x"),
                             ("post", "/api/v1/submissions"), ("post", "/api/v1/submissions/batch")):
            response = getattr(client, method)(path, headers=headers,
                                                **({"json": {"problem": "patchify", "source": ""}}
                                                   if method == "post" else {}))
            message = error(response, 401)
            assert message in ("missing token: send `Authorization: Bearer TOKEN`", "unknown, revoked, expired or disabled token")
            assert response.headers["www-authenticate"] == "Bearer"
    assert queue.ids == []


def test_unknown_problem_malformed_json_and_missing_fields_are_clear(setup):
    client, tokens, queue, _, _ = setup
    assert error(submit(client, tokens["alice"], problem="nope"), 404).startswith("problem: no problem 'nope'")
    headers = {**auth(tokens["alice"]), "Content-Type": "application/json"}
    assert "JSON" in error(client.post("/api/v1/submissions", content=b"{not json", headers=headers), 422)
    assert error(client.post("/api/v1/submissions", json={"problem": "patchify"}, headers=auth(tokens["alice"])),
                 422) == "source: Field required"
    assert error(client.post("/api/v1/submissions", json={"problem": "patchify", "source": 3},
                             headers=auth(tokens["alice"])), 422).startswith("source:")
    assert "NUL" in error(submit(client, tokens["alice"], source="x = 1\x00"), 422)
    assert queue.ids == []


def test_oversized_sources_and_bodies_are_413(setup):
    client, tokens, queue, _, config = setup
    big_source = "#" * (config.max_source_bytes + 1)
    assert error(submit(client, tokens["alice"], source=big_source), 413) == \
        f"source: {config.max_source_bytes + 1} bytes; the limit is {config.max_source_bytes}"
    huge = json.dumps({"problem": "patchify", "source": "#" * config.max_request_bytes})
    message = error(client.post("/api/v1/submissions", content=huge, headers={**auth(tokens["alice"]),
                                                                                "Content-Type": "application/json"}),
                    413)
    assert message == f"the request body is over {config.max_request_bytes} bytes"

    def chunks():  # no Content-Length: the cap holds on the bytes actually sent
        for _ in range(100):
            yield b"#" * 4096

    response = client.post("/api/v1/submissions", content=chunks(), headers={**auth(tokens["alice"]),
                                                                             "Content-Type": "application/json"})
    error(response, 413)
    assert queue.ids == []


def test_each_token_is_rate_limited_on_its_own(tmp_path, repo):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo), allowed_hosts=("testserver",),
                           rate_per_minute=6, rate_burst=3)
    store = Store(config.database_url)
    alice, bob = add_user(store, "alice").token, add_user(store, "bob").token
    with Judge(repo, record=False) as judge, TestClient(create_app(config, store, Recorded(), judge)) as client:
        assert [client.get("/api/v1/submissions", headers=auth(alice)).status_code for _ in range(3)] == [200] * 3
        limited = client.get("/api/v1/submissions", headers=auth(alice))
        assert error(limited, 429).startswith("rate limit of 6 requests per minute exceeded; retry in ")
        assert 1 <= int(limited.headers["retry-after"]) <= 10
        assert client.get("/api/v1/submissions", headers=auth(bob)).status_code == 200
    store.close()


def test_unknown_paths_and_methods_are_json_errors(setup):
    client, tokens, _, _, _ = setup
    assert error(client.get("/api/v1/nothing", headers=auth(tokens["alice"])), 404) == "Not Found"
    assert error(client.delete("/api/v1/submissions", headers=auth(tokens["alice"])), 405) == "Method Not Allowed"


# ---------------------------------------------------------------- problems, docs, health

def test_problems_are_listed_with_their_public_parts_only(setup, repo):
    client, tokens, _, _, _ = setup
    listed = client.get("/api/v1/problems", headers=auth(tokens["alice"])).json()["problems"]
    assert {p["id"] for p in listed} == set(Judge(repo).problem_ids()) >= {"clip_loss", "patchify", "unpatchify"}
    detail = client.get("/api/v1/problems/patchify", headers=auth(tokens["alice"])).json()
    assert set(detail) == {"id", "title", "difficulty", "tags", "framework", "entry_point", "signature", "statement",
                           "rules", "starter", "examples", "hints", "hint_levels", "limits"}
    assert detail["entry_point"] == "patchify" and detail["statement"]
    # The public examples as `judge show` prints them; no hint before one is asked for.
    first = detail["examples"][0]
    assert set(first) == {"name", "inputs", "output", "explanation"} and set(first["inputs"]) == {
        "images", "patch_height", "patch_width"} and first["output"]
    assert detail["hints"] == [] and detail["hint_levels"] >= 2
    assert all(set(rule) == {"id", "text"} for rule in detail["rules"])
    text = json.dumps(detail)
    hidden_names = [line.split(":", 1)[1].strip() for line in
                    (repo / "hidden_tests" / "patchify" / "tests.yaml").read_text().splitlines()
                    if line.strip().startswith("- name:")]
    assert hidden_names and not [n for n in hidden_names if f'"{n}"' in text]   # nothing hidden leaks
    assert error(client.get("/api/v1/problems/nope", headers=auth(tokens["alice"])), 404) == "no problem 'nope'"


def test_hints_are_given_one_level_at_a_time_per_learner(setup, repo):
    from judge.model.problem import load_problem

    client, tokens, _, _, _ = setup
    hints = [h.strip() for h in load_problem(repo, "patchify").hints]
    given = [client.post("/api/v1/problems/patchify/hints", headers=auth(tokens["alice"])).json()
             for _ in range(len(hints) + 1)]
    assert [(g["level"], g["text"], g["last"]) for g in given] == [
        *((n, hints[n - 1], n == len(hints)) for n in range(1, len(hints) + 1)), (len(hints), hints[-1], True)]
    shown = client.get("/api/v1/problems/patchify/hints", headers=auth(tokens["alice"])).json()
    assert [h["text"] for h in shown["shown"]] == hints and shown["levels"] == len(hints)
    assert client.get("/api/v1/problems/patchify", headers=auth(tokens["alice"])).json()["hints"] == hints
    # Bob has been given none: the key idea is not his until he has asked for every level before it.
    assert client.get("/api/v1/problems/patchify/hints", headers=auth(tokens["bob"])).json()["shown"] == []
    assert client.post("/api/v1/problems/patchify/hints", headers=auth(tokens["bob"])).json()["level"] == 1
    assert error(client.post("/api/v1/problems/nope/hints", headers=auth(tokens["bob"])), 404) == "no problem 'nope'"


def test_openapi_is_served_and_no_page_loads_from_a_cdn(setup):
    client, _, _, _, _ = setup
    spec = client.get("/api/v1/openapi.json").json()
    assert {"/api/v1/submissions", "/api/v1/submissions/{submission_id}", "/api/v1/submissions/batch",
            "/api/v1/problems", "/api/v1/problems/{problem_id}"} <= set(spec["paths"])
    for page in ("/docs", "/redoc", "/openapi.json"):
        assert client.get(page).status_code == 404
    assert client.get("/api/v1/health").json() == {"status": "ok", "database": "ok", "problems": 20, "broken": []}


# ---------------------------------------------------------------- judged end to end

def test_the_report_is_what_judge_run_json_gives(tmp_path, repo):
    """Through the in-process pool: the stored report equals `judge run --json` on the same file."""
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo), allowed_hosts=("testserver",))
    store = Store(config.database_url)
    token = add_user(store, "alice").token
    with Judge(repo, record=False) as worker_judge, Judge(repo, record=False) as api_judge:
        processor = Processor(config, store, worker_judge)
        pool = LocalPool(processor.process, threads=1)
        with TestClient(create_app(config, store, pool, api_judge)) as client:
            ids = {}
            for path in (PATCHIFY_OK, "submissions/patchify/wrong_answer/column_major.py"):
                source = (repo / path).read_text()
                ids[path] = submit(client, token, source=source).json()["id"]
            deadline = time.monotonic() + 120
            bodies = {}
            while len(bodies) < len(ids) and time.monotonic() < deadline:
                for path, sid in ids.items():
                    body = client.get(f"/api/v1/submissions/{sid}", headers=auth(token)).json()
                    if body["status"] == "done":
                        bodies[path] = body
                time.sleep(0.2)
        pool.close()
    store.close()
    assert len(bodies) == len(ids)
    for path, body in bodies.items():
        cli = subprocess.run([sys.executable, "-m", "judge", "run", "patchify", path, "--json"], cwd=repo,
                             capture_output=True, text=True, timeout=300)
        expected = json.loads(cli.stdout)
        got = body["report"]
        assert got["submission"] == f"{body['id']}.py"
        for report in (got, expected):  # where it ran and how long it took differ; nothing else may
            report.pop("submission"), report.pop("time_ms")
            for test in report["tests"]:
                test.pop("time_ms"), test.pop("cpu_ms")
        assert got == expected
    assert bodies[PATCHIFY_OK]["verdict"] == "accepted"
