"""judge.runs.decisions: a table of facts (a sandbox's report, a submission's error) -> verdict and message.

No sandbox runs here: each row is the facts a run could report, and the
message is the one the learner reads, word for word.
"""
from __future__ import annotations

import signal

import pytest

from judge.runs import decisions as verdicts
from judge.runs.contract import CallOutcome, Death, Kill, Limits, LoadError, LoadKind, Refusal
from judge.runs.calls import ErrorInfo, Observation
from judge.base.outcomes import Verdict

LIMITS = Limits(time_s=2.0, import_time_s=10.0, memory_mb=512, output_bytes=64 << 10,
                results_total_bytes=256 << 20, total_time_s=12.0)
MIB = 1024  # in KiB
AC, WA, RTE = Verdict.ACCEPTED, Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR
TLE, MLE, OLE = Verdict.TIME_LIMIT_EXCEEDED, Verdict.MEMORY_LIMIT_EXCEEDED, Verdict.OUTPUT_LIMIT_EXCEEDED
CE, SV, JE = Verdict.COMPILE_ERROR, Verdict.SECURITY_VIOLATION, Verdict.JUDGE_ERROR


def _error(kind: str, message: str = "", where: str = "call", bases: tuple[str, ...] | None = None) -> ErrorInfo:
    """An error as the harness describes it; `bases` default to the real builtin's."""
    if bases is None:
        import builtins

        cls = getattr(builtins, kind)
        bases = tuple(c.__name__ for c in cls.__mro__ if c is not object)
    return ErrorInfo(type=kind, bases=bases, message=message, where=where)


DEATHS = [
    # (facts, verdict, message)
    (Death(kill=Kill.CALL_TIME, signal=9, peak_memory_kb=5 * MIB, cpu_s=2.0),
     TLE, "this test took longer than the time limit of 2 s of CPU time"),
    (Death(kill=Kill.LOAD_TIME, signal=9, cpu_s=10.0),
     TLE, "loading the file took longer than the time limit of 10 s of CPU time"),
    (Death(kill=Kill.WALL_CLOCK, signal=9, cpu_s=0.5),
     TLE, "this submission used up its time budget of 88 s by the wall clock"),
    # a sleeper far below its memory: ended by the wall clock, whatever its pace; the message says which clock
    (Death(kill=Kill.CALL_WALL, detail="0.01", signal=9, peak_memory_kb=100 * MIB, cpu_s=0.01),
     TLE, "this test ran 8 s by the wall clock (4 x its time limit) and used only 0.01 s of its 2 s of CPU time: "
          "it waited, slept, or the machine was too busy to run it"),
    (Death(kill=Kill.LOAD_WALL, signal=9, cpu_s=0.01),
     TLE, "loading the file ran 40 s by the wall clock (4 x its time limit) and used less than its 10 s of CPU "
          "time: it waited, slept, or the machine was too busy to run it"),
    # a busy loop that took a quarter of its memory slowly: time
    (Death(kill=Kill.CALL_TIME, signal=9, peak_memory_kb=200 * MIB, cpu_s=2.0),
     TLE, "this test took longer than the time limit of 2 s of CPU time"),
    # a hog stopped for time while taking memory fast: memory
    (Death(kill=Kill.CALL_TIME, signal=9, peak_memory_kb=300 * MIB, cpu_s=0.5),
     MLE, "used 300 MiB of its 512 MiB memory limit when it was stopped "
          "(this test took longer than the time limit of 2 s of CPU time)"),
    (Death(kill=Kill.LOAD_TIME, signal=9, peak_memory_kb=400 * MIB, cpu_s=1.0),
     MLE, "used 400 MiB of its 512 MiB memory limit when it was stopped "
          "(loading the file took longer than the time limit of 10 s of CPU time)"),
    # memory does not turn a kill for output into memory_limit_exceeded
    (Death(kill=Kill.OUTPUT_FLOOD, signal=9, peak_memory_kb=500 * MIB, cpu_s=0.1),
     OLE, "printed more than 64 KiB to stdout/stderr"),
    (Death(kill=Kill.RESULTS_TOTAL, signal=9),
     OLE, "the results of this submission's calls together are over 256 MiB"),
    (Death(kill=Kill.MALFORMED_FRAME, detail="a READY frame is not allowed while call 3 runs", signal=9),
     SV, "the submission wrote into the judge's result channel (a READY frame is not allowed while call 3 runs)"),
    (Death(kill=Kill.MALFORMED_FRAME, detail="x" * 500, signal=9),
     SV, f"the submission wrote into the judge's result channel ({'x' * 200})"),
    # nobody here killed it
    (Death(exit_code=0), RTE, "the process exited (exit status 0) before returning a result: "
                              "calling sys.exit() or os._exit() is not allowed"),
    (Death(exit_code=70), RTE, "the process exited with status 70 before returning a result"),
    (Death(signal=signal.SIGSEGV), RTE, "the process crashed with a segmentation fault (SIGSEGV)"),
    (Death(signal=signal.SIGABRT), RTE, "the process was killed by SIGABRT"),
    (Death(signal=200), RTE, "the process was killed by signal 200"),
    (Death(signal=signal.SIGXCPU), TLE, "used more CPU time than allowed (SIGXCPU)"),
    (Death(signal=signal.SIGXFSZ), OLE, "wrote a file larger than the file-size limit (SIGXFSZ)"),
    (Death(signal=signal.SIGSYS), SV, "made a system call that the sandbox forbids (SIGSYS)"),
    # SIGKILL from outside: the kernel's OOM killer near the limit, the submission itself far below it
    (Death(signal=signal.SIGKILL, peak_memory_kb=300 * MIB),
     MLE, "the process was killed (SIGKILL), most likely for using too much memory"),
    (Death(signal=signal.SIGKILL, peak_memory_kb=10 * MIB),
     RTE, "the process was killed by SIGKILL before returning a result"),
    # no status at all is the judge's fault, never a pass
    (Death(), JE, "the sandbox monitor vanished without an exit status"),
]


