"""Deciding verdicts from facts: how a run went (the sandbox's report) and what the submission raised.

The sandbox reports facts only (`judge.runs.contract`): a worker killed for
time or output, its exit status or signal, its peak memory and CPU time, a
value refused, a call skipped. This module alone turns them, and the errors a
submission raised (loading the file or in a call), into a verdict and the
message the learner reads. The checks decide whether a returned value passes
(a failure is a wrong answer unless the check carries a decision of this
module: a failed backward pass, a broken test); `judge.judging.grading` puts them
together per test.
"""
from __future__ import annotations

import signal
from dataclasses import dataclass

from judge.runs.contract import WALL_BACKSTOP, CallOutcome, Death, Kill, Limits, LoadError, LoadKind, Refusal
from judge.runs.calls import ErrorInfo
from judge.base.outcomes import NOT_ATTEMPTED, Verdict

# A test stopped for time is memory_limit_exceeded when memory is what it was spending its time
# on: it had used at least MEMORY_FLOOR of its limit and, at the pace it took memory per CPU
# second, would have taken MEMORY_PACE of the limit within time_s of CPU (the worker's CPU time
# includes its start, so the pace is an underestimate). Page touching varies 10x in speed on a
# loaded machine, so a hog reaches either limit first by chance; a sleeper
# or a busy loop takes little memory per CPU second and stays time_limit_exceeded.
MEMORY_FLOOR = 0.25
MEMORY_PACE = 0.5
_TIME_KILLS = (Kill.LOAD_TIME, Kill.CALL_TIME, Kill.LOAD_WALL, Kill.CALL_WALL, Kill.WALL_CLOCK)
_BLOCKED_ERRNOS = ("[Errno 1]", "[Errno 13]", "[Errno 30]")  # EPERM, EACCES, EROFS


@dataclass(frozen=True)
class Decision:
    """A verdict and the message that explains it (raw: the caller escapes and caps it for display)."""

    verdict: Verdict
    message: str
    not_attempted: bool = False  # the function still raises NotImplementedError (an untouched starter)


ACCEPTED = Decision(Verdict.ACCEPTED, "")


def of_check(outcome) -> Decision:
    """A failed check's verdict (`judge.checks.CheckResult`): a wrong answer, or the decision it carries."""
    return Decision(outcome.verdict, outcome.message)


def of_backward(error: ErrorInfo) -> Decision:
    """The submission's output could not be backpropagated: its backward pass raised."""
    return Decision(Verdict.RUNTIME_ERROR, f"backward pass failed: {error.headline()}")


def judge_failed(message: str) -> Decision:
    """The judge could not judge: a test its reference fails, a result missing, a problem broken or gone."""
    return Decision(Verdict.JUDGE_ERROR, message)


def of_unloadable(why: str) -> Decision:
    """A file the judge could not take in as Python source (not text, too large, unreadable): it cannot compile."""
    return Decision(Verdict.COMPILE_ERROR, why)


def no_result(call: str) -> Decision:
    """A call of the test came back with neither an observation nor a fact that explains why."""
    return judge_failed(f"no result came back for call {call!r}")


def not_attempted(error: ErrorInfo) -> bool:
    """The call itself raised NotImplementedError: the starter's body is untouched."""
    return error.where != "return" and error.is_a("NotImplementedError")


def of_call(outcome: CallOutcome, limits: Limits) -> Decision | None:
    """The verdict of a call that has no observation; None when it has one (its error and checks decide)."""
    if outcome.observation is not None:
        return None
    if outcome.skipped:
        # A submission that hangs in every test would otherwise cost tests x limit.
        return Decision(Verdict.TIME_LIMIT_EXCEEDED,
                        f"not run: earlier tests used up this submission's time budget of {limits.budget_s:g} s")
    if outcome.refusal is Refusal.TOO_MANY_ITEMS:
        return Decision(Verdict.WRONG_ANSWER,
                        f"the result has more than {outcome.items_allowed} items (arrays, numbers, list items, "
                        "dict keys), far more than the expected output has: it cannot match")
    if outcome.death is not None:
        return of_death(outcome.death, limits)
    return None  # no fact at all: the caller reports the missing result


