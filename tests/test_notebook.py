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
from judge.progress import ProgressStore
from judge.report import Report, Shown
from judge.report import TestResult as Result  # (not a pytest test class)
from judge.verdict import Verdict

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
    assert page.count("<tr>") == result.total + 1 and "accepted</b>" in page
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
    assert "patchify" in ids and ids == sorted(ids)
    assert {p.status for p in listed} <= {"solved", "attempted", "new"}
    assert "patchify" in repr(listed) and "<table>" in listed._repr_html_()


def test_import_judge_is_lazy_and_does_not_import_torch(repo):
    code = ("import sys, judge\n"
            "assert 'torch' not in sys.modules and 'judge.session' not in sys.modules\n"
            "from judge import check, problems\n"
            f"problems({str(repo)!r})\n"
            "assert 'torch' not in sys.modules, 'problems() imported torch'\n"
            "assert callable(check) and 'check' in dir(judge)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    assert judge_package.check is check
    with pytest.raises(AttributeError):
        judge_package.no_such_thing
