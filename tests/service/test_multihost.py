"""More than one machine, in network namespaces of this test's own: the API, Redis and PostgreSQL on one
host, two worker hosts, a worker host lost mid-run and a 30 s partition between a worker host and Redis.

    host "api"  10.231.1.1 (PostgreSQL)  10.231.1.5 (Redis)  --veth--  10.231.1.2  host "w1"
                10.231.2.1 (PostgreSQL)  10.231.2.5 (Redis)  --veth--  10.231.2.2  host "w2"

The addresses exist only on veth pairs between these namespaces, which have no route anywhere else. The
API (with its reaper) listens on the api host's own loopback; submissions are posted from a client
inside that host; this test reads the database through PostgreSQL's Unix socket. Each worker host runs
`judge service worker` with its own data and cache directories, as a machine of its own would.

Needs root (`ip netns`); skipped with the reason otherwise, failed when JUDGE_TEST_REQUIRE_SERVERS=1
and root. Bounded: 60 submissions, a 20 s lease, at most ~6 minutes.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("dramatiq")

from servers import PG_BIN, REDIS_SERVER, Missing, PostgresServer, descendants_of  # noqa: E402

from conftest import REQUIRED  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SOURCES = {   # file -> the verdict it must get
    "submissions/patchify/accepted/reshape_permute.py": "accepted",
    "submissions/patchify/accepted/unfold.py": "accepted",
    "submissions/patchify/wrong_answer/column_major.py": "wrong_answer",
    "submissions/patchify/wrong_answer/overlapping.py": "wrong_answer",
    "submissions/patchify/run_time_error/typo_in_name.py": "runtime_error",
}
LEASE_S = 20
PARTITION_S = 30
API_PORT = 8000
PG_PORT = 5432
TAG = f"{os.getpid() % 100000}"

POSTER = r"""
import json, sys, httpx
port, token = sys.argv[1], sys.argv[2]
items = json.load(sys.stdin)
with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60,
                  headers={"Authorization": f"Bearer {token}"}) as client:
    ids = []
    for start in range(0, len(items), 50):
        r = client.post("/api/v1/submissions/batch", json={"submissions": items[start:start + 50]})
        r.raise_for_status()
        ids += r.json()["ids"]
