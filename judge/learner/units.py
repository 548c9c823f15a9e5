"""Course units as data: problems in order, self-test questions, the completion rule.

A unit lives in `units/<id>.yaml` beside `problems/`:

    id: "5.5"                     must equal the file name (units/5.5.yaml)
    title, summary                shown by `judge units` / `judge unit`
    problems: [patchify, ...]     the practice, in the order to take it
    extras: [unpatchify]          optional practice that completion does not need
    questions:                    self-test questions, each one of two kinds:
      - id: patches_224
        prompt: "..."
        numeric: {answer: 196}                    or a tuple: {answer: [4, 36, 512]},
                                                  with an absolute `tolerance` (default 0)
        explanation: "..."        shown after answering
      - id: why_positions
        prompt: "..."
        choice: {options: ["...", "..."], answer: b}   one right option, by letter
        explanation: "..."
    completion: {problems: all, questions: all}   or a minimum count of each
    next: "5.6"                   the unit to take after this one

Whether a unit is passed is derived from the progress database (problems
solved on a full run, the latest answer to each question); nothing about
completion is stored.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge.base.errors import ConfigError
from judge.model.problem import display_path
from judge.base.yamlfile import Errors, Fields, Sequence, load_yaml

UNIT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
LETTERS = string.ascii_lowercase

if TYPE_CHECKING:
    from judge.learner.progress import ProgressStore


@dataclass(frozen=True)
class Verdict:
    """How one answer was taken: right or wrong, or unreadable (then nothing is recorded)."""

    right: bool
    answer: str              # the answer as understood, e.g. "(4, 36, 512)" or "b"
    unreadable: str = ""     # why the text could not be read as an answer of this kind


@dataclass(frozen=True)
class Question:
    id: str
    prompt: str
    explanation: str
    kind: str                             # "numeric" or "choice"
    numbers: tuple[float, ...] = ()       # numeric: the right number(s)
    tolerance: float = 0.0                # numeric: absolute, per number
    options: tuple[str, ...] = ()         # choice: the options, shown as a), b), ...
    answer: str = ""                      # choice: the right letter

    def expected(self) -> str:
        if self.kind == "choice":
            return f"{self.answer}) {self.options[LETTERS.index(self.answer)]}"
        return _format_numbers(self.numbers)

    def take(self, text: str) -> Verdict:
        """Judge a learner's answer given as text ("196", "4, 36, 512", "(4,36,512)", "b")."""
        text = text.strip()
        if self.kind == "choice":
            letter = self._letter(text)
            if letter is None:
                return Verdict(False, text, f"answer with a letter from a to {LETTERS[len(self.options) - 1]}")
            return Verdict(letter == self.answer, letter)
        found = _NUMBER.findall(text)
        leftover = _NUMBER.sub("", text).strip(" ()[],xX×*")
        if not found or re.search(r"[^\s,xX×*()\[\]]", leftover):
            want = "a number" if len(self.numbers) == 1 else f"{len(self.numbers)} numbers, e.g. (a, b, c)"
            return Verdict(False, text, f"answer with {want}")
        values = tuple(float(v) for v in found)
        shown = _format_numbers(values)
        if len(values) != len(self.numbers):
            return Verdict(False, shown)
        return Verdict(all(abs(v - e) <= self.tolerance for v, e in zip(values, self.numbers)), shown)

    def _letter(self, text: str) -> str | None:
        lowered = text.lower().rstrip(")").strip()
        if len(lowered) == 1 and lowered in LETTERS[:len(self.options)]:
            return lowered
        if lowered.isdigit() and 1 <= int(lowered) <= len(self.options):
            return LETTERS[int(lowered) - 1]
        for i, option in enumerate(self.options):
            if lowered == option.lower():
                return LETTERS[i]
        return None


@dataclass(frozen=True)
class Completion:
    """How much of a unit must be done to pass it; None means all."""

    problems: int | None = None
    questions: int | None = None


@dataclass(frozen=True)
class Unit:
    id: str
    title: str
    summary: str
    problems: tuple[str, ...]
    extras: tuple[str, ...]
    questions: tuple[Question, ...]
    completion: Completion
    next: str | None
    path: Path

    def question(self, question_id: str) -> Question:
        for q in self.questions:
            if q.id == question_id:
                return q
        known = ", ".join(q.id for q in self.questions) or "none"
        raise ConfigError(f"unit {self.id} has no question {question_id!r}; its questions: {known}", file=self.path)


