"""The API's bounds and refusals: quotas (429 + Retry-After), revoked and expired tokens (401 at once),
unknown tokens rate limited, Host checked, and JSON errors for bad Unicode, huge offsets and a database down."""
from __future__ import annotations

import time

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from judge.service.accounts import add_user, revoke, rotate  # noqa: E402
from judge.service.api import create_app  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.storage import Store  # noqa: E402
from judge.judging.session import Judge  # noqa: E402

from servers import Missing, postgres_cluster  # noqa: E402


class Recorded:
    def __init__(self):
        self.ids: list[str] = []

    def enqueue(self, submission_id: str) -> bool:
        self.ids.append(submission_id)
        return True

    def close(self) -> None:
        pass


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def error(response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and body["error"]["status"] == status
    return body["error"]["message"]


@pytest.fixture
def api(tmp_path, repo):
    def make(**settings):
        config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo),
                               allowed_hosts=("testserver",), **settings)
        store = Store(config.database_url)
        stores.append(store)
        judge = Judge(repo, record=False)
        judges.append(judge)
        queue = Recorded()
        client = TestClient(create_app(config, store, queue, judge), raise_server_exceptions=False)
        return client, store, queue

    stores, judges = [], []
    yield make
    for judge in judges:
        judge.close()
    for store in stores:
        store.close()


def post(client, token, source="def patchify(images, ph, pw):\n    return images\n", **extra):
    return client.post("/api/v1/submissions", json={"problem": "patchify", "source": source}, headers=auth(token),
                       **extra)


# ---------------------------------------------------------------- quotas

def test_queued_work_past_the_quota_is_429_with_retry_after(api):
    client, store, queue = api(max_queued=3, max_queued_bytes=10_000)
    alice, bob = add_user(store, "alice").token, add_user(store, "bob").token
    assert [post(client, alice).status_code for _ in range(3)] == [202] * 3
    refused = post(client, alice)
    assert error(refused, 429).startswith("3 of your submissions are still queued or running and the limit is 3")
    assert 1 <= int(refused.headers["retry-after"]) <= 300
    batch = client.post("/api/v1/submissions/batch", headers=auth(bob),
                        json={"submissions": [{"problem": "patchify", "source": "x = 1"}] * 4})
    assert error(batch, 429).startswith("0 of your submissions are still queued or running")   # all or none
    assert post(client, bob).status_code == 202                 # bob's bound is his own
    assert len(queue.ids) == 4 and len(store.pending()) == 4


def test_queued_bytes_past_the_quota_are_429(api):
    client, store, _ = api(max_queued=100, max_queued_bytes=3000)
    alice = add_user(store, "alice").token
    assert post(client, alice, source="#" * 2000).status_code == 202
    message = error(post(client, alice, source="#" * 1500), 429)
    assert message.startswith("your queued and running submissions hold 2000 bytes of source and the limit is 3000")
    assert post(client, alice, source="#" * 900).status_code == 202


# ---------------------------------------------------------------- tokens

def test_a_revoked_token_is_refused_at_once_and_a_rotated_one_replaces_it(api):
    client, store, _ = api()
    old = add_user(store, "alice").token
    assert client.get("/api/v1/submissions", headers=auth(old)).status_code == 200
    revoke(store, "alice")
    assert error(client.get("/api/v1/submissions", headers=auth(old)), 401) == "unknown, revoked, expired or disabled token"
    new = rotate(store, "alice").token
    assert client.get("/api/v1/submissions", headers=auth(new)).status_code == 200
    assert error(client.get("/api/v1/submissions", headers=auth(old)), 401)
    newer = rotate(store, "alice").token                        # rotating again ends the previous one
    assert error(client.get("/api/v1/submissions", headers=auth(new)), 401)
    assert client.get("/api/v1/submissions", headers=auth(newer)).status_code == 200


def test_an_expired_token_is_refused(api):
    client, store, _ = api()
    token = add_user(store, "alice", expires_at=time.time() + 1.0).token
    assert client.get("/api/v1/submissions", headers=auth(token)).status_code == 200
    time.sleep(1.1)
    assert error(client.get("/api/v1/submissions", headers=auth(token)), 401) == "unknown, revoked, expired or disabled token"


