"""The reaper: enqueue again what a dead worker or a lost message left unfinished.

A message is a turn to judge, not an order (`Processor.process` claims the
fairest queued submission), so every queued submission needs one turn waiting.
Turns get lost: a worker killed mid-judging leaves its submission "running" past
its lease and takes the messages it had fetched ahead with it; a consumer that
loses its Redis connection drops what it had fetched; a Redis restart loses
them all. Redis' own bookkeeping cannot tell these apart from live ones (a lost
turn stays "unacknowledged" until Dramatiq happens to sweep it up), so the reaper
counts: every `reap_every_s` it re-sends each expired lease, and when fewer turns
wait in the queue than the database has queued submissions, that many turns for
the ones queued longest. A turn too many costs one query that finds nothing to
claim; running the reaper in several places at once is as harmless.
"""
from __future__ import annotations

import logging
import threading

from judge.service.config import ServiceConfig
from judge.service.faults import PASSING, describe
from judge.service.queue import Queue
from judge.service.storage import Store

log = logging.getLogger("judge.service.reaper")


def reap_once(store: Store, queue: Queue, config: ServiceConfig) -> int:
    """Enqueue again what needs it; how many ids were sent.

    Queued submissions are re-sent only for the turns missing from the queue, and only once they
    have waited `requeue_after_s`: a long but intact backlog gets nothing (its turns wait in
    the queue), and a worker's few fetched-ahead turns cost at most as many spare ones.
    """
    waiting = queue.waiting()        # read first: a turn taken in between then shows as queued work done
    missing = None if waiting is None else max(0, store.queued() - waiting)
    ids = store.stale(config.requeue_after_s, queued_limit=missing)
    sent = sum(queue.enqueue(i) for i in ids)
    if ids:
        log.info("re-enqueued %d of %d submissions (expired leases, or turns missing from the queue)",
                 sent, len(ids))
    return len(ids)


class Reaper:
    """A background thread calling `reap_once` until stopped."""

    def __init__(self, store: Store, queue: Queue, config: ServiceConfig):
        self._store, self._queue, self._config = store, queue, config
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="judge-reaper", daemon=True)

    def start(self) -> "Reaper":
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self._config.reap_every_s):
            try:
                reap_once(self._store, self._queue, self._config)
            except PASSING as exc:  # the database restarting: one line, and the next sweep tries again
                log.warning("reaping failed (%s); the next sweep tries again", describe(exc))
            except Exception:  # a bug: its traceback, and reaping goes on
                log.exception("reaping failed")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
