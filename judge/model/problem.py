"""The problem model: problems as typed data, and loading them from a problem set on disk.

A problem set is a directory laid out like the repository:

    problems/<id>.yaml                 public: statement, signature, limits, examples
    hidden_tests/<id>/tests.yaml       hidden tests, checks, tolerances, traps
    hidden_tests/<id>/reference.py     the trusted reference solution
    hidden_tests/<id>/traps.py         optional: one function per known mistake
    submissions/<id>/<verdict>/*.py    known submissions and their expected verdicts

`load_problem` reads only the public part; `load_hidden` reads the rest and
is called by the judge only after the sandbox's fork server has started, so
hidden data never exists in a process a submission can inherit. Single fields
are read and checked by judge.model.readers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from judge import checks  # the check registry validates check names, parameters and rules

from judge.model import domain as domains
from judge.model.readers import (all_conditions, all_of, all_str, at_least_one, check_memory, identifier, known_rules,
                                 non_negative, one_of, plain, positive, read_inputs, read_names, unknown_test_key)
from judge.model.compose import Composable
from judge.runs import script
from judge.runs.contract import Limits
from judge.base.errors import ConfigError
from judge.model.solution import Inline, load_function, load_module
from judge.base.yamlfile import Errors, Fields, Mapping, Sequence, load_yaml

FRAMEWORKS = ("torch", "numpy")
DIFFICULTIES = ("easy", "medium", "hard")
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
# When a test's hint applies (`hint_when`): the kind of check that failed (a kind
# a rule can license, `judge.checks.rule_kinds`; `values.loss` for a failure on
# one output key), one of these verdicts, or the name of a trap that the output
# matched. A hint about cropping is no help to a solution that pads.
HINT_VERDICTS = ("runtime_error", "time_limit_exceeded", "memory_limit_exceeded")



def hint_failures() -> tuple[str, ...]:
    """What a test's `hint_when` may name besides trap names."""
    return checks.rule_kinds() + HINT_VERDICTS

@dataclass(frozen=True)
class Tolerance:
    rtol: float = 1e-5
    atol: float = 1e-6
    keys: tuple[tuple[str, "Tolerance"], ...] = ()

    def for_key(self, key: str | None) -> "Tolerance":
        for name, tol in self.keys:
            if name == key:
                return tol
        return Tolerance(self.rtol, self.atol)


@dataclass(frozen=True)
class Rule:
    """One rule of the statement: an id tests refer to, the text learners read.

    `checks` names the kinds of check the rule licenses (`judge.checks.rule_kinds`);
    `keys`, when given, limits it to those output keys (a gradient rule about
    `loss` does not license a gradient check on `similarities`).
    """

    id: str
    text: str
    checks: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class CheckSpec:
    """One check selected for a test in YAML: its type name and parameters."""

    type: str
    params: dict
    line: int = 0


@dataclass(frozen=True)
class TestSpec:
    """A named test: inputs, the checks to apply, its tolerance and group."""

    name: str
    group: str
    inputs: dict[str, Any]            # argument name -> plain value or generators.Spec
    checks: tuple[CheckSpec, ...]
    tolerance: Tolerance | None       # None: the hidden file's default tolerance
    hint: str = ""
    hint_when: tuple[str, ...] = ()    # failure kinds (`hint_failures`) or trap names; () = any failure
    explanation: str = ""
    source: str = ""                   # file:line, for authors
    expected: Any = None               # examples only: the output the author states (see `pinned`)
    pinned: bool = False               # `expected` was given; `judge validate` holds the reference to it
    rules: tuple[str, ...] = ()        # ids of the statement's rules this test enforces

    @property
    def public(self) -> bool:
        return self.group == "example"


@dataclass(frozen=True)
class Margins:
    """The margins `judge validate` holds a problem's time limit to (as Kattis does).

    `ac_to_time_limit`: the time limit must be at least this many times the
    slowest accepted submission's slowest test. `time_limit_to_tle`: a
    time_limit_exceeded submission must still time out with the limit raised
    by this factor, and no other verdict may be within this factor of the limit.
    """

    ac_to_time_limit: float = 2.0
    time_limit_to_tle: float = 1.5


