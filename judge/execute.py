"""Calling a solution on one case's inputs and observing what happened.

The same code runs the trusted reference inside the judge and the untrusted
submission inside the sandbox child, so expected and actual observations are
made the same way: arguments rebuilt from plain values, the call timed, errors
summarised with the solution's own traceback frames, optional autograd with a
seeded upstream gradient, and the inputs read back after the call (to detect
in-place modification). Everything an `Observation` holds is plain data.
"""
from __future__ import annotations

import builtins
import linecache
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from judge import wire


@dataclass(frozen=True)
class Call:
    """One invocation: positional arguments plus what to observe besides the value."""

    args: tuple[Any, ...]
    grad_wrt: tuple[int, ...] = ()      # a dict argument (parameters) means each of its float tensors
    grad_outputs: tuple[str, ...] | None = None
    grad_seed: int = 0
    return_inputs: bool = False
    # {"name", "settings", "data"}: instead of calling the function on `args`, train a model with it
    # as the loss (judge.experiments); the value is the trained weights.
    experiment: dict | None = None

    def to_plain(self) -> dict:
        return {"args": list(self.args), "grad_wrt": list(self.grad_wrt),
                "grad_outputs": None if self.grad_outputs is None else list(self.grad_outputs),
                "grad_seed": self.grad_seed, "return_inputs": self.return_inputs,
                "experiment": self.experiment}

    @classmethod
    def from_plain(cls, plain: dict) -> "Call":
        outputs = plain.get("grad_outputs")
        return cls(args=tuple(plain["args"]), grad_wrt=tuple(plain.get("grad_wrt", ())),
                   grad_outputs=None if outputs is None else tuple(outputs),
                   grad_seed=int(plain.get("grad_seed", 0)),
                   return_inputs=bool(plain.get("return_inputs", False)),
                   experiment=plain.get("experiment"))


@dataclass(frozen=True)
class ErrorInfo:
    """An exception raised by a solution, reduced to names and text."""

    type: str                   # e.g. "ValueError"
    bases: tuple[str, ...]      # builtin classes it derives from, e.g. ("ValueError", "Exception")
    message: str
    frames: tuple[str, ...] = ()  # the solution's own traceback lines, innermost last
    where: str = "call"         # "call", "backward" or "import"

    def is_a(self, name: str) -> bool:
        return name == self.type or name in self.bases

    def headline(self) -> str:
        return f"{self.type}: {self.message}" if self.message else self.type

    def to_plain(self) -> dict:
        return {"type": self.type, "bases": list(self.bases), "message": self.message,
                "frames": list(self.frames), "where": self.where}

    @classmethod
    def from_plain(cls, plain: Any) -> "ErrorInfo":
        if not isinstance(plain, dict):
            raise wire.WireError("malformed error record")
        return cls(type=str(plain.get("type", "Exception"))[:200],
                   bases=tuple(str(b)[:100] for b in plain.get("bases", ())[:20]),
                   message=str(plain.get("message", ""))[:2000],
                   frames=tuple(str(f)[:500] for f in plain.get("frames", ())[:20]),
                   where=str(plain.get("where", "call"))[:20])


@dataclass(frozen=True)
class Observation:
    """What one call did: its value or error, time, grads and inputs afterwards."""

    value: Any = None
    error: ErrorInfo | None = None
    time_ms: float = 0.0
    grads: tuple[Any, ...] | None = None        # one per Call.grad_wrt (None: no gradient; a dict for a dict)
    inputs_after: tuple[Any, ...] | None = None  # when Call.return_inputs
    grad_error: ErrorInfo | None = None

    def to_plain(self) -> dict:
        return {"value": self.value, "error": self.error and self.error.to_plain(),
                "time_ms": self.time_ms,
                "grads": None if self.grads is None else list(self.grads),
                "inputs_after": None if self.inputs_after is None else list(self.inputs_after),
                "grad_error": self.grad_error and self.grad_error.to_plain()}

    @classmethod
    def from_plain(cls, plain: Any) -> "Observation":
        if not isinstance(plain, dict):
            raise wire.WireError("malformed observation")
        grads = plain.get("grads")
        after = plain.get("inputs_after")
        time_ms = plain.get("time_ms", 0.0)
        return cls(value=plain.get("value"),
                   error=None if plain.get("error") is None else ErrorInfo.from_plain(plain["error"]),
                   time_ms=float(time_ms) if isinstance(time_ms, (int, float)) else 0.0,
                   grads=None if grads is None else tuple(grads),
                   inputs_after=None if after is None else tuple(after),
                   grad_error=None if plain.get("grad_error") is None else ErrorInfo.from_plain(plain["grad_error"]))


_BUILTIN_EXCEPTIONS = {name for name, obj in vars(builtins).items()
                       if isinstance(obj, type) and issubclass(obj, BaseException)}


