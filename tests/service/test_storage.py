"""The store's transitions on SQLite and PostgreSQL: one claim wins, the first result stays, stale work is found."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

import threading
import time


from judge.base.errors import ConfigError
from judge.service.storage import DONE, QUEUED, RUNNING, Store


def _users(store: Store):
    alice = store.add_user("alice", "learner", "ml101", "a" * 64)
    bob = store.add_user("bob", "learner", "ml101", "b" * 64)
    carol = store.add_user("carol", "learner", "other", "c" * 64)
    teacher = store.add_user("teach", "instructor", "ml101", "d" * 64)
    return alice, bob, carol, teacher


def test_a_new_submission_is_queued_with_its_source(store):
    alice, *_ = _users(store)
    [sid] = store.create(alice, [("patchify", "def patchify(x, p): ...")])
    submission, owner = store.get(sid)
    assert (submission.status, submission.problem, submission.source, owner.name) == (
        QUEUED, "patchify", "def patchify(x, p): ...", "alice")
    assert submission.report is None and submission.attempts == 0
    assert store.get("no-such-id") is None


def test_only_one_of_many_concurrent_claims_wins(store):
    alice, *_ = _users(store)
    [sid] = store.create(alice, [("patchify", "x = 1")])
    wins, barrier = [], threading.Barrier(8)

    def claim(i: int) -> None:
        barrier.wait()
        if store.claim(sid, f"w{i}", lease_s=60) is not None:
            wins.append(i)

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1
    submission, _ = store.get(sid)
    assert submission.status == RUNNING and submission.attempts == 1


def test_an_expired_lease_can_be_claimed_again_and_a_done_submission_never(store):
    alice, *_ = _users(store)
    [sid] = store.create(alice, [("patchify", "x = 1")])
    # A lease long enough to outlast a claim on a loaded machine (a claim also stamps its owner's row).
    assert store.claim(sid, "w1", lease_s=1.0) is not None
    assert store.claim(sid, "w2", lease_s=60) is None          # the lease holds
    time.sleep(1.1)
    again = store.claim(sid, "w2", lease_s=60)                  # the lease ran out: a dead worker's
    assert again is not None and again.attempts == 2
    assert store.finish(sid, {"verdict": "accepted", "tests": []})
    assert store.claim(sid, "w3", lease_s=60) is None


def test_the_first_result_stays(store):
    alice, *_ = _users(store)
    [sid] = store.create(alice, [("patchify", "x = 1")])
    store.claim(sid, "w1", lease_s=60)
    assert store.finish(sid, {"verdict": "wrong_answer", "passed": 3})
    assert not store.finish(sid, {"verdict": "accepted", "passed": 9})
    submission, _ = store.get(sid)
    assert (submission.status, submission.verdict, submission.report) == (
        DONE, "wrong_answer", {"verdict": "wrong_answer", "passed": 3})
    assert submission.finished_at is not None
    assert (submission.extra_judgings, submission.conflicting_judgings) == (1, 1)   # counted, never stored
    assert not store.finish(sid, {"verdict": "wrong_answer", "passed": 3})
    assert store.get(sid)[0].extra_judgings == 2 and store.get(sid)[0].conflicting_judgings == 1


def test_stale_finds_expired_leases_and_long_queued_work_once(store):
    alice, *_ = _users(store)
    fresh, expired, waiting = store.create(alice, [("p", "1"), ("p", "2"), ("p", "3")])
    store.claim(expired, "dead", lease_s=0.01)
    store.claim(fresh, "alive", lease_s=60)
    time.sleep(0.3)
    assert store.queued() == 1
    assert sorted(store.stale(requeue_after_s=0.2)) == sorted([expired, waiting])
    assert store.get(expired)[0].status == QUEUED             # back in the queue, claimable again
    assert store.queued() == 2
    assert store.stale(requeue_after_s=0.2) == []             # stamped: not re-sent on the next sweep
    assert store.get(fresh)[0].status == RUNNING
    assert sorted(store.pending()) == sorted([fresh, expired, waiting])


def test_stale_sends_at_most_the_queued_limit_oldest_first_and_every_expired_lease(store):
    alice, *_ = _users(store)
    *queued, expired = store.create(alice, [("p", str(i)) for i in range(4)])
    store.claim(expired, "dead", lease_s=0.01)
    time.sleep(0.3)
    assert store.stale(requeue_after_s=0.2, queued_limit=0) == [expired]
    two = store.stale(requeue_after_s=0.2, queued_limit=2)
    assert len(two) == 2 and set(two) < set(queued)
    # The one not sent has waited longest now; then those stamped by the sweeps, in their order.
    [left] = set(queued) - set(two)
    assert store.stale(requeue_after_s=0.0, queued_limit=5)[:2] == [left, expired]


def test_learners_see_their_own_and_instructors_their_course(store):
    alice, bob, carol, teacher = _users(store)
    a = store.create(alice, [("p", "a")])
    b = store.create(bob, [("p", "b")])
    c = store.create(carol, [("p", "c")])
    ids = lambda user: sorted(s.id for s in store.visible_to(user, limit=50))  # noqa: E731
    assert ids(alice) == a and ids(bob) == b and ids(carol) == c
    assert ids(teacher) == sorted(a + b)
    assert all(s.source == "" for s in store.visible_to(teacher, limit=50))   # listings carry no code
    assert store.visible_to(alice, limit=50, status=DONE) == []


def test_duplicate_user_names_are_one_line_errors(store):
    store.add_user("alice", "learner", "", "a" * 64)
    with pytest.raises(ConfigError, match="user 'alice' already exists"):
        store.add_user("alice", "learner", "", "e" * 64)


def test_an_unusable_database_url_is_a_one_line_error(tmp_path):
    with pytest.raises(ConfigError, match="database") as info:
        Store("nosuchdialect://x")
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match="database"):
        Store(f"sqlite:///{tmp_path}/missing/dir/db.sqlite3")
