"""Calling a solution on one case's inputs and observing what happened.

The same code runs the trusted reference inside the judge and the untrusted
submission inside the sandbox child, so expected and actual observations are
made the same way: arguments rebuilt from plain values, the call timed, errors
summarised with the solution's own traceback frames, optional autograd with a
seeded upstream gradient, and the inputs read back after every call (to detect
in-place modification; every call, so that no call looks like a probe). An
array argument the call left exactly as it was sent comes back as `UNCHANGED`
rather than its bytes, and the judge puts its own copy in its place when it
judges the outcome, whichever backend ran it (`restore_unchanged`, called by
judge.judging.grading): what is said is the same, and a 600 KB image need not be
encoded, sent and decoded again after every call.
Everything an `Observation` holds is plain data.

In the sandbox child these functions run in the submission's own process,
which may change anything in it: what they report is what the child says of
itself. The judge decides values against expected values the child never
holds and reads the arguments back from its own shared mapping
(judge.sandbox.arena); which exception a call raised and the gradients it
returned are the child's claims. Torch is reached through `wire.torch_api()`
(entry points of torch's C types, with torch's Python-level modes off while a
call is observed), so honest code that patches `torch.Tensor` or leaves a
mode entered does not change what is observed. Exception identity is decided
on the exception's real type: `type(exc)` (which no `__class__` attribute
changes) and that type's own MRO, read through `type`'s own descriptor (which
no metaclass property replaces), against the builtin classes bound when this
module was imported, by identity. What the interpreter itself goes by, so it
is what a caller's `except ValueError` would catch.
"""
from __future__ import annotations

import builtins
import linecache
import time
import traceback
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

from judge.base import encoding as wire


@dataclass(frozen=True)
class Call:
    """One invocation: positional arguments plus what to observe besides the value."""

    args: tuple[Any, ...]
    grad_wrt: tuple[int, ...] = ()      # a dict argument (parameters) means each of its float tensors
    grad_outputs: tuple[str, ...] | None = None
    grad_seed: int = 0
    # {"name", "settings", "data"}: instead of calling the function on `args`, train a model with it
    # as the loss (judge.experiments); the value is the trained weights.
    experiment: dict | None = None

    def to_plain(self) -> dict:
        return {"args": list(self.args), "grad_wrt": list(self.grad_wrt),
                "grad_outputs": None if self.grad_outputs is None else list(self.grad_outputs),
                "grad_seed": self.grad_seed, "experiment": self.experiment}

    @classmethod
    def from_plain(cls, plain: dict) -> "Call":
        outputs = plain.get("grad_outputs")
        return cls(args=tuple(plain["args"]), grad_wrt=tuple(plain.get("grad_wrt", ())),
                   grad_outputs=None if outputs is None else tuple(outputs),
                   grad_seed=int(plain.get("grad_seed", 0)),
                   experiment=plain.get("experiment"))


@dataclass(frozen=True)
class ErrorInfo:
    """An exception raised by a solution, reduced to names and text."""

    type: str                   # e.g. "ValueError": the class's own name, for display only
    bases: tuple[str, ...]      # the builtin classes in its real type's MRO, e.g. ("ValueError", ...)
    message: str
    frames: tuple[str, ...] = ()  # the solution's own traceback lines, innermost last
    where: str = "call"         # "call", "backward" or "import"

    def is_a(self, name: str) -> bool:
        """Whether the real builtin class `name` is in its MRO (a class merely named so is not)."""
        return name in self.bases

    def headline(self) -> str:
        return f"{self.type}: {self.message}" if self.message else self.type

    def to_plain(self) -> dict:
        return error_plain(self)

    @classmethod
    def from_plain(cls, plain: Any) -> "ErrorInfo":
        """Strict: every field present with its type; anything else is a WireError (the child's fault)."""
        if type(plain) is not dict or set(plain) != _ERROR_FIELDS:
            raise wire.WireError("malformed error record")
        texts = [plain["type"], plain["message"], plain["where"]]
        if not all(type(t) is str for t in texts) or plain["where"] not in WHERE:
            raise wire.WireError("malformed error record")
        bases, frames = plain["bases"], plain["frames"]
        if not (_str_list(bases) and _str_list(frames)) or not set(bases) <= BUILTIN_EXCEPTION_NAMES:
            raise wire.WireError("malformed error record")
        return cls(type=plain["type"][:200], bases=tuple(bases), message=plain["message"][:2000],
                   frames=tuple(f[:500] for f in frames[:20]), where=plain["where"])


