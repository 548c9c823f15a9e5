"""Grading: from cases, expected observations and a sandboxed run to a report.

Each test is judged in the judge's process, from plain data: the sandbox's
facts about its calls (time, memory, output, crashes) first, then errors
raised by the submission (both turned into verdicts by judge.runs.decisions), then
the checks selected for each test in order. Once every test is judged, the
report's wrong values are explained together (judge.judging.explain): by the
problem's known mistakes ("traps"), by relations to the expected output
(judge.judging.diagnose) and by slip models (judge.judging.slips), so a message names a
mistake only where it is proven on every failing test; a test's hint is shown
only for the failures it explains.

This module owns what a trap's output on a case is (`_TrapOutput`) and its
plain form; judge.model.cache owns where that is kept on disk, next to the expected
values, so that a process which finds it runs no trap.
"""
from __future__ import annotations

import math
import random
import re
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from judge import checks

from judge.judging import explain
from judge.judging.equality import kinds
from judge.judging.evidence import Test

from judge.runs import decisions as verdicts

from judge.base import encoding as wire
from judge.model.cases import MAIN, Case
from judge.checks import compare
from judge.checks.observed import Observed
from judge.checks.result import TRAPS, VALUE
from judge.runs.contract import Backend, Limits, Program, Refusal, RunResult
from judge.judging.diagnose import Diagnosis
from judge.base.errors import ConfigError
from judge.base.escape import escape_controls
from judge.runs.calls import Call, Observation, restore_unchanged, run_call
from judge.model.problem import Problem, Trap
from judge.base.quiet import quiet
from judge.base.report import MAX_DETAIL, MAX_DETAILS, NOT_RUN, Mistake, Report, Shown, TestResult, cap_message
from judge.judging.budget import Budget, Diagnosing
from judge.judging.suspects import Suspects
from judge.judging.tampering import collect, scan
from judge.base.outcomes import Verdict
from judge.base.encoding import Array

if TYPE_CHECKING:
    from judge.model.cache import TrapsEntry
    from judge.judging.shrink import Shrinker
    from judge.judging.slips import Slips

Expected = dict[str, Observation]
MAX_PRINTED = 2000  # characters of a test's printed output kept with its result


def plain(observation: Observation, call: Call | None = None) -> Observation:
    """An observation as it looks after crossing the boundary (for symmetric checks); with its `call`,
    the arguments it read back unchanged are the judge's copies, as the sandbox's runner restores them."""
    crossed = Observation.from_plain(wire.roundtrip(observation.to_plain()))
    return crossed if call is None else restore_unchanged(crossed, call)


def expect(case: Case, reference: Callable, reference_path: Path) -> Expected:
    """Run the trusted reference on every call of `case` (its warnings shown nowhere: judge.base.quiet)."""
    raising = _raises(case)
    expected: Expected = {}
    for name, call in case.calls.items():
        with quiet():
            observation = run_call(reference, call, str(reference_path))
        if observation.error is not None and not (name == MAIN and raising):
            raise ConfigError(f"the reference fails on test {case.name!r}: {observation.error.headline()}",
                              file=reference_path)
        if observation.grad_error is not None:
            raise ConfigError(f"the reference's backward pass fails on test {case.name!r}: "
                              f"{observation.grad_error.headline()}", file=reference_path)
        expected[name] = plain(observation, call)
    return expected