@dataclass(frozen=True)
class Problem:
    """The public part of a problem: everything a learner may see."""

    id: str
    title: str
    difficulty: str
    tags: tuple[str, ...]
    framework: str
    entry_point: str
    args: tuple[str, ...]
    signature: str
    statement: str
    starter: str
    hints: tuple[str, ...]
    examples: tuple[TestSpec, ...]
    limits: Limits                     # what a run may use (YAML `limits:` time_s, memory_mb)
    path: Path
    root: Path
    rules: tuple[Rule, ...] = ()
    margins: Margins = Margins()       # YAML `limits:` ac_to_time_limit, time_limit_to_tle
    domain: domains.Domain = domains.Domain()   # what the contract covers, per argument (judge.model.domain)
    driver: str | None = None          # YAML `driver: script`: tests call solutions through a script (judge.runs.script)

    def rule(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)

    def program(self, source: str) -> tuple[str, str]:
        """A solution's source as the sandbox runs it, and the function it calls: the file and its
        entry point, or with a driver the file with the driver after it and the driver's function."""
        if self.driver is None:
            return source, self.entry_point
        return script.program_source(source, (self.entry_point,)), script.ENTRY

    @property
    def hidden_dir(self) -> Path:
        return self.root / "hidden_tests" / self.id

    @property
    def submissions_dir(self) -> Path:
        return self.root / "submissions" / self.id


@dataclass(frozen=True)
class Trap:
    """A known mistake: a function that makes it, and what to tell the learner."""

    name: str
    function: str
    message: str


@dataclass(frozen=True)
class Editorial:
    """What `judge solution` shows beside the reference: the idea, its cost, the classic mistakes."""

    idea: str
    cost: str
    mistakes: tuple[str, ...]


@dataclass(frozen=True)
class Hidden:
    """The hidden part: tests, checks, tolerances, traps and the reference."""

    tests: tuple[TestSpec, ...]
    tolerance: Tolerance
    reference: Path
    traps_file: Path | None
    traps: tuple[Trap, ...]
    path: Path
    editorial: Editorial | None = None
    reference_code: Inline | None = None   # a one-file problem: the reference written in tests.yaml
    driver: str | None = None              # the problem's `driver` (Problem.driver)

    def reference_function(self, entry_point: str) -> Callable:
        """The trusted reference, loaded (from its file, or from tests.yaml); with a driver, the driver's
        function bound to it (called as the sandbox calls a submission: judge.runs.script)."""
        if self.driver is None:
            return load_function(self.reference, entry_point, inline=self.reference_code)
        module = load_module(self.reference, f"_judge_reference_{abs(hash(str(self.reference)))}", self.reference_code)
        return script.attach(vars(module), (entry_point,))

    def reference_source(self) -> str:
        """The reference's source text (`judge solution`, validate's sandboxed run)."""
        if self.reference_code is not None:
            return self.reference_code.text
        try:
            return self.reference.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read the reference: {exc.strerror or exc}", file=self.reference) from None


# ---------------------------------------------------------------- problem sets

def problem_ids(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "problems").glob("*.yaml"))


def load_composable(root: Path, problem_id: str) -> Composable:
    """Problem `problem_id`'s arguments, framework and loaded reference, for `output_of` (judge.model.compose)."""
    other = load_problem(root, problem_id)
    return Composable(tuple(other.args), other.framework, load_hidden(other).reference_function(other.entry_point))


