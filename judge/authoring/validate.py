"""`judge validate`: a problem package verified aspect by aspect, as Kattis' verifyproblem does.

Each aspect has a dotted name (`patchify.schema`, `patchify.reference`,
`patchify.examples.tiny_index_image`, `patchify.submissions.wrong_answer.column_major`,
`patchify.time_limit`) and returns diagnostics; nothing here prints. A problem
is valid when no aspect reports an error:

- schema: every file parses and every field is known and well typed (all errors at once);
- reference: runs on every case and every check's extra calls, twice, with
  identical outputs, within the time limit; judged in the sandbox, it is accepted;
  what it warns is a warning here (the author's to hear; no learner's face shows it, judge.base.quiet);
- rules: every test names the statement's rules it enforces, and each check it
  runs (each stage of `compare` that can fail, on each output key) is licensed
  by one of them, so nothing is judged that the statement does not say;
- examples: what `judge show` displays is what grading expects, and an example's
  stated `expected:` output matches the reference;
- experiments: each `experiment` test passes with the reference and fails with
  every trap listed under its `fails:`;
- submissions: each file in submissions/<id>/<verdict>/ gets that verdict; a
  wrong_answer is caught by a hidden test or check, not only by public examples;
- time_limit: at least `ac_to_time_limit` x the slowest accepted test, and a
  warning when a verdict would flip within the `time_limit_to_tle` margin.

One warm `Judge` (one fork server) serves the whole validation.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable

from judge import checks
from judge.model import problem as problems
from judge.model.rules import collapse, offences
from judge.model.cases import MAIN, Case, build_case
from judge.checks import experiment
from judge.base.errors import ConfigError, ConfigErrors
from judge.runs.calls import run_call
from judge.authoring.diagnostics import Diagnostic, ProblemValidation, Severity, Validation, error, info, warning
from judge.authoring.differences import first_difference, stated_mismatch
from judge.authoring.gate import NOT_RUN, GateOptions, GateResult, run_gate
from judge.authoring.messages import (describe_failure, gate_summary, out_of_contract_message, summarize_report,
                                      survivor_message)
from judge.authoring.naming import Naming, name_submission
from judge.authoring.schema import check_unit_tags, find_orphans, stub_problem
from judge.authoring.timing import check_margin, check_time_limit, check_too_slow, used_ms
from judge.judging.expected import Expected, expect, plain
from judge.model.problem import Hidden, Problem
from judge.base.quiet import quiet
from judge.base.report import Report
from judge.judging.session import Judge
from judge.base.submission import Submission
from judge.model.solution import load_module
from judge.base.outcomes import Verdict, folder_names, folder_verdict
from judge.base.yamlfile import load_yaml


# `judge validate` without --mutants runs the gate on a seeded sample of this many mutants per file.
SAMPLE_PER_FILE = 12


# ---------------------------------------------------------------- entry point

def validate(judge: Judge, problem_ids: Iterable[str] | None = None,
             on_problem: Callable[[ProblemValidation], None] | None = None,
             gate: GateOptions | None = None) -> Validation:
    """Validate `problem_ids` (all problems when None) with one warm `judge`.

    An unknown id is a ConfigError (a usage error), not a failed validation.
    `on_problem` is called as each problem finishes, so a CLI can stream.
    `gate`: also run the mutation gate (judge.authoring.gate) on each problem that is otherwise valid.
    """
    ids = list(problem_ids or [])
    everything = not ids
    if everything:
        ids = judge.problem_ids()
    known = set(judge.problem_ids())
    unknown = [pid for pid in ids if pid not in known]
    if unknown:
        judge.problem(unknown[0])  # raises the usual "unknown problem id ..., known problems: ..." error
    result = Validation()
    if everything:
        orphans = find_orphans(judge.root, known)
        if orphans.diagnostics:
            result.problems.append(orphans)
            if on_problem:
                on_problem(orphans)
    for pid in ids:
        started = time.perf_counter()
        check = _ProblemCheck(judge, pid, gate)
        checked = ProblemValidation(pid, check.run(), naming=check.naming, gate=check.gate)
        checked.seconds = time.perf_counter() - started
        result.problems.append(checked)
        if on_problem:
            on_problem(checked)
    return result


# ---------------------------------------------------------------- one problem

class _ProblemCheck:
    """The aspects of one problem, in order; later aspects use what earlier ones loaded."""

    def __init__(self, judge: Judge, problem_id: str, gate: GateOptions | None = None):
        self.judge = judge
        self.id = problem_id
        self.gate_options = gate
        self.gate: GateResult | None = None
        self.problem: Problem | None = None
        self.hidden: Hidden | None = None
        self.slowest_accepted: tuple[float, str, str] | None = None   # (ms, submission, test)
        self.expected: dict[str, Expected] = {}   # test name -> the reference's observations (for rules)
        self.cases: dict[str, Case] = {}          # test name -> its drawn case (for the domain)
        self.naming: list[Naming] = []            # what each wrong_answer submission was named

    def run(self) -> list[Diagnostic]:
        diagnostics: list[Diagnostic] = []
        # A problem that does not load, or a reference that is not sound, makes
        # every later aspect's verdict meaningless: stop there.
        for aspect, blocking in ((self.schema, True), (self.reference, True), (self.rules, False), (self.domain, False),
                                 (self.examples, False), (self.experiments, False), (self.traps, False),
                                 (self.submissions, False), (self.time_limit, False)):
            found = aspect()
            diagnostics += found
            if blocking and any(d.severity is Severity.ERROR for d in found):
                return diagnostics
        # The mutation gate proves the tests; on a problem with errors its findings would mislead.
        if self.gate_options is not None and not any(d.severity is Severity.ERROR for d in diagnostics):
            diagnostics += self.mutants()
        return diagnostics

    # ------------------------------------------------------------ schema
    def schema(self) -> list[Diagnostic]:
        aspect = f"{self.id}.schema"
        found: list[Diagnostic] = []
        try:
            self.problem = self.judge.problem(self.id)
        except ConfigError as exc:
            found += [error(aspect, line) for line in _lines(exc)]
        # Read the hidden file even when the public one is broken, so every error shows at once.
        target = self.problem or stub_problem(self.judge.root, self.id)
        if target is not None:
            try:
                # A broken public file's rules may be unreadable: then the tests' rule ids are not checked
                # (its error is said once, not once per test naming a rule).
                self.hidden = problems.load_hidden(target, rules_known=self.problem is not None
                                                   or problems.rules_readable(load_yaml(target.path)))
            except ConfigError as exc:
                found += [error(aspect, line) for line in _lines(exc)]
        if self.problem is not None:
            found += check_unit_tags(self.problem)
        if self.problem is not None and self.hidden is not None:
            names = {t.name for t in self.problem.examples}
            for test in self.hidden.tests:
                if test.name in names:
                    found.append(error(aspect, f"{test.source}: hidden test {test.name!r} has the name of a public "
                                               "example; reports would show two tests of that name"))
        return found

    # ------------------------------------------------------------ reference
    def reference(self) -> list[Diagnostic]:
        """Every case and every check's calls, twice, identical, in time; accepted when judged."""
        problem, hidden = self.problem, self.hidden
        aspect = f"{self.id}.reference"
        found: list[Diagnostic] = []
        # What the reference warns is the author's to hear, here only: every learner's face drops it.
        heard: list[warnings.WarningMessage] = []
        try:
            with quiet(heard):
                reference = hidden.reference_function(problem.entry_point)
        except ConfigError as exc:
            return [error(aspect, str(exc))]
        warned = self._warned(aspect, "on loading", heard)  # kept apart: a warning stops nothing below
        limit_ms = problem.limits.time_s * 1000
        for test in list(problem.examples) + list(hidden.tests):
            try:
                case = build_case(problem, test, hidden.tolerance)
                self.cases[test.name] = case
                with quiet(heard):
                    first = expect(case, reference, hidden.reference)
                    second = expect(case, reference, hidden.reference)
            except ConfigError as exc:
                found.append(error(aspect, f"test {test.name!r} ({test.source}): {exc}"))
                continue
            finally:
                warned += self._warned(aspect, f"on test {test.name!r}", heard)
            self.expected[test.name] = first
            for call in case.calls:
                difference = first_difference(first[call].to_plain(), second[call].to_plain())
                if difference:
                    found.append(error(aspect, f"not deterministic: test {test.name!r}, call {call!r} gives "
                                               f"different results on two runs ({difference}); seed any randomness"))
                    break
            slowest = max(min(first[c].time_ms, second[c].time_ms) for c in case.calls)
            if slowest > limit_ms:
                found.append(error(aspect, f"takes {slowest / 1000:.2f} s on test {test.name!r}; "
                                           f"the time limit is {problem.limits.time_s:g} s"))
        if found:
            return found + warned
        # The reference as a submission: sandboxed, through every check, against itself.
        report = self._judge(hidden.reference, f"{aspect}.sandboxed", found, source=hidden.reference_source)
        if report is not None:
            if report.accepted:
                self._note_accepted(report, "the reference")
                found.append(info(f"{aspect}.sandboxed", summarize_report(report)))
            else:
                found.append(error(f"{aspect}.sandboxed", "the reference, judged in the sandbox, is not accepted: "
                                                          + describe_failure(report)))
        return found + warned

    def _warned(self, aspect: str, when: str, heard: list[warnings.WarningMessage]) -> list[Diagnostic]:
        """One warning diagnostic per warning the reference raised `when` (Python says each once per
        line of code); `heard` is emptied for the next test."""
        said = [warning(aspect, f"the reference warns {when}: {w.category.__name__}: {w.message} "
                                f"({_rel(Path(w.filename), self.judge.root)}:{w.lineno})") for w in heard]
        heard.clear()
        return said

    # ------------------------------------------------------------ rules
    def rules(self) -> list[Diagnostic]:
        """Every check of every test enforces a stated rule; identical offences collapse into one line."""
        aspect = f"{self.id}.rules"
        found = []
        for test in list(self.problem.examples) + list(self.hidden.tests):
            found += offences(self.problem, test, self.expected.get(test.name, {}))
        unconditional = [t.name for t in list(self.problem.examples) + list(self.hidden.tests)
                         if t.hint and not t.hint_when]
        hints = [warning(aspect, f"{len(unconditional)} test(s) {', '.join(unconditional[:6])}: a `hint` without "
                                 "`hint_when` is shown for any failure; say which failure kinds or traps it explains")
                 ] if unconditional else []
        if not found:
            return hints + [info(aspect, f"{len(self.problem.rules)} rules; every check of every test enforces one")]
        return hints + [error(aspect, line) for line in collapse(found)]

    # ------------------------------------------------------------ domain
    def domain(self) -> list[Diagnostic]:
        """Every test stays inside the input domain (judge.model.domain): an argument of another type than the
        statement's domain is outside the contract, and no test may turn on what a solution does with it. An
        argument whose domain says nothing (no `domain:` entry, no annotation) is a warning."""
        aspect = f"{self.id}.domain"
        problem = self.problem
        found = []
        for test in list(problem.examples) + list(self.hidden.tests):
            case = self.cases.get(test.name)
            why = problem.domain.outside(problem.args, case.args) if case is not None else None
            if why:
                found.append(error(aspect, f"{test.source}: test {test.name!r}: {why}: outside the input domain, "
                                           "where no test may go (what a solution does with such an input is "
                                           "its own business): drop the test, or widen the domain if the "
                                           "contract covers such inputs"))
        unstated = [a.name for a in problem.domain.args if a.open]
        if unstated:
            found.append(warning(aspect, f"problems/{self.id}.yaml: the input domain of {', '.join(unstated)} is not "
                                         "stated: give each a type in `domain:` (or an annotation in `signature`), "
                                         "so learners and the mutation gate know which inputs the contract covers"))
        if not found:
            found.append(info(aspect, "; ".join(f"{a.name}: {a.text()}" for a in problem.domain.args)
                               + "; every test inside it"))
        return found

    # ------------------------------------------------------------ examples
    def examples(self) -> list[Diagnostic]:
        """Shown outputs equal graded outputs, and stated outputs equal the reference's."""
        problem, hidden = self.problem, self.hidden
        found: list[Diagnostic] = []
        try:
            shown = [(e.case, e.expected) for e in self.judge.examples(problem)]
            reference = hidden.reference_function(problem.entry_point)
        except ConfigError as exc:
            return [error(f"{self.id}.examples", str(exc))]
        for case, displayed in shown:
            aspect = f"{self.id}.examples.{case.name}"
            graded_case = build_case(problem, case.test, hidden.tolerance)
            graded = expect(graded_case, reference, hidden.reference)
            difference = first_difference(displayed[MAIN].to_plain(), graded[MAIN].to_plain())
            if difference:
                found.append(error(aspect, f"`judge show` displays a different output than grading expects "
                                           f"({difference}): the shown output comes from "
                                           f"{problem.hidden_dir.name}/reference.py, grading uses "
                                           f"{hidden.reference.name}"))
            if case.test.pinned:
                problem_text = stated_mismatch(graded_case, graded[MAIN], case.test.expected)
                if problem_text:
                    found.append(error(aspect, f"{case.test.source}: expected: {problem_text}"))
        return found

    # ------------------------------------------------------------ experiments
    def experiments(self) -> list[Diagnostic]:
        """Each experiment passes with the reference and fails with every trap listed in its `fails`."""
        problem, hidden = self.problem, self.hidden
        found: list[Diagnostic] = []
        kind = checks.name_of(experiment)
        tests = [(t, spec) for t in hidden.tests for spec in t.checks if spec.type == kind]
        if not tests:
            return found
        try:
            reference = hidden.reference_function(problem.entry_point)
            traps = load_module(hidden.traps_file, f"_judge_validate_traps_{problem.id}") if hidden.traps_file else None
        except ConfigError as exc:
            return [error(f"{self.id}.experiments", str(exc))]
        for test, spec in tests:
            aspect = f"{self.id}.experiments.{test.name}"
            try:
                case = build_case(problem, test, hidden.tolerance)
            except ConfigError as exc:
                found.append(error(aspect, str(exc)))
                continue
            call = case.calls.of(kind)[experiment.CALL]
            runs = [("the reference", reference, True)]
            for name in spec.params.get("fails") or ():
                fn = getattr(traps, name, None)
                if not callable(fn):
                    found.append(error(aspect, f"{test.source}: fails: traps file defines no function {name!r}"))
                    continue
                runs.append((f"trap {name}", fn, False))
            for label, fn, should_pass in runs:
                with quiet():  # heard in the reference aspect, which runs this call too
                    observation = plain(run_call(fn, call, None))
                if observation.error is not None:
                    found.append(error(aspect, f"{label} raised during training: {observation.error.headline()}"))
                    continue
                outcome = experiment.evaluate(case, observation, **spec.params)
                figures = ", ".join(f"{k} {outcome.before[k]:.3f} -> {outcome.after[k]:.3f}" for k in outcome.after)
                text = f"{label}: {figures or outcome.message} ({observation.time_ms:.0f} ms)"
                if (outcome.failed is None) != should_pass:
                    want = "pass" if should_pass else "fail"
                    found.append(error(aspect, f"{text}; it must {want} this experiment"
                                               + (f": {outcome.message}" if outcome.failed else "")))
                else:
                    found.append(info(aspect, text + (" passes" if should_pass else f" fails on {outcome.failed}")))
        return found

    # ------------------------------------------------------------ traps
    def traps(self) -> list[Diagnostic]:
        """Every known mistake is told apart from the reference by some test it can be named on: a test
        where the reference returns a value, or an error test whose `hint_when` names it. A trap every
        such test accepts (equal to the reference, or differing only where no test looks) is never named."""
        hidden = self.hidden
        if not hidden.traps or hidden.traps_file is None:
            return []
        try:
            source = hidden.traps_file.read_text(encoding="utf-8")
            prepared = self.judge.prepared(self.id)
        except (OSError, UnicodeDecodeError) as exc:
            return [error(f"{self.id}.traps", f"{_rel(hidden.traps_file, self.judge.root)}: cannot read: {exc}")]
        except ConfigError as exc:
            return [error(f"{self.id}.traps", str(exc))]
        found = []
        for trap in hidden.traps:
            aspect = f"{self.id}.traps.{trap.name}"
            named_on = [(case, want) for case, want in zip(prepared.cases, prepared.expected)
                        if want[MAIN].error is None or trap.name in case.test.hint_when]
            tests = replace(prepared, cases=tuple(c for c, _ in named_on), expected=tuple(w for _, w in named_on),
                            traps=None)
            # The trap judged as a submission: the traps file with the entry point bound to its function.
            text = f"{source}\n\n{self.problem.entry_point} = {trap.function}\n"
            label = f"{_rel(hidden.traps_file, self.judge.root)}:{trap.function}"
            try:
                report = self.judge.submit(tests, Submission(text, label), record=False)
            except ConfigError as exc:
                found.append(error(aspect, str(exc)))
                continue
            if report.accepted:
                found.append(error(aspect, f"trap {trap.name!r} passes every test it could be named on: no "
                                           "test tells it from the reference, so it is never named; add a "
                                           "test on which they differ, or drop the trap"))
            else:
                found.append(info(aspect, summarize_report(report)))
        return found

    # ------------------------------------------------------------ mutants
    def mutants(self) -> list[Diagnostic]:
        """The mutation gate (judge.authoring.gate): every mutant of an accepted solution that some probe inside
        the input domain tells apart from the reference must fail a test; a survivor is an error naming the
        input it needs. One that differs only outside the domain is out of contract: said, never an error."""
        aspect = f"{self.id}.mutants"
        try:
            self.gate = run_gate(self.judge, self.id, self.gate_options)
        except ConfigError as exc:
            return [error(aspect, str(exc))]
        unstated = [a.name for a in self.problem.domain.args if a.open]
        found = [error(f"{aspect}.{Path(o.file).stem}", survivor_message(o, unstated)) for o in self.gate.survivors]
        found += [info(f"{aspect}.{Path(o.file).stem}", out_of_contract_message(o)) for o in self.gate.out_of_contract]
        # Open probes are where accepted solutions themselves differ from the reference inside the domain:
        # inputs the statement leaves open (a degenerate norm). Listed for the author, not an error.
        found += [info(f"{aspect}.open", f"{o.file} differs from the reference on {o.probe.describe()}: "
                                         f"{o.difference}; left out of the oracle") for o in self.gate.open]
        if not self.gate.complete:
            found.append(warning(aspect, f"{self.gate.count(NOT_RUN)} of {self.gate.made} mutants not run within "
                                         f"the {self.gate.budget_s:g} s budget"))
        found.append(info(aspect, gate_summary(self.gate)))
        return found

    # ------------------------------------------------------------ submissions
    def submissions(self) -> list[Diagnostic]:
        directory = self.problem.submissions_dir
        found: list[Diagnostic] = []
        if not directory.is_dir():
            return [warning(f"{self.id}.submissions", f"no known submissions: {_rel(directory, self.judge.root)}/ "
                                                      "does not exist")]
        for folder in sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            verdict = folder_verdict(folder.name)
            if verdict is None:
                found.append(error(f"{self.id}.submissions.{folder.name}",
                                   f"{_rel(folder, self.judge.root)}/: unknown verdict folder; expected one of "
                                   f"{', '.join(folder_names())}"))
                continue
            for path in sorted(folder.glob("*.py")):
                found += self._submission(path, verdict)
        if not any((directory / "accepted").glob("*.py")):
            found.append(warning(f"{self.id}.submissions.accepted", "no accepted submissions besides the reference: "
                                                                    "add genuinely different correct solutions"))
        return found

    def _submission(self, path: Path, wanted: Verdict) -> list[Diagnostic]:
        aspect = f"{self.id}.submissions.{path.parent.name}.{path.stem}"
        found: list[Diagnostic] = []
        name = _rel(path, self.judge.root)
        if wanted is Verdict.TIME_LIMIT_EXCEEDED:
            return check_too_slow(self.judge, self.problem, path, aspect, name)
        report = self._judge(path, aspect, found)
        if report is None:
            return found
        got = report.verdict
        if got is not wanted:
            found.append(error(aspect, f"{name}: expected {wanted.value}, got {got.value}; " + describe_failure(report)))
            return found
        if wanted is Verdict.ACCEPTED:
            self._note_accepted(report, name)
        if wanted is Verdict.WRONG_ANSWER:
            self.naming.append(name_submission(self.hidden, path, report))
            hidden_catches = [t for t in report.tests if t.group != "example" and t.verdict is not Verdict.ACCEPTED]
            if not hidden_catches:
                examples = ", ".join(t.name for t in report.tests if t.verdict is not Verdict.ACCEPTED)
                found.append(error(aspect, f"{name}: caught only by public examples ({examples}); add a hidden "
                                           "test or check that catches it, so hidden tests are never weaker "
                                           "than the examples"))
        found += check_margin(self.problem, aspect, name, report)
        found.append(info(aspect, summarize_report(report)))
        return found

    # ------------------------------------------------------------ time limit
    # ------------------------------------------------------------ time limit
    def time_limit(self) -> list[Diagnostic]:
        return check_time_limit(self.problem, self.slowest_accepted)

    def _judge(self, path: Path, aspect: str, found: list[Diagnostic],
               source: Callable[[], str] | None = None) -> Report | None:
        try:
            label = _rel(path, self.judge.root)
            submission = Submission.from_file(path, label=label) if source is None else Submission(source(), label)
            return self.judge.submit(self.problem.id, submission, record=False)
        except ConfigError as exc:
            found.append(error(aspect, str(exc)))
            return None

    def _note_accepted(self, report: Report, who: str) -> None:
        if not report.tests:
            return
        slowest = max(report.tests, key=used_ms)
        if self.slowest_accepted is None or used_ms(slowest) > self.slowest_accepted[0]:
            self.slowest_accepted = (used_ms(slowest), who, slowest.name)


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _lines(exc: ConfigError) -> list[str]:
    return exc.lines() if isinstance(exc, ConfigErrors) else [str(exc)]
