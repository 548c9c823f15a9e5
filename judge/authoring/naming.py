"""What the judge called each known wrong submission: the mistakes its report names, or the check that caught it.

A wrong_answer file is named when its report names a mistake (a trap, or a
generic diagnosis) or when the check that caught it says the mistake itself;
a file named after a trap must be named as that trap and no other.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge import checks
from judge.base.report import Mistake, Report
from judge.model.problem import Hidden


@dataclass(frozen=True)
class Naming:
    """What the judge called one known wrong submission: the mistakes its report names."""

    submission: str                              # its file's stem
    mistakes: tuple[tuple[str, bool], ...] = ()  # (name, a trap?) of each mistake named, in test order
    expected_trap: str | None = None             # the trap a file named like one must get
    also: frozenset[str] = frozenset()           # other traps with the very same message (variants of it)
    check: str | None = None                     # the property or error check that caught it first, whose
                                                 # own message says the mistake (a gradient into z, no ValueError)

    @property
    def named(self) -> bool:
        return bool(self.mistakes) or self.check is not None

    @property
    def mistake(self) -> str | None:
        """The trap it was named as, else the generic diagnosis, else None."""
        traps = [name for name, known in self.mistakes if known]
        return traps[0] if traps else (self.mistakes[0][0] if self.mistakes else None)

    @property
    def known(self) -> bool:
        return any(known for _, known in self.mistakes)

    @property
    def misnamed(self) -> bool:
        """Named as another trap than its own: a wrong name is worse than none."""
        return self.expected_trap is not None and any(known and name != self.expected_trap and name not in self.also
                                                      for name, known in self.mistakes)


def name_submission(hidden: Hidden | None, path: Path, report: Report) -> Naming:
    """The mistakes the report of the file at `path` names; a file named like a trap must get that trap and no other."""
    messages = {t.name: t.message for t in hidden.traps} if hidden is not None else {}
    named = tuple((m.name, m.known) for m in named_mistakes(report))
    own = messages.get(path.stem)
    also = frozenset(n for n, m in messages.items() if own is not None and m == own)
    return Naming(path.stem, named, expected_trap=path.stem if own is not None else None, also=also,
                  check=caught_by_check(hidden, report))


def caught_by_check(hidden: Hidden | None, report: Report) -> str | None:
    """The first failing test when one of its checks says the mistake in its own message (its `says_mistake`
    trait: a property broken, an error not raised)."""
    first = report.first_failure
    specs = {t.name: t for t in hidden.tests} if hidden is not None else {}
    spec = specs.get(first.name) if first is not None else None
    if spec is not None and any(checks.get(c.type).traits.says_mistake for c in spec.checks):
        return spec.name
    return None


def named_mistakes(report: Report) -> list[Mistake]:
    """The mistakes (judge.base.report.Mistake) the failing tests name, each once, in test order."""
    return [test.mistake for test in report.tests if test.mistake is not None and not test.mistake.repeated]
