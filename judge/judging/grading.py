"""Grading: from cases, expected observations and a sandboxed run to a report.

Each test is judged in the judge's process, from plain data: the sandbox's facts about its calls
(time, memory, output, crashes) first, then errors raised by the submission (both turned into verdicts
by judge.runs.decisions), then the checks selected for each test in order. Once every test is judged,
the report's wrong values are explained together (judge.judging.explain), so a message names a mistake
only where it is proven on every failing test; a test's hint is shown only for the failures it explains,
and a mistake is said in full once (`SayOnce`). One test's verdict is judge.judging.verdict's; the traps'
outputs are judge.judging.traps'.
"""
from __future__ import annotations

import math
import random
import re
import time
from dataclasses import replace
from typing import Callable, Sequence

from judge import checks
from judge.checks import compare as compare_check, raises as raises_check
from judge.base import encoding as wire
from judge.base.encoding import Array
from judge.base.escape import escape_controls
from judge.base.outcomes import Verdict
from judge.base.report import NOT_RUN, Mistake, Report, TestResult, cap_message
from judge.checks.result import VALUE
from judge.judging import explain
from judge.judging.budget import Budget, Diagnosing
from judge.judging.evidence import Test
from judge.judging.expected import Expected
from judge.judging.suspects import Suspects
from judge.judging.tampering import collect, scan
from judge.judging.traps import TrapSet, array_shapes, trap_value
from judge.judging.verdict import Pending, finish_result, hint_applies, judge_outcomes
from judge.model.cases import MAIN, Case
from judge.model.problem import Problem
from judge.runs import decisions as verdicts
from judge.runs.calls import Observation, restore_unchanged
from judge.runs.contract import Backend, Limits, Program, RunResult

MAX_PRINTED = 2000  # characters of a test's printed output kept with its result


# A submission's observation may have NODE_FACTOR x the reference's nodes plus NODE_SLACK
# (room for a wrong but comparable answer) before it is refused undecoded.
NODE_FACTOR = 4
NODE_SLACK = 256


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
    grading = _Grading(problem, cases, expected, program, submission, backend, limits, traps)
    calls, node_limits = grading.order_calls(item_caps(expected) if caps is None else caps)
    on_progress = grading.judge_finished if on_result is not None else grading.judge_passing
    grading.on_result = on_result
    run = backend.run(program, calls, limits, on_progress=on_progress, node_limits=node_limits)
    run_end = time.perf_counter()   # the submission's own run is over: what an accepted run costs too
    grading.judge_finished(run, len(calls))
    grading.judge_replaced_outcomes(run)
    grading.finish_run(run)
    judged = _stated_errors(problem, cases, list(grading.results), grading.pendings)
    if traps is None or run.load_error is not None or not any(p.value for p in grading.pendings.values()):
        return grading.report_of(particular_hints(cases, judged, grading.pendings))
    if budget is None:
        return grading.report_of(grading.diagnose(judged, deep=True))
    diagnosing = Diagnosing(budget, run_end, lambda: grading.diagnose(judged, deep=False),
                            lambda: grading.diagnose(judged, deep=True))
    given = diagnosing.wait()
    first = grading.report_of(given if given is not None else particular_hints(cases, judged, grading.pendings))
    if diagnosing.complete:
        return first
    first.refining = True

    def refined(deep: list[TestResult] | None) -> None:
        budget.on_refined(None if deep is None or not _says_more(deep, first.tests) else grading.report_of(deep))

    diagnosing.then(refined)
    return first


