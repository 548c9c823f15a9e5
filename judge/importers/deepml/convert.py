"""Converting one Deep-ML variant into the tests of a problem of this judge, by running its reference.

Everything here runs in the judge's process, where the judge runs every reference: the variant's
`solution.py` (loaded as the reference is, judge.model.solution) and its tests' setup code. No test
code reaches the learner's process but its call (judge.importers.deepml.split). For each test:

1. the test as written runs once with the reference, each print's value kept as it is printed
   (`split.instrumented`): what the reference prints, the unrounded values it prints, its time;
2. the setup runs alone, from the random states the reference's file left; each value the call reads
   becomes an input when the YAML can hold it (judge.importers.deepml.values), else the code that
   makes it goes into the call (a function the test defines, a tensor that requires grad), as do the
   modules the call names (`import numpy as np`) and the setup's seeding, when that alone gives the
   random states the setup left;
3. each argument of the learner's calls that the judge can compute becomes an input too;
4. the repository's `expected_output` is read as values against what the reference printed: where
   they differ beyond the rounding either shows, the test is kept (its expected value is always
   the reference's) and the disagreement is reported.

A test that cannot be split, whose setup or reference fails, is dropped with a one-line reason. What
the variant says of itself (its entry point, signature, output decimals, example) is read by
judge.importers.deepml.facts.
"""
from __future__ import annotations

import ast
import contextlib
import signal
import sys
import threading
import time
import types
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from judge.base.errors import ConfigError
from judge.base.quiet import quiet
from judge.importers.deepml import facts, split
from judge.importers.deepml.clone import TestCase, Variant
from judge.importers.deepml.facts import EXAMPLE, Unimportable
from judge.importers.deepml.values import NotData, Precision, differs, input_spec, one_line, tokens
from judge.model.solution import load_module
from judge.runs import script

TEST_BUDGET_S = 120.0     # one test's run in the judge, at most (a training loop that never ends)


@dataclass(frozen=True)
class Test:
    """One test of the imported problem: its call, inputs and tolerance, and what the reference printed."""

    number: int                       # in tests.json, from 1 (EXAMPLE: example.json's)
    call: str
    inputs: dict[str, Any]            # YAML input specs by name
    precision: tuple[Precision, ...]  # one per print
    expected_output: str              # the repository's
    printed: str                      # the reference's
    seconds: float                    # the reference's time on it, in the judge
    value: Any                        # the reference's canonical value (one print's, or a dict by print)

    @property
    def name(self) -> str:
        return "example" if self.number == EXAMPLE else f"test_{self.number}"


@dataclass(frozen=True)
class Dropped:
    number: int
    reason: str


@dataclass(frozen=True)
class Disagreement:
    """A test whose `expected_output` is not what the reference prints (the reference's is kept)."""

    problem_id: str
    number: int
    expected_output: str
    printed: str
    why: str

    def line(self) -> str:
        return (f"{self.problem_id} test {self.number}: tests.json says {one_line(self.expected_output, 80)!r}, "
                f"the reference prints {one_line(self.printed, 80)!r} ({self.why}); the reference's is kept")


@dataclass
class Conversion:
    """A variant's tests, converted, with what could not be and what disagreed."""

    variant: Variant
    entry_point: str
    signature: str
    framework: str
    tests: list[Test] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    output_decimals: int | None = None     # what the reference rounds its own return to, when it does

    @property
    def example(self) -> Test | None:
        return next((t for t in self.tests if t.number == EXAMPLE), None)

    def without(self, numbers: set[int], reason: Callable[[int], str]) -> "Conversion":
        kept = [t for t in self.tests if t.number not in numbers]
        # example.json's example is no test of the repository's: without it the first test is the example
        dropped = self.dropped + [Dropped(n, reason(n)) for n in sorted(numbers) if n != EXAMPLE]
        return replace(self, tests=kept, dropped=dropped,
                       disagreements=[d for d in self.disagreements if d.number not in numbers])


