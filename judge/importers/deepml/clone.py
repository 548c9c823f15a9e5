"""Reading a clone of Deep-ML's open problems: its questions and their variants, as typed data.

The repository's layout (late 2025): `questions/<N>_<slug>/` holds `meta.json` (`id`, `title`,
`difficulty`, `category`, contributors), `description.md`, `example.json` (`input`, `output`,
`reasoning`), `learn.md`, `starter_code.py`, `solution.py` and `tests.json` (a list of
`{"test": CODE, "expected_output": TEXT}`); a `pytorch/` (or `tinygrad/`) folder holds another
variant's starter, solution and tests. Each numpy question and each PyTorch variant is a `Variant`;
what is missing or malformed is a `Broken` with one line naming the file, the field and what was
expected. Nothing here runs any of the clone's code.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from judge.base.errors import ConfigError

FOLDER = re.compile(r"^(\d+)_[\w.-]+$")
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class TestCase:
    """One entry of tests.json, numbered from 1 as it stands in the file."""

    number: int
    code: str
    expected_output: str


@dataclass(frozen=True)
class Example:
    """example.json: the statement's worked example, as text."""

    input: str
    output: str
    reasoning: str


@dataclass(frozen=True)
class Variant:
    """One problem to import: a question's numpy variant, or its PyTorch one."""

    number: int
    problem_id: str             # dml_<N>, dml_<N>_torch
    folder: Path                # the question's folder
    title: str
    difficulty: str
    category: str
    description: str
    learn: str
    example: Example | None
    starter: str
    solution: str
    tests: tuple[TestCase, ...]
    framework: str              # numpy or torch

    @property
    def label(self) -> str:
        return f"{self.folder.name}{'/pytorch' if self.framework == 'torch' else ''}"


@dataclass(frozen=True)
class Broken:
    """A question or variant that cannot be read, with why (one line naming the file)."""

    problem_id: str
    reason: str


@dataclass(frozen=True)
class Clone:
    """What a clone holds: the variants that could be read and the ones that could not."""

    root: Path
    variants: tuple[Variant, ...]
    broken: tuple[Broken, ...]
    skipped: tuple[Broken, ...]     # variants this judge does not run (tinygrad)


def read_clone(root: Path, numbers: set[int] | None = None) -> Clone:
    """Every question of the clone at `root` (only `numbers`, when given): a ConfigError when `root`
    is not such a clone."""
    questions = root / "questions"
    if not questions.is_dir():
        raise ConfigError("not a clone of Deep-ML's open problems: it has no questions/ folder "
                          "(give the repository's root, e.g. ./DML-OpenProblem)", file=root)
    variants: list[Variant] = []
    broken: list[Broken] = []
    skipped: list[Broken] = []
    folders = sorted((p for p in questions.iterdir() if p.is_dir() and FOLDER.match(p.name)),
                     key=lambda p: int(FOLDER.match(p.name).group(1)))
    seen: dict[int, int] = {}
    for folder in folders:
        number = int(FOLDER.match(folder.name).group(1))
        if numbers is not None and number not in numbers:
            continue
        # Two folders may share a number (158 did): the later ones get dml_<N>_2, dml_<N>_3, ...
        seen[number] = seen.get(number, 0) + 1
        base = f"dml_{number}" if seen[number] == 1 else f"dml_{number}_{seen[number]}"
        try:
            question = _read_question(folder, number, base)
        except ConfigError as exc:
            broken.append(Broken(base, str(exc)))
            continue
        variants.append(question)
        torch_folder = folder / "pytorch"
        if torch_folder.is_dir():
            try:
                variants.append(_read_variant(question, torch_folder))
            except ConfigError as exc:
                broken.append(Broken(f"{base}_torch", str(exc)))
        if (folder / "tinygrad").is_dir():
            skipped.append(Broken(f"{base}_tinygrad", "tinygrad variants are not imported: this judge runs "
                                                      "numpy and torch"))
    return Clone(root, tuple(variants), tuple(broken), tuple(skipped))


def _read_question(folder: Path, number: int, problem_id: str) -> Variant:
    meta = _json(folder / "meta.json")
    if not isinstance(meta, dict):
        raise ConfigError("expected a JSON object", file=folder / "meta.json")
    title = _field(meta, "title", str, folder / "meta.json")
    difficulty = _field(meta, "difficulty", str, folder / "meta.json").lower()
    if difficulty not in DIFFICULTIES:
        raise ConfigError(f"expected one of {', '.join(DIFFICULTIES)}, got {difficulty!r}",
                          file=folder / "meta.json", field="difficulty")
    category = meta.get("category") if isinstance(meta.get("category"), str) else ""
    return Variant(number=number, problem_id=problem_id, folder=folder, title=title.strip(),
                   difficulty=difficulty, category=category, description=_text(folder / "description.md"),
                   learn=_text(folder / "learn.md", required=False), example=_example(folder / "example.json"),
                   starter=_text(folder / "starter_code.py"), solution=_text(folder / "solution.py"),
                   tests=_tests(folder / "tests.json"), framework="numpy")


def _read_variant(question: Variant, folder: Path) -> Variant:
    meta = _json(question.folder / "meta.json")
    difficulty = str(meta.get("pytorch_difficulty") or question.difficulty).lower()
    return Variant(number=question.number, problem_id=f"{question.problem_id}_torch", folder=question.folder,
                   title=f"{question.title} (PyTorch)",
                   difficulty=difficulty if difficulty in DIFFICULTIES else question.difficulty,
                   category=question.category, description=question.description, learn=question.learn,
                   example=question.example, starter=_text(folder / "starter_code.py"),
                   solution=_text(folder / "solution.py"), tests=_tests(folder / "tests.json"), framework="torch")


def _text(path: Path, required: bool = True) -> str:
    if not path.is_file():
        if required:
            raise ConfigError("missing file", file=path)
        return ""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot be read as UTF-8 text: {exc}", file=path) from None


def _json(path: Path):
    try:
        return json.loads(_text(path))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not valid JSON: {exc.msg} (line {exc.lineno})", file=path) from None


def _field(data: dict, name: str, kind: type, path: Path):
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
        raise ConfigError(f"expected {'a non-empty string' if kind is str else kind.__name__}, got {value!r:.60}",
                          file=path, field=name)
    return value


def _example(path: Path) -> Example | None:
    if not path.is_file():
        return None
    data = _json(path)
    if not isinstance(data, dict):
        raise ConfigError("expected a JSON object with input, output and reasoning", file=path)
    return Example(input=str(data.get("input", "")), output=str(data.get("output", "")),
                   reasoning=str(data.get("reasoning", "")))


def _tests(path: Path) -> tuple[TestCase, ...]:
    data = _json(path)
    if not isinstance(data, list) or not data:
        raise ConfigError("expected a non-empty JSON list of {test, expected_output}", file=path)
    tests = []
    for number, item in enumerate(data, 1):
        if not isinstance(item, dict) or not isinstance(item.get("test"), str) \
                or not isinstance(item.get("expected_output"), (str, int, float)):
            raise ConfigError(f"entry {number}: expected {{\"test\": CODE, \"expected_output\": TEXT}}",
                              file=path, field=f"[{number - 1}]")
        tests.append(TestCase(number, item["test"], str(item["expected_output"])))
    return tuple(tests)
