"""How often the judge names the mistake of a wrong file, measured as a learner meets it.

The corpus is made here, never stored: each accepted known submission of a
problem (`submissions/<id>/accepted/*.py`) is mutated by the mutation gate's
operators (judge.judging.mutants), a seeded sample per problem, and each mutant is
judged like any submission. Two-slip files are two mutants of the same file
at different places, applied together.

The judge's slip models (judge.judging.slips) are mutants of the trusted solutions
too, so each file is judged with none made from the file it came from: a
slip is named only when another solution (the reference, another accepted
file) has a model of it. That is how the judge meets a learner's file,
whose structure is its own.

For every file rejected for a wrong value (its first failing test expected a
value and got another), the first such test is:

- named: it names a mistake, and judged again on the tests plus fresh inputs
  (every test's generators drawn again: judge.authoring.probes' redraws) the report
  names it again;
- misnamed: with the fresh inputs the report names something else instead;
- unconfirmed: with the fresh inputs it names nothing (a name the judge
  could not prove again: listed to be read, not counted as named);
- silent: nothing named.

Two-slip files (each slip named when alone) count as both named when the
report names, for each slip, what it alone was named (a name said by a slip
model or by a repair of the file is the same mistake: `slip_x` and `repair_x`
are one name) or a change on its line after which every value is right (the
slip found where it is, in a repair's words where alone a trap or a relation
named it). As for one slip, a name neither slip gets alone is judged again
with fresh inputs: misnamed where they name something else instead,
unconfirmed where they do not name it again (listed, not counted as named).
Each two-slip file is counted once (a + b and b + a are one
file). A file in which one slip hides the other (on every test's inputs it
gives what one of its slips alone gives: a dropped permute makes the
reshape before it no matter) shows one mistake, not two: it is counted
apart, as hidden, and not among the two-slip files.

    python benchmarks/named_mistakes.py                 # units 5.5 and 5.6, 30 mutants each
    python benchmarks/named_mistakes.py info_nce -n 60  # one problem, a larger sample
    python benchmarks/named_mistakes.py --pairs 20      # also 20 two-slip files per problem
    python benchmarks/named_mistakes.py --show silent   # list each silent file's slip and message

Nothing is cached in the repository; the judge's own cache (~/.cache) keeps
the reference's values as for any run.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from _timing import REPO

sys.path.insert(0, str(REPO))
os.environ.setdefault("JUDGE_NO_RECORD", "1")
os.environ.setdefault("JUDGE_HOME", tempfile.mkdtemp(prefix="named-mistakes-"))

from judge.model import problem as problem_files  # noqa: E402
from judge.model.cases import MAIN  # noqa: E402
from judge.checks.compare import ON_OWN_INPUTS  # noqa: E402
from judge.judging.mutants import Context, Mutant, mutants  # noqa: E402
from judge.authoring.probes import make_probes  # noqa: E402
from judge.base.quiet import quiet  # noqa: E402
from judge.base.report import Report  # noqa: E402
from judge.judging.session import Judge  # noqa: E402
from judge.base.submission import Submission  # noqa: E402
from judge.learner.units import load_unit  # noqa: E402
from judge.base.outcomes import Verdict  # noqa: E402
from judge.base.encoding import Array  # noqa: E402
from judge.judging.equality import same_value  # noqa: E402
from judge.judging.repairs import unparsed  # noqa: E402
from judge.judging.slips import run_variants  # noqa: E402
from judge.runs.calls import Observation  # noqa: E402

NAMED, MISNAMED, UNCONFIRMED, SILENT = "named", "misnamed", "unconfirmed", "silent"
# Failures of a value test that are not about its value: gradients and inputs written in place.
NOT_VALUES = ("no gradient reaches", "a gradient reaches", "the gradient w.r.t.", "the input", "on the test's inputs:")


@dataclass
class Tally:
    """One problem's counts."""

    made: int = 0
    rejected: int = 0
    value: int = 0                  # rejected for a wrong value
    outcomes: Counter = field(default_factory=Counter)   # NAMED / MISNAMED / SILENT among `value`
    pairs: int = 0                  # two-slip files whose slips each change a value alone
    both: int = 0                   # ... that name what each slip alone is named
    pair_misnamed: int = 0
    pair_silent: int = 0
    pair_unconfirmed: int = 0
    hidden: int = 0                 # two-slip files whose report is one slip's alone (one slip hides the other)
    seconds: float = 0.0
    by: Counter = field(default_factory=Counter)  # among the named: what named them (trap, relation, slip, repair)
    listed: list = field(default_factory=list)  # (outcome, label, names, message) for --show

    def to_json(self) -> dict:
        return {"made": self.made, "rejected": self.rejected, "wrong_value": self.value,
                **{k: self.outcomes[k] for k in (NAMED, MISNAMED, UNCONFIRMED, SILENT)},
                "pairs": self.pairs, "both_named": self.both, "pairs_misnamed": self.pair_misnamed,
                "pairs_silent": self.pair_silent, "pairs_unconfirmed": self.pair_unconfirmed,
                "pairs_hidden": self.hidden, "named_by": dict(self.by), "seconds": round(self.seconds, 1)}


