"""The processor: a submission is judged once, duplicates and done work are skipped, broken ones close as judge_error."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

import time


from judge.service.accounts import add_user
from judge.service.config import ServiceConfig
from judge.service.storage import DONE, Store
from judge.service.worker import DUPLICATE, JUDGED, SKIPPED, Processor


@pytest.fixture
def processor(tmp_path, repo, judge):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo), lease_s=60,
                           max_attempts=2)
    store = Store(config.database_url)
    yield Processor(config, store, judge), store, add_user(store, "alice").user
    store.close()


def test_a_submission_is_judged_and_its_report_stored(processor, repo):
    proc, store, alice = processor
    source = (repo / "submissions/patchify/wrong_answer/column_major.py").read_text()
    [sid] = store.create(alice, [("patchify", source)])
    assert proc.process(sid) == JUDGED
    submission, _ = store.get(sid)
    assert submission.status == DONE and submission.verdict == "wrong_answer"
    assert submission.report["verdict"] == "wrong_answer" and submission.report["submission"] == f"{sid}.py"
    assert submission.report["passed"] < submission.report["total"]
    assert proc.process(sid) == SKIPPED        # a second delivery of the same id does nothing


def test_a_second_judging_after_a_lost_lease_does_not_replace_the_first_result(processor, repo):
    proc, store, alice = processor
    [sid] = store.create(alice, [("patchify", (repo / "submissions/patchify/accepted/unfold.py").read_text())])
    assert store.claim(sid, "a-worker-that-will-die", lease_s=-1) is not None   # its lease is already over
    assert proc.process(sid) == JUDGED
    first = store.get(sid)[0].report
    store.finish(sid, {"verdict": "wrong_answer"})                             # the slow worker comes back late
    assert store.get(sid)[0].report == first
    assert proc.process(sid) in (SKIPPED, DUPLICATE)


def test_a_submission_that_never_finishes_closes_as_judge_error(processor):
    proc, store, alice = processor
    [sid] = store.create(alice, [("patchify", "x = 1")])
    for _ in range(2):                       # two workers die holding it
        assert store.claim(sid, "dead", lease_s=-1) is not None
    assert proc.process(sid) == JUDGED
    report = store.get(sid)[0].report
    assert report["verdict"] == "judge_error" and report["total"] == 1
    assert report["tests"][0]["message"] == "judging was started 2 times and never finished"


def test_a_problem_removed_since_submission_is_a_judge_error(processor):
    proc, store, alice = processor
    [sid] = store.create(alice, [("no_such_problem", "x = 1")])
    assert proc.process(sid) == JUDGED
    report = store.get(sid)[0].report
    assert report["verdict"] == "judge_error" and "no_such_problem" in report["tests"][0]["message"]


def test_a_dead_fork_server_is_replaced_and_the_submission_judged_after_its_lease(tmp_path, repo):
    from judge.base.errors import SandboxError
    from judge.judging.session import Judge

    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo), lease_s=0.5)
    store = Store(config.database_url)
    with Judge(repo, record=False) as own_judge:
        proc = Processor(config, store, own_judge)
        user = add_user(store, "alice").user
        source = (repo / "submissions/patchify/accepted/unfold.py").read_text()
        [first] = store.create(user, [("patchify", source)])
        assert proc.process(first) == JUDGED
        server = own_judge.backend.server("torch")._process
        server.kill()                                  # the fork server dies under the worker
        server.wait()
        [sid] = store.create(user, [("patchify", source)])
        with pytest.raises((SandboxError, OSError)):
            proc.process(sid)
        assert store.get(sid)[0].status == "running"
        time.sleep(0.6)                                # the lease runs out; the reaper would send it again
        assert proc.process(sid) == JUDGED
        assert store.get(sid)[0].verdict == "accepted"
    store.close()


def test_a_database_restart_leaves_one_log_line_per_retried_turn_and_loses_nothing(tmp_path, repo, redis):
    """PostgreSQL stops while a Dramatiq worker takes its turns: each failed turn is one warning line (no
    traceback), and once the database is back every submission is judged."""
    import os
    import subprocess
    import sys

    from servers import Missing, postgres_cluster

    from judge.service.queue import RedisQueue
    from judge.service.reaper import reap_once

    try:
        cluster = postgres_cluster()
        server = cluster.__enter__()
    except Missing as exc:
        if os.environ.get("JUDGE_TEST_REQUIRE_SERVERS", "") not in ("", "0"):
            pytest.fail(f"JUDGE_TEST_REQUIRE_SERVERS is set but {exc}")
        pytest.skip(str(exc))
    log_path = tmp_path / "worker.log"
    store = Store(server.url)
    workers = None
    try:
        alice = add_user(store, "alice").user
        ids = store.create(alice, [("patchify", (repo / "submissions/patchify/wrong_answer/column_major.py")
                                    .read_text())] * 3)
        env = {**os.environ, "JUDGE_SERVICE_DATABASE": server.url, "JUDGE_SERVICE_REDIS": redis.url,
               "JUDGE_PROBLEMS_DIR": str(repo), "JUDGE_HOME": str(tmp_path / "home")}
        with log_path.open("w") as log:
            workers = subprocess.Popen([sys.executable, "-m", "judge", "service", "worker", "--processes", "1"],
                                       env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while "is warm" not in log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "is warm" in log_path.read_text(), log_path.read_text()[-2000:]
        server.stop()                                   # the database goes away ...
        queue = RedisQueue(redis.url)
        for sid in ids:
            queue.enqueue(sid)                          # ... while the worker takes its turns
        deadline = time.monotonic() + 60
        while log_path.read_text().count("; retried") < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        server.start()                                  # and comes back
        config = ServiceConfig(database_url=server.url, requeue_after_s=0)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if not store.unfinished():
                    break
                reap_once(store, queue, config)         # as the service's reaper does every few seconds
            except Exception:                           # the database still starting
                pass
            time.sleep(1.0)
        queue.close()
        assert store.unfinished() == 0 and {store.get(i)[0].verdict for i in ids} == {"wrong_answer"}
    finally:
        if workers is not None:
            workers.terminate()
            try:
                workers.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(workers.pid, 9)
                workers.wait()
        store.close()
        cluster.__exit__(None, None, None)
    text = log_path.read_text()
    faults = [line for line in text.splitlines() if "; retried" in line]
    assert faults, text[-3000:]
    assert "Traceback" not in text and "Retrying message" not in text, text[-3000:]
    assert all("failed (OperationalError: " in line for line in faults), faults
