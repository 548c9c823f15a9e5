"""The gradebook: per learner and problem the best verdict, attempts and first accepted time, as CSV and JSON,
from the CLI and (instructors only) the API."""
from __future__ import annotations

import csv
import io
import json

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from click.testing import CliRunner  # noqa: E402

from judge.cli.commands import main  # noqa: E402
from judge.service.accounts import add_user  # noqa: E402
from judge.service.gradebook import gradebook, gradebook_csv  # noqa: E402


def _judged(store, user, problem, verdict, passed, total=10):
    [sid] = store.create(user, [(problem, f"# {verdict} {passed}")])
    store.claim(sid, "w", lease_s=60)
    store.finish(sid, {"verdict": verdict, "passed": passed, "total": total})
    return store.get(sid)[0]


def _course(store):
    alice = add_user(store, "alice", course="ml101").user
    bob = add_user(store, "bob", course="ml101").user
    add_user(store, "dora", course="ml101")                       # has submitted nothing
    carol = add_user(store, "carol", course="other").user
    add_user(store, "teach", "instructor", "ml101")
    _judged(store, alice, "patchify", "wrong_answer", 3)
    _judged(store, alice, "patchify", "runtime_error", 6)
    first = _judged(store, alice, "patchify", "accepted", 10)
    _judged(store, alice, "patchify", "wrong_answer", 9)          # after the first accepted one
    _judged(store, bob, "patchify", "wrong_answer", 4)
    _judged(store, bob, "clip_loss", "time_limit_exceeded", 2)
    _judged(store, bob, "clip_loss", "wrong_answer", 2)           # as good as the earlier: the latest counts
    store.create(bob, [("clip_loss", "# still queued")])
    _judged(store, carol, "patchify", "accepted", 10)             # another course
    return first


def test_best_verdict_attempts_and_first_accepted_per_learner_and_problem(store):
    first = _course(store)
    rows = {(e.learner, e.problem): e for e in gradebook(store, "ml101")}
    assert sorted(rows) == [(name, problem) for name in ("alice", "bob", "dora") for problem in ("clip_loss", "patchify")]
    a = rows["alice", "patchify"]
    assert (a.best_verdict, a.best_passed, a.total, a.attempts, a.judged) == ("accepted", 10, 10, 4, 4)
    assert a.first_accepted_at == first.created_at
    b = rows["bob", "clip_loss"]
    assert (b.best_verdict, b.best_passed, b.attempts, b.judged, b.first_accepted_at) == ("wrong_answer", 2, 3, 2, None)
    assert rows["bob", "patchify"].best_verdict == "wrong_answer"
    assert (rows["alice", "clip_loss"].attempts, rows["alice", "clip_loss"].best_verdict) == (0, None)
    assert rows["dora", "patchify"].attempts == 0
    assert gradebook(store, "nobody") == []


def test_the_csv_has_a_header_and_one_row_per_learner_and_problem(store):
    _course(store)
    table = list(csv.DictReader(io.StringIO(gradebook_csv(gradebook(store, "ml101")))))
    assert list(table[0]) == ["learner", "name", "problem", "best_verdict", "best_passed", "total", "attempts", "judged",
                              "first_accepted_at", "points", "max_points", "late_days", "tampering"]
    alice = next(r for r in table if (r["learner"], r["problem"]) == ("alice", "patchify"))
    assert alice["best_verdict"] == "accepted" and alice["attempts"] == "4"
    assert alice["first_accepted_at"].endswith("+00:00") and alice["first_accepted_at"][:2] == "20"
    dora = next(r for r in table if (r["learner"], r["problem"]) == ("dora", "clip_loss"))
    assert (dora["best_verdict"], dora["attempts"], dora["first_accepted_at"]) == ("", "0", "")


def _reported(store, user, problem, tampering, verdict="accepted"):
    """A submission judged into a real report (as the worker stores it) that lists `tampering`."""
    from judge.base.report import Report, TestResult
    from judge.base.outcomes import Verdict

    [sid] = store.create(user, [(problem, "# judged")])
    store.claim(sid, "w", lease_s=60)
    report = Report(problem, "submission.py", [TestResult("t", "hidden", Verdict(verdict))], tampering=tampering)
    store.finish(sid, report.to_json())


