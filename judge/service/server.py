"""`judge service`: the API, its reaper, and (without Redis) the in-process worker pool, in one process."""
from __future__ import annotations

import logging
from dataclasses import dataclass

from judge.service.config import ServiceConfig
from judge.service.queue import LocalPool, Queue, RedisQueue
from judge.service.reaper import Reaper
from judge.service.storage import Store


@dataclass
class Service:
    """Everything `judge service` runs; `close` stops it all."""

    config: ServiceConfig
    store: Store
    queue: Queue
    reaper: Reaper
    app: object
    processor: object | None = None   # the in-process pool's judge (no Redis)

    def close(self) -> None:
        self.reaper.stop()
        self.queue.close()
        if self.processor is not None:
            self.processor.close()
        self.store.close()


def build(config: ServiceConfig, *, pool_threads: int = 2) -> Service:
    from judge.service.api import create_app
    from judge.session import Judge

    from dataclasses import replace

    from judge.batch import child_threads

    if config.sandbox_threads is None:  # the pool's threads share the cores, as in `judge grade`
        config = replace(config, sandbox_threads=child_threads(pool_threads))
    store = Store(config.database_url)
    processor = None
    if config.redis_url:
        queue: Queue = RedisQueue(config.redis_url)
    else:
        from judge.service.worker import new_processor

        processor = new_processor(config)
        queue = LocalPool(processor.process, pool_threads)
    for submission_id in store.pending():  # left unfinished by a previous run: judge them now
        queue.enqueue(submission_id)
    reaper = Reaper(store, queue, config).start()
    app = create_app(config, store, queue, Judge(config.problems_dir, record=False))
    return Service(config, store, queue, reaper, app, processor)


def serve(config: ServiceConfig, host: str, port: int, *, pool_threads: int = 2) -> None:
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    service = build(config, pool_threads=pool_threads)
    try:
        uvicorn.run(service.app, host=host, port=port, log_level="warning")
    finally:
        service.close()
