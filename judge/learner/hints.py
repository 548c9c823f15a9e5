"""Hints: the problem's graded hints, one level at a time (`judge hint ID --level N`).

Hints come from the problem's YAML, ordered from a nudge to the key idea; the
last one names the idea without giving code. The level reached is remembered in
the progress database by the learner's tutor (judge.learner.tutor), so `judge hint ID` shows the next one
each time. Asking for a level that does not
exist is a usage error naming the levels there are.
"""
from __future__ import annotations

from dataclasses import dataclass

from judge.base.errors import ConfigError
from judge.model.problem import Problem


@dataclass(frozen=True)
class Hint:
    problem: str
    level: int
    levels: int
    text: str

    @property
    def last(self) -> bool:
        return self.level == self.levels

    def lines(self, face: str = "cli") -> list[str]:
        """The hint, then how to get more in the face that shows it (`cli` or `notebook`)."""
        head = f"hint {self.level} of {self.levels} for {self.problem}" + (" (the key idea)" if self.last else "")
        return [head + ":", f"  {self.text}", self.advice(face)]

    def advice(self, face: str = "cli") -> str:
        if face == "notebook":  # a notebook's learner calls the handle's methods, not the terminal's commands
            return ("that is the last hint; .show() has the full contract" if self.last
                    else f"more: .hint() again, or .hint(level={self.level + 1})")
        return ("that is the last hint; `judge show " + self.problem + "` has the full contract" if self.last
                else f"more: judge hint {self.problem} --level {self.level + 1}")


def next_level(problem: Problem, reached: int) -> int:
    """The level `judge hint ID` shows next: one past the highest seen, staying on the last."""
    return max(1, min(reached + 1, len(problem.hints)))


def hint(problem: Problem, level: int = 1) -> Hint:
    levels = len(problem.hints)
    if levels == 0:
        raise ConfigError("has no hints", file=problem.path, field="hints")
    if not 1 <= level <= levels:
        raise ConfigError(f"--level {level}: {problem.id} has hint levels 1 to {levels}")
    return Hint(problem.id, level, levels, problem.hints[level - 1].strip())
