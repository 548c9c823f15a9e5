"""The judging service's time per submission against `judge grade`'s, on the same 50 files.

Both judge through the same library path, `Judge.submit(problem, Submission(...), record=False)`,
each with its own warm judge in this process, one submission at a time: the
service's `Processor.process` (claim the next submission in its database,
judge it, store the report) against `batch.grade_directory` with one worker
(read the file, judge it). Runs alternate between the two; the figure is the
ratio of the median times a submission (target <= 1.1x). Needs the service
extra (`pip install -e '.[service]'`); the database is a private SQLite file.

Usage: python benchmarks/service_judging.py   (BENCH_RUNS=N rounds, default 3)
"""
from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
from pathlib import Path

from _timing import report, scratch
from grade_batch import COUNT, PROBLEM, classroom

TARGET = 1.1


def main() -> int:
    import torch  # noqa: F401 - imported once, as judge grade does for a batch

    from judge.judging import batch
    from judge.service.config import ServiceConfig
    from judge.service.storage import Store
    from judge.service.worker import JUDGED, Processor
    from judge.judging.session import Judge

    runs = int(os.environ.get("BENCH_RUNS", "3"))
    directory = classroom()
    files = sorted(directory.glob("*.py"))
    home = scratch("judge-bench-service-")
    config = ServiceConfig(database_url=f"sqlite:///{home / 'service.sqlite3'}")
    store = Store(config.database_url)
    user = store.add_user("bench", "student", "bench", "0" * 64)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    service_s, grade_s, database_s = [], [], []
    # Each keeps a run ready, as a service worker and `judge grade` do (judge.sandbox.runner).
    with Judge(record=False, protect=store.files(), ahead=True) as service_judge, \
            Judge(record=False, ahead=True) as grade_judge:
        database = [0.0]  # seconds in claim_next and finish: the service's own part

        def timed(method):
            def run(*args, **kwargs):
                started = time.perf_counter()
                try:
                    return method(*args, **kwargs)
                finally:
                    database[0] += time.perf_counter() - started
            return run

        store.claim_next, store.finish = timed(store.claim_next), timed(store.finish)
        processor = Processor(config, store, service_judge)
        processor.warm()
        grade_judge.prepared(PROBLEM)
        for round_ in range(runs + 1):  # the first round warms both (trap outputs per case)
            store.create(user, [(PROBLEM, path.read_text()) for path in files])
            began, database[0] = time.perf_counter(), 0.0
            for _ in files:
                assert processor.process("bench") == JUDGED
            service = (time.perf_counter() - began) / COUNT
            began = time.perf_counter()
            result = batch.grade_directory(grade_judge, PROBLEM, directory, workers=1)
            graded = (time.perf_counter() - began) / COUNT
            assert not result.judge_errors
            if round_:
                database_s.append(database[0] / COUNT)
                service_s.append(service)
                grade_s.append(graded)
    service, graded = statistics.median(service_s), statistics.median(grade_s)
    print(f"medians of {runs} rounds of {COUNT} files, one at a time: the service {service * 1000:.1f} ms, "
          f"judge grade {graded * 1000:.1f} ms a submission (load {os.getloadavg()[0]:.2f})")
    print(f"  of the service's time, claiming and storing in its database: {statistics.median(database_s) * 1000:.1f} ms")
    print("  both call Judge.submit(problem, Submission(source, label), record=False); the service also claims "
          "the submission and stores its report in its database")
    ok = report("service / judge grade, time a submission", service / graded, TARGET)
    store.close()
    shutil.rmtree(home, ignore_errors=True)
    shutil.rmtree(directory, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
