"""Text rendering of reports (judge/render/text.py) and side-by-side example values (judge/render/sidebyside.py)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from judge.model.problem import Tolerance
from judge.render import render_text, use_colour
from judge.base.report import Mistake, Report, Shown
from judge.base.report import TestResult as Result  # (not a pytest test class)
from judge.base.outcomes import NOT_ATTEMPTED, Verdict
from judge.base.encoding import Array
from judge.base.submission import Submission

ANSI = re.compile(r"\x1b\[[0-9;]*m")
REPO_SUBMISSION = Path(__file__).resolve().parents[2] / "submissions" / "patchify" / "accepted" / "reshape_permute.py"

COLUMN_MAJOR = '''
import torch

def patchify(images, patch_height, patch_width):
    B, C, H, W = images.shape
    gh, gw = H // patch_height, W // patch_width
    t = images.reshape(B, C, gh, patch_height, gw, patch_width).permute(0, 4, 2, 1, 3, 5).reshape(B, gh * gw, -1)
    r = torch.arange(gh).repeat_interleave(gw)
    c = torch.arange(gw).repeat(gh)
    return {"tokens": t, "coordinates": torch.stack([r, c], 1)}
'''


def arr(values, dtype="float32") -> Array:
    return Array(np.asarray(values, dtype=dtype), "torch", dtype)


def example(expected, actual, verdict=Verdict.WRONG_ANSWER, message="`out` differs", tol=Tolerance(0.0, 0.0)):
    shown = Shown(inputs=(("x", None, arr([1.0, 2.0])),), expected=expected, actual=actual, tolerance=tol)
    return Result("small_example", "example", verdict, message, 1.5, ("Index | Obtained | Expected",), shown)


def test_table_marks_times_messages_and_final_line():
    report = Report("p", "sol.py", [
        Result("first", "example", Verdict.ACCEPTED, "", 1.25),
        Result("second_hidden", "hidden", Verdict.WRONG_ANSWER, "`out` has shape (2,); expected (3,)", 2.0),
        Result("ordering", "check", Verdict.TIME_LIMIT_EXCEEDED, "took longer than 2 s", 2000.0),
    ], time_ms=2010.0)
    text = render_text(report)
    lines = text.splitlines()
    assert "test" in lines[0] and "verdict" in lines[0] and "time" in lines[0]
    assert "public examples" in lines and "hidden tests" in lines and "property checks" in lines
    assert re.search(r"✓ first\s+accepted\s+1\.2 ms", text) or re.search(r"✓ first\s+accepted\s+1\.3 ms", text)
    assert re.search(r"✗ second_hidden\s+wrong_answer\s+2\.0 ms", text)
    assert "      `out` has shape (2,); expected (3,)" in lines
    assert lines[-1] == "✗ wrong_answer: 1/3 tests passed in 2.01 s"
    assert not ANSI.search(text)                                   # no colour unless asked


def test_colour_codes_only_when_asked():
    report = Report("p", "sol.py", [Result("t", "example", Verdict.ACCEPTED)], time_ms=5.0)
    coloured = render_text(report, colour=True)
    assert "\x1b[32m" in coloured and ANSI.sub("", coloured) == render_text(report)


class FakeStream:
    def __init__(self, tty: bool):
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_use_colour_terminal_and_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert use_colour(FakeStream(True))
    assert not use_colour(FakeStream(False))
    assert not use_colour(None)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(FakeStream(True))
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not use_colour(FakeStream(True))


def test_small_tensors_side_by_side_with_mismatches_marked():
    expected = {"out": arr([[0, 1], [2, 3]])}
    actual = {"out": arr([[0, 1], [3, 2]])}
    text = render_text(Report("p", "s.py", [example(expected, actual)]))
    assert "x = " in text                                               # the inputs
    assert "out: shape (2, 2) float32; 2 of 4 entries differ (marked *)" in text
    rows = [line for line in text.splitlines() if line.strip().startswith("[ ")]
    assert rows == ["          [ 0  1 ]    [ 0  1 ]", "          [ 3* 2*]    [ 2* 3*]"]
    assert "Index | Obtained" not in text       # the diff replaces the check's table for small values


def test_marks_respect_the_tolerance():
    expected, actual = {"out": arr([1.0, 2.0])}, {"out": arr([1.0005, 2.5])}
    text = render_text(Report("p", "s.py", [example(expected, actual, tol=Tolerance(rtol=1e-3, atol=0.0))]))
    assert "1 of 2 entries differ" in text
    assert "[   1  2.5*]    [   1    2*]" in text    # 1.0005 is within rtol: not marked


def test_large_values_show_the_part_around_their_first_difference():
    big = np.zeros((10, 10), dtype="float32")
    wrong = big.copy()
    wrong[7, 5] = 1
    text = render_text(Report("p", "s.py", [example({"out": arr(big)}, {"out": arr(wrong)})]))
    assert "over 64 entries" not in text   # the wrong entry is shown, not hidden behind a summary
    assert "1 of 100 entries differ; the part around the first, [4:10, 2:10] (marked *)" in text
    assert "1*" in text and "0*" in text   # yours beside the expected one, marked


def test_a_matching_leaf_beside_a_wrong_one_is_one_line():
    right = np.arange(8, dtype="float32").reshape(4, 2)
    text = render_text(Report("p", "s.py", [example({"tokens": arr([1.0, 2.0]), "coordinates": arr(right)},
                                                    {"tokens": arr([1.0, 3.0]), "coordinates": arr(right)})]))
    assert "coordinates: shape (4, 2) float32; matches" in text
    assert "[ 0  1 ]" not in text   # the right part is not drawn in full


def test_shape_mismatch_missing_key_and_plain_values():
    expected = {"out": arr([1.0, 2.0, 3.0]), "count": 3, "extra_needed": arr([1])}
    actual = {"out": arr([1.0, 2.0]), "count": 4, "surplus": 1}
    text = render_text(Report("p", "s.py", [example(expected, actual)]))
    assert "out: yours shape (2,) float32, expected shape (3,) float32" in text
    assert "yours (2,):" in text and "expected (3,):" in text
    assert "count: yours 4  expected 3" in text   # one number beside another: no mark to explain
    assert "extra_needed: missing from your output" in text
    assert "surplus: not expected" in text


def test_passing_examples_show_values_only_with_values_flag():
    ok = example({"out": arr([1.0])}, {"out": arr([1.0])}, verdict=Verdict.ACCEPTED, message="")
    report = Report("p", "s.py", [ok])
    assert "inputs:" not in render_text(report)
    text = render_text(report, values=True)
    assert "inputs:" in text and "matches" in text and text.endswith("(public examples only)")


def test_hidden_tests_never_show_values():
    hidden = Result("h", "hidden", Verdict.WRONG_ANSWER, "wrong", 1.0, ("secret detail",), None)
    text = render_text(Report("p", "s.py", [hidden]), values=True, verbose=False)
    assert "secret detail" not in text and "inputs:" not in text


def test_not_attempted_is_one_short_summary():
    tests = [Result(f"t{i}", "hidden", Verdict.RUNTIME_ERROR, f"{NOT_ATTEMPTED}: the function still raises "
                        "NotImplementedError", 0.1, not_attempted=True) for i in range(5)]
    report = Report("patchify", "patchify.py", tests)
    assert report.not_attempted
    text = render_text(report)
    assert text.startswith("not attempted yet")
    assert "judge run patchify patchify.py --examples" in text
    assert text.splitlines()[-1].endswith("0/5 tests passed in 0.00 s (not attempted yet)")
    assert len(text.splitlines()) == 4
    partly = Report("patchify", "p.py", tests + [Result("ok", "hidden", Verdict.ACCEPTED)])
    assert not partly.not_attempted


def test_known_mistake_is_named_once():
    mistake = "this matches a known mistake: column-major order"
    named = Mistake("column_major", "column-major order", known=True)
    tests = [Result(f"t{i}", "hidden", Verdict.WRONG_ANSWER, "wrong values", 1.0, mistake=named) for i in range(3)]
    text = render_text(Report("p", "s.py", tests))
    assert text.count(mistake) == 1
    assert text.count("this matches the known mistake named above") == 2


def test_json_report_is_unchanged_by_shown_values():
    report = Report("p", "s.py", [example({"out": arr([1.0])}, {"out": arr([2.0])})], time_ms=3.0)
    data = report.to_json()
    assert set(data) == {"problem", "submission", "verdict", "passed", "total", "time_ms", "tests", "output",
                         "warnings", "tampering", "loading_output"}
    assert set(data["tests"][0]) == {"name", "group", "verdict", "message", "time_ms", "details", "output",
                                     "mistake", "mistakes", "hint", "not_attempted", "not_run", "failure", "smallest",
                                     "cpu_ms"}  # no values
    json.dumps(data)


def test_examples_mode_on_a_real_wrong_solution(judge):
    problem = judge.problem("patchify")
    report = judge.submit("patchify", Submission.from_text(COLUMN_MAJOR, "column_major.py"), examples_only=True)
    text = render_text(report, values=True)
    assert [t.group for t in report.tests] == ["example"] * len(problem.examples)
    assert "images = torch.Tensor of shape (1, 1, 4, 4)" in text
    assert "tokens: shape (1, 4, 4) float32; 8 of 16 entries differ (marked *)" in text
    assert "[  8*  9* 12* 13*]    [  2*  3*  6*  7*]" in text
    assert "coordinates: shape (4, 2) int64; matches" in text
    assert "drawn as {normal: [4, 3, 96, 96]}" in text          # a large input: its generator, not values
    assert text.splitlines()[-1].startswith("✗ wrong_answer: 0/")


def test_full_run_never_reveals_hidden_values(judge):
    report = judge.submit("patchify", Submission.from_text(COLUMN_MAJOR, "column_major.py"))
    assert all(t.shown is None for t in report.tests if t.group != "example")
    assert all(t.shown is not None for t in report.tests if t.group == "example")


PRINTS = '''
import torch
print("loading the module")

def patchify(images, patch_height, patch_width):
    print("shape", tuple(images.shape))
    B, C, H, W = images.shape
    t = images.reshape(B, C, H // patch_height, patch_height, W // patch_width, patch_width)
    t = t.permute(0, 2, 4, 1, 3, 5).reshape(B, -1, C * patch_height * patch_width)
    r = torch.arange(H // patch_height).repeat_interleave(W // patch_width)
    c = torch.arange(W // patch_width).repeat(H // patch_height)
    return {"tokens": t, "coordinates": torch.stack([c, r], 1)}
'''


def test_printed_output_is_attributed_to_the_test_that_printed_it(judge):
    problem = judge.problem("patchify")
    report = judge.submit("patchify", Submission.from_text(PRINTS, "prints.py"), record=False)
    tests = {t.name: t for t in report.tests}
    assert tests["tiny_index_image"].output == "shape (1, 1, 4, 4)\n"
    assert tests["worked_example_96px"].output.startswith("shape (4, 3, 96, 96)\n")
    assert not any("loading the module" in t.output for t in report.tests)  # printed while loading
    assert "loading the module" in report.output and report.loading_output == "loading the module\n"
    text = render_text(report)
    assert "      printed:\n      | shape (1, 1, 4, 4)" in text
    assert "printed:" in render_text(report, verbose=True).split("✓", 1)[1]  # passing tests too, with -v


# ---------------------------------------------------------------- issue 22.6: the terminal report

def _hidden(name, verdict=Verdict.WRONG_ANSWER, message="`tokens` differs", **kw):
    return Result(name, "hidden", verdict, message, 1.0, **kw)


def test_failures_not_shown_are_grouped_by_reason():
    tests = [*(_hidden(f"values_{i}", message=f"tokens: {i + 2} of 16 values differ, first at index (0, {i})")
               for i in range(6)),
             *(_hidden(f"raises_{i}", message="returned a value instead of raising ValueError") for i in range(5))]
    text = render_text(Report("patchify", "mine.py", tests, time_ms=1.0))
    assert "more failure(s) without details, by reason" in text
    assert "5 × returned a value instead of raising ValueError" in text
    # 3 of the 6 were detailed; the other 3 are said as the first of them says it, never as a template
    assert "3 × tokens: 5 of 16 values differ, first at index (0, 3) (the others alike, with other numbers)" in text
    assert "…" not in text


def test_grouped_failures_say_a_mistake_named_above_in_words_not_by_its_name():
    named = Mistake("column_major_tokens_only", "tokens are enumerated column-major", known=True)
    tests = [_hidden(f"values_{i}", message=f"tokens: {i + 2} of 16 values differ", mistake=named if i < 4 else
                     Mistake(named.name, named.message, True, repeated=True)) for i in range(12)]
    text = render_text(Report("patchify", "mine.py", tests, time_ms=1.0))
    assert "9 × tokens are enumerated column-major" in text
    assert "column_major_tokens_only" not in text
    assert "20 more failure(s)" not in text


def test_a_traceback_sits_under_its_tests_verdict():
    frame = 'File "mine.py", line 18, in patchify\n    return {"tokens": tokens, "coordinates": coordinate}'
    shown = Shown(inputs=(("x", None, arr([1.0])),), expected={"out": arr([1.0])}, actual=None,
                  actual_error="NameError: name 'coordinate' is not defined")
    test = Result("tiny", "example", Verdict.RUNTIME_ERROR, "raised NameError: name 'coordinate' is not defined",
                  1.0, (frame,), shown)
    lines = render_text(Report("patchify", "mine.py", [test], time_ms=1.0)).splitlines()
    row = next(i for i, line in enumerate(lines) if "tiny" in line)
    assert "raised NameError" in lines[row + 1]
    assert lines[row + 2].strip() == 'File "mine.py", line 18, in patchify'
    assert lines[row + 3].strip().startswith("return {") and lines[row + 3].startswith("      ")
    assert lines.index(next(line for line in lines if "inputs:" in line)) > row + 3


def test_output_printed_while_loading_is_shown_without_verbose():
    report = Report("patchify", "mine.py", [_hidden("t1")], time_ms=1.0, output="loading my model\nready\nin t1\n",
                    loading_output="loading my model\nready\n")
    text = render_text(report)
    assert "printed while loading the file:" in text and "| loading my model" in text and "| ready" in text
    assert "| in t1" not in text


OVERFLOWS = '''
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    idx = np.arange(len(s))
    exp_s = np.exp(s)
    return float(np.mean(-s[idx, idx ^ 1] + np.log(exp_s.sum(axis=1) - exp_s[idx, idx])))
'''


def test_a_warning_raised_in_a_call_is_that_tests_output_not_the_loading(judge):
    """numpy's overflow warning is printed during the tiny-temperature test's call: it is that test's output,
    and nothing was printed while the file loaded."""
    report = judge.submit("info_nce", Submission.from_text(OVERFLOWS, "overflows.py"), record=False)
    warned = [t for t in report.tests if "RuntimeWarning: overflow encountered in exp" in t.output]
    assert warned and all(t.verdict is not Verdict.ACCEPTED for t in warned)
    assert "RuntimeWarning" in report.output and report.loading_output == ""
    text = render_text(report)
    assert "printed while loading the file" not in text
    assert "      printed:\n      | overflows.py:" in text  # under the failing test that raised it


def test_tests_not_run_after_a_time_out_say_not_run():
    message = "not run: earlier tests used up this submission's time budget of 10 s"
    tests = [_hidden("slow", Verdict.TIME_LIMIT_EXCEEDED, "this test took longer than the time limit of 2 s"),
             *(Result(f"later_{i}", "hidden", Verdict.TIME_LIMIT_EXCEEDED, message, 0.0) for i in range(3))]
    text = render_text(Report("patchify", "mine.py", tests, time_ms=1.0))
    assert "0.0 ms" not in text
    assert "3 test(s) not run: earlier tests used up this submission's time budget of 10 s" in text
    assert "(later_0," in text and "later_2)" in text


def test_verdicts_are_spelled_one_way_in_rows_and_summary():
    tests = [Result("ok", "example", Verdict.ACCEPTED, "", 1.0), _hidden("bad")]
    lines = render_text(Report("patchify", "mine.py", tests, time_ms=1.0), verbose=True).splitlines()
    rows = [line for line in lines if line.startswith("  ✓ ok") or line.startswith("  ✗ bad")]
    assert "accepted" in rows[0] and "wrong_answer" in rows[1]
    assert lines[-1].startswith("✗ wrong_answer:")
    assert not any(re.search(r"\b(AC|WA)\b", line) for line in lines)


def test_tampering_is_one_line_above_the_verdict_and_escaped():
    tests = [Result("t", "hidden", Verdict.ACCEPTED, "", 1.0)]
    honest = render_text(Report("p", "s.py", tests))
    assert "tampering" not in honest
    flagged = Report("p", "s.py", tests, tampering=("line 3: rebinds torch.autograd.grad, an attribute of a library "
                                                    "module", "a trace function was left set \u202e\x1b[2J"))
    lines = render_text(flagged, width=400).splitlines()
    assert lines[-2] == ("tampering: line 3: rebinds torch.autograd.grad, an attribute of a library module; "
                         "a trace function was left set \\u202e\\x1b[2J (shown to your instructor; it changes no "
                         "verdict)")
    assert lines[-1].startswith("✓ accepted: 1/1")  # the verdict stands
    wrapped = render_text(flagged, width=60).splitlines()
    assert wrapped[-1].startswith("✓ accepted") and all(len(line) <= 60 for line in wrapped[-4:-1])
    coloured = render_text(flagged, colour=True, width=400)
    assert "\x1b[33m" in coloured.splitlines()[-2]  # yellow: a note, not a failure
    not_attempted = Report("p", "s.py", [Result("t", "hidden", Verdict.RUNTIME_ERROR, "raised", not_attempted=True)],
                           tampering=("line 1: uses ctypes: raw memory",))
    assert "tampering: line 1: uses ctypes: raw memory" in render_text(not_attempted, width=400)


def test_a_judged_file_that_tampers_is_judged_as_without_and_says_so(judge):
    source = (REPO_SUBMISSION.read_text() + "\n\nimport gc\n_objects = len(gc.get_objects())\n")
    report = judge.submit("patchify", Submission.from_text(source, "tampers.py"), record=False)
    assert report.accepted  # the verdict is the file's
    line = len(source.splitlines())
    assert report.tampering[0] == f"line {line}: walks the garbage collector's objects (gc.get_objects)"
    assert "tampering: line" in render_text(report, width=400)
    assert json.loads(report.dumps())["tampering"] == list(report.tampering)


def test_a_long_wrong_answer_fits_a_screen_without_v_and_shows_everything_with_it():
    tests = [_hidden(f"values_{i}", message=f"tokens: {i + 2} of 16 values differ, first at index (0, {i})",
                     mistake=Mistake("column_major", "tokens are enumerated column-major", True, repeated=i > 0))
             for i in range(30)] + [_hidden(f"raises_{i}", message="returned a value instead of raising ValueError")
                                    for i in range(10)]
    report = Report("patchify", "mine.py", tests, time_ms=1.0)
    short, full = render_text(report), render_text(report, verbose=True)
    from judge.render.text import SCREEN

    assert len(short.splitlines()) <= SCREEN
    assert "tokens are enumerated column-major" in short and "-v shows every message" in short
    assert all(f"values_{i}" in full for i in range(30)) and len(full.splitlines()) > SCREEN


def test_an_acceptance_says_what_to_try_next():
    report = Report("patchify", "mine.py", [Result("t", "hidden", Verdict.ACCEPTED, "", 1.0)], time_ms=1.0)
    text = render_text(report, next_step="judge show patch_embed   (unit 5.5: 1 of 11 problems solved)")
    assert text.splitlines()[-1] == "next: judge show patch_embed   (unit 5.5: 1 of 11 problems solved)"
    assert "next:" not in render_text(report, values=True, next_step="judge show patch_embed")   # examples only


def test_a_refinement_prints_what_it_names_and_nothing_when_there_is_none():
    from judge.render.text import refinement_output

    first = Report("info_nce", "mine.py", [_hidden("a"), _hidden("b")], time_ms=1.0)
    summed = Mistake("sum_not_mean", "the per-anchor losses are summed; return their mean", True)
    refined = Report("info_nce", "mine.py", [_hidden("a", mistake=summed),
                                             _hidden("b", mistake=Mistake(summed.name, summed.message, True,
                                                                          repeated=True))], time_ms=2.0)
    text = refinement_output(first, refined, width=100)
    assert text.splitlines()[0] == "what explains it, found after the verdict:"
    assert "✗ a" in text and "this matches a known mistake: the per-anchor losses are summed" in text
    assert refinement_output(first, None) == \
        "  no mistake was named in the time given (the page, `judge serve`, waits longer)\n"   # never "none explains"
    assert refinement_output(refined, None) == ""   # the first report named it already: nothing to add


def test_a_syntax_error_shows_its_line_and_a_caret():
    from judge.judging.prepared import compile_error   # what every face reports a file that does not compile with

    error = compile_error("def patchify(images, ph, pw):\n    return images.reshape(1, 2\n", "mine.py")
    frame = error.frames[-1].splitlines()
    assert frame[1].strip() == "return images.reshape(1, 2"
    assert frame[2].index("^") == frame[1].index("(")   # under the bracket that was never closed