class Bench:
    def __init__(self, judge: Judge, problem_id: str, seed: int):
        self.judge, self.id, self.seed = judge, problem_id, seed
        self.prepared = judge.prepared(problem_id)
        problem = judge.problem(problem_id)
        hidden = problem_files.load_hidden(problem)
        with quiet():
            reference = hidden.reference_function(problem.entry_point)
            probes = make_probes(problem, hidden, reference, seed=seed + 1)
        # Fresh inputs: every test's generators drawn again (judge.authoring.probes' redraws), where the reference
        # returns a value: more evidence of the same kind, none of the degenerate inputs other probes are.
        probes = [p for p in probes if p.raises is None and p.change.startswith("redrawn")]
        self.checked = replace(self.prepared, cases=self.prepared.cases + tuple(p.case for p in probes),
                               expected=self.prepared.expected + tuple(p.expected for p in probes))
        self.raising = {c.name for c, e in zip(self.prepared.cases, self.prepared.expected)
                        if e[MAIN].error is not None}
        self.context = Context(framework=problem.framework, entry_point=problem.entry_point,
                               array_args=tuple(sorted({i for c in self.prepared.cases for i, v in enumerate(c.args)
                                                        if isinstance(v, Array) and v.library == "torch"})))
        folder = problem.submissions_dir / "accepted"
        self.files = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.py"))]

    def judged(self, source: str, label: str, origin: str, checked: bool = False) -> Report:
        """`source` judged with no slip model made from `origin`, the file it was made from: a slip is
        named only when another trusted solution's model of it gives the same outputs."""
        problem = self.checked if checked else self.prepared
        slips = problem.traps.slips.without([origin])
        # The smallest input changes no name: left out here, it would only cost sandbox runs.
        problem = replace(problem, traps=replace(problem.traps, slips=slips, shrinker=None))
        with quiet():
            return self.judge.submit(problem, Submission(source, label), record=False)

    def value_failure(self, report: Report):
        """The first failing test, when it failed for a wrong value: its test expects a value and the
        value on the test's own inputs differs (not a gradient, an input written, a property, a run)."""
        first = report.first_failure
        if first is None or first.verdict is not Verdict.WRONG_ANSWER or first.name in self.raising:
            return None
        if first.group == "check" and not first.message.startswith(ON_OWN_INPUTS):
            return None
        if first.message.startswith(NOT_VALUES):
            return None
        return first

    def names(self, report: Report) -> set[str]:
        return {_mistake(m.name) for t in report.tests for m in t.mistakes}

    def first_names(self, test) -> set[str]:
        return {_mistake(m.name) for m in test.mistakes}

    def sample(self, n: int) -> list[tuple[str, Mutant]]:
        every = [(label, m) for label, source in self.files for m in mutants(source, self.context)]
        rng = random.Random(f"{self.id}/{self.seed}")
        return sorted(rng.sample(every, min(n, len(every))), key=lambda x: (x[0], x[1].index))

    def single(self, label: str, mutant: Mutant, tally: Tally, show: set[str]) -> tuple[set[str], Report] | None:
        """Judge one mutant; the names its first wrong-value test gives and its report (None: not a wrong value)."""
        report = self.judged(mutant.source, f"{label} {mutant.label}", label)
        tally.made += 1
        if report.accepted:
            return None
        tally.rejected += 1
        first = self.value_failure(report)
        if first is None:
            return None
        tally.value += 1
        names = self.first_names(first)
        if not names:
            outcome = SILENT
        else:
            again = self.names(self.judged(mutant.source, f"{label} {mutant.label}", label, checked=True))
            outcome = NAMED if names <= again else MISNAMED if again - names else UNCONFIRMED
        tally.outcomes[outcome] += 1
        if outcome == NAMED:
            tally.by[_source(first.mistakes[0])] += 1
        if outcome in show:
            tally.listed.append((outcome, f"{label} {mutant.label}", sorted(names), first.text))
        return names, report

    def pointed(self, report: Report, line: int | None) -> bool:
        """Whether the report names a change on `line` of the file after which every value is right: the slip
        there is named on its line, in whatever words (a trap's, a relation's or a repair's) it was named alone."""
        return line is not None and any(m.message.startswith(f"line {line}: ") for t in report.tests
                                        for m in t.mistakes)

    def hides(self, both: str, *alone: str) -> bool:
        """Whether the file with both slips gives, on every test's inputs, what one slip alone gives (the same
        values as the checks compare them, or an error where it raises): one slip hides the other."""
        cases = [c for c in self.prepared.cases if c.calls.main is not None and c.calls.main.experiment is None]
        sources = {0: both, **{i + 1: s for i, s in enumerate(alone)}}
        with quiet():
            made = run_variants(self.judge.backend, self.prepared.problem.framework, self.prepared.limits,
                                [(c, i) for c in cases for i in sources], sources,
                                self.prepared.problem.entry_point, lambda case: 1 << 16)

        def same(case, x, y) -> bool:
            if isinstance(x, Observation) and isinstance(y, Observation):
                return same_value(case, x.value, y.value)
            return x == y

        return any(all(same(c, made.get((c.name, 0)), made.get((c.name, i))) for c in cases)
                   for i in range(1, len(sources)))

    def pair(self, label: str, a: Mutant, b: Mutant, names_a: set[str], names_b: set[str], alone: list[Report],
             tally: Tally, show: set[str]) -> None:
        original = dict(self.files)[label]
        source = _both(original, a, b, self.context)
        if source is None:
            return
        report = self.judged(source, f"{label} {a.label} + {b.label}", label)
        first = self.value_failure(report)
        if first is None:
            return
        if self.hides(source, a.source, b.source):
            tally.hidden += 1
            if "hidden" in show:
                tally.listed.append(("pair hidden", f"{label} {a.label} + {b.label}", [], first.text))
            return
        tally.pairs += 1
        named = self.names(report)
        strange = named - names_a - names_b
        again = self.names(self.judged(source, f"{label} two slips", label, checked=True)) if strange else set()
        if strange and again - named - names_a - names_b:
            tally.pair_misnamed += 1   # fresh inputs name something else instead
            outcome = MISNAMED
        elif strange - again:
            tally.pair_unconfirmed += 1   # a name fresh inputs do not prove again: listed, not counted as named
            outcome = UNCONFIRMED
        elif all(names & named or self.pointed(report, line)
                 for names, line in zip((names_a, names_b), _slip_lines(original, a.source, source))):
            tally.both += 1
            outcome = NAMED
        elif not named:
            tally.pair_silent += 1
            outcome = SILENT
        else:
            outcome = "partly"
        if outcome in show:
            tally.listed.append((f"pair {outcome}", f"{label} {a.label} + {b.label}", sorted(named), first.text))


