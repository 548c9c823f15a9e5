"""An instructor's term against the whole stack: PostgreSQL, Redis, `judge service` (API and reaper), a
Dramatiq worker, and Debian's Chromium on the review page.

A roster of six is imported; a course file gives patchify 10 points (credit per test, due next week) and
self_attention 5 (all or nothing, due an hour ago, 10% off per day late). Learners submit through the
HTTP API: one copies another's solution in every disguise, the others err in known ways. The instructor
reads the wide gradebook, the class analytics, and in Chromium signs in to the review page, finds the pair
and opens it side by side with the shared lines marked. Then the author drops two of patchify's tests:
`judge service regrade patchify` judges the stale submissions again through the queue, lists the flip,
and the gradebook follows. A disabled learner's token stops working.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("dramatiq")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[e2e]')")

import disguises  # noqa: E402
from servers import free_port, wait_for_port  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from problemsets import REPO, copy_problems  # noqa: E402

from test_regrade import drop_cropping_tests  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium (apt-get install chromium)")

ROSTER = ("name,course,email,id\n" + "".join(f"{n},ml101,{n}@example.org,S{i}\n" for i, n in
                                            enumerate(("alice", "bob", "carol", "dora", "erin", "frank"), 1)))
PATCHIFY = {name: (REPO / "submissions/patchify" / name).read_text() for name in
            ("accepted/reshape_permute.py", "accepted/unfold.py", "wrong_answer/column_major.py",
             "wrong_answer/silent_cropping.py")}
ATTENTION = (REPO / "submissions/self_attention/accepted/matmul_softmax.py").read_text()


def _iso(when: float) -> str:
    return dt.datetime.fromtimestamp(when, dt.timezone.utc).isoformat(timespec="seconds")


class Stack:
    """The service's processes, started on 127.0.0.1 and stopped (their whole process groups) at the end."""

    def __init__(self, env: dict, logs: Path):
        self.env, self.logs, self.processes = env, logs, []

    def start(self, name: str, *args: str) -> None:
        log = (self.logs / f"{name}.log").open("w")
        self.processes.append(subprocess.Popen([sys.executable, "-m", "judge", "service", *args], env=self.env,
                                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True))

    def judge(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", "judge", "service", *args], env=self.env, capture_output=True,
                              text=True, timeout=300)
        if check:
            assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def test_an_instructors_term_on_the_whole_stack(tmp_path, postgres_url, redis):
    from sqlalchemy import create_engine, text

    # A database of its own in the session's cluster.
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("DROP DATABASE IF EXISTS term"))
        connection.execute(text("CREATE DATABASE term"))
    admin.dispose()
    database = postgres_url.rsplit("/", 1)[0] + "/term"
    root = copy_problems(tmp_path / "set", "patchify", "self_attention")
    port = free_port()
    env = {**os.environ, "JUDGE_SERVICE_DATABASE": database, "JUDGE_SERVICE_REDIS": redis.url,
           "JUDGE_PROBLEMS_DIR": str(root), "JUDGE_HOME": str(tmp_path / "home"),
           "JUDGE_SERVICE_REAP_EVERY_S": "1", "JUDGE_SERVICE_REQUEUE_AFTER_S": "5"}
    stack = Stack(env, tmp_path)
    now = time.time()
    (tmp_path / "ml101.yaml").write_text(
        "course: ml101\nproblems:\n"
        f"  - {{id: patchify, points: 10, due: '{_iso(now + 7 * 86400)}'}}\n"
        f"  - {{id: self_attention, points: 5, credit: all_or_nothing, due: '{_iso(now - 3600)}', "
        "late: {per_day: 10%}}\n")
    (tmp_path / "roster.csv").write_text(ROSTER)
    try:
        # --- before the term: roster in, the course's rules, an instructor
        imported = stack.judge("users", "import", str(tmp_path / "roster.csv"), "-o", str(tmp_path / "tokens.csv"))
        assert imported.stdout.startswith("created 6 account(s) in ml101")
        tokens = {row["name"]: row["token"] for row in csv.DictReader((tmp_path / "tokens.csv").open())}
        stack.judge("course", "set", str(tmp_path / "ml101.yaml"))
        teach = stack.judge("users", "add", "teach", "--role", "instructor", "--course", "ml101")\
            .stdout.strip().splitlines()[-1]
        stack.start("api", "--port", str(port))
        stack.start("worker", "worker", "--processes", "1")
        wait_for_port(port, timeout=120)
        base = f"http://127.0.0.1:{port}"
        client = httpx.Client(base_url=base, timeout=60)

        # --- the learners submit through the API
        copy = disguises.disguise(PATCHIFY["accepted/reshape_permute.py"], "combined", "patchify")
        plan = [("alice", "patchify", PATCHIFY["accepted/reshape_permute.py"]), ("bob", "patchify", copy),
                ("carol", "patchify", PATCHIFY["wrong_answer/column_major.py"]),
                ("dora", "patchify", PATCHIFY["wrong_answer/silent_cropping.py"]),
                ("erin", "patchify", PATCHIFY["accepted/unfold.py"]), ("frank", "self_attention", ATTENTION)]
        ids = {}
        for learner, problem, source in plan:
            answer = client.post("/api/v1/submissions", json={"problem": problem, "source": source},
                                 headers={"Authorization": f"Bearer {tokens[learner]}"})
            assert answer.status_code == 202, answer.text
            ids[learner] = answer.json()["id"]
        instructor = {"Authorization": f"Bearer {teach}"}
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            states = [client.get(f"/api/v1/submissions/{i}", headers=instructor).json()["status"] for i in ids.values()]
            if set(states) == {"done"}:
                break
            time.sleep(1)
        verdicts = {n: client.get(f"/api/v1/submissions/{i}", headers=instructor).json()["verdict"]
                    for n, i in ids.items()}
        assert verdicts == {"alice": "accepted", "bob": "accepted", "carol": "wrong_answer", "dora": "wrong_answer",
                            "erin": "accepted", "frank": "accepted"}, (tmp_path / "worker.log").read_text()[-3000:]
        assert client.get(f"/api/v1/submissions/{ids['alice']}", headers=instructor).json()["source"] == plan[0][2]

        # --- grading: the wide CSV an LMS imports, with points, credit per test and the late rule
        wide = list(csv.reader(io.StringIO(stack.judge("gradebook", "--course", "ml101", "--wide").stdout)))
        assert wide[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "patchify", "self_attention",
                           "Total"]
        rows = {r[0]: r for r in wide[1:]}
        assert rows["alice"][2:] == ["S1", "alice@example.org", "ml101", "10", "0", "10"]
        assert rows["frank"][5:] == ["0", "4.5", "4.5"]                         # a day late: 10% off
        dora_before = float(rows["dora"][5])
        assert 0 < dora_before < 10                                            # credit per test

        # --- class analytics: the named mistake and the tests most failed
        analytics = client.get("/api/v1/analytics?problem=patchify", headers=instructor).json()["problems"][0]
        assert {m["name"]: m["learners"] for m in analytics["mistakes"]}["column_major"] == 1

        # --- similarity review in Chromium: the pair found, opened side by side, the shared lines marked
        pairs = client.get("/api/v1/similarity", headers=instructor).json()["pairs"]
        assert [(p["a"], p["b"]) for p in pairs] == [("alice", "bob")]
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{base}/review")
            assert page.url.endswith("/review/login")
            page.fill("input[name=token]", tokens["alice"])                  # a learner is refused
            page.click("button[type=submit]")
            assert "for instructors" in page.inner_text("main")
            page.fill("input[name=token]", teach)
            page.click("button[type=submit]")
            page.wait_for_selector("table.pairs")
            assert page.inner_text("table.pairs tr:nth-child(2) td:first-child") == "alice · bob"
            assert "column_major" in page.inner_text("table.mistakes")
            page.click("table.pairs a")
            page.wait_for_selector(".sides")
            assert "alice and bob on patchify: 100% alike" in page.inner_text("h1")
            sides = page.locator("section.side")
            assert sides.count() == 2
            for index in range(2):
                assert sides.nth(index).locator("tr.shared").count() >= 10
                assert sides.nth(index).locator("table.history tr.current").count() == 1
                assert "accepted" in sides.nth(index).locator("table.report").inner_text()
            background = page.eval_on_selector(".code tr.shared td:not(.n)", "e => getComputedStyle(e).backgroundColor")
            assert background == "rgb(255, 243, 176)"                      # marked as the eye sees it
            page.screenshot(path=str(tmp_path / "pair.png"), full_page=True)
            browser.close()

        # --- the author drops two tests: a regrade through the queue lists the flip
        drop_cropping_tests(root)
        regraded = stack.judge("regrade", "patchify", "--timeout", "300")
        assert "regrade of patchify asked" in regraded.stdout and "5 of 5 judged again" in regraded.stdout
        flip = re.search(rf"  dora  {ids['dora']}  wrong_answer \((\d+)\) -> accepted \((\d+)/(\d+)\)", regraded.stdout)
        assert flip is not None and flip[1] == flip[2] == flip[3], regraded.stdout   # only the dropped tests failed
        after = {r[0]: r for r in csv.reader(io.StringIO(stack.judge("gradebook", "--course", "ml101", "--wide").stdout))}
        assert after["dora"][5] == "10" and after["alice"][5] == "10"

        # --- a learner who left: disabled, their token no longer served
        stack.judge("users", "disable", "erin")
        refused = client.get(f"/api/v1/submissions/{ids['erin']}", headers={"Authorization": f"Bearer {tokens['erin']}"})
        assert refused.status_code == 401
        assert "erin" not in stack.judge("gradebook", "--course", "ml101", "--wide").stdout
        client.close()
    finally:
        stack.stop()
    for name in ("api", "worker"):
        assert "Traceback" not in (tmp_path / f"{name}.log").read_text(), name
