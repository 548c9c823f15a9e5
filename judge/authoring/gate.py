"""The mutation gate: do a problem's tests tell every wrong variant of its accepted solutions apart?

Mutation testing, as PIT and mutmut measure a test suite, applied to a
problem: each accepted solution (the reference and every file of
`submissions/<id>/accepted/`) is mutated (judge.judging.mutants) and every mutant is
judged, in the sandbox, like a submission:

- killed: the problem's tests do not accept it;
- equivalent: the tests accept it and so does the oracle: on every probe
  (judge.authoring.probes: the tests' inputs drawn again, reshaped, retyped, at
  extreme values, and each declared invalid input) it does what the
  reference does, within the test's tolerance;
- survived: the tests accept it but some probe inside the problem's input
  domain (judge.model.domain) tells it apart from the reference. It is
  reported with the smallest such probe: a test is missing there;
- out of contract: the tests accept it and it does what the reference does
  on every probe inside the domain; it differs only on inputs the contract
  does not cover (a float or a bool where an int is due, float labels), where
  the file it was made from agreed with the reference. The file's own
  defensive check, which learners need not write: neither killed nor a
  survivor, and no test is asked for (the statement's domain says such inputs
  are never tested). An accepted file may itself do anything outside the
  domain; a mutant that only keeps doing so is equivalent.

Probes inside the domain on which the accepted solutions themselves disagree
with the reference are left out of the oracle (the statement leaves them
open: a degenerate input on which widely used implementations differ) and
reported as open, so the author sees them.

One long-lived `Judge` (a run kept ready, `ahead=True`) judges every mutant;
`workers` threads keep its fork server busy. Everything is seeded: the same
files, tests and seed give the same mutants, probes and findings. A time
budget stops the gate early; the mutants it did not reach are counted as not
run and the result says it is incomplete.
"""
from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from judge.model import problem as problem_files
from judge.base.errors import ConfigError
from judge.judging.mutants import Context, Mutant, mutants
from judge.judging.prepared import PreparedProblem
from judge.authoring.probes import Probe, make_probes
from judge.base.quiet import quiet
from judge.base.submission import Submission
from judge.base.outcomes import Verdict
from judge.base.encoding import Array

KILLED, EQUIVALENT, SURVIVED, NOT_RUN = "killed", "equivalent", "survived", "not_run"
OUT_OF_CONTRACT = "out_of_contract"
STATUSES = (KILLED, EQUIVALENT, OUT_OF_CONTRACT, SURVIVED, NOT_RUN)


@dataclass(frozen=True)
class GateOptions:
    """How much of the gate to run."""

    seed: int = 0
    budget_s: float | None = None        # wall clock for one problem's mutants; None: no limit
    per_file: int | None = None          # at most this many mutants per file (a seeded sample); None: all
    workers: int = 1                     # mutants judged at once
    operators: tuple[str, ...] | None = None   # only these operators (judge.judging.mutants); None: all


@dataclass(frozen=True)
class Outcome:
    """What became of one mutant."""

    file: str
    mutant: Mutant
    status: str                       # one of STATUSES
    test: str = ""                    # killed: the first test that failed it
    probe: Probe | None = None        # survived, out of contract: the smallest probe on which it differs
    difference: str = ""              # survived, out of contract: what the judge said on that probe

    def to_json(self) -> dict:
        found = {"file": self.file, **self.mutant.to_json(), "status": self.status}
        if self.test:
            found["killed_by"] = self.test
        if self.probe is not None:
            found["input"] = self.probe.to_json()
            found["difference"] = self.difference
        return found


@dataclass(frozen=True)
class Open:
    """A probe on which an accepted solution differs from the reference: left out of the oracle."""

    probe: Probe
    file: str
    difference: str

    def to_json(self) -> dict:
        return {"file": self.file, "input": self.probe.to_json(), "difference": self.difference}