@dataclass(frozen=True)
class TrapSet:
    """The known mistakes and, loaded on the first diagnosis, the functions that make them.

    Trap modules import the framework; an accepted run never needs them, so
    the judge's process need not import torch for one. With an
    `entry` (judge.model.cache), the traps' outputs on `cases` are read from disk on
    the first need of one, or all made then and written, so the next process
    makes none; a wrong answer is then diagnosed without importing
    the trap module at all, unless a large output must be made again.
    """

    traps: tuple[Trap, ...]
    load: Callable[[], dict[str, Callable]]
    entry: TrapsEntry | None = None  # where its outputs are kept on disk (judge.model.cache); None: nowhere
    cases: tuple[Case, ...] = ()     # the cases the entry holds outputs for (a prepared problem's)
    slips: Slips | None = None       # the slip models of mistakes nobody listed (judge.judging.slips)
    shrinker: Shrinker | None = None  # the smallest input that shows a wrong value (judge.judging.shrink)
    # (case name, trap function) -> its _TrapOutput: each trap runs once per case in a batch,
    # and a small output is encoded then, once.
    outputs: dict = field(default_factory=dict, compare=False, repr=False)
    _functions: dict = field(default_factory=dict, compare=False, repr=False)
    # Reentrant: filling the outputs from the traps loads the functions under the same lock.
    _lock: threading.RLock = field(default_factory=threading.RLock, compare=False, repr=False)
    _recalled: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)

    @property
    def functions(self) -> dict[str, Callable]:
        with self._lock:  # batch grading diagnoses from several threads; load the module once
            if not self._functions:
                self._functions.update(self.load())
        return self._functions

    def recall(self) -> None:
        """Fill `outputs` once: from the entry when it is intact, else by running every trap on every
        case and writing the entry. The other diagnosing threads wait rather than run the same traps."""
        if self.entry is None or self._recalled.is_set():
            return
        with self._lock:
            if self._recalled.is_set():
                return
            stored = self.entry.load()
            found = _outputs_from_plain(stored, self) if stored is not None else None
            if found is not None:
                for key, output in found.items():
                    self.outputs.setdefault(key, output)
            else:
                try:
                    for case in self.cases:
                        for trap in self.traps:
                            if case.calls.main is not None and (case.name, trap.function) not in self.outputs:
                                _run_trap(case, self, trap)
                except Exception:
                    # The judge's failure, not a trap's (run_call catches those): a module that does not
                    # load, an output that cannot be encoded. No entry: each output is made when a
                    # diagnosis needs it, which fails there as it would without a cache.
                    pass
                else:
                    plain_outputs = _outputs_plain(self)
                    if plain_outputs is not None:
                        self.entry.store(plain_outputs)
            self._recalled.set()

    def run_ahead(self, cases: list[Case]) -> int:
        """Run every trap on every case now, as the first wrong answers would (a long-lived service
        worker does it while it warms up, so no submission waits for it); how many outputs."""
        made = 0
        for case in cases:
            for trap in self.traps:
                if case.calls.main is not None and _trap_output(case, self, trap) is not None:
                    made += 1
        if any(o.shapes is not None and o.made is None for o in self.outputs.values()):
            self.functions  # noqa: B018 - a large output is made again on demand: load its module now, not then
        return made


@dataclass(frozen=True)
class _TrapOutput:
    """What a trap gives on one case, kept for every later submission of a batch (and on disk)."""

    shapes: dict | None            # path -> shape of each array it returns; None: it raised here
    finite: bool                   # every number it returns is finite
    made: Observation | None       # its plain value as an observation, kept when small (TRAP_KEEP_BYTES); a
    # larger one is made again whenever a submission's shapes may match it. Only the value: diagnosing
    # compares nothing else (its time and inputs afterwards would only weigh on memory and the disk).


# A submission's observation may have NODE_FACTOR x the reference's nodes plus NODE_SLACK
# (room for a wrong but comparable answer) before it is refused undecoded.
NODE_FACTOR = 4
NODE_SLACK = 256
TRAP_KEEP_BYTES = 16 << 20  # trap outputs larger than this are recomputed rather than kept
FAR_LARGER = 4  # a large trap output this many times the size of both values of a test explains none of them


def item_caps(expected: Sequence[Expected]) -> tuple[dict[str, int], ...]:
    """Per test and call, the most items a result may have: one far larger in items than the
    reference's cannot match it, and is refused before it is decoded."""
    return tuple({name: NODE_SLACK + NODE_FACTOR * wire.count_nodes(observation.to_plain())
                  for name, observation in values.items()} for values in expected)