def convert(variant: Variant, reference_path: Path) -> Conversion:
    """The variant's tests as tests of this judge; Unimportable when none can be. `reference_path` holds
    `reference_source(variant)`, the reference the problem will have."""
    learner = split.learner_names(variant.starter, variant.solution)
    entry = facts.entry_point(variant, learner)
    with quiet():
        try:
            module = load_module(reference_path, f"_judge_deepml_{variant.problem_id}")
        except ConfigError as exc:
            raise Unimportable(f"solution.py fails to load: {exc.detail}") from None
        driver = script.attach(vars(module), (entry,))
    framework = "torch" if variant.framework == "torch" or facts.uses_torch(variant) else "numpy"
    conversion = Conversion(variant, entry, facts.signature(variant, learner), framework,
                            output_decimals=facts.output_decimals(variant.solution, learner))
    signatures = split.signatures(variant.starter, variant.solution)
    cases = list(variant.tests)
    example = facts.example_case(variant, entry, signatures.get(entry, []))
    if example is not None:
        cases.insert(0, example)
    for case in cases:
        try:
            test = _convert(case, module, driver, learner, signatures, conversion.output_decimals)
        except split.Unsplittable as exc:
            if case.number != EXAMPLE:
                conversion.dropped.append(Dropped(case.number, str(exc)))
            continue
        conversion.tests.append(test)
        why = differs(tokens(case.expected_output), tokens(test.printed))
        if why is not None and case.number != EXAMPLE:
            conversion.disagreements.append(Disagreement(variant.problem_id, case.number, case.expected_output,
                                                         test.printed, why))
    if not any(t.number != EXAMPLE for t in conversion.tests):
        reasons = "; ".join(f"test {d.number}: {d.reason}" for d in conversion.dropped[:2])
        raise Unimportable(f"no test could be imported ({reasons})")
    return conversion


# ---------------------------------------------------------------- one test

def _convert(case: TestCase, module: types.ModuleType, driver: Callable, learner: frozenset[str],
             signatures: dict[str, list[str]], output_decimals: int | None) -> Test:
    analysis = split.analyse(case.code, learner)
    printed, values, seconds = _run_as_written(case, analysis, module, driver)
    scope, left = _run_setup(case, analysis, module, driver)
    call, inputs = _inputs(analysis, scope, left, module, driver, signatures)
    precision = tuple(Precision(_min(p.decimals, output_decimals), p.digits) for p in analysis.printed)
    if len(values) == 1:
        value = values[0]
    else:
        value = {split.key(i): v for i, v in enumerate(values, 1)}
    return Test(case.number, call, inputs, precision, case.expected_output, printed, seconds, value)


def _run_as_written(case: TestCase, analysis: split.Analysis, module: types.ModuleType,
                    driver: Callable) -> tuple[str, list[Any], float]:
    """The test with the reference, as Deep-ML runs it (the test after the file's own code, in its
    namespace): what it prints, each print's unrounded value (canonical), and how long it took."""
    shown: list[str] = []

    def capture(*args: Any, sep: str | None = " ", end: str | None = "\n", **_: Any) -> None:
        shown.append((" " if sep is None else sep).join(str(a) for a in args) + ("\n" if end is None else end))

    scope = dict(vars(module))
    scope["print"] = capture
    code = _compiled(split.instrumented(analysis), case)
    started = time.perf_counter()
    _with_reference(case, "the reference fails on the test", lambda: (_start(driver, module), exec(code, scope)))
    seconds = time.perf_counter() - started
    values = [driver.canonical(scope[f"{split.VALUE}_{k}"]) for k in range(1, len(analysis.printed) + 1)]
    return "".join(shown), values, seconds


def _run_setup(case: TestCase, analysis: split.Analysis, module: types.ModuleType,
               driver: Callable) -> tuple[dict, tuple]:
    """The scope the setup leaves and the random states it leaves, run as every call starts (`_start`)."""
    scope = dict(vars(module))
    code = compile(ast.Module(analysis.setup, []), f"<test {case.number}: setup>", "exec")
    _with_reference(case, "the setup fails", lambda: (_start(driver, module), exec(code, scope)))
    return scope, driver.states()


def _start(driver: Callable, module: types.ModuleType) -> None:
    """The random states a call starts from (the driver's), then the file's own seeding, as Deep-ML runs a
    test right after the file."""
    driver.baseline()
    seeds = _module_seeds(module)
    if seeds:
        exec(compile("\n".join(seeds), "<the file's seeding>", "exec"), dict(vars(module)))