@dataclass(frozen=True)
class UnitProgress:
    """A unit as one learner stands in it."""

    unit: Unit
    statuses: dict[str, str]              # problem id -> solved / attempted / new
    answers: dict[str, tuple[str, bool]]  # question id -> (latest answer, right)

    @property
    def solved(self) -> int:
        return sum(self.statuses.get(p) == "solved" for p in self.unit.problems)

    @property
    def right(self) -> int:
        return sum(self.answers.get(q.id, ("", False))[1] for q in self.unit.questions)

    def problems_needed(self) -> int:
        return len(self.unit.problems) if self.unit.completion.problems is None else self.unit.completion.problems

    def questions_needed(self) -> int:
        needed = self.unit.completion.questions
        return len(self.unit.questions) if needed is None else needed

    @property
    def passed(self) -> bool:
        return self.solved >= self.problems_needed() and self.right >= self.questions_needed()

    def left(self) -> list[str]:
        """What is still to do, one line each (empty once passed)."""
        if self.passed:
            return []
        lines = []
        if self.solved < self.problems_needed():
            todo = [p for p in self.unit.problems if self.statuses.get(p) != "solved"]
            lines.append(f"solve {self.problems_needed() - self.solved} more: {', '.join(todo)}")
        if self.right < self.questions_needed():
            todo = [q.id for q in self.unit.questions if not self.answers.get(q.id, ("", False))[1]]
            lines.append(f"answer {self.questions_needed() - self.right} more question(s) right: {', '.join(todo)}"
                         f" (judge quiz {self.unit.id})")
        return lines

    def to_json(self) -> dict:
        return {"id": self.unit.id, "title": self.unit.title, "passed": self.passed,
                "problems": [{"id": p, "status": self.statuses.get(p, "new"), "extra": False}
                             for p in self.unit.problems]
                + [{"id": p, "status": self.statuses.get(p, "new"), "extra": True} for p in self.unit.extras],
                "solved": self.solved, "problems_needed": self.problems_needed(),
                "questions": [{"id": q.id, "prompt": q.prompt, "kind": q.kind, "options": list(q.options),
                               "answer": self.answers[q.id][0] if q.id in self.answers else None,
                               "right": self.answers[q.id][1] if q.id in self.answers else None}
                              for q in self.unit.questions],
                "right": self.right, "questions_needed": self.questions_needed(),
                "left": self.left(), "next": self.unit.next}


# ---------------------------------------------------------------- loading

def units_dir(root: Path) -> Path:
    return root / "units"


def unit_ids(root: Path) -> list[str]:
    """Unit ids in course order (5.5 before 5.10)."""
    ids = [p.stem for p in units_dir(root).glob("*.yaml")]
    return sorted(ids, key=lambda u: [int(x) if x.isdigit() else x for x in re.split(r"[.]", u)])


def load_unit(root: Path, unit_id: str, problem_ids: list[str] | None = None) -> Unit:
    """Load `units/<unit_id>.yaml`; every error at once, as `file:line: field: message`."""
    path = units_dir(root) / f"{unit_id}.yaml"
    # An id names a file in units/ and nothing else (`judge unit ../problems/x`, a crafted URL).
    if not UNIT_ID.match(unit_id) or not path.is_file():
        known = unit_ids(root)
        raise ConfigError(f"unknown unit {unit_id!r}; known units: {', '.join(known) or 'none'}",
                          file=units_dir(root))
    data = load_yaml(path)
    errors = Errors(display_path(path))
    top = Fields(data, "", errors, 1)
    uid = top.get("id", (str, float, int))
    if uid is not None and str(uid) != unit_id:
        top.error("id", f"must equal the file name {unit_id!r}, got {uid!r} (quote it: id: \"{unit_id}\")")
    known_problems = set(problem_ids if problem_ids is not None else
                         [p.stem for p in (root / "problems").glob("*.yaml")])
    problems = _problem_list(top, "problems", known_problems, required=True)
    extras = _problem_list(top, "extras", known_problems, required=False)
    for twice in sorted(set(problems) & set(extras)):
        top.error("extras", f"{twice!r} is already one of the unit's problems")
    questions = _questions(top)
    completion = _completion(top, len(problems), len(questions))
    next_unit = top.get("next", (str, float), default=None)
    unit = Unit(id=unit_id, title=top.get("title", str), summary=top.get("summary", str, default="").strip(),
                problems=tuple(problems), extras=tuple(extras), questions=tuple(questions),
                completion=completion, next=str(next_unit) if next_unit is not None else None, path=path)
    top.unknown({"id", "title", "summary", "problems", "extras", "questions", "completion", "next"})
    errors.raise_if_any()
    return unit


def load_units(root: Path) -> list[Unit]:
    problem_ids = [p.stem for p in (root / "problems").glob("*.yaml")]
    return [load_unit(root, uid, problem_ids) for uid in unit_ids(root)]


def course_order(problem_ids: list[str], units: list[Unit]) -> list[str]:
    """The problems in course order, the one every listing follows: each unit's problems, then its
    extras, in the order the units come; then the problems no unit lists, by id."""
    known = set(problem_ids)
    ordered = list(dict.fromkeys(pid for u in units for pid in (*u.problems, *u.extras) if pid in known))
    return ordered + sorted(known - set(ordered))


