"""Scripted calls: a test whose call is Python over the solution's names, not one function on its arguments.

An ordinary problem calls `entry_point(*args)`. A problem with `driver: script` (judge.model.problem)
calls every solution, the reference in the judge as a submission in the sandbox, through one function
of the judge's (`ENTRY`), added to the solution's module after its own code. Each test gives it two
arguments:

- `call`: Python statements whose last one is an expression, over the module's names and the
  inputs' names, e.g. `Q, K, V = compute_qkv(X, W_q, W_k, W_v)` then `masked_attention(Q, K, V, mask)`,
  or `model = NaiveBayes(smoothing=1.0)`, `model.forward(X, y)`, `model.predict(X_test)`;
- `inputs`: a dict of the values the judge drew (`{mapping: ...}` in the YAML), by name.

The call's statements run in a scope made of the module's names and the inputs (a fresh one per call:
nothing one test assigns is seen by the next), and its value is the last expression's, made canonical
(`canonical`): a tensor becomes a numpy array, a numpy scalar a Python number, a list or tuple of numbers
(or of arrays of one shape) an array, a set a sorted list, dict keys strings, and any other object the
text it prints as. So values are compared as values, whatever container held them: `[5, 10]` and
`np.array([5, 10])` are one value, as a learner reading them printed would say.

Randomness: before each call the global generators (`random`, numpy's and torch's) are seeded with 0, so
a test gives the same value in any process, whichever tests ran before it; a call that wants other
states sets them itself (`np.random.seed(42)` as its first line).

The driver is the same text on both sides (`SOURCE`, compiled under the name `<tensor-judge>` so that no
frame of it appears in a learner's traceback): in the child it runs in the submission's own process and
what it returns is the child's claim, like any value; it adds no way to reach the judge.
"""
from __future__ import annotations

from typing import Any, Callable

DRIVERS = ("script",)            # the values `driver:` may take in a problem's YAML
ENTRY = "__tensor_judge_call__"  # the function the judge calls in a scripted problem's module
FILENAME = "<tensor-judge>"      # what the driver's frames are named: never the solution's file

# Runs with the solution module's globals: defines ENTRY there, then removes its own helper name.
SOURCE = r'''
def _tensor_judge_driver(names, required):
    import random as _random
    import re as _re
    import sys as _sys
    import numpy as _np

    def baseline():
        _random.seed(0)
        _np.random.seed(0)
        torch = _sys.modules.get("torch")
        if torch is not None:
            torch.manual_seed(0)

    def states():
        torch = _sys.modules.get("torch")
        return (_random.getstate(), _np.random.get_state(),
                torch.random.get_rng_state() if torch is not None else None)

    def restore(saved):
        random_state, numpy_state, torch_state = saved
        _random.setstate(random_state)
        _np.random.set_state(numpy_state)
        torch = _sys.modules.get("torch")
        if torch is not None and torch_state is not None:
            torch.random.set_rng_state(torch_state)

    def number(value):
        return type(value) in (bool, int, float, complex)

    def stacked(items):
        """A list of numbers, or of arrays of one shape, as one array; anything else as the list."""
        if not items:
            return _np.zeros((0,))
        shapes = set()
        for item in items:
            if number(item):
                shapes.add(())
            elif type(item) is _np.ndarray and item.dtype.kind in "biufc":
                shapes.add(item.shape)
            else:
                return items
        if len(shapes) != 1:
            return items
        try:
            array = _np.array(items)
        except (ValueError, TypeError, OverflowError):
            return items
        return array if array.dtype.kind in "biufc" else items

    def text(value):
        try:
            shown = str(value)
        except Exception:
            shown = type(value).__name__
        # an object printed by default names where it lives: neither its address nor its module is its value
        shown = _re.sub(r" at 0x[0-9a-fA-F]+", "", shown)
        return _re.sub(r"<(?:\w+\.)+(\w+ object)>", r"<\1>", shown)

    def canonical(value, depth=0):
        if depth > 30:
            return text(value)
        torch = _sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.Tensor):
            value = value.detach().cpu()
            if value.dtype in (torch.bfloat16, torch.float16):
                value = value.float()
            value = value.numpy()
        if isinstance(value, _np.generic):
            value = value.item()
        if value is None or type(value) in (bool, str):
            return value
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return float(value)
        if isinstance(value, complex):
            return _np.asarray(complex(value))
        if isinstance(value, str):
            return str(value)
        if isinstance(value, _np.ndarray):
            if value.dtype.kind in "biufc":
                return _np.array(value) if value.size else _np.zeros((0,))
            return canonical(value.tolist(), depth + 1)
        if isinstance(value, (list, tuple, range)):
            return stacked([canonical(v, depth + 1) for v in value])
        if isinstance(value, (set, frozenset)):
            items = [canonical(v, depth + 1) for v in value]
            try:
                items.sort()
            except TypeError:
                items.sort(key=repr)
            return stacked(items)
        if isinstance(value, dict):
            return {k if type(k) is str else text(canonical(k, depth + 1)): canonical(v, depth + 1)
                    for k, v in value.items()}
        return text(value)

    def compiled(call):
        import ast
        tree = ast.parse(call, "<call>", "exec")
        if not tree.body or not isinstance(tree.body[-1], ast.Expr):
            raise SyntaxError("a call ends with an expression: its value is the test's")
        last = ast.Expression(tree.body.pop().value)
        return compile(tree, "<call>", "exec"), compile(last, "<call>", "eval")

    missing = [name for name in required if name not in names]
    cache = {}

    def call(code, inputs):
        if missing:
            raise NameError(f"the file does not define `{missing[0]}`")
        if code not in cache:
            cache[code] = compiled(code)
        body, last = cache[code]
        baseline()
        scope = dict(names)
        scope.update(inputs)
        exec(body, scope)
        return canonical(eval(last, scope))

    # For the judge's own use (an importer runs a test's setup from the states the file left).
    call.canonical, call.states, call.restore, call.baseline = canonical, states, restore, baseline
    return call


__tensor_judge_call__ = _tensor_judge_driver(globals(), __tensor_judge_required__)
del _tensor_judge_driver, __tensor_judge_required__
'''


def program_source(source: str, required: tuple[str, ...]) -> str:
    """A submission's source with the driver after it: the program a scripted problem's child runs.

    The solution's own lines keep their numbers; `required` are the names its tests call (a file
    without one fails every test with a NameError saying so)."""
    return (f"{source.rstrip()}\n\n\n__tensor_judge_required__ = {tuple(required)!r}\n"
            f"exec(compile({SOURCE!r}, {FILENAME!r}, 'exec'))\n")


def attach(namespace: dict[str, Any], required: tuple[str, ...]) -> Callable[[str, dict], Any]:
    """The driver bound to a module already loaded in the judge (`namespace`: its globals): the
    scripted problem's reference, called as the child calls a submission."""
    namespace["__tensor_judge_required__"] = tuple(required)
    exec(compile(SOURCE, FILENAME, "exec"), namespace)
    return namespace[ENTRY]