@pytest.mark.parametrize("death, verdict, message", DEATHS)
def test_a_death_decides_its_call(death, verdict, message):
    assert verdicts.of_call(CallOutcome(death=death), LIMITS) == verdicts.Decision(verdict, message)


@pytest.mark.parametrize("death, verdict, message", DEATHS)
def test_a_death_while_loading_decides_the_file(death, verdict, message):
    decision = verdicts.of_load(LoadError(death=death), LIMITS)
    assert decision == verdicts.Decision(verdict, f"while loading the file: {message}")


def test_calls_without_a_value_get_their_verdict_and_calls_with_one_none():
    skipped = verdicts.of_call(CallOutcome(skipped=True), LIMITS)
    assert skipped == verdicts.Decision(TLE, "not run: earlier tests used up this submission's time budget of 12 s")
    refused = verdicts.of_call(CallOutcome(refusal=Refusal.TOO_MANY_ITEMS, items_allowed=300), LIMITS)
    assert refused == verdicts.Decision(WA, "the result has more than 300 items (arrays, numbers, list items, "
                                            "dict keys), far more than the expected output has: it cannot match")
    assert verdicts.of_call(CallOutcome(observation=Observation(value=1.0)), LIMITS) is None
    # no fact at all: the caller says no result came back (judge_error), never a pass
    assert verdicts.of_call(CallOutcome(), LIMITS) is None


