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

import enum
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from judge.model import problem as problems
from judge.model.rules import collapse, offences
from judge.model.cases import MAIN, Case, build_case
from judge.checks import compare, experiment
from judge.checks.observed import Observed
from judge.runs.contract import Limits
from judge.base.errors import ConfigError, ConfigErrors
from judge.runs.calls import Observation, run_call
from judge.authoring.gate import NOT_RUN, OUT_OF_CONTRACT, GateOptions, GateResult, Outcome, run_gate
from judge.judging.grading import Expected, expect, plain
from judge.model.problem import Hidden, Problem
from judge.base.quiet import quiet
from judge.base.report import Mistake, Report, TestResult
from judge.judging.session import Judge
from judge.base.submission import Submission
from judge.model.solution import load_module
from judge.base.outcomes import Verdict, folder_names, folder_verdict
from judge.base.encoding import Array
from judge.base.yamlfile import load_yaml


# `judge validate` without --mutants runs the gate on a seeded sample of this many mutants per file.
SAMPLE_PER_FILE = 12


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


def _error(aspect: str, message: str) -> Diagnostic:
    return Diagnostic(aspect, Severity.ERROR, message)


def _warning(aspect: str, message: str) -> Diagnostic:
    return Diagnostic(aspect, Severity.WARNING, message)


def _info(aspect: str, message: str) -> Diagnostic:
    return Diagnostic(aspect, Severity.INFO, message)


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
        orphans = _orphans(judge.root, known)
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


def _orphans(root: Path, known: set[str]) -> ProblemValidation:
    """hidden_tests/ or submissions/ folders that belong to no problems/<id>.yaml."""
    found = ProblemValidation("(problem set)")
    for area in ("hidden_tests", "submissions"):
        directory = root / area
        if not directory.is_dir():
            continue
        for child in sorted(directory.iterdir()):
            if child.is_dir() and child.name not in known and not child.name.startswith((".", "_")):
                found.diagnostics.append(_error(f"{child.name}.schema", f"{area}/{child.name}/ belongs to no problem: "
                                                f"problems/{child.name}.yaml does not exist"))
    return found