def describe_error(exc: BaseException, filename: str | None, where: str = "call",
                   max_frames: int = 5) -> ErrorInfo:
    """Summarise `exc`, keeping only traceback frames from `filename` (the solution)."""
    bases = tuple(k.__name__ for k in type(exc).__mro__[1:]
                  if k.__module__ == "builtins" and k.__name__ in _BUILTIN_EXCEPTIONS)
    frames: list[str] = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if filename is None or frame.filename == filename:
            text = f'File "{frame.filename}", line {frame.lineno}, in {frame.name}'
            if frame.line:
                text += f"\n    {frame.line.strip()}"
            frames.append(text)
    if isinstance(exc, SyntaxError) and exc.lineno:
        frames.append(f'File "{exc.filename}", line {exc.lineno}\n    {(exc.text or "").strip()}')
    try:
        message = str(exc)
    except Exception:  # a hostile __str__ must not take the harness down
        message = "<unprintable message>"
    return ErrorInfo(type=type(exc).__name__, bases=bases, message=message[:2000],
                     frames=tuple(frames[-max_frames:]), where=where)


def register_source(filename: str, source: str) -> None:
    """Let tracebacks of exec'd code show source lines."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def run_call(fn: Callable, call: Call, filename: str | None) -> Observation:
    """Run `fn` on `call` (plain args are revived first) and observe the outcome."""
    if call.experiment is not None:
        return _run_experiment(fn, call.experiment, filename)
    args = [wire.revive(a) for a in call.args]
    wants_grad = bool(call.grad_wrt)
    targets: list[Any] = []
    if wants_grad:
        for i in call.grad_wrt:
            args[i] = _tracked(args[i])
        # taken before the call: a solution may rebind or delete entries of a dict argument
        targets = [dict(args[i]) if isinstance(args[i], dict) else args[i] for i in call.grad_wrt]
    start = time.perf_counter()
    try:
        value = fn(*args)
    except Exception as exc:
        elapsed = (time.perf_counter() - start) * 1000
        return Observation(error=describe_error(exc, filename), time_ms=elapsed,
                           inputs_after=_inputs_after(args, call))
    elapsed = (time.perf_counter() - start) * 1000
    grads, grad_error = None, None
    if wants_grad:
        grads, grad_error = _backward(value, targets, call, filename)
    return Observation(value=value, time_ms=elapsed, grads=grads, grad_error=grad_error,
                       inputs_after=_inputs_after(args, call))


def _run_experiment(fn: Callable, experiment: dict, filename: str | None) -> Observation:
    """Train with `fn` as the loss; the value is the trained weights (scored in the judge)."""
    from judge import experiments

    start = time.perf_counter()
    try:
        value = experiments.train(experiment, fn)
    except Exception as exc:
        return Observation(error=describe_error(exc, filename), time_ms=(time.perf_counter() - start) * 1000)
    return Observation(value=value, time_ms=(time.perf_counter() - start) * 1000)


def _tracked(value: Any) -> Any:
    """`value` as a leaf that records gradients; for a dict, each of its float tensors."""
    if isinstance(value, dict):
        return {k: _tracked(v) if _is_float_tensor(v) else v for k, v in value.items()}
    return value.detach().requires_grad_(True)


def _is_float_tensor(value: Any) -> bool:
    return hasattr(value, "requires_grad") and hasattr(value, "is_floating_point") and value.is_floating_point()


def _detached(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _detached(v) for k, v in value.items()}
    return value.detach() if hasattr(value, "detach") and hasattr(value, "requires_grad") else value


def _inputs_after(args: list[Any], call: Call) -> tuple[Any, ...] | None:
    if not call.return_inputs:
        return None
    return tuple(_detached(a) for a in args)


def _backward(value: Any, targets: list[Any], call: Call, filename: str | None):
    """Backpropagate sum(output * g) for a seeded random g; return the grads of `targets`.

    A dict target gets a dict of grads, one per float tensor it held before the call.
    """
    import torch

    leaves = _grad_leaves(value, call.grad_outputs)
    generator = torch.Generator().manual_seed(call.grad_seed)
    total = None
    for leaf in leaves:
        if not leaf.requires_grad:
            continue
        upstream = torch.randn(leaf.shape, generator=generator, dtype=torch.float64).to(leaf.dtype)
        term = (leaf * upstream).sum()
        total = term if total is None else total + term
    flat = [(n, k, v) for n, t in enumerate(targets)
            for k, v in (t.items() if isinstance(t, dict) else [(None, t)]) if _is_float_tensor(v)]
    grads: list[Any] = [{} if isinstance(t, dict) else None for t in targets]
    if total is None:
        return tuple(grads), None
    try:
        found = torch.autograd.grad(total, [v for _, _, v in flat], allow_unused=True)
    except Exception as exc:
        return None, describe_error(exc, filename, where="backward")
    for (n, key, _), g in zip(flat, found):
        g = None if g is None else g.detach()
        if key is None:
            grads[n] = g
        else:
            grads[n][key] = g
    return tuple(grads), None


def _grad_leaves(value: Any, keys: tuple[str, ...] | None) -> list[Any]:
    import torch

    if isinstance(value, dict):
        chosen = keys if keys is not None else tuple(value)
        return [value[k] for k in chosen if k in value and isinstance(value[k], torch.Tensor)
                and value[k].is_floating_point()]
    if isinstance(value, torch.Tensor) and value.is_floating_point():
        return [value]
    return []
