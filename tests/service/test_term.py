"""An instructor's term against the whole stack, on SQLite and on PostgreSQL: Redis, `judge service` (API and
reaper), a Dramatiq worker, and Debian's Chromium on the review page.

A roster of six with real names (as an LMS exports them: accents, `Last, First`, an apostrophe, a letter
that does not decompose; three without a login, which the import makes and says) is imported; a course
file gives patchify 10 points (credit per test, due next week, the last submission counts) and
self_attention 5 (all or nothing, due an hour ago, 10% off per day late, feedback: the verdict and the tests
passed only), with two more days for one learner. Learners submit through the HTTP API: one copies
another's solution in every disguise, the others err in known ways, one gets patchify right then wrong.
The instructor reads the wide gradebook (names, sections, the extension, the last submission), the class
analytics (who made each mistake), and in Chromium signs in to the review page, finds the pair and opens
it side by side with the shared lines marked. A learner reads only the verdict and the tests passed of
the hidden-feedback problem. Then the author drops two of patchify's tests: `judge service regrade
patchify` judges the stale submissions again through the queue, lists the flip, and the gradebook
follows. A disabled learner's token stops working.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
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

# (name, login given or "", the login the import makes or keeps, section)
PEOPLE = (("Chloé Dupont", "", "chloe.dupont", "Lab A"), ("Dupont, Jean", "", "jean.dupont", "Lab B"),
          ("Zoë O'Brien-Łukasz", "", "zoe.o.brien.lukasz", "Lab A"), ("Dora Ünal", "dora", "dora", "Lab B"),
          ("Erin Smith", "erin", "erin", "Lab A"), ("Frank Ó Briain", "frank", "frank", "Lab B"))
ROSTER = "name,login,course,email,id,section\n" + "".join(
    f'"{name}",{given},ml101,{login}@example.org,S{i},{section}\n'
    for i, (name, given, login, section) in enumerate(PEOPLE, 1))
NAME = {login: name for name, _, login, _ in PEOPLE}
CHLOE, JEAN, ZOE = "chloe.dupont", "jean.dupont", "zoe.o.brien.lukasz"
PATCHIFY = {name: (REPO / "submissions/patchify" / name).read_text() for name in
            ("accepted/reshape_permute.py", "accepted/unfold.py", "wrong_answer/column_major.py",
             "wrong_answer/silent_cropping.py", "wrong_answer/batch_mixing.py")}
ATTENTION = (REPO / "submissions/self_attention/accepted/matmul_softmax.py").read_text()
ATTENTION_OTHER = (REPO / "submissions/self_attention/accepted/per_sample_log_softmax.py").read_text()
ATTENTION_WRONG = (REPO / "submissions/self_attention/wrong_answer/naive_exp.py").read_text()


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


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """A database of the term's own: an SQLite file, or one in the session's PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'term.sqlite3'}"
    from sqlalchemy import create_engine, text

    postgres_url = request.getfixturevalue("postgres_url")
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("DROP DATABASE IF EXISTS term"))
        connection.execute(text("CREATE DATABASE term"))
    admin.dispose()
    return postgres_url.rsplit("/", 1)[0] + "/term"


