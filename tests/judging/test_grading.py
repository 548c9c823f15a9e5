"""judge/judging/grading.py: what a learner reads when a test fails, and when results arrive.

Each test's result is handed over as soon as it is decided (the web page streams them). A
hint is shown only for the failure it explains, a file that does not load is reported once,
and a mistake named on one test is not repeated on the next.
"""
from __future__ import annotations

import time
from pathlib import Path

from judge.render import render_text
from judge.base.submission import Submission

REPO = Path(__file__).resolve().parents[2]
HELDOUT = REPO / "tests" / "heldout"
KNOWN = REPO / "submissions"


def _messages(report) -> str:
    return "\n".join(t.text for t in report.tests)


def test_a_file_that_does_not_compile_is_reported_once(judge, tmp_path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("def patchify(:\n    pass\n")
    report = judge.run("patchify", path)
    assert report.verdict.value == "compile_error" and report.total > 20
    assert _messages(report).count("SyntaxError") == 1
    assert all(t.not_run and t.message == "not run: the file failed to load (see the first test)"
               for t in report.tests[1:])
    assert not report.tests[0].not_run
    text = render_text(report)
    assert text.count("SyntaxError") == 1 and f"{report.total - 1} more tests not run" in text


def test_an_import_that_hangs_is_reported_once(judge, tmp_path) -> None:
    path = tmp_path / "hangs.py"
    path.write_text("while True:\n    pass\n")
    report = judge.run("patchify", path)
    assert report.verdict.value == "time_limit_exceeded"
    # a loop at import: its CPU time runs out (or, on a machine too busy to run it, the wall clock's backstop)
    assert sum("took longer" in t.message or "by the wall clock" in t.message for t in report.tests) == 1


def test_a_hint_is_shown_only_for_the_failure_it_explains(judge) -> None:
    cropping = judge.run("patchify", KNOWN / "patchify" / "wrong_answer" / "silent_cropping.py")
    assert "instead of silently cropping" in _messages(cropping)
    padding = judge.run("patchify", HELDOUT / "patchify" / "pads_remainder.py")
    assert padding.verdict.value == "wrong_answer" and "crop" not in _messages(padding)


def test_a_clamped_logit_scale_is_not_told_to_use_cross_entropy(judge) -> None:
    report = judge.run("clip_loss", HELDOUT / "clip_loss" / "clamped_logit_scale.py")
    failing = {t.name for t in report.tests if t.verdict.value != "accepted"}
    assert "tiny_temperature_aligned_pairs" in failing
    assert "cross_entropy" not in _messages(report)
    overflowing = judge.run("clip_loss", KNOWN / "clip_loss" / "wrong_answer" / "naive_exp.py")
    assert "exp overflows float32: use cross_entropy" in _messages(overflowing)


def test_label_smoothing_gets_no_unrelated_hint(judge) -> None:
    report = judge.run("clip_loss", HELDOUT / "clip_loss" / "label_smoothing.py")
    assert "exp overflows" not in _messages(report) and "a zero row" not in _messages(report)
    assert "label smoothing" in report.first_failure.mistake.message


def test_a_diagnosis_is_said_once_then_referred_to(judge) -> None:
    report = judge.run("info_nce", HELDOUT / "info_nce" / "mean_over_pairs.py")
    # Property checks that fail because their own output is wrong are not diagnosed: on their inputs a
    # trap can coincide with an unrelated mistake (integer outputs), so only value tests name mistakes.
    failing = [t for t in report.tests if t.verdict.value != "accepted" and t.group != "check"]
    assert len(failing) > 5
    named = [line for line in _messages(report).splitlines() if line.startswith("what went wrong: `")
             or line.startswith("what went wrong: the returned value")]
    assert named and len(named) == len(set(named)), named  # each diagnosis in full once
    repeated = [t for t in failing if t.mistake is not None and t.mistake.repeated]
    assert len(repeated) >= len(failing) - len(named)
    assert all("the same mistake as named above" in t.text for t in repeated)


def test_a_trap_is_named_when_it_gives_every_failing_output(judge) -> None:
    report = judge.run("random_masking", KNOWN / "random_masking" / "wrong_answer" / "ids_restore_is_ids_shuffle.py")
    assert report.first_failure.mistake.name == "ids_restore_is_ids_shuffle"


def test_a_trap_matching_one_degenerate_test_but_not_another_is_not_named(judge) -> None:
    """NaN scores argmax to class 0 as the all-zero scores of a ridge without intercept do, on
    constant features only; on another failing test that trap gives other predictions, so it is not named."""
    report = judge.run("linear_probe", KNOWN / "linear_probe" / "wrong_answer" / "no_zero_std_guard.py")
    failing = [t for t in report.tests if t.verdict.value != "accepted"]
    assert len(failing) >= 2
    assert all(t.mistake is None for t in failing), [t.mistake for t in failing]


def test_a_value_returned_instead_of_an_error_can_name_the_mistake(judge) -> None:
    report = judge.run("info_nce", KNOWN / "info_nce" / "wrong_answer" / "drop_unpaired_row.py")
    first = report.first_failure
    assert first.name == "rejects_odd_rows" and "returned a value instead of raising ValueError" in first.message
    assert first.mistake.known and "the unpaired last row was dropped silently" in first.mistake.message
    assert "the unpaired last row was dropped silently" not in first.message  # a field, not message text


# Sleeps only on the batch_of_five hidden test (5 images), so results before it are decided early.
SLOW_LATE = '''
import time
import torch


def patchify(images, patch_height, patch_width):
    if images.ndim == 4 and images.shape[0] == 5:
        time.sleep(1.0)
    if images.ndim != 4 or not (type(patch_height) is int and type(patch_width) is int) \\
            or patch_height <= 0 or patch_width <= 0 or images.shape[2] % patch_height or images.shape[3] % patch_width:
        raise ValueError("bad input")
    b, c, h, w = images.shape
    gh, gw = h // patch_height, w // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width).permute(0, 2, 4, 1, 3, 5)
    rows, cols = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return {"tokens": x.reshape(b, gh * gw, c * patch_height * patch_width),
            "coordinates": torch.stack([rows.flatten(), cols.flatten()], 1)}
'''


def test_results_arrive_in_order_as_each_test_is_decided(judge):
    problem = judge.problem("patchify")
    arrived: list[tuple[float, str]] = []
    started = time.monotonic()
    report = judge.submit("patchify", Submission.from_text(SLOW_LATE, "slow.py"), on_result=lambda t: arrived.append((time.monotonic(), t.name)))
    finished = time.monotonic()
    assert report.accepted, report.first_failure
    assert [name for _, name in arrived] == [t.name for t in report.tests]  # every test, in report order
    slow = [name for _, name in arrived].index("batch_of_five")
    before_slow = arrived[slow - 1][0]
    # The tests before the slow one were handed over about a second before the run ended.
    assert finished - before_slow > 0.8, (before_slow - started, finished - started)


def test_without_a_listener_the_report_is_the_same(judge):
    problem = judge.problem("patchify")
    streamed = judge.submit("patchify", Submission.from_text(SLOW_LATE.replace("time.sleep(1.0)", "pass"), "a.py"),
                                               on_result=lambda t: None)
    plain = judge.submit("patchify", Submission.from_text(SLOW_LATE.replace("time.sleep(1.0)", "pass"), "a.py"))
    assert [(t.name, t.verdict, t.text) for t in streamed.tests] == [(t.name, t.verdict, t.text) for t in plain.tests]


class _StoppedAtTheLimit:
    """A sandbox whose every call the judge stopped after `ms` milliseconds: no observation came back."""

    def __init__(self, ms: float) -> None:
        self.ms = ms

    def run(self, program, calls, limits, on_progress=None, node_limits=None):
        from judge.runs.contract import CallOutcome, Death, Kill, RunResult

        # The facts of a kill for time (SIGKILL from the judge); judge.runs.decisions makes it time_limit_exceeded.
        return RunResult(outcomes=[CallOutcome(death=Death(kill=Kill.CALL_TIME, signal=9, cpu_s=1.0), time_ms=self.ms)
                                   for _ in calls])


def test_a_test_stopped_at_its_time_limit_reports_the_time_the_judge_measured() -> None:
    """Not 0 ms: the time of a call with no observation is the judge's measure of it."""
    from judge.model import problem as problems
    from judge.model.cases import build_case
    from judge.runs.contract import Limits, Program
    from judge.runs.calls import Observation
    from judge.judging.grading import grade

    problem = problems.load_problem(REPO, "patchify")
    case = build_case(problem, problem.examples[0])
    expected = {name: Observation(value=1.0) for name in case.calls}
    program = Program("def patchify(*a):\n    while True: pass\n", "s.py", problem.entry_point)
    report = grade(problem, [case], [expected], program, "s.py", _StoppedAtTheLimit(1003.5), Limits(time_s=1.0))
    (test,) = report.tests
    assert test.verdict.value == "time_limit_exceeded" and test.time_ms == 1003.5
    assert test.message == "this test took longer than the time limit of 1 s of CPU time"


class _ToldOfTampering(_StoppedAtTheLimit):
    """The same run, whose child said (twice) that a trace function was left set."""

    def run(self, program, calls, limits, on_progress=None, node_limits=None):
        run = super().run(program, calls, limits, on_progress, node_limits)
        run.tampering = ["a trace function was left set", "a trace function was left set"]
        return run


def test_tampering_is_the_source_scan_and_what_the_child_said_and_changes_no_verdict() -> None:
    from judge.model import problem as problems
    from judge.model.cases import build_case
    from judge.runs.contract import Limits, Program
    from judge.runs.calls import Observation
    from judge.judging.grading import grade

    problem = problems.load_problem(REPO, "patchify")
    case = build_case(problem, problem.examples[0])
    expected = {name: Observation(value=1.0) for name in case.calls}
    source = "import gc\n\ndef patchify(*a):\n    gc.get_objects()\n    while True: pass\n"
    report = grade(problem, [case], [expected], Program(source, "s.py", problem.entry_point), "s.py",
                   _ToldOfTampering(1003.5), Limits(time_s=1.0))
    assert report.tampering == ("line 4: walks the garbage collector's objects (gc.get_objects)",
                                "a trace function was left set")
    assert report.verdict.value == "time_limit_exceeded"  # as without it
    honest = grade(problem, [case], [expected], Program("def patchify(*a):\n    pass\n", "s.py", problem.entry_point),
                   "s.py", _StoppedAtTheLimit(1003.5), Limits(time_s=1.0))
    assert honest.tampering == ()


class _InputsZeroedLater:
    """An in-process run whose outcomes are all reported final as each call ends, and then the sandbox's last
    look at its arena finds every array argument zeroed: each outcome is replaced (a new object, as the
    runner replaces an outcome it revises) after the tests were judged on it."""

    def __init__(self) -> None:
        from inprocess import InProcessBackend  # tests/inprocess.py

        self.inner = InProcessBackend()

    def run(self, program, calls, limits, *, on_progress=None, node_limits=None):
        from dataclasses import replace

        import numpy as np

        from judge.base.encoding import Array

        result = self.inner.run(program, calls, limits)
        for done in range(1, len(calls) + 1):
            if on_progress is not None:
                on_progress(result, done)
        for i, (call, outcome) in enumerate(zip(calls, result.outcomes)):
            zeroed = tuple(Array(np.zeros_like(a.data), a.library, a.dtype) if isinstance(a, Array) and not a.scalar
                           else a for a in call.args)
            result.outcomes[i] = replace(outcome, observation=replace(outcome.observation, inputs_after=zeroed))
        return result

    def warm(self, frameworks) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_test_judged_while_the_run_went_on_is_judged_again_when_its_outcome_is_revised() -> None:
    """An input changed after its call (seen when the sandbox looks at its arena again, up to the run's end)
    fails the mutation test even though that test was judged, and streamed, before the change was seen."""
    from judge.judging.session import Judge

    rows = REPO / "tests" / "attacks" / "problem_set"
    honest = Submission.from_text("def double_rows(x):\n    if x.ndim != 2:\n        raise ValueError('2-D')\n"
                                  "    return x * 2\n", "honest.py")
    with Judge(rows, backend=_InputsZeroedLater(), record=False) as judge:
        streamed: list = []
        for report in (judge.submit("rows", honest), judge.submit("rows", honest, on_result=streamed.append)):
            verdicts = {t.name: t.verdict.value for t in report.tests}
            assert verdicts["mutation_5x2"] == "wrong_answer", verdicts
            assert "modified in place" in next(t.message for t in report.tests if t.name == "mutation_5x2")
            assert verdicts["values_3x4"] == "accepted"  # no mutation check: its inputs are not its verdict
        assert {t.name: t.verdict.value for t in streamed}["mutation_5x2"] == "accepted"  # as it was streamed
