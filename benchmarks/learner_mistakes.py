"""How often the judge names the mistakes of learner-written wrong files, and how soon a wrong answer is reported.

The corpus is tests/learnercode/<problem>/<name>.py, written the way learners write them (forum
questions, course Q&A, the traps' neighbours; one mistake or two), with what each file gets wrong
and the names that may say it in tests/learnercode/manifest.yaml. Every file is judged as the
terminal judges it (`Judge.submit` with a refinement listener: the first report within the
diagnosis budget, then the refined one), and counted per unit:

- named: every mistake of the file is said by a name the manifest allows for it (in the refined
  report, the one the page shows last and `judge grade` rows carry);
- both: two-mistake files whose two mistakes are both named;
- misnamed: files in which some name is given that none of the file's mistakes allows (a wrong name
  is worse than none);
- first: files whose every mistake is named already in the first report; terminal: in what the terminal prints
  (the first report, then the refinement when it comes within 8 times the accepted run).

A name that only says what is seen ("the right values in another order") is neither a name nor a
misname: it is the plain observation the report gives when no cause explains every failing test.

Latency: each wrong file's first report is timed against an accepted run of the same problem,
judged just before it in the same process (the problem's first accepted known submission), and
the ratio is the file's time over the median of those accepted runs. Per unit: the median and the
largest ratio (targets: median <= 3x, every file <= 8x).

    python benchmarks/learner_mistakes.py                  # every problem of the manifest
    python benchmarks/learner_mistakes.py nt_xent info_nce # some problems
    python benchmarks/learner_mistakes.py --show           # each file's names and hints
    python benchmarks/learner_mistakes.py --json           # the figures as JSON
    python benchmarks/learner_mistakes.py --curated        # the known wrong submissions named after a trap:
                                                           # is each named it? (the curated traps' figure)

Nothing is cached in the repository; the judge's own cache (~/.cache, or a scratch one here) keeps
the reference's values as for any run.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from _timing import REPO

sys.path.insert(0, str(REPO))
os.environ.setdefault("JUDGE_NO_RECORD", "1")
os.environ.setdefault("JUDGE_HOME", tempfile.mkdtemp(prefix="learner-mistakes-"))

import yaml  # noqa: E402

from judge.base.quiet import quiet  # noqa: E402
from judge.base.report import Report  # noqa: E402
from judge.base.submission import Submission  # noqa: E402
from judge.judging.budget import Budget  # noqa: E402
from judge.judging.session import Judge  # noqa: E402
from judge.learner.units import load_unit  # noqa: E402

CORPUS = REPO / "tests" / "learnercode"
PLACES = ("check", "failure", "hint")   # patterns that look at a test, not at a named mistake
# What a relation says when it says only what is seen (judge.judging.explain's OBSERVED): neither a name nor a
# misname, but the plain observation the report gives when no cause explains every failing test.
OBSERVATIONS = re.compile(r"(in another order|but in other places: the values are right, their order is not|"
                          r"scaled by one constant factor)$")
REFINED_WAIT_S = 120.0   # how long the benchmark waits for a refinement (the faces wait less)


@dataclass(frozen=True)
class Expected:
    """One mistake of a file: what it is and the names that may say it."""

    what: str
    by: tuple[str, ...]

    def said_by(self, name: str, message: str) -> bool:
        return any(_matches(pattern, name, message) for pattern in self.by if pattern.partition(":")[0] not in PLACES)

    def said_in(self, report: Report) -> bool:
        failing = [t for t in report.tests if t.verdict.value != "accepted"]
        for pattern in self.by:
            kind, _, regex = pattern.partition(":")
            if kind == "check" and any(re.search(regex, t.name) for t in failing):
                return True
            if kind == "failure" and any(re.search(regex, t.message) for t in failing):
                return True
            if kind == "hint" and any(t.hint and re.search(regex, t.name) for t in failing):
                return True
        return any(self.said_by(m.name, m.message) for t in report.tests for m in t.mistakes)


def _matches(pattern: str, name: str, message: str) -> bool:
    wanted, _, regex = pattern.partition("~")
    if wanted not in ("*", name):
        return False
    return not regex or re.search(regex, message) is not None


@dataclass
class Judged:
    """One file's outcome."""

    problem: str
    file: str
    mistakes: tuple[Expected, ...]
    verdict: str = ""
    named: tuple[bool, ...] = ()          # per mistake, in the refined report
    named_first: tuple[bool, ...] = ()    # per mistake, in the first report
    named_terminal: tuple[bool, ...] = () # per mistake, in what the terminal prints (the refinement by 8 run times)
    stray: tuple[str, ...] = ()           # names no mistake of the file allows
    names: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    first_s: float = 0.0
    refined_s: float | None = None
    accepted_s: float = 0.0               # the accepted run judged just before it

    @property
    def two(self) -> bool:
        return len(self.mistakes) == 2