def test_an_instructors_term_on_the_whole_stack(tmp_path, database, redis):
    root = copy_problems(tmp_path / "set", "patchify", "self_attention")
    port = free_port()
    env = {**os.environ, "JUDGE_SERVICE_DATABASE": database, "JUDGE_SERVICE_REDIS": redis.url,
           "JUDGE_PROBLEMS_DIR": str(root), "JUDGE_HOME": str(tmp_path / "home"),
           "JUDGE_SERVICE_REAP_EVERY_S": "1", "JUDGE_SERVICE_REQUEUE_AFTER_S": "5"}
    stack = Stack(env, tmp_path)
    now = time.time()
    (tmp_path / "ml101.yaml").write_text(
        "course: ml101\nproblems:\n"
        f"  - {{id: patchify, points: 10, due: '{_iso(now + 7 * 86400)}', counts: last}}\n"
        f"  - {{id: self_attention, points: 5, credit: all_or_nothing, due: '{_iso(now - 3600)}', "
        "late: {per_day: 10%}, feedback: verdict}\n"
        "extensions:\n  frank: {self_attention: 2d}\n", encoding="utf-8")
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    try:
        # --- before the term: roster in (logins made for three), the course's rules, an instructor
        imported = stack.judge("users", "import", str(tmp_path / "roster.csv"), "-o", str(tmp_path / "tokens.csv"))
        assert imported.stdout.startswith("created 6 account(s) in ml101")
        assert "  line 2: Chloé Dupont -> chloe.dupont" in imported.stdout
        assert "  line 4: Zoë O'Brien-Łukasz -> zoe.o.brien.lukasz" in imported.stdout
        with (tmp_path / "tokens.csv").open(encoding="utf-8", newline="") as handle:
            tokens = {row["login"]: row["token"] for row in csv.DictReader(handle)}
        assert set(tokens) == set(NAME)
        # An impossible date is one line, not a traceback; then the real file.
        (tmp_path / "bad.yaml").write_text("course: ml101\nproblems:\n  - id: patchify\n    points: 1\n"
                                           "    due: 2026-02-30\n")
        bad = stack.judge("course", "check", str(tmp_path / "bad.yaml"), check=False)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr
        assert bad.stderr.strip().splitlines()[-1].startswith(f"error: {tmp_path / 'bad.yaml'}:5: problems[0].due: "
                                                              "'2026-02-30' is no day of the calendar")
        stack.judge("course", "set", str(tmp_path / "ml101.yaml"))
        teach = stack.judge("users", "add", "teach", "--role", "instructor", "--course", "ml101", "--name",
                            "Prof. Ana Ruiz").stdout.strip().splitlines()[-1]
        stack.start("api", "--port", str(port))
        stack.start("worker", "worker", "--processes", "1")
        wait_for_port(port, timeout=120)
        base = f"http://127.0.0.1:{port}"
        client = httpx.Client(base_url=base, timeout=60)

        # --- the learners submit through the API (erin: right, then wrong; patchify counts the last)
        copy = disguises.disguise(PATCHIFY["accepted/reshape_permute.py"], "combined", "patchify")
        plan = [(CHLOE, "patchify", PATCHIFY["accepted/reshape_permute.py"]), (JEAN, "patchify", copy),
                (ZOE, "patchify", PATCHIFY["wrong_answer/column_major.py"]),
                ("dora", "patchify", PATCHIFY["wrong_answer/silent_cropping.py"]),
                ("erin", "patchify", PATCHIFY["accepted/unfold.py"]),
                ("erin", "patchify", PATCHIFY["wrong_answer/batch_mixing.py"]),
                ("frank", "self_attention", ATTENTION), ("erin", "self_attention", ATTENTION_OTHER),
                ("dora", "self_attention", ATTENTION_WRONG)]
        ids = {}
        for learner, problem, source in plan:
            answer = client.post("/api/v1/submissions", json={"problem": problem, "source": source},
                                 headers={"Authorization": f"Bearer {tokens[learner]}"})
            assert answer.status_code == 202, answer.text
            ids[(learner, problem, len([k for k in ids if k[:2] == (learner, problem)]))] = answer.json()["id"]
            time.sleep(0.01)                       # each later than the one before (counts: last)
        instructor = {"Authorization": f"Bearer {teach}"}
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline:
            states = [client.get(f"/api/v1/submissions/{i}", headers=instructor).json()["status"] for i in ids.values()]
            if set(states) == {"done"}:
                break
            time.sleep(1)
        verdicts = {k: client.get(f"/api/v1/submissions/{i}", headers=instructor).json()["verdict"]
                    for k, i in ids.items()}
        assert verdicts == {(CHLOE, "patchify", 0): "accepted", (JEAN, "patchify", 0): "accepted",
                            (ZOE, "patchify", 0): "wrong_answer", ("dora", "patchify", 0): "wrong_answer",
                            ("erin", "patchify", 0): "accepted", ("erin", "patchify", 1): "wrong_answer",
                            ("frank", "self_attention", 0): "accepted", ("erin", "self_attention", 0): "accepted",
                            ("dora", "self_attention", 0): "wrong_answer"}, \
            (tmp_path / "worker.log").read_text()[-3000:]
        first = ids[(CHLOE, "patchify", 0)]
        assert client.get(f"/api/v1/submissions/{first}", headers=instructor).json()["source"] == plan[0][2]

        # --- feedback held back: the learner reads the verdict and the tests passed, the instructor all of it
        held = ids[("dora", "self_attention", 0)]
        theirs = client.get(f"/api/v1/submissions/{held}", headers={"Authorization": f"Bearer {tokens['dora']}"})
        report = theirs.json()["report"]
        assert report["verdict"] == "wrong_answer" and report["feedback"] == "verdict"
        assert 0 <= report["passed"] < report["total"]
        assert len(report["tests"]) == report["passed"]
        assert all(set(t) == {"name", "group", "verdict"} and t["verdict"] == "accepted" for t in report["tests"])
        assert "mistake" not in json.dumps(report) and "message" not in json.dumps(report)
        full = client.get(f"/api/v1/submissions/{held}", headers=instructor).json()["report"]
        assert len(full["tests"]) == full["total"] and any(t["message"] for t in full["tests"])
        open_ = client.get(f"/api/v1/submissions/{ids[('dora', 'patchify', 0)]}",
                           headers={"Authorization": f"Bearer {tokens['dora']}"}).json()["report"]
        assert len(open_["tests"]) == open_["total"] and "feedback" not in open_       # patchify: full feedback

        # --- grading: the wide CSV an LMS imports, with names, sections, points, the late rule, the extension
        wide = list(csv.reader(io.StringIO(stack.judge("gradebook", "--course", "ml101", "--wide").stdout)))
        assert wide[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "patchify", "self_attention",
                           "Total"]
        rows = {r[0]: r for r in wide[1:]}
        assert set(rows) == set(NAME.values())
        assert rows["Chloé Dupont"][2:] == ["S1", "chloe.dupont@example.org", "Lab A", "10", "0", "10"]
        assert rows["Dupont, Jean"][4] == "Lab B"
        assert rows["Frank Ó Briain"][5:] == ["0", "5", "5"]                    # two more days: on time
        assert rows["Erin Smith"][6] == "4.5"                                     # a day late: 10% off
        assert 0 < float(rows["Erin Smith"][5]) < 10                              # the last submission counts
        dora_before = float(rows["Dora Ünal"][5])
        assert 0 < dora_before < 10                                               # credit per test

        # --- class analytics: the named mistake and who made it
        analytics = client.get("/api/v1/analytics?problem=patchify", headers=instructor).json()["problems"][0]
        column = {m["name"]: m for m in analytics["mistakes"]}["column_major"]
        assert (column["learners"], column["who"], column["still_who"]) == \
            (1, ["Zoë O'Brien-Łukasz"], ["Zoë O'Brien-Łukasz"])

        # --- similarity review in Chromium: the pair found (names beside logins), opened side by side
        pairs = client.get("/api/v1/similarity", headers=instructor).json()["pairs"]
        assert [(p["a"], p["b"], p["a_name"], p["b_name"]) for p in pairs] == \
            [(CHLOE, JEAN, "Chloé Dupont", "Dupont, Jean")]
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{base}/review")
            assert page.url.endswith("/review/login")
            page.fill("input[name=token]", tokens[CHLOE])                      # a learner is refused
            page.click("button[type=submit]")
            assert "for instructors" in page.inner_text("main")
            page.fill("input[name=token]", teach)
            page.click("button[type=submit]")
            page.wait_for_selector("table.pairs")
            assert page.inner_text("table.pairs tr:nth-child(2) td:first-child") == "Chloé Dupont · Dupont, Jean"
            assert "column_major" in page.inner_text("table.mistakes")
            assert "Zoë O'Brien-Łukasz" in page.inner_text("table.mistakes")
            page.click("table.pairs a")
            page.wait_for_selector(".sides")
            assert "Chloé Dupont and Dupont, Jean on patchify: 100% alike" in page.inner_text("h1")
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
        assert "regrade of patchify asked" in regraded.stdout and "6 of 6 judged again" in regraded.stdout
        dora_patchify = ids[("dora", "patchify", 0)]
        flip = re.search(rf"  dora \(Dora Ünal\)  {dora_patchify}  wrong_answer \((\d+)\) -> accepted "
                         rf"\((\d+)/(\d+)\)", regraded.stdout)
        assert flip is not None and flip[1] == flip[2] == flip[3], regraded.stdout   # only the dropped tests failed
        after = {r[0]: r for r in csv.reader(io.StringIO(stack.judge("gradebook", "--course", "ml101", "--wide").stdout))}
        assert after["Dora Ünal"][5] == "10" and after["Chloé Dupont"][5] == "10"

        # --- a learner who left: disabled, their token no longer served
        stack.judge("users", "disable", "erin")
        refused = client.get(f"/api/v1/submissions/{ids[('erin', 'patchify', 0)]}",
                             headers={"Authorization": f"Bearer {tokens['erin']}"})
        assert refused.status_code == 401
        assert "Erin Smith" not in stack.judge("gradebook", "--course", "ml101", "--wide").stdout
        client.close()
    finally:
        stack.stop()
    for name in ("api", "worker"):
        assert "Traceback" not in (tmp_path / f"{name}.log").read_text(), name