def _module_seeds(module: types.ModuleType) -> list[str]:
    """The seeding statements at the top level of the reference's file (a starter's `np.random.seed(42)`)."""
    try:
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    return [ast.unparse(s) for s in tree.body if split.is_seed(s)]


def _inputs(analysis: split.Analysis, scope: dict, left: tuple, module: types.ModuleType, driver: Callable,
            signatures: dict[str, list[str]]) -> tuple[str, dict[str, Any]]:
    """The call's text and its inputs: the arguments the judge computes, then every name the call
    reads from the setup (an input when the YAML can hold its value, else the setup's code that makes
    it, moved into the call), the modules it names and the setup's seeding."""
    used = set(analysis.learner) | set(split.free_names(analysis.call))
    for statement in analysis.call:
        used |= split.bound_names(statement)
    inputs: dict[str, Any] = {}
    renamed = _taken_out(analysis, scope, driver, signatures, inputs, used)
    statements = split.renamed_call(analysis, renamed)
    seeds = _seeding(analysis, left, module, driver)
    defined = analysis.defined_by_setup()
    module_globals = vars(module)
    imports: list[str] = []
    assignments: list[str] = []
    code: set[int] = set()
    todo = split.free_names(statements, skip=analysis.learner | set(inputs))
    todo += split.free_names([ast.parse(s).body[0] for s in seeds])
    seen: set[str] = set()
    while todo:
        name = todo.pop(0)
        if name in seen or name not in scope:
            continue
        seen.add(name)
        value = scope[name]
        line = _import_line(name, value)
        if line is not None:
            imports.append(line)
            continue
        if name not in defined and name in module_globals and value is module_globals[name]:
            continue   # the file's own name (a constant, a helper): the learner's file has its own
        spec = input_spec(value)
        if not isinstance(spec, NotData):
            inputs[name] = spec
            continue
        rebuilt = _rebuilt(name, value, inputs, taken=used | set(inputs))
        if rebuilt is not None:
            assignments.append(rebuilt)
            continue
        if name not in defined:
            raise split.Unsplittable(f"the call reads `{name}`, {spec.why}, which the setup does not make")
        index = defined[name]
        code.add(index)
        todo.extend(split.free_names([analysis.setup[index]], skip=analysis.learner))
    prelude = imports + seeds + assignments + [ast.unparse(analysis.setup[i]) for i in sorted(code)]
    return split.call_source(analysis, statements, prelude), inputs


def _rebuilt(name: str, value: Any, inputs: dict[str, Any], taken: set[str]) -> str | None:
    """A value the YAML cannot hold as it is, made in the call from what it can: a tuple, a set or a dict
    of plain values written as its literal (`new_shape = (4, 2)`), or a list or tuple of values the YAML
    holds, each an input of its own (`kernels = [kernels_1, kernels_2]`). None when neither will do."""
    if type(value) in (tuple, set, frozenset, dict, list):
        text = repr(value)
        if len(text) <= 400:
            try:
                same = ast.literal_eval(text)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                same = None
            if same is not None and _identical(same, value):
                return f"{name} = {text}"
    if type(value) in (list, tuple) and value:
        specs = [input_spec(v) for v in value]
        if any(isinstance(s, NotData) for s in specs):
            return None
        names = []
        for number, spec in enumerate(specs, 1):
            item = _unique(f"{name}_{number}", taken | set(inputs))
            inputs[item] = spec
            names.append(item)
        items = ", ".join(names)
        return f"{name} = [{items}]" if type(value) is list else f"{name} = ({items}{',' if len(names) == 1 else ''})"
    return None


