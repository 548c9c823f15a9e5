"""`judge progress`: progress at a glance, export / import / reset (judge/learner/overview.py, judge/learner/progress.py)."""
from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.learner.overview import overview, streak
from judge.model.problem import load_problem, problem_ids
from judge.learner.progress import ProgressStore
from judge.learner.units import load_units

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_HOME": str(home)}
    env.pop("JUDGE_PROBLEMS_DIR", None)
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", *args], cwd=REPO, env=env,
                          input=stdin, capture_output=True, text=True, timeout=180)


def test_streak_counts_days_in_a_row_ending_today_or_yesterday() -> None:
    today = dt.date(2026, 12, 3)
    day = dt.timedelta(days=1)
    assert streak([], today) == 0
    assert streak([today], today) == 1
    assert streak([today - 2 * day, today - day], today) == 2          # today is not over yet
    assert streak([today - 3 * day, today - day, today], today) == 2   # a gap ends the streak
    assert streak([today - 2 * day], today) == 0


def _record(store: ProgressStore, problem: str, verdict: str, at: float) -> None:
    store.record(problem=problem, verdict=verdict, passed=1, total=1, examples_only=False, source="x",
                 submission="x.py", time_ms=1.0, at=at)


def test_overview_counts_and_suggests_the_next_problem(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path / "p.sqlite3")
    problems = [load_problem(REPO, pid) for pid in problem_ids(REPO)]
    noon = dt.datetime(2026, 12, 3, 12).timestamp()
    _record(store, "patchify", "accepted", noon)
    _record(store, "clip_loss", "wrong_answer", noon - 86400)
    seen = overview(problems, [], store, today=dt.date(2026, 12, 3))
    assert seen.solved == ["patchify"] and seen.attempts == 2 and seen.streak_days == 2
    assert seen.next_problem[0] == "clip_loss"  # started and not solved comes first
    tags = {t: (s, n) for t, s, n in seen.tags}
    assert tags["vit"][0] == 1 and tags["vit"][1] >= 2


def test_overview_follows_the_first_unit_not_passed(tmp_path: Path) -> None:
    units = load_units(REPO)
    if not units:
        pytest.skip("no units shipped")
    store = ProgressStore(tmp_path / "p.sqlite3")
    problems = [load_problem(REPO, pid) for pid in problem_ids(REPO)]
    _record(store, units[0].problems[0], "accepted", 1.0)
    seen = overview(problems, units, store)
    assert seen.next_problem == (units[0].problems[1], f"unit {units[0].id}, next in order")
    assert seen.units[0][:4] == (units[0].id, units[0].title, 1, len(units[0].problems))


def test_export_import_and_reset_keep_data_safe(tmp_path: Path) -> None:
    home, other = tmp_path / "home", tmp_path / "other"
    store = ProgressStore(home / "progress.sqlite3")
    _record(store, "patchify", "accepted", 1.0)
    store.record_event(problem="patchify", kind="hint", detail="2")
    store.record_answer(unit="5.5", question="patches_224", answer="196", correct=True)
    exported = tmp_path / "progress.json"
    assert cli("progress", "--export", str(exported), home=home).returncode == 0
    data = json.loads(exported.read_text())
    assert data["format"] == "tensor-judge-progress" and data["attempts"][0]["source"] == "x"
    first = cli("progress", "--import", str(exported), home=other)
    assert first.returncode == 0 and "imported 3 record(s)" in first.stdout
    again = cli("progress", "--import", str(exported), home=other)
    assert "imported 0 record(s)" in again.stdout and "3 already here" in again.stdout
    assert ProgressStore(other / "progress.sqlite3").export()["attempts"] == data["attempts"]
    # A malformed export changes nothing.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**data, "attempts": [{"problem": 3}]}))
    refused = cli("progress", "--import", str(bad), home=other)
    assert refused.returncode == 2 and "attempts[0].problem" in refused.stderr
    assert len(ProgressStore(other / "progress.sqlite3").attempts()) == 1
    # Reset asks; without a terminal it needs --yes.
    no = cli("progress", "--reset", home=home, stdin="")
    assert no.returncode == 2 and "--yes" in no.stderr
    assert len(store.attempts()) == 1
    yes = cli("progress", "--reset", "--yes", home=home)
    assert yes.returncode == 0 and "deleted 3 record(s)" in yes.stdout
    assert store.attempts() == [] and store.answers("5.5") == {} and store.hint_level("patchify") == 0


def test_progress_text_names_the_next_step(tmp_path: Path) -> None:
    result = cli("progress", home=tmp_path / "home")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0].startswith("solved 0 of ")
    assert "next: " in result.stdout and "judge start " in result.stdout


def test_a_units_tag_counts_what_the_unit_lists(tmp_path: Path) -> None:
    """The tag unit-5.5 and the unit's own line give one count: the unit's problems."""
    units = load_units(REPO)
    store = ProgressStore(tmp_path / "p.sqlite3")
    problems = [load_problem(REPO, pid) for pid in problem_ids(REPO)]
    for unit in units:
        _record(store, unit.problems[0], "accepted", 1.0)
        _record(store, unit.problems[-1], "accepted", 1.0)
    seen = overview(problems, units, store)
    tags = {t: (s, n) for t, s, n in seen.tags}
    for uid, _, solved, in_unit, *_ in seen.units:
        assert tags.get(f"unit-{uid}", (solved, in_unit)) == (solved, in_unit) == (2, len(
            next(u for u in units if u.id == uid).problems))


def test_progress_is_a_short_summary_and_tags_come_with_a_flag(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _record(ProgressStore(home / "progress.sqlite3"), "patchify", "accepted", 1.0)
    short = cli("progress", home=home)
    assert short.returncode == 0 and "judge progress --tags" in short.stdout
    assert "\ntags\n" not in short.stdout and len(short.stdout.splitlines()) <= 15, short.stdout
    full = cli("progress", "--tags", home=home).stdout
    assert "\ntags\n" in full and len(full.splitlines()) > 30
    assert json.loads(cli("progress", "--json", home=home).stdout)["tags"]   # --json keeps every tag


def test_listing_by_a_units_tag_lists_the_units_problems(tmp_path: Path) -> None:
    unit = next(u for u in load_units(REPO) if u.id == "5.5")
    listed = json.loads(cli("list", "--tag", "unit-5.5", "--json", home=tmp_path).stdout)
    assert sorted(p["id"] for p in listed) == sorted([*unit.problems, *unit.extras])