@dataclass
class GateResult:
    problem: str
    seed: int
    outcomes: list[Outcome] = field(default_factory=list)
    population: int = 0                # mutants the files give; more than `made` where a sample was drawn
    probes: int = 0                    # probes made
    outside: int = 0                   # of them, outside the input domain
    open: list[Open] = field(default_factory=list)
    seconds: float = 0.0
    budget_s: float | None = None
    per_file: int | None = None
    files: list[str] = field(default_factory=list)

    def count(self, status: str, file: str | None = None) -> int:
        return sum(1 for o in self.outcomes if o.status == status and (file is None or o.file == file))

    @property
    def made(self) -> int:
        return len(self.outcomes)

    @property
    def survivors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == SURVIVED]

    @property
    def out_of_contract(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == OUT_OF_CONTRACT]

    @property
    def sampled(self) -> bool:
        """Whether only a sample of the mutants was judged: no proof that none survives."""
        return self.made < self.population

    @property
    def complete(self) -> bool:
        return self.count(NOT_RUN) == 0

    @property
    def open_probes(self) -> int:
        return len({o.probe.name for o in self.open})

    def score(self) -> float | None:
        """Killed among the mutants that can be told apart (killed + survived), as PIT's mutation score."""
        distinguishable = self.count(KILLED) + self.count(SURVIVED)
        return self.count(KILLED) / distinguishable if distinguishable else None

    def to_json(self) -> dict:
        per_file = [{"file": f, "mutants": sum(1 for o in self.outcomes if o.file == f),
                     **{s: self.count(s, f) for s in STATUSES}} for f in self.files]
        return {"problem": self.problem, "seed": self.seed, "seconds": round(self.seconds, 1),
                "budget_s": self.budget_s, "per_file": self.per_file, "complete": self.complete,
                "sampled": self.sampled,
                "mutants": {"made": self.made, "of": self.population, **{s: self.count(s) for s in STATUSES}},
                "probes": {"made": self.probes, "open": self.open_probes, "used": self.probes - self.open_probes,
                           "outside_domain": self.outside},
                "files": per_file,
                "survivors": [o.to_json() for o in self.survivors],
                "out_of_contract": [o.to_json() for o in self.out_of_contract],
                "open": [o.to_json() for o in self.open]}


# ---------------------------------------------------------------- running it

