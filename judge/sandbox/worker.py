"""The sandbox child: receives a program and its calls, runs them, streams results.

This code runs in the forked child. Until the submission is loaded it is the
judge's own code; from then on nothing here is trusted: whatever the child
sends is decoded by the judge as plain data and checked there.

A run comes in two frames. REQUEST holds what is the same for every
submission of a prepared problem (the limits, the directories to hide, the
calls' inputs): the child decodes it, applies every isolation layer, binds
the harness (`judge.harness`, so the functions that observe and encode each
call are ones the submission cannot rebind), says READY (with its isolation
layers: the only layer report the judge accepts) and installs the audit hook.
PROGRAM then brings the submission and the order to run the calls in, drawn
by the judge for this submission. A judge that keeps a run ready sends
REQUEST before it has the submission (runner.Sandbox keeps one ahead), so a
submission waits only for its own loading and calls; the child it gets has
done nothing but that set-up. After loading the child says LOADED, then
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
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

from judge import harness, wire
from judge.contract import Limits, Refusal
from judge.execute import Call, ErrorInfo, describe_error, register_source
from judge.sandbox import audit, cgroups, channel, isolation
from judge.wording import a as article

from judge.sandbox.channel import DONE, LOAD_ERROR, LOADED, PROGRAM, READY, REQUEST, RESULT


def main(data_fd: int, out_fd: int, scratch: Path, protected: tuple[Path, ...], disabled: tuple[str, ...],
         group: cgroups.RunGroup | None = None, bound: "Bound | None" = None) -> None:
    """Entry point in the child; never returns. `bound`: the harness as the zygote bound it (else bound here)."""
    code = 0
    try:
        _serve(data_fd, out_fd, scratch, protected, disabled, group, bound)
    except BaseException:  # the child must exit through os._exit, never unwind into the zygote
        code = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)


@dataclass(frozen=True)
class Bound:
    """Everything the worker's loop calls once a submission is loaded, bound before it loads."""

    bound: SimpleNamespace       # harness.bind(): wire, execute and json, rebound-proof
    send: Callable
    dumps: Callable
    load: Callable
    flush: Callable
    drained: Callable
    encode: Callable
    close_channels: Callable
    frozen_with: int = 0         # len(sys.modules) when the zygote froze the classes; 0: not frozen


def bind() -> Bound:
    """The harness and this module's loop functions as private copies (issue 10, class 2; issue 21,
    class 4): the submission may rebind any module's names, the judge's included.

    The zygote calls this once, before any fork, and hands the result to every worker (a worker
    bound its own in 2.4 ms, copying pages as it went); nothing but the arguments of the worker's
    own frames refers to it, and frames are closed to the submission (judge.sandbox.audit).
    """
    bound = harness.bind()
    send, = harness.private((channel.send_frame,))
    load, flush, drained, encode, close_channels = harness.private(
        (_load, _flush, _drained, _encode, _close_channels),
        {"describe_error": bound.execute.describe_error, "register_source": bound.execute.register_source,
         "json": bound.json, "channel": SimpleNamespace(send_frame=send)})
    return Bound(bound, send, bound.json.dumps, load, flush, drained, encode, close_channels)