@dataclass(frozen=True)
class Observation:
    """What one call did: its value or error, time, grads and inputs afterwards."""

    value: Any = None
    error: ErrorInfo | None = None
    time_ms: float = 0.0
    grads: tuple[Any, ...] | None = None        # one per Call.grad_wrt (None: no gradient; a dict for a dict)
    inputs_after: tuple[Any, ...] | None = None  # the arguments as they were after the call
    grad_error: ErrorInfo | None = None

    def to_plain(self) -> dict:
        return observation_plain(self)

    @classmethod
    def from_plain(cls, plain: Any) -> "Observation":
        """Strict: the fields `observation_plain` writes, each of its type; anything else is a WireError."""
        if type(plain) is not dict or set(plain) != _OBSERVATION_FIELDS:
            raise wire.WireError("malformed observation")
        grads, after, time_ms = plain["grads"], plain["inputs_after"], plain["time_ms"]
        if grads is not None and type(grads) is not list or after is not None and type(after) is not list:
            raise wire.WireError("malformed observation: grads and inputs_after are lists")
        if type(time_ms) not in (int, float):
            raise wire.WireError("malformed observation: time_ms")
        if not 0 <= time_ms < float("inf"):  # a child's clock may be rebound; the judge times calls itself
            time_ms = 0.0
        error, grad_error = plain["error"], plain["grad_error"]
        return cls(value=plain["value"], error=None if error is None else ErrorInfo.from_plain(error),
                   time_ms=float(time_ms), grads=None if grads is None else tuple(grads),
                   inputs_after=None if after is None else tuple(after),
                   grad_error=None if grad_error is None else ErrorInfo.from_plain(grad_error))


def observation_plain(observation: Observation) -> dict:
    """The plain form of an observation."""
    error, grad_error = observation.error, observation.grad_error
    return {"value": observation.value, "error": None if error is None else error_plain(error),
            "time_ms": observation.time_ms,
            "grads": None if observation.grads is None else list(observation.grads),
            "inputs_after": None if observation.inputs_after is None else list(observation.inputs_after),
            "grad_error": None if grad_error is None else error_plain(grad_error)}


def error_plain(error: ErrorInfo) -> dict:
    return {"type": error.type, "bases": list(error.bases), "message": error.message,
            "frames": list(error.frames), "where": error.where}


_OBSERVATION_FIELDS = frozenset({"value", "error", "time_ms", "grads", "inputs_after", "grad_error"})
_ERROR_FIELDS = frozenset({"type", "bases", "message", "frames", "where"})
WHERE = frozenset({"call", "backward", "import", "return"})


def _str_list(value: Any) -> bool:
    return type(value) is list and len(value) <= 100 and all(type(v) is str for v in value)


# The builtin exception classes themselves, bound when this module is imported: in the
# sandbox that is in the fork server, long before any submission could rebind a name.
BUILTIN_EXCEPTIONS: tuple[tuple[str, type], ...] = tuple(
    (name, obj) for name, obj in vars(builtins).items() if isinstance(obj, type) and issubclass(obj, BaseException))
