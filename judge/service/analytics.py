"""A course's class analytics: per problem, how many learners made each named mistake, and the tests most failed.

Read from the stored reports (nothing is judged again): a test's `mistake`,
and each of its `mistakes` where several together explain a failure, name the
known mistakes (the problem's traps) a submission made. A learner counts once
per mistake or test however many submissions show it, and is named (`who`,
the person's name as the roster has it: these are instructors' faces only);
`still` counts, and `still_who` names, those of them with no accepted
submission to the problem yet, so an instructor sees who has got past it and
who has not. Disabled and deleted learners are left out, as in the gradebook.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from judge.base.escape import escape_tree
from judge.service.storage import Store, Submission

MOST_FAILED = 10     # tests listed per problem


@dataclass(frozen=True)
class MistakeCount:
    name: str
    message: str          # the mistake's wording, as the learners read it
    learners: int         # who made it in any judged submission
    still: int            # of those, who has no accepted submission yet
    submissions: int
    who: tuple[str, ...] = ()          # the learners who made it, by name
    still_who: tuple[str, ...] = ()    # of those, the ones with no accepted submission yet


@dataclass(frozen=True)
class FailedTest:
    name: str
    group: str            # example, hidden or check
    learners: int
    still: int            # of those, who has no accepted submission yet
    submissions: int
    who: tuple[str, ...] = ()
    still_who: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProblemAnalytics:
    problem: str
    learners: int         # who submitted at least once
    accepted: int         # who had a submission accepted
    judged: int           # judged submissions
    mistakes: tuple[MistakeCount, ...]     # most learners first
    failed_tests: tuple[FailedTest, ...]   # most learners first, at most MOST_FAILED


def analytics(store: Store, course: str, problem: str | None = None) -> list[ProblemAnalytics]:
    """Per problem the course's learners submitted to (or just `problem`), by problem id."""
    learners, submissions = store.course(course, problem)
    names = {u.name: u.display for u in learners}
    by_problem: dict[str, dict[str, list[Submission]]] = {}
    for s in submissions:
        if s.user in names:
            by_problem.setdefault(s.problem, {}).setdefault(s.user, []).append(s)
    return [_problem(pid, by_learner, names) for pid, by_learner in sorted(by_problem.items())]


def _problem(problem: str, by_learner: dict[str, list[Submission]], names: dict[str, str]) -> ProblemAnalytics:
    mistakes: dict[str, dict] = {}
    tests: dict[str, dict] = {}
    judged_total = 0
    accepted: set[str] = set()
    for learner, subs in by_learner.items():
        judged = [s for s in subs if s.report is not None]      # oldest first
        judged_total += len(judged)
        if any(s.verdict == "accepted" for s in judged):
            accepted.add(learner)
        for s in judged:
            named, failed = _named(s.report), _failed(s.report)
            for name, message in named.items():
                _count(mistakes.setdefault(name, {"message": message}), learner)
            for name, group in failed.items():
                _count(tests.setdefault(name, {"group": group}), learner)

    def people(tally: dict) -> tuple[int, int, int, tuple[str, ...], tuple[str, ...]]:
        who = sorted(tally["learners"], key=lambda login: (names.get(login, login).casefold(), login))
        still = [login for login in who if login not in accepted]
        return (len(who), len(still), tally["submissions"], tuple(names.get(x, x) for x in who),
                tuple(names.get(x, x) for x in still))

    found = [MistakeCount(name, m["message"], *people(m)) for name, m in mistakes.items()]
    failed = [FailedTest(name, t["group"], *people(t)) for name, t in tests.items()]
    return ProblemAnalytics(
        problem, len(by_learner), len(accepted), judged_total,
        tuple(sorted(found, key=lambda m: (-m.learners, -m.submissions, m.name))),
        tuple(sorted(failed, key=lambda t: (-t.learners, -t.submissions, t.name))[:MOST_FAILED]))


def _count(tally: dict, learner: str) -> None:
    tally.setdefault("learners", set()).add(learner)
    tally["submissions"] = tally.get("submissions", 0) + 1


def _named(report: dict) -> dict[str, str]:
    """The mistakes one report names (each once), with their wording."""
    found: dict[str, str] = {}
    for test in _tests(report):
        for mistake in [test.get("mistake"), *(test.get("mistakes") or [])]:
            if isinstance(mistake, dict) and isinstance(mistake.get("name"), str):
                found.setdefault(mistake["name"], str(mistake.get("message") or ""))
    return found


def _failed(report: dict) -> dict[str, str]:
    return {t["name"]: str(t.get("group") or "") for t in _tests(report)
            if isinstance(t.get("name"), str) and t.get("verdict") not in (None, "accepted")}


def _tests(report: dict) -> list[dict]:
    tests = report.get("tests") if isinstance(report, dict) else None
    return [t for t in tests if isinstance(t, dict)] if isinstance(tests, list) else []


def analytics_json(course: str, found: list[ProblemAnalytics]) -> dict:
    # Mistake wordings and test names come from the problem's files, but are escaped as any
    # report text is (judge.base.escape): the instructor's faces treat all stored text alike.
    return escape_tree({"course": course, "problems": [asdict(p) for p in found]})


def analytics_lines(found: list[ProblemAnalytics]) -> list[str]:
    """The terminal's text: per problem a summary line, then its mistakes and most failed tests."""
    from judge.base.escape import escape_controls

    lines: list[str] = []
    for p in found:
        lines.append(f"{escape_controls(p.problem)}: {p.learners} learner(s) submitted, {p.accepted} accepted, "
                     f"{p.judged} judged submission(s)")
        if p.mistakes:
            lines.append("  named mistakes (learners who made it / still: none of their submissions accepted yet "
                         "/ submissions):")
            for m in p.mistakes:
                lines.append(f"    {m.learners:>4} {m.still:>4} {m.submissions:>5}  {escape_controls(m.name)}: "
                             f"{escape_controls(m.message, keep='')}")
                lines.append(f"      made it: {_names(m.who)}" + (f"; still: {_names(m.still_who)}" if m.still_who
                                                                   else ""))
        if p.failed_tests:
            lines.append("  tests most failed (learners / still / submissions):")
            for t in p.failed_tests:
                lines.append(f"    {t.learners:>4} {t.still:>4} {t.submissions:>5}  {escape_controls(t.name)} "
                             f"({t.group})")
                lines.append(f"      failed it: {_names(t.who)}" + (f"; still: {_names(t.still_who)}"
                                                                      if t.still_who else ""))
    return lines


def _names(names: tuple[str, ...]) -> str:
    from judge.base.escape import escape_controls

    return "; ".join(escape_controls(n, keep="") for n in names)
