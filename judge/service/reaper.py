"""The reaper: enqueue again what a dead worker or a lost message left unfinished.

A worker killed mid-judging leaves its submission "running" past its lease; a
Redis restart loses queued messages (seen as the queue holding fewer messages
than the database has unfinished submissions). Every `reap_every_s` the reaper asks the
database (`Store.stale`) and enqueues those ids again. Running it in several
places at once is harmless: a duplicate id is skipped by `Store.claim`.
"""
from __future__ import annotations

import logging
import threading

from judge.service.config import ServiceConfig
from judge.service.queue import Queue
from judge.service.storage import Store

log = logging.getLogger("judge.service.reaper")


def reap_once(store: Store, queue: Queue, config: ServiceConfig) -> int:
    """Enqueue again what needs it; how many ids were sent.

    Queued submissions are re-sent only when the queue holds fewer messages than there are
    unfinished submissions (e.g. Redis restarted empty): re-sending a long but intact backlog
    every `requeue_after_s` would only make work for the workers.
    """
    held = queue.held()
    messages_lost = held is None or held < store.unfinished()
    ids = store.stale(config.requeue_after_s if messages_lost else None)
    sent = sum(queue.enqueue(i) for i in ids)
    if ids:
        log.info("re-enqueued %d of %d unfinished submissions", sent, len(ids))
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
            except Exception:  # a database hiccup: try again next sweep rather than stop reaping
                log.exception("reaping failed")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
