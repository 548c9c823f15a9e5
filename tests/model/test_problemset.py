"""The problem set: what there is to solve, listed with your status; broken files named, not fatal."""
from __future__ import annotations

from pathlib import Path

from judge.model.problemset import ProblemSet
from judge.learner.progress import ProgressStore
from problemsets import copy_problems


def _two_problems(tmp_path: Path) -> Path:
    return copy_problems(tmp_path / "set", "patchify", "vit_cost")


def test_listing_names_a_broken_problem_and_lists_the_others(tmp_path):
    root = _two_problems(tmp_path)
    (root / "problems" / "vit_cost.yaml").write_text("id: vit_cost\ntitle: [unclosed\n")
    store = ProgressStore(tmp_path / "p.sqlite3")
    listing = ProblemSet(root).listing(store)
    assert [e.problem.id for e in listing.entries] == ["patchify"]
    assert [b.id for b in listing.broken] == ["vit_cost"] and "vit_cost.yaml" in listing.broken[0].error
    assert listing.entries[0].status == "new" and listing.warning is None
    store.record(problem="patchify", verdict="wrong_answer", passed=1, total=3, examples_only=False,
                 source="x = 1\n", submission="a.py", time_ms=1.0)
    entry = ProblemSet(root).listing(store).entries[0]
    assert entry.to_json() == {"id": "patchify", "title": entry.problem.title, "difficulty": "easy",
                               "tags": list(entry.problem.tags), "framework": "torch", "status": "attempted",
                               "pack": ""}


def test_an_unusable_progress_database_is_a_warning_not_an_error(tmp_path):
    bad = tmp_path / "p.sqlite3"
    bad.write_bytes(b"not a database" * 100)
    listing = ProblemSet(_two_problems(tmp_path)).listing(ProgressStore(bad))
    assert {e.status for e in listing.entries} == {"new"} and "corrupted" in listing.warning


def test_the_stamp_changes_with_any_edit(tmp_path):
    problems = ProblemSet(_two_problems(tmp_path))
    before = problems.stamp()
    reference = problems.root / "hidden_tests" / "vit_cost" / "reference.py"
    reference.write_text(reference.read_text() + "\n# edited\n")
    assert problems.stamp() != before