def _serve(data_fd: int, out_fd: int, scratch: Path, protected: tuple[Path, ...], disabled: tuple[str, ...],
           group: cgroups.RunGroup | None, prebound: Bound | None) -> None:
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    sock = socket.socket(fileno=data_fd)
    _join_ahead(group, disabled)
    kind, payload = channel.recv_frame(sock)
    if kind != REQUEST:
        os._exit(71)
    header, body = payload.split(b"\n", 1)
    request = json.loads(header)
    limits = Limits.from_plain(request["limits"])
    calls = [Call.from_plain(c) for c in wire.decode(body, len(body) + 1)]
    # The server's list, and this run's own (the directory being graded): it travels with the request.
    protected = tuple(dict.fromkeys(protected + tuple(Path(p) for p in request.get("protect", ()))))
    ctx = isolation.ChildContext(limits=limits, scratch=scratch, keep_fds=(sock.fileno(),), protected=protected,
                                 calls=len(calls), disabled=disabled, group=group)
    isolation.apply_all(ctx)
    _set_threads(limits.threads)
    # Everything the loop below calls is bound with private globals, before the submission loads.
    b = prebound or bind()
    bound, send, dumps, load, flush, drained, encode, close_channels = \
        b.bound, b.send, b.dumps, b.load, b.flush, b.drained, b.encode, b.close_channels
    run_call, describe, observing = bound.execute.run_call, bound.execute.describe_error, bound.execute.observing
    Observation = bound.execute.Observation
    send(sock, READY, dumps({"active": ctx.active, "failed": ctx.failed}).encode())
    if "audit hook" in ctx.active:
        # Frozen in the zygote, unless a module came since: listing the modules reads every name in
        # sys.modules, and each page read-and-counted after the fork is a copy (2.6 ms).
        if b.frozen_with != len(sys.modules):
            audit.freeze_classes()
        audit.install()  # from here on, no frame, gc, tracing or ctypes: see judge.sandbox.audit
    kind, payload = channel.recv_frame(sock)
    if kind != PROGRAM:
        os._exit(71)
    program = json.loads(payload)
    # Which call runs at which index of the judge's list (its order for this submission); the
    # judge checks the indices of the results, so a wrong pairing is caught there too.
    pairs = [(index, calls[call]) for index, call in program["order"]]
    filename = program["filename"]
    fn = load(sock, program["source"], filename, program["entry_point"])
    if fn is None:
        return
    flush()  # what it printed while loading is not the first call's output
    drained()
    send(sock, LOADED)
    for index, call in pairs:
        try:
            observation = run_call(fn, call, filename)
        except BaseException as exc:  # SystemExit, KeyboardInterrupt from the submission
            observation = Observation(error=describe(exc, filename))
        flush()
        drained()
        refusal, body = observing(lambda: encode(bound, observation, limits.result_bytes))
        header = {"index": index} if refusal is None else {"index": index, "refusal": refusal}
        send(sock, RESULT, dumps(header).encode() + b"\n" + body)
    send(sock, DONE)
    close_channels(sock, out_fd)


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
    holds its channel after a short grace (runner.DONE_GRACE_S)."""
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
    all of its call's output. The functions are bound here, before any submission loads; one
    that redirects its stdout or keeps printing only misplaces its own output.
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
    """Compile and execute the submission; report load errors; return the entry point."""
    def fail(kind: str, error: ErrorInfo) -> None:
        _flush()
        channel.send_frame(sock, LOAD_ERROR, json.dumps({"kind": kind, "error": error.to_plain()}).encode())

    register_source(filename, source)
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        fail("compile", describe_error(exc, filename, where="import"))
        return None
    module = {"__name__": "submission", "__file__": filename, "__builtins__": builtins}
    try:
        exec(code, module)
    except BaseException as exc:
        fail("runtime", describe_error(exc, filename, where="import"))
        return None
    fn = module.get(entry_point)
    if fn is None:
        defined = sorted(k for k, v in module.items() if callable(v) and not k.startswith("_")
                         and getattr(v, "__module__", None) == "submission")
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


def _encode(bound, observation, max_bytes: int) -> tuple[str | None, bytes]:
    """The observation in wire bytes, through the harness's bound copies, with no refusal; when it
    cannot cross, the refusal (a `Refusal` value) and an observation whose error says why."""
    execute, wire_bound = bound.execute, bound.wire

    def encode(plain, limit):
        return wire_bound.encode(plain, limit, wire_bound.MAX_NODES)

    try:
        return None, encode(execute.observation_plain(observation), max_bytes)
    except wire_bound.TooLarge as exc:
        refusal, message = Refusal.TOO_LARGE.value, str(exc)
    except wire_bound.WireError as exc:
        refusal, message = Refusal.NOT_RETURNABLE.value, str(exc)
    except Exception as exc:  # a hostile value (e.g. RecursionError, a raising __len__) is the submission's error
        refusal, message = Refusal.NOT_RETURNABLE.value, f"the returned value could not be read: {type(exc).__name__}"
    error = execute.ErrorInfo(type="ReturnValueError", bases=(), message=message, where="return")
    return refusal, encode(execute.observation_plain(execute.Observation(error=error, time_ms=observation.time_ms)),
                           max_bytes)
