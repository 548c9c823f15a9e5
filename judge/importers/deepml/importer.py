"""`judge import deepml SOURCE -o DIR`: a clone of Deep-ML's open problems made a problem set of this judge.

For each numpy question and PyTorch variant of the clone (judge.importers.deepml.clone), in order:

1. its tests are converted by running its reference in the judge (judge.importers.deepml.convert);
2. the problem is written into DIR (judge.importers.deepml.writer), replacing an earlier import's;
3. each test is checked through the judge's own model: its inputs drawn from the YAML as every run
   draws them, the reference called through the driver, its value compared (by the test's own
   tolerance) with what the test as written printed. A test where they differ is dropped;
4. validated as `judge validate` validates any problem, in the sandbox: the reference accepted, the
   starter judged (a starter that passes every test cannot tell a solution from none: the problem is
   not imported) and filed under the verdict it gets, so `judge validate` checks it ever after.

What cannot be imported is listed with one reason each, and the rest is written; disagreements between
a test's `expected_output` and its reference are listed too (the reference's value is kept). Problems
of an earlier import that are not imported now are removed, so DIR is what this import made of it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from judge.authoring.validate import Severity, validate
from judge.base.errors import ConfigError
from judge.base.outcomes import Verdict
from judge.base.quiet import quiet
from judge.base.submission import Submission
from judge.checks import allclose, structure
from judge.importers.deepml import convert as converting
from judge.importers.deepml.clone import Variant, read_clone
from judge.importers.deepml.convert import Conversion, Disagreement, Dropped
from judge.importers.deepml.facts import EXAMPLE, Unimportable, reference_source
from judge.importers.deepml.values import one_line
from judge.importers.deepml.writer import Paths, write_problem, write_reference, write_submission
from judge.judging.expected import expect, plain
from judge.judging.session import Judge
from judge.model import problem as problems
from judge.model.cases import MAIN, build_case
from judge.runs.calls import Observation

PREFIX = "dml_"


@dataclass(frozen=True)
class Imported:
    problem_id: str
    tests: int
    dropped: tuple[Dropped, ...]
    starter: str                 # the verdict the starter gets


@dataclass(frozen=True)
class Skipped:
    problem_id: str
    reason: str

    def line(self) -> str:
        return f"{self.problem_id}: {self.reason}"


@dataclass
class ImportReport:
    """What an import made: problems imported, problems skipped (why), disagreements, time."""

    source: Path
    directory: Path
    imported: list[Imported] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    seconds: float = 0.0
    unsupported: list[str] = field(default_factory=list)   # variants of a library this judge does not run

    @property
    def attempted(self) -> int:
        return len(self.imported) + len(self.skipped)

    def lines(self) -> list[str]:
        """The report as a person reads it."""
        lines = [f"imported {len(self.imported)} of {self.attempted} problems into {self.directory} "
                 f"in {self.seconds:.0f} s"]
        if self.unsupported:
            lines.append(f"{len(self.unsupported)} tinygrad variants are not imported (this judge runs numpy and "
                         "torch)")
        dropped = [(i.problem_id, d) for i in self.imported for d in i.dropped]
        if self.skipped:
            lines.append(f"not imported ({len(self.skipped)}):")
            lines += [f"  {s.line()}" for s in self.skipped]
        if dropped:
            lines.append(f"tests left out of imported problems ({len(dropped)}):")
            lines += [f"  {pid} test {d.number}: {d.reason}" for pid, d in dropped]
        if self.disagreements:
            lines.append(f"expected_output disagrees with the reference ({len(self.disagreements)}):")
            lines += [f"  {d.line()}" for d in self.disagreements]
        return lines

    def to_json(self) -> dict:
        return {"source": str(self.source), "directory": str(self.directory), "seconds": round(self.seconds, 1),
                "imported": [{"problem": i.problem_id, "tests": i.tests, "starter": i.starter,
                              "dropped": [{"test": d.number, "reason": d.reason} for d in i.dropped]}
                             for i in self.imported],
                "skipped": [{"problem": s.problem_id, "reason": s.reason} for s in self.skipped],
                "unsupported": list(self.unsupported),
                "disagreements": [{"problem": d.problem_id, "test": d.number, "expected_output": d.expected_output,
                                   "reference": d.printed, "why": d.why} for d in self.disagreements]}


def import_deepml(source: Path, directory: Path, *, numbers: set[int] | None = None,
                  on_problem: Callable[[str, str], None] | None = None) -> ImportReport:
    """Import the clone at `source` into the problem set `directory` (made if missing); `numbers`: only
    those questions. `on_problem(problem_id, outcome)` hears of each problem as it is done."""
    started = time.perf_counter()
    clone = read_clone(source, numbers)
    directory = directory.resolve()
    try:
        for area in ("problems", "hidden_tests", "submissions"):
            (directory / area).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot make a problem set here: {exc.strerror or exc}", file=directory,
                          field="-o") from None
    report = ImportReport(source, directory)
    report.skipped += [Skipped(b.problem_id, b.reason) for b in clone.broken]
    report.unsupported += [b.problem_id for b in clone.skipped]
    written: dict[str, Conversion] = {}
    for variant in clone.variants:
        paths = Paths(directory, variant.problem_id)
        paths.remove()
        try:
            written[variant.problem_id] = _write(variant, paths)
        except (Unimportable, ConfigError) as exc:
            reason = str(exc)
        except Exception as exc:  # noqa: BLE001 - one question the importer cannot handle ends that question only
            reason = f"the importer failed on it: {type(exc).__name__}: {one_line(str(exc), 160)}"
        else:
            continue
        paths.remove()
        report.skipped.append(Skipped(variant.problem_id, reason))
        if on_problem:
            on_problem(variant.problem_id, f"skipped: {reason}")
    _remove_stale(directory, {v.problem_id for v in clone.variants}, set(written), numbers)
    if written:
        _judge_all(report, directory, written, on_problem)
    report.skipped.sort(key=lambda s: _order(s.problem_id))
    report.imported.sort(key=lambda i: _order(i.problem_id))
    report.seconds = time.perf_counter() - started
    return report


def _write(variant: Variant, paths: Paths) -> Conversion:
    """Convert, write and check one variant through the judge's model; Unimportable when nothing is left."""
    write_reference(paths, reference_source(variant))
    conversion = converting.convert(variant, paths.reference)
    write_problem(paths, conversion)
    unfaithful = _unfaithful(paths, conversion)
    if unfaithful:
        conversion = conversion.without(set(unfaithful), lambda n: unfaithful[n])
        if not any(t.number != EXAMPLE for t in conversion.tests):
            first = next(iter(unfaithful.items()))
            raise Unimportable(f"no test can be imported (test {first[0]}: {first[1]})")
        write_problem(paths, conversion)
    return conversion


