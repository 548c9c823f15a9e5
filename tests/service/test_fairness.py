"""Fair shares and bounds: one learner's backlog delays another's submission by about one judging per worker,
and nobody queues more than their quota (count and bytes), on SQLite and PostgreSQL, through the pool and Redis."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from judge.service.accounts import add_user  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.queue import LocalPool  # noqa: E402
from judge.service.storage import DONE, Quota, QuotaExceeded, Store  # noqa: E402
from judge.service.worker import Processor  # noqa: E402

WRONG = "submissions/patchify/wrong_answer/column_major.py"


def _learners(store: Store, *names: str):
    return [store.add_user(name, "learner", "ml101", name[0] * 64) for name in names]


def _drain(store: Store, workers: int) -> list[str]:
    """Claim and finish everything with `workers` simulated workers taking turns; owners in claim order."""
    order = []
    held: list = []
    while True:
        while len(held) < workers and (s := store.claim_next(f"w{len(held)}", lease_s=60)) is not None:
            held.append(s)
            order.append(s.user)
        if not held:
            return order
        done = held.pop(0)
        store.finish(done.id, {"verdict": "accepted"})


@pytest.mark.parametrize("workers", [1, 2])
def test_a_single_submission_waits_for_at_most_one_of_a_backlog_per_worker(store, workers):
    alice, bob = _learners(store, "alice", "bob")
    store.create(alice, [("patchify", f"# {i}") for i in range(200)])
    store.create(bob, [("patchify", "# bob's only one")])
    order = _drain(store, workers)
    assert len(order) == 201 and order.count("bob") == 1
    assert order.index("bob") <= workers    # before him: at most one of alice's per worker


def test_learners_with_backlogs_take_turns(store):
    alice, bob, carol = _learners(store, "alice", "bob", "carol")
    for user in (alice, bob, carol):            # alice's first, bob's next, carol's last
        store.create(user, [("patchify", f"# {user.name} {i}") for i in range(4)])
    assert _drain(store, 1) == ["alice", "bob", "carol"] * 4


def test_a_quota_bounds_unfinished_submissions_and_their_bytes(store):
    alice, bob = _learners(store, "alice", "bob")
    quota = Quota(submissions=3, source_bytes=100)
    store.create(alice, [("patchify", "a" * 10)] * 2, quota)
    with pytest.raises(QuotaExceeded, match=r"^2 of your submissions are still queued or running and the limit is 3; "
                                            r"2 more would pass it: wait for 1 to finish$"):
        store.create(alice, [("patchify", "b")] * 2, quota)     # all or nothing
    store.create(bob, [("patchify", "c")] * 3, quota)           # bob's bound is his own
    store.create(alice, [("patchify", "d")], quota)             # exactly at the bound
    with pytest.raises(QuotaExceeded):
        store.create(alice, [("patchify", "e")], quota)
    claimed = store.claim_next("w", lease_s=60)
    assert claimed.user == "alice"
    with pytest.raises(QuotaExceeded):
        store.create(alice, [("patchify", "e")], quota)         # running still counts
    store.finish(claimed.id, {"verdict": "accepted"})
    store.create(alice, [("patchify", "e")], quota)             # one finished: room for one
    assert [s.source for s in store.all() if s.user == "alice" and s.status != DONE].count("e") == 1
    with pytest.raises(QuotaExceeded, match="hold 12 bytes of source and the limit is 100; 90 more would pass it"):
        store.create(alice, [("patchify", "é" * 45)], Quota(submissions=99, source_bytes=100))   # UTF-8 bytes


def test_concurrent_requests_of_one_learner_cannot_pass_the_quota_together(store):
    [alice] = _learners(store, "alice")
    quota = Quota(submissions=5, source_bytes=1 << 20)
    results: list[str] = []

    def post() -> None:
        try:
            store.create(alice, [("patchify", "x")], quota)
            results.append("stored")
        except QuotaExceeded:
            results.append("refused")

    threads = [threading.Thread(target=post) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(results) == ["refused"] * 7 + ["stored"] * 5
    assert len(store.pending()) == 5


def test_the_in_process_pool_serves_a_single_submission_before_a_backlog(tmp_path, repo, judge):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo))
    store = Store(config.database_url)
    alice, bob = add_user(store, "alice").user, add_user(store, "bob").user
    source = (repo / WRONG).read_text()
    backlog = store.create(alice, [("patchify", source)] * 12)
    [single] = store.create(bob, [("patchify", source)])
    pool = LocalPool(Processor(config, store, judge).process, threads=1)
    try:
        for sid in backlog + [single]:          # first in, first out: bob's id comes last
            pool.enqueue(sid)
        deadline = time.monotonic() + 180
        while store.unfinished() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        pool.close()
    done = sorted(store.all(), key=lambda s: s.finished_at or float("inf"))
    assert all(s.status == DONE and s.verdict == "wrong_answer" for s in done)
    assert [s.user for s in done].index("bob") <= 1
    store.close()


def test_dramatiq_workers_serve_a_single_submission_before_a_backlog(tmp_path, repo, redis):
    from judge.service.queue import RedisQueue

    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(database)
    alice, bob = add_user(store, "alice").user, add_user(store, "bob").user
    source = (repo / WRONG).read_text()
    queue = RedisQueue(redis.url)
    for sid in store.create(alice, [("patchify", source)] * 12) + store.create(bob, [("patchify", source)]):
        queue.enqueue(sid)                      # bob's message is the last in Redis
    queue.close()
    env = {**os.environ, "JUDGE_SERVICE_DATABASE": database, "JUDGE_SERVICE_REDIS": redis.url,
           "JUDGE_PROBLEMS_DIR": str(repo), "JUDGE_HOME": str(tmp_path / "home")}
    workers = subprocess.Popen([sys.executable, "-m", "judge", "service", "worker", "--processes", "1"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while store.unfinished() and time.monotonic() < deadline:
            time.sleep(0.5)
    finally:
        workers.terminate()
        try:
            workers.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(workers.pid, 9)
            workers.wait()
    done = sorted(store.all(), key=lambda s: s.finished_at or float("inf"))
    assert all(s.status == DONE and s.verdict == "wrong_answer" for s in done), store.counts()
    assert [s.user for s in done].index("bob") <= 1
    store.close()
