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

What remains is the residual risk stated in README's sandbox section: code
that rewrites these objects themselves (found through `gc` or frames) or the
process's memory (ctypes) can forge what the child reports. The judge limits
what such a forgery buys: every call's output is compared with the
reference's, observations are checked for shape and type, and time, memory
and output are measured outside the child.
"""
from __future__ import annotations

import builtins
from types import FunctionType, ModuleType, SimpleNamespace

from judge import execute, wire

_MODULES = (wire, execute)  # dependencies first


def bind() -> SimpleNamespace:
    """`wire` and `execute` as private namespaces of rebound-proof copies."""
    names = {m.__name__ for m in _MODULES}
    private_builtins = dict(vars(builtins))
    frozen: dict[str, SimpleNamespace] = {}
    for module in _MODULES:
        namespace = dict(vars(module))
        namespace["__builtins__"] = private_builtins
        for key, obj in list(namespace.items()):
            if isinstance(obj, FunctionType) and obj.__module__ == module.__name__:
                namespace[key] = FunctionType(obj.__code__, namespace, obj.__name__, obj.__defaults__,
                                              obj.__closure__)
            elif isinstance(obj, ModuleType) and obj.__name__ in names:
                namespace[key] = frozen[obj.__name__]
        if module is wire:
            namespace["_TORCH"] = wire.torch_api()
        frozen[module.__name__] = SimpleNamespace(**namespace)
    return SimpleNamespace(wire=frozen[wire.__name__], execute=frozen[execute.__name__])