def _slip_lines(original: str, one: str, both: str) -> tuple[int | None, int | None]:
    """The lines of the two-slip file `both` that hold its first slip (the one of `one`) and its second: the
    lines where it differs from the accepted file, as the judge numbers them (all three unparsed alike)."""
    def changed(x: str, y: str) -> set[int] | None:
        xs, ys = x.splitlines(), y.splitlines()
        return {i + 1 for i, (p, q) in enumerate(zip(xs, ys)) if p != q} if len(xs) == len(ys) else None

    base = unparsed(original) or original
    first, every = changed(base, one), changed(base, both)
    if first is None or every is None or len(first) != 1:
        return None, None
    second = every - first
    return next(iter(first)), (next(iter(second)) if len(second) == 1 else None)


def _mistake(name: str) -> str:
    """A mistake's name whatever said it: a slip model (`slip_x`) and a repair of the file (`repair_x`) that
    say it in the same words name the same mistake."""
    for prefix in ("slip_", "repair_"):
        if name.startswith(prefix) and name != "repair_unsaid":
            return "said_" + name[len(prefix):]
    return name


def _source(mistake) -> str:
    """What kind of explanation named a mistake: a trap, a relation, a slip model or a repair."""
    if mistake.known:
        return "trap"
    return "repair" if mistake.name.startswith("repair_") else "slip" if mistake.name.startswith("slip_") \
        else "relation"