def load_problem(root: Path, problem_id: str) -> Problem:
    """Load and validate the public part of `problem_id`."""
    path = root / "problems" / f"{problem_id}.yaml"
    if not path.is_file():
        known = problem_ids(root)
        close = [k for k in known if k.startswith(problem_id[:3])] or known
        raise ConfigError(f"unknown problem id {problem_id!r}; known problems: {', '.join(close) or 'none'}",
                          file=root / "problems")
    data = load_yaml(path)
    errors = Errors(display_path(path))
    top = Fields(data, "", errors, 1)
    pid = top.get("id", str)
    if pid is not None and pid != problem_id:
        top.error("id", f"must equal the file name {problem_id!r}, got {pid!r}")
    framework = top.get("framework", str, check=one_of(FRAMEWORKS))
    args = read_names(top, "args")
    limits_fields = top.sub("limits")
    limits = Limits(time_s=limits_fields.get("time_s", float, default=2.0, check=positive),
                    memory_mb=limits_fields.get("memory_mb", int, default=1024, check=positive))
    margins = Margins(ac_to_time_limit=limits_fields.get("ac_to_time_limit", float, default=2.0, check=at_least_one),
                      time_limit_to_tle=limits_fields.get("time_limit_to_tle", float, default=1.5,
                                                          check=at_least_one))
    limits_fields.unknown({"time_s", "memory_mb", "ac_to_time_limit", "time_limit_to_tle"})
    rules = _rules(top, errors)
    # Tests name rules by id: when the rules cannot all be read, their ids are not checked (one error, no cascade).
    rule_ids = tuple(r.id for r in rules) if rules_readable(top.data) else None
    examples = _tests(top, "examples", "example", args, None, errors, path, rule_ids,
                      memory_mb=limits.memory_mb or 1024)
    signature = top.get("signature", str)
    problem = Problem(
        id=problem_id,
        title=top.get("title", str),
        difficulty=top.get("difficulty", str, check=one_of(DIFFICULTIES)),
        tags=tuple(top.get("tags", list, default=[], check=all_str)),
        framework=framework,
        entry_point=top.get("entry_point", str, check=identifier),
        args=tuple(args or ()),
        signature=signature,
        statement=top.get("statement", str),
        starter=top.get("starter", str, default=""),
        hints=tuple(top.get("hints", list, default=[], check=all_str)),
        examples=examples,
        limits=limits,
        margins=margins,
        path=path,
        root=root,
        rules=rules,
        domain=domains.read(top, args, signature or ""),
        driver=top.get("driver", str, default=None, check=one_of(script.DRIVERS)),
    )
    top.unknown()
    errors.raise_if_any()
    return problem


def load_hidden(problem: Problem, *, rules_known: bool = True) -> Hidden:
    """Load and validate the hidden part of `problem` (judge process only).

    `rules_known=False`: the public file's rules could not be read, so the tests' rule ids are not
    checked against them (`judge validate` reports the public file's error once, not one per test).
    """
    directory = problem.hidden_dir
    path = directory / "tests.yaml"
    data = load_yaml(path)
    errors = Errors(display_path(path))
    top = Fields(data, "", errors, 1)
    tolerance = _tolerance(top, "tolerance", Tolerance())
    reference_code = None
    if top.has("reference_code"):   # a one-file problem: the reference is a block (|) in this file
        text = top.get("reference_code", str)
        reference_code = Inline(text, top.line("reference_code") + 1) if text is not None else None
        if top.has("reference"):
            top.error("reference", "give the reference as a file (reference) or in this file (reference_code), "
                                   "not both")
        reference = path
    else:
        reference = directory / top.get("reference", str, default="reference.py")
        if not reference.is_file():
            top.error("reference", f"reference solution {display_path(reference)} not found "
                                   "(or write it in this file as reference_code: |)")
    traps_name = top.get("traps_file", str, default="traps.py")
    traps_file = directory / traps_name
    traps = []
    trap_list = top.get("traps", list, default=[])
    for i, item in enumerate(trap_list or []):
        line = trap_list.item_lines[i] if isinstance(trap_list, Sequence) else top.line("traps")
        trap = Fields(item, f"traps[{i}]", errors, line)
        name = trap.get("name", str, check=identifier)
        traps.append(Trap(name=name, function=trap.get("function", str, default=name, check=identifier),
                          message=trap.get("message", str)))
        trap.unknown({"name", "function", "message"})
    if traps and not traps_file.is_file():
        top.error("traps", f"traps are listed but {display_path(traps_file)} does not exist")
    editorial = None
    if top.has("editorial"):
        ed = top.sub("editorial")
        editorial = Editorial(idea=(ed.get("idea", str) or "").strip(), cost=(ed.get("cost", str) or "").strip(),
                              mistakes=tuple(m.strip() for m in ed.get("mistakes", list, default=[], check=all_str)))
        ed.unknown({"idea", "cost", "mistakes"})
    tests = _tests(top, "tests", "hidden", problem.args, tolerance, errors, path,
                   tuple(r.id for r in problem.rules) if rules_known else None,
                   memory_mb=problem.limits.memory_mb)
    trap_names = {t.name for t in traps}
    failures = hint_failures()
    for test in tests:
        unknown = [w for w in test.hint_when if w.split(".", 1)[0] not in failures and w not in trap_names]
        if unknown:
            errors.add(int(test.source.rsplit(":", 1)[1]), f"{test.name}.hint_when",
                       f"unknown {', '.join(map(repr, unknown))}; expected failure kinds "
                       f"({', '.join(failures)}) or trap names ({', '.join(sorted(trap_names)) or 'none'})")
        if test.hint_when and not test.hint:
            errors.add(int(test.source.rsplit(":", 1)[1]), f"{test.name}.hint_when", "given without a `hint`")
    top.unknown()
    errors.raise_if_any()
    return Hidden(tests=tests, tolerance=tolerance, reference=reference,
                  traps_file=traps_file if traps_file.is_file() else None, traps=tuple(traps), path=path,
                  editorial=editorial, reference_code=reference_code, driver=problem.driver)


