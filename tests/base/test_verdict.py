"""judge/base/outcomes.py: the verdict vocabulary and the one rule from a known submission's folder to its verdict."""
from __future__ import annotations

from pathlib import Path

from judge.base.outcomes import FOLDER_ALIASES, Verdict, folder_names, folder_verdict

REPO = Path(__file__).resolve().parents[2]


def test_every_verdict_is_a_folder_named_by_its_value() -> None:
    for verdict in Verdict:
        assert folder_verdict(verdict.value) is verdict


def test_run_time_error_is_the_documented_alias_of_runtime_error() -> None:
    # shared/spec/judge.md promises submissions/<id>/run_time_error/
    assert FOLDER_ALIASES == {"run_time_error": Verdict.RUNTIME_ERROR}
    assert folder_verdict("run_time_error") is Verdict.RUNTIME_ERROR


def test_any_other_folder_name_has_no_verdict() -> None:
    for name in ("wrong", "Accepted", "runtime-error", "", "RUNTIME_ERROR", "short"):
        assert folder_verdict(name) is None, name
    assert folder_names() == [v.value for v in Verdict] + ["run_time_error"]


def test_every_shipped_submission_folder_is_named_by_the_rule() -> None:
    folders = {p.name for p in (REPO / "submissions").glob("*/*") if p.is_dir()}
    assert folders and all(folder_verdict(name) is not None for name in folders), folders
    assert "run_time_error" in folders   # the documented name stays in use
