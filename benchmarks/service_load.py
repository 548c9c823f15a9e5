"""The judging service under load and faults, against `judge grade` on the same files in the same run.

    python benchmarks/service_load.py [--submissions 1000] [--processes 2] [--database sqlite|postgresql]
                                      [--no-faults] [--json]

Everything runs on this machine, on 127.0.0.1: a throwaway Redis (and
PostgreSQL with --database postgresql), `judge service --redis` (the API and
its reaper) and `judge service worker --processes N`. N submissions to
patchify (correct, wrong, a runtime error, time limit exceeded, and a few
malicious ones, including one that tries to reach the API, Redis, PostgreSQL
and the SQLite file from the sandbox) go through the HTTP API from 4 client
threads. With faults on, one worker process is killed with SIGKILL once a
third is done and Redis restarts, empty, once two thirds are done.

It then checks, from the database: every submission has exactly one stored
result, none is lost, each verdict is the one its file must get, no judging
that came second disagreed with the stored one, and nothing leaked (PWNED).
Figures: throughput, p50/p95 latency (submit to result) and judging time
(claim to result), and the same files through `judge grade --workers N`,
with the ratio of the service's wall time to judge grade's.

The test suite runs a scaled-down version (tests/service/test_load_faults.py).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "service"))   # the throwaway servers the tests use too

from servers import descendants_of as descendants, free_port, postgres_server, redis_server, wait_for_port  # noqa: E402,E501

from judge.base.outcomes import Verdict, folder_verdict  # noqa: E402

PROBLEM = "patchify"
SUBMISSIONS = REPO / "submissions" / PROBLEM
ATTACKS = REPO / "tests" / "attacks"
REACH = REPO / "tests" / "service" / "attacks" / "service_reach.py"

# kind -> (how often in 1000, the verdicts its files may get)
MIX = {
    "accepted": (600, {"accepted"}),
    "wrong": (340, {"wrong_answer"}),
    "runtime_error": (20, {"runtime_error"}),
    "tle": (20, {"time_limit_exceeded"}),
    "malicious": (20, None),   # per file, below
}
MALICIOUS = {  # attack -> verdicts; every one must also leave no PWNED in its report
    "service_reach": {"security_violation", "wrong_answer"},
    "fork_bomb": {"security_violation"},
    "memory_bomb": {"memory_limit_exceeded"},
    "infinite_loop": {"time_limit_exceeded"},
}


@dataclass(frozen=True)
class Item:
    name: str
    kind: str
    source: str
    allowed: frozenset[str]


@dataclass
class Outcome:
    submissions: int
    processes: int
    database: str
    faults: bool
    wall_s: float = 0.0
    throughput_per_s: float = 0.0
    latency_p50_s: float = 0.0
    latency_p95_s: float = 0.0
    judging_p50_s: float = 0.0
    judging_p95_s: float = 0.0
    grade_wall_s: float = 0.0
    grade_per_s: float = 0.0
    overhead_ratio: float = 0.0
    done: int = 0
    lost: list[str] = field(default_factory=list)
    wrong_verdicts: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)
    conflicting_judgings: int = 0
    extra_judgings: int = 0
    rejudged_after_lease: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    grade_disagreements: list[str] = field(default_factory=list)
    killed_worker: int | None = None
    redis_restarted: bool = False

    @property
    def ok(self) -> bool:
        return (self.done == self.submissions and not self.lost and not self.wrong_verdicts and not self.leaked
                and self.conflicting_judgings == 0 and (not self.faults or (self.killed_worker and self.redis_restarted)))


def _known(verdict: Verdict) -> list[Path]:
    """The known submissions that must get `verdict`: every folder that judge.base.outcomes's rule maps to it."""
    return sorted(path for folder in SUBMISSIONS.iterdir() if folder_verdict(folder.name) is verdict
                  for path in folder.glob("*.py"))