def _unfaithful(paths: Paths, conversion: Conversion) -> dict[int, str]:
    """The tests whose value, drawn from the YAML and computed through the driver as every judge run
    computes it, is not the value the test printed as written (test number -> why)."""
    try:
        problem = problems.load_problem(paths.root, paths.problem_id)
        hidden = problems.load_hidden(problem)
        with quiet():
            reference = hidden.reference_function(problem.entry_point)
    except ConfigError as exc:
        raise Unimportable(f"the written problem does not load: {exc}") from None
    by_name = {t.name: t for t in conversion.tests}
    by_name.setdefault("example", min(conversion.tests, key=lambda t: t.number))   # a copy of the first test
    found: dict[int, str] = {}
    for spec in [*problem.examples, *hidden.tests]:
        test = by_name[spec.name]
        try:
            case = build_case(problem, spec, hidden.tolerance)
            with quiet():
                observation = plain(expect(case, reference, hidden.reference)[MAIN])
        except ConfigError as exc:
            found[test.number] = f"through its inputs the reference fails: {one_line(exc.detail, 120)}"
            continue
        want = plain(Observation(value=test.value)).value
        mismatch = next(structure.differences(want, observation.value), None)
        if mismatch is None:
            result = allclose.compare_values(want, observation.value, case.tolerance, reveal=True)
            mismatch = None if result.passed else result.message
        if mismatch is not None:
            found[test.number] = (f"the reference on the inputs the judge keeps gives another value than the test "
                                  f"prints as written ({one_line(mismatch, 100)}): the test depends on more than "
                                  "those inputs, such as random numbers drawn after seeding")
    return found


def _judge_all(report: ImportReport, directory: Path, written: dict[str, Conversion],
               on_problem: Callable[[str, str], None] | None) -> None:
    """Judge each written problem's starter in the sandbox and validate the problem; what fails is removed."""
    judge = Judge(directory, record=False, ahead=True)
    try:
        for problem_id, conversion in written.items():
            paths = Paths(directory, problem_id)
            outcome = _validated(judge, paths, conversion)
            if isinstance(outcome, Skipped):
                paths.remove()
                report.skipped.append(outcome)
                if on_problem:
                    on_problem(problem_id, f"skipped: {outcome.reason}")
                continue
            report.imported.append(outcome)
            report.disagreements += conversion.disagreements
            if on_problem:
                on_problem(problem_id, f"imported: {outcome.tests} tests, starter {outcome.starter}")
    finally:
        judge.close()


def _validated(judge: Judge, paths: Paths, conversion: Conversion) -> Imported | Skipped:
    problem_id = paths.problem_id
    try:
        starter = judge.submit(problem_id, Submission.from_text(conversion.variant.starter, "starter.py"), record=False)
    except ConfigError as exc:
        return Skipped(problem_id, f"it does not load as a problem: {exc}")
    if starter.verdict is Verdict.ACCEPTED:
        return Skipped(problem_id, "its starter code passes every test: the tests cannot tell a solution from none")
    write_submission(paths, starter.verdict.value, "starter.py", conversion.variant.starter)
    result = validate(judge, [problem_id])
    errors = [d for p in result.problems for d in p.diagnostics if d.severity is Severity.ERROR]
    if errors:
        return Skipped(problem_id, f"{errors[0].aspect}: {one_line(errors[0].message, 200)}")
    return Imported(problem_id, len(conversion.tests), tuple(conversion.dropped), starter.verdict.value)


def _remove_stale(directory: Path, attempted: set[str], written: set[str], numbers: set[int] | None) -> None:
    """Problems an earlier import wrote that this one did not (in the questions it looked at)."""
    for path in (directory / "problems").glob(f"{PREFIX}*.yaml"):
        problem_id = path.stem
        if problem_id in written:
            continue
        number = problem_id[len(PREFIX):].split("_")[0]
        if numbers is None or (number.isdigit() and int(number) in numbers) or problem_id in attempted:
            Paths(directory, problem_id).remove()


def _order(problem_id: str) -> tuple[int, str]:
    number = problem_id[len(PREFIX):].split("_")[0]
    return (int(number) if number.isdigit() else 0, problem_id)
