"""The sandbox child: receives a program and its calls, runs them, streams results.

This code runs in the forked child. Until the submission is loaded it is the
judge's own code; from then on nothing here is trusted: the submission runs in
this process and may change anything in it, this module included. What the
child sends is decoded by the judge as plain data and checked there, and
every verdict rests on what the judge measures itself (the values against
expected values the child never holds, the arguments in the judge's shared
mapping, time, memory, output and exit); what only the child can say (which
exception a call raised, its gradients) is a claim (docs/sandbox.md, "Claims").

A run comes in two frames. REQUEST holds what is the same for every
submission of a prepared problem (the limits, the directories to hide, the
calls' inputs): the child decodes it, applies every isolation layer and says
READY (with its isolation layers: the only layer report the judge accepts).
The request comes with a memfd, the arguments' arena (judge.sandbox.arena):
each call's arrays are views on it, so the judge sees in-place changes itself.
PROGRAM then brings the submission and the order to run the calls in, drawn
by the judge for this submission. A judge that keeps a run ready sends
REQUEST before it has the submission (runner.Sandbox keeps one ahead), so a
submission waits only for its own loading and calls; the child it gets has
done nothing but that set-up and a warm-up of the judge's own code on the
calls' arguments (judge.sandbox.warmup). After loading the child says LOADED, then
sends one RESULT per call, then DONE.
"""
from __future__ import annotations

import builtins
import fcntl
import json
import os
import socket
import sys
import termios
import time
import types
from pathlib import Path
from typing import Callable

from judge.base import encoding as wire
from judge.runs.contract import Limits, Refusal
from judge.runs.calls import Call, ErrorInfo, Observation, describe_error, observation_plain, observing, \
    register_source, run_call
from judge.sandbox import arena, cgroups, channel, isolation, memory, warmup
from judge.base.wording import a as article

from judge.sandbox.channel import DONE, LOAD_ERROR, LOADED, PROGRAM, READY, REQUEST, RESULT

# The name the submission's module has in sys.modules while it loads and runs: code that looks its
# own module up there (dataclasses resolving string annotations, pickle, typing) finds it.
MODULE_NAME = "submission"


def main(data_fd: int, out_fd: int, scratch: Path, protected: tuple[Path, ...], disabled: tuple[str, ...],
         group: cgroups.RunGroup | None = None, measure_fd: int | None = None) -> None:
    """Entry point in the child; never returns. `measure_fd`: the socket to the monitor (judge.sandbox.memory)."""
    code = 0
    try:
        _serve(data_fd, out_fd, scratch, protected, disabled, group, measure_fd)
    except BaseException:  # the child must exit through os._exit, never unwind into the zygote
        code = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)


def _serve(data_fd: int, out_fd: int, scratch: Path, protected: tuple[Path, ...], disabled: tuple[str, ...],
           group: cgroups.RunGroup | None, measure_fd: int | None) -> None:
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    sock = socket.socket(fileno=data_fd)
    _join_ahead(group, disabled)
    _, fds, _, _ = socket.recv_fds(sock, 1, 1)  # the arguments' arena, before its request
    if len(fds) != 1:
        os._exit(71)
    kind, payload = channel.recv_frame(sock)
    if kind != REQUEST:
        os._exit(71)
    header, body = payload.split(b"\n", 1)
    request = json.loads(header)
    limits = Limits.from_plain(request["limits"])
    calls = [Call.from_plain(c) for c in wire.decode(body, len(body) + 1)]
    mapped = arena.Mapped(fds[0], calls)
    # The server's list, and this run's own (the directory being graded): it travels with the request.
    protected = tuple(dict.fromkeys(protected + tuple(Path(p) for p in request.get("protect", ()))))
    monitor = socket.socket(fileno=measure_fd) if measure_fd is not None else None
    ctx = isolation.ChildContext(limits=limits, scratch=scratch,
                                 keep_fds=(sock.fileno(),) + ((measure_fd,) if monitor is not None else ()),
                                 protected=protected, calls=len(calls), disabled=disabled, group=group,
                                 monitor=monitor)
    isolation.apply_all(ctx)
    try:  # with the zygote's one torch thread: warming up starts no thread pool
        warmup.in_worker(calls, mapped.arguments, limits.result_bytes)
    except Exception:  # noqa: BLE001 - only a saving: the submission's first calls then pay for first use
        pass
    _set_threads(limits.threads)
    channel.send_frame(sock, READY, json.dumps({"active": ctx.active, "failed": ctx.failed}).encode())
    kind, payload = channel.recv_frame(sock)
    if kind != PROGRAM:
        os._exit(71)
    program = json.loads(payload)
    # Which call runs at which index of the judge's list (its order for this submission); the
    # judge checks the indices of the results, so a wrong pairing is caught there too.
    pairs = [(index, call) for index, call in program["order"]]
    filename = program["filename"]
    look = _watch()  # made before the file loads: a plain function, whatever the file rebinds
    fn = _load(sock, program["source"], filename, program["entry_point"])
    if fn is None:
        return
    _flush()  # what it printed while loading is not the first call's output
    _drained()
    channel.send_frame(sock, LOADED)
    for index, number in pairs:
        call = calls[number]
        try:
            observation = run_call(fn, call, filename, mapped.arguments(number, call.args))
        except BaseException as exc:  # SystemExit, KeyboardInterrupt from the submission
            observation = Observation(error=describe_error(exc, filename))
        if _claims_memory(observation.error):
            memory.ask(monitor, index)  # the monitor's measurement reaches the judge before this result
        _flush()
        _drained()
        refusal, body = observing(lambda: _encode(observation, limits.result_bytes))
        header = {"index": index} if refusal is None else {"index": index, "refusal": refusal}
        seen = look(index == pairs[-1][0])
        if seen:
            header["tampering"] = seen
        channel.send_frame(sock, RESULT, json.dumps(header).encode() + b"\n" + body)
    channel.send_frame(sock, DONE)
    _close_channels(sock, out_fd)


