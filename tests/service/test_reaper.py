"""The reaper re-sends expired leases always, and queued work only when the queue has lost messages."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

import time

from judge.service.config import ServiceConfig
from judge.service.reaper import Reaper, reap_once
from judge.service.storage import Store


class Held:
    """A queue holding `count` messages, recording what it is sent."""

    def __init__(self, count: int | None):
        self.count, self.sent = count, []

    def enqueue(self, submission_id: str) -> bool:
        self.sent.append(submission_id)
        return True

    def held(self) -> int | None:
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
