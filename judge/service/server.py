"""`judge service`: the API, its reaper, and (without Redis) the in-process worker pool, in one process."""
from __future__ import annotations

import json
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
    from judge.judging.session import Judge

    from dataclasses import replace

    from judge.judging.batch import child_threads

    if config.sandbox_threads is None:  # the pool's threads share the cores, as in `judge grade`
        config = replace(config, sandbox_threads=child_threads(pool_threads))
    api_judge = Judge(config.problems_dir, record=False)
    try:
        check_problem_set(api_judge.problem_set)      # before anything starts: a broken set serves nothing
    except BaseException:
        api_judge.close()
        raise
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
    app = create_app(config, store, queue, api_judge)
    return Service(config, store, queue, reaper, app, processor)


def check_problem_set(problems) -> None:
    """Raise the ConfigError a request would meet when the problem set cannot be used at all (an id in
    two sets, a pack that cannot be found): the service refuses to start rather than answer 500s. One
    broken problem is no such error: the others are served and /health names it."""
    problems.ids()


def guarded_protocol(read_timeout_s: float, max_connections: int):
    """uvicorn's h11 protocol with a deadline on reading each request and a cap on open connections.

    uvicorn closes a connection idle between requests (`timeout_keep_alive`) but waits for ever
    for a request's headers or body to arrive: a client sending one byte a minute holds a
    connection for good. Here each request must arrive whole within `read_timeout_s` of its
    connection opening or of the previous response; a connection past `max_connections` is
    answered 503 (JSON) and closed before anything is read.
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    busy = json.dumps({"error": {"status": 503, "message": "too many open connections; retry shortly"}}).encode()
    refusal = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
               b"connection: close\r\ncontent-length: " + str(len(busy)).encode() + b"\r\n\r\n" + busy)

    class Guarded(H11Protocol):
        _reading = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.write(refusal)
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            if self._reading is None:
                self._reading = self.loop.call_later(read_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._reading is not None:
                self._reading.cancel()
                self._reading = None

        def _too_slow(self) -> None:
            self._reading = None
            if self.conn.their_state not in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED) and not self.transport.is_closing():
                self.logger.info("closing a connection that sent no whole request in %s s", read_timeout_s)
                if self.cycle is not None and not self.cycle.response_complete:
                    self.cycle.disconnected = True
                    self.cycle.message_event.set()
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.DONE:   # the whole request is in: the app has it now
                self._disarm()
            elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._disarm()               # idle now: uvicorn's keep-alive timeout takes over

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

    return Guarded


def serve(config: ServiceConfig, host: str, port: int, *, pool_threads: int = 2) -> None:
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    service = build(config, pool_threads=pool_threads)
    try:
        uvicorn.run(service.app, host=host, port=port, log_level="warning", timeout_keep_alive=5,
                    http=guarded_protocol(config.read_timeout_s, config.max_connections),
                    h11_max_incomplete_event_size=16 << 10)
    finally:
        service.close()