ERRORS = [
    # (error, refusal, verdict, message)
    (_error("ValueError", "bad input"), None, RTE, "raised ValueError: bad input"),
    (_error("NotImplementedError"), None, RTE, "not attempted yet: the function still raises NotImplementedError"),
    (_error("SystemExit", "0"), None, RTE, "called sys.exit() during the test; return a value instead"),
    (_error("RecursionError", "maximum recursion depth exceeded"), None,
     RTE, "maximum recursion depth exceeded (RecursionError: maximum recursion depth exceeded)"),
    # an exception that says memory ran out is a runtime error unless the monitor measured it (the next test)
    (_error("MemoryError"), None, RTE, "raised MemoryError, though the judge measured no memory at its limit"),
    (_error("RuntimeError", "DefaultCPUAllocator: can't allocate memory: you tried to allocate 8 GB"), None,
     RTE, "raised RuntimeError: DefaultCPUAllocator: can't allocate memory: you tried to allocate 8 GB, though "
          "the judge measured no memory at its limit"),
    (_error("OSError", "[Errno 28] No space left on device"), None,
     OLE, "the scratch directory is full: files written are limited (OSError: [Errno 28] No space left on device)"),
    (_error("PermissionError", "[Errno 13] Permission denied: '/etc/shadow'"), None,
     SV, "the sandbox blocked a file access: opening files outside the working directory is not allowed "
         "(PermissionError: [Errno 13] Permission denied: '/etc/shadow')"),
    (_error("PermissionError", "[Errno 1] Operation not permitted"), None,
     SV, "the sandbox blocked an operation: starting programs or processes, network access, signalling "
         "other processes, file locks and watches and memory files are not allowed (PermissionError: [Errno 1] "
         "Operation not permitted)"),
    (_error("PermissionError", "[Errno 1] Operation not permitted: 'notes.txt'"), None,
     SV, "the sandbox blocked a change of a file: changing files' permissions, owners, times or attributes is not "
         "allowed (PermissionError: [Errno 1] Operation not permitted: 'notes.txt')"),
    (_error("OSError", "[Errno 30] Read-only file system: '/usr/lib/python3.11/os.py'"), None,
     SV, "the sandbox blocked a file access: opening files outside the working directory is not allowed "
         "(OSError: [Errno 30] Read-only file system: '/usr/lib/python3.11/os.py')"),
    # a class merely named like a builtin is not one: no sandbox verdict for a forged MemoryError
    (_error("MemoryError", "fake", bases=("Exception", "BaseException")), None, RTE, "raised MemoryError: fake"),
    # the child's harness refused the value: the refusal fact decides, whatever the message says
    (_error("ReturnValueError", "result: the value is too large to return (over the output size limit)",
            where="return", bases=()), Refusal.TOO_LARGE,
     OLE, "result: the value is too large to return (over the output size limit)"),
    (_error("ReturnValueError", "result: cannot return a value of type object", where="return", bases=()),
     Refusal.NOT_RETURNABLE, WA, "result: cannot return a value of type object"),
    (_error("ReturnValueError", "result: too large, it says", where="return", bases=()),
     Refusal.NOT_RETURNABLE, WA, "result: too large, it says"),
]


@pytest.mark.parametrize("error, refusal, verdict, message", ERRORS)
def test_an_error_decides_its_call(error, refusal, verdict, message):
    untouched = error.is_a("NotImplementedError") and refusal is None and error.where != "return"
    assert verdicts.of_error(error, refusal, error_expected=False) == \
        verdicts.Decision(verdict, message, not_attempted=untouched)


def test_only_the_function_raising_not_implemented_is_not_attempted():
    assert verdicts.of_error(_error("NotImplementedError"), None, error_expected=False).not_attempted
    assert not verdicts.of_error(_error("ValueError", "bad shape"), None, error_expected=False).not_attempted
    assert not verdicts.not_attempted(_error("RuntimeError", "NotImplementedError"))  # the type decides, not text


def test_an_expected_error_is_left_to_the_checks_unless_the_monitor_measured_memory_at_its_limit():
    assert verdicts.of_error(_error("ValueError", "bad shape"), None, error_expected=True) is None
    assert verdicts.of_error(_error("MemoryError"), None, error_expected=True) is None
    measured = "it asked for 1024 MiB more address space with 600 MiB mapped, over the 1100 MiB it may map"
    for expected in (True, False):
        assert verdicts.of_error(_error("MemoryError"), None, error_expected=expected, out_of_memory=measured) == \
            verdicts.Decision(MLE, f"ran out of memory: {measured} (MemoryError)")


