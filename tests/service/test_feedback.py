"""What a learner reads of a report under each feedback policy: everything; the verdict and the tests passed;
the verdict until their own due date, then everything."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from judge.service.course import parse_course  # noqa: E402
from judge.service.feedback import for_learner  # noqa: E402

REPORT = {"problem": "patchify", "submission": "mine.py", "verdict": "wrong_answer", "passed": 1, "total": 2,
          "time_ms": 3.0, "output": "debug print", "warnings": [], "tampering": [], "loading_output": "",
          "tests": [{"name": "example_1", "group": "example", "verdict": "accepted", "message": "", "hint": None,
                     "mistake": None, "mistakes": []},
                    {"name": "hidden_rectangular", "group": "hidden", "verdict": "wrong_answer",
                     "message": "values differ at [0, 1]", "hint": "look at the strides",
                     "mistake": {"name": "column_major", "message": "column-major patches"},
                     "mistakes": [{"name": "column_major", "message": "column-major patches"}]}]}
COURSE = """\
course: ml101
problems:
  - {id: patchify, points: 1, feedback: full}
  - {id: self_attention, points: 1, feedback: verdict}
  - {id: clip_loss, points: 1, due: 2027-02-01, feedback: after_due}
extensions:
  ada: {clip_loss: 2d}
"""


def test_each_policy_shows_what_it_says():
    course = parse_course(COURSE, "ml101.yaml")
    assert for_learner(REPORT, course.assignment("patchify", "eve"), 0.0) == REPORT
    held = for_learner(REPORT, course.assignment("self_attention", "eve"), 0.0)
    assert held == {"problem": "patchify", "submission": "mine.py", "verdict": "wrong_answer", "passed": 1,
                    "total": 2, "tests": [{"name": "example_1", "group": "example", "verdict": "accepted"}],
                    "feedback": "verdict", "full_feedback_at": None}
    due = course.assignment("clip_loss").due
    assert for_learner(REPORT, course.assignment("clip_loss", "eve"), due - 1)["feedback"] == "verdict"
    assert for_learner(REPORT, course.assignment("clip_loss", "eve"), due + 1) == REPORT
    # ada's extension holds her feedback back until her own due date, and says when it comes.
    ada = for_learner(REPORT, course.assignment("clip_loss", "ada"), due + 1)
    assert ada["feedback"] == "verdict" and ada["full_feedback_at"] == due + 2 * 86400
    assert for_learner(None, course.assignment("self_attention"), 0.0) is None          # not judged yet
    assert for_learner(REPORT, None, 0.0) == REPORT                                     # no course file
