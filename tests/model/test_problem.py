"""Loading problems: the repository's YAML loads into typed objects; malformed YAML
is reported as `file:line: field: message`, every error at once, never a traceback."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.model import generators
from judge.base.errors import ConfigError, ConfigErrors
from judge.model.problem import Hidden, Problem, load_hidden, load_problem, problem_ids
from problemsets import copy_problems

# `path:line: field: message` (the field may be dotted and indexed: examples[0].inputs.images)
ERROR_LINE = re.compile(r"^(?P<file>[^:]+\.yaml):(?P<line>\d+): (?P<field>[\w.\[\]() ]+): (?P<message>.+)$")


@pytest.fixture
def problem_set(tmp_path: Path, repo: Path) -> Path:
    """A private copy of the patchify problem, to break in each test."""
    return copy_problems(tmp_path, "patchify")


def _public(root: Path) -> Path:
    return root / "problems" / "patchify.yaml"


def _hidden(root: Path) -> Path:
    return root / "hidden_tests" / "patchify" / "tests.yaml"


def _edit(path: Path, old: str, new: str) -> int:
    """Replace `old` (which must occur once) and return the 1-based line where `new` starts."""
    text = path.read_text()
    assert text.count(old) == 1, f"fixture text not found once in {path}: {old!r}"
    start = text.index(old)
    path.write_text(text.replace(old, new))
    return text[:start].count("\n") + 1


def _error(exc: pytest.ExceptionInfo) -> re.Match:
    text = str(exc.value)
    assert "\n" not in text, f"a config error is one line: {text!r}"
    match = ERROR_LINE.match(text)
    assert match, f"not `file:line: field: message`: {text!r}"
    return match


# ---------------------------------------------------------------- good YAML

def test_repository_problem_loads(repo: Path) -> None:
    problem = load_problem(repo, "patchify")
    assert isinstance(problem, Problem)
    assert problem.id == "patchify"
    assert problem.framework == "torch"
    assert problem.entry_point == "patchify"
    assert problem.args == ("images", "patch_height", "patch_width")
    assert problem.difficulty in ("easy", "medium", "hard")
    rules = " ".join(r.text for r in problem.rules)  # the contract's rules live in `rules:` (issue 12)
    assert "row-major" in rules and "ValueError" in rules
    assert problem.limits.time_s > 0 and problem.limits.memory_mb > 0
    names = [e.name for e in problem.examples]
    assert "worked_example_96px" in names
    assert all(e.group == "example" and e.public for e in problem.examples)
    worked = problem.examples[names.index("worked_example_96px")]
    assert isinstance(worked.inputs["images"], generators.Spec)
    assert worked.inputs["patch_height"] == 16


def test_repository_hidden_part_loads(repo: Path) -> None:
    hidden = load_hidden(load_problem(repo, "patchify"))
    assert isinstance(hidden, Hidden)
    assert hidden.tolerance.rtol == 0 and hidden.tolerance.atol == 0
    assert hidden.reference.is_file()
    assert hidden.traps_file is not None and {t.name for t in hidden.traps} >= {"column_major", "xy_coordinates"}
    by_name = {t.name: t for t in hidden.tests}
    assert {"hidden", "check"} <= {t.group for t in hidden.tests}
    assert [c.type for c in by_name["rejects_three_dim_input"].checks] == ["raises"]
    assert by_name["rejects_three_dim_input"].checks[0].params == {"type": "ValueError"}
    assert [c.type for c in by_name["vit_224"].checks] == ["compare"]  # the default check
    gradient = by_name["gradient_flows_to_images"].checks[0]
    assert gradient.type == "gradient" and gradient.params["wrt"] == ["images"]
    assert by_name["vit_224"].source.endswith(f":{_line_of(hidden.path, '- name: vit_224')}")


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_every_problem_in_the_repository_loads(repo: Path) -> None:
    for problem_id in problem_ids(repo):
        problem = load_problem(repo, problem_id)
        if (problem.hidden_dir / "tests.yaml").is_file():
            assert load_hidden(problem).tests


def test_copied_problem_set_loads(problem_set: Path) -> None:
    problem = load_problem(problem_set, "patchify")
    assert problem.root == problem_set
    assert load_hidden(problem).tests


# ---------------------------------------------------------------- malformed YAML

def test_yaml_syntax_error_names_file_and_line(problem_set: Path) -> None:
    line = _edit(_public(problem_set), "difficulty: easy\n", "difficulty: [easy\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text
    match = re.match(r"^(?P<file>[^:]+\.yaml):(?P<line>\d+): (?P<message>.+)$", text)
    assert match, text
    assert match["file"].endswith("patchify.yaml")
    assert "invalid YAML" in match["message"]
    assert int(match["line"]) >= line  # the parser notices where the flow sequence fails to close


def test_unknown_field(problem_set: Path) -> None:
    line = _edit(_public(problem_set), "difficulty: easy\n", "difficulty: easy\ndifficultty: hard\n") + 1
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert match["file"].endswith("problems/patchify.yaml")
    assert int(match["line"]) == line
    assert match["field"] == "difficultty"
    assert "unknown field" in match["message"] and "difficulty" in match["message"]  # lists the known ones


def test_wrong_type(problem_set: Path) -> None:
    line = _edit(_public(problem_set), "tags: [vision, vit, reshape, indexing]\n", "tags: vision\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert (int(match["line"]), match["field"]) == (line, "tags")
    assert "expected a list" in match["message"] and "a string" in match["message"]


def test_wrong_type_in_a_nested_field(problem_set: Path) -> None:
    line = _edit(_public(problem_set), "limits: {time_s: 2, memory_mb: 1024}\n",
                 "limits: {time_s: two, memory_mb: 1024}\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert (int(match["line"]), match["field"]) == (line, "limits.time_s")
    assert "expected a number" in match["message"] and "'two'" in match["message"]


def test_value_out_of_range(problem_set: Path) -> None:
    _edit(_public(problem_set), "difficulty: easy\n", "difficulty: trivial\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert match["field"] == "difficulty"
    assert "easy" in match["message"] and "'trivial'" in match["message"]


def test_missing_field(problem_set: Path) -> None:
    _edit(_public(problem_set), "title: Patchify a Batch of Images\n", "")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert match["field"] == "title"
    assert "missing" in match["message"]


def test_missing_argument_in_an_example(problem_set: Path) -> None:
    line = _edit(_public(problem_set), "      images: {arange: [1, 1, 4, 4]}\n      patch_height: 2\n",
                 "      images: {arange: [1, 1, 4, 4]}\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert match["field"] == "examples[0].inputs.patch_height"
    assert int(match["line"]) == line  # the line of the inputs mapping
    assert "missing" in match["message"]


def test_id_must_match_file_name(problem_set: Path) -> None:
    _edit(_public(problem_set), "id: patchify\n", "id: patchify2\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert (int(match["line"]), match["field"]) == (1, "id")
    assert "patchify2" in match["message"]


def test_unknown_problem_id(problem_set: Path) -> None:
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchifyy")
    text = str(exc.value)
    assert "\n" not in text
    assert "unknown problem id 'patchifyy'" in text and "patchify" in text.split("'patchifyy'", 1)[1]


def test_unknown_generator(problem_set: Path) -> None:
    line = _edit(_hidden(problem_set), "    inputs: {images: {normal: [2, 3, 32, 48]}, patch_height: 8, patch_width: 8}\n",
                 "    inputs: {images: {gaussian: [2, 3, 32, 48]}, patch_height: 8, patch_width: 8}\n")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert match["file"].endswith("tests.yaml")
    assert int(match["line"]) == line
    assert match["field"] == "tests[1].inputs.images"
    assert "generator" in match["message"] and "gaussian" in match["message"] and "normal" in match["message"]


def test_generator_parameter_error_names_the_field(problem_set: Path) -> None:
    line = _edit(_hidden(problem_set), "{images: {normal: [2, 3, 32, 48]}",
                 "{images: {normal: [2, 3, 32, 48], dtype: float65}")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert (int(match["line"]), match["field"]) == (line, "tests[1].inputs.images.dtype")
    assert "float65" in match["message"] and "float32" in match["message"]


def test_duplicate_test_names(problem_set: Path) -> None:
    first = _line_of(_hidden(problem_set), "- name: non_square_patches")
    line = _edit(_hidden(problem_set), "  - name: batch_of_five\n", "  - name: non_square_patches\n")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert int(match["line"]) == line
    assert match["field"].endswith(".name")
    assert "duplicate test name 'non_square_patches'" in match["message"]
    assert f"line {first}" in match["message"]


def test_unknown_check_parameter(problem_set: Path) -> None:
    line = _edit(_hidden(problem_set), "gradient: {wrt: [images], outputs: [tokens]}",
                 "gradient: {wrt: [images], output: [tokens]}")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert int(match["line"]) == line
    assert match["field"].endswith("gradient.output")
    assert "unknown field" in match["message"] and "outputs" in match["message"]


def test_duplicate_yaml_key(problem_set: Path) -> None:
    line = _edit(_public(problem_set), "difficulty: easy\n", "difficulty: easy\ndifficulty: hard\n") + 1
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    text = str(exc.value)
    assert text.startswith(f"{_shown(_public(problem_set))}:{line}: ") and "duplicate key 'difficulty'" in text


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def test_several_errors_are_reported_at_once(problem_set: Path) -> None:
    _edit(_public(problem_set), "title: Patchify a Batch of Images\n", "")
    _edit(_public(problem_set), "tags: [vision, vit, reshape, indexing]\n", "tags: 3\n")
    _edit(_public(problem_set), "framework: torch\n", "framework: jax\n")
    with pytest.raises(ConfigErrors) as exc:
        load_problem(problem_set, "patchify")
    lines = exc.value.lines()
    assert len(lines) == 3
    assert all(ERROR_LINE.match(line) for line in lines), lines
    assert {ERROR_LINE.match(line)["field"] for line in lines} == {"title", "tags", "framework"}
    assert "(and 2 more error(s))" in str(exc.value)
    assert "\n" not in str(exc.value)


def test_top_level_must_be_a_mapping(problem_set: Path) -> None:
    _public(problem_set).write_text("- just\n- a list\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    assert "expected a mapping" in str(exc.value) and "a list" in str(exc.value)


def test_missing_hidden_tests_file(problem_set: Path) -> None:
    _hidden(problem_set).unlink()
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    assert "tests.yaml" in str(exc.value) and "not found" in str(exc.value)


def test_missing_reference_is_reported(problem_set: Path) -> None:
    (problem_set / "hidden_tests" / "patchify" / "reference.py").unlink()
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    assert "reference" in str(exc.value) and "not found" in str(exc.value)


def test_a_reference_written_in_tests_yaml_replaces_reference_py(problem_set: Path) -> None:
    """A one-file problem: the same reference as a block in tests.yaml; errors name its YAML lines."""
    directory = problem_set / "hidden_tests" / "patchify"
    code = (directory / "reference.py").read_text()
    (directory / "reference.py").unlink()
    text = _hidden(problem_set).read_text()
    block = "reference_code: |\n" + "".join(f"  {line}\n" if line else "\n" for line in code.splitlines())
    _hidden(problem_set).write_text(block + text)
    hidden = load_hidden(load_problem(problem_set, "patchify"))
    assert hidden.reference == _hidden(problem_set) and hidden.reference_source() == code
    images = __import__("torch").arange(16.0).reshape(1, 1, 4, 4)
    assert hidden.reference_function("patchify")(images, 2, 2)["tokens"].shape == (1, 4, 4)
    broken = block.replace("def patchify(", "def patchify(((", 1)
    _hidden(problem_set).write_text(broken + text)
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify")).reference_function("patchify")
    line = next(i for i, row in enumerate(broken.splitlines(), 1) if "def patchify(((" in row)
    assert exc.value.file == _hidden(problem_set) and exc.value.line == line and "syntax error" in str(exc.value)
    _hidden(problem_set).write_text(block + "reference: reference.py\n" + text)
    with pytest.raises(ConfigError, match="not both"):
        load_hidden(load_problem(problem_set, "patchify"))


# ---------------------------------------------------------------- rules

def test_rules_load_with_their_checks_and_keys(problem_set: Path) -> None:
    problem = load_problem(problem_set, "patchify")
    assert [r.id for r in problem.rules][:3] == ["output_keys", "token_shape", "row_major_grid"]
    assert problem.rule("differentiable").checks == ("gradient",)
    assert problem.rule("differentiable").keys == ("tokens",)
    assert "row-major grid order" in problem.rule("row_major_grid").text
    assert problem.rule("nope") is None


def test_a_test_names_the_rules_it_enforces(problem_set: Path) -> None:
    hidden = load_hidden(load_problem(problem_set, "patchify"))
    by_name = {t.name: t for t in hidden.tests}
    assert by_name["gradient_flows_to_images"].rules == ("differentiable",)
    assert "row_major_grid" in by_name["vit_224"].rules


def test_unknown_rule_id_is_a_one_line_error_naming_the_known_ones(problem_set: Path) -> None:
    _edit(_hidden(problem_set), "rules: [differentiable]", "rules: [row_major, differentiable]")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert match["field"].endswith(".rules")
    assert "'row_major'" in match["message"] and "row_major_grid, feature_order" in match["message"]


def test_rule_with_unknown_check_kind_is_rejected(problem_set: Path) -> None:
    _edit(_public(problem_set), "    checks: [structure]\n", "    checks: [value]\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    match = _error(exc)
    assert match["field"] == "rules[0].checks" and "'value'" in match["message"]


# ---------------------------------------------------------------- hint_when (issue 12)

def _with_hint_when(problem_set: Path, conditions: str) -> None:
    text = _hidden(problem_set).read_text()
    first = text.index("  - name:", text.index("\ntests:"))
    end = text.index("\n", first)
    _hidden(problem_set).write_text(text[:end] + f"\n    hint: look again\n    hint_when: {conditions}" + text[end:])


def test_hint_when_takes_failure_kinds_keys_and_trap_names(problem_set: Path) -> None:
    _with_hint_when(problem_set, "[values.tokens, raises, column_major]")
    hidden = load_hidden(load_problem(problem_set, "patchify"))
    assert hidden.tests[0].hint_when == ("values.tokens", "raises", "column_major")


def test_unknown_hint_when_is_an_error_listing_what_is_known(problem_set: Path) -> None:
    _with_hint_when(problem_set, "[valeus, column_major]")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert match["field"].endswith(".hint_when") and "'valeus'" in match["message"]
    assert "values" in match["message"] and "column_major" in match["message"]


# ---------------------------------------------------------------- authoring errors said once, before any drawing

def test_an_input_larger_than_the_memory_limit_is_one_line_before_anything_is_drawn(problem_set: Path) -> None:
    line = _edit(_hidden(problem_set), "inputs: {images: {normal: [2, 3, 32, 48]}, patch_height: 8, patch_width: 8}",
                 "inputs: {images: {normal: [20000, 20000, 50]}, patch_height: 8, patch_width: 8}")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert int(match["line"]) == line and match["field"].endswith(".inputs.images")
    assert "74.5 GB" in match["message"] and "limits.memory_mb: 1024 MB" in match["message"]


def test_sizes_are_known_before_drawing_for_every_generator(tmp_path: Path) -> None:
    from judge.base.yamlfile import Errors, Fields, load_yaml

    def spec(text: str):
        path = tmp_path / "inputs.yaml"
        path.write_text(f"x: {text}\n")
        return generators.parse_input(load_yaml(path)["x"], Fields(load_yaml(path), "", Errors(path)), "x")

    assert spec("{normal: [10, 10]}").nbytes() == 400                           # float32 by default
    assert spec("{randint: {shape: [10], low: 0, high: 3}}").nbytes() == 80    # int64
    assert spec("{normal: [10], dtype: float64}").nbytes() == 80
    assert spec("{repeat_rows: {shape: [3, 4], times: 2}}").nbytes() == 96
    base = spec("{normal: [5, 5], dtype: float64}")
    assert spec("{like: {of: a}}").nbytes({"a": base}) == 100                   # the base's elements, float32
    assert spec("{literal: [[1, 2], [3, 4]]}").nbytes() == 16


def test_yaml_aliases_are_refused_with_their_line(problem_set: Path) -> None:
    path = _hidden(problem_set)
    line = _edit(path, "inputs: {images: {normal: [2, 3, 32, 48]}, patch_height: 8, patch_width: 8}",
                 "inputs: {images: &big {normal: [2, 3, 32, 48]}, patch_height: 8, patch_width: 8}")
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    text = str(exc.value)
    assert "\n" not in text and f"tests.yaml:{line}:" in text and "anchor &big" in text
    _edit(path, "&big ", "")
    _edit(path, "  - name: vit_224\n", "  - name: billion_laughs\n    rules: [errors]\n    inputs: *x\n  - name: vit_224\n")
    with pytest.raises(ConfigError, match=r"YAML anchors and aliases are not allowed \(found the alias \*x\)"):
        load_hidden(load_problem(problem_set, "patchify"))


@pytest.mark.parametrize("name, said", [("ValueErorr", "did you mean ValueError?"),
                                        ("os.system", "not one of Python's builtin exception classes")])
def test_raises_names_a_builtin_exception_class(problem_set: Path, name: str, said: str) -> None:
    line = _edit(_hidden(problem_set), "    inputs: {images: {normal: [3, 32, 32]}, patch_height: 8, patch_width: 8}\n"
                 "    raises: ValueError\n",
                 f"    inputs: {{images: {{normal: [3, 32, 32]}}, patch_height: 8, patch_width: 8}}\n"
                 f"    raises: {name}\n") + 1
    with pytest.raises(ConfigError) as exc:
        load_hidden(load_problem(problem_set, "patchify"))
    match = _error(exc)
    assert int(match["line"]) == line and match["field"].endswith(".raises") and said in match["message"]


def test_broken_args_are_one_error_not_one_per_example(problem_set: Path) -> None:
    _edit(_public(problem_set), "args: [images, patch_height, patch_width]\n", "args: images\n")
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    assert not isinstance(exc.value, ConfigErrors)
    match = _error(exc)
    assert match["field"] == "args" and "expected a list of argument names" in match["message"]


def test_unreadable_rules_are_one_error_not_one_per_test_naming_a_rule(problem_set: Path) -> None:
    text = _public(problem_set).read_text()
    rules = text[text.index("rules:\n"):text.index("starter:")]
    _public(problem_set).write_text(text.replace(rules, "rules: 3\n"))
    with pytest.raises(ConfigError) as exc:
        load_problem(problem_set, "patchify")
    lines = exc.value.lines() if isinstance(exc.value, ConfigErrors) else [str(exc.value)]
    assert len(lines) == 1 and "rules: expected a list" in lines[0]