# The judge's modules this process runs its observing with: their names must keep their values.
WATCHED = ("judge.runs.calls", "judge.base.encoding", "judge.runs.contract", "judge.sandbox.worker",
           "judge.sandbox.channel", "judge.sandbox.arena", "judge.sandbox.memory")


def _watch(watched: tuple[str, ...] = WATCHED, *, sys_modules: dict = sys.modules, gettrace=sys.gettrace,
           getprofile=sys.getprofile, module_vars=vars, snapshot=dict, ordered=sorted,
           function_stack=None, dispatch_stack=None) -> Callable[[bool], list[str]]:
    """What the child can tell, as it runs, of the submission reaching into internals: a trace or profile
    function left set, a torch mode left entered after a call, the judge's own modules changed.

    Returns `look(last)`, called after each call (`last`: after the last one); it returns what was first
    seen then, each finding once, to go with that call's result (judge.sandbox.frames: `tampering`).
    Made before the submission loads, it holds everything it uses itself (the functions it calls, the
    modules and their names as they were, what it has said), bound now: rebinding a class attribute, a
    module's name or a builtin afterwards changes nothing it does. It is the submission's process all
    the same: code that reaches the function itself (its closure, through frames or the garbage
    collector) or rewrites what its findings are sent with (json, the channel, the socket) silences it,
    and such code is flagged only where the source shows it (judge.judging.tampering). A claim, like
    everything the child says: shown to the instructor, never a verdict."""
    modules = {name: sys_modules.get(name) for name in watched}
    names = {name: snapshot(module_vars(module)) for name, module in modules.items() if module is not None}
    torch = sys_modules.get("torch")
    if torch is not None and function_stack is None:
        function_stack = torch._C._len_torch_function_stack
        dispatch_stack = getattr(torch._C, "_len_torch_dispatch_stack", None)
    said: set[str] = set()
    absent = object()
    walked = []  # empty until the first look has walked the judge's modules

    def judge_changed() -> list[str]:
        changed = []
        for name, module in modules.items():
            if sys_modules.get(name) is not module:
                changed.append(f"the judge's module {name} was replaced in sys.modules")
            elif module is not None:
                now = module_vars(module)
                rebound = ordered(k for k, v in names[name].items() if now.get(k, absent) is not v)
                if rebound:
                    changed.append(f"names of the judge's module {name} were rebound: {', '.join(rebound[:5])}")
        return changed

    def modes_entered() -> bool:
        if function_stack is not None:
            return function_stack() > 0 or (dispatch_stack is not None and dispatch_stack() > 0)
        late = sys_modules.get("torch")  # imported by the submission itself: its torch, looked up now
        return late is not None and (late._C._len_torch_function_stack() > 0 or _dispatch_modes(late) > 0)

    def look(last: bool) -> list[str]:
        seen = []
        if gettrace() is not None or getprofile() is not None:
            seen.append("a trace or profile function was left set (sys.settrace, sys.setprofile)")
        if modes_entered():
            seen.append("a torch function or dispatch mode was left entered after a call")
        if not walked or last:  # after the first call (what loading did too) and the last
            seen += judge_changed()  # (a walk of the judge's modules: 20 us, every call's before)
            walked.append(True)
        fresh = [s for s in seen if s not in said]
        said.update(fresh)
        return fresh

    return look


def _dispatch_modes(torch) -> int:
    length = getattr(torch._C, "_len_torch_dispatch_stack", None)
    return length() if length is not None else 0


def _claims_memory(error: ErrorInfo | None) -> bool:
    """Whether a call's error says it ran out of memory (numpy's MemoryError, torch's allocator)."""
    return error is not None and (error.is_a("MemoryError") or "can't allocate memory" in error.message)