def of_death(death: Death, limits: Limits) -> Decision:
    """The verdict of a worker that ended without a result: killed by the judge, crashed or exited."""
    limit_kb = limits.memory_mb * 1024
    if death.kill is not None:
        decision = _killed(death, limits)
        pace_kb = death.peak_memory_kb / max(death.cpu_s, 0.05) * limits.time_s  # memory it would take in time_s
        if death.kill in _TIME_KILLS and death.peak_memory_kb >= MEMORY_FLOOR * limit_kb \
                and pace_kb >= MEMORY_PACE * limit_kb:
            return Decision(Verdict.MEMORY_LIMIT_EXCEEDED,
                            f"used {death.peak_memory_kb // 1024} MiB of its {limits.memory_mb} MiB memory limit "
                            f"when it was stopped ({decision.message})")
        return decision
    if death.signal is not None:
        if death.signal == signal.SIGKILL and death.peak_memory_kb < limit_kb // 2:
            # Nobody here killed it for time or output and it was far below its memory
            # limit: it killed itself (e.g. os.kill(0, SIGKILL)).
            return Decision(Verdict.RUNTIME_ERROR, "the process was killed by SIGKILL before returning a result")
        return _signalled(death.signal)
    if death.exit_code is None:
        return Decision(Verdict.JUDGE_ERROR, "the sandbox monitor vanished without an exit status")
    if death.exit_code == 0:
        return Decision(Verdict.RUNTIME_ERROR, "the process exited (exit status 0) before returning a result: "
                                               "calling sys.exit() or os._exit() is not allowed")
    return Decision(Verdict.RUNTIME_ERROR,
                    f"the process exited with status {death.exit_code} before returning a result")


def _killed(death: Death, limits: Limits) -> Decision:
    kill = death.kill
    if kill is Kill.WALL_CLOCK:
        return Decision(Verdict.TIME_LIMIT_EXCEEDED, f"this submission used up its time budget of "
                                                     f"{WALL_BACKSTOP * (limits.import_time_s + limits.budget_s):g} s "
                                                     f"by the wall clock")
    if kill is Kill.LOAD_TIME:
        return Decision(Verdict.TIME_LIMIT_EXCEEDED,
                        f"loading the file took longer than the time limit of {limits.import_time_s:g} s of CPU time")
    if kill is Kill.CALL_TIME:
        return Decision(Verdict.TIME_LIMIT_EXCEEDED,
                        f"this test took longer than the time limit of {limits.time_s:g} s of CPU time")
    if kill in (Kill.LOAD_WALL, Kill.CALL_WALL):
        what, limit = ("loading the file", limits.import_time_s) if kill is Kill.LOAD_WALL else ("this test", limits.time_s)
        used = f"only {death.detail} s of" if _is_seconds(death.detail) else "less than"
        return Decision(Verdict.TIME_LIMIT_EXCEEDED,
                        f"{what} ran {WALL_BACKSTOP * limit:g} s by the wall clock ({WALL_BACKSTOP:g} x its time "
                        f"limit) and used {used} its {limit:g} s of CPU time: it waited, slept, or the machine was "
                        f"too busy to run it")
    if kill is Kill.OUTPUT_FLOOD:
        return Decision(Verdict.OUTPUT_LIMIT_EXCEEDED,
                        f"printed more than {limits.output_bytes // 1024} KiB to stdout/stderr")
    if kill is Kill.RESULTS_TOTAL:
        return Decision(Verdict.OUTPUT_LIMIT_EXCEEDED, f"the results of this submission's calls together are over "
                                                       f"{limits.results_total_bytes >> 20} MiB")
    return Decision(Verdict.SECURITY_VIOLATION,
                    f"the submission wrote into the judge's result channel ({death.detail[:200]})")


def _is_seconds(text: str) -> bool:
    try:
        return float(text) >= 0
    except ValueError:
        return False


def _signalled(sig: int) -> Decision:
    if sig == signal.SIGXCPU:
        return Decision(Verdict.TIME_LIMIT_EXCEEDED, "used more CPU time than allowed (SIGXCPU)")
    if sig == signal.SIGXFSZ:
        return Decision(Verdict.OUTPUT_LIMIT_EXCEEDED, "wrote a file larger than the file-size limit (SIGXFSZ)")
    if sig == signal.SIGSYS:
        return Decision(Verdict.SECURITY_VIOLATION, "made a system call that the sandbox forbids (SIGSYS)")
    if sig == signal.SIGSEGV:
        return Decision(Verdict.RUNTIME_ERROR, "the process crashed with a segmentation fault (SIGSEGV)")
    if sig == signal.SIGKILL:
        return Decision(Verdict.MEMORY_LIMIT_EXCEEDED,
                        "the process was killed (SIGKILL), most likely for using too much memory")
    name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else f"signal {sig}"
    return Decision(Verdict.RUNTIME_ERROR, f"the process was killed by {name}")