def test_tampering_is_listed_once_each_per_learner_and_problem_and_changes_no_verdict(store):
    alice = add_user(store, "alice", course="ml101").user
    bob = add_user(store, "bob", course="ml101").user
    _judged(store, alice, "patchify", "wrong_answer", 3)                 # stored before reports had tampering
    _reported(store, alice, "patchify", ("line 3: rebinds torch.autograd.grad, an attribute of a library module",),
              verdict="wrong_answer")
    _reported(store, alice, "patchify", ("line 3: rebinds torch.autograd.grad, an attribute of a library module",
                                         "a trace function was left set \u202e"))
    _reported(store, bob, "patchify", ())
    [sid] = store.create(bob, [("clip_loss", "# odd")])
    store.claim(sid, "w", lease_s=60)
    store.finish(sid, {"verdict": "wrong_answer", "passed": 1, "total": 2, "tampering": "not a list"})
    entries = gradebook(store, "ml101")
    rows = {(e.learner, e.problem): e for e in entries}
    alice_patchify = rows["alice", "patchify"]
    assert alice_patchify.best_verdict == "accepted"
    assert alice_patchify.tampering == ("line 3: rebinds torch.autograd.grad, an attribute of a library module",
                                        "a trace function was left set \u202e")
    assert rows["bob", "patchify"].tampering == rows["bob", "clip_loss"].tampering == ()
    assert rows["alice", "clip_loss"].tampering == ()                  # nothing submitted
    table = {(r["learner"], r["problem"]): r for r in csv.DictReader(io.StringIO(gradebook_csv(entries)))}
    assert table["alice", "patchify"]["tampering"] == ("line 3: rebinds torch.autograd.grad, an attribute of a library "
                                                       "module; a trace function was left set \\u202e")
    assert table["bob", "patchify"]["tampering"] == ""
    from judge.service.gradebook import gradebook_json

    plain = {(e["learner"], e["problem"]): e for e in gradebook_json("ml101", entries)["entries"]}
    assert plain["alice", "patchify"]["tampering"] == ["line 3: rebinds torch.autograd.grad, an attribute of a "
                                                       "library module", "a trace function was left set \\u202e"]
    assert plain["bob", "patchify"]["tampering"] == []


def test_the_cli_writes_csv_and_json(tmp_path):
    from judge.service.storage import Store

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    _course(store)
    store.close()
    runner = CliRunner()
    as_csv = runner.invoke(main, ["service", "--database", url, "gradebook", "--course", "ml101"])
    assert as_csv.exit_code == 0 and as_csv.output.splitlines()[0].startswith("learner,name,problem,best_verdict")
    assert len(as_csv.output.splitlines()) == 1 + 6
    as_json = runner.invoke(main, ["service", "--database", url, "gradebook", "--course", "ml101", "--format", "json"])
    data = json.loads(as_json.output)
    assert data["course"] == "ml101" and len(data["entries"]) == 6
    out = tmp_path / "book.csv"
    written = runner.invoke(main, ["service", "--database", url, "gradebook", "--course", "ml101", "-o", str(out)])
    assert written.exit_code == 0 and out.read_text() == as_csv.output


def test_the_api_serves_it_to_the_course_instructor_only(tmp_path, repo):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from judge.service.api import create_app
    from judge.service.config import ServiceConfig
    from judge.service.storage import Store
    from judge.judging.session import Judge

    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo),
                           allowed_hosts=("testserver",))
    store = Store(config.database_url)
    _course(store)
    [teach] = [a for a in store.accounts() if a.user.name == "teach"]
    from judge.service.accounts import rotate

    token = rotate(store, "teach").token
    learner = rotate(store, "alice").token
    other = add_user(store, "prof", "instructor", "other").token
    with Judge(repo, record=False) as judge, TestClient(create_app(config, store, None, judge)) as client:
        body = client.get("/api/v1/gradebook", headers={"Authorization": f"Bearer {token}"}).json()
        assert body["course"] == "ml101" and {e["learner"] for e in body["entries"]} == {"alice", "bob", "dora"}
        as_csv = client.get("/api/v1/gradebook?format=csv", headers={"Authorization": f"Bearer {token}"})
        assert as_csv.headers["content-type"].startswith("text/csv")
        assert as_csv.text == gradebook_csv(gradebook(store, "ml101"))
        refused = client.get("/api/v1/gradebook", headers={"Authorization": f"Bearer {learner}"})
        assert refused.status_code == 403 and refused.json()["error"]["message"] == "instructors only"
        theirs = client.get("/api/v1/gradebook", headers={"Authorization": f"Bearer {other}"}).json()
        assert {e["learner"] for e in theirs["entries"]} == {"carol"}       # their own course, nobody else's
    assert teach.user.role == "instructor"
    store.close()


