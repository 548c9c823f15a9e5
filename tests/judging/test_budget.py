"""judge/judging/budget.py: a wrong answer's report does not wait for the whole diagnosis, and the rest follows.

The diagnoses here are stand-ins that finish when a test lets them (an Event), so every rule is seen without
timing anything: what the first report gets, what is handed on later, and when nothing is.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from judge.base.submission import Submission
from judge.judging import grading
from judge.judging.budget import Budget, Diagnosing, Refinement, RunCosts
from judge.judging.session import Judge

REPO = Path(__file__).resolve().parents[2]


def _slow(gate: threading.Event, value: str):
    def make() -> str:
        gate.wait(10)
        return value
    return make


def test_a_diagnosis_made_in_time_is_the_report_and_nothing_follows():
    budget = Budget(lambda report: None, first=1.0, floor_s=1.0)
    diagnosing = Diagnosing(budget, time.perf_counter(), lambda: "quick", lambda: "deep")
    assert diagnosing.wait() == "deep"
    assert diagnosing.complete


def test_the_first_report_has_what_is_ready_and_the_deep_diagnosis_follows():
    deep_may_end = threading.Event()
    budget = Budget(lambda report: None, first=0.0, floor_s=0.2, last=None)
    diagnosing = Diagnosing(budget, time.perf_counter(), lambda: "quick", _slow(deep_may_end, "deep"))
    assert diagnosing.wait() == "quick"
    assert not diagnosing.complete
    handed = Refinement()
    diagnosing.then(handed.put)
    deep_may_end.set()
    assert handed.wait(10) == "deep"


def test_nothing_is_ready_by_the_deadline_the_report_has_the_verdict_alone():
    quick_may_end = threading.Event()
    budget = Budget(lambda report: None, first=0.0, floor_s=0.05, last=None)
    diagnosing = Diagnosing(budget, time.perf_counter(), _slow(quick_may_end, "quick"), lambda: "deep")
    assert diagnosing.wait() is None
    quick_may_end.set()


def test_a_refinement_later_than_the_last_deadline_is_not_handed_on():
    never = threading.Event()
    budget = Budget(lambda report: None, first=0.0, floor_s=0.05, last=0.0, last_floor_s=0.1)
    diagnosing = Diagnosing(budget, time.perf_counter(), lambda: "quick", _slow(never, "deep"))
    assert diagnosing.wait() == "quick"
    handed = Refinement()
    diagnosing.then(handed.put)
    assert handed.wait(10) is None     # said at the last deadline: nothing more is coming
    never.set()


def test_a_slow_files_budget_is_what_an_accepted_run_of_its_problem_costs():
    # A file that imports scipy pays for its import in its own run, not with a longer wait for its diagnosis:
    # the yardstick is the cheapest run of the problem seen, this one included.
    costs = RunCosts()
    assert Budget(lambda report: None, started=10.0, costs=costs).cost(10.2) == pytest.approx(0.2)
    assert Budget(lambda report: None, started=20.0, costs=costs).cost(21.0) == pytest.approx(0.2)
    assert Budget(lambda report: None, started=30.0).cost(31.0) == pytest.approx(1.0)   # no yardstick: its own


@pytest.fixture
def judge_with_slow_diagnosis(monkeypatch):
    """info_nce's summed loss judged with a budget no diagnosis can meet: the verdict comes first."""
    explained = grading._explain_wrong_values

    def slow(*args, **kwargs):
        time.sleep(0.5)
        return explained(*args, **kwargs)

    monkeypatch.setattr(grading, "_explain_wrong_values", slow)
    handed = Refinement()
    with Judge(REPO, record=False) as judge:
        source = (REPO / "submissions" / "info_nce" / "wrong_answer" / "sum_not_mean.py").read_text()
        report = judge.submit("info_nce", Submission(source, "sum_not_mean.py"), record=False,
                              budget=Budget(handed.put, first=0.0, floor_s=0.01, last=None))
        yield report, handed


def test_a_judge_reports_a_wrong_answer_as_refining_and_hands_the_refinement_on(judge_with_slow_diagnosis):
    report, handed = judge_with_slow_diagnosis
    assert report.verdict.value == "wrong_answer" and report.refining
    assert not any(t.mistakes for t in report.tests)        # the diagnosis was not ready
    refined = handed.wait(60)
    assert refined is not None and not refined.refining
    assert any(m.name == "sum_not_mean" for t in refined.tests for m in t.mistakes)