def corpus(n: int, ports: dict[str, int], database_file: str) -> list[Item]:
    """n submissions in MIX's proportions, interleaved so that faults hit every kind."""
    files = {
        "accepted": [SUBMISSIONS / "accepted" / f for f in ("reshape_permute.py", "unfold.py")],
        "wrong": _known(Verdict.WRONG_ANSWER),
        "runtime_error": _known(Verdict.RUNTIME_ERROR),
        "tle": _known(Verdict.TIME_LIMIT_EXCEEDED),
    }
    pools: dict[str, list[Item]] = {kind: [Item(p.stem, kind, p.read_text(), frozenset(MIX[kind][1]))
                                           for p in paths] for kind, paths in files.items()}
    pools["malicious"] = [Item(name, "malicious", _malicious_source(name, ports, database_file), frozenset(allowed))
                          for name, allowed in MALICIOUS.items()]
    counts = {kind: max(1, round(share * n / 1000)) for kind, (share, _) in MIX.items()}
    counts["accepted"] += n - sum(counts.values())
    chosen = [pools[kind][i % len(pools[kind])] for kind, count in counts.items() for i in range(count)]
    step = 7 if n % 7 else 11  # a fixed stride through the list mixes the kinds, reproducibly
    return [chosen[(i * step) % n] for i in range(n)]


def _malicious_source(name: str, ports: dict[str, int], database_file: str) -> str:
    if name == "service_reach":
        text = REACH.read_text()
        for key, value in (("@API_PORT@", ports["api"]), ("@REDIS_PORT@", ports["redis"]),
                           ("@PG_PORT@", ports.get("postgresql", 0)), ("@DB_FILE@", database_file)):
            text = text.replace(key, str(value))
        return text
    # The attack suite's fixtures define double(x); patchify takes (images, patch_height, patch_width).
    return (ATTACKS / f"{name}.py").read_text().replace("def double(x):", "def patchify(x, *sizes):")


