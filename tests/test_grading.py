"""judge/grading.py: what a learner reads when a test fails (issue 12).

A hint is shown only for the failure it explains, a file that does not load
is reported once, and a mistake named on one test is not repeated on the next.
"""
from __future__ import annotations

from pathlib import Path

from judge.report import render_text

REPO = Path(__file__).resolve().parent.parent
HELDOUT = REPO / "tests" / "heldout"
KNOWN = REPO / "submissions"


def _messages(report) -> str:
    return "\n".join(t.message for t in report.tests)


def test_a_file_that_does_not_compile_is_reported_once(judge, tmp_path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("def patchify(:\n    pass\n")
    report = judge.run("patchify", path)
    assert report.verdict.value == "compile_error" and report.total > 20
    assert _messages(report).count("SyntaxError") == 1
    assert all(t.message == "not run: the file failed to load (see the first test)"
               for t in report.tests[1:])
    text = render_text(report)
    assert text.count("SyntaxError") == 1 and f"{report.total - 1} more tests not run" in text


def test_an_import_that_hangs_is_reported_once(judge, tmp_path) -> None:
    path = tmp_path / "hangs.py"
    path.write_text("while True:\n    pass\n")
    report = judge.run("patchify", path)
    assert report.verdict.value == "time_limit_exceeded"
    assert sum("took longer" in t.message for t in report.tests) == 1


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


def test_label_smoothing_gets_no_zero_row_hint(judge) -> None:
    report = judge.run("clip_loss", HELDOUT / "clip_loss" / "label_smoothing.py")
    assert "zero_embedding_row" in {t.name for t in report.tests if t.verdict.value != "accepted"}
    assert "a zero row has norm 0" not in _messages(report)
    assert "label smoothing" in report.first_failure.message


def test_a_diagnosis_is_said_once_then_referred_to(judge) -> None:
    report = judge.run("info_nce", HELDOUT / "info_nce" / "mean_over_pairs.py")
    failing = [t for t in report.tests if t.verdict.value != "accepted"]
    assert len(failing) > 5
    named = [line for line in _messages(report).splitlines() if line.startswith("what went wrong: `")
             or line.startswith("what went wrong: the returned value")]
    assert named and len(named) == len(set(named)), named  # each diagnosis in full once
    assert sum("the same mistake as named above" in t.message for t in failing) >= len(failing) - len(named)


def test_a_trap_is_named_where_it_matches_even_if_not_everywhere(judge) -> None:
    """This trap reproduces its submission only on degenerate ratios; there it is named."""
    report = judge.run("random_masking", KNOWN / "random_masking" / "wrong_answer" / "ids_restore_is_ids_shuffle.py")
    assert "this matches a known mistake: " in _messages(report)


def test_a_value_returned_instead_of_an_error_can_name_the_mistake(judge) -> None:
    report = judge.run("info_nce", KNOWN / "info_nce" / "wrong_answer" / "drop_unpaired_row.py")
    first = report.first_failure
    assert first.name == "rejects_odd_rows" and "returned a value instead of raising ValueError" in first.message
    assert "the unpaired last row was dropped silently" in first.message
