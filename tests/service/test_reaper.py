"""The reaper re-sends expired leases always, and queued work only for the turns missing from the queue."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

import time

from judge.service.config import ServiceConfig
from judge.service.reaper import Reaper, reap_once
from judge.service.storage import Store


class Held:
    """A queue with `count` messages waiting, recording what it is sent."""

    def __init__(self, count: int | None):
        self.count, self.sent = count, []

    def enqueue(self, submission_id: str) -> bool:
        self.sent.append(submission_id)
        return True

    def waiting(self) -> int | None:
        return self.count

    def close(self) -> None:
        pass


def _setup(tmp_path):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", requeue_after_s=0.05,
                           reap_every_s=0.05)
    store = Store(config.database_url)
    user = store.add_user("alice", "learner", "", "a" * 64)
    return config, store, user


def test_an_expired_lease_is_sent_again_even_when_the_queue_is_intact(tmp_path):
    config, store, user = _setup(tmp_path)
    running, waiting = store.create(user, [("p", "1"), ("p", "2")])
    store.claim(running, "dead", lease_s=0.01)
    time.sleep(0.1)
    queue = Held(count=2)                        # both messages still in Redis
    assert reap_once(store, queue, config) == 1
    assert queue.sent == [running]


def test_turns_missing_from_the_queue_are_sent_for_the_longest_queued_only(tmp_path):
    config, store, user = _setup(tmp_path)
    ids = store.create(user, [("p", str(i)) for i in range(5)])
    time.sleep(0.1)
    # Five queued, three turns waiting: a killed worker took two it had fetched ahead.
    queue = Held(count=3)
    assert reap_once(store, queue, config) == 2 and set(queue.sent) < set(ids)
    # Sent, and stamped: the next sweep, with the turns back in the queue, sends nothing more.
    queue = Held(count=5)
    assert reap_once(store, queue, config) == 0 and queue.sent == []
    # An intact backlog (as many turns waiting as queued) gets nothing, however long it waits.
    time.sleep(0.1)
    assert reap_once(store, Held(count=5), config) == 0


def test_queued_work_is_sent_again_when_the_queue_lost_its_messages(tmp_path):
    config, store, user = _setup(tmp_path)
    ids = store.create(user, [("p", "1"), ("p", "2")])
    time.sleep(0.1)
    for held in (0, None):                       # Redis restarted empty; or cannot be asked
        queue = Held(held)
        store.engine.dispose()
        assert reap_once(store, queue, config) == 2 and sorted(queue.sent) == sorted(ids)
        time.sleep(0.1)


def test_the_reaper_thread_sweeps_until_stopped(tmp_path):
    config, store, user = _setup(tmp_path)
    [sid] = store.create(user, [("p", "1")])
    queue = Held(0)
    reaper = Reaper(store, queue, config).start()
    deadline = time.monotonic() + 10
    while not queue.sent and time.monotonic() < deadline:
        time.sleep(0.02)
    reaper.stop()
    assert queue.sent[:1] == [sid]
    count = len(queue.sent)
    time.sleep(0.2)
    assert len(queue.sent) == count