def _judge(*args: str) -> list[str]:
    return [sys.executable, "-m", "judge", *args]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def run(n: int = 1000, processes: int = 2, database: str = "sqlite", faults: bool = True,
        timeout_s: float = 1800.0, lease_s: float = 45.0, log=print) -> Outcome:
    import httpx

    from judge.service.storage import Store

    outcome = Outcome(submissions=n, processes=processes, database=database, faults=faults)
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="judge-load-")))
        redis = stack.enter_context(redis_server())
        home = tmp / "home"
        home.mkdir()
        os.chmod(tmp, 0o755)
        ports = {"api": free_port(), "redis": redis.port}
        if database == "postgresql":
            database_url = stack.enter_context(postgres_server())
            ports["postgresql"] = int(database_url.rsplit(":", 1)[1].split("/")[0])
        else:  # the default place: the judge's data directory, which the sandbox hides
            database_url = f"sqlite:///{home / 'service.sqlite3'}"
        env = {**os.environ, "JUDGE_HOME": str(home), "JUDGE_CACHE_DIR": str(tmp / "cache"),
               "JUDGE_SERVICE_DATABASE": database_url, "JUDGE_SERVICE_REDIS": redis.url,
               "JUDGE_SERVICE_RATE_PER_MINUTE": "1000000", "JUDGE_SERVICE_RATE_BURST": "1000000",
               # One account sends the whole class's load: its bound on queued work must not refuse it.
               "JUDGE_SERVICE_MAX_QUEUED": str(n + 1), "JUDGE_SERVICE_MAX_QUEUED_BYTES": str(1 << 40),
               # A killed worker's submission is judged again after lease_s (longer than any judging
               # here, TLE included); queued work lost with Redis is sent again after 10 s without a
               # claim; the reaper looks every 2 s.
               "JUDGE_SERVICE_LEASE_S": str(lease_s), "JUDGE_SERVICE_REQUEUE_AFTER_S": "10",
               "JUDGE_SERVICE_REAP_EVERY_S": "2", "JUDGE_PROBLEMS_DIR": str(REPO), "PYTHONUNBUFFERED": "1"}
        added = subprocess.run(_judge("service", "users", "add", "load"), env=env, capture_output=True, text=True,
                               check=True)
        token = added.stdout.strip().splitlines()[-1]
        logs = tmp / "logs"
        logs.mkdir()
        api = subprocess.Popen(_judge("service", "--port", str(ports["api"])), env=env,
                               stdout=open(logs / "api.log", "w"), stderr=subprocess.STDOUT)
        stack.callback(_stop, api)
        workers = subprocess.Popen(_judge("service", "worker", "--processes", str(processes)), env=env,
                                   stdout=open(logs / "workers.log", "w"), stderr=subprocess.STDOUT,
                                   start_new_session=True)
        stack.callback(_stop, workers)
        wait_for_port(ports["api"], timeout=120)
        # A course's workers run before its submissions come: the load starts once every worker
        # process is warm (its boot prepares every problem), as `judge grade` is timed after its
        # expected values are cached.
        warm_by = time.monotonic() + 600
        while (logs / "workers.log").read_text(errors="replace").count(" is warm") < processes:
            if time.monotonic() > warm_by or workers.poll() is not None:
                raise SystemExit("the worker processes did not get warm; see " + str(logs / "workers.log"))
            time.sleep(0.2)

        items = corpus(n, ports, str(home / "service.sqlite3"))
        ids: list[str | None] = [None] * n
        client = httpx.Client(base_url=f"http://127.0.0.1:{ports['api']}", timeout=60,
                              headers={"Authorization": f"Bearer {token}"})
        stack.callback(client.close)
        started = time.time()
        cursor = iter(range(n))
        lock = threading.Lock()

        def post() -> None:
            while True:
                with lock:
                    i = next(cursor, None)
                if i is None:
                    return
                response = client.post("/api/v1/submissions", json={"problem": PROBLEM, "source": items[i].source})
                response.raise_for_status()
                ids[i] = response.json()["id"]

        posters = [threading.Thread(target=post) for _ in range(4)]
        for t in posters:
            t.start()
        for t in posters:
            t.join()
        log(f"submitted {n} in {time.time() - started:.1f} s")

        store = Store(database_url)
        stack.callback(store.close)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            done = n - store.unfinished()
            if faults and outcome.killed_worker is None and done >= n // 3:
                outcome.killed_worker = _kill_a_worker(workers.pid)
                log(f"{done}/{n} done: killed worker {outcome.killed_worker} with SIGKILL")
            if faults and not outcome.redis_restarted and done >= 2 * n // 3:
                redis.restart()
                outcome.redis_restarted = True
                log(f"{done}/{n} done: restarted Redis (empty)")
            if done == n:
                break
            time.sleep(0.5)
        outcome.wall_s = max((s.finished_at or 0) for s in store.all()) - started if n else 0.0
        _audit(outcome, items, ids, store.all())
        log(f"service: {outcome.done}/{n} done in {outcome.wall_s:.1f} s")

    # The baseline, on the same files, with the service stopped: judge grade with as many workers.
    with tempfile.TemporaryDirectory(prefix="judge-grade-") as tmp:
        directory = Path(tmp) / "files"
        directory.mkdir()
        for i, item in enumerate(items):
            (directory / f"{i:05d}_{item.name}.py").write_text(item.source)
        env = {**os.environ, "JUDGE_HOME": str(Path(tmp) / "home"), "JUDGE_CACHE_DIR": str(Path(tmp) / "cache"),
               "JUDGE_PROBLEMS_DIR": str(REPO)}
        # Warm the expected-value cache first, as the service's workers do at boot.
        subprocess.run(_judge("run", PROBLEM, str(SUBMISSIONS / "accepted" / "unfold.py"), "--json"), env=env,
                       capture_output=True, timeout=600)
        begun = time.perf_counter()
        graded = subprocess.run(_judge("grade", PROBLEM, str(directory), "--workers", str(processes), "--json"),
                                env=env, capture_output=True, text=True, timeout=timeout_s)
        outcome.grade_wall_s = time.perf_counter() - begun
        rows = {row["file"]: row["verdict"] for row in json.loads(graded.stdout)["rows"]}
        by_index = {int(name.split("_", 1)[0]): verdict for name, verdict in rows.items()}
        service_verdicts = outcome._verdict_by_index  # noqa: SLF001 (set by _audit)
        outcome.grade_disagreements = [f"{i}:{items[i].name}: service {service_verdicts.get(i)}, grade {v}"
                                       for i, v in sorted(by_index.items()) if service_verdicts.get(i) != v]
    outcome.grade_per_s = n / outcome.grade_wall_s if outcome.grade_wall_s else 0.0
    outcome.overhead_ratio = outcome.wall_s / outcome.grade_wall_s if outcome.grade_wall_s else 0.0
    return outcome