def test_what_a_database_holds_reaches_the_instructor_escaped(tmp_path, repo):
    """A report with a lone surrogate and a bidi override in its message, and a verdict with an
    escape sequence (as a database could come to hold), are served as visible escapes in valid UTF-8."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from judge.service.accounts import rotate
    from judge.service.api import create_app
    from judge.service.config import ServiceConfig
    from judge.service.storage import Store
    from judge.judging.session import Judge

    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo),
                           allowed_hosts=("testserver",))
    store = Store(config.database_url)
    alice = add_user(store, "alice", course="ml101").user
    add_user(store, "teach", "instructor", "ml101")
    [sid] = store.create(alice, [("patchify", "# hostile")])
    store.claim(sid, "w", lease_s=60)
    store.finish(sid, {"verdict": "wrong\x1b[32m\u202eanswer", "passed": 1, "total": 2,
                       "tests": [{"message": "raised ValueError: \ud800 \u202eKO"}]})
    entries = gradebook(store, "ml101")
    assert "wrong\\x1b[32m\\u202eanswer" in gradebook_csv(entries)
    token = rotate(store, "teach").token
    with Judge(repo, record=False) as judge, TestClient(create_app(config, store, None, judge)) as client:
        headers = {"Authorization": f"Bearer {token}"}
        report = client.get(f"/api/v1/submissions/{sid}", headers=headers)
        assert report.status_code == 200
        data = json.loads(report.content.decode("ascii"))
        assert data["report"]["tests"][0]["message"] == "raised ValueError: \\ud800 \\u202eKO"
        book = client.get("/api/v1/gradebook", headers=headers).json()
        assert book["entries"][0]["best_verdict"] == "wrong\\x1b[32m\\u202eanswer"
        as_csv = client.get("/api/v1/gradebook?format=csv", headers=headers)
        assert "wrong\\x1b[32m\\u202eanswer" in as_csv.content.decode("utf-8")
    store.close()


COURSE_FILE = """\
course: ml101
problems:
  - id: patchify
    points: 10
    due: {due}
  - id: clip_loss
    points: 5
    credit: all_or_nothing
    due: {due}
    late: {{per_day: 20%}}
  - id: self_attention
    points: 5
