"""Course files: points, credit, opening and due dates and late rules, which submission counts, what learners
see, extensions, checked as problem files are (an impossible date too), and the CLI that stores one."""
from __future__ import annotations

import datetime as dt

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from click.testing import CliRunner  # noqa: E402

from judge.cli.commands import main  # noqa: E402
from judge.base.errors import ConfigError, ConfigErrors  # noqa: E402
from judge.service.course import LateRule, default_course, load_course, parse_course  # noqa: E402

COURSE = """\
course: ml101
title: Vision transformers
timezone: Europe/Berlin
problems:
  - id: patchify
    points: 10
    opens: 2027-02-01 09:00
    due: 2027-02-08 23:59
  - id: self_attention
    points: 20
    credit: all_or_nothing
    due: 2027-02-15
    late: {per_day: 10%, until: 2027-02-18}
"""


def _utc(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc).timestamp()


def test_a_course_file_reads_into_points_dates_and_rules():
    course = parse_course(COURSE, "ml101.yaml", {"patchify", "self_attention"})
    assert (course.name, course.title, course.points) == ("ml101", "Vision transformers", 30)
    patchify, attention = course.assignments
    # Berlin is UTC+1 in February: times without an offset are the course's time zone.
    assert patchify.opens == _utc("2027-02-01 08:00") and patchify.due == _utc("2027-02-08 22:59")
    assert (patchify.credit, patchify.late) == ("per_test", None)
    assert attention.due == _utc("2027-02-15 23:00")                     # a date alone: the end of that day
    assert attention.late == LateRule(0.1, _utc("2027-02-18 23:00"))


def test_points_follow_credit_opening_due_date_and_late_rule():
    patchify, attention = parse_course(COURSE, "ml101.yaml").assignments
    before, on_time, late = patchify.opens - 1, patchify.due - 60, patchify.due + 60
    assert patchify.score(before, "accepted", 23, 23) is None            # before it opens: does not count
    assert patchify.score(on_time, "wrong_answer", 15, 20) == 7.5        # credit per test
    assert patchify.score(on_time, "accepted", 20, 20) == 10
    assert patchify.score(late, "accepted", 20, 20) is None              # late: none, by default
    due = attention.due
    assert attention.score(due - 1, "wrong_answer", 19, 20) == 0          # all or nothing
    assert attention.score(due - 1, "accepted", 20, 20) == 20
    assert attention.score(due + 3600, "accepted", 20, 20) == 18         # a started day late: -10%
    assert attention.score(due + 86400 + 1, "accepted", 20, 20) == 16    # two started days
    assert attention.late_days(due + 86400 + 1) == 2
    assert attention.score(attention.late.until + 1, "accepted", 20, 20) is None


def test_without_a_file_every_problem_is_a_point_credited_per_test():
    course = default_course("ml101", ["clip_loss", "patchify"])
    assert [a.problem for a in course.assignments] == ["clip_loss", "patchify"] and course.points == 2
    assert course.assignments[0].score(0.0, "wrong_answer", 3, 4) == 0.75


