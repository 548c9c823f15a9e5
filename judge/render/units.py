"""Course units as terminal text: `judge units` (one line per unit) and `judge unit` (one unit in full)."""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from judge.render.listing import STATUS_STYLES
from judge.render.segments import Line

if TYPE_CHECKING:
    from judge.learner.units import UnitProgress

ANSWER_STYLES = {"right": "green", "wrong": "red", "new": None}


def units_lines(standings: list["UnitProgress"]) -> list[Line]:
    """Each unit's progress: passed, problems solved, questions right, title."""
    width = max(len(s.unit.id) for s in standings)
    return [[(s.unit.id.ljust(width) + "  ", None), ("passed" if s.passed else "      ", "green" if s.passed else None),
             (f"  problems {s.solved}/{len(s.unit.problems)}  questions {s.right}/{len(s.unit.questions)}  "
              f"{s.unit.title}", None)] for s in standings]


def unit_lines(standing: "UnitProgress", titles: dict[str, str], columns: int) -> list[Line]:
    """One unit: summary, its problems in order with your status, its questions, then what is left."""
    u = standing.unit
    lines: list[Line] = [[(f"Unit {u.id}: {u.title}", "bold")]]
    if u.summary:
        lines += _plain(textwrap.fill(" ".join(u.summary.split()), columns))
    lines += [[], [(f"Problems ({standing.solved}/{len(u.problems)} solved)", "bold")]]
    width = max(len(p) for p in (*u.problems, *u.extras))
    for i, pid in enumerate([*u.problems, *u.extras], 1):
        state = standing.statuses.get(pid, "new")
        extra = "  (extra)" if pid in u.extras else ""
        lines.append([(f"  {i:>2}. ", None), (f"{state:<9}", STATUS_STYLES[state]),
                      (f"  {pid.ljust(width)}  {titles.get(pid, '')}{extra}", None)])
    lines += [[], [(f"Questions ({standing.right}/{len(u.questions)} right)", "bold")]]
    for q in u.questions:
        answer = standing.answers.get(q.id)
        state = "new" if answer is None else ("right" if answer[1] else "wrong")
        text = textwrap.wrap(f"{q.id}: {' '.join(q.prompt.split())}", columns - 9)
        lines.append([("  ", None), (f"{state:<5}", ANSWER_STYLES[state]), (f"  {text[0]}", None)])
        lines += [[(f"         {more}", None)] for more in text[1:]]
    lines.append([])
    if standing.passed:
        lines.append([(f"passed: unit {u.id} is complete", "green bold")])
        if u.next:
            lines.append([(f"next: unit {u.next} (judge unit {u.next})", None)])
    else:
        lines.append([("left to do:", "bold")])
        for line in standing.left():
            lines += _plain(textwrap.fill(line, columns, initial_indent="  ", subsequent_indent="    "))
    return lines


def _plain(text: str) -> list[Line]:
    return [[(line, None)] for line in text.split("\n")]