def of_load(load: LoadError, limits: Limits) -> Decision:
    """The verdict of a file that did not load: what loading raised, or how the worker died meanwhile."""
    error = load.error
    if error is None:
        death = of_death(load.death, limits) if load.death is not None else \
            Decision(Verdict.JUDGE_ERROR, "no error and no exit status came back")
        return Decision(death.verdict, f"while loading the file: {death.message}")
    headline = error.headline()
    blocked = blocked_operation(error)
    if blocked:
        return Decision(Verdict.SECURITY_VIOLATION, f"while loading the file, {blocked} ({headline[:200]})")
    # The child's kind decides the verdict: a SyntaxError raised while the module runs (a broken
    # import) is a runtime_error that still reads as a compile failure.
    verdict = Verdict.COMPILE_ERROR if load.kind is LoadKind.COMPILE else Verdict.RUNTIME_ERROR
    if error.is_a("SyntaxError"):
        return Decision(verdict, f"the file does not compile: {headline}")
    if load.kind is LoadKind.COMPILE:
        return Decision(verdict, headline.split(": ", 1)[1] if ": " in headline else headline)
    if error.is_a("SystemExit"):
        return Decision(verdict,
                        "the file called sys.exit() while being loaded; define the function and return values instead")
    return Decision(verdict, f"loading the file raised {headline}")


def of_error(error: ErrorInfo, refusal: Refusal | None, error_expected: bool, out_of_memory: str = "") -> Decision | None:
    """The verdict of a call that raised `error` (or whose value the child's harness refused);
    None when the test expects an error there (`error_expected`) and this one is for its checks to judge.

    Running out of memory is the monitor's measurement (`out_of_memory`, judge.sandbox.memory), not
    the exception: a MemoryError the judge did not see coming is the runtime error it raised."""
    if out_of_memory:  # memory_limit_exceeded even where an error is expected
        return Decision(Verdict.MEMORY_LIMIT_EXCEEDED, f"ran out of memory: {out_of_memory} "
                                                       f"({error.headline()[:300]})")
    if error_expected:
        return None
    if refusal is Refusal.TOO_LARGE:
        return Decision(Verdict.OUTPUT_LIMIT_EXCEEDED, error.message)
    if refusal is not None or error.where == "return":  # a refusal the sandbox did not name is not too large
        return Decision(Verdict.WRONG_ANSWER, error.message)
    blocked = blocked_operation(error)
    if blocked:
        return Decision(Verdict.SECURITY_VIOLATION, f"{blocked} ({error.headline()[:200]})")
    if error.is_a("OSError") and error.message.startswith("[Errno 28]"):
        return Decision(Verdict.OUTPUT_LIMIT_EXCEEDED,
                        f"the scratch directory is full: files written are limited ({error.headline()[:200]})")
    if error.is_a("MemoryError") or (error.is_a("RuntimeError") and "can't allocate memory" in error.message):
        return Decision(Verdict.RUNTIME_ERROR, f"raised {error.headline()[:300]}, though the judge measured "
                                               "no memory at its limit")
    if not_attempted(error):
        return Decision(Verdict.RUNTIME_ERROR, f"{NOT_ATTEMPTED}: the function still raises NotImplementedError",
                        not_attempted=True)
    if error.is_a("SystemExit"):
        return Decision(Verdict.RUNTIME_ERROR, "called sys.exit() during the test; return a value instead")
    if error.is_a("RecursionError"):
        return Decision(Verdict.RUNTIME_ERROR, f"maximum recursion depth exceeded ({error.headline()[:200]})")
    return Decision(Verdict.RUNTIME_ERROR, f"raised {error.headline()}")


def blocked_operation(error: ErrorInfo) -> str | None:
    """The sandbox's refusal in the learner's terms, when `error` is one (EPERM, EACCES, or EROFS from its read-only root)."""
    if not (error.is_a("PermissionError") or (error.is_a("OSError") and error.message.startswith(_BLOCKED_ERRNOS))):
        return None
    text = error.message
    if "'" in text or "/" in text:
        if text.startswith("[Errno 1]"):  # a path refused with EPERM: a change of its metadata (seccomp, ownership)
            return ("the sandbox blocked a change of a file: changing files' permissions, owners, times or "
                    "attributes is not allowed")
        return "the sandbox blocked a file access: opening files outside the working directory is not allowed"
    return ("the sandbox blocked an operation: starting programs or processes, network access, "
            "signalling other processes, file locks and watches and memory files are not allowed")