@dataclass
class Tally:
    files: list[Judged] = field(default_factory=list)
    accepted: list[float] = field(default_factory=list)

    def figures(self) -> dict:
        singles = [f for f in self.files if not f.two]
        doubles = [f for f in self.files if f.two]
        base = statistics.median(self.accepted) if self.accepted else float("nan")
        ratios = [f.first_s / base for f in self.files]
        return {
            "files": len(self.files),
            "rejected": sum(f.verdict != "accepted" for f in self.files),
            "every_mistake_named": sum(all(f.named) for f in self.files),
            "one_mistake_named": sum(all(f.named) for f in singles), "one_mistake_files": len(singles),
            "both_named": sum(all(f.named) for f in doubles), "two_mistake_files": len(doubles),
            "misnamed": sum(bool(f.stray) for f in self.files),
            "named_in_first_report": sum(all(f.named_first) for f in self.files),
            "named_in_the_terminal": sum(all(f.named_terminal) for f in self.files),
            "accepted_median_s": round(base, 4),
            "first_report_median_s": round(statistics.median(f.first_s for f in self.files), 4) if self.files else None,
            "ratio_median": round(statistics.median(ratios), 2) if ratios else None,
            "ratio_max": round(max(ratios), 2) if ratios else None,
        }


def load_manifest() -> dict[str, dict[str, tuple[Expected, ...]]]:
    data = yaml.safe_load((CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
    return {problem: {stem: tuple(Expected(m["what"], tuple(m["by"])) for m in mistakes)
                      for stem, mistakes in files.items()}
            for problem, files in data.items()}


def judged_with_refinement(judge: Judge, problem: str, submission: Submission) -> tuple[Report, float, Report, float | None]:
    """The first report and its time, the refined report (the first when none came) and its time."""
    arrived = threading.Event()
    refined: list[tuple[Report, float]] = []
    started = time.perf_counter()

    def on_refined(report: Report) -> None:
        refined.append((report, time.perf_counter() - started))
        arrived.set()

    with quiet():
        # The terminal's budget for the first report; the refinement is waited for whatever it takes, so
        # that the names counted are every name the judge finds (the page shows them as they come).
        first = judge.submit(problem, submission, record=False, budget=Budget(on_refined, last=None))
    first_s = time.perf_counter() - started
    if not first.refining or not arrived.wait(REFINED_WAIT_S) or refined[-1][0] is None:
        return first, first_s, first, None
    return first, first_s, refined[-1][0], refined[-1][1]


def judge_problem(judge: Judge, problem: str, files: dict[str, tuple[Expected, ...]]) -> Tally:
    tally = Tally()
    accepted = sorted((REPO / "submissions" / problem / "accepted").glob("*.py"))[0]
    reference = Submission.from_file(accepted)
    for _ in range(2):  # warm: the prepared problem, the fork server, the caches of the problem
        with quiet():
            judge.submit(problem, reference, record=False)
    for stem, mistakes in files.items():
        path = CORPUS / problem / f"{stem}.py"
        started = time.perf_counter()
        with quiet():
            judge.submit(problem, reference, record=False)
        accepted_s = time.perf_counter() - started
        tally.accepted.append(accepted_s)
        first, first_s, final, refined_s = judged_with_refinement(judge, problem, Submission.from_file(path))
        said = [(m.name, m.message) for t in final.tests for m in t.mistakes if not OBSERVATIONS.search(m.message)]
        stray = tuple(sorted({f"{n}: {msg}" for n, msg in said if not any(e.said_by(n, msg) for e in mistakes)}))
        # The terminal prints the refinement when it comes within its budget's last deadline (8 run times, as
        # judge.judging.budget.Budget's default, counted against the accepted run measured just before).
        in_time = refined_s is not None and refined_s <= Budget(on_refined=print).last * accepted_s
        terminal = final if in_time else first
        tally.files.append(Judged(
            problem, stem, mistakes, verdict=final.verdict.value,
            named=tuple(e.said_in(final) for e in mistakes), named_first=tuple(e.said_in(first) for e in mistakes),
            named_terminal=tuple(e.said_in(terminal) for e in mistakes),
            stray=stray, names=tuple(dict.fromkeys(f"{n}: {msg}" for n, msg in said)),
            hints=tuple(dict.fromkeys(f"{t.name}: {t.hint}" for t in final.tests if t.hint)),
            first_s=first_s, refined_s=refined_s, accepted_s=accepted_s))
    return tally


def curated(judge: Judge, problems: list[str]) -> tuple[int, int, list[str]]:
    """The known wrong submissions named after a trap (submissions/<id>/wrong_answer/<trap>.py): how many are
    named that trap (or a trap of the very same message), of how many, and the ones that are not."""
    from judge.model import problem as problem_files

    named, total, missed = 0, 0, []
    for pid in problems:
        problem = judge.problem(pid)
        hidden = problem_files.load_hidden(problem)
        messages = {t.name: t.message for t in hidden.traps}
        for path in sorted((REPO / "submissions" / pid / "wrong_answer").glob("*.py")):
            if path.stem not in messages:
                continue
            total += 1
            with quiet():
                report = judge.submit(pid, Submission.from_file(path), record=False)
            said = {m.name for t in report.tests for m in t.mistakes}
            if any(messages.get(n) == messages[path.stem] for n in said):
                named += 1
            else:
                missed.append(f"{pid}/{path.stem}: {sorted(said) or 'nothing'}")
    return named, total, missed


def unit_of(problem: str) -> str:
    for unit in ("5.5", "5.6"):
        spec = load_unit(REPO, unit)
        if problem in spec.problems or problem in spec.extras:
            return unit
    return "other"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="*", help="problem ids (default: every problem of the manifest)")
    parser.add_argument("--show", action="store_true", help="each file's names, hints and times")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--curated", action="store_true",
                        help="instead: the known wrong submissions named after a trap, and whether each is named it")
    args = parser.parse_args()
    manifest = load_manifest()
    todo = args.problems or list(manifest)
    if args.curated:
        with Judge(REPO, ahead=True, record=False) as judge:
            named, total, missed = curated(judge, todo)
        for line in missed:
            print(f"    not named its trap: {line}")
        print(f"curated traps: {named}/{total} ({_share(named, total)}) known wrong submissions named their trap")
        return 0
    tallies: dict[str, Tally] = {}
    started = time.perf_counter()
    with Judge(REPO, ahead=True, record=False) as judge:
        for problem in todo:
            tally = judge_problem(judge, problem, manifest[problem])
            tallies[problem] = tally
            if not args.json:
                _print_problem(problem, tally, args.show)
    units: dict[str, Tally] = {}
    for problem, tally in tallies.items():
        unit = units.setdefault(unit_of(problem), Tally())
        unit.files += tally.files
        # Ratios are per problem: each file against its own problem's accepted runs.
    figures = {}
    for unit, tally in sorted(units.items()):
        problems = [tallies[p] for p in tallies if unit_of(p) == unit]
        ratios = [f.first_s / statistics.median(t.accepted) for t in problems for f in t.files]
        refined = [f.refined_s / statistics.median(t.accepted) for t in problems for f in t.files if f.refined_s]
        row = tally.figures()
        row.update(ratio_median=round(statistics.median(ratios), 2), ratio_max=round(max(ratios), 2),
                   refined_ratio_median=round(statistics.median(refined), 2) if refined else None,
                   accepted_median_s=None)
        figures[unit] = row
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"units": figures, "problems": {p: t.figures() for p, t in tallies.items()},
                          "load": load, "seconds": round(time.perf_counter() - started)}, indent=1))
        return 0
    print()
    for unit, row in figures.items():
        print(f"unit {unit}: {row['files']} files: one mistake named {row['one_mistake_named']}/"
              f"{row['one_mistake_files']} ({_share(row['one_mistake_named'], row['one_mistake_files'])}), both of two "
              f"{row['both_named']}/{row['two_mistake_files']} ({_share(row['both_named'], row['two_mistake_files'])}), "
              f"every mistake {row['every_mistake_named']}/{row['files']}, misnamed {row['misnamed']}, named in the "
              f"first report {row['named_in_first_report']}, in the terminal {row['named_in_the_terminal']}; "
              f"first report {row['ratio_median']}x an accepted run "
              f"(median), {row['ratio_max']}x at most; refined {row['refined_ratio_median']}x (median)")
    print(f"load average {load:.1f}; {time.perf_counter() - started:.0f} s")
    return 0