LOADS = [
    # (kind, error, verdict, message)
    (LoadKind.COMPILE, _error("SyntaxError", "invalid syntax (solution.py, line 1)"),
     CE, "the file does not compile: SyntaxError: invalid syntax (solution.py, line 1)"),
    (LoadKind.COMPILE, _error("NameError", "the file does not define a function named `f`"),
     CE, "the file does not define a function named `f`"),
    (LoadKind.COMPILE, _error("TypeError"), CE, "TypeError"),
    # a SyntaxError raised while the module runs (a broken import) reads as one but is a runtime_error
    (LoadKind.RUNTIME, _error("SyntaxError", "invalid syntax (x, line 1)"),
     RTE, "the file does not compile: SyntaxError: invalid syntax (x, line 1)"),
    (LoadKind.RUNTIME, _error("SystemExit", "3"),
     RTE, "the file called sys.exit() while being loaded; define the function and return values instead"),
    (LoadKind.RUNTIME, _error("RuntimeError", "at import"), RTE, "loading the file raised RuntimeError: at import"),
    (LoadKind.RUNTIME, _error("PermissionError", "[Errno 13] Permission denied: '/srv/hidden'"),
     SV, "while loading the file, the sandbox blocked a file access: opening files outside the working "
         "directory is not allowed (PermissionError: [Errno 13] Permission denied: '/srv/hidden')"),
]


@pytest.mark.parametrize("kind, error, verdict, message", LOADS)
def test_a_load_error_decides_the_file(kind, error, verdict, message):
    assert verdicts.of_load(LoadError(kind=kind, error=error), LIMITS) == verdicts.Decision(verdict, message)


def test_every_kill_and_refusal_has_a_verdict():
    """A new fact without a rule would fall through to a wrong verdict: every member is decided."""
    decided = {kill: verdicts.of_death(Death(kill=kill, signal=9), LIMITS).verdict for kill in Kill}
    assert decided == {Kill.LOAD_TIME: TLE, Kill.CALL_TIME: TLE, Kill.LOAD_WALL: TLE, Kill.CALL_WALL: TLE,
                       Kill.WALL_CLOCK: TLE, Kill.OUTPUT_FLOOD: OLE, Kill.RESULTS_TOTAL: OLE, Kill.MALFORMED_FRAME: SV}
    refused = _error("ReturnValueError", "no", where="return", bases=())
    by_refusal = {r: verdicts.of_error(refused, r, error_expected=False).verdict
                  for r in (Refusal.TOO_LARGE, Refusal.NOT_RETURNABLE)}
    assert by_refusal == {Refusal.TOO_LARGE: OLE, Refusal.NOT_RETURNABLE: WA}
    assert verdicts.of_call(CallOutcome(refusal=Refusal.TOO_MANY_ITEMS, items_allowed=1), LIMITS).verdict is WA
    assert AC not in decided.values()


def test_what_is_not_a_fact_of_the_run_is_decided_here_too():
    """A failed backward pass, a judge that could not judge, a file that is not source: verdicts.py's too."""
    backward = verdicts.of_backward(_error("RuntimeError", "element 0 of tensors does not require grad"))
    assert backward == verdicts.Decision(RTE, "backward pass failed: RuntimeError: element 0 of tensors does not "
                                              "require grad")
    assert verdicts.no_result("main") == verdicts.Decision(Verdict.JUDGE_ERROR, "no result came back for call 'main'")
    assert verdicts.of_unloadable("cannot be decoded").verdict is CE
    assert verdicts.ACCEPTED.verdict is AC


def test_no_module_but_this_one_mints_a_verdict():
    """Every Decision, TestResult, CheckResult or batch Row built with a verdict named in the source
    is built in judge/runs/decisions.py: anywhere else a verdict comes from one of its decisions."""
    import ast
    from pathlib import Path

    package = Path(verdicts.__file__).parent
    minted = []
    for path in sorted(package.rglob("*.py")):
        if path == Path(verdicts.__file__):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                for value in [*node.args, *(k.value for k in node.keywords)]:
                    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                            and value.value.id == "Verdict":
                        minted.append(f"{path.relative_to(package.parent)}:{node.lineno} {ast.unparse(node.func)}")
    assert minted == []
