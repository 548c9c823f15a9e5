"""`judge service worker --processes N`: N Dramatiq worker processes, each restarted if it dies.

Each process is its own `dramatiq judge.service.tasks --processes 1` group, so
a worker killed with SIGKILL takes only itself down (Dramatiq stops a whole
group when one member dies) and comes back warm here a moment later. This
process only starts and watches subprocesses: it never imports torch.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, replace

from judge.service.config import ServiceConfig

RESTART_DELAY_S = 1.0


@dataclass
class Slot:
    index: int
    process: subprocess.Popen | None = None
    restarts: int = 0


def worker_command(threads: int) -> list[str]:
    return [sys.executable, "-m", "dramatiq", "judge.service.tasks", "--processes", "1", "--threads", str(threads),
            "--queues", "judge"]


def run_workers(config: ServiceConfig, processes: int, threads: int, *, echo=print) -> int:
    """Run until SIGINT/SIGTERM; returns the exit code."""
    from judge.judging.batch import child_threads

    if config.sandbox_threads is None:  # as `judge grade` does: the judging threads share the cores
        config = replace(config, sandbox_threads=child_threads(processes * threads))
    env = {**os.environ, **config.environment()}
    slots = [Slot(i) for i in range(processes)]
    stopping = False

    def stop(signum, _frame) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stopping:
            for slot in slots:
                if slot.process is not None and slot.process.poll() is None:
                    continue
                if slot.process is not None:
                    slot.restarts += 1
                    echo(f"worker {slot.index} exited with {slot.process.returncode}; restarting "
                         f"(restart {slot.restarts})")
                    time.sleep(RESTART_DELAY_S)
                slot.process = subprocess.Popen(worker_command(threads), env=env)
                echo(f"worker {slot.index}: pid {slot.process.pid}")
            time.sleep(0.2)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for slot in slots:
            if slot.process is not None and slot.process.poll() is None:
                slot.process.terminate()
        for slot in slots:
            if slot.process is not None:
                try:
                    slot.process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    slot.process.kill()
                    slot.process.wait()
    return 0
