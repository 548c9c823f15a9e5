"""Handing submission ids to workers: Dramatiq over Redis, or an in-process pool.

Both carry only ids and deliver them at least once; what a delivery does is
decided by the database (`Store.claim`/`finish`), so a duplicate costs one
UPDATE and a lost message is found again by the reaper.
"""
from __future__ import annotations

import logging
import queue as stdqueue
import threading
from typing import TYPE_CHECKING, Callable, Protocol

from judge.service.faults import PASSING, describe

if TYPE_CHECKING:
    from dramatiq.brokers.redis import RedisBroker

log = logging.getLogger("judge.service.queue")

QUEUE_NAME = "judge"
ACTOR_NAME = "judge_submission"
# A dead consumer's unacknowledged messages may go back to the queue after this long, but only when
# Dramatiq's occasional sweep (one command in a thousand) runs; the reaper does not wait for it: it
# counts the turns waiting against the database's queued submissions (judge/service/reaper.py).
HEARTBEAT_TIMEOUT_MS = 15_000


class Queue(Protocol):
    def enqueue(self, submission_id: str) -> bool:
        """Hand the id on; False when it could not be (the reaper will try again)."""

    def waiting(self) -> int | None:
        """Messages not yet taken by a worker; None if it cannot say. (A taken one is in use, or lost
        with its worker: only the database can tell, so the reaper counts these against it.)"""

    def close(self) -> None: ...


class LocalPool:
    """`threads` threads in this process, each judging one submission at a time (no Redis needed)."""

    def __init__(self, process: Callable[[str], object], threads: int):
        self._process = process
        self._ids: stdqueue.SimpleQueue[str | None] = stdqueue.SimpleQueue()
        self._waiting = 0
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, name=f"judge-pool-{i}", daemon=True)
                         for i in range(max(1, threads))]
        for thread in self._threads:
            thread.start()

    def enqueue(self, submission_id: str) -> bool:
        with self._lock:
            self._waiting += 1
        self._ids.put(submission_id)
        return True

    def waiting(self) -> int:
        with self._lock:
            return self._waiting

    def _run(self) -> None:
        while (submission_id := self._ids.get()) is not None:
            with self._lock:
                self._waiting -= 1
            try:
                self._process(submission_id)
            except PASSING as exc:  # one line; the reaper sends the submission again
                log.warning("turn %s failed (%s); the reaper sends it again", submission_id, describe(exc))
            except Exception:  # a bug: its traceback; one failure must not stop the pool
                log.exception("judging %s failed", submission_id)

    def close(self) -> None:
        for _ in self._threads:
            self._ids.put(None)
        for thread in self._threads:
            thread.join(timeout=30)


def make_broker(url: str) -> RedisBroker:
    """A Dramatiq broker on Redis at `url`, with the middleware the judge's workers and senders share."""
    from dramatiq.brokers.redis import RedisBroker
    from dramatiq.middleware import AgeLimit, Callbacks, Pipelines, Retries, ShutdownNotifications

    # No TimeLimit middleware: the sandbox enforces every time limit, and an exception raised into a
    # judging thread from outside could interrupt it between claiming and storing the result.
    middleware = [m() for m in (AgeLimit, ShutdownNotifications, Callbacks, Pipelines, Retries)]
    return RedisBroker(url=url, middleware=middleware, heartbeat_timeout=HEARTBEAT_TIMEOUT_MS)


class RedisQueue:
    """Dramatiq messages on Redis, for `judge service worker` processes on any machine."""

    def __init__(self, url: str):
        self.broker = make_broker(url)

    def enqueue(self, submission_id: str) -> bool:
        import redis
        from dramatiq import Message
        from dramatiq import errors

        BrokerConnectionError = getattr(errors, "BrokerConnectionError", None) or errors.ConnectionError

        message = Message(queue_name=QUEUE_NAME, actor_name=ACTOR_NAME, args=(submission_id,), kwargs={},
                          options={})
        try:
            self.broker.enqueue(message)
            return True
        except (BrokerConnectionError, redis.RedisError, OSError) as exc:
            log.warning("could not enqueue %s (%s); the reaper will", submission_id, exc)
            return False

    def waiting(self) -> int | None:
        """Messages in Redis that no worker has fetched: the queue's list and its retries' list.

        Not the messages fetched and unacknowledged (Dramatiq's `.msgs` hash): those of a killed
        worker, or of a consumer that lost its connection, stay there though no one will judge them.
        """
        import redis

        keys = [f"{self.broker.namespace}:{QUEUE_NAME}", f"{self.broker.namespace}:{QUEUE_NAME}.DQ"]
        try:
            return sum(self.broker.client.llen(key) for key in keys)
        except (redis.RedisError, OSError):
            return None

    def close(self) -> None:
        self.broker.close()