BUILTIN_EXCEPTION_NAMES = frozenset(name for name, _ in BUILTIN_EXCEPTIONS)
# How the interpreter tells an exception's class, bound as `BUILTIN_EXCEPTIONS` is: the type of an object
# (`type(exc)`: a `__class__` property does not change it, though `isinstance` consults one) and a type's
# own MRO (`type.__dict__["__mro__"]`: a `__mro__` property of a metaclass would answer `cls.__mro__`).
_type_of = type
_mro_of = type.__dict__["__mro__"].__get__
_id_of = id


def builtin_bases(exc: BaseException) -> tuple[str, ...]:
    """The builtin exception classes in the MRO of `exc`'s real type, compared by identity: what a caller's
    `except ValueError` goes by. A class merely named `ValueError`, one whose `__class__` says ValueError
    or whose metaclass's `__mro__` lists it, is none; a forgery of the interpreter's own memory (the MRO
    tuple rewritten in place) is believed, as the interpreter believes it."""
    real = {_id_of(cls) for cls in _mro_of(_type_of(exc))}
    return tuple(name for name, cls in BUILTIN_EXCEPTIONS if _id_of(cls) in real)


def describe_error(exc: BaseException, filename: str | None, where: str = "call",
                   max_frames: int = 5) -> ErrorInfo:
    """Summarise `exc`, keeping only traceback frames from `filename` (the solution).

    `bases` lists the builtin classes in the MRO of `exc`'s real type (`builtin_bases`); a class that
    is only named `ValueError`, claims `__module__ = "builtins"` or lies about its `__class__` gets none.
    """
    bases = builtin_bases(exc)
    frames: list[str] = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if filename is None or frame.filename == filename:
            text = f'File "{frame.filename}", line {frame.lineno}, in {frame.name}'
            if frame.line:
                text += f"\n    {frame.line.strip()}"
            frames.append(text)
    if "SyntaxError" in bases and exc.lineno:
        frames.append(_syntax_frame(exc))
    try:
        message = str(exc)
    except Exception:  # a hostile __str__ must not take the observing down
        message = "<unprintable message>"
    name = _type_of(exc).__name__
    return ErrorInfo(type=name if type(name) is str else "Exception", bases=bases, message=message[:2000],
                     frames=tuple(frames[-max_frames:]), where=where)


def _syntax_frame(exc: BaseException) -> str:
    """Where a SyntaxError is: its file and line, the line's code and a caret under the place it points at
    (as Python's own traceback draws it; the code is shown without its indentation, the caret moved alike)."""
    raw = str(getattr(exc, "text", None) or "").rstrip("\r\n")
    code = raw.strip()
    text = f'File "{exc.filename}", line {exc.lineno}\n    {code}'
    offset = getattr(exc, "offset", None)
    if not code or type(offset) is not int or offset < 1:
        return text
    lead = len(raw) - len(raw.lstrip())
    start = min(max(0, offset - 1 - lead), len(code))
    end = getattr(exc, "end_offset", None)
    same_line = getattr(exc, "end_lineno", None) in (None, exc.lineno)
    width = end - offset if type(end) is int and same_line and end > offset else 1
    return f"{text}\n    {' ' * start}{'^' * max(1, min(width, len(code) - start))}"


