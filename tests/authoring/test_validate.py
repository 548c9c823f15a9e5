"""judge validate: passes on the shipped problems, fails with the right message on broken copies."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.base.errors import ConfigError
from judge.judging.session import Judge
from judge.authoring.validate import Severity, validate
from problemsets import copy_problems

PROBLEM = "unpatchify"


@pytest.fixture(scope="module")
def problem_set(tmp_path_factory, repo) -> Path:
    """A small copy of the problem set: unpatchify (with few submissions) and patchify (for its round trip)."""
    root = copy_problems(tmp_path_factory.mktemp("problem_set"), "patchify", PROBLEM)
    submissions = root / "submissions" / PROBLEM
    for name in ("accepted/reshape_permute.py", "wrong_answer/column_major.py", "wrong_answer/detached_numpy.py"):
        (submissions / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo / "submissions" / PROBLEM / name, submissions / name)
    return root


@pytest.fixture(scope="module")
def set_judge(problem_set) -> Judge:
    """One warm judge over the copy; each test breaks a file and puts it back."""
    with Judge(problem_set, record=False) as j:
        yield j


@pytest.fixture()
def edit(problem_set):
    """edit(relative_path, new_text or None to delete): restored after the test."""
    saved: dict[Path, bytes | None] = {}

    def change(relative: str, text: str | None) -> Path:
        path = problem_set / relative
        if path not in saved:
            saved[path] = path.read_bytes() if path.exists() else None
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return path

    yield change
    for path, data in saved.items():
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(data)


def errors(judge: Judge, *ids: str) -> list[str]:
    result = validate(judge, list(ids) or None)
    return [str(d) for p in result.problems for d in p.diagnostics if d.severity is Severity.ERROR]


def warnings(judge: Judge, *ids: str) -> list[str]:
    result = validate(judge, list(ids) or None)
    return [str(d) for p in result.problems for d in p.diagnostics if d.severity is Severity.WARNING]


def test_shipped_problems_validate(judge):
    recording = judge.record
    result = validate(judge, ["patchify", PROBLEM])
    problems = [str(d) for p in result.problems for d in p.diagnostics if d.severity is not Severity.INFO]
    assert result.ok, problems
    assert [p.problem for p in result.problems] == ["patchify", PROBLEM]
    aspects = {d.aspect for p in result.problems for d in p.diagnostics}
    assert {"patchify.reference.sandboxed", "patchify.submissions.wrong_answer.column_major",
            "unpatchify.submissions.accepted.fold", "unpatchify.time_limit"} <= aspects
    assert judge.record == recording  # validation is not recorded as a learner's attempt, and restores the flag


def test_the_copy_validates(set_judge):
    assert errors(set_judge, PROBLEM) == []


def test_wrong_reference_fails_accepted_submissions_and_pinned_example(set_judge, edit, problem_set):
    reference = problem_set / "hidden_tests" / PROBLEM / "reference.py"
    edit(f"hidden_tests/{PROBLEM}/reference.py",
         reference.read_text().replace(".permute(0, 3, 1, 4, 2, 5)", ".permute(0, 3, 1, 5, 2, 4)"))
    found = errors(set_judge, PROBLEM)
    assert any("unpatchify.submissions.accepted.reshape_permute: submissions/unpatchify/accepted/reshape_permute.py: "
               "expected accepted, got wrong_answer; first failing test: tiny_index_tokens (example)" in e
               for e in found), found
    assert any("unpatchify.examples.tiny_index_tokens" in e and "disagrees with the reference" in e for e in found)


def test_wrong_answer_submission_that_passes(set_judge, edit, problem_set):
    edit(f"submissions/{PROBLEM}/wrong_answer/sneaky.py",
         (problem_set / "submissions" / PROBLEM / "accepted" / "reshape_permute.py").read_text())
    found = errors(set_judge, PROBLEM)
    total = len(set_judge.prepared(PROBLEM).cases)   # the examples and hidden tests
    assert found == ["error: unpatchify.submissions.wrong_answer.sneaky: submissions/unpatchify/wrong_answer/sneaky.py: "
                     f"expected wrong_answer, got accepted; it passed all {total} tests"]


def test_wrong_answer_caught_only_by_an_example(set_judge, edit, problem_set):
    source = (problem_set / "submissions" / PROBLEM / "accepted" / "reshape_permute.py").read_text()
    edit(f"submissions/{PROBLEM}/wrong_answer/special_cases_example.py", source.replace(
        "    b, n, f = tokens.shape\n", "    b, n, f = tokens.shape\n    if (b, n, f) == (1, 4, 4):\n"
                                      "        return torch.zeros(1, 1, 4, 4)\n"))
    found = errors(set_judge, PROBLEM)
    assert len(found) == 1 and "caught only by public examples (tiny_index_tokens)" in found[0], found


def test_mismatch_names_expected_actual_and_first_failing_test(set_judge, edit, problem_set):
    edit(f"submissions/{PROBLEM}/accepted/column_major.py",
         (problem_set / "submissions" / PROBLEM / "wrong_answer" / "column_major.py").read_text())
    found = errors(set_judge, PROBLEM)
    assert len(found) == 1
    assert found[0].startswith("error: unpatchify.submissions.accepted.column_major: "
                               "submissions/unpatchify/accepted/column_major.py: expected accepted, got wrong_answer; "
                               "first failing test: tiny_index_tokens (example): ")


def test_malformed_fields_in_both_files_reported_at_once(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    edit(f"problems/{PROBLEM}.yaml", public.read_text().replace("difficulty: easy", "difficulty: impossible"))
    hidden = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    edit(f"hidden_tests/{PROBLEM}/tests.yaml", hidden.read_text().replace("tolerance: {rtol: 0, atol: 0}",
                                                                          "tolerance: {rtol: -1, atol: 0}"))
    found = errors(set_judge, PROBLEM)
    assert any(e.endswith(f"problems/{PROBLEM}.yaml:3: difficulty: expected one of easy, medium, hard, "
                          "got 'impossible'") for e in found), found
    assert any(f"hidden_tests/{PROBLEM}/tests.yaml:4: tolerance.rtol: expected a number >= 0, got -1" in e
               for e in found), found
    assert all(e.startswith("error: unpatchify.schema: ") for e in found)


def test_example_that_disagrees_with_the_reference(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    edit(f"problems/{PROBLEM}.yaml", public.read_text().replace("[2, 3, 6, 7]", "[2, 3, 7, 6]"))
    found = errors(set_judge, PROBLEM)
    assert len(found) == 1, found
    assert found[0].startswith("error: unpatchify.examples.tiny_index_tokens: ")
    assert f"problems/{PROBLEM}.yaml:" in found[0]
    assert ("expected: the stated output disagrees with the reference: the returned value: 2 of 16 values differ, "
            "first at index (0, 0, 1, 2)") in found[0]


def test_unknown_check_type_lists_the_known_ones(set_judge, edit, problem_set):
    hidden = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    edit(f"hidden_tests/{PROBLEM}/tests.yaml", hidden.read_text().replace("    mutation: {}", "    mutaton: {}"))
    found = errors(set_judge, PROBLEM)
    assert len(found) == 1, found
    assert "tests.yaml:" in found[0] and "mutaton: unknown field or check type `mutaton`; did you mean `mutation`?" in found[0]
    assert "check types: compare, structure, shape" in found[0]


def test_nondeterministic_reference(set_judge, edit, problem_set):
    reference = problem_set / "hidden_tests" / PROBLEM / "reference.py"
    edit(f"hidden_tests/{PROBLEM}/reference.py", reference.read_text().replace(
        "            .reshape(batch, channels, height, width))",
        "            .reshape(batch, channels, height, width)) + torch.rand(()) * 0.5"))
    found = errors(set_judge, PROBLEM)
    assert found and all("unpatchify.reference: not deterministic: test " in e for e in found), [e for e in found if "not deterministic" not in e]


def test_time_limit_below_the_derived_limit(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    edit(f"problems/{PROBLEM}.yaml", public.read_text().replace(
        "limits: {time_s: 2, memory_mb: 1024}", "limits: {time_s: 2, memory_mb: 1024, ac_to_time_limit: 100000}"))
    found = errors(set_judge, PROBLEM)
    assert len(found) == 1 and found[0].startswith(
        "error: unpatchify.time_limit: limits.time_s = 2 s is below the derived limit"), found
    assert "x ac_to_time_limit 100000" in found[0]


def test_time_limit_exceeded_and_a_verdict_within_the_margin(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    edit(f"problems/{PROBLEM}.yaml", public.read_text().replace("limits: {time_s: 2, memory_mb: 1024}",
                                                                "limits: {time_s: 0.5, memory_mb: 1024}"))
    source = (problem_set / "submissions" / PROBLEM / "accepted" / "reshape_permute.py").read_text()
    slow_on_vit = "    b, n, f = tokens.shape\n    if n == 196:\n        {}\n"
    edit(f"submissions/{PROBLEM}/time_limit_exceeded/spins.py",
         "import time\n" + source.replace("    b, n, f = tokens.shape\n", slow_on_vit.format("while True: pass")))
    edit(f"submissions/{PROBLEM}/time_limit_exceeded/barely.py",
         "import time\n" + source.replace("    b, n, f = tokens.shape\n", slow_on_vit.format(
             # CPU time, as the limits count it (a sleep costs none)
             "start = time.process_time()\n        while time.process_time() - start < 0.6: pass")))
    result = validate(set_judge, [PROBLEM])
    diagnostics = {d.aspect: d for d in result.problems[0].diagnostics}
    assert result.ok
    assert diagnostics["unpatchify.submissions.time_limit_exceeded.spins"].severity is Severity.INFO
    barely = diagnostics["unpatchify.submissions.time_limit_exceeded.barely"]
    assert barely.severity is Severity.WARNING
    assert "gets accepted at 0.75 s (limit x time_limit_to_tle 1.5); its verdict flips within the safety margin" \
        in barely.message


def test_unknown_verdict_folder_and_orphaned_hidden_tests(set_judge, edit, problem_set):
    edit(f"submissions/{PROBLEM}/wrong/guess.py", "def unpatchify(*args):\n    return None\n")
    edit("hidden_tests/ghost/tests.yaml", "tests: []\n")
    try:
        found = errors(set_judge)
    finally:
        shutil.rmtree(problem_set / "submissions" / PROBLEM / "wrong", ignore_errors=True)
    assert "error: ghost.schema: hidden_tests/ghost/ belongs to no problem: problems/ghost.yaml does not exist" in found
    assert any(e.startswith("error: unpatchify.submissions.wrong: submissions/unpatchify/wrong/: unknown verdict "
                            "folder; expected one of accepted, wrong_answer, runtime_error, time_limit_exceeded, "
                            "memory_limit_exceeded, output_limit_exceeded, compile_error, security_violation, "
                            "judge_error, run_time_error")
               for e in found), found
    shutil.rmtree(problem_set / "hidden_tests" / "ghost")


def test_unknown_problem_id_is_a_usage_error(set_judge):
    with pytest.raises(ConfigError, match="unknown problem id 'nope'"):
        validate(set_judge, ["nope"])


def _cli(problem_set: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", "--problems-dir", str(problem_set), "validate", *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_cli_exit_codes(problem_set, edit):
    # Exit 0 on a valid set is what .ci/run relies on (it runs `judge validate`); here: 1 and 2.
    edit(f"submissions/{PROBLEM}/accepted/broken.py", "def unpatchify(:\n")
    bad = _cli(problem_set, PROBLEM)
    assert bad.returncode == 1
    assert "ERROR unpatchify.submissions.accepted.broken: submissions/unpatchify/accepted/broken.py: expected " \
           "accepted, got compile_error" in bad.stdout
    assert bad.stdout.splitlines()[-1] == "validation failed: unpatchify"
    unknown = _cli(problem_set, "nope")
    assert unknown.returncode == 2 and "unknown problem id 'nope'" in unknown.stderr


def test_cli_runs_a_seeded_sample_of_the_gate_and_prints_json(problem_set):
    """Without --mutants: 12 mutants per accepted file (the reference and reshape_permute.py here)."""
    done = _cli(problem_set, PROBLEM, "--json", "--seed", "3")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    found = json.loads(done.stdout)
    checked = found["problems"][0]
    assert found["ok"] and checked["problem"] == PROBLEM and checked["ok"]
    gate = checked["mutants"]
    assert gate["seed"] == 3 and gate["per_file"] == 12 and gate["complete"] and gate["sampled"]
    assert gate["mutants"]["made"] == 24 < gate["mutants"]["of"]
    assert gate["mutants"]["survived"] == 0 and gate["survivors"] == []
    assert [f["file"] for f in gate["files"]] == [f"hidden_tests/{PROBLEM}/reference.py",
                                                   f"submissions/{PROBLEM}/accepted/reshape_permute.py"]
    assert any(d["aspect"] == f"{PROBLEM}.mutants" and d["severity"] == "info" for d in checked["diagnostics"])
    skipped = json.loads(_cli(problem_set, PROBLEM, "--json", "--no-mutants").stdout)
    assert skipped["problems"][0]["mutants"] is None
    # In words, a sample says it is one: "0 survived" would read as a proof it is not.
    said = _cli(problem_set, PROBLEM, "--seed", "3").stdout.splitlines()
    status = next(line for line in said if line.startswith(f"{PROBLEM}: valid"))
    assert f"24 of {gate['mutants']['of']} mutants tried (a sample; `--mutants` is the proof)" in status, status
    assert "0 of the sample survived" in status and "0 survived" not in status.replace("0 of the sample", ""), status


# ---------------------------------------------------------------- the input domain

def test_a_test_outside_the_input_domain_is_an_error(set_judge, edit, problem_set):
    """A float where an int is due is never tested: what a solution does with it is its own business."""
    hidden = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    text = hidden.read_text()
    extra = ("  - name: rejects_a_float_patch\n    rules: [errors]\n"
             "    inputs: {tokens: {normal: [1, 4, 4]}, height: 4, width: 4, patch_height: 2.0, patch_width: 2}\n"
             "    raises: ValueError\n")
    anchor = "  - name: rejects_zero_patch\n"
    edit(f"hidden_tests/{PROBLEM}/tests.yaml", text.replace(anchor, extra + anchor, 1))
    found = [e for e in errors(set_judge, PROBLEM) if ".domain:" in e]
    assert len(found) == 1, found
    assert found[0].startswith(f"error: {PROBLEM}.domain: ") and f"hidden_tests/{PROBLEM}/tests.yaml:" in found[0]
    assert "test 'rejects_a_float_patch': patch_height is a float (2.0), not int: outside the input domain" in found[0]
    assert "drop the test" in found[0]


def test_an_argument_whose_domain_is_not_stated_is_a_warning(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    text = public.read_text()
    start, end = text.index("domain:\n"), text.index("statement: |")
    bare = (text[:start] + text[end:]).replace("patch_height: int, patch_width: int)", "patch_height, patch_width)")
    edit(f"problems/{PROBLEM}.yaml", bare)
    found = [w for w in warnings(set_judge, PROBLEM) if ".domain:" in w]
    assert found == [f"warning: {PROBLEM}.domain: problems/{PROBLEM}.yaml: the input domain of patch_height, "
                     "patch_width is not stated: give each a type in `domain:` (or an annotation in `signature`), "
                     "so learners and the mutation gate know which inputs the contract covers"], found


# ---------------------------------------------------------------- rules (issue 12)

def test_tests_without_rules_fail_in_one_collapsed_line(set_judge, edit, problem_set):
    hidden = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    text = hidden.read_text()
    edit(f"hidden_tests/{PROBLEM}/tests.yaml", text.replace("    rules: [errors]\n", "", 2))
    found = [e for e in errors(set_judge, PROBLEM) if ".rules:" in e]
    assert found == ["error: unpatchify.rules: 2 tests rejects_two_dim_tokens, rejects_four_dim_tokens: names no "
                     "rule: add `rules: [ids]` naming the statement's rules it enforces"], found


def test_a_check_no_named_rule_licenses_fails(set_judge, edit, problem_set):
    """A gradient check licensed only by a rule about the values enforces something the statement never says."""
    hidden = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    text = hidden.read_text()
    start = text.index("  - name: gradient_flows_to_tokens")
    end = text.index("  - name:", start + 10)
    block = text[start:end].replace("rules: [differentiable]", "rules: [patchify_layout]")
    edit(f"hidden_tests/{PROBLEM}/tests.yaml", text[:start] + block + text[end:])
    found = [e for e in errors(set_judge, PROBLEM) if ".rules:" in e]
    assert found == ["error: unpatchify.rules: test gradient_flows_to_tokens: checks gradient, but none of the rules "
                     "it names licenses it (name a rule with `checks: [gradient]`, or state one)"], found


def test_an_unstated_dtype_rule_fails_every_compare_test_in_one_line(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    text = public.read_text()
    marker = "    checks: [structure, shape, dtype]\n"
    assert text.count(marker) == 1
    edit(f"problems/{PROBLEM}.yaml", text.replace(marker, "    checks: [structure, shape]\n"))
    found = [e for e in errors(set_judge, PROBLEM) if ".rules:" in e]
    assert len(found) == 1 and "checks dtype, but none of the rules it names licenses it" in found[0], found
    assert found[0].startswith("error: unpatchify.rules: 17 tests tiny_index_tokens, ")  # every compare test


def test_a_hint_without_hint_when_is_a_warning(set_judge, edit, problem_set):
    hidden = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    text = hidden.read_text()
    marker = "    hint_when: [values]\n"
    assert text.count(marker) == 1
    edit(f"hidden_tests/{PROBLEM}/tests.yaml", text.replace(marker, ""))
    found = [w for w in warnings(set_judge, PROBLEM) if ".rules:" in w]
    assert found == ["warning: unpatchify.rules: 1 test(s) roundtrip_after_patchify: a `hint` without `hint_when` "
                     "is shown for any failure; say which failure kinds or traps it explains"], found


def test_a_unit_tag_the_unit_does_not_confirm_is_a_warning(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    text = public.read_text()
    assert "\ntags: [" in text
    edit(f"problems/{PROBLEM}.yaml", text.replace("\ntags: [", "\ntags: [unit-9.9, ", 1))
    found = [w for w in warnings(set_judge, PROBLEM) if "unit-9.9" in w]
    assert found == [f"warning: {PROBLEM}.schema: problems/{PROBLEM}.yaml: tag 'unit-9.9' names no unit "
                     "(units/9.9.yaml does not exist)"], found
    edit("units/9.9.yaml", 'id: "9.9"\ntitle: Elsewhere\nproblems: [patchify]\n')
    found = [w for w in warnings(set_judge, PROBLEM) if "unit-9.9" in w]
    assert found == [f"warning: {PROBLEM}.schema: problems/{PROBLEM}.yaml: tag 'unit-9.9' but units/9.9.yaml does "
                     f"not list '{PROBLEM}' in problems or extras; add it there or drop the tag"], found
    edit("units/9.9.yaml", f'id: "9.9"\ntitle: Elsewhere\nproblems: [patchify]\nextras: [{PROBLEM}]\n')
    assert not [w for w in warnings(set_judge, PROBLEM) if "unit-9.9" in w]


def test_the_reference_s_warnings_are_told_to_the_author_and_to_no_learner(set_judge, edit, problem_set, tmp_path):
    import warnings as python_warnings

    from judge.model.cache import ExpectedCache
    from judge.base.submission import Submission

    reference = problem_set / "hidden_tests" / PROBLEM / "reference.py"
    text = reference.read_text()
    edit(f"hidden_tests/{PROBLEM}/reference.py", text + (
        "\n\n_exact = unpatchify\n\n\ndef unpatchify(*args):\n    import warnings\n"
        "    warnings.warn(\"an author's note\", UserWarning)\n    return _exact(*args)\n"))
    line = len(text.splitlines()) + 8
    result = validate(set_judge, [PROBLEM])
    said = [str(d) for p in result.problems for d in p.diagnostics if d.severity is Severity.WARNING]
    assert result.ok
    first = set_judge.problem(PROBLEM).examples[0].name  # the first case: Python tells of a line's warning once
    assert said == [f"warning: {PROBLEM}.reference: the reference warns on test {first!r}: UserWarning: an author's "
                    f"note (hidden_tests/{PROBLEM}/reference.py:{line})"], said
    shown = []
    with python_warnings.catch_warnings():  # what Python would print, every time, in place of pytest's recording
        python_warnings.simplefilter("always")
        python_warnings.showwarning = lambda *args, **kwargs: shown.append(args)
        wrong = (problem_set / "submissions" / PROBLEM / "wrong_answer" / "column_major.py").read_text()
        # A cache of its own: the reference runs in this process to make the expected values.
        with Judge(problem_set, cache=ExpectedCache(tmp_path / "cache"), record=False) as learners:
            report = learners.submit(PROBLEM, Submission.from_text(wrong, "mine.py"), record=False)
    assert not report.accepted and shown == []


def test_a_trap_no_test_tells_from_the_reference_is_an_error(set_judge, edit, problem_set):
    traps = problem_set / "hidden_tests" / PROBLEM / "traps.py"
    tests = problem_set / "hidden_tests" / PROBLEM / "tests.yaml"
    edit(f"hidden_tests/{PROBLEM}/traps.py", traps.read_text() + (
        "\n\ndef same_as_reference(tokens, h, w, ph, pw):\n"
        "    b, c, rows, cols = _sizes(tokens, h, w, ph, pw)\n"
        "    return tokens.reshape(b, rows, cols, c, ph, pw).permute(0, 3, 1, 4, 2, 5).reshape(b, c, h, w)\n"))
    edit(f"hidden_tests/{PROBLEM}/tests.yaml", tests.read_text().replace("traps:\n", (
        "traps:\n  - name: same_as_reference\n    message: \"not a mistake at all\"\n"), 1))
    found = errors(set_judge, PROBLEM)
    said = [e for e in found if e.startswith("error: unpatchify.traps.same_as_reference:")]
    assert said and "passes every test it could be named on: no test tells it from the reference" in said[0], found
    assert not any(".traps.column_major" in e for e in found)   # a real mistake is told apart


def test_a_broken_public_file_is_one_error_not_one_per_test(set_judge, edit, problem_set):
    public = problem_set / "problems" / f"{PROBLEM}.yaml"
    edit(f"problems/{PROBLEM}.yaml", public.read_text().replace("difficulty: easy", "difficulty: simple"))
    found = errors(set_judge, PROBLEM)
    assert len(found) == 1 and "difficulty: expected one of easy, medium, hard, got 'simple'" in found[0], found