def _identical(a: Any, b: Any) -> bool:
    """Equal, with the same container and scalar types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_identical(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):
        return a == b
    try:
        return bool(a == b) or (a != a and b != b)
    except Exception:  # noqa: BLE001 - a value whose comparison fails is not a literal's
        return False


def _taken_out(analysis: split.Analysis, scope: dict, driver: Callable, signatures: dict[str, list[str]],
               inputs: dict[str, Any], used: set[str]) -> dict[int, str]:
    """Each argument of a learner's call the judge computes itself: its value is an input named after
    its parameter (node id -> name); `inputs` gets the new inputs."""
    taken: dict[int, str] = {}
    taken_names = set(used) | set(analysis.learner) | set(inputs)
    for statement in analysis.call:
        taken_names |= split.bound_names(statement)
    for argument in split.hoistable_arguments(analysis, signatures):
        before = driver.states()
        try:
            with quiet():
                value = eval(compile(ast.Expression(argument.node), "<argument>", "eval"), dict(scope))
        except Exception:  # noqa: BLE001 - test code: an argument the judge cannot compute stays in the call
            continue
        finally:
            after = driver.states()
        if not _same_states(before, after):
            driver.restore(before)
            continue   # it draws random numbers: it is drawn where the call runs, in its order
        spec = input_spec(value)
        if isinstance(spec, NotData):
            continue
        name = _unique(argument.parameter or "arg", taken_names)
        taken_names.add(name)
        inputs[name] = spec
        taken[id(argument.node)] = name
    return taken


def _seeding(analysis: split.Analysis, left: tuple, module: types.ModuleType, driver: Callable) -> list[str]:
    """What the call does first to start from the random states the test starts from: the file's own
    seeding (the driver seeds with 0 before each call), then the setup's when the setup changed the states.
    (Where the setup also drew random numbers after seeding and the learner's code draws more, the call's
    value differs from the test's, and the check of each imported test against the test as written
    drops it.)"""
    _start(driver, module)
    first = _module_seeds(module)
    return first if _same_states(left, driver.states()) else first + list(analysis.seeds)


def _same_states(a: tuple, b: tuple) -> bool:
    random_a, numpy_a, torch_a = a
    random_b, numpy_b, torch_b = b
    if random_a != random_b:
        return False
    if numpy_a[0] != numpy_b[0] or not np.array_equal(numpy_a[1], numpy_b[1]) or tuple(numpy_a[2:]) != tuple(numpy_b[2:]):
        return False
    if (torch_a is None) != (torch_b is None):
        return False
    return torch_a is None or bool((torch_a == torch_b).all())


def _import_line(name: str, value: Any) -> str | None:
    """`import numpy as np` for a module bound to `name`; `from math import sqrt` for a function or class
    of an importable module; None for anything else."""
    if isinstance(value, types.ModuleType):
        real = value.__name__
        return f"import {real}" if real == name else f"import {real} as {name}"
    owner = getattr(value, "__module__", None)
    qualified = getattr(value, "__qualname__", None)
    if isinstance(owner, str) and isinstance(qualified, str) and "." not in qualified \
            and not owner.startswith("_judge") and owner in sys.modules \
            and getattr(sys.modules[owner], qualified, None) is value \
            and (callable(value) and not isinstance(value, np.ndarray)):
        return f"from {owner} import {qualified}" + ("" if qualified == name else f" as {name}")
    return None


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken and name.isidentifier():
        return name
    base = name if name.isidentifier() else "arg"
    number = 2
    while f"{base}_{number}" in taken:
        number += 1
    return f"{base}_{number}"


def _compiled(source: str, case: TestCase):
    try:
        return compile(source, f"<test {case.number}>", "exec")
    except SyntaxError as exc:
        raise split.Unsplittable(f"the test does not compile: {exc.msg}") from None


def _with_reference(case: TestCase, what: str, work: Callable[[], Any]) -> None:
    """Run `work` (the test's code with the reference) quietly, within TEST_BUDGET_S; its failure is
    the test's, said in one line."""
    try:
        with quiet(), _deadline(TEST_BUDGET_S):
            work()
    except _OutOfTime:
        raise split.Unsplittable(f"{what}: it runs for more than {TEST_BUDGET_S:g} s") from None
    except Exception as exc:  # noqa: BLE001 - the repository's code failing is a reason to drop the test
        message = " ".join(str(exc).split())[:160]
        raise split.Unsplittable(f"{what}: {type(exc).__name__}: {message}" if message
                                 else f"{what}: {type(exc).__name__}") from None


class _OutOfTime(BaseException):
    """Raised into a test's code when it has run too long (a BaseException: `except Exception` in it does
    not swallow it)."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Stop Python code running in the main thread after `seconds` (elsewhere: no limit)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(*_: Any) -> None:
        raise _OutOfTime()

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _min(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)
