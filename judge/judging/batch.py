"""Batch grading: every `*.py` of a directory judged on one problem.

`judge grade ID DIR` is for a teacher with a class's submissions. The problem
is prepared once (fork server started, hidden tests and cached expectations
loaded) in one warm process, and a few threads each drive one submission at
a time through the sandbox, whose fork server forks an isolated child per
run, exactly as `judge run` does. Torch is imported once, not per file.

Each submission is judged independently: its time limits bound it, its
verdict is decided from plain data, and a judge failure on one file becomes
that file's `judge_error` row, never a stop of the batch. So does a file the
judge cannot read (permission denied for the grader, also when a folder's mode
changed while grading, a broken symbolic link, a file that vanished, a FIFO):
its row says why in one line, and it counts as not judged. A file whose bytes
are not text, or too many, is the compile error `judge run` gives it.
"""
from __future__ import annotations

import csv
import importlib
import io
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from judge.base import csvcells
from judge.base.errors import ConfigError, Unreadable
from judge.base.escape import escape_controls, escape_name
from judge.base.report import Report
from judge.base.outcomes import Verdict

# `mistakes`: the names of the mistakes the report names, in test order, joined by "; " (the JSON lists each
# with its message and test).
CSV_COLUMNS = ("file", "verdict", "passed", "total", "time_ms", "first_failure", "message", "mistakes", "tampering")


@dataclass(frozen=True)
class NamedMistake:
    """A mistake a rejected file's report names (a trap, or a generic diagnosis), and the test it is named on:
    what the learner reads, so an instructor or a measurement can count mistakes without judging again."""

    name: str
    message: str
    known: bool      # a trap the author named, rather than a generic diagnosis
    test: str

    def to_json(self) -> dict:
        return {"name": self.name, "message": escape_controls(self.message), "known": self.known,
                "test": escape_controls(self.test)}


def named_mistakes(report: Report) -> tuple[NamedMistake, ...]:
    """The mistakes the failing tests of `report` name (several where they explain a test together), each
    once (a repeat refers back), in test order."""
    return tuple(NamedMistake(m.name, m.message, m.known, t.name) for t in report.tests
                 if t.verdict is not Verdict.ACCEPTED for m in t.mistakes if not m.repeated)


@dataclass(frozen=True)
class Row:
    """One submission's outcome."""

    file: str                  # path relative to the graded directory
    verdict: Verdict
    passed: int
    total: int
    time_ms: float
    first_failure: str = ""    # name of the first test that failed
    message: str = ""          # first line of its message, or why the file could not be judged
    tampering: tuple[str, ...] = ()  # where the file reached into the judge's or the interpreter's internals
    mistakes: tuple[NamedMistake, ...] = ()  # what the report named, each once, in test order

    @classmethod
    def from_report(cls, file: str, report: Report) -> "Row":
        failure = report.first_failure
        return cls(file=file, verdict=report.verdict, passed=report.passed, total=report.total,
                   time_ms=report.time_ms, first_failure=failure.name if failure else "",
                   message=_first_line(failure.text) if failure else "", tampering=report.tampering,
                   mistakes=named_mistakes(report))

    @classmethod
    def decided(cls, file: str, decision, time_ms: float) -> "Row":
        """A file judged without running it (`decision` is a `judge.runs.decisions.Decision`)."""
        return cls(file, decision.verdict, 0, 0, time_ms, message=_first_line(decision.message))

    def to_json(self) -> dict:
        """The row as every face shows it (table, CSV, JSON): the file's name and the message escaped
        (judge.base.escape), so a hostile name or message neither reaches a terminal raw nor breaks the CSV."""
        return {"file": escape_name(self.file), "verdict": self.verdict.value, "passed": self.passed,
                "total": self.total, "time_ms": round(self.time_ms, 1),
                "first_failure": escape_controls(self.first_failure), "message": escape_controls(self.message),
                "tampering": [escape_controls(t, keep="") for t in self.tampering],
                "mistakes": [m.to_json() for m in self.mistakes]}


