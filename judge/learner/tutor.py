"""The tutor of one learner: what they did, what they may see next, and the record of it.

A `Tutor` is the learner's side of the judge, over one problem set and one
progress database: their status per problem and unit, hints one level at a
time, the solution once earned (or asked for), quiz answers, the history of
their attempts with the code, and the rule for what is recorded. Every face
(the CLI, the notebook, the web page, the warm server) asks the tutor; no face
opens the progress database itself. A `Judge` owns one (`Judge.tutor`) and
records each judged submission through it; a `PreparedProblem` only judges.

What is recorded: every judged run of the learner's own code (a starter is no
attempt), every answer, every hint and solution shown, unless recording is
off (`record=False`, or `JUDGE_NO_RECORD=1`). A run of one of the problem
set's own known submissions (its `submissions/` folder, e.g. the quick
start's demo file) is the problem set's, not the learner's, and is not
recorded. A database that cannot be used is a one-line warning, never a
reason to stop.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge.base.errors import ConfigError
from judge.base.escape import escape_name
from judge.learner.progress import Attempt, ProgressStore, ProgressUnavailable, Status, recording

if TYPE_CHECKING:
    from judge.learner.editorial import Solution
    from judge.learner.hints import Hint
    from judge.learner.overview import Overview
    from judge.model.problemset import Listing, ProblemSet
    from judge.base.report import Report
    from judge.base.submission import Submission
    from judge.learner.units import Question, Unit, UnitProgress, Verdict


@dataclass(frozen=True)
class Answered:
    """One quiz answer as the tutor took it.

    `reveal`: whether the right answer may be shown now (the answer was right, or this is the
    second wrong try in a row: one retry before the answer is given away).
    """

    question: "Question"
    verdict: "Verdict"
    reveal: bool
    standing: "UnitProgress"
    warning: str | None = None

    @property
    def right(self) -> bool:
        return self.verdict.right


class NotSolvedYet(ConfigError):
    """The solution was asked for before the problem was solved, without confirming."""


class Tutor:
    """One learner's progress over `problem_set`, recorded in `store` when `record`. Without a problem
    set (None) it answers for statuses only: the `judge list` index reads no problem file."""

    def __init__(self, problem_set: "ProblemSet | None", store: ProgressStore | None = None, *,
                 record: bool | None = None):
        self.problem_set = problem_set
        self.store = store if store is not None else ProgressStore()
        # JUDGE_NO_RECORD is read when the tutor is made (a notebook's Judge follows it from then on).
        self.record = recording() if record is None else record
        self._wrong: dict[tuple[str, str], int] = {}   # wrong tries in a row per question, when not recording

    @property
    def path(self) -> Path:
        """The progress database's file (for messages)."""
        return self.store.path

    # ------------------------------------------------------------ status
    def statuses(self, problem_ids: list[str]) -> tuple[dict[str, Status], str | None]:
        """Each problem's status, and a warning instead of an error when the database is unusable."""
        try:
            return self.store.statuses(problem_ids), None
        except ProgressUnavailable as exc:
            return {pid: Status.NEW for pid in problem_ids}, str(exc)

    def status(self, problem_id: str) -> Status:
        return self.statuses([problem_id])[0][problem_id]

    def solved(self, problem_id: str) -> bool:
        """Accepted on a full run; an unusable database counts as not solved (the learner is asked)."""
        return self.status(problem_id) is Status.SOLVED

    def listing(self) -> "Listing":
        """Every problem of the set with the learner's status, in course order (judge.learner.units.course_order:
        `judge list`, the notebook's `problems()`, the index page); by id when a unit file is broken."""
        import dataclasses

        from judge.learner.units import course_order

        listing = self.problem_set.listing(self.store)
        order = {pid: i for i, pid in enumerate(course_order([e.problem.id for e in listing.entries],
                                                             self._units_or_none()))}
        return dataclasses.replace(listing, entries=tuple(sorted(listing.entries, key=lambda e: order[e.problem.id])))

    def extras(self) -> frozenset[str]:
        """The problems that are only units' extras (a listing marks them; no completion counts them)."""
        from judge.learner.units import extra_ids

        return extra_ids(self._units_or_none())

    def _units_or_none(self) -> list["Unit"]:
        try:
            return self.units()
        except ConfigError:  # a broken unit file: `judge units` names it; listings go on by id
            return []

    def units(self) -> list["Unit"]:
        from judge.learner.units import load_units, units_dir

        return load_units(self.problem_set.root) if units_dir(self.problem_set.root).is_dir() else []

    def unit(self, unit_id: str) -> "Unit":
        from judge.learner.units import load_unit

        return load_unit(self.problem_set.root, unit_id)

    def standing(self, unit: "Unit | str") -> tuple["UnitProgress", str | None]:
        """Where the learner stands in `unit`, and a warning when the database is unusable."""
        from judge.learner.units import progress_of

        return progress_of(self.unit(unit) if isinstance(unit, str) else unit, self.store)

    def next_step(self, problem_id: str) -> str | None:
        """What to try after `problem_id` is accepted, as a command line and why: the next problem of its unit
        not yet solved, then the unit's self-test once every problem of it is solved, then the next unit's
        first problem; outside the units, the next problem in course order not yet solved. None when there
        is nothing left to take (or the problem set cannot say)."""
        from judge.learner.units import course_order

        units = self._units_or_none()
        ids = self.problem_set.ids()
        statuses, _ = self.statuses(ids)
        left = lambda pid: pid != problem_id and statuses.get(pid) is not Status.SOLVED  # noqa: E731
        unit = next((u for u in units if problem_id in (*u.problems, *u.extras)), None)
        if unit is not None:
            todo = [pid for pid in unit.problems if left(pid)]
            if todo:
                return (f"judge show {todo[0]}   (unit {unit.id}: {len(unit.problems) - len(todo)} of "
                        f"{len(unit.problems)} problems solved; next in order)")
            if unit.questions and not self.standing(unit)[0].passed:
                return f"judge quiz {unit.id}   (every problem of unit {unit.id} solved: its self-test questions)"
            following = next((u for u in units if u.id == unit.next), None)
            todo = [pid for pid in following.problems if left(pid)] if following is not None else []
            if todo:
                return f"judge show {todo[0]}   (unit {unit.id} is complete; unit {following.id} starts here)"
        later = [pid for pid in course_order(ids, units) if left(pid)]
        return f"judge show {later[0]}   (next in the course, not solved yet)" if later else None

    def overview(self, today: dt.date | None = None) -> "Overview":
        """`judge progress`: solved per unit and tag, attempts, streak, what to take next.

        An unusable database is a ConfigError here: an overview of nothing would mislead.
        """
        from judge.learner.overview import overview

        problems, _ = self.problem_set.load()
        try:
            return overview(problems, self.units(), self.store, today)
        except ProgressUnavailable as exc:
            raise ConfigError(str(exc)) from None

    # ------------------------------------------------------------ recording attempts
    def is_own(self, submission: "Submission") -> bool:
        """Whether `submission` is one of the problem set's own known submissions (its submissions/)."""
        if submission.path is None:
            return False
        known = (self.problem_set.root / "submissions").resolve()
        return submission.path.resolve().is_relative_to(known)

    def records(self, submission: "Submission") -> bool:
        """Whether a judged run of `submission` would be recorded as the learner's attempt."""
        return self.record and not self.is_own(submission)

    def record_run(self, problem_id: str, report: "Report", submission: "Submission", *,
                   examples_only: bool) -> str | None:
        """Add a judged run to the learner's history, when it is theirs (see `records`).

        A starter (nothing changed) is no attempt. A failure is added to the report's warnings and
        returned (None: recorded, or nothing to record).
        """
        if not self.records(submission) or report.not_attempted:
            return None
        try:
            self.store.record(problem=problem_id, verdict=report.verdict.value, passed=report.passed,
                              total=report.total, examples_only=examples_only, source=submission.source,
                              # the name as shown: a file name that is not UTF-8 cannot be stored raw
                              submission=escape_name(submission.origin), time_ms=report.time_ms)
        except ProgressUnavailable as exc:
            report.warnings.append(str(exc))
            return str(exc)
        return None

    # ------------------------------------------------------------ hints and solutions
    def hint(self, problem_id: str, level: int | None = None) -> tuple["Hint", str | None]:
        """The hint at `level` (default: the next one after the highest shown), noted as shown.

        Returns a one-line warning instead of failing when the database is unusable.
        """
        from judge.learner.hints import hint, next_level

        problem = self.problem_set.get(problem_id)
        warning = None
        if level is None:
            try:
                level = next_level(problem, self.store.hint_level(problem.id))
            except ProgressUnavailable as exc:
                level, warning = 1, str(exc)
        shown = hint(problem, level)
        if self.record:
            try:
                self.store.record_event(problem=problem.id, kind="hint", detail=str(shown.level))
            except ProgressUnavailable as exc:
                warning = warning or str(exc)
        return shown, warning

    def hints_shown(self, problem_id: str) -> list["Hint"]:
        """The hints the learner has seen, in order (the problem page shows them again)."""
        from judge.learner.hints import hint

        problem = self.problem_set.get(problem_id)
        try:
            reached = min(self.store.hint_level(problem.id), len(problem.hints))
        except ProgressUnavailable:
            reached = 0
        return [hint(problem, level) for level in range(1, reached + 1)]

    def solution(self, problem_id: str, *, confirmed: bool = False) -> tuple["Solution", str | None]:
        """The reference and editorial: once solved, or before that when `confirmed` (recorded as such).

        Raises NotSolvedYet when neither; the face asks the learner and calls again confirmed.
        """
        from judge.learner.editorial import solution

        problem = self.problem_set.get(problem_id)
        earned = self.solved(problem.id)
        if not earned and not confirmed:
            raise NotSolvedYet(f"{problem.id} is not solved yet")
        shown = solution(problem)
        warning = None
        if self.record:  # recorded before it is shown: a reader who stops early has still seen it
            try:
                self.store.record_event(problem=problem.id, kind="solution", detail="after" if earned else "before")
            except ProgressUnavailable as exc:
                warning = str(exc)
        return shown, warning

    # ------------------------------------------------------------ quizzes
    def answer(self, unit: "Unit | str", question_id: str, text: str) -> Answered:
        """Take one answer: judged, recorded, and whether the right answer may be shown yet.

        An unreadable answer (a word for a number) is returned unrecorded, with `verdict.unreadable`.
        """
        unit = self.unit(unit) if isinstance(unit, str) else unit
        question = unit.question(question_id)
        verdict = question.take(text)
        if verdict.unreadable:
            return Answered(question, verdict, False, self.standing(unit)[0])
        key = (unit.id, question.id)
        warning = None
        before = None
        if self.record:
            try:
                before = self.store.answers(unit.id).get(question.id)
            except ProgressUnavailable as exc:
                warning = str(exc)
        wrong_before = self._wrong.get(key, 0) > 0 or (before is not None and not before[1])
        self._wrong[key] = 0 if verdict.right else self._wrong.get(key, 0) + 1
        if self.record:
            try:
                self.store.record_answer(unit=unit.id, question=question.id, answer=verdict.answer,
                                         correct=verdict.right)
            except ProgressUnavailable as exc:
                warning = warning or str(exc)
        standing, standing_warning = self.standing(unit)
        return Answered(question, verdict, verdict.right or wrong_before, standing, warning or standing_warning)

    # ------------------------------------------------------------ history
    def attempts(self, problem_id: str | None = None, limit: int | None = None) -> tuple[list[Attempt], str | None]:
        """Attempts, newest first; an empty list and a warning when the database is unusable."""
        try:
            return self.store.attempts(problem_id, limit=limit), None
        except ProgressUnavailable as exc:
            return [], str(exc)

    def attempt(self, attempt_id: int) -> Attempt | None:
        """One attempt by its number; a ConfigError when the database is unusable."""
        try:
            return self.store.attempt(attempt_id)
        except ProgressUnavailable as exc:
            raise ConfigError(str(exc)) from None

    def attempt_source(self, number: int, problem_id: str | None = None) -> tuple[Attempt, str]:
        from judge.learner import history

        return history.attempt_source(self.store, number, problem_id)

    def diff(self, old: int, new: int, problem_id: str | None = None) -> list[str]:
        from judge.learner import history

        return history.diff_lines(self.store, old, new, problem_id)

    def restore(self, number: int, path: Path, *, problem_id: str | None = None, force: bool = False) -> Attempt:
        from judge.learner import history

        return history.restore(self.store, number, path, problem=problem_id, force=force)

    def events(self) -> list[tuple[str, float, str, str]]:
        return self.store.events()

    # ------------------------------------------------------------ the whole record
    def export(self) -> dict:
        try:
            return self.store.export()
        except ProgressUnavailable as exc:
            raise ConfigError(str(exc)) from None

    def import_(self, data: dict, origin: str) -> tuple[int, int]:
        try:
            return self.store.import_(data, origin=origin)
        except ProgressUnavailable as exc:
            raise ConfigError(str(exc)) from None
        except ValueError as exc:
            raise ConfigError(str(exc)) from None

    def reset(self) -> int:
        try:
            return self.store.reset()
        except ProgressUnavailable as exc:
            raise ConfigError(str(exc)) from None