print(json.dumps(ids))
"""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True, timeout=30)


class Hosts:
    """Three network namespaces joined by veth pairs; `remove` kills everything in one and deletes it."""

    def __init__(self):
        self.names = {h: f"tj{TAG}{h}" for h in ("api", "w1", "w2")}
        self.processes: dict[str, list[subprocess.Popen]] = {h: [] for h in self.names}

    def hostname(self, host: str) -> str:
        return f"tj{TAG}-{host}"

    def exec(self, host: str) -> list[str]:
        return ["ip", "netns", "exec", self.names[host]]

    def create(self) -> "Hosts":
        for name in self.names.values():
            _ip("netns", "add", name)
            _ip("-n", name, "link", "set", "lo", "up")
        for i, worker in ((1, "w1"), (2, "w2")):
            a, b = f"tj{TAG}a{i}", f"tj{TAG}b{i}"
            _ip("link", "add", a, "netns", self.names["api"], "type", "veth", "peer", "name", b, "netns",
                self.names[worker])
            _ip("-n", self.names["api"], "addr", "add", f"10.231.{i}.1/29", "dev", a)
            _ip("-n", self.names["api"], "addr", "add", f"10.231.{i}.5/29", "dev", a)
            _ip("-n", self.names[worker], "addr", "add", f"10.231.{i}.2/29", "dev", b)
            _ip("-n", self.names["api"], "link", "set", a, "up")
            _ip("-n", self.names[worker], "link", "set", b, "up")
        return self

    def start(self, host: str, command: list[str], log: Path, env: dict) -> subprocess.Popen:
        """Run `command` on the host: in its network namespace, and a UTS namespace naming it (workers
        name themselves hostname:pid, as on machines of their own)."""
        named = ["unshare", "--uts", "--", "sh", "-c", f'hostname {self.hostname(host)} && exec "$@"', "sh"]
        process = subprocess.Popen([*self.exec(host), *named, *command], env=env, stdout=open(log, "ab"),
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes[host].append(process)
        return process

    def kill_all(self, host: str) -> list[int]:
        """SIGKILL every process of the host: in its namespace, and below the ones started there."""
        name = self.names[host]
        pids = set()
        for p in self.processes[host]:
            pids.add(p.pid)
            pids.update(descendants_of(p.pid))
        listed = _ip("netns", "pids", name, check=False).stdout.split()
        pids.update(int(p) for p in listed if p.isdigit())
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for p in self.processes[host]:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=10)
        self.processes[host] = []
        return sorted(pids)

    def remove(self, host: str) -> None:
        self.kill_all(host)
        _ip("netns", "del", self.names[host], check=False)

    def close(self) -> None:
        for host in self.names:
            self.remove(host)


def _skip_or_fail(reason: str) -> None:
    if REQUIRED and os.geteuid() == 0:
        pytest.fail(f"JUDGE_TEST_REQUIRE_SERVERS is set and this is root, but {reason}")
    pytest.skip(reason)


@pytest.fixture
def hosts():
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root (ip netns); this test runs as root in CI")
    if not shutil.which("ip"):
        _skip_or_fail("the ip command (iproute2) is not installed")
    if not Path(REDIS_SERVER).exists() or not PG_BIN:
        _skip_or_fail("redis-server or PostgreSQL is not installed")
    h = Hosts()
    try:
        h.create()
    except subprocess.CalledProcessError as exc:
        h.close()
        _skip_or_fail(f"cannot make network namespaces here: {exc.stderr.strip()}")
    try:
        yield h
    finally:
        h.close()


def _wait(predicate, timeout: float, what: str, step: float = 0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(step)
    raise AssertionError(f"{what}: not within {timeout} s")


def test_workers_on_two_hosts_survive_a_lost_host_and_a_partition(hosts, tmp_path):
    from judge.service.accounts import add_user
    from judge.service.storage import DONE, Store

    tmp = Path(tempfile.mkdtemp(prefix="judge-netns-"))
    logs = tmp_path / "logs"
    logs.mkdir()
    # PostgreSQL on the api host; this test reaches it through its Unix socket (no route needed).
    pg = PostgresServer(tmp, PG_PORT, "10.231.1.1,10.231.2.1,127.0.0.1").init(trusted_network="10.231.0.0/16")
    pg.start(tuple(hosts.exec("api")))
    redis_dir = tmp_path / "redis"
    redis_dir.mkdir()
    try:
        hosts.start("api", [REDIS_SERVER, "--port", "6379", "--bind", "10.231.1.5", "10.231.2.5",
                                    "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(redis_dir),
                                    "--protected-mode", "no"], logs / "redis.log", dict(os.environ))
        local_url = f"postgresql+psycopg://judge@/postgres?host={tmp}&port={PG_PORT}"
        store = _wait(lambda: _try_store(local_url), 30, "PostgreSQL answers")
        token = add_user(store, "load").token
        learners = {name: add_user(store, name, course="ml101").token for name in ("alice", "bob")}
        del learners

        def env_for(host: str, link: int) -> dict:
            home = tmp_path / host
            home.mkdir(exist_ok=True)
            return {**os.environ, "JUDGE_HOME": str(home / "home"), "JUDGE_CACHE_DIR": str(home / "cache"),
                    "JUDGE_PROBLEMS_DIR": str(REPO), "PYTHONUNBUFFERED": "1",
                    "JUDGE_SERVICE_DATABASE": f"postgresql+psycopg://judge@10.231.{link}.1:{PG_PORT}/postgres",
                    "JUDGE_SERVICE_REDIS": f"redis://10.231.{link}.5:6379/0",
                    "JUDGE_SERVICE_LEASE_S": str(LEASE_S), "JUDGE_SERVICE_REQUEUE_AFTER_S": "10",
                    "JUDGE_SERVICE_REAP_EVERY_S": "2", "JUDGE_SERVICE_MAX_QUEUED": "1000"}

        api_env = {**env_for("api", 1), "JUDGE_SERVICE_DATABASE": f"postgresql+psycopg://judge@127.0.0.1:{PG_PORT}/postgres",
                   "JUDGE_SERVICE_REDIS": "redis://127.0.0.1:6379/0"}
        hosts.start("api", [sys.executable, "-m", "judge", "service", "--port", str(API_PORT)], logs / "api.log",
                    api_env)

        def post(paths: list[str]) -> list[str]:
            items = [{"problem": "patchify", "source": (REPO / p).read_text()} for p in paths]
            done = subprocess.run([*hosts.exec("api"), sys.executable, "-c", POSTER, str(API_PORT), token],
                                  input=json.dumps(items), capture_output=True, text=True, timeout=120, env=api_env)
            assert done.returncode == 0, done.stderr[-2000:]
            return json.loads(done.stdout)

        _wait(lambda: _api_up(hosts, api_env), 120, "the API answers on the api host")
        expected: dict[str, str] = {}

        def batch(n: int, offset: int = 0) -> list[str]:
            files = [list(SOURCES)[(offset + i) % len(SOURCES)] for i in range(n)]
            ids = post(files)
            expected.update({sid: SOURCES[f] for sid, f in zip(ids, files)})
            return ids

        def done_count(ids: list[str]) -> int:
            return sum(1 for sid in ids if (found := store.get(sid)) and found[0].status == DONE)

        def throughput(ids: list[str]) -> float:
            rows = [store.get(sid)[0] for sid in ids]
            first = min(r.claimed_at for r in rows)
            return len(rows) / (max(r.finished_at for r in rows) - first)

        # One worker process on w1: warm it with one submission, then measure 10.
        hosts.start("w1", [sys.executable, "-m", "judge", "service", "worker", "--processes", "1"], logs / "w1.log",
                    env_for("w1", 1))
        warm = batch(1)
        _wait(lambda: done_count(warm) == 1, 240, "w1 judged its first submission")
        one = batch(10)
        _wait(lambda: done_count(one) == 10, 180, "w1 judged 10")
        # A second worker host: its process warms up (its log says so), then the same 10 with both.
        hosts.start("w2", [sys.executable, "-m", "judge", "service", "worker", "--processes", "1"], logs / "w2.log",
                    env_for("w2", 2))
        _wait(lambda: "is warm" in (logs / "w2.log").read_text(errors="replace"), 240, "w2's worker is warm")
        two = batch(10)
        _wait(lambda: done_count(two) == 10, 180, "w1 and w2 judged 10")
        by_host = {r.worker.split(":")[0] for r in (store.get(s)[0] for s in two)}
        figures = {"one_process_per_s": round(throughput(one), 2), "two_processes_per_s": round(throughput(two), 2),
                   "hosts_used_by_the_second_batch": len(by_host), "load": os.getloadavg()[0]}

        # Faults: 38 more; w2 is lost (every process killed, the namespace removed) while judging; then w1
        # cannot reach Redis for 30 s (a blackhole route: packets vanish, as in a real partition).
        faults = batch(38, offset=1)
        w2 = hosts.hostname("w2") + ":"
        _wait(lambda: any((s := store.get(i)[0]).status == "running" and (s.worker or "").startswith(w2)
                          for i in faults), 120, "w2 is judging a submission of the third batch", step=0.1)
        figures["w2_processes_killed"] = len(hosts.kill_all("w2"))
        _ip("netns", "del", hosts.names["w2"])
        lost_at = time.time()
        _ip("-n", hosts.names["w1"], "route", "add", "blackhole", "10.231.1.5/32")
        time.sleep(PARTITION_S)
        _ip("-n", hosts.names["w1"], "route", "del", "blackhole", "10.231.1.5/32")
        healed_at = time.time()
        _wait(lambda: done_count(faults) == len(faults), 300, "every submission of the third batch was judged")
        figures["partition_s"] = round(healed_at - lost_at, 1)
        figures["after_heal_s"] = round(time.time() - healed_at, 1)

        rows = {sid: store.get(sid)[0] for sid in expected}
        assert all(r.status == DONE and r.report is not None for r in rows.values())
        wrong = {sid: (r.verdict, expected[sid]) for sid, r in rows.items() if r.verdict != expected[sid]}
        assert wrong == {}
        assert sum(r.conflicting_judgings for r in rows.values()) == 0
        assert all(r.report["verdict"] == r.verdict for r in rows.values())    # one result each, as stored
        figures["judged_again_after_a_lost_lease"] = sum(r.attempts > 1 for r in rows.values())
        figures["extra_judgings"] = sum(r.extra_judgings for r in rows.values())
        print("multi-host figures:", json.dumps(figures))
        (logs / "figures.json").write_text(json.dumps(figures))
        assert figures["hosts_used_by_the_second_batch"] == 2
        assert figures["w2_processes_killed"] >= 2
        store.close()
    finally:
        hosts.close()
        pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def _try_store(url: str):
    from judge.base.errors import ConfigError
    from judge.service.storage import Store

    try:
        return Store(url)
    except ConfigError:
        return None


def _api_up(hosts: Hosts, env: dict) -> bool:
    probe = subprocess.run([*hosts.exec("api"), sys.executable, "-c",
                            f"import httpx; print(httpx.get('http://127.0.0.1:{API_PORT}/api/v1/health').status_code)"],
                           capture_output=True, text=True, timeout=60, env=env)
    return probe.stdout.strip() == "200"
