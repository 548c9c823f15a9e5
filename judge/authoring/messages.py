"""The texts of `judge validate`'s diagnostics: a report, a surviving mutant and the mutation gate, each in one line."""
from __future__ import annotations

from judge.authoring.gate import NOT_RUN, OUT_OF_CONTRACT, GateResult, Outcome
from judge.base.report import Report


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


def summarize_report(report: Report) -> str:
    """One line as competitive judges print it: `AC [12 tests, slowest: vit_224 3.1 ms]`."""
    slowest = max(report.tests, key=lambda t: t.time_ms, default=None)
    where = f", slowest: {slowest.name} {slowest.time_ms:.1f} ms" if slowest else ""
    failing = report.first_failure
    first = f", first failing: {failing.name}" if failing else ""
    return f"{report.verdict.short} [{report.passed}/{report.total} tests{first}{where}]"


def describe_failure(report: Report) -> str:
    failing = report.first_failure
    if failing is None:
        return f"it passed all {report.total} tests"
    message = failing.text.splitlines()[0] if failing.text else "no message"
    return f"first failing test: {failing.name} ({failing.group}): {message}"
