"""What a check returns, and how a check declares its YAML parameters and its traits."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from judge.base.encoding import Array
from judge.base.leaves import leaves
from judge.base.outcomes import Verdict
from judge.runs.decisions import Decision


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


def failed(decision: Decision, *, lines: tuple[str, ...] | list[str] = ()) -> CheckResult:
    """A failure whose verdict `judge.runs.decisions` decided (not a wrong answer: a failed backward pass, a broken test)."""
    return CheckResult(False, decision.message, decision.verdict, tuple(lines))


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


VALUE, KEYS, CALL = "value", "keys", "call"   # what a check observes
TRAPS = "traps"                               # how a check expecting an error diagnoses (VALUE: a value check)
EVERY_PROBE, REDRAWN_PROBES = "every probe", "redrawn probes"   # which of the mutation gate's probes keep a check


@dataclass(frozen=True)
class Traits:
    """What a check type is to the rest of the judge: the rules (`judge.model.rules`) and grading read these.

    `licenses`: the kinds of statement rule that license the check, one per way it can fail
    (compare: its five stages); a failure reports the first unless its result names its `kind`.
    `observes`: VALUE, the returned value (a kind for each top-level output key, where it can
    fail on the reference's output); KEYS, some output keys (the ones the `key_param` parameter
    names, else `default_keys` of the reference's dict output, else every key); CALL, the call
    as a whole. `expects_error`: the test's call is due to raise. `diagnoses`: VALUE, a failure
    its result marks `diagnose` may be a known mistake, else gets a generic diagnosis; TRAPS, a
    value where an error was due may be one of the traps the test's `hint_when` names; None.
    `fails_on`: for a check that observes VALUE, whether it can fail on an output whose expected
    value is this (a float output has no shape to get wrong); None: on any. `says_mistake`: a
    failure's own message says the mistake (a property broken, an error not raised), so a known
    wrong submission it catches counts as named. `on_probes`: which of the mutation gate's probes
    (judge.authoring.probes) keep the check of the test they come from: EVERY_PROBE, those
    REDRAWN_PROBES from the test's own generators (its parameters name rows or sizes), or None
    (a probe is judged by its value alone). `applies_to`: `(arg names, args, **params) -> bool`,
    whether the check can be made on these inputs at all; None: on any.
    """

    licenses: tuple[str, ...]
    observes: str = CALL
    key_param: str | None = None
    default_keys: Callable[[dict], list[str]] | None = None
    expects_error: bool = False
    diagnoses: str | None = None
    fails_on: Callable[[Any], bool] | None = None
    says_mistake: bool = False
    on_probes: str | None = None
    applies_to: Callable[..., bool] | None = None

    @property
    def failure_kind(self) -> str:
        return self.licenses[0]


def leaf_values(value: Any) -> list[Any]:
    """Every leaf of an expected output (a dict's values, a list's items, nested): what `fails_on` looks at."""
    return [leaf for _, leaf, _ in leaves(value, value)]


def numbers_in(value: Any) -> list[np.ndarray]:
    """Every numeric leaf of an expected output as an array (a plain number as a 0-d one)."""
    return [v.data if isinstance(v, Array) else np.asarray(v) for v in leaf_values(value)
            if isinstance(v, Array) or type(v) in (int, float, bool)]
