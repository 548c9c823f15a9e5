"""The sandbox child's harness, bound before the submission loads (issue 10, class 2).

A submission runs in the harness's own process and can rebind any name it
reaches: `torch.autograd.grad`, `Tensor.detach`, `builtins.isinstance`, the
judge's module functions (`judge.execute._inputs_after`), `Observation.to_plain`.
`bind()` runs before the submission is imported and returns copies of the
functions that observe a call and encode its result (judge.wire,
judge.execute), each with private globals and a private copy of the builtins,
with torch reached only through entry points taken from torch's C types
(`wire.torch_api`). Rebinding a name afterwards changes nothing these copies
call.

The modules these copies use (numpy, json, struct, traceback...) are snapshots
taken at bind time, so a submission rebinding `numpy.ascontiguousarray` or
`json.JSONEncoder` (a module's attributes are not audited) changes nothing they
call; json's encoding is built from its C encoder. The paths to the copies
themselves (frames, `gc`, tracing, ctypes) and changes to the judge's classes
are closed by the worker's audit hook (`judge.sandbox.audit`), and torch's
function and dispatch modes are off while the harness observes
(`execute.observing`).

What remains is the residual risk stated in README's sandbox section: raw
memory written through an interface that is not audited (numpy's array
interface at an `id()` address), and the functions of the standard library and
of numpy that these snapshots still call, whose own globals are shared. The
judge limits what such a forgery buys: every call's output is compared with
the reference's, observations are checked for shape and type, and time,
memory and output are measured outside the child.
"""
from __future__ import annotations

import builtins
import json
import sys
from json import encoder as json_encoder
from types import FunctionType, ModuleType, SimpleNamespace
from typing import Callable

from judge import execute, wire

_MODULES = (wire, execute)  # dependencies first


def bind() -> SimpleNamespace:
    """`wire` and `execute` as private namespaces of rebound-proof copies, and a private `json`."""
    names = {m.__name__ for m in _MODULES}
    private_builtins = dict(vars(builtins))
    private_json = _private_json()
    frozen: dict[str, SimpleNamespace] = {}
    for module in _MODULES:
        namespace = dict(vars(module))
        namespace["__builtins__"] = private_builtins
        for key, obj in list(namespace.items()):
            if isinstance(obj, FunctionType) and obj.__module__ == module.__name__:
                namespace[key] = FunctionType(obj.__code__, namespace, obj.__name__, obj.__defaults__,
                                              obj.__closure__)
            elif isinstance(obj, ModuleType):
                if obj.__name__ in names:
                    namespace[key] = frozen[obj.__name__]
                elif obj is json:
                    namespace[key] = private_json
                elif obj is not builtins:  # builtins stay a module: exec and imports need one
                    namespace[key] = SimpleNamespace(**vars(obj))  # its attributes as they are now
        if module is wire:
            namespace["_TORCH"] = wire.torch_api()
        if module is execute and "torch" in sys.modules:
            from judge import experiments  # before the judge's modules stop being importable

            namespace["_EXPERIMENTS"] = experiments
        frozen[module.__name__] = SimpleNamespace(**namespace)
    return SimpleNamespace(wire=frozen[wire.__name__], execute=frozen[execute.__name__], json=private_json)


def private(functions: tuple[Callable, ...], overrides: dict | None = None) -> tuple[Callable, ...]:
    """Copies of `functions` (of one module) whose globals are a private snapshot of that module's
    (its modules as snapshots too), with `overrides` in place of some names."""
    if not functions:
        return ()
    module = sys.modules[functions[0].__module__]
    namespace = dict(vars(module))
    namespace["__builtins__"] = dict(vars(builtins))
    for key, obj in list(namespace.items()):
        if isinstance(obj, ModuleType) and obj is not builtins:
            namespace[key] = SimpleNamespace(**vars(obj))
    namespace.update(overrides or {})
    copies = tuple(FunctionType(f.__code__, namespace, f.__name__, f.__defaults__, f.__closure__)
                   for f in functions)
    for original, copy in zip(functions, copies):
        namespace[original.__name__] = copy
    return copies


def _private_json() -> SimpleNamespace:
    """`dumps` and `loads` as the wire and the worker call them, built now from json's C encoder.

    `json.dumps` looks `JSONEncoder` up in json's namespace on every call; a submission that
    rebinds it there would write the harness's headers. The C encoder made here calls nothing
    a submission can reach (`default` only raises, for a value the wire never builds).
    """
    make = json_encoder.c_make_encoder
    ascii_string = json_encoder.c_encode_basestring_ascii
    loads = json.loads
    if make is None or ascii_string is None:  # a Python without json's accelerator: json's own
        return SimpleNamespace(dumps=json.dumps, loads=loads)

    def default(value):
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    encoders = {}
    for separators in ((", ", ": "), (",", ":")):
        for allow_nan in (True, False):
            encoders[separators, allow_nan] = make(None, default, ascii_string, None, separators[1], separators[0],
                                                   False, False, allow_nan)
    join = "".join

    def dumps(value, allow_nan=True, separators=(", ", ": ")):
        return join(encoders[tuple(separators), bool(allow_nan)](value, 0))

    return SimpleNamespace(dumps=dumps, loads=loads)