@pytest.mark.parametrize("text, expected", [
    ("course: ml101\nproblems: []\n", "ml101.yaml:2: problems: expected at least one problem"),
    ("problems:\n  - {id: patchify, points: 1}\n", "ml101.yaml:1: course: missing"),
    ("course: ml 101\nproblems:\n  - {id: patchify, points: 1}\n", "ml101.yaml:1: course: expected 1-64 letters"),
    ("course: ml101\nproblems:\n  - {id: nosuch, points: 1}\n",
     "ml101.yaml:3: problems[0].id: no problem 'nosuch' in the problem set (judge list shows them)"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 0}\n", "ml101.yaml:3: problems[0].points: expected a number above 0"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: ten}\n", "problems[0].points: expected the problem's points"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, credit: half}\n",
     "problems[0].credit: expected one of per_test, all_or_nothing"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: next friday}\n", "problems[0].due: expected a date or time"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, opens: 2027-02-08, due: 2027-02-01}\n",
     "problems[0].due: expected a time after `opens`"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, late: {per_day: 10%}}\n",
     "problems[0].late: a late rule needs a `due` date"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2027-02-01, late: {per_day: 150%}}\n",
     "problems[0].late.per_day: expected a share of the points lost per day late"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2027-02-01, late: {per_day: 5%, until: 2027-01-01}}\n",
     "problems[0].late.until: expected a time after `due`"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, late: sometimes}\n", "problems[0].late: expected none or a mapping"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, weight: 2}\n", "problems[0].weight: unknown field"),
    ("course: ml101\ntimezone: Mars/Olympus\nproblems:\n  - {id: patchify, points: 1}\n",
     "ml101.yaml:2: timezone: unknown time zone 'Mars/Olympus'"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1}\n  - {id: patchify, points: 2}\n",
     "problems[1].id: 'patchify' is listed twice (also problems[0])"),
    ("course: [ml101\n", "ml101.yaml:2: invalid YAML"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2026-02-30}\n",
     "ml101.yaml:3: problems[0].due: '2026-02-30' is no day of the calendar (day is out of range for month)"),
    ("course: ml101\nproblems:\n  - id: patchify\n    points: 1\n    opens: 2026-13-01 10:00\n",
     "ml101.yaml:5: problems[0].opens: '2026-13-01 10:00' is no day of the calendar"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2027-02-01, late: {per_day: 5%, until: 2027-02-29}}\n",
     "problems[0].late.until: '2027-02-29' is no day of the calendar"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, counts: first}\n",
     "ml101.yaml:3: problems[0].counts: expected one of best, last"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, feedback: none}\n",
     "ml101.yaml:3: problems[0].feedback: expected one of full, verdict, after_due"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, feedback: after_due}\n",
     "problems[0].feedback: after_due needs a `due` date"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2027-02-01}\nextensions:\n  ada: {nosuch: 2d}\n",
     "ml101.yaml:5: extensions.ada.nosuch: no problem 'nosuch' in this course's problems"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1}\nextensions:\n  ada: {patchify: 2d}\n",
     "ml101.yaml:5: extensions.ada.patchify: patchify has no due date to extend"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2027-02-01}\nextensions:\n  ada:\n    patchify: 2027-02-30\n",
     "ml101.yaml:6: extensions.ada.patchify: '2027-02-30' is no day of the calendar"),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2027-02-01}\nextensions:\n  ada: {patchify: 2027-01-01}\n",
     "extensions.ada.patchify: expected a due date after the course's (2027-02-01 24:00 UTC)"[:60]),
    ("course: ml101\nproblems:\n  - {id: patchify, points: 1, due: 2027-02-01}\nextensions:\n  ada lovelace: {patchify: 1d}\n",
     "ml101.yaml:5: extensions.ada lovelace: 'ada lovelace': expected a login"),
])
def test_every_mistake_in_a_course_file_is_one_line_naming_file_line_and_field(text, expected):
    with pytest.raises(ConfigError) as caught:
        parse_course(text, "ml101.yaml", {"patchify"})
    lines = caught.value.lines() if isinstance(caught.value, ConfigErrors) else [str(caught.value)]
    assert any(expected in line for line in lines), lines
    assert all("\n" not in line and line.startswith("ml101.yaml") for line in lines)


def test_extensions_move_one_learners_due_date_and_until_and_counts_and_feedback_read():
    text = COURSE.replace("    late: {per_day: 10%, until: 2027-02-18}\n",
                          "    late: {per_day: 10%, until: 2027-02-18}\n    counts: last\n    feedback: after_due\n") \
        + "extensions:\n  ada: {self_attention: 2d, patchify: 2027-02-10 12:00}\n  bob: {self_attention: 36h}\n"
    course = parse_course(text, "ml101.yaml", {"patchify", "self_attention"})
    attention = course.assignment("self_attention")
    assert (attention.counts, attention.feedback) == ("last", "after_due")
    ada, bob, eve = (course.assignment("self_attention", who) for who in ("ada", "bob", "eve"))
    assert ada.due == attention.due + 2 * 86400 and ada.late.until == attention.late.until + 2 * 86400
    assert bob.due == attention.due + 36 * 3600 and eve == attention
    assert course.assignment("patchify", "ada").due == _utc("2027-02-10 11:00")        # Berlin: UTC+1
    # On ada's own due date she is on time; a second later, one day late.
    assert ada.score(ada.due, "accepted", 20, 20) == 20 and ada.score(ada.due + 1, "accepted", 20, 20) == 18
    # after_due: the verdict only until the learner's own due date, everything after it.
    assert not ada.full_feedback(attention.due + 60) and attention.full_feedback(attention.due + 60)


