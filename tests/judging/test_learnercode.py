"""The learner-written corpus (tests/learnercode): every file declared, and a few judged as a learner meets them.

The whole corpus is judged by `python benchmarks/learner_mistakes.py` (its figures are in docs/benchmarks.md); here the
manifest is checked for form, and three files are judged: one mistake a trap names, two mistakes on two keys
named side by side, and a NaN whose cause the finite check does not guess.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from judge.base.submission import Submission
from judge.judging.session import Judge

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "learnercode"
MANIFEST = yaml.safe_load((CORPUS / "manifest.yaml").read_text(encoding="utf-8"))


def test_every_file_is_declared_and_every_declaration_has_a_file():
    files = {(p.parent.name, p.stem) for p in CORPUS.glob("*/*.py")}
    declared = {(problem, stem) for problem, stems in MANIFEST.items() for stem in stems}
    assert files == declared
    problems = {p.stem for p in (REPO / "problems").glob("*.yaml")}
    assert set(MANIFEST) == problems   # every problem of the course has learner-written wrong files
    for problem, stems in MANIFEST.items():
        for stem, mistakes in stems.items():
            assert len(mistakes) in (1, 2), (problem, stem)
            for mistake in mistakes:
                assert mistake["what"] and mistake["by"], (problem, stem)
                for pattern in mistake["by"]:
                    re.compile(pattern.partition("~")[2] or pattern.partition(":")[2] or ".")


def _named(problem: str, stem: str) -> set[str]:
    with Judge(REPO, record=False) as judge:
        report = judge.submit(problem, Submission.from_file(CORPUS / problem / f"{stem}.py"), record=False)
    assert report.verdict.value == "wrong_answer"
    return {m.name for t in report.tests for m in t.mistakes}


@pytest.mark.parametrize("problem, stem, names", [
    ("self_attention", "scaled_by_model_width", {"scaled_by_model_width"}),
    ("patchify", "channels_last_and_xy", {"channels_last_flatten", "xy_coordinates"}),
    ("random_masking", "restore_is_shuffle_and_mask_shuffled", {"ids_restore_is_ids_shuffle", "mask_in_shuffled_order"}),
])
def test_a_learner_written_file_is_told_its_mistakes_and_nothing_else(problem, stem, names):
    assert _named(problem, stem) == names