def grade(problem: Problem, cases: list[Case], expected: list[Expected], program: Program, submission: str,
          backend: Backend, limits: Limits, traps: TrapSet | None = None,
          on_result: Callable[[TestResult], None] | None = None,
          caps: Sequence[dict[str, int]] | None = None, budget: Budget | None = None) -> Report:
    """Run `program` on every case through `backend` and judge it; `on_result` gets each test's
    result, in order, as soon as the backend has finished that test's calls (the web page streams them).
    `caps`: `item_caps(expected)`, when the caller keeps them. With a `budget` (judge.judging.budget), a
    wrong answer's report waits for its diagnosis no longer than the budget allows, and the rest of the
    diagnosis comes to `budget.on_refined` (without one, the report is complete when it is returned)."""
    started = time.perf_counter()
    caps = item_caps(expected) if caps is None else caps
    rng = random.SystemRandom()
    calls, ends, orders, node_limits = [], [], [], []
    for i, case in enumerate(cases):
        names = list(case.calls)
        # A test's calls go in an order the submission cannot predict, so it cannot tell a check's
        # extra call from the test's own call by position.
        rng.shuffle(names)
        orders.append(names)
        calls.extend(case.calls[name] for name in names)
        node_limits.extend(caps[i][name] for name in names)
        ends.append(len(calls))  # a case's calls are the slice [ends[i-1], ends[i]) of `calls`
    results: list[TestResult] = []
    observed: dict[int, Observation] = {}   # each test's main observation, for the explanation of wrong values
    pendings: dict[int, _Pending] = {}
    said = _SaidOnce()
    judged_on: dict[int, list] = {}  # each test settled so far: the outcomes it was judged on

    def settle(run: RunResult, i: int, diagnose: bool = True) -> TestResult:
        outcomes = run.outcomes[ends[i] - len(cases[i].calls):ends[i]]
        judged_on[i] = outcomes
        result, pending = _judge_outcomes(cases[i], orders[i], expected[i], run, outcomes, traps, limits, diagnose)
        printed = "".join(o.output for o in outcomes)  # what this test's calls printed, attributed to it
        if printed:
            result = replace(result, output=cap_message(escape_controls(printed, keep="\n\t"), MAX_PRINTED))
        main = outcomes[orders[i].index(MAIN)].observation if MAIN in orders[i] else None
        if main is not None and run.load_error is None:
            observed[i] = restore_unchanged(main, cases[i].calls[MAIN])
        if pending is not None:
            pendings[i] = pending
        return _finish(cases[i], result, pending)

    # The source's tampering findings, looked for on the backend's first progress report (it makes one
    # while the child loads the file): after the run they would keep the report waiting.
    found: list[tuple] = []

    def scan_once() -> None:
        if not found:
            found.append(scan(program.source))

    def judge_finished(run: RunResult, done: int) -> None:
        scan_once()
        while len(results) < len(cases) and ends[len(results)] <= done:
            results.append(said(settle(run, len(results)), file_failed=run.load_error is not None))
            if on_result is not None:
                on_result(results[-1])

    halted = False

    def judge_passing(run: RunResult, done: int) -> None:
        """Without a listener: judge the passing tests while the child still runs (the judge's core
        is otherwise idle), and stop at the first failure. Diagnosing a failure imports the traps'
        framework, which would compete with the submission for the CPU while it is being timed:
        that test and the ones after it are judged after the run."""
        nonlocal halted
        scan_once()
        while not halted and len(results) < len(cases) and ends[len(results)] <= done:
            result = settle(run, len(results), diagnose=False)
            if result.verdict is not Verdict.ACCEPTED:
                halted = True  # judged again, with its diagnosis, after the run
                return
            results.append(said(result, file_failed=False))

    run = backend.run(program, calls, limits, on_progress=judge_finished if on_result is not None else judge_passing,
                      node_limits=node_limits)
    run_end = time.perf_counter()   # the submission's own run is over: what an accepted run costs too
    judge_finished(run, len(calls))
    # An outcome can change after it was reported: the sandbox reads every call's arguments again until
    # the run ends (an input kept and changed by a later call), and a protocol broken after the last
    # result is charged to that call. A test judged on an outcome since replaced is judged again.
    for i, outcomes in judged_on.items():
        if any(a is not b for a, b in zip(outcomes, run.outcomes[ends[i] - len(cases[i].calls):ends[i]])):
            pendings.pop(i, None)
            results[i] = said(settle(run, i), file_failed=run.load_error is not None)
    warnings = []
    if run.isolation.failed:
        warnings.append(escape_controls(run.isolation.exposure))
    # What the source shows and what the child said while it ran: shown beside the verdict, never deciding it.
    scan_once()
    tampering = collect(program.source, run.tampering, found=found[0])

    def report_of(tests: list[TestResult]) -> Report:
        return Report(problem=problem.id, submission=submission, tests=tests,
                      time_ms=(time.perf_counter() - started) * 1000,
                      output=escape_controls(run.output, keep="\n\t"), warnings=warnings, tampering=tampering,
                      loading_output=escape_controls(_loading_output(run), keep="\n\t"))

    judged = _stated_errors(problem, cases, list(results), pendings)
    if traps is None or run.load_error is not None or not any(p.value for p in pendings.values()):
        return report_of(particular_hints(cases, judged, pendings))

    def diagnosed(deep: bool) -> list[TestResult]:
        """The report's tests with the mistakes that explain their wrong values: known mistakes and relations
        only (made in this process), or (`deep`) also slips, repairs and the smallest input (sandbox runs)."""
        done = _explained(cases, expected, judged, observed, pendings, traps, backend, program, limits, deep=deep)
        first = next((i for i, r in enumerate(done) if i in pendings and pendings[i].value), None)
        if deep and first is not None and traps.shrinker is not None:
            shown = traps.shrinker.smallest(cases[first], program, backend, limits)
            if shown is not None:
                from judge.render.text import smallest_text  # rendering is the faces'; the JSON carries its text

                done[first] = replace(done[first], smallest=shown, smallest_text=smallest_text(shown))
        return particular_hints(cases, done, pendings)

    if budget is None:
        return report_of(diagnosed(deep=True))
    diagnosing = Diagnosing(budget, run_end, lambda: diagnosed(deep=False), lambda: diagnosed(deep=True))
    given = diagnosing.wait()
    first = report_of(given if given is not None else particular_hints(cases, judged, pendings))
    if diagnosing.complete:
        return first
    first.refining = True

    def refined(deep: list[TestResult] | None) -> None:
        budget.on_refined(None if deep is None or not _says_more(deep, first.tests) else report_of(deep))

    diagnosing.then(refined)
    return first