def _join_ahead(group: cgroups.RunGroup | None, disabled: tuple[str, ...]) -> None:
    """Join the run's control groups before the request comes (see cgroups.RunGroup.join); the
    layers then only write the limits. One that cannot be joined now is tried again by its layer,
    which reports it missing if it fails there too."""
    if group is None:
        return
    for controller, layer in (("memory", "memory accounting"), ("pids", "task limit")):
        if controller in group.paths and layer not in disabled:
            try:
                group.join(controller)
            except OSError:
                pass


def _close_channels(sock: socket.socket, out_fd: int) -> None:
    """Close what the judge reads, so it need not wait for this process's exit (unmapping a
    torch-sized address space takes milliseconds). A descriptor the submission duplicated stays
    open until the exit; the judge stops reading output at DONE and kills a worker that still
    holds its channel after a short grace (drive.DONE_GRACE_S)."""
    _flush()
    sock.close()
    for fd in {1, 2, out_fd}:
        try:
            os.close(fd)
        except OSError:  # out_fd is already closed by the closed-descriptors layer
            pass


def _set_threads(threads: int) -> None:
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(max(1, threads))


# How long a worker waits for the judge to read what a call printed before it sends the result anyway.
DRAIN_WAIT_S = 1.0


def _drained(fd: int = 1, ioctl=fcntl.ioctl, request: int = termios.FIONREAD, clock=time.monotonic,
             sleep=time.sleep) -> None:
    """Wait until the judge has read everything printed so far (at most DRAIN_WAIT_S).

    Printed output travels on a pipe and results on a socket, with no order between them: a
    result sent while its call's output still sits in the pipe reaches the judge first, and the
    output would be credited to the next call. Sent once the pipe is empty, the result follows
    all of its call's output. A submission that redirects its stdout, keeps printing or rebinds
    these functions only misplaces its own output.
    """
    deadline = clock() + DRAIN_WAIT_S
    buffer = bytearray(4)
    while clock() < deadline:
        try:
            ioctl(fd, request, buffer)
        except OSError:  # stdout is no longer a pipe (the submission closed or replaced it)
            return
        if int.from_bytes(buffer, sys.byteorder) == 0:
            return
        sleep(0.0002)


def _flush() -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _load(sock: socket.socket, source: str, filename: str, entry_point: str):
    """Compile and execute the submission as the module `submission`; report load errors; return the entry point."""
    def fail(kind: str, error: ErrorInfo) -> None:
        _flush()
        channel.send_frame(sock, LOAD_ERROR, json.dumps({"kind": kind, "error": error.to_plain()}).encode())

    register_source(filename, source)
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        fail("compile", describe_error(exc, filename, where="import"))
        return None
    module = types.ModuleType(MODULE_NAME)
    module.__file__ = filename
    module.__builtins__ = builtins
    sys.modules[MODULE_NAME] = module  # as the import system does: the module is findable while it runs
    try:
        exec(code, vars(module))
    except BaseException as exc:
        fail("runtime", describe_error(exc, filename, where="import"))
        return None
    namespace = vars(module)
    fn = namespace.get(entry_point)
    if fn is None:
        defined = sorted(k for k, v in namespace.items() if callable(v) and not k.startswith("_")
                         and getattr(v, "__module__", None) == MODULE_NAME)
        hint = f"; it defines {', '.join(defined)}" if defined else ""
        fail("compile", ErrorInfo(type="NameError", bases=("NameError", "Exception", "BaseException"),
                                  message=f"the file does not define a function named `{entry_point}`{hint}",
                                  where="import"))
        return None
    if not callable(fn):
        fail("compile", ErrorInfo(type="TypeError", bases=("TypeError", "Exception", "BaseException"),
                                  message=f"`{entry_point}` is {article(type(fn).__name__)}, not a function",
                                  where="import"))
        return None
    return fn


def _encode(observation: Observation, max_bytes: int) -> tuple[str | None, bytes]:
    """The observation in wire bytes, with no refusal; when it cannot cross, the refusal (a
    `Refusal` value) and an observation whose error says why."""
    def encode(plain, limit):
        return wire.encode(plain, limit, wire.MAX_NODES)

    try:
        return None, encode(observation_plain(observation), max_bytes)
    except wire.TooLarge as exc:
        refusal, message = Refusal.TOO_LARGE.value, str(exc)
    except wire.WireError as exc:
        refusal, message = Refusal.NOT_RETURNABLE.value, str(exc)
    except Exception as exc:  # a hostile value (e.g. RecursionError, a raising __len__) is the submission's error
        refusal, message = Refusal.NOT_RETURNABLE.value, f"the returned value could not be read: {type(exc).__name__}"
    error = ErrorInfo(type="ReturnValueError", bases=(), message=message, where="return")
    return refusal, encode(observation_plain(Observation(error=error, time_ms=observation.time_ms)), max_bytes)