def test_the_late_rule_costs_a_share_of_the_points_earned_per_started_day():
    """As the docs say it: every started day counts whole, and each costs per_day of the points the
    submission earned (not of the problem's points), never below zero."""
    [rule] = parse_course("course: ml101\nproblems:\n  - {id: patchify, points: 10, due: 2027-02-01, "
                          "late: {per_day: 10%}}\n", "ml101.yaml").assignments
    due = rule.due
    assert rule.score(due + 1, "wrong_answer", 6, 10) == 5.4         # one second late: a day, 10% of 6
    assert rule.score(due + 86400, "wrong_answer", 6, 10) == 5.4     # exactly a day: still one
    assert rule.score(due + 86401, "wrong_answer", 6, 10) == 4.8     # a second more: two days
    assert rule.score(due + 11 * 86400, "accepted", 10, 10) == 0      # never below zero


def test_all_mistakes_are_reported_at_once(tmp_path):
    path = tmp_path / "ml101.yaml"
    path.write_text("course: ml101\nproblems:\n  - {id: nosuch, points: -1}\n  - {id: patchify, credit: x}\n")
    with pytest.raises(ConfigErrors) as caught:
        load_course(path, {"patchify"})
    assert len(caught.value.lines()) == 4      # the unknown id, the points, the missing points, the credit


def test_the_cli_checks_sets_and_shows_a_course_file(tmp_path, repo):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    path = tmp_path / "ml101.yaml"
    path.write_text(COURSE)
    runner = CliRunner()

    def judge(*args):
        return runner.invoke(main, ["--problems-dir", str(repo), "service", "--database", url, *args])

    checked = judge("course", "check", str(path))
    assert checked.exit_code == 0, checked.output
    assert checked.output.splitlines()[0] == "course ml101 (Vision transformers): 2 problem(s), 30 points"
    assert "self_attention: 20 points, all or nothing, due 2027-02-15 23:00 UTC, late: -10% per day until " \
           "2027-02-18 23:00 UTC" in checked.output
    assert judge("course", "show", "ml101").output.startswith("error: no course 'ml101'")   # not stored yet
    assert judge("course", "set", str(path)).exit_code == 0
    shown = judge("course", "show", "ml101")
    assert shown.exit_code == 0 and shown.stdout == COURSE
    path.write_text(COURSE.replace("id: self_attention", "id: self_attentionn"))
    refused = judge("course", "set", str(path))
    assert refused.exit_code == 2
    assert refused.output.strip() == (f"error: {path}:9: problems[1].id: no problem 'self_attentionn' in the "
                                      "problem set (judge list shows them)")
    assert judge("course", "show", "ml101").stdout == COURSE                  # the checked one stays
    missing = judge("course", "set", str(tmp_path / "none.yaml"))
    assert missing.exit_code == 2 and missing.output.strip() == f"error: {tmp_path / 'none.yaml'}: file not found"
    # An impossible date written unquoted (YAML would read it as a date and fail with no line): one line.
    path.write_text(COURSE.replace("due: 2027-02-08 23:59", "due: 2026-02-30"))
    for command in ("check", "set"):
        impossible = judge("course", command, str(path))
        assert impossible.exit_code == 2 and impossible.exc_info[0] is SystemExit
        assert impossible.output.strip() == (f"error: {path}:8: problems[0].due: '2026-02-30' is no day of the "
                                             "calendar (day is out of range for month): expected a date or time "
                                             "(2027-02-08, 2027-02-08 23:59, 2027-02-08T23:59+01:00)")
    # An extension for a login the course does not have is refused where it is written.
    path.write_text(COURSE + "extensions:\n  nobody: {patchify: 2d}\n")
    unknown = judge("course", "set", str(path))
    assert unknown.exit_code == 2
    assert unknown.output.strip() == (f"error: {path}:15: extensions.nobody: no learner 'nobody' in course ml101 "
                                      "(judge service users list shows them)")