def _unit_tags(problem: Problem) -> list[Diagnostic]:
    """A tag `unit-ID` promises the problem is in unit ID: warn where the unit does not list it.

    The unit's lists decide membership (what `judge unit` and progress count); a tag saying
    otherwise misleads whoever filters by it.
    """
    from judge.learner.units import load_unit, unit_ids

    found: list[Diagnostic] = []
    tagged = [t[len("unit-"):] for t in problem.tags if t.startswith("unit-")]
    known = unit_ids(problem.root) if tagged else []
    for unit_id in tagged:
        if unit_id not in known:
            found.append(_warning(f"{problem.id}.schema", f"problems/{problem.id}.yaml: tag 'unit-{unit_id}' names "
                                  f"no unit (units/{unit_id}.yaml does not exist)"))
            continue
        try:
            unit = load_unit(problem.root, unit_id)
        except ConfigError:
            continue  # a broken unit file is reported where units are loaded, not as this problem's
        if problem.id not in (*unit.problems, *unit.extras):
            found.append(_warning(f"{problem.id}.schema", f"problems/{problem.id}.yaml: tag 'unit-{unit_id}' but "
                                  f"units/{unit_id}.yaml does not list {problem.id!r} in problems or extras; "
                                  "add it there or drop the tag"))
    return found


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
            found += [_error(aspect, line) for line in _lines(exc)]
        # Read the hidden file even when the public one is broken, so every error shows at once.
        target = self.problem or _stub_problem(self.judge.root, self.id)
        if target is not None:
            try:
                # A broken public file's rules may be unreadable: then the tests' rule ids are not checked
                # (its error is said once, not once per test naming a rule).
                self.hidden = problems.load_hidden(target, rules_known=self.problem is not None
                                                   or problems.rules_readable(load_yaml(target.path)))
            except ConfigError as exc:
                found += [_error(aspect, line) for line in _lines(exc)]
        if self.problem is not None:
            found += _unit_tags(self.problem)
        if self.problem is not None and self.hidden is not None:
            names = {t.name for t in self.problem.examples}
            for test in self.hidden.tests:
                if test.name in names:
                    found.append(_error(aspect, f"{test.source}: hidden test {test.name!r} has the name of a public "
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
            return [_error(aspect, str(exc))]
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
                found.append(_error(aspect, f"test {test.name!r} ({test.source}): {exc}"))
                continue
            finally:
                warned += self._warned(aspect, f"on test {test.name!r}", heard)
            self.expected[test.name] = first
            for call in case.calls:
                difference = _first_difference(first[call].to_plain(), second[call].to_plain())
                if difference:
                    found.append(_error(aspect, f"not deterministic: test {test.name!r}, call {call!r} gives "
                                                f"different results on two runs ({difference}); seed any randomness"))
                    break
            slowest = max(min(first[c].time_ms, second[c].time_ms) for c in case.calls)
            if slowest > limit_ms:
                found.append(_error(aspect, f"takes {slowest / 1000:.2f} s on test {test.name!r}; "
                                            f"the time limit is {problem.limits.time_s:g} s"))
        if found:
            return found + warned
        # The reference as a submission: sandboxed, through every check, against itself.
        report = self._judge(hidden.reference, f"{aspect}.sandboxed", found, source=hidden.reference_source)
        if report is not None:
            if report.accepted:
                self._note_accepted(report, "the reference")
                found.append(_info(f"{aspect}.sandboxed", _summary(report)))
            else:
                found.append(_error(f"{aspect}.sandboxed", "the reference, judged in the sandbox, is not accepted: "
                                                           + _failure(report)))
        return found + warned

    def _warned(self, aspect: str, when: str, heard: list[warnings.WarningMessage]) -> list[Diagnostic]:
        """One warning diagnostic per warning the reference raised `when` (Python says each once per
        line of code); `heard` is emptied for the next test."""
        said = [_warning(aspect, f"the reference warns {when}: {w.category.__name__}: {w.message} "
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
        hints = [_warning(aspect, f"{len(unconditional)} test(s) {', '.join(unconditional[:6])}: a `hint` without "
                                  "`hint_when` is shown for any failure; say which failure kinds or traps it explains")
                 ] if unconditional else []
        if not found:
            return hints + [_info(aspect, f"{len(self.problem.rules)} rules; every check of every test enforces one")]
        return hints + [_error(aspect, line) for line in collapse(found)]

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
                found.append(_error(aspect, f"{test.source}: test {test.name!r}: {why}: outside the input domain, "
                                            "where no test may go (what a solution does with such an input is "
                                            "its own business): drop the test, or widen the domain if the "
                                            "contract covers such inputs"))
        unstated = [a.name for a in problem.domain.args if a.open]
        if unstated:
            found.append(_warning(aspect, f"problems/{self.id}.yaml: the input domain of {', '.join(unstated)} is not "
                                          "stated: give each a type in `domain:` (or an annotation in `signature`), "
                                          "so learners and the mutation gate know which inputs the contract covers"))
        if not found:
            found.append(_info(aspect, "; ".join(f"{a.name}: {a.text()}" for a in problem.domain.args)
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
            return [_error(f"{self.id}.examples", str(exc))]
        for case, displayed in shown:
            aspect = f"{self.id}.examples.{case.name}"
            graded_case = build_case(problem, case.test, hidden.tolerance)
            graded = expect(graded_case, reference, hidden.reference)
            difference = _first_difference(displayed[MAIN].to_plain(), graded[MAIN].to_plain())
            if difference:
                found.append(_error(aspect, f"`judge show` displays a different output than grading expects "
                                            f"({difference}): the shown output comes from "
                                            f"{problem.hidden_dir.name}/reference.py, grading uses "
                                            f"{hidden.reference.name}"))
            if case.test.pinned:
                problem_text = _stated_mismatch(graded_case, graded[MAIN], case.test.expected)
                if problem_text:
                    found.append(_error(aspect, f"{case.test.source}: expected: {problem_text}"))
        return found

    # ------------------------------------------------------------ experiments
    def experiments(self) -> list[Diagnostic]:
        """Each experiment passes with the reference and fails with every trap listed in its `fails`."""
        problem, hidden = self.problem, self.hidden
        found: list[Diagnostic] = []
        tests = [(t, spec) for t in hidden.tests for spec in t.checks if spec.type == "experiment"]
        if not tests:
            return found
        try:
            reference = hidden.reference_function(problem.entry_point)
            traps = load_module(hidden.traps_file, f"_judge_validate_traps_{problem.id}") if hidden.traps_file else None
        except ConfigError as exc:
            return [_error(f"{self.id}.experiments", str(exc))]
        for test, spec in tests:
            aspect = f"{self.id}.experiments.{test.name}"
            try:
                case = build_case(problem, test, hidden.tolerance)
            except ConfigError as exc:
                found.append(_error(aspect, str(exc)))
                continue
            call = case.calls.of("experiment")[experiment.CALL]
            runs = [("the reference", reference, True)]
            for name in spec.params.get("fails") or ():
                fn = getattr(traps, name, None)
                if not callable(fn):
                    found.append(_error(aspect, f"{test.source}: fails: traps file defines no function {name!r}"))
                    continue
                runs.append((f"trap {name}", fn, False))
            for label, fn, should_pass in runs:
                with quiet():  # heard in the reference aspect, which runs this call too
                    observation = plain(run_call(fn, call, None))
                if observation.error is not None:
                    found.append(_error(aspect, f"{label} raised during training: {observation.error.headline()}"))
                    continue
                outcome = experiment.evaluate(case, observation, **spec.params)
                figures = ", ".join(f"{k} {outcome.before[k]:.3f} -> {outcome.after[k]:.3f}" for k in outcome.after)
                text = f"{label}: {figures or outcome.message} ({observation.time_ms:.0f} ms)"
                if (outcome.failed is None) != should_pass:
                    want = "pass" if should_pass else "fail"
                    found.append(_error(aspect, f"{text}; it must {want} this experiment"
                                                + (f": {outcome.message}" if outcome.failed else "")))
                else:
                    found.append(_info(aspect, text + (" passes" if should_pass else f" fails on {outcome.failed}")))
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
            return [_error(f"{self.id}.traps", f"{_rel(hidden.traps_file, self.judge.root)}: cannot read: {exc}")]
        except ConfigError as exc:
            return [_error(f"{self.id}.traps", str(exc))]
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
                found.append(_error(aspect, str(exc)))
                continue
            if report.accepted:
                found.append(_error(aspect, f"trap {trap.name!r} passes every test it could be named on: no "
                                            "test tells it from the reference, so it is never named; add a "
                                            "test on which they differ, or drop the trap"))
            else:
                found.append(_info(aspect, _summary(report)))
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
            return [_error(aspect, str(exc))]
        unstated = [a.name for a in self.problem.domain.args if a.open]
        found = [_error(f"{aspect}.{Path(o.file).stem}", survivor_message(o, unstated)) for o in self.gate.survivors]
        found += [_info(f"{aspect}.{Path(o.file).stem}", out_of_contract_message(o)) for o in self.gate.out_of_contract]
        # Open probes are where accepted solutions themselves differ from the reference inside the domain:
        # inputs the statement leaves open (a degenerate norm). Listed for the author, not an error.
        found += [_info(f"{aspect}.open", f"{o.file} differs from the reference on {o.probe.describe()}: "
                                          f"{o.difference}; left out of the oracle") for o in self.gate.open]
        if not self.gate.complete:
            found.append(_warning(aspect, f"{self.gate.count(NOT_RUN)} of {self.gate.made} mutants not run within "
                                          f"the {self.gate.budget_s:g} s budget"))
        found.append(_info(aspect, gate_summary(self.gate)))
        return found

    # ------------------------------------------------------------ submissions
    def submissions(self) -> list[Diagnostic]:
        directory = self.problem.submissions_dir
        found: list[Diagnostic] = []
        if not directory.is_dir():
            return [_warning(f"{self.id}.submissions", f"no known submissions: {_rel(directory, self.judge.root)}/ "
                                                       "does not exist")]
        for folder in sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            verdict = folder_verdict(folder.name)
            if verdict is None:
                found.append(_error(f"{self.id}.submissions.{folder.name}",
                                    f"{_rel(folder, self.judge.root)}/: unknown verdict folder; expected one of "
                                    f"{', '.join(folder_names())}"))
                continue
            for path in sorted(folder.glob("*.py")):
                found += self._submission(path, verdict)
        if not any((directory / "accepted").glob("*.py")):
            found.append(_warning(f"{self.id}.submissions.accepted", "no accepted submissions besides the reference: "
                                                                     "add genuinely different correct solutions"))
        return found

    def _submission(self, path: Path, wanted: Verdict) -> list[Diagnostic]:
        aspect = f"{self.id}.submissions.{path.parent.name}.{path.stem}"
        found: list[Diagnostic] = []
        name = _rel(path, self.judge.root)
        if wanted is Verdict.TIME_LIMIT_EXCEEDED:
            return self._too_slow(path, aspect, name)
        report = self._judge(path, aspect, found)
        if report is None:
            return found
        got = report.verdict
        if got is not wanted:
            found.append(_error(aspect, f"{name}: expected {wanted.value}, got {got.value}; " + _failure(report)))
            return found
        if wanted is Verdict.ACCEPTED:
            self._note_accepted(report, name)
        if wanted is Verdict.WRONG_ANSWER:
            self.naming.append(self._naming(path, report))
            hidden_catches = [t for t in report.tests if t.group != "example" and t.verdict is not Verdict.ACCEPTED]
            if not hidden_catches:
                examples = ", ".join(t.name for t in report.tests if t.verdict is not Verdict.ACCEPTED)
                found.append(_error(aspect, f"{name}: caught only by public examples ({examples}); add a hidden "
                                            "test or check that catches it, so hidden tests are never weaker "
                                            "than the examples"))
        found += self._margin(aspect, name, report)
        found.append(_info(aspect, _summary(report)))
        return found

    def _too_slow(self, path: Path, aspect: str, name: str) -> list[Diagnostic]:
        """A time_limit_exceeded file must time out even with the limit x time_limit_to_tle.

        One run at the raised limit tells both verdicts (as Kattis does): a call
        that times out there times out at the real limit too, and a test that
        finishes between the two limits is a verdict flipping within the margin.
        """
        limits = self.problem.limits
        margin = self.problem.margins.time_limit_to_tle
        raised = replace(self.problem, limits=replace(limits, time_s=limits.time_s * margin))
        try:
            report = self.judge.submit(raised, Submission.from_file(path, label=name), record=False)
        except ConfigError as exc:
            return [_error(aspect, str(exc))]
        if report.verdict is Verdict.TIME_LIMIT_EXCEEDED:
            return [_info(aspect, f"{_summary(report)} (limit raised to {limits.time_s * margin:g} s)")]
        between = [t for t in report.tests if _used_ms(t) > limits.time_s * 1000]
        if between:
            return [_warning(aspect, f"{name}: time_limit_exceeded at {limits.time_s:g} s only by a small margin: "
                                     f"test {between[0].name!r} uses {_used_ms(between[0]) / 1000:.2f} s of CPU "
                                     f"time and it gets "
                                     f"{report.verdict.value} at {limits.time_s * margin:g} s (limit x "
                                     f"time_limit_to_tle {margin:g}); its verdict flips within the safety margin")]
        return [_error(aspect, f"{name}: expected time_limit_exceeded, got {report.verdict.value} even at "
                               f"{limits.time_s * margin:g} s; " + _failure(report))]

    def _margin(self, aspect: str, name: str, report: Report) -> list[Diagnostic]:
        """A verdict that would flip to time_limit_exceeded on a `time_limit_to_tle` times slower machine."""
        limits = self.problem.limits
        margin = self.problem.margins.time_limit_to_tle
        timed = [t for t in report.tests if t.verdict is not Verdict.TIME_LIMIT_EXCEEDED]
        if not timed:
            return []
        slowest = max(timed, key=_used_ms)
        if _used_ms(slowest) * margin > limits.time_s * 1000:
            return [_warning(aspect, f"{name}: {report.verdict.value}, but test {slowest.name!r} uses "
                                     f"{_used_ms(slowest) / 1000:.2f} s of CPU time, within time_limit_to_tle "
                                     f"{margin:g} of the "
                                     f"{limits.time_s:g} s limit: on a slower machine it flips to time_limit_exceeded")]
        return []

    # ------------------------------------------------------------ time limit
    def time_limit(self) -> list[Diagnostic]:
        limits = self.problem.limits
        aspect = f"{self.id}.time_limit"
        if self.slowest_accepted is None:
            return [_warning(aspect, "no accepted run to derive a time limit from")]
        ms, who, test = self.slowest_accepted
        derived = ms * self.problem.margins.ac_to_time_limit / 1000
        basis = (f"slowest accepted: {who} on test {test!r}, {ms:.1f} ms, x ac_to_time_limit "
                 f"{self.problem.margins.ac_to_time_limit:g}")
        if derived > limits.time_s:
            return [_error(aspect, f"limits.time_s = {limits.time_s:g} s is below the derived limit {derived:.3g} s "
                                   f"({basis}): raise time_s or speed up the slow solution")]
        return [_info(aspect, f"{limits.time_s:g} s per test; derived minimum {derived:.3g} s ({basis})")]

    def _naming(self, path: Path, report: Report) -> Naming:
        """The mistakes the report names; a file named like a trap must get that trap and no other."""
        messages = {t.name: t.message for t in self.hidden.traps} if self.hidden is not None else {}
        named = tuple((m.name, m.known) for m in named_mistakes(report))
        own = messages.get(path.stem)
        also = frozenset(n for n, m in messages.items() if own is not None and m == own)
        return Naming(path.stem, named, expected_trap=path.stem if own is not None else None, also=also,
                      check=caught_by_check(self.hidden, report))

    # ------------------------------------------------------------ helpers
    def _judge(self, path: Path, aspect: str, found: list[Diagnostic],
               source: Callable[[], str] | None = None) -> Report | None:
        try:
            label = _rel(path, self.judge.root)
            submission = Submission.from_file(path, label=label) if source is None else Submission(source(), label)
            return self.judge.submit(self.problem.id, submission, record=False)
        except ConfigError as exc:
            found.append(_error(aspect, str(exc)))
            return None

    def _note_accepted(self, report: Report, who: str) -> None:
        if not report.tests:
            return
        slowest = max(report.tests, key=_used_ms)
        if self.slowest_accepted is None or _used_ms(slowest) > self.slowest_accepted[0]:
            self.slowest_accepted = (_used_ms(slowest), who, slowest.name)


PROPERTY_CHECKS = frozenset({"raises", "gradient", "mutation", "leakage", "invariance", "experiment"})


def survivor_message(outcome: Outcome, unstated: list[str] | tuple[str, ...] = ()) -> str:
    """A surviving mutant in one line: where it is, what it changed, the smallest input that tells it apart.
    `unstated`: arguments whose domain says nothing (any value): such an input may be outside the contract."""
    m = outcome.mutant
    domain = (f", or, if the contract does not cover such inputs, state the domain of {', '.join(unstated)} "
              "(`domain:` in the problem's YAML)") if unstated else ""
    return (f"{outcome.file}: a mutant passes every test but is not correct: line {m.line}: {_one_line(m.before)} "
            f"-> {_one_line(m.after)} ({m.operator}); it differs from the reference on {outcome.probe.describe()}: "
            f"{outcome.difference}; add a test with such an input{domain}")


def out_of_contract_message(outcome: Outcome) -> str:
    """A mutant that differs from the reference only outside the input domain: no test may ask for it."""
    m = outcome.mutant
    return (f"{outcome.file}: out of contract: line {m.line}: {_one_line(m.before)} -> {_one_line(m.after)} "
            f"({m.operator}) differs from the reference only outside the input domain, on "
            f"{outcome.probe.describe()} ({outcome.probe.outside}): {outcome.difference}; learners need not "
            "handle such inputs: state the domain, or drop the check from the reference")


def gate_summary(result: GateResult) -> str:
    """The gate's counts in one line: `MUT [212 mutants: 170 killed, 40 equivalent, 2 survived; ...]`. A sample
    says that it is one: none of it surviving proves nothing of the mutants not tried."""
    score = result.score()
    counts = (f"{result.count('killed')} killed, {result.count('equivalent')} equivalent, "
              f"{result.count(OUT_OF_CONTRACT)} out of contract, {result.count('survived')} survived"
              + (f", {result.count(NOT_RUN)} not run" if result.count(NOT_RUN) else ""))
    what = (f"a sample of {result.made} of {result.population} mutants of {len(result.files)} accepted solution(s) "
            f"(`judge validate --mutants` tries them all and is the proof): {counts} in the sample"
            if result.sampled else f"{result.made} mutants of {len(result.files)} accepted solution(s): {counts}")
    return (what + (f" (score {score:.1%})" if score is not None and not result.sampled else "")
            + f"; {result.probes} probes ({result.outside} outside the input domain), {result.open_probes} open; "
              f"{result.seconds:.1f} s")


def _one_line(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def caught_by_check(hidden: Hidden | None, report: Report) -> str | None:
    """The first failing test when it is a property or error check (its message names the mistake itself)."""
    first = report.first_failure
    specs = {t.name: t for t in hidden.tests} if hidden is not None else {}
    spec = specs.get(first.name) if first is not None else None
    if spec is not None and any(c.type in PROPERTY_CHECKS for c in spec.checks):
        return spec.name
    return None


def named_mistakes(report: Report) -> list[Mistake]:
    """The mistakes (judge.base.report.Mistake) the failing tests name, each once, in test order."""
    return [test.mistake for test in report.tests if test.mistake is not None and not test.mistake.repeated]


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _lines(exc: ConfigError) -> list[str]:
    return exc.lines() if isinstance(exc, ConfigErrors) else [str(exc)]


def _stub_problem(root: Path, problem_id: str) -> Problem | None:
    """Enough of a broken public file (its args, rule ids, memory) to check the hidden file against."""
    path = root / "problems" / f"{problem_id}.yaml"
    try:
        data = load_yaml(path)
    except ConfigError:
        return None
    args = data.get("args") if isinstance(data, dict) else None
    if not (isinstance(args, list) and args and all(isinstance(a, str) and a.isidentifier() for a in args)):
        return None
    framework = data.get("framework") if data.get("framework") in problems.FRAMEWORKS else "torch"
    rules = tuple(problems.Rule(id=r["id"], text="") for r in data.get("rules") or ()
                  if isinstance(r, dict) and isinstance(r.get("id"), str)) if problems.rules_readable(data) else ()
    memory = (data.get("limits") or {}).get("memory_mb") if isinstance(data.get("limits"), dict) else None
    limits = Limits(memory_mb=memory) if type(memory) is int and memory > 0 else Limits()
    return Problem(id=problem_id, title="", difficulty="", tags=(), framework=framework,
                   entry_point=str(data.get("entry_point") or problem_id), args=tuple(args), signature="",
                   statement="", starter="", hints=(), examples=(), limits=limits, path=path, root=root,
                   rules=rules)


def _used_ms(test: TestResult) -> float:
    """What a test's time limit counts: its CPU time where the backend measured it, else its wall time."""
    return test.cpu_ms or test.time_ms


def _summary(report: Report) -> str:
    """One line as competitive judges print it: `AC [12 tests, slowest: vit_224 3.1 ms]`."""
    slowest = max(report.tests, key=lambda t: t.time_ms, default=None)
    where = f", slowest: {slowest.name} {slowest.time_ms:.1f} ms" if slowest else ""
    failing = report.first_failure
    first = f", first failing: {failing.name}" if failing else ""
    return f"{report.verdict.short} [{report.passed}/{report.total} tests{first}{where}]"


def _failure(report: Report) -> str:
    failing = report.first_failure
    if failing is None:
        return f"it passed all {report.total} tests"
    message = failing.text.splitlines()[0] if failing.text else "no message"
    return f"first failing test: {failing.name} ({failing.group}): {message}"


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two plain observations differ (timings ignored); None when identical."""
    where = path or "the value"
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key == "time_ms":
                continue
            if key not in a or key not in b:
                return f"{path}.{key} present only once".lstrip(".")
            found = _first_difference(a[key], b[key], f"{path}.{key}".lstrip("."))
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(a, Array) and isinstance(b, Array):
        if (a.library, a.dtype, a.shape) != (b.library, b.dtype, b.shape):
            return f"{where}: {a.describe()} vs {b.describe()}"
        if not np.array_equal(a.data, b.data, equal_nan=a.data.dtype.kind in "fc"):
            return f"{where}: values differ"
        return None
    if type(a) is not type(b) or a != b:
        if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b):
            return None
        return f"{where}: {a!r:.60} vs {b!r:.60}"
    return None


def _stated_mismatch(case: Case, reference: Observation, stated: Any) -> str | None:
    """Why an example's stated output disagrees with the reference's, or None."""
    if reference.error is not None:
        return f"states an output, but the reference raises {reference.error.headline()}"
    try:
        value = _like(stated, reference.value)
    except (ValueError, TypeError) as exc:
        return f"cannot read the stated output as numbers shaped like the reference's: {exc}"
    outcome = compare.check(case, Observed(main=reference), Observed(main=Observation(value=value)))
    if outcome.passed:
        return None
    return f"the stated output disagrees with the reference: {outcome.message.splitlines()[0]}"


def _like(stated: Any, reference: Any) -> Any:
    """A YAML value in the decoded form of `reference` (arrays as Arrays of its library and dtype)."""
    if isinstance(reference, dict) and isinstance(stated, dict):
        return {k: _like(v, reference[k]) if k in reference else v for k, v in stated.items()}
    if isinstance(reference, Array) and not isinstance(stated, dict):
        data = np.asarray(stated)
        if data.dtype == object:
            raise ValueError("a ragged list")
        data = data.astype(reference.data.dtype) if data.size else data
        return Array(data=data, library=reference.library, dtype=reference.dtype, scalar=reference.scalar)
    if isinstance(reference, (list, tuple)) and isinstance(stated, list):
        return [_like(s, r) for s, r in zip(stated, reference)] + stated[len(reference):]
    return stated


# ---------------------------------------------------------------- collapsing identical diagnostics

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
