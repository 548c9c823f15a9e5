"""`judge validate`'s diagnostics: what one aspect found, and what a problem's and a whole validation's aspects found.

A diagnostic is an error (the problem is invalid), a warning (the author should
look) or an info line (what passed, shown with `--verbose`); identical messages
of several aspects collapse into one line naming them all.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from judge.authoring.gate import GateResult
from judge.authoring.naming import Naming


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Diagnostic:
    aspect: str          # dotted: problem.aspect[.part...]
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.severity.value}: {self.aspect}: {self.message}"


@dataclass
class ProblemValidation:
    problem: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    naming: list[Naming] = field(default_factory=list)   # one per wrong_answer submission judged
    gate: GateResult | None = None                       # the mutation gate's result, when it ran

    @property
    def named(self) -> int:
        return sum(1 for n in self.naming if n.named)

    @property
    def misnamed(self) -> list[Naming]:
        return [n for n in self.naming if n.misnamed]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict:
        return {"problem": self.problem, "ok": self.ok, "seconds": round(self.seconds, 1),
                "diagnostics": [{"aspect": d.aspect, "severity": d.severity.value, "message": d.message}
                                for d in self.diagnostics],
                "mutants": self.gate.to_json() if self.gate is not None else None}


@dataclass
class Validation:
    problems: list[ProblemValidation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.problems)

    def to_json(self) -> dict:
        return {"ok": self.ok, "problems": [p.to_json() for p in self.problems]}

def error(aspect: str, message: str) -> Diagnostic:
    return Diagnostic(aspect, Severity.ERROR, message)


def warning(aspect: str, message: str) -> Diagnostic:
    return Diagnostic(aspect, Severity.WARNING, message)


def info(aspect: str, message: str) -> Diagnostic:
    return Diagnostic(aspect, Severity.INFO, message)


def collapsed(diagnostics: list[Diagnostic], limit: int = 4) -> list[Diagnostic]:
    """Identical messages of one severity as one diagnostic naming every aspect that reported it."""
    groups: dict[tuple[Severity, str], list[str]] = {}
    for d in diagnostics:
        groups.setdefault((d.severity, d.message), []).append(d.aspect)
    result = []
    for (severity, message), aspects in groups.items():
        aspect = aspects[0]
        if len(aspects) > 1:
            others = ", ".join(aspects[1:limit]) + (f" and {len(aspects) - limit} more" if len(aspects) > limit else "")
            aspect = f"{aspect} (also {others})"
        result.append(Diagnostic(aspect, severity, message))
    return result