def extra_ids(units: list[Unit]) -> frozenset[str]:
    """The problems that are only a unit's extras: practice no unit's completion counts."""
    required = {pid for u in units for pid in u.problems}
    return frozenset(pid for u in units for pid in u.extras if pid not in required)


def progress_of(unit: Unit, store: "ProgressStore") -> tuple[UnitProgress, str | None]:
    """Where the learner stands in `unit`, and a warning when the progress database is unusable.

    Faces ask `judge.learner.tutor.Tutor.standing`, which reads the learner's own store.
    """
    from judge.learner.progress import ProgressUnavailable, problem_statuses

    statuses, warning = problem_statuses([*unit.problems, *unit.extras], store)
    try:
        answers = store.answers(unit.id)
    except ProgressUnavailable as exc:
        answers, warning = {}, warning or str(exc)
    return UnitProgress(unit, {k: str(v) for k, v in statuses.items()}, answers), warning


def _problem_list(top: Fields, key: str, known: set[str], required: bool) -> list[str]:
    value = top.get(key, list, default=None if required else [], what="a list of problem ids")
    if value is None:
        return []
    ids: list[str] = []
    for item in value:
        if not isinstance(item, str):
            top.error(key, f"expected problem ids, got {item!r}")
        elif item not in known:
            top.error(key, f"unknown problem {item!r} (no problems/{item}.yaml)")
        elif item in ids:
            top.error(key, f"{item!r} is listed twice")
        else:
            ids.append(item)
    if required and value is not None and not value:
        top.error(key, "a unit lists at least one problem")
    return ids


def _questions(top: Fields) -> list[Question]:
    items = top.get("questions", list, default=[])
    questions: list[Question] = []
    seen: set[str] = set()
    for i, item in enumerate(items or []):
        line = items.item_lines[i] if isinstance(items, Sequence) else top.line("questions")
        f = Fields(item, f"questions[{i}]", top.errors, line)
        qid = f.get("id", str, check=lambda v: None if v.isidentifier() else f"expected an identifier, got {v!r}")
        if qid in seen:
            f.error("id", f"duplicate question id {qid!r}")
        seen.add(qid)
        prompt = f.get("prompt", str)
        explanation = f.get("explanation", str)
        kinds = [k for k in ("numeric", "choice") if f.has(k)]
        if len(kinds) != 1:
            f.error("numeric", "give exactly one of `numeric: {answer, tolerance}` or `choice: {options, answer}`")
            continue
        if kinds[0] == "numeric":
            sub = f.sub("numeric")
            raw = sub.get("answer", (int, float, list), what="a number or a list of numbers")
            numbers = raw if isinstance(raw, list) else [raw]
            if raw is not None and (not numbers or not all(isinstance(n, (int, float)) and not isinstance(n, bool)
                                                           for n in numbers)):
                sub.error("answer", "expected a number or a non-empty list of numbers")
                numbers = []
            tolerance = sub.get("tolerance", float, default=0.0,
                                check=lambda v: None if v >= 0 else "expected a number >= 0")
            sub.unknown({"answer", "tolerance"})
            question = Question(qid or f"q{i}", prompt or "", explanation or "", "numeric",
                                numbers=tuple(float(n) for n in numbers or [] if n is not None), tolerance=tolerance)
        else:
            sub = f.sub("choice")
            options = sub.get("options", list, what="a list of at least two options")
            if options is not None and (len(options) < 2 or len(options) > len(LETTERS)
                                        or not all(isinstance(o, str) for o in options)):
                sub.error("options", "expected a list of 2 to 26 strings")
                options = None
            answer = sub.get("answer", str, what="the letter of the right option")
            if options and answer is not None and (len(answer) != 1 or answer not in LETTERS[:len(options)]):
                sub.error("answer", f"expected a letter from a to {LETTERS[len(options) - 1]}, got {answer!r}")
                answer = None
            sub.unknown({"options", "answer"})
            question = Question(qid or f"q{i}", prompt or "", explanation or "", "choice",
                                options=tuple(options or ()), answer=answer or "a")
        f.unknown({"id", "prompt", "explanation", "numeric", "choice"})
        questions.append(question)
    return questions


def _completion(top: Fields, n_problems: int, n_questions: int) -> Completion:
    sub = top.sub("completion")

    def count(key: str, available: int) -> int | None:
        value = sub.get(key, (str, int), default="all")
        if value == "all" or value is None:
            return None
        if isinstance(value, str) or not 0 <= value <= available:
            sub.error(key, f"expected `all` or a count from 0 to {available}, got {value!r}")
            return None
        return value

    completion = Completion(problems=count("problems", n_problems), questions=count("questions", n_questions))
    sub.unknown({"problems", "questions"})
    return completion


def _format_numbers(values: tuple[float, ...]) -> str:
    shown = [str(int(v)) if float(v).is_integer() else f"{v:g}" for v in values]
    return shown[0] if len(shown) == 1 else f"({', '.join(shown)})"