def test_unknown_tokens_are_rate_limited_per_client_before_any_lookup(api):
    client, store, _ = api(auth_failures_per_minute=6, auth_failures_burst=3)
    bad = {"Authorization": "Bearer tj_" + "A" * 43}
    assert [client.get("/api/v1/submissions", headers=bad).status_code for _ in range(3)] == [401] * 3
    limited = client.get("/api/v1/submissions", headers=bad)
    assert "too many requests with unknown tokens" in error(limited, 429)
    assert 1 <= int(limited.headers["retry-after"]) <= 11
    calls = []
    original = store.user_by_token_hash
    store.user_by_token_hash = lambda h: calls.append(h) or original(h)   # count the lookups that follow
    for _ in range(20):
        assert client.get("/api/v1/submissions", headers=bad).status_code == 429
    assert calls == []                                           # refused before the database is asked


# ---------------------------------------------------------------- hosts and bad input

def test_only_allowed_host_names_are_served(api):
    client, store, _ = api()
    token = add_user(store, "alice").token
    assert client.get("/api/v1/health").status_code == 200
    message = error(client.get("/api/v1/health", headers={"Host": "evil.example"}), 400)
    assert message.startswith("Host 'evil.example' is not served here")
    assert error(client.post("/api/v1/submissions", headers={**auth(token), "Host": "evil.example:8000"},
                             json={"problem": "patchify", "source": "x"}), 400)
    assert store.pending() == []


def test_host_patterns(tmp_path, repo):
    from judge.service.guards import HostCheck

    check = HostCheck(None, ("judge.example.org", "*.example.net", "::1"))
    assert check.ok("judge.example.org") and check.ok("JUDGE.example.org:443") and check.ok("a.example.net")
    assert check.ok("[::1]:8000")
    assert not check.ok("example.net") and not check.ok("judge.example.org.evil") and not check.ok("")
    assert HostCheck(None, ("*",)).ok("anything")


def test_a_lone_surrogate_in_the_source_is_a_json_422(api):
    client, store, _ = api()
    token = add_user(store, "alice").token
    body = '{"problem": "patchify", "source": "def patchify(x, a, b):\\n    return x  # \\ud800"}'
    response = client.post("/api/v1/submissions", content=body,
                           headers={**auth(token), "Content-Type": "application/json"})
    assert error(response, 422).startswith("source: not valid Unicode (a lone surrogate at character ")
    surrogate_problem = client.post("/api/v1/submissions", content='{"problem": "\\udcff", "source": "x"}',
                                    headers={**auth(token), "Content-Type": "application/json"})
    assert error(surrogate_problem, 422).startswith("problem: ")
    assert store.pending() == []


def test_an_offset_past_any_integer_is_a_json_422(api):
    client, store, _ = api()
    token = add_user(store, "alice").token
    for offset in (2 ** 63, 2 ** 64 + 5, 10 ** 30):
        assert error(client.get(f"/api/v1/submissions?offset={offset}", headers=auth(token)), 422).startswith(
            "query.offset: ")
    assert client.get(f"/api/v1/submissions?offset={2 ** 31}", headers=auth(token)).json() == {"submissions": []}


def test_an_unexpected_failure_is_a_json_500(api):
    client, store, _ = api()
    token = add_user(store, "alice").token
    store.visible_to = lambda *a, **k: 1 / 0
    assert error(client.get("/api/v1/submissions", headers=auth(token)), 500) == "internal error (ZeroDivisionError)"


def test_while_the_database_is_down_requests_are_503_with_retry_after(repo):
    try:
        cluster = postgres_cluster()
        server = cluster.__enter__()
    except Missing as exc:
        pytest.skip(str(exc))
    try:
        config = ServiceConfig(database_url=server.url, problems_dir=str(repo), allowed_hosts=("testserver",))
        store = Store(config.database_url)
        token = add_user(store, "alice").token
        with Judge(repo, record=False) as judge:
            client = TestClient(create_app(config, store, Recorded(), judge), raise_server_exceptions=False)
            assert post(client, token).status_code == 202
            server.stop()
            for response in (post(client, token), client.get("/api/v1/submissions", headers=auth(token)),
                             client.get("/api/v1/health")):
                assert error(response, 503) == "the database does not answer; nothing was stored: retry later"
                assert response.headers["retry-after"] == "5"
            server.start()
            deadline = time.monotonic() + 30
            while (status := post(client, token).status_code) == 503 and time.monotonic() < deadline:
                time.sleep(0.5)
            assert status == 202                                    # back by itself once the database is
            assert len(store.pending()) == 2
        store.close()
    finally:
        cluster.__exit__(None, None, None)
