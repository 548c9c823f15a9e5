"""`judge service worker`: warm Dramatiq workers whose parents never import torch, restarted when killed."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dramatiq")

from judge.service.accounts import add_user  # noqa: E402
from judge.service.queue import RedisQueue  # noqa: E402
from judge.service.storage import DONE, Store  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from service_load import descendants, warm_workers  # noqa: E402


def _maps(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/maps").read_text()
    return ""


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _wait(predicate, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s")


def test_workers_boot_warm_their_parents_stay_without_torch_and_a_killed_one_comes_back(tmp_path, repo, redis):
    database_url = f"sqlite:///{tmp_path / 'service.sqlite3'}"
    env = {**os.environ, "JUDGE_SERVICE_DATABASE": database_url, "JUDGE_SERVICE_REDIS": redis.url,
           "JUDGE_PROBLEMS_DIR": str(repo)}
    log = open(tmp_path / "workers.log", "w")
    supervisor = subprocess.Popen([sys.executable, "-m", "judge", "service", "worker", "--processes", "1"], env=env,
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    store = Store(database_url)
    queue = RedisQueue(redis.url)
    try:
        [first] = _wait(lambda: warm_workers(supervisor.pid), 120)
        # Above the warm worker: the supervisor and Dramatiq's main process. Neither has torch loaded.
        parents = [supervisor.pid, _parent(first)]
        assert _parent(parents[1]) == supervisor.pid
        for pid in parents:
            assert "libtorch" not in _maps(pid) and "/torch/" not in _maps(pid), pid

        os.kill(first, signal.SIGKILL)
        [second] = _wait(lambda: [p for p in warm_workers(supervisor.pid) if p != first], 120)
        assert second != first and supervisor.poll() is None

        user = add_user(store, "alice").user
        [sid] = store.create(user, [("patchify", (repo / "submissions/patchify/accepted/unfold.py").read_text())])
        assert queue.enqueue(sid)
        _wait(lambda: store.get(sid)[0].status == DONE, 120)
        assert store.get(sid)[0].verdict == "accepted"
    finally:
        queue.close()
        store.close()
        running = descendants(supervisor.pid)
        supervisor.send_signal(signal.SIGTERM)
        try:
            supervisor.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(supervisor.pid, signal.SIGKILL)
            supervisor.wait()
        log.close()
    # The fork servers under the workers leave when they see their worker gone: give them a moment.
    assert running
    _wait(lambda: not [p for p in running if Path(f"/proc/{p}").exists()], 20)
    assert "restarting" in (tmp_path / "workers.log").read_text()