def load_input_file(problem: Problem, path: Path) -> TestSpec:
    """A learner's own input (`judge run ID FILE --input INPUT.yaml`), in the examples' input format.

    The file maps each argument to a value or generator spec, at the top level or under `inputs:`;
    it becomes one public example named after the file, compared with the reference.
    """
    if not path.is_file():
        raise ConfigError("input file not found", file=path)
    data = load_yaml(path)
    errors = Errors(display_path(path))
    if not isinstance(data, dict):
        errors.add(1, "inputs", f"expected a mapping of {', '.join(problem.args)} to values or generators")
        errors.raise_if_any()
    wrapped = data if "inputs" in data else Mapping({"inputs": data})
    if wrapped is not data:
        wrapped.line, wrapped.key_lines = 1, {"inputs": 1}
    given = wrapped.get("inputs")
    if isinstance(given, Mapping):
        # A plain list for an argument the signature calls a tensor or an array is its values
        # (`images: [[[[0, 1], [2, 3]]]]`), as `literal:` says in a test.
        for name in _array_args(problem):
            if isinstance(given.get(name), list):
                literal = Mapping({"literal": given[name]})
                literal.line, literal.key_lines = given.line_of(name), {"literal": given.line_of(name)}
                given[name] = literal
    top = Fields(wrapped, "", errors, 1)
    inputs = read_inputs(top, problem.args)
    top.unknown({"inputs"})
    errors.raise_if_any()
    return TestSpec(name=re.sub(r"\W", "_", path.stem) or "your_input", group="example", inputs=inputs,
                    checks=(CheckSpec(checks.DEFAULT, {}, 1),), tolerance=None, source=f"{display_path(path)}:1")


def _array_args(problem: Problem) -> list[str]:
    """The arguments whose annotation in the signature names a tensor or an array."""
    import ast

    try:
        tree = ast.parse(problem.signature.strip() + ("" if problem.signature.rstrip().endswith(":") else ":")
                         + "\n    pass\n")
    except SyntaxError:
        return []
    function = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if function is None:
        return []
    arrays = []
    for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]:
        annotation = ast.unparse(arg.annotation) if arg.annotation is not None else ""
        if re.search(r"\b(Tensor|ndarray|NDArray|ArrayLike)\b", annotation):
            arrays.append(arg.arg)
    return arrays


# ---------------------------------------------------------------- field readers

def _rules(top: Fields, errors: Errors) -> tuple[Rule, ...]:
    items = top.get("rules", list, default=[])
    rules: list[Rule] = []
    seen: set[str] = set()
    for i, item in enumerate(items or []):
        line = items.item_lines[i] if isinstance(items, Sequence) else top.line("rules")
        f = Fields(item, f"rules[{i}]", errors, line)
        rule_id = f.get("id", str, check=identifier)
        if rule_id in seen:
            f.error("id", f"duplicate rule id {rule_id!r}")
        seen.add(rule_id)
        kinds = f.get("checks", list, default=[], check=all_of(checks.rule_kinds()))
        keys = f.get("keys", list, default=[], check=all_str)
        rules.append(Rule(id=rule_id or f"rule_{i}", text=f.get("text", str), checks=tuple(kinds or ()),
                          keys=tuple(keys or ()), line=line))
        f.unknown({"id", "text", "checks", "keys"})
    return tuple(rules)