def warm_workers(supervisor: int) -> list[int]:
    """The Dramatiq worker processes below `supervisor` that hold a warm judge (torch loaded).

    Dramatiq's main process and its forked workers share the command line `python -m dramatiq ...`;
    the sandbox's fork servers below the workers are `python -E -c ...` and load torch too.
    """
    found = []
    for pid in descendants(supervisor):
        with contextlib.suppress(OSError):
            if (b"\0-m\0dramatiq\0" in Path(f"/proc/{pid}/cmdline").read_bytes()
                    and "libtorch" in Path(f"/proc/{pid}/maps").read_text()):
                found.append(pid)
    return found


def _kill_a_worker(supervisor: int) -> int | None:
    """SIGKILL one Dramatiq worker process (the one holding a warm judge), not its parent."""
    for pid in warm_workers(supervisor):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            return pid
    return None


def _audit(outcome: Outcome, items: list[Item], ids: list[str | None], rows) -> None:
    by_id = {row.id: row for row in rows}
    outcome._verdict_by_index = {}  # noqa: SLF001
    latencies, judging = [], []
    for i, (item, sid) in enumerate(zip(items, ids)):
        row = by_id.get(sid) if sid else None
        if row is None or row.status != "done" or row.report is None:
            outcome.lost.append(f"{i}:{item.name}")
            continue
        outcome.done += 1
        outcome._verdict_by_index[i] = row.verdict
        outcome.verdicts[row.verdict] = outcome.verdicts.get(row.verdict, 0) + 1
        if row.verdict not in item.allowed or row.report["verdict"] != row.verdict:
            outcome.wrong_verdicts.append(f"{i}:{item.name}: {row.verdict}")
        if "PWNED" in json.dumps(row.report):
            outcome.leaked.append(f"{i}:{item.name}")
        outcome.extra_judgings += row.extra_judgings
        outcome.conflicting_judgings += row.conflicting_judgings
        outcome.rejudged_after_lease += row.attempts > 1
        latencies.append(row.finished_at - row.created_at)
        judging.append(row.finished_at - row.claimed_at)
    outcome.latency_p50_s, outcome.latency_p95_s = _percentile(latencies, 0.5), _percentile(latencies, 0.95)
    outcome.judging_p50_s, outcome.judging_p95_s = _percentile(judging, 0.5), _percentile(judging, 0.95)
    outcome.throughput_per_s = outcome.done / outcome.wall_s if outcome.wall_s else 0.0


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.kill()
            process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--no-faults", dest="faults", action="store_false")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    outcome = run(args.submissions, args.processes, args.database, args.faults,
                  log=lambda line: print(line, file=sys.stderr, flush=True))
    figures = {k: v for k, v in asdict(outcome).items()}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{outcome.submissions} submissions, {outcome.processes} worker processes, {outcome.database}, "
              f"faults {'on' if outcome.faults else 'off'}")
        print(f"  service: {outcome.wall_s:.1f} s, {outcome.throughput_per_s:.2f}/s; latency p50 "
              f"{outcome.latency_p50_s:.1f} s, p95 {outcome.latency_p95_s:.1f} s; judging p50 "
              f"{outcome.judging_p50_s:.2f} s, p95 {outcome.judging_p95_s:.2f} s")
        print(f"  judge grade --workers {outcome.processes}: {outcome.grade_wall_s:.1f} s, "
              f"{outcome.grade_per_s:.2f}/s; overhead ratio (service / grade wall time) {outcome.overhead_ratio:.2f}")
        print(f"  verdicts {outcome.verdicts}; lost {len(outcome.lost)}; wrong {outcome.wrong_verdicts}; "
              f"leaked {outcome.leaked}; judged again after a lost lease {outcome.rejudged_after_lease}; extra "
              f"judgings {outcome.extra_judgings} (conflicting {outcome.conflicting_judgings}); grade disagreements "
              f"{outcome.grade_disagreements}")
        print(f"  killed worker {outcome.killed_worker}; Redis restarted {outcome.redis_restarted}: "
              f"{'OK' if outcome.ok else 'FAILED'}")
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main())
