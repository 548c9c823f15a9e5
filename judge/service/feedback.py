"""What of a report a learner sees: the course file's `feedback` per problem (judge.service.course).

- `full`: the whole report, as `judge run --json` gives it;
- `verdict`: the verdict, how many tests passed of how many, and the tests passed (name, group, verdict);
  nothing of a failing test (its name, message, the mistake it names, its hint, the smallest failing input)
  nor the output printed;
- `after_due`: `verdict` until the learner's own due date (an extension included), then `full`.

Instructors always read whole reports. A report held back says so (`feedback`, and `full_feedback_at`
when it will be whole), so a learner knows nothing is missing by mistake.
"""
from __future__ import annotations

from judge.service.course import Assignment

KEPT = ("problem", "submission", "verdict", "passed", "total")


def for_learner(report: dict | None, assignment: Assignment | None, now: float) -> dict | None:
    """`report` as the learner it belongs to may read it now."""
    if report is None or assignment is None or assignment.full_feedback(now):
        return report
    tests = report.get("tests") if isinstance(report.get("tests"), list) else []
    shown = {key: report[key] for key in KEPT if key in report}
    shown["tests"] = [{"name": t.get("name"), "group": t.get("group"), "verdict": t.get("verdict")}
                      for t in tests if isinstance(t, dict) and t.get("verdict") == "accepted"]
    shown["feedback"] = "verdict"
    shown["full_feedback_at"] = assignment.due if assignment.feedback == "after_due" else None
    return shown
