"""The real-code corpus: adaptations of public code get the verdict and the mistake they declare.

tests/realcode/<problem>/{correct,wrong}/*.py each declare in their docstring
`expect: VERDICT` and, for wrong files, `mistake: NAME` (a trap or generic
diagnosis the report must name, never another trap) or `mistake: check:TEST`
(the property or error check whose own message names it). See
tests/realcode/README.md. `python tests/judging/test_realcode.py` prints the account.

Files that import timm, open_clip or lightly need torchvision, which imports only beside the
torch build it was made for: where it cannot be imported (root's CI venv has PyTorch's CPU build,
for which PyPI has no torchvision) they skip, saying so; the learner's venv (PyPI's torch and the
`vision` extra) runs them.
"""
from __future__ import annotations

import ast
import functools
import importlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "realcode"
FIELD = re.compile(r"^(adapted from|expect|mistake):\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
# Libraries that import torchvision (pyproject.toml's `vision` extra).
NEEDS_TORCHVISION = frozenset({"timm", "open_clip", "lightly"})


@dataclass(frozen=True)
class Entry:
    path: Path
    problem: str
    source: str        # the repository and file it adapts
    expect: str        # the verdict's value
    mistake: str | None
    imports: frozenset[str] = frozenset()  # the top-level modules the file imports

    @property
    def key(self) -> str:
        return f"{self.problem}/{self.path.parent.name}/{self.path.stem}"


def _imports(tree: ast.Module) -> frozenset[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return frozenset(names)


def entry(path: Path) -> Entry:
    tree = ast.parse(path.read_text())
    doc = ast.get_docstring(tree) or ""
    fields = {k.lower(): v for k, v in FIELD.findall(doc)}
    return Entry(path, path.parent.parent.name, fields.get("adapted from", ""), fields.get("expect", ""),
                 fields.get("mistake"), _imports(tree))


@functools.cache
def _torchvision_unusable() -> str | None:
    """Why torchvision cannot be imported here, or None when it can."""
    try:
        importlib.import_module("torchvision")
    except (ImportError, RuntimeError, OSError) as exc:  # a CUDA build beside CPU torch raises RuntimeError
        return f"{type(exc).__name__}: {exc}".splitlines()[0]
    return None


def skip_reason(item: Entry) -> str | None:
    """Why `item` cannot be judged in this venv (its libraries need torchvision, which is unusable), or None."""
    needs = sorted(item.imports & NEEDS_TORCHVISION)
    why = _torchvision_unusable() if needs else None
    if why is None:
        return None
    return (f"{', '.join(needs)} needs torchvision, and PyPI has no torchvision wheel for PyTorch's CPU build "
            f"(the vision extra runs with PyPI's torch; here: {why})")


def entries() -> list[Entry]:
    return [entry(p) for p in sorted(CORPUS.glob("*/*/*.py"))]


def named(report) -> list:
    """The mistakes the report names (all of a test's `mistakes`), each once, in test order."""
    return [m for t in report.tests for m in t.mistakes if not m.repeated]


def account(entry: Entry, report) -> tuple[bool, bool, bool, str]:
    """(verdict right, named as declared, misnamed, what was said) for one file's report."""
    right = report.verdict.value == entry.expect
    if entry.expect == "accepted":
        return right, False, False, ""
    mistakes = named(report)
    said = "; ".join(f"{m.name}{'' if m.known else ' (generic)'}" for m in mistakes)
    first = report.first_failure
    if entry.mistake and entry.mistake.startswith("check:"):
        ok = first is not None and first.name == entry.mistake[len("check:"):]
        said = said or f"check {first.name if first else None}"
        return right, ok, any(m.known for m in mistakes), said
    ok = any(m.name == entry.mistake for m in mistakes)
    wrong = any(m.known and m.name != entry.mistake for m in mistakes)
    return right, ok, wrong, said


def test_every_problem_has_two_correct_and_three_wrong_files(repo) -> None:
    problems = sorted(p.stem for p in (repo / "problems").glob("*.yaml"))
    missing = []
    for problem in problems:
        correct = list((CORPUS / problem / "correct").glob("*.py"))
        wrong = list((CORPUS / problem / "wrong").glob("*.py"))
        if len(correct) < 2 or len(wrong) < 3:
            missing.append(f"{problem}: {len(correct)} correct, {len(wrong)} wrong")
    assert not missing, missing


@pytest.mark.parametrize("item", entries(), ids=lambda e: e.key)
def test_a_real_code_adaptation_gets_its_declared_verdict_and_name(judge, item: Entry) -> None:
    assert item.source, f"{item.key}: the docstring names no 'Adapted from:' source"
    assert item.expect in {"accepted", "wrong_answer", "runtime_error"}, f"{item.key}: expect: {item.expect!r}"
    assert (item.expect == "accepted") == (item.path.parent.name == "correct"), f"{item.key}: folder and verdict"
    assert item.expect == "accepted" or item.mistake, f"{item.key}: a wrong file declares its mistake"
    reason = skip_reason(item)
    if reason:
        pytest.skip(reason)
    report = judge.run(item.problem, item.path)
    right, ok, wrong, said = account(item, report)
    first = report.first_failure
    assert right, (f"{item.key}: expected {item.expect}, got {report.verdict.value}"
                   + (f"; first failure {first.name}: {first.text}" if first else ""))
    assert not wrong, f"{item.key}: misnamed ({said}); declared {item.mistake}"
    assert item.expect == "accepted" or ok, f"{item.key}: not named {item.mistake} (said: {said or 'nothing'})"
    # Honest code is never flagged (the report's `tampering` list; absent before it existed).
    assert report.to_json().get("tampering", []) == [], f"{item.key}: flagged as tampering"


if __name__ == "__main__":  # the account per problem (optionally: only the problems named)
    from judge.judging.session import Judge

    sys.path.insert(0, str(REPO))
    rows: dict[str, list[int]] = {}
    with Judge(REPO, record=False) as j:
        for item in entries():
            if sys.argv[1:] and item.problem not in sys.argv[1:]:
                continue
            if skip_reason(item):
                print(f"skip {item.key}: {skip_reason(item)}")
                continue
            report = j.run(item.problem, item.path)
            right, ok, wrong, said = account(item, report)
            row = rows.setdefault(item.problem, [0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += report.verdict.value == "accepted"
            row[2] += report.verdict.value != "accepted"
            row[3] += ok
            row[4] += wrong
            flag = "ok" if right and (item.expect == "accepted" or ok) and not wrong else "FAIL"
            print(f"{flag} {item.key}: {report.verdict.value}; {said}")
    print("| problem | files | accepted | rejected | named | misnamed |\n|---|---|---|---|---|---|")
    for problem, (n, acc, rej, nam, mis) in rows.items():
        print(f"| {problem} | {n} | {acc} | {rej} | {nam} | {mis} |")
    total = [sum(r[k] for r in rows.values()) for k in range(5)]
    print(f"| all | {' | '.join(map(str, total))} |")