STATED = 240   # characters of a rule's text quoted under a failed raises test, at most


def _stated_errors(problem: Problem, cases: Sequence[Case], results: list[TestResult],
                   pendings: dict[int, "_Pending"]) -> list[TestResult]:
    """A test that had to raise and did not says which stated error it is: the rule of the statement it
    enforces, quoted (its text is public; the test's input stays hidden)."""
    out = list(results)
    for i, result in enumerate(results):
        pending = pendings.get(i)
        if pending is None or pending.kind != "raises" or result.not_attempted:
            continue
        rules = [r for rule_id in cases[i].test.rules if (r := problem.rule(rule_id)) is not None
                 and "raises" in r.checks]
        said = next((s for r in rules for s in _sentences(r.text) if "raise" in s.lower()), None)
        if said is not None:
            said = said if len(said) <= STATED else said[:STATED].rsplit(" ", 1)[0] + " …"
            out[i] = replace(result, message=f"{result.message}; the statement: \"{said}\"")
    return out


def _sentences(text: str) -> list[str]:
    """A rule's sentences, each on one line: only the one that says what to raise is quoted (another, "never crop
    silently", would point at a cause the file may not have)."""
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*`])", " ".join(text.split())) if s.strip()]


def _says_more(tests: Sequence[TestResult], given: Sequence[TestResult]) -> bool:
    """Whether `tests` name, hint or show anything `given` (the same tests, as first reported) did not."""
    said = lambda t: (t.mistakes, t.hint, t.smallest_text)  # noqa: E731
    return any(said(a) != said(b) for a, b in zip(tests, given))


def _loading_output(run: RunResult) -> str:
    """What the file printed while it loaded: the run's output before the first call's. The run's output
    is the loading's, then every call's in turn; a warning a call raised is in that call's output."""
    calls = "".join(o.output for o in run.outcomes)
    if not calls:
        return run.output
    if run.output.endswith(calls):
        return run.output[:len(run.output) - len(calls)]
    first = next(o.output for o in run.outcomes if o.output)
    return run.output.split(first, 1)[0]  # the run's output was cut short (an output flood)


def unjudged(problem: Problem, cases: list[Case], submission: str, decision: verdicts.Decision,
             on_result: Callable[[TestResult], None] | None = None) -> Report:
    """The report of a file that could not be run at all (`verdicts.of_unloadable`): the first test
    says why, as for a file that does not load; the others were not run."""
    said, results = _SaidOnce(), []
    for case in cases:
        message = cap_message(escape_controls(decision.message))
        result = TestResult(case.name, case.test.group, decision.verdict, message)
        results.append(said(result, file_failed=True))
        if on_result is not None:
            on_result(results[-1])
    return Report(problem=problem.id, submission=submission, tests=results)


def _judge_outcomes(case: Case, names: list[str], expected: Expected, run: RunResult, outcomes: list,
                    traps: TrapSet | None, limits: Limits, diagnose: bool = True) -> tuple[TestResult, _Pending | None]:
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
class _Pending:
    """A failed test's message before it is final: what failed and the mistakes its output may be."""

    kind: str                        # what failed (a check kind, `values.loss`, a verdict), for hint_when
    trap: Diagnosis | None = None    # a value where an error was due: the trap `hint_when` names that gives it
    value: bool = False              # a wrong value: explained with the report's other wrong values (judge.judging.explain)


def _judge_case(case: Case, expected: Expected, actual: dict[str, Observation], refusals: dict[str, Refusal],
                run: RunResult, failure: verdicts.Decision | None, traps: TrapSet | None, limits: Limits,
                time_ms: float, diagnose: bool = True,
                exhausted: dict[str, str] | None = None) -> tuple[TestResult, _Pending | None]:
    """The test's verdict and message; with `diagnose`, a failure's known or generic mistake too."""
    main = actual.get(MAIN)

    def result(decision: verdicts.Decision, details=(), pending: _Pending | None = None):
        verdict, not_attempted = decision.verdict, decision.not_attempted
        # Messages quote the submission (its errors, keys, frames): no control sequence gets through (class 8).
        message = cap_message(escape_controls(decision.message))
        details = tuple(cap_message(escape_controls(d), MAX_DETAIL) for d in tuple(details)[:MAX_DETAILS])
        shown = _shown(case, expected, actual) if case.public else None  # never for hidden tests
        if pending is None and verdict is not Verdict.ACCEPTED:
            pending = _Pending(kind=verdict.value)
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
    raising = _raises(case)
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
            pending = _Pending(kind)
            if not diagnose:
                pass
            elif check.traits.diagnoses == VALUE and outcome.diagnose:
                pending = _Pending(kind, value=True)
            elif check.traits.diagnoses == TRAPS and main is not None and main.error is None and traps is not None:
                # A value where an error is due may be a known mistake (silent cropping), but only one
                # the test names in `hint_when`: on an invalid input unrelated traps coincide too easily.
                pending = _Pending(kind, known_mistake(case, actual, traps, only=set(case.test.hint_when)))
            # a `raises` check failing on NotImplementedError: the starter is untouched
            untouched = main is not None and main.error is not None and verdicts.not_attempted(main.error)
            return result(replace(verdicts.of_check(outcome), not_attempted=untouched), outcome.lines, pending)
    return result(verdicts.ACCEPTED)


def _finish(case: Case, result: TestResult, pending: _Pending | None) -> TestResult:
    """The result's known mistake (a value where an error was due) and, if it applies, the test's hint;
    a wrong value's mistakes are named once every test is judged (`_explained`)."""
    if pending is None:
        return result
    trap = pending.trap
    mistake = Mistake(trap.name, trap.message, True) if trap is not None else None
    hint = case.test.hint if _hint_applies(case, pending.kind, (trap.name,) if trap is not None else ()) else None
    return replace(result, mistake=mistake, hint=hint)


VALUE_KINDS = frozenset({"structure", "shape", "dtype", "finite", "values"})   # the compare check's stages


def particular_hints(cases: Sequence[Case], results: list[TestResult], pendings: dict[int, "_Pending"]) -> list[TestResult]:
    """Each failing test's hint kept only where its condition is seen. A hint written for a kind of failure
    (`hint_when: [values]`: "mask by index, never by value" on the duplicate rows' test) is about what is
    particular to its test: it stays where the file fails that way on a few of the value tests (at most
    half) or only on tests that carry a hint for it, and goes where the failure is a general one (most
    tests fail alike: the hint would point at a cause the file may not have), or where the mistake named on
    the test is not one the hint is about. A hint named for a mistake (`hint_when: [naive_exp]`) stays
    wherever that mistake is named."""
    out = list(results)
    valued = sum(any(checks.get(spec.type).traits.diagnoses == VALUE for spec in c.test.checks) for c in cases)
    for i, result in enumerate(results):
        pending = pendings.get(i)
        if result.hint is None or pending is None:
            continue
        when = set(cases[i].test.hint_when)
        named = {m.name for m in result.mistakes}
        if named & when:
            continue
        base = pending.kind.split(".", 1)[0]
        alike = [j for j, p in pendings.items() if p.kind.split(".", 1)[0] == base
                 and results[j].verdict is not Verdict.ACCEPTED]
        unhinted = [j for j in alike if not ({pendings[j].kind, base} & set(cases[j].test.hint_when))]
        general = base in VALUE_KINDS and bool(unhinted) and len(alike) > valued / 2
        if (named and when) or general:
            out[i] = replace(result, hint=None)
    return out


def _hint_applies(case: Case, kind: str, mistakes: tuple[str, ...]) -> bool:
    """A test's hint is shown only for the failures it explains (`hint_when`), or any when none is declared."""
    if not case.test.hint:
        return False
    when = case.test.hint_when
    # `values` covers every key; `values.loss` only a failure on `loss`
    return not when or kind in when or kind.split(".", 1)[0] in when or any(name in when for name in mistakes)


def _explained(cases: list[Case], expected: list[Expected], results: list[TestResult],
               observed: dict[int, Observation], pendings: dict[int, _Pending], traps: TrapSet, backend: Backend,
               program: Program, limits: Limits, deep: bool = True) -> list[TestResult]:
    """The report's wrong values explained together (judge.judging.explain): each failing value test gets the
    mistakes proven on it, and its hint where they are what the hint is about; a mistake named on an
    earlier test is referred to, not repeated."""
    tests = []
    for i, (case, result) in enumerate(zip(cases, results)):
        want, got, pending = expected[i].get(MAIN), observed.get(i), pendings.get(i)
        if want is None or want.error is not None or got is None or got.error is not None \
                or case.calls.main is None or case.calls.main.experiment is not None:
            continue  # an error due or raised, or a training run: no value to explain or to keep right
        if result.verdict is Verdict.ACCEPTED or (pending is not None and pending.value):
            tests.append(Test(i, case, want, got, passed=result.verdict is Verdict.ACCEPTED))
    if all(t.passed for t in tests):
        return results
    aimed = {name for t in tests if not t.passed for name in t.case.test.hint_when}
    suspects = Suspects(traps.traps, lambda test, trap: _made(case=test.case, traps=traps, trap=trap, near=test),
                        traps.slips, program, backend, limits, _bytes_of(cases, expected),
                        _row_arguments([t.case for t in tests]))
    named = explain.explain(tests, suspects.trap_models(aimed), suspects.predict,
                            suspects.slips() if deep else None, suspects.repairs() if deep else None)
    out = list(results)
    for test in tests:
        if test.passed:
            continue
        found = [Mistake(n.name, n.message, n.known) for n in named.get(test.index, ())]
        pending = pendings[test.index]
        hint = test.case.test.hint if _hint_applies(test.case, pending.kind, tuple(m.name for m in found)) else None
        out[test.index] = replace(out[test.index], mistake=found[0] if found else None, also=tuple(found[1:]),
                                  hint=hint)
    return _said_once(out)



def _row_arguments(cases: Sequence[Case]) -> tuple[str, ...]:
    """The arguments that are float arrays of two axes or more in every test of `cases` (the value tests:
    embeddings, tokens): the ones whose rows a learner may have left unnormalised."""
    found: dict[str, bool] = {}
    for case in cases:
        for name, value in zip(case.arg_names, case.args):
            rows = isinstance(value, Array) and value.data.ndim >= 2 and value.data.dtype.kind == "f"
            found[name] = found.get(name, True) and rows
    return tuple(name for name, rows in found.items() if rows)


def _bytes_of(cases: list[Case], expected: list[Expected]) -> Callable[[Case], int]:
    """The bytes of a case's expected main output: a slip model's output there is about as large."""
    sizes = {}
    for case, want in zip(cases, expected):
        value = want[MAIN].value if MAIN in want and want[MAIN].error is None else None
        sizes[case.name] = sum(math.prod(shape) * 8 for shape in _array_shapes(value).values()) + 64
    return lambda case: sizes.get(case.name, 64)


def _said_once(results: list[TestResult]) -> list[TestResult]:
    """Each mistake's line said in full on the first failing test that names it, referred to after."""
    seen: set[str] = set()
    out = []
    for r in results:
        if r.mistake is not None:
            marked = []
            for mistake in r.mistakes:
                full = replace(mistake, repeated=False)
                marked.append(replace(full, repeated=full.line in seen))
                seen.add(full.line)
            r = replace(r, mistake=marked[0], also=tuple(marked[1:]))
        out.append(r)
    return out


class _SaidOnce:
    """Says a file-level failure and each diagnosis once across one report's tests, in order.

    A file that does not load fails every test the same way (25 identical
    SyntaxError blocks help nobody), and a mistake named on one test is the
    same mistake on the next. Later tests point back without naming the
    earlier test: a test's name is not for every message.
    """

    def __init__(self) -> None:
        self.named: set[str] = set()
        self.load_failure_said = False

    def __call__(self, result: TestResult, file_failed: bool) -> TestResult:
        if file_failed:
            if self.load_failure_said:
                return replace(result, message=f"{NOT_RUN} (see the first test)", details=(), not_run=True)
            self.load_failure_said = True
            return result
        if result.mistake is None:
            return result
        line = result.mistake.line
        if line in self.named:
            return replace(result, mistake=replace(result.mistake, repeated=True))
        self.named.add(line)
        return result


def _raised(error) -> str:
    """What the reference raised, as a public example shows it: `ValueError (its message)`."""
    return f"{error.type} ({error.message})" if error.message else error.type


def _shown(case: Case, expected: Expected, actual: dict[str, Observation]) -> Shown:
    """A public example's inputs and both outputs, for side-by-side rendering."""
    inputs = tuple((name, case.test.inputs.get(name), value) for name, value in zip(case.arg_names, case.args))
    want, got = expected.get(MAIN), actual.get(MAIN)
    return Shown(inputs=inputs,
                 expected=want.value if want is not None and want.error is None else None,
                 actual=got.value if got is not None and got.error is None else None,
                 expected_error=_raised(want.error) if want is not None and want.error is not None else None,
                 actual_error=got.error.headline() if got is not None and got.error is not None else None,
                 tolerance=case.tolerance)


def _raises(case: Case) -> bool:
    return any(checks.get(spec.type).traits.expects_error for spec in case.test.checks)


def known_mistake(case: Case, actual: dict[str, Observation], traps: TrapSet,
                  only: set[str] | None = None, matched: dict[str, bool | None] | None = None) -> Diagnosis | None:
    """The trap (of those named in `only`, when given) whose output equals the submission's
    (`matched`: each trap's answer, when known already).

    None when two traps with different messages both do: on this input the two
    mistakes coincide, and naming the first would name the wrong one as often as
    not (a later test, where they differ, names it).
    """
    def matches_here(trap: Trap) -> bool | None:
        return matched[trap.name] if matched is not None else _trap_matches(case, actual, traps, trap)

    matches = [trap for trap in traps.traps if (only is None or trap.name in only) and matches_here(trap)]
    aimed = [t for t in matches if t.name in case.test.hint_when]
    if len({trap.message for trap in matches}) > 1 and len(aimed) == 1:
        matches = aimed  # the test was written against this one (its hint_when names it): where they coincide,
        # as on a grid of the same count for a shortcut and a 1-D resize to the same length, it decides
    if len({trap.message for trap in matches}) > 1:
        # Within tolerance several fit; the one that returns the very types the submission did (a numpy
        # integer rather than a float) is the mistake, if exactly one does.
        observed = actual.get(MAIN)
        exact = [t for t in matches if observed is not None and kinds(_made(case, traps, t)) == kinds(observed.value)]
        matches = exact if len({t.message for t in exact}) == 1 else []
    if not matches:
        return None
    return Diagnosis(matches[0].name, matches[0].message)


def _made(case: Case, traps: TrapSet, trap: Trap, near: Test | None = None) -> Any:
    """The trap's plain output value on this case, or None when it raised; with `near` (a test being
    explained), also None for a large output many times the size of the test's expected and actual
    values, which no relation makes into the learner's (encoding one costs seconds: patchify's
    stride-1 windows of a 224-pixel image are 33 M numbers)."""
    output = _trap_output(case, traps, trap)
    if output is None or output.shapes is None:
        return None
    if near is not None and output.made is None:
        numbers = lambda shapes: sum(math.prod(s) for s in shapes.values())  # noqa: E731
        seen = max(numbers(_array_shapes(near.expected.value)), numbers(_array_shapes(near.actual.value)))
        if numbers(output.shapes) > FAR_LARGER * max(seen, 1):
            return None
    made = output.made if output.made is not None else _encoded(case, traps, trap)
    return made.value if made.error is None else None


def _trap_output(case: Case, traps: TrapSet, trap: Trap) -> _TrapOutput | None:
    """The trap's output on this case, made once per batch (or read from the cache), its value kept
    when small enough; None when the trap set has no such function."""
    key = (case.name, trap.function)
    output = traps.outputs.get(key)
    if output is None:
        traps.recall()
        output = traps.outputs.get(key)
    return output if output is not None else _run_trap(case, traps, trap)


def _run_trap(case: Case, traps: TrapSet, trap: Trap) -> _TrapOutput | None:
    """Run the trap on this case and keep its output (a larger one is encoded again whenever a
    submission's shapes may match it)."""
    fn = traps.functions.get(trap.function)
    if fn is None:
        return None
    with quiet():  # a trap's warning would print its line: the fix of the learner's mistake
        live = run_call(fn, case.calls.main, None)
    if live.error is not None:
        output = _TrapOutput(None, False, None)
    else:
        output = _TrapOutput(_array_shapes(live.value), _finite_output(live.value), None)
        if _small(output):
            output = replace(output, made=plain(Observation(value=live.value)))
    traps.outputs[(case.name, trap.function)] = output
    return output


# ---------------------------------------------------------------- trap outputs in plain form (judge.model.cache)
# An entry's outputs: [[case name, trap function, shapes, finite, value], ...], where shapes is None (the
# trap raised) or [[path, shape], ...] with path and shape tuples (wire keeps tuples, ints, bools and
# strings apart, so a path comes back equal and equally hashed), and value is None (raised, or too
# large to keep) or [the plain value] (a list around it: a trap may well return None).

def _outputs_plain(traps: TrapSet) -> list | None:
    """The outputs of `traps` on its cases in plain form; None when one cannot come back exactly."""
    names = {case.name for case in traps.cases}
    records = []
    for (case_name, function), output in traps.outputs.items():
        if case_name not in names:
            continue
        shapes = None
        if output.shapes is not None:
            shapes = [[path, shape] for path, shape in output.shapes.items()]
            if not all(_plain_path(path) and _plain_shape(shape) for path, shape in shapes):
                return None  # a dict key of another type: made again in each process, as without a cache
        records.append([case_name, function, shapes, output.finite,
                        None if output.made is None else [output.made.value]])
    return records


def _outputs_from_plain(records: Any, traps: TrapSet) -> dict | None:
    """The outputs an entry holds, checked against `traps`; None (a miss, rebuilt) when anything
    about them is not what `_outputs_plain` writes."""
    known = {(case.name, trap.function) for case in traps.cases if case.calls.main is not None for trap in traps.traps}
    if type(records) is not list:
        return None
    outputs = {}
    for record in records:
        if type(record) is not list or len(record) != 5:
            return None
        case_name, function, shapes, finite, value = record
        key = (case_name, function)
        if type(case_name) is not str or type(function) is not str or key not in known or key in outputs:
            return None
        if type(finite) is not bool:
            return None
        if shapes is None:
            if finite or value is not None:
                return None
            outputs[key] = _TrapOutput(None, False, None)
            continue
        if type(shapes) is not list or not all(type(s) is list and len(s) == 2 and _plain_path(s[0])
                                               and _plain_shape(s[1]) for s in shapes):
            return None
        output = _TrapOutput(dict((path, shape) for path, shape in shapes), finite, None)
        if len(output.shapes) != len(shapes) or (value is None) == _small(output):
            return None  # a repeated path, or a value kept that should not be (or the reverse)
        if value is not None:
            if type(value) is not list or len(value) != 1:
                return None
            output = replace(output, made=Observation(value=value[0], time_ms=0.0))
        outputs[key] = output
    return outputs


def _plain_path(path: Any) -> bool:
    return type(path) is tuple and all(type(k) in (str, int, bool) for k in path)


def _plain_shape(shape: Any) -> bool:
    return type(shape) is tuple and all(type(d) is int and d >= 0 for d in shape)


def _small(output: _TrapOutput) -> bool:
    return sum(math.prod(s) for s in output.shapes.values()) * 8 <= TRAP_KEEP_BYTES


def _encoded(case: Case, traps: TrapSet, trap: Trap) -> Observation:
    with quiet():
        return plain(run_call(traps.functions[trap.function], case.calls.main, None))


def _finite_output(value: Any) -> bool:
    """Every number in a plain or live value is finite (None, a trap that raised, is not)."""
    if value is None:
        return False
    if isinstance(value, dict):
        return all(_finite_output(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_finite_output(v) for v in value)
    if isinstance(value, Array):
        value = value.data
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype.kind not in "fc" or bool(np.isfinite(value).all())
    if isinstance(value, float):
        return math.isfinite(value)
    if callable(getattr(value, "is_floating_point", None)):  # a torch tensor, from a trap run here
        return not (value.is_floating_point() or value.is_complex()) or bool(value.isfinite().all())
    return True


def _trap_matches(case: Case, actual: dict[str, Observation], traps: TrapSet, trap: Trap,
                  observed_shapes: dict | None = None) -> bool | None:
    """Whether `trap` gives the submission's output on `case`; None when it cannot tell (the trap raised).
    `observed_shapes`: `_array_shapes` of the submission's output, when known already."""
    observed = actual.get(MAIN)
    if observed is None or observed.error is not None:
        return None
    if observed_shapes is None:
        observed_shapes = _array_shapes(observed.value)
    output = _trap_output(case, traps, trap)
    if output is None or output.shapes is None:
        return None  # no such function, or the trap raised on this case
    if not _may_match(output.shapes, observed_shapes):
        return False  # its arrays' shapes differ: compare would fail
    made = output.made if output.made is not None else _encoded(case, traps, trap)
    return compare.passes(case, Observed(main=made), Observed(main=observed))


def _array_shapes(value: Any, path: tuple = ()) -> dict[tuple, tuple[int, ...]]:
    """Path -> shape of every array with at least one axis in a (plain or live) value."""
    if isinstance(value, dict):
        return {p: s for k, v in value.items() for p, s in _array_shapes(v, path + (k,)).items()}
    if isinstance(value, (list, tuple)):
        return {p: s for i, v in enumerate(value) for p, s in _array_shapes(v, path + (i,)).items()}
    shape = getattr(value, "shape", None)
    return {path: tuple(shape)} if shape is not None and len(shape) > 0 else {}


def _may_match(trap_shapes: dict, observed_shapes: dict) -> bool:
    """False when compare must fail: it requires each expected array's shape at the same place."""
    return all(observed_shapes.get(p) == s for p, s in trap_shapes.items())