def run_gate(judge, problem_id: str, options: GateOptions = GateOptions()) -> GateResult:
    """The gate on one problem with a long-lived `judge` (judge.judging.session.Judge, best with ahead=True)."""
    started = time.perf_counter()
    problem = judge.problem(problem_id)
    hidden = problem_files.load_hidden(problem)
    with quiet():
        reference = hidden.reference_function(problem.entry_point)
    tests = replace(judge.prepared(problem_id), traps=None)   # a mutant's mistake need not be named
    probes = make_probes(problem, hidden, reference, seed=options.seed)
    oracle = _oracle(tests, probes)
    result = GateResult(problem_id, options.seed, probes=len(probes), budget_s=options.budget_s,
                        per_file=options.per_file, outside=sum(1 for p in probes if not p.in_domain))
    solutions = _solutions(judge.root, problem, hidden)
    result.files = [label for label, _ in solutions]
    # Probes inside the domain that an accepted solution (or the reference, run in the sandbox) answers
    # otherwise are open. Outside it, accepted solutions may do anything: such a probe stays, and tells
    # which mutants are out of contract, each judged against what its own file does there.
    by_name = {p.name: p for p in probes}
    own_outside: dict[str, set[str]] = {}   # file -> the probes outside the domain it answers otherwise
    for label, source in solutions:
        report = judge.submit(oracle, Submission(source, label), record=False)
        own_outside[label] = set()
        for test in report.tests:
            if not (_differs(test.verdict) and test.name in by_name):
                continue
            if by_name[test.name].in_domain:
                result.open.append(Open(by_name[test.name], label, _first_line(test.text)))
            else:
                own_outside[label].add(test.name)
    open_names = {o.probe.name for o in result.open}
    agreed = [p for p in probes if p.name not in open_names]
    oracle = _oracle(tests, agreed)
    smallest = {p.name: (p.size, i) for i, p in enumerate(agreed)}
    by_name = {p.name: p for p in agreed}

    context = Context(framework=problem.framework, array_args=_array_args(tests), entry_point=problem.entry_point)
    work: list[tuple[str, Mutant]] = []
    for label, source in solutions:
        made = mutants(source, context, options.operators)
        result.population += len(made)
        if options.per_file is not None and len(made) > options.per_file:
            rng = random.Random(f"{problem_id}/{label}/{options.seed}")
            made = sorted(rng.sample(made, options.per_file), key=lambda m: m.index)
        work += [(label, m) for m in made]

    deadline = None if options.budget_s is None else started + options.budget_s

    def classify(item: tuple[str, Mutant]) -> Outcome:
        label, mutant = item
        if deadline is not None and time.perf_counter() > deadline:
            return Outcome(label, mutant, NOT_RUN)
        name = f"{label} (mutant {mutant.index}: {mutant.label})"
        report = judge.submit(tests, Submission(mutant.source, name), record=False)
        if report.verdict is not Verdict.ACCEPTED:
            failing = report.first_failure
            return Outcome(label, mutant, KILLED, test=failing.name if failing else "")
        checked = judge.submit(oracle, Submission(mutant.source, name), record=False)
        differing = [t for t in checked.tests if _differs(t.verdict) and t.name in by_name]
        inside = [t for t in differing if by_name[t.name].in_domain]
        if inside:
            first = min(inside, key=lambda t: smallest[t.name])
            return Outcome(label, mutant, SURVIVED, probe=by_name[first.name], difference=_first_line(first.text))
        outside = [t for t in differing if t.name not in own_outside[label]]
        if outside:
            first = min(outside, key=lambda t: smallest[t.name])
            return Outcome(label, mutant, OUT_OF_CONTRACT, probe=by_name[first.name],
                           difference=_first_line(first.text))
        return Outcome(label, mutant, EQUIVALENT)

    outcomes: list[Outcome | None] = [None] * len(work)

    def one(i: int) -> None:
        with quiet():   # what judging a mutant's odd output warns (an overflow in a diagnosis) is noise here
            outcomes[i] = classify(work[i])

    with ThreadPoolExecutor(max_workers=max(1, options.workers), thread_name_prefix="judge-gate") as pool:
        list(pool.map(one, range(len(work))))
    result.outcomes = [o for o in outcomes if o is not None]
    result.seconds = time.perf_counter() - started
    return result


def _differs(verdict: Verdict) -> bool:
    """Whether a probe's verdict says the solution does something else than the reference there. A time
    limit says nothing of that (a loaded machine, not the code, can cause it), nor does a judge error."""
    return verdict not in (Verdict.ACCEPTED, Verdict.TIME_LIMIT_EXCEEDED, Verdict.JUDGE_ERROR)


def _oracle(tests: PreparedProblem, probes: list[Probe]) -> PreparedProblem:
    """The probes as a problem to judge: each probe a hidden test, its expectation the reference's."""
    return replace(tests, cases=tuple(p.case for p in probes), expected=tuple(p.expected for p in probes),
                   traps=None, examples_only=False)


def _solutions(root: Path, problem, hidden) -> list[tuple[str, str]]:
    """(label, source) of the reference and of every accepted known submission, in that order."""
    found = [(_rel(hidden.reference, root) if hidden.reference_code is None else
              f"{_rel(hidden.path, root)} (reference_code)", hidden.reference_source())]
    folder = problem.submissions_dir / "accepted"
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        try:
            found.append((_rel(path, root), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read: {exc}", file=path) from None
    return found


def _array_args(tests: PreparedProblem) -> tuple[int, ...]:
    """The positions of the arguments some test gives a tensor: the ones a mutant may detach or write."""
    found = set()
    for case in tests.cases:
        found.update(i for i, value in enumerate(case.args) if isinstance(value, Array) and value.library == "torch")
    return tuple(sorted(found))


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:300] if text.strip() else ""
