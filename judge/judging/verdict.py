"""One test's verdict: from its calls' outcomes (the sandbox's facts, the submission's errors, then the
test's checks in order) to its result and message, with what a failure may still be told (`Pending`):
a known mistake where a value came instead of an error, and the test's hint where it explains the failure.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from judge import checks
from judge.base.outcomes import Verdict
from judge.base.escape import escape_controls
from judge.base.report import MAX_DETAIL, MAX_DETAILS, Mistake, Shown, TestResult, cap_message
from judge.checks.result import TRAPS, VALUE
from judge.judging.diagnose import Diagnosis
from judge.judging.expected import Expected, expects_error
from judge.judging.traps import TrapSet, known_mistake
from judge.model.cases import MAIN, Case
from judge.runs import decisions as verdicts
from judge.runs.calls import Observation, restore_unchanged
from judge.runs.contract import Limits, Refusal, RunResult


def judge_outcomes(case: Case, names: list[str], expected: Expected, run: RunResult, outcomes: list,
                   traps: TrapSet | None, limits: Limits, diagnose: bool = True) -> tuple[TestResult, Pending | None]:
    """One case's verdict from its calls' outcomes (`names[k]` is the call of `outcomes[k]`)."""
    actual: dict[str, Observation] = {}
    refusals: dict[str, Refusal] = {}  # calls whose value the child's harness refused (their error says why)
    exhausted: dict[str, str] = {}     # calls whose memory the monitor measured at its limit, and what it saw
    failure: verdicts.Decision | None = None
    for name, outcome in zip(names, outcomes):
        if outcome.observation is not None:
            # An argument read back as sent comes as a marker, from any backend: the judge's copy stands in.
            actual[name] = restore_unchanged(outcome.observation, case.calls[name])
            if outcome.refusal is not None:
                refusals[name] = outcome.refusal
            if outcome.out_of_memory:
                exhausted[name] = outcome.out_of_memory
        elif failure is None:
            failure = verdicts.of_call(outcome, limits)
    # Each call has the time limit; a test takes as long as its slowest call (an experiment's training run),
    # timed by the judge, including a call stopped for running past its limit.
    time_ms = max((o.time_ms for o in outcomes), default=0.0)
    result, pending = _judge_case(case, expected, actual, refusals, run, failure, traps, limits, time_ms, diagnose,
                                  exhausted)
    cpu_ms = max((o.cpu_ms for o in outcomes), default=0.0)  # the clock its limit counts, as the runner read it
    return (replace(result, cpu_ms=cpu_ms) if cpu_ms else result), pending


@dataclass(frozen=True)
class Pending:
    """A failed test's message before it is final: what failed and the mistakes its output may be."""

    kind: str                        # what failed (a check kind, `values.loss`, a verdict), for hint_when
    trap: Diagnosis | None = None    # a value where an error was due: the trap `hint_when` names that gives it
    value: bool = False              # a wrong value: explained with the report's other wrong values (judge.judging.explain)