def _share(a: int, b: int) -> str:
    return f"{a / b:.0%}" if b else "-"


def _print_problem(problem: str, tally: Tally, show: bool) -> None:
    f = tally.figures()
    print(f"{problem:22s} files {f['files']:2d}: one {f['one_mistake_named']}/{f['one_mistake_files']}, both "
          f"{f['both_named']}/{f['two_mistake_files']}, misnamed {f['misnamed']}; accepted "
          f"{f['accepted_median_s'] * 1000:.0f} ms, first report {f['ratio_median']}x (max {f['ratio_max']}x)")
    base = statistics.median(tally.accepted)
    for judged in tally.files:
        missing = [e.what for e, ok in zip(judged.mistakes, judged.named) if not ok]
        if not show and not missing and not judged.stray:
            continue
        refined = f", refined {judged.refined_s / base:.1f}x" if judged.refined_s else ""
        print(f"    {judged.file} [{judged.verdict}] first {judged.first_s / base:.1f}x{refined}")
        for what in missing:
            print(f"        UNNAMED: {what}")
        for stray in judged.stray:
            print(f"        MISNAMED: {stray[:300]}")
        if show:
            for name in judged.names:
                print(f"        name: {name[:300]}")
            for hint in judged.hints:
                print(f"        hint: {hint[:200]}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