def register_source(filename: str, source: str) -> None:
    """Let tracebacks of exec'd code show source lines."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def run_call(fn: Callable, call: Call, filename: str | None, arguments: list[Any] | None = None) -> Observation:
    """Run `fn` on `call` (plain args are revived first) and observe the outcome.

    Every call has the same shape: revive, call, backpropagate when asked,
    read every argument back. Only gradient calls mark arguments as requiring
    grad (autograd needs it); every call's output is compared with the
    reference's, so telling calls apart gains a submission nothing. `arguments`
    are the call's arguments revived already (the sandbox's views on the
    judge's shared mapping, judge.sandbox.arena).
    """
    if call.experiment is not None:
        return _run_experiment(fn, call.experiment, filename)
    wants_grad = bool(call.grad_wrt)

    def prepare() -> tuple[list[Any], list[Any], list[Any]]:
        args = list(arguments) if arguments is not None else [wire.revive(a) for a in call.args]
        targets: list[Any] = []
        if wants_grad:
            for i in call.grad_wrt:
                args[i] = _tracked(args[i])
            # taken before the call: a solution may rebind or delete entries of a dict argument
            targets = [dict(args[i]) if isinstance(args[i], dict) else args[i] for i in call.grad_wrt]
        return args, targets, [_versions(a) for a in args]

    args, targets, versions = observing(prepare)
    originals = list(args)  # the objects passed: what the caller would see afterwards
    start = time.perf_counter()
    try:
        value = fn(*args)
    except Exception as exc:
        elapsed = (time.perf_counter() - start) * 1000
        return Observation(error=describe_error(exc, filename), time_ms=elapsed,
                           inputs_after=observing(lambda: _inputs_after(originals, call.args, versions)))
    elapsed = (time.perf_counter() - start) * 1000
    grads, grad_error = None, None
    if wants_grad:
        grads, grad_error = observing(lambda: _backward(value, targets, call, filename))
    return Observation(value=value, time_ms=elapsed, grads=grads, grad_error=grad_error,
                       inputs_after=observing(lambda: _inputs_after(originals, call.args, versions)))


def observing(work: Callable[[], Any]) -> Any:
    """`work()` with torch's Python-level overrides off: function and dispatch modes the submission
    entered and its tensor subclasses' overrides. What is read of a call (inputs after it, gradients,
    the value encoded) is torch's own answer, not a mode's."""
    api = wire.torch_api()
    if api is None:
        return work()
    with api.no_function(), api.no_dispatch(api.python_keys):
        return work()


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
    api = wire.torch_api()
    return api.requires_grad_(api.detach(value), True)


def _is_float_tensor(value: Any) -> bool:
    api = wire.torch_api()
    return api is not None and isinstance(value, api.base) and api.is_floating_point(value)


def _detached(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _detached(v) for k, v in value.items()}
    api = wire.torch_api()
    return api.detach(value) if api is not None and isinstance(value, api.base) else value


# An argument the call left exactly as it was sent (see the module's docstring). A string: an
# array argument never comes back as one, so the marker cannot be mistaken for a value.
UNCHANGED = "="
# A tensor argument whose values are as they were sent, though an in-place operation ran on it
# (torch's version counter moved: `x.detach().div_(1.0)`): it was modified in place all the same.
WRITTEN = "~"


def _versions(value: Any) -> Any:
    """The version counter of a tensor argument (a dict: of each entry), read before the call."""
    if isinstance(value, dict):
        return {k: _versions(v) for k, v in value.items()}
    api = wire.torch_api()
    return api.version(value) if api is not None and isinstance(value, api.base) else None


def _inputs_after(args: list[Any], sent: tuple[Any, ...], versions: list[Any]) -> tuple[Any, ...]:
    return tuple(_after(a, s, v) for a, s, v in zip(args, sent, versions))


def _after(value: Any, sent: Any, version: Any) -> Any:
    """One argument read back: UNCHANGED, WRITTEN, or (changed) the argument itself, detached."""
    if isinstance(sent, dict) and isinstance(value, dict) and value.keys() == sent.keys() \
            and isinstance(version, dict):
        entries = {k: _after(value[k], sent[k], version.get(k)) for k in sent}
        if all(type(e) is str and e == UNCHANGED for e in entries.values()):
            return UNCHANGED
        return entries
    if not _unchanged(value, sent):
        return _detached(value)
    api = wire.torch_api()
    if version is not None and api is not None and isinstance(value, api.base) and api.version(value) != version:
        return WRITTEN
    return UNCHANGED


def _unchanged(value: Any, sent: Any) -> bool:
    """Whether `value` is still what the plain array `sent` was revived to: the same kind of array,
    dtype, shape and every byte (a NaN never counts as unchanged: it is sent)."""
    if not isinstance(sent, wire.Array) or sent.scalar:
        return False
    if sent.library == "numpy":
        array = value if type(value) is np.ndarray else None
    else:
        api = wire.torch_api()
        # sent.dtype names the tensor's dtype; when it is not its data's (bfloat16 travels as float32),
        # the tensor is sent back as it is.
        if api is None or sent.dtype != sent.data.dtype.name or type(value) not in (api.Tensor, api.Parameter) \
                or value.layout != api.strided or value.device.type != "cpu":
            return False
        array = api.numpy(api.detach(value))
    return array is not None and array.dtype == sent.data.dtype and array.shape == sent.data.shape \
        and bool(np.array_equal(array, sent.data))


def restore_unchanged(observation: "Observation", call: Call) -> "Observation":
    """The observation with each `UNCHANGED` argument (or dict entry) replaced by the judge's own copy of
    what was sent (a marker where no array was sent stays as it is, and the mutation check fails it)."""
    after = observation.inputs_after
    if type(after) is not tuple or not any(_marked(v) or type(v) is dict for v in after):
        return observation

    def restored(value: Any, sent: Any) -> Any:
        if _marked(value) and isinstance(sent, (wire.Array, dict)):
            return sent
        if type(value) is dict and isinstance(sent, dict) and any(_marked(v) for v in value.values()):
            return {k: sent[k] if _marked(v) and k in sent and isinstance(sent[k], wire.Array) else v
                    for k, v in value.items()}
        return value

    return replace(observation, inputs_after=tuple(restored(v, call.args[i]) if i < len(call.args) else v
                                                   for i, v in enumerate(after)))


def _marked(value: Any) -> bool:
    return type(value) is str and value == UNCHANGED


def _backward(value: Any, targets: list[Any], call: Call, filename: str | None):
    """Backpropagate sum(output * g) for a seeded random g; return the grads of `targets`.

    A dict target gets a dict of grads, one per float tensor it held before the call.
    """
    api = wire.torch_api()
    leaves = _grad_leaves(value, call.grad_outputs, api)
    generator = api.Generator()
    generator.manual_seed(call.grad_seed)
    total = None
    for leaf in leaves:
        if not api.requires_grad(leaf):
            continue
        upstream = api.to(api.randn(tuple(leaf.shape), generator=generator, dtype=api.float64), leaf.dtype)
        term = api.sum(api.mul(leaf, upstream))
        total = term if total is None else total + term
    flat = [(n, k, v) for n, t in enumerate(targets)
            for k, v in (t.items() if isinstance(t, dict) else [(None, t)]) if _is_float_tensor(v)]
    grads: list[Any] = [{} if isinstance(t, dict) else None for t in targets]
    if total is None or not flat:
        return tuple(grads), None
    try:
        # The engine itself (what torch.autograd.grad calls): (outputs, grad_outputs, keep_graph,
        # create_graph, inputs, allow_unreachable, accumulate_grad).
        found = api.run_backward((total,), (api.ones_like(total),), False, False,
                                 tuple(v for _, _, v in flat), True, False)
    except Exception as exc:
        return None, describe_error(exc, filename, where="backward")
    for (n, key, _), g in zip(flat, found):
        g = None if g is None else api.detach(g)
        if key is None:
            grads[n] = g
        else:
            grads[n][key] = g
    return tuple(grads), None


def _grad_leaves(value: Any, keys: tuple[str, ...] | None, api: SimpleNamespace) -> list[Any]:
    def differentiable(x: Any) -> bool:
        return isinstance(x, api.base) and api.is_floating_point(x)

    if type(value) is dict:
        chosen = keys if keys is not None else tuple(value)
        return [value[k] for k in chosen if k in value and differentiable(value[k])]
    if differentiable(value):
        return [value]
    return []