def _judge_case(case: Case, expected: Expected, actual: dict[str, Observation], refusals: dict[str, Refusal],
                run: RunResult, failure: verdicts.Decision | None, traps: TrapSet | None, limits: Limits,
                time_ms: float, diagnose: bool = True,
                exhausted: dict[str, str] | None = None) -> tuple[TestResult, Pending | None]:
    """The test's verdict and message; with `diagnose`, a failure's known or generic mistake too."""
    main = actual.get(MAIN)

    def result(decision: verdicts.Decision, details=(), pending: Pending | None = None):
        verdict, not_attempted = decision.verdict, decision.not_attempted
        # Messages quote the submission (its errors, keys, frames): no control sequence gets through.
        message = cap_message(escape_controls(decision.message))
        details = tuple(cap_message(escape_controls(d), MAX_DETAIL) for d in tuple(details)[:MAX_DETAILS])
        shown = _show_example(case, expected, actual) if case.public else None  # never for hidden tests
        if pending is None and verdict is not Verdict.ACCEPTED:
            pending = Pending(kind=verdict.value)
        return TestResult(case.name, case.test.group, verdict, message, time_ms, details, shown,
                          not_attempted=not_attempted), pending

    if run.load_error is not None:
        load = run.load_error
        decision = verdicts.of_load(load, limits)
        details = load.error.frames if load.error else ()
        details = tuple(cap_message(escape_controls(d), MAX_DETAIL) for d in tuple(details)[:MAX_DETAILS])
        return TestResult(case.name, case.test.group, decision.verdict,
                          cap_message(escape_controls(decision.message)), 0.0, details), None
    if failure is not None:
        return result(failure)
    raising = expects_error(case)
    for name in case.calls:
        observation = actual.get(name)
        if observation is None:
            return result(verdicts.no_result(name))
        error = observation.error
        decision = None if error is None else verdicts.of_error(error, refusals.get(name),
                                                                 error_expected=name == MAIN and raising,
                                                                 out_of_memory=(exhausted or {}).get(name, ""))
        if decision is not None:
            return result(decision, details=error.frames)
    for spec in case.test.checks:
        check = checks.get(spec.type)
        outcome = check.check(case, case.view(spec.type, expected), case.view(spec.type, actual), **spec.params)
        if not outcome.passed:
            kind = outcome.kind or check.traits.failure_kind
            kind = f"{kind}.{outcome.key}" if outcome.key else kind
            pending = Pending(kind)
            if not diagnose:
                pass
            elif check.traits.diagnoses == VALUE and outcome.diagnose:
                pending = Pending(kind, value=True)
            elif check.traits.diagnoses == TRAPS and main is not None and main.error is None and traps is not None:
                # A value where an error is due may be a known mistake (silent cropping), but only one
                # the test names in `hint_when`: on an invalid input unrelated traps coincide too easily.
                pending = Pending(kind, known_mistake(case, actual, traps, only=set(case.test.hint_when)))
            # a `raises` check failing on NotImplementedError: the starter is untouched
            untouched = main is not None and main.error is not None and verdicts.not_attempted(main.error)
            return result(replace(verdicts.of_check(outcome), not_attempted=untouched), outcome.lines, pending)
    return result(verdicts.ACCEPTED)


def finish_result(case: Case, result: TestResult, pending: Pending | None) -> TestResult:
    """The result's known mistake (a value where an error was due) and, if it applies, the test's hint;
    a wrong value's mistakes are named once every test is judged (judge.judging.grading)."""
    if pending is None:
        return result
    trap = pending.trap
    mistake = Mistake(trap.name, trap.message, True) if trap is not None else None
    hint = case.test.hint if hint_applies(case, pending.kind, (trap.name,) if trap is not None else ()) else None
    return replace(result, mistake=mistake, hint=hint)


def hint_applies(case: Case, kind: str, mistakes: tuple[str, ...]) -> bool:
    """A test's hint is shown only for the failures it explains (`hint_when`), or any when none is declared."""
    if not case.test.hint:
        return False
    when = case.test.hint_when
    # `values` covers every key; `values.loss` only a failure on `loss`
    return not when or kind in when or kind.split(".", 1)[0] in when or any(name in when for name in mistakes)


def _say_raised(error) -> str:
    """What the reference raised, as a public example shows it: `ValueError (its message)`."""
    return f"{error.type} ({error.message})" if error.message else error.type


def _show_example(case: Case, expected: Expected, actual: dict[str, Observation]) -> Shown:
    """A public example's inputs and both outputs, for side-by-side rendering."""
    inputs = tuple((name, case.test.inputs.get(name), value) for name, value in zip(case.arg_names, case.args))
    want, got = expected.get(MAIN), actual.get(MAIN)
    return Shown(inputs=inputs,
                 expected=want.value if want is not None and want.error is None else None,
                 actual=got.value if got is not None and got.error is None else None,
                 expected_error=_say_raised(want.error) if want is not None and want.error is not None else None,
                 actual_error=got.error.headline() if got is not None and got.error is not None else None,
                 tolerance=case.tolerance)