"""


def _at(store, sid, when):
    """Date a submission back (or forward) to `when`, as if it had been submitted then."""
    from sqlalchemy import update

    from judge.service.storage.schema import SubmissionRow

    with store.engine.begin() as connection:
        connection.execute(update(SubmissionRow).where(SubmissionRow.id == sid).values(created_at=when))


def test_a_course_file_grades_points_with_dates_and_the_wide_form_is_what_an_lms_imports(store):
    import time

    from judge.service.gradebook import wide, wide_csv

    due = time.time() + 3600
    store.set_course("ml101", COURSE_FILE.format(due=time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(due))),
                     "ml101.yaml")
    alice = store.add_users([_new("alice", email="alice@example.org", student_id="S1")])[0]
    bob = store.add_users([_new("bob")])[0]
    add_user(store, "teach", "instructor", "ml101")
    _judged(store, alice, "patchify", "wrong_answer", 6)                    # 6/10 tests: 6 points
    late = _judged(store, alice, "patchify", "accepted", 10)                # after the due date: does not count
    _at(store, late.id, due + 60)
    _judged(store, bob, "patchify", "wrong_answer", 9)
    _judged(store, bob, "clip_loss", "wrong_answer", 9)                     # all or nothing: 0
    two_days = _judged(store, bob, "clip_loss", "accepted", 10)             # two started days late: -40%
    _at(store, two_days.id, due + 86400 + 5)
    _judged(store, bob, "unlisted", "accepted", 10)                          # not in the course file
    rows = {(e.learner, e.problem): e for e in gradebook(store, "ml101")}
    assert sorted({p for _, p in rows}) == ["clip_loss", "patchify", "self_attention"]
    a = rows["alice", "patchify"]
    assert (a.best_verdict, a.points, a.max_points, a.late_days) == ("accepted", 6, 10, 0)
    b = rows["bob", "clip_loss"]
    assert (b.points, b.max_points, b.late_days) == (3, 5, 2)
    assert (rows["bob", "self_attention"].points, rows["bob", "self_attention"].late_days) == (0, None)
    graded, learners = wide(store, "ml101")
    table = list(csv.reader(io.StringIO(wide_csv(graded, learners, points_row=True))))
    assert table == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "patchify", "clip_loss",
                      "self_attention", "Total"],
                     ["Points Possible", "", "", "", "", "10", "5", "5", "20"],
                     ["alice", "", "S1", "alice@example.org", "", "6", "0", "0", "6"],
                     ["bob", "", "", "bob", "", "9", "3", "0", "12"]]


def _new(name, course="ml101", email=None, student_id=None, full_name=None, section=None):
    from judge.service.accounts import hash_token, new_token
    from judge.service.storage import NewUser

    return NewUser(name, "learner", course, hash_token(new_token()), email, student_id, None, full_name, section)


# Canvas's gradebook import: the identity columns Student, ID, SIS User ID, SIS Login ID and Section, in that
# order, then a column per assignment; a learner is matched on ID, SIS User ID or SIS Login ID (the name is
# read as written, `Last, First` included), and a "Points Possible" row is optional. Moodle's CSV import maps
# one column to a user field (email, ID number, username): each value there must be one learner's, and a
# row it cannot map (such as "Points Possible") is an error. Both read UTF-8 and numbers with a decimal point.
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def test_the_wide_csv_is_what_canvas_and_moodle_import_with_real_names(store):
    from judge.service.gradebook import wide, wide_csv

    people = [("chloe.dupont", "Chloé Dupont", "chloe@example.org", "S1", "Lab A"),
              ("jean.dupont", "Dupont, Jean", "jean@example.org", "S2", "Lab B"),
              ("zoe.o.brien.lukasz", "Zoë O'Brien-Łukasz", None, "S3", "Lab A")]
    users = store.add_users([_new(login, email=email, student_id=sid, full_name=name, section=section)
                             for login, name, email, sid, section in people])
    _judged(store, users[0], "patchify", "wrong_answer", 7)
    _judged(store, users[1], "patchify", "accepted", 10)
    graded, rows = wide(store, "ml101")
    text = wide_csv(graded, rows)
    text.encode("utf-8")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:5] == CANVAS_IDENTITY and table[0][5:] == ["patchify", "Total"]
    assert all(len(row) == len(table[0]) for row in table)
    body = table[1:]
    assert [r[0] for r in body] == ["Chloé Dupont", "Dupont, Jean", "Zoë O'Brien-Łukasz"]   # as the roster wrote them
    assert [r[4] for r in body] == ["Lab A", "Lab B", "Lab A"]                              # the roster's sections
    assert "Points Possible" not in {r[0] for r in body}                                    # Moodle: not a learner
    for column in (2, 3):            # SIS User ID (Moodle: ID number), SIS Login ID (email, else the login)
        values = [r[column] for r in body]
        assert all(values) and len(set(values)) == len(values)
    assert [r[3] for r in body] == ["chloe@example.org", "jean@example.org", "zoe.o.brien.lukasz"]
    assert [(float(r[5]), float(r[6])) for r in body] == [(0.7, 0.7), (1.0, 1.0), (0.0, 0.0)]
    # The long form names them too.
    long = {r["learner"]: r["name"] for r in csv.DictReader(io.StringIO(gradebook_csv(gradebook(store, "ml101"))))}
    assert long == {"chloe.dupont": "Chloé Dupont", "jean.dupont": "Dupont, Jean",
                    "zoe.o.brien.lukasz": "Zoë O'Brien-Łukasz"}


def test_disabled_deleted_and_moved_learners_leave_the_gradebook_and_their_data_stays(store):
    _course(store)
    store.set_disabled("dora", True)
    assert {e.learner for e in gradebook(store, "ml101")} == {"alice", "bob"}
    store.set_disabled("dora", False)
    store.move("bob", "other")
    assert {e.learner for e in gradebook(store, "other")} == {"bob", "carol"}
    assert ("bob", "clip_loss") in {(e.learner, e.problem) for e in gradebook(store, "other")}   # his work moved too
    assert store.delete_user("alice", keep_submissions=True) == 0
    assert {e.learner for e in gradebook(store, "ml101")} == {"dora"}
    _, kept = store.course("ml101")
    assert len(kept) == 4 and {s.user for s in kept} == {next(a for a in kept).user}
    assert kept[0].user.startswith("deleted-") and kept[0].user.endswith("-alice")
    add_user(store, "alice", course="ml101")                                 # the name is free again
    assert store.delete_user("carol", keep_submissions=False) == 1
    _, theirs = store.course("other")
    assert {s.user for s in theirs} == {"bob"}


def test_the_cli_refuses_an_unknown_course_and_writes_the_wide_form(tmp_path):
    from judge.service.storage import Store

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    _course(store)
    store.close()
    runner = CliRunner()
    for command in (["gradebook"], ["gradebook", "--wide"], ["similarity"], ["analytics"]):
        unknown = runner.invoke(main, ["service", "--database", url, *command, "--course", "nosuch"])
        assert unknown.exit_code == 2 and unknown.output == "error: no course 'nosuch' (courses: ml101, other)\n"
    as_wide = runner.invoke(main, ["service", "--database", url, "gradebook", "--course", "ml101", "--wide"])
    assert as_wide.exit_code == 0
    assert as_wide.output.splitlines() == ["Student,ID,SIS User ID,SIS Login ID,Section,clip_loss,patchify,Total",
                                           "alice,,,alice,,0,1,1", "bob,,,bob,,0.2,0.4,0.6",
                                           "dora,,,dora,,0,0,0"]
    as_json = json.loads(runner.invoke(main, ["service", "--database", url, "gradebook", "--course", "ml101",
                                              "--wide", "--format", "json"]).output)
    assert as_json["rows"][1] == {"learner": "bob", "name": "bob", "section": None, "email": None, "id": None,
                                  "points": {"clip_loss": 0.2, "patchify": 0.4}, "total": 0.6}


def test_no_cell_of_either_csv_form_is_a_formula_and_points_stay_numbers(store):
    """What a sandboxed child reported (tampering), what a database came to hold (a verdict), and an email
    beginning with + reach the spreadsheet quoted (judge.base.csvcells); the points are numbers still."""
    from judge.service.gradebook import WideRow, wide, wide_csv

    alice = store.add_users([_new("alice", email="+1+cmd@example.org", student_id="S1")])[0]
    _reported(store, alice, "patchify", ("@SUM(A1:A9) said the child", "line 2: uses ctypes"))
    [sid] = store.create(alice, [("clip_loss", "# hostile")])
    store.claim(sid, "w", lease_s=60)
    store.finish(sid, {"verdict": "-2+3", "passed": 1, "total": 2, "tampering": ["=HYPERLINK(\"x\",\"y\")"]})
    table = {r["problem"]: r for r in csv.DictReader(io.StringIO(gradebook_csv(gradebook(store, "ml101"))))}
    assert table["patchify"]["tampering"] == "'@SUM(A1:A9) said the child; line 2: uses ctypes"
    assert table["clip_loss"]["best_verdict"] == "'-2+3"
    assert table["clip_loss"]["tampering"] == "'=HYPERLINK(\"x\",\"y\")"
    assert (table["patchify"]["points"], table["clip_loss"]["points"]) == ("1", "0.5")
    graded, rows = wide(store, "ml101")
    lines = list(csv.reader(io.StringIO(wide_csv(graded, rows))))
    assert lines[1] == ["alice", "", "S1", "'+1+cmd@example.org", "", "0.5", "1", "1.5"]
    # A negative score (none of the course rules gives one yet) is a number in the LMS, not quoted text.
    negative = wide_csv(graded, [WideRow(alice, (-1.5, 0.25), -1.25)])
    assert list(csv.reader(io.StringIO(negative)))[1][-3:] == ["-1.5", "0.25", "-1.25"]
