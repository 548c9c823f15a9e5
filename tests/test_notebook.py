"""The notebook API: `check` on function objects, results as text and HTML, `problems()` (judge/notebook.py)."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import judge as judge_package
from judge.notebook import CheckResult, SourceUnavailable, check, function_source, problems
from judge.learner.progress import ProgressStore
from judge.base.report import Report, Shown
from judge.base.report import TestResult as Result  # (not a pytest test class)
from judge.base.outcomes import Verdict

GRID_SCALE = 1              # a constant the solution uses: carried over as `GRID_SCALE = 1`
NOT_CARRIABLE = np.zeros(3)  # an array global: cannot be carried into the sandbox


def _grid(height, width, ph, pw):
    return height // ph * GRID_SCALE, width // pw


def my_patchify(images, patch_height, patch_width):
    """A correct solution spread over a helper, a module alias and a constant."""
    if images.ndim != 4:
        raise ValueError("images must be 4-D")
    for p in (patch_height, patch_width):
        if not isinstance(p, int) or isinstance(p, bool) or p <= 0:
            raise ValueError("patch sizes must be positive ints")
    _, _, height, width = images.shape
    if height % patch_height or width % patch_width:
        raise ValueError("sizes must divide the image")
    gh, gw = _grid(height, width, patch_height, patch_width)
    tokens = F.unfold(images, (patch_height, patch_width), stride=(patch_height, patch_width)).transpose(1, 2)
    rows = torch.arange(gh).repeat_interleave(gw)
    cols = torch.arange(gw).repeat(gh)
    return {"tokens": tokens, "coordinates": torch.stack([rows, cols], 1)}


def uses_array(images, patch_height, patch_width):
    return NOT_CARRIABLE


def test_function_source_is_self_contained():
    source = function_source(my_patchify, "patchify")
    assert "import torch.nn.functional as F" in source and "import torch" in source
    assert "GRID_SCALE = 1" in source and "def _grid(" in source
    assert source.rstrip().endswith("patchify = my_patchify")
    namespace: dict = {}
    exec(compile(source, "<rebuilt>", "exec"), namespace)      # runs without this module's globals
    out = namespace["patchify"](torch.arange(16.0).reshape(1, 1, 4, 4), 2, 2)
    assert out["tokens"].shape == (1, 4, 4)


def test_check_a_function_object(judge, tmp_path, monkeypatch):
    store = ProgressStore(tmp_path / "p.sqlite3")
    monkeypatch.setattr(judge, "progress", store)
    result = check("patchify", my_patchify, judge=judge)
    assert result.accepted and result.verdict is Verdict.ACCEPTED and result.passed == result.total > 3
    text = repr(result)
    assert text.splitlines()[-1].startswith(f"✓ accepted: {result.total}/{result.total}")
    assert "\x1b[" not in text
    page = result._repr_html_()
    assert "✓ Correct" in page and "<table>" not in page and len(page) < 500   # one green line
    [attempt] = store.attempts()                                # recorded like `judge run`
    assert attempt.problem == "patchify" and attempt.submission == "<function my_patchify>"
    check("patchify", my_patchify, judge=judge, record=False, examples_only=True)
    assert len(store.attempts()) == 1 and judge.record is True


def test_html_escapes_and_shows_example_values():
    shown = Shown(inputs=(("x", None, 1),), expected={"label": "<b>ok</b>"}, actual={"label": "<b>x</b>"})
    report = Report("patchify", "<function f>", [
        Result("an_example", "example", Verdict.WRONG_ANSWER, "<script>alert(1)</script>", 1.0, (), shown),
        Result("a_hidden_test", "hidden", Verdict.ACCEPTED, "", 1.0)], time_ms=2.0)
    page = CheckResult(report, examples_only=True, source="")._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "<pre" in page and "yours" in page and "(public examples only)" in page
    assert page.count("<tr>") == 3


def test_html_text_and_json_show_bidi_controls_and_lone_surrogates_as_escapes():
    """What HTML autoescaping leaves alone (bidi overrides, controls, lone surrogates) is
    shown as escapes in the notebook's HTML, its text and its JSON, all valid UTF-8."""
    import json
    import unicodedata

    shown = Shown(inputs=(("x", None, 1),), expected={"label": "ok"}, actual={"label\u202e": "\ud800"})
    report = Report("patchify", "\udcffnotebook.py", [
        Result("an_example", "example", Verdict.WRONG_ANSWER, "raised \ud800 \u202eKO \x1b[2J", 1.0,
               ("key '\u2066k\u2069'",), shown, output="\u200bprinted")], time_ms=2.0, warnings=["odd \ud800"])
    result = CheckResult(report, examples_only=True, source="")
    data = result.to_json()
    for face in (result._repr_html_(), result.text(), json.dumps(data, ensure_ascii=False)):
        face.encode("utf-8")
        assert not [c for c in face if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    for face in (result._repr_html_(), result.text(), data["tests"][0]["message"]):
        assert "\\ud800 \\u202eKO \\x1b[2J" in face
    assert data["submission"] == "\\xffnotebook.py"


def test_source_that_cannot_be_recovered_is_named():
    namespace: dict = {}
    exec("def patchify(images, ph, pw):\n    return images\n", namespace)
    with pytest.raises(SourceUnavailable, match="cannot recover the source of `patchify`"):
        function_source(namespace["patchify"], "patchify")


def test_what_cannot_be_carried_is_named():
    with pytest.raises(SourceUnavailable, match="not a lambda"):
        function_source(lambda images, ph, pw: images, "patchify")
    with pytest.raises(SourceUnavailable, match="global `NOT_CARRIABLE` \\(a ndarray\\)"):
        function_source(uses_array, "patchify")
    factor = 2

    def closure(images, ph, pw):
        return images * factor

    with pytest.raises(SourceUnavailable, match="enclosing function \\(factor\\)"):
        function_source(closure, "patchify")
    with pytest.raises(SourceUnavailable, match="defined with `def`"):
        function_source(print, "patchify")


def test_check_accepts_a_path_and_source_text(judge, repo):
    path = repo / "submissions/patchify/accepted/reshape_permute.py"
    assert check("patchify", path, judge=judge, record=False, examples_only=True).accepted
    assert check("patchify", str(path), judge=judge, record=False, examples_only=True).accepted
    assert check("patchify", path.read_text(), judge=judge, record=False, examples_only=True).accepted


def test_problems_lists_with_status(repo):
    listed = problems(repo)
    ids = [p.id for p in listed]
    assert "patchify" in ids and ids[0] == "patchify"  # the course's first problem, not the alphabet's
    assert {p.status for p in listed} <= {"solved", "attempted", "new"}
    assert "patchify" in repr(listed) and "<table>" in listed._repr_html_()


def test_import_judge_is_lazy_and_does_not_import_torch(repo):
    code = ("import sys, judge\n"
            "assert 'torch' not in sys.modules and 'judge.judging.session' not in sys.modules\n"
            "from judge import check, problems\n"
            f"problems({str(repo)!r})\n"
            "assert 'torch' not in sys.modules, 'problems() imported torch'\n"
            "assert callable(check) and 'check' in dir(judge)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    assert judge_package.check is check
    with pytest.raises(AttributeError):
        judge_package.no_such_thing


# ---------------------------------------------------------------- like learntools

def test_rename_global_keeps_layout_strings_and_attributes():
    from judge.notebook import rename_global

    renamed = rename_global("def patchify(x):\n    return patchify(x - 1) + len('patchify') + m.patchify\n",
                            "patchify", "_p")
    assert renamed == "def _p(x):\n    return _p(x - 1) + len('patchify') + m.patchify\n"


def test_same_name_helper_judged_end_to_end(judge, tmp_path):
    module = tmp_path / "cells.py"
    module.write_text(textwrap.dedent('''
        import torch
        import torch.nn.functional as F

        def patchify(images, ph, pw):
            t = F.unfold(images, (ph, pw), stride=(ph, pw)).transpose(1, 2)
            gh, gw = images.shape[2] // ph, images.shape[3] // pw
            return {"tokens": t, "coordinates": torch.stack([torch.arange(gh).repeat_interleave(gw),
                                                             torch.arange(gw).repeat(gh)], 1)}

        def checked(images, patch_height, patch_width):
            if images.dim() != 4:
                raise ValueError("4-D")
            for p in (patch_height, patch_width):
                if not isinstance(p, int) or isinstance(p, bool) or p <= 0:
                    raise ValueError("positive ints")
            if images.shape[2] % patch_height or images.shape[3] % patch_width:
                raise ValueError("divisible")
            return patchify(images, patch_height, patch_width)
        '''))
    sys.path.insert(0, str(tmp_path))
    try:
        import cells
    finally:
        sys.path.remove(str(tmp_path))
    result = check("patchify", cells.checked, judge=judge, record=False)
    assert result.accepted, result.text()


@pytest.mark.parametrize("problem_id, solution, phrase", [
    ("nope", my_patchify, "unknown problem id 'nope'"),
    ("patchify", 42, "got int (42)"),
    ("patchify", lambda images, ph, pw: images, "not a lambda"),
])
def test_usage_errors_are_one_line_not_a_traceback(judge, problem_id, solution, phrase):
    from judge.notebook import NotebookError

    with pytest.raises(NotebookError) as exc:
        check(problem_id, solution, judge=judge, record=False)
    assert exc.value.__suppress_context__ or exc.value.__cause__ is None
    rendered = exc.value._render_traceback_()
    assert len(rendered) == 1 and phrase in rendered[0]


def test_problem_handle_show_check_hint_solution(repo, tmp_path, monkeypatch):
    from judge.notebook import NotebookError, practice

    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    q = practice("patchify", problems_dir=repo)
    try:
        assert "Patchify a Batch of Images" in q.show()._repr_markdown_()
        assert "def patchify" in repr(q.show())
        first = repr(q.hint())
        assert first.startswith("hint 1 of ")
        assert first.endswith("more: .hint() again, or .hint(level=2)")  # the notebook's way, not the CLI's
        assert "judge " not in first
        assert repr(q.hint()).startswith("hint 2 of ")      # remembered, as `judge hint`
        with pytest.raises(NotebookError, match="not solved yet"):
            q.solution()
        assert q.check(my_patchify).accepted
        assert "The reference" in repr(q.solution())       # solved now: no confirmation needed
        with pytest.raises(NotebookError, match="hint levels 1 to"):
            q.hint(99)
    finally:
        q.close()
    with pytest.raises(NotebookError, match="unknown problem id"):
        practice("nope", problems_dir=repo)


def test_html_renders_markdown_keeps_time_on_one_line_and_colours_differences():
    from judge.render import inline_html

    assert inline_html("`tokens` is **wrong** <here>") == "<code>tokens</code> is <b>wrong</b> &lt;here&gt;"
    shown = Shown(inputs=(("x", None, np.zeros(2)),), expected={"out": _arr([1.0, 2.0])},
                  actual={"out": _arr([1.0, 5.0])}, tolerance=None)
    report = Report("p", "s.py", [Result("ex", "example", Verdict.WRONG_ANSWER, "`out` differs", 1.5, (), shown),
                                  Result("big", "hidden", Verdict.WRONG_ANSWER, "`out` differs", 2.0,
                                         ("Index | Obtained | Expected", "(0,) | 1 | 2"))])
    page = CheckResult(report, False, "")._repr_html_()
    assert "<code>out</code> differs" in page and "`out`" not in page
    assert "white-space:nowrap" in page and "1.5&nbsp;ms" in page
    values = page.split("<pre")[1]
    assert "<span style='color:#cf222e'> 5</span>" in values       # yours, where it differs: red
    assert "<span style='color:#1a7f37'> 2</span>" in values       # expected there: green
    assert "Index | Obtained | Expected" in page


def _arr(values):
    from judge.base.encoding import Array

    return Array(np.asarray(values, dtype="float32"), "torch", "float32")


def test_judge_practice_is_the_learntools_entry_and_the_problem_model_is_no_face(repo, tmp_path, monkeypatch):
    """`judge.practice("patchify")` opens a problem; `judge.model.problem` is the problem model, never a face."""
    from judge.model import problem as model
    from judge.notebook import NotebookError, ProblemHandle

    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    q = judge_package.practice("patchify", problems_dir=repo)
    try:
        assert isinstance(q, ProblemHandle) and isinstance(q.problem, model.Problem)
    finally:
        q.close()
    # The problem model has one name (judge.model.problem), and loading it leaves the public problems() alone.
    with pytest.raises(ModuleNotFoundError):
        import judge.problem  # noqa: F401
    assert not callable(model)
    assert callable(judge_package.problems) and judge_package.problems.__module__ == "judge.notebook"
    with pytest.raises(NotebookError, match="unknown problem id 'nope'"):
        judge_package.practice("nope", problems_dir=repo)


def test_a_failed_check_is_one_red_line_with_the_named_mistake_and_details_folded():
    from judge.base.report import Mistake

    mistake = Mistake("column_major", "patches enumerated column by column", known=True)
    tests = [Result("t1", "example", Verdict.ACCEPTED, "", 1.0),
             Result("t2", "hidden", Verdict.WRONG_ANSWER, "`tokens` differs at 3 of 4 positions\nmore", 1.0,
                    mistake=mistake, hint="walk the grid row by row"),
             *(Result(f"t{i}", "hidden", Verdict.WRONG_ANSWER, "`tokens` differs", 1.0) for i in range(3, 40))]
    page = CheckResult(Report("patchify", "<function f>", tests, time_ms=2.0), False, "")._repr_html_()
    visible, folded = page.split("<details>", 1)
    assert "✗ Incorrect" in visible and "wrong_answer, 1/39 tests passed" in visible
    assert "<code>t2</code>" in visible and "<code>tokens</code> differs at 3 of 4 positions" in visible
    assert "more" not in visible and "<table>" not in visible and len(visible) < 1500
    assert "background:#fff8c5" in visible and "patches enumerated column by column" in visible   # highlighted
    assert "hint: walk the grid row by row" in visible
    assert folded.count("<tr>") == 40 and "</details>" in folded


def test_tampering_is_one_line_in_the_notebooks_text_html_and_json():
    import json

    line = "line 4: rebinds torch.autograd.grad, an attribute of a library module"
    for tests in ([Result("t", "hidden", Verdict.ACCEPTED, "", 1.0)],
                  [Result("t", "hidden", Verdict.WRONG_ANSWER, "`tokens` differs", 1.0)]):
        result = CheckResult(Report("patchify", "<function f>", tests, tampering=(line, "odd <b>\u202e</b>")),
                             False, "")
        page = result._repr_html_()
        visible = page.split("<details>", 1)[0]
        assert visible.count("class='tampering'") == 1  # one line, by the verdict, whether it passed or not
        assert f"tampering: {line}; odd &lt;b&gt;\\u202e&lt;/b&gt; (shown to your instructor" in visible
        text = " ".join(result.text().split())  # wrapped to the terminal's width
        assert f"tampering: {line}; odd <b>\\u202e</b> (shown to your instructor" in text
        assert json.loads(json.dumps(result.to_json()))["tampering"] == [line, "odd <b>\\u202e</b>"]
    honest = CheckResult(Report("patchify", "<function f>", [Result("t", "hidden", Verdict.ACCEPTED, "", 1.0)]),
                         False, "")
    assert "tampering" not in honest._repr_html_() and "tampering" not in honest.text()
    assert honest.to_json()["tampering"] == []


def test_a_checked_solution_that_tampers_keeps_its_verdict_and_says_so(judge):
    source = function_source(my_patchify, "patchify") + "\n\nimport gc\n_seen = len(gc.get_referrers(object))\n"
    result = check("patchify", source, judge=judge, record=False)
    assert result.accepted, result.text()
    line = len(source.splitlines())
    assert result.report.tampering == (f"line {line}: walks the garbage collector's objects (gc.get_referrers)",)
    assert "tampering: line" in result.text() and "class='tampering'" in result._repr_html_()
