"""What a check returns, and how a check declares its YAML parameters."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.verdict import Verdict


@dataclass(frozen=True)
class CheckResult:
    """Pass or fail, with a message in the learner's terms.

    `lines` holds an optional detail block (e.g. a table of mismatches) that a
    renderer may show under the message. `diagnose` says the failure is about
    the output's value, so the judge may look for a known mistake that
    produces exactly this output. `kind` names what failed when a check has
    stages (compare: structure, shape, dtype, finite or values); empty means
    the check itself. `key` is the output key the failure is about, when one.
    """

    passed: bool
    message: str = ""
    verdict: Verdict = Verdict.WRONG_ANSWER
    lines: tuple[str, ...] = ()
    diagnose: bool = False
    kind: str = ""
    key: str = ""


def ok() -> CheckResult:
    return CheckResult(True)


def fail(message: str, *, lines: tuple[str, ...] | list[str] = (), diagnose: bool = False,
         verdict: Verdict = Verdict.WRONG_ANSWER, key: str | None = None) -> CheckResult:
    return CheckResult(False, message, verdict, tuple(lines), diagnose, key=key or "")


@dataclass(frozen=True)
class Param:
    """One YAML parameter of a check."""

    name: str
    kind: type | tuple
    default: Any = None
    required: bool = False
    shorthand: bool = False   # `raises: ValueError` means `raises: {type: ValueError}`
    what: str | None = None
    doc: str = ""


def params(*items: Param) -> dict[str, Param]:
    return {p.name: p for p in items}