def _tests(top: Fields, key: str, default_group: str, args: tuple[str, ...] | list | None,
           tolerance: Tolerance | None, errors: Errors, path: Path, rule_ids: tuple[str, ...] | None = (),
           memory_mb: int = 1024) -> tuple[TestSpec, ...]:
    """The tests under `key`. `args` or `rule_ids` None: unknown (their own field is broken, and said so
    once), so inputs and rule ids are read without being checked against them."""
    items = top.get(key, list, default=[])
    tests: list[TestSpec] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items or []):
        line = items.item_lines[i] if isinstance(items, Sequence) else top.line(key)
        f = Fields(item, f"{key}[{i}]", errors, line)
        name = f.get("name", str, check=identifier)
        if name in seen:
            f.error("name", f"duplicate test name {name!r} (first at line {seen[name]})")
        elif name:
            seen[name] = f.line()
        group = default_group
        if default_group != "example":
            group = f.get("group", str, default="hidden", check=one_of(("hidden", "check")))
        inputs = read_inputs(f, args)
        check_memory(f, inputs, memory_mb)
        test_tolerance = _tolerance(f, "tolerance", tolerance)
        specs = []
        for check_name in checks.names():
            if f.has(check_name):
                params = checks.parse_params(check_name, f, check_name)
                refused = checks.refuse_params(check_name, params) if params is not None else None
                if refused:
                    f.error(check_name, refused)
                    params = None
                if params is not None:
                    specs.append(CheckSpec(check_name, params, f.line(check_name)))
        if not specs:
            specs.append(CheckSpec(checks.DEFAULT, {}, f.line()))
        pinned = default_group == "example" and f.has("expected")
        tests.append(TestSpec(
            name=name or f"{key}_{i}", group=group, inputs=inputs, checks=tuple(specs),
            tolerance=test_tolerance, hint=f.get("hint", str, default=""),
            hint_when=tuple(f.get("hint_when", list, default=[], check=all_conditions) or ()),
            explanation=f.get("explanation", str, default=""),
            source=f"{display_path(path)}:{f.line()}",
            expected=plain(f.raw("expected")) if pinned else None, pinned=pinned,
            rules=tuple(f.get("rules", list, default=[],
                              check=known_rules(rule_ids) if rule_ids is not None else all_str) or ())))
        fields = {"name", "group", "inputs", "tolerance", "hint", "hint_when", "explanation", "rules"}
        fields = fields - {"group"} | {"expected"} if default_group == "example" else fields
        for unknown in [k for k in f.data if k not in fields and k not in checks.names()]:
            f.error(unknown, unknown_test_key(str(unknown), fields, checks.names()))
    return tuple(tests)


def rules_readable(data: Any) -> bool:
    """Whether a public file's `rules` can be read as rules with ids (absent counts: there are none)."""
    rules = data.get("rules") if isinstance(data, dict) else None
    if rules is None:
        return True
    return isinstance(rules, list) and all(isinstance(r, dict) and isinstance(r.get("id"), str) for r in rules)


def _tolerance(f: Fields, key: str, default: Tolerance | None) -> Tolerance | None:
    if not f.has(key):
        return default
    sub = f.sub(key)
    default = default or Tolerance()
    rtol = sub.get("rtol", float, default=default.rtol, check=non_negative)
    atol = sub.get("atol", float, default=default.atol, check=non_negative)
    keys = []
    per_key = sub.sub("keys")
    for name in per_key.data:
        tol = per_key.sub(str(name))
        keys.append((str(name), Tolerance(tol.get("rtol", float, default=rtol, check=non_negative),
                                          tol.get("atol", float, default=atol, check=non_negative))))
        tol.unknown({"rtol", "atol"})
    sub.unknown({"rtol", "atol", "keys"})
    return Tolerance(rtol, atol, tuple(keys) or default.keys)


def display_path(path: Path) -> Path:
    """Paths relative to the working directory when possible, as users typed them."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path