class _Grading:
    """One submission's grading, in steps: its calls ordered, its tests judged in order as the backend's
    results arrive (each said once), a test judged again where its outcome was replaced, its report made,
    and its wrong values diagnosed."""

    def __init__(self, problem: Problem, cases: list[Case], expected: list[Expected], program: Program,
                 submission: str, backend: Backend, limits: Limits, traps: TrapSet | None):
        self.started = time.perf_counter()
        self.problem, self.cases, self.expected = problem, cases, expected
        self.program, self.submission = program, submission
        self.backend, self.limits, self.traps = backend, limits, traps
        self.on_result: Callable[[TestResult], None] | None = None
        self.orders: list[list[str]] = []
        self.ends: list[int] = []    # a case's calls are the slice [ends[i-1], ends[i]) of the run's calls
        self.results: list[TestResult] = []
        self.observed: dict[int, Observation] = {}   # each test's main observation, for explaining wrong values
        self.pendings: dict[int, Pending] = {}
        self.say_once = SayOnce()
        self.judged_on: dict[int, list] = {}  # each test settled so far: the outcomes it was judged on
        self.found: list[tuple] = []          # the source's tampering findings, once looked for
        self.halted = False                   # a failure met while the child still runs: judged after the run
        self.run: RunResult | None = None
        self.warnings: list[str] = []
        self.tampering = None

    def order_calls(self, caps: Sequence[dict[str, int]]) -> tuple[list, list[int]]:
        """Every case's calls, each case's in an order the submission cannot predict (so it cannot tell a
        check's extra call from the test's own call by position), with each call's item limit."""
        rng = random.SystemRandom()
        calls, node_limits = [], []
        for i, case in enumerate(self.cases):
            names = list(case.calls)
            rng.shuffle(names)
            self.orders.append(names)
            calls.extend(case.calls[name] for name in names)
            node_limits.extend(caps[i][name] for name in names)
            self.ends.append(len(calls))
        return calls, node_limits

    def settle(self, run: RunResult, i: int, diagnose: bool = True) -> TestResult:
        """Test `i` judged on its calls' outcomes in `run`."""
        cases, orders, ends = self.cases, self.orders, self.ends
        outcomes = run.outcomes[ends[i] - len(cases[i].calls):ends[i]]
        self.judged_on[i] = outcomes
        result, pending = judge_outcomes(cases[i], orders[i], self.expected[i], run, outcomes, self.traps,
                                          self.limits, diagnose)
        printed = "".join(o.output for o in outcomes)  # what this test's calls printed, attributed to it
        if printed:
            result = replace(result, output=cap_message(escape_controls(printed, keep="\n\t"), MAX_PRINTED))
        main = outcomes[orders[i].index(MAIN)].observation if MAIN in orders[i] else None
        if main is not None and run.load_error is None:
            self.observed[i] = restore_unchanged(main, cases[i].calls[MAIN])
        if pending is not None:
            self.pendings[i] = pending
        return finish_result(cases[i], result, pending)

    def scan_once(self) -> None:
        """The source's tampering findings, looked for on the backend's first progress report (it makes one
        while the child loads the file): after the run they would keep the report waiting."""
        if not self.found:
            self.found.append(scan(self.program.source))

    def judge_finished(self, run: RunResult, done: int) -> None:
        """Every test whose calls are among the first `done` judged, in order, and given to `on_result`."""
        self.scan_once()
        while len(self.results) < len(self.cases) and self.ends[len(self.results)] <= done:
            result = self.settle(run, len(self.results))
            self.results.append(self.say_once(result, file_failed=run.load_error is not None))
            if self.on_result is not None:
                self.on_result(self.results[-1])

    def judge_passing(self, run: RunResult, done: int) -> None:
        """Without a listener: judge the passing tests while the child still runs (the judge's core
        is otherwise idle), and stop at the first failure. Diagnosing a failure imports the traps'
        framework, which would compete with the submission for the CPU while it is being timed:
        that test and the ones after it are judged after the run."""
        self.scan_once()
        while not self.halted and len(self.results) < len(self.cases) and self.ends[len(self.results)] <= done:
            result = self.settle(run, len(self.results), diagnose=False)
            if result.verdict is not Verdict.ACCEPTED:
                self.halted = True  # judged again, with its diagnosis, after the run
                return
            self.results.append(self.say_once(result, file_failed=False))

    def judge_replaced_outcomes(self, run: RunResult) -> None:
        """A test judged on an outcome since replaced, judged again. An outcome can change after it was
        reported: the sandbox reads every call's arguments again until the run ends (an input kept and changed
        by a later call), and a protocol broken after the last result is charged to that call."""
        for i, outcomes in self.judged_on.items():
            now = run.outcomes[self.ends[i] - len(self.cases[i].calls):self.ends[i]]
            if any(a is not b for a, b in zip(outcomes, now)):
                self.pendings.pop(i, None)
                self.results[i] = self.say_once(self.settle(run, i), file_failed=run.load_error is not None)

    def finish_run(self, run: RunResult) -> None:
        """What the run shows beside the verdict, never deciding it: an isolation that failed, what the source
        shows and what the child said while it ran."""
        self.run = run
        if run.isolation.failed:
            self.warnings.append(escape_controls(run.isolation.exposure))
        self.scan_once()
        self.tampering = collect(self.program.source, run.tampering, found=self.found[0])

    def report_of(self, tests: list[TestResult]) -> Report:
        run = self.run
        return Report(problem=self.problem.id, submission=self.submission, tests=tests,
                      time_ms=(time.perf_counter() - self.started) * 1000,
                      output=escape_controls(run.output, keep="\n\t"), warnings=self.warnings,
                      tampering=self.tampering, loading_output=escape_controls(_loading_output(run), keep="\n\t"))

    def diagnose(self, judged: list[TestResult], deep: bool) -> list[TestResult]:
        """The report's tests with the mistakes that explain their wrong values: known mistakes and relations
        only (made in this process), or (`deep`) also slips, repairs and the smallest input (sandbox runs)."""
        cases, pendings, traps = self.cases, self.pendings, self.traps
        done = _explain_wrong_values(cases, self.expected, judged, self.observed, pendings, traps, self.backend,
                                     self.program, self.limits, deep=deep)
        first = next((i for i, r in enumerate(done) if i in pendings and pendings[i].value), None)
        if deep and first is not None and traps.shrinker is not None:
            shown = traps.shrinker.smallest(cases[first], self.program, self.backend, self.limits)
            if shown is not None:
                from judge.render.text import smallest_text  # rendering is the faces'; the JSON carries its text

                done[first] = replace(done[first], smallest=shown, smallest_text=smallest_text(shown))
        return particular_hints(cases, done, pendings)