def _both(original: str, a: Mutant, b: Mutant, context: Context) -> str | None:
    """`a`'s file with `b`'s replacement made too, or None. `b` is found among the mutants of `a`'s file as the
    same replacement at the same place: of the replacements alike (a constant `2 -> 1` may stand in a guard and
    in a power), the one in `b`'s position among them in the `original` file."""
    if a.line == b.line:
        return None
    key = (b.operator, b.before, b.after)
    alike = [m.index for m in mutants(original, context) if (m.operator, m.before, m.after) == key]
    there = [m for m in mutants(a.source, context) if (m.operator, m.before, m.after) == key]
    if b.index not in alike or len(there) != len(alike):
        return None   # `a`'s replacement made or took away one alike: which one is `b` is not known
    return there[alike.index(b.index)].source


def unit_problems(units: list[str]) -> list[tuple[str, str]]:
    found = []
    for unit in units:
        found += [(unit, pid) for pid in load_unit(REPO, unit).problems]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="*", help="problem ids (default: every problem of --units)")
    parser.add_argument("--units", nargs="*", default=["5.5", "5.6"])
    parser.add_argument("-n", "--mutants", type=int, default=30, help="mutants per problem (a seeded sample)")
    parser.add_argument("--pairs", type=int, default=0, help="two-slip files per problem")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", nargs="*", default=[], help="list files: named, misnamed, unconfirmed, silent, partly, hidden")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    todo = [(None, p) for p in args.problems] if args.problems else unit_problems(args.units)
    show = set(args.show)
    results: dict[str, Tally] = {}
    with Judge(REPO, ahead=True, record=False) as judge:
        for unit, pid in todo:
            started = time.perf_counter()
            bench = Bench(judge, pid, args.seed)
            tally = Tally()
            named: list[tuple[str, Mutant, set[str], Report]] = []
            for label, mutant in bench.sample(args.mutants):
                judged = bench.single(label, mutant, tally, show)
                if judged is not None:
                    named.append((label, mutant, *judged))
            # Each two-slip file once: every pair of named slips of one file, in a seeded order.
            pool = [x for x in named if x[2]]
            candidates = [(x, y) for i, x in enumerate(pool) for y in pool[i + 1:] if x[0] == y[0]]
            random.Random(f"pairs/{pid}/{args.seed}").shuffle(candidates)
            for (la, a, na, ra), (_, b, nb, rb) in candidates:
                if tally.pairs >= args.pairs:
                    break
                bench.pair(la, a, b, na, nb, [ra, rb], tally, show)
            tally.seconds = time.perf_counter() - started
            results[pid] = tally
            if not args.json:
                _print_row(pid, tally)
                for outcome, label, names, text in tally.listed:
                    print(f"    [{outcome}] {label}\n        names: {names}\n        "
                          + text.replace("\n", "\n        ")[:600])
                sys.stdout.flush()
    if args.json:
        print(json.dumps({pid: t.to_json() for pid, t in results.items()}, indent=1))
    else:
        by_unit: dict[str, Tally] = {}
        for unit, pid in todo:
            total = by_unit.setdefault(unit or "all", Tally())
            t = results[pid]
            total.made += t.made
            total.rejected += t.rejected
            total.value += t.value
            total.outcomes.update(t.outcomes)
            total.by.update(t.by)
            total.pairs += t.pairs
            total.both += t.both
            total.pair_misnamed += t.pair_misnamed
            total.pair_silent += t.pair_silent
            total.pair_unconfirmed += t.pair_unconfirmed
            total.hidden += t.hidden
        for unit, t in by_unit.items():
            _print_row(f"unit {unit}", t)
    return 0


def _print_row(name: str, t: Tally) -> None:
    share = f"{t.outcomes[NAMED] / t.value:.0%}" if t.value else "-"
    pairs = f"; pairs {t.both}/{t.pairs} both named, {t.pair_misnamed} misnamed, {t.pair_unconfirmed} " \
        f"unconfirmed, {t.hidden} hidden" \
        if t.pairs or t.hidden else ""
    by = ", ".join(f"{k} {n}" for k, n in sorted(t.by.items()))
    pairs += f" (named by {by})" if by else ""
    print(f"{name:22s} mutants {t.made:3d}, rejected {t.rejected:3d}, wrong value {t.value:3d}: "
          f"named {t.outcomes[NAMED]:3d} ({share}), misnamed {t.outcomes[MISNAMED]:2d}, unconfirmed "
          f"{t.outcomes[UNCONFIRMED]:2d}, silent "
          f"{t.outcomes[SILENT]:3d}{pairs}  [{t.seconds:.0f} s]")


if __name__ == "__main__":
    sys.exit(main())
