"""The Dramatiq side: the broker, the judging actor, and the boot hook of each worker process.

`dramatiq judge.service.tasks` imports this module in each worker process
(the supervisor in `judge.service.supervisor` starts it). Dramatiq looks the
broker and actor up at import, hence the module-level broker; the warm judge
lives in the `WarmJudge` middleware, built in `after_process_boot`, i.e. in the
worker process only: the parent process never imports torch or starts a sandbox.
"""
from __future__ import annotations

import logging
import threading

import dramatiq
from dramatiq.brokers.redis import RedisBroker

from judge.service.config import ServiceConfig
from judge.service.faults import PASSING, describe
from judge.service.queue import ACTOR_NAME, QUEUE_NAME, make_broker

log = logging.getLogger("judge.service.tasks")

class WarmJudge(dramatiq.Middleware):
    """Starts one warm `Judge` (its fork server, every problem prepared) per worker process.

    If that fails at boot (the database does not answer yet, say), the process stays up and tries
    again on its next message, so a worker host started during an outage judges once it ends.
    """

    def __init__(self) -> None:
        self.processor = None
        self._lock = threading.Lock()

    def after_process_boot(self, broker) -> None:
        try:
            self.ready()
        except PASSING as exc:  # the database not up yet, say: one line; the next message tries again
            log.warning("this worker could not start its judge (%s); it tries again on its next message",
                        describe(exc))
        except Exception:  # a bug: its traceback; the next message tries again
            log.exception("this worker could not start its judge; it tries again on its next message")

    def ready(self):
        """The warm processor, built now if it is not yet (raises when it cannot be)."""
        with self._lock:
            if self.processor is None:
                from judge.service.worker import new_processor

                self.processor = new_processor(ServiceConfig.from_env())
                log.info("worker %s is warm", self.processor.name)
            return self.processor

    def before_process_stop(self, broker) -> None:
        if self.processor is not None:
            self.processor.close()


def _configured_broker() -> tuple[RedisBroker, WarmJudge]:
    config = ServiceConfig.from_env()
    broker = make_broker(config.redis_url or "redis://127.0.0.1:6379/0")
    warm = WarmJudge()
    broker.add_middleware(warm)
    dramatiq.set_broker(broker)
    return broker, warm


broker, warm_judge = _configured_broker()
# The line above says a turn is retried; Dramatiq's own "Retrying message ..." would be a second one.
logging.getLogger("dramatiq.middleware.retries.Retries").setLevel(logging.WARNING)


@dramatiq.actor(actor_name=ACTOR_NAME, queue_name=QUEUE_NAME, max_retries=3, min_backoff=1000, max_backoff=10_000)
def judge_submission(submission_id: str) -> None:
    # A passing fault (the database restarting, the fork server lost) is logged as one line and the
    # message retried (Retry: Dramatiq logs no traceback for it); the reaper re-sends the submission
    # if every retry fails. Any other error is a bug and keeps Dramatiq's traceback.
    try:
        outcome = warm_judge.ready().process(submission_id)
    except PASSING as exc:
        log.warning("turn %s failed (%s); retried", submission_id, describe(exc))
        raise dramatiq.Retry(describe(exc)) from None
    log.info("message for %s: %s", submission_id, outcome)