STATED = 240   # characters of a rule's text quoted under a failed raises test, at most


def _stated_errors(problem: Problem, cases: Sequence[Case], results: list[TestResult],
                   pendings: dict[int, "Pending"]) -> list[TestResult]:
    """A test that had to raise and did not says which stated error it is: the rule of the statement it
    enforces, quoted (its text is public; the test's input stays hidden)."""
    out = list(results)
    for i, result in enumerate(results):
        pending = pendings.get(i)
        if pending is None or pending.kind != RAISES or result.not_attempted:
            continue
        rules = [r for rule_id in cases[i].test.rules if (r := problem.rule(rule_id)) is not None
                 and RAISES in r.checks]
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
    said, results = SayOnce(), []
    for case in cases:
        message = cap_message(escape_controls(decision.message))
        result = TestResult(case.name, case.test.group, decision.verdict, message)
        results.append(said(result, file_failed=True))
        if on_result is not None:
            on_result(results[-1])
    return Report(problem=problem.id, submission=submission, tests=results)


VALUE_KINDS = frozenset(compare_check.TRAITS.licenses)   # the compare check's stages
RAISES = raises_check.TRAITS.failure_kind   # what a test that had to raise fails as, and the rule that licenses it


def particular_hints(cases: Sequence[Case], results: list[TestResult], pendings: dict[int, Pending]) -> list[TestResult]:
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


def _explain_wrong_values(cases: list[Case], expected: list[Expected], results: list[TestResult],
                          observed: dict[int, Observation], pendings: dict[int, Pending], traps: TrapSet,
                          backend: Backend, program: Program, limits: Limits, deep: bool = True) -> list[TestResult]:
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
    suspects = Suspects(traps.traps, lambda test, trap: trap_value(case=test.case, traps=traps, trap=trap, near=test),
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
        hint = test.case.test.hint if hint_applies(test.case, pending.kind, tuple(m.name for m in found)) else None
        out[test.index] = replace(out[test.index], mistake=found[0] if found else None, also=tuple(found[1:]),
                                  hint=hint)
    return say_mistakes_once(out)


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
        sizes[case.name] = sum(math.prod(shape) * 8 for shape in array_shapes(value).values()) + 64
    return lambda case: sizes.get(case.name, 64)


class SayOnce:
    """Says a file-level failure and each mistake once across one report's tests, in order.

    A file that does not load fails every test the same way (25 identical SyntaxError blocks help
    nobody), and a mistake named on one test is the same mistake on the next: its line is said in full
    on the first test that names it and referred to after, without naming that test (a test's name is
    not for every message).
    """

    def __init__(self) -> None:
        self.lines: set[str] = set()
        self.load_failure_said = False

    def __call__(self, result: TestResult, file_failed: bool) -> TestResult:
        if file_failed:
            if self.load_failure_said:
                return replace(result, message=f"{NOT_RUN} (see the first test)", details=(), not_run=True)
            self.load_failure_said = True
            return result
        return self.mark_repeated(result)

    def mark_repeated(self, result: TestResult) -> TestResult:
        """The result with each of its mistakes marked repeated where an earlier result said its line."""
        if result.mistake is None:
            return result
        marked = []
        for mistake in result.mistakes:
            full = replace(mistake, repeated=False)
            marked.append(replace(full, repeated=full.line in self.lines))
            self.lines.add(full.line)
        return replace(result, mistake=marked[0], also=tuple(marked[1:]))


def say_mistakes_once(results: list[TestResult]) -> list[TestResult]:
    """Each mistake's line said in full on the first failing test that names it, referred to after."""
    say = SayOnce()
    return [say.mark_repeated(r) for r in results]