@dataclass
class BatchResult:
    problem: str
    directory: str
    rows: list[Row]
    time_ms: float = 0.0

    def counts(self) -> dict[str, int]:
        """Submissions per verdict, in the order of `Verdict`, verdicts with none left out."""
        counts = {v.value: 0 for v in Verdict}
        for row in self.rows:
            counts[row.verdict.value] += 1
        return {k: n for k, n in counts.items() if n}

    @property
    def judge_errors(self) -> int:
        return sum(row.verdict is Verdict.JUDGE_ERROR for row in self.rows)

    def to_json(self) -> dict:
        return {"problem": self.problem, "directory": escape_name(self.directory), "submissions": len(self.rows),
                "counts": self.counts(), "time_ms": round(self.time_ms, 1),
                "rows": [row.to_json() for row in self.rows]}

    def write_csv(self, stream: TextIO) -> None:
        writer = csv.DictWriter(stream, fieldnames=CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in self.rows:
            shown = row.to_json()
            # One cell each list joined; every cell a spreadsheet shows as text, never as a formula.
            writer.writerow(csvcells.record({**shown, "mistakes": "; ".join(m["name"] for m in shown["mistakes"]),
                                             "tampering": "; ".join(shown["tampering"])}))

    def csv_text(self) -> str:
        buffer = io.StringIO()
        self.write_csv(buffer)
        return buffer.getvalue()


# ---------------------------------------------------------------- grading

def find_submissions(directory: Path) -> list[Path]:
    """The `*.py` entries directly in `directory` that are not directories, sorted by name.

    Every such entry is a submission, also one the grader cannot read (permission denied, a broken
    symbolic link, a FIFO, a file that vanishes): its row says why (`grade_directory`), and the others
    are graded. A ConfigError (one line, exit 2) when `directory` itself is missing or cannot be listed.
    """
    try:
        with os.scandir(directory) as entries:
            names = [entry.name for entry in entries if entry.name.endswith(".py") and not _is_dir(entry)]
    except FileNotFoundError:
        raise ConfigError("directory not found", file=directory) from None
    except NotADirectoryError:
        raise ConfigError("is not a directory; expected a directory of *.py submissions", file=directory) from None
    except OSError as exc:   # permission denied (a folder chmod 000 for the grader), an I/O error
        raise ConfigError(f"cannot list the directory: {exc.strerror or type(exc).__name__}", file=directory) \
            from None
    if not names:
        raise ConfigError("contains no *.py files to grade", file=directory)
    return [directory / name for name in sorted(names)]


def _is_dir(entry: os.DirEntry) -> bool:
    """Whether an entry is a directory (a symbolic link to one too); False when that cannot be told: it is then
    graded, and its row says why it could not be read."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def child_threads(workers: int) -> int:
    """Torch/BLAS threads per sandbox child, so `workers` children share the cores."""
    return max(1, (os.cpu_count() or 1) // max(1, workers))


def grade_directory(judge, problem_id: str, directory: Path, workers: int,
                    on_row: Callable[[Row], None] | None = None) -> BatchResult:
    """Judge every submission of `directory` on `problem_id` with `workers` at a time."""
    from judge.runs import decisions as verdicts  # these keep `import judge.judging.batch` light
    from judge.base.submission import Submission

    started = time.perf_counter()
    problem = judge.problem(problem_id)
    files = find_submissions(directory)
    prepared = judge.prepared(problem_id)
    if problem.framework == "torch":
        # Imported here, once: the files' wrong answers are diagnosed from several threads, and a
        # thread seeing a half-imported torch in sys.modules fails.
        importlib.import_module("torch")

    def judge_source(submission: Submission) -> Report:
        return judge.submit(prepared, submission, record=False)

    def one(path: Path) -> Row:
        name = path.relative_to(directory).as_posix()
        begun = time.perf_counter()
        try:
            submission = Submission.from_file(path, label=str(path), directory=directory)
        except Unreadable as exc:  # the judge could not read it (permission denied, gone): not judged, no verdict
            return Row.decided(name, verdicts.judge_failed(f"not judged: {exc.detail}"), _ms(begun))
        except ConfigError as exc:  # not text (as `judge run` says too), too large: it cannot compile
            return Row.decided(name, verdicts.of_unloadable(exc.detail), 0.0)
        except OSError as exc:  # anything reading it raised that from_file did not foresee
            return Row.decided(name, verdicts.judge_failed(f"not judged: cannot read the submission: "
                                                           f"{exc.strerror or type(exc).__name__}"), _ms(begun))
        try:
            return Row.from_report(name, judge_source(submission))
        except Exception as exc:  # the judge failing on one file must not stop the other files' grading
            return Row.decided(name, verdicts.judge_failed(f"the judge failed on this file: {type(exc).__name__}: "
                                                           f"{exc}"), _ms(begun))

    rows: dict[Path, Row] = {}
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="judge-grade") as pool:
        futures = {pool.submit(one, path): path for path in files}
        try:
            for future in as_completed(futures):
                row = future.result()
                rows[futures[future]] = row
                if on_row is not None:
                    on_row(row)
        except BaseException:
            # Ctrl-C: do not start the files still waiting; the running ones end within their limits.
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return BatchResult(problem=problem.id, directory=str(directory), rows=[rows[p] for p in files],
                       time_ms=(time.perf_counter() - started) * 1000)


# ---------------------------------------------------------------- showing it

class ProgressBar:
    """A one-line progress bar with counts per verdict, drawn only on a terminal."""

    WIDTH = 24

    def __init__(self, total: int, stream: TextIO | None = None):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.active = _isatty(self.stream)
        self.done = 0
        self.counts: dict[Verdict, int] = {}
        self.started = time.perf_counter()

    def update(self, row: Row) -> None:
        self.done += 1
        self.counts[row.verdict] = self.counts.get(row.verdict, 0) + 1
        if self.active:
            self.stream.write("\r" + self.line() + "\x1b[K")
            self.stream.flush()

    def line(self) -> str:
        filled = self.WIDTH * self.done // max(1, self.total)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        counts = "  ".join(f"{v.short} {self.counts[v]}" for v in Verdict if self.counts.get(v))
        elapsed = time.perf_counter() - self.started
        return f"[{bar}] {self.done}/{self.total}  {counts}  {elapsed:.1f} s"

    def close(self) -> None:
        if self.active and self.done:
            self.stream.write("\n")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def table_lines(result: BatchResult) -> list[str]:
    """A plain table: one line per submission, then the counts."""
    shown = [row.to_json() for row in result.rows]
    width = max([len(r["file"]) for r in shown] + [4])
    lines = [f"{'file'.ljust(width)}  {'verdict':<21}  {'passed':>7}  {'time':>9}  first failing test"]
    for row, r in zip(result.rows, shown):
        lines.append(f"{r['file'].ljust(width)}  {row.verdict.value:<21}  {f'{row.passed}/{row.total}':>7}  "
                     f"{row.time_ms / 1000:>7.2f} s  {r['first_failure'] or r['message']}".rstrip())
    counts = ", ".join(f"{n} {verdict}" for verdict, n in result.counts().items())
    lines.append(f"{len(result.rows)} submissions in {result.time_ms / 1000:.1f} s: {counts}")
    return lines


def summary_json(result: BatchResult) -> str:
    return json.dumps(result.to_json(), indent=2)


def _ms(begun: float) -> float:
    return (time.perf_counter() - begun) * 1000


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:300] if text.strip() else ""
