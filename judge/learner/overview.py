"""Progress at a glance (`judge progress`): solved per unit and tag, attempts, days in a row,
hints and solutions used, and the problem to take next.

Everything here is derived from the progress database and the problem set;
nothing is stored.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from judge.model.problem import Problem
from judge.learner.progress import ProgressStore
from judge.learner.units import Unit, progress_of

_DIFFICULTY = {"easy": 0, "medium": 1, "hard": 2}


@dataclass(frozen=True)
class Overview:
    solved: list[str]
    total: int
    attempts: int
    full_runs: int
    streak_days: int                                    # days in a row with an attempt, ending today or yesterday
    active_days: int
    units: list[tuple[str, str, int, int, int, int, bool]]   # id, title, solved, problems, right, questions, passed
    tags: list[tuple[str, int, int]]                    # tag, solved, problems
    next_problem: tuple[str, str] | None                # id, why
    hints: dict[str, int] = field(default_factory=dict)          # problem -> highest hint level shown
    solutions: dict[str, bool] = field(default_factory=dict)     # problem -> viewed before solving

    def to_json(self) -> dict:
        return {"solved": self.solved, "total": self.total, "attempts": self.attempts, "full_runs": self.full_runs,
                "streak_days": self.streak_days, "active_days": self.active_days,
                "units": [dict(zip(("id", "title", "solved", "problems", "right", "questions", "passed"), u))
                          for u in self.units],
                "tags": [{"tag": t, "solved": s, "problems": n} for t, s, n in self.tags],
                "next": {"problem": self.next_problem[0], "why": self.next_problem[1]} if self.next_problem else None,
                "hints": self.hints, "solutions_viewed": [{"problem": p, "before_solving": b}
                                                          for p, b in self.solutions.items()]}

    def lines(self, tags: bool = False) -> list[str]:
        """The overview as text: a short summary; with `tags`, also one line per tag."""
        lines = [f"solved {len(self.solved)} of {self.total} problems; {self.attempts} attempts "
                 f"({self.full_runs} full runs) on {self.active_days} day(s); "
                 f"{self.streak_days} day(s) in a row"]
        if self.units:
            lines += ["", "units"]
            width = max(len(u[0]) for u in self.units)
            for uid, title, solved, problems, right, questions, passed in self.units:
                mark = "passed" if passed else "      "
                lines.append(f"  {uid.ljust(width)}  {mark}  problems {solved}/{problems}  "
                             f"questions {right}/{questions}  {title}")
        if self.tags and not tags:
            lines += ["", f"{len(self.tags)} tags; `judge progress --tags` lists problems solved per tag"]
        if self.tags and tags:
            lines += ["", "tags"]
            width = max(len(t[0]) for t in self.tags)
            for tag, solved, problems in self.tags:
                bar = "#" * solved + "." * (problems - solved)
                lines.append(f"  {tag.ljust(width)}  {solved:>2}/{problems:<2}  {bar[:40]}")
        used = [f"{p} (hint {level})" for p, level in sorted(self.hints.items())]
        viewed = [f"{p}" + (" (before solving)" if before else "") for p, before in sorted(self.solutions.items())]
        if used:
            lines += ["", "hints used: " + ", ".join(used)]
        if viewed:
            lines += ["", "solution viewed: " + ", ".join(viewed)]
        lines.append("")
        if self.next_problem:
            pid, why = self.next_problem
            lines.append(f"next: {pid} ({why}): judge start {pid}")
        else:
            lines.append("every problem is solved")
        return lines


def overview(problems: list[Problem], units: list[Unit], store: ProgressStore,
             today: dt.date | None = None) -> Overview:
    attempts = store.attempts()
    statuses = {pid: str(status) for pid, status in store.statuses([p.id for p in problems]).items()}
    solved = [p.id for p in problems if statuses.get(p.id) == "solved"]
    days = sorted({dt.date.fromtimestamp(a.at) for a in attempts})
    unit_rows = []
    next_problem = None
    for unit in units:
        standing, _ = progress_of(unit, store)
        unit_rows.append((unit.id, unit.title, standing.solved, len(unit.problems), standing.right,
                          len(unit.questions), standing.passed))
        if next_problem is None and not standing.passed:
            todo = [pid for pid in unit.problems if statuses.get(pid) != "solved"]
            if todo:
                started = [pid for pid in todo if statuses.get(pid) == "attempted"]
                pick = started[0] if started else todo[0]
                next_problem = (pick, f"unit {unit.id}, " + ("started, not yet solved" if started else "next in order"))
    if next_problem is None:
        rest = sorted((p for p in problems if statuses.get(p.id) != "solved"),
                      key=lambda p: (statuses.get(p.id) != "attempted", _DIFFICULTY.get(p.difficulty, 9), p.id))
        if rest:
            next_problem = (rest[0].id, "started, not yet solved" if statuses.get(rest[0].id) == "attempted"
                            else f"{rest[0].difficulty}, not tried yet")
    tag_counts: dict[str, list[int]] = {}
    for p in problems:
        for tag in p.tags:
            counts = tag_counts.setdefault(tag, [0, 0])
            counts[0] += p.id in solved
            counts[1] += 1
    # A unit's tag (unit-5.5) counts the unit's own list, as its unit line does: one membership.
    for uid, _, solved_in_unit, in_unit, *_ in unit_rows:
        if f"unit-{uid}" in tag_counts:
            tag_counts[f"unit-{uid}"] = [solved_in_unit, in_unit]
    tags = sorted(((t, s, n) for t, (s, n) in tag_counts.items()), key=lambda x: (-x[2], x[0]))
    hints: dict[str, int] = {}
    solutions: dict[str, bool] = {}
    for problem, _, kind, detail in store.events():
        if kind == "hint" and detail.isdigit():
            hints[problem] = max(hints.get(problem, 0), int(detail))
        elif kind == "solution":
            solutions[problem] = solutions.get(problem, False) or detail == "before"
    return Overview(solved=solved, total=len(problems), attempts=len(attempts),
                    full_runs=sum(not a.examples_only for a in attempts),
                    streak_days=streak(days, today or dt.date.today()), active_days=len(days),
                    units=unit_rows, tags=tags, next_problem=next_problem, hints=hints, solutions=solutions)


def streak(days: list[dt.date], today: dt.date) -> int:
    """Days in a row with at least one attempt, ending today (or yesterday: today is not over)."""
    have = set(days)
    day = today if today in have else today - dt.timedelta(days=1)
    count = 0
    while day in have:
        count += 1
        day -= dt.timedelta(days=1)
    return count

