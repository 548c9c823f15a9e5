"""The harness the sandbox child binds before a submission loads (issue 10, class 2)."""
from __future__ import annotations

import torch

from judge import wire
from judge.execute import Call

SOLUTION = "solution.py"


def plain(value):
    return wire.roundtrip(value)


def test_the_bound_harness_ignores_names_rebound_after_it(monkeypatch) -> None:
    """What a submission rebinds after `bind()` (autograd, Tensor.detach, the module's own functions) is not used."""
    from judge import execute, harness

    bound = harness.bind()
    monkeypatch.setattr(torch.autograd, "grad", lambda *a, **k: (torch.zeros(2),))
    monkeypatch.setattr(torch.Tensor, "detach", lambda self: torch.full_like(self, 7.0), raising=False)
    monkeypatch.setattr(execute, "_inputs_after", lambda args, sent: None)
    monkeypatch.setattr(execute, "describe_error", lambda *a, **k: None)
    observation = bound.execute.run_call(lambda x: x * 3, Call(args=(plain(torch.ones(2)),), grad_wrt=(0,),
                                                               grad_seed=1), SOLUTION)
    upstream = torch.randn(2, generator=torch.Generator().manual_seed(1), dtype=torch.float64).float()
    assert torch.allclose(observation.grads[0], 3 * upstream)
    # Read back through the bound detach (a rebound one would make it look changed: all 7s).
    assert observation.inputs_after == (execute.UNCHANGED,)
    failed = bound.execute.run_call(lambda x: 1 / 0, Call(args=(1,)), SOLUTION)
    assert failed.error.is_a("ZeroDivisionError")


def test_the_bound_encoder_ignores_a_rebound_tensor_class(monkeypatch) -> None:
    """A submission that makes `torch.Tensor` its own subclass cannot make the encoder trust it."""
    from judge import harness

    bound = harness.bind()

    class Lying(torch.Tensor):
        pass

    monkeypatch.setattr(torch, "Tensor", Lying)
    lying = torch.ones(2).as_subclass(Lying)
    try:
        bound.wire.encode(lying, 1 << 20, bound.wire.MAX_NODES)
    except bound.wire.WireError as exc:
        assert "cannot return" in str(exc)
    else:
        raise AssertionError("a tensor subclass crossed the boundary")


class _Forge:
    """What a submission's torch mode would do: hand back twice a tensor it marked, when detached."""

    def __init__(self) -> None:
        self.marked: set[int] = set()

    def rewrite(self, name: str, args: tuple, out):
        if name == "detach" and args and getattr(args[0], "data_ptr", None) and args[0].data_ptr() in self.marked:
            return out * 0 + 2
        return out


def _forged_call(bound, forge: _Forge):
    def solution(x):
        y = x * 3
        forge.marked.add(y.data_ptr())
        x.mul_(5)  # modified in place: inputs after the call must say so
        forge.marked.add(x.data_ptr())
        return y

    observation = bound.execute.run_call(solution, Call(args=(plain(torch.ones(2)),)), SOLUTION)
    encoded = bound.execute.observing(
        lambda: bound.wire.encode(bound.execute.observation_plain(observation), 1 << 20, bound.wire.MAX_NODES))
    return wire.decode(encoded, 1 << 20)


def test_a_torch_function_mode_changes_nothing_the_harness_observes() -> None:
    """Issue 21, class 4: a TorchFunctionMode the submission entered (public API) is off while the harness
    reads a call: the value and the inputs after it are torch's own."""
    from torch.overrides import TorchFunctionMode

    from judge import harness

    bound = harness.bind()
    forge = _Forge()

    class Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return forge.rewrite(getattr(func, "__name__", ""), args, func(*args, **(kwargs or {})))

    with Mode():
        plain_observation = _forged_call(bound, forge)
    assert plain_observation["value"].data.tolist() == [3.0, 3.0]
    assert plain_observation["inputs_after"][0].data.tolist() == [5.0, 5.0]


def test_a_torch_dispatch_mode_changes_nothing_the_harness_observes() -> None:
    """The same for a TorchDispatchMode (every aten operation, below torch's Python API)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    from judge import harness

    bound = harness.bind()
    forge = _Forge()

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            return forge.rewrite("detach" if func is torch.ops.aten.detach.default else "", args, out)

    with Mode():
        plain_observation = _forged_call(bound, forge)
    assert plain_observation["value"].data.tolist() == [3.0, 3.0]
    assert plain_observation["inputs_after"][0].data.tolist() == [5.0, 5.0]


def test_the_forgery_works_without_the_guard() -> None:
    """The modes above do forge what an unguarded reader sees: the tests can fail."""
    from torch.overrides import TorchFunctionMode

    forge = _Forge()

    class Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return forge.rewrite(getattr(func, "__name__", ""), args, func(*args, **(kwargs or {})))

    y = torch.ones(2) * 3
    forge.marked.add(y.data_ptr())
    with Mode():
        assert torch._C.TensorBase.detach(y).tolist() == [2.0, 2.0]


def test_json_rebound_changes_no_header() -> None:
    """json.dumps looks JSONEncoder up on every call; the harness's encoder is json's C encoder, bound."""
    import json

    from judge import harness

    bound = harness.bind()

    class Forged(json.JSONEncoder):
        def encode(self, o):
            return '{"forged": true}'

    original = json.JSONEncoder
    json.JSONEncoder = Forged
    try:
        assert json.dumps({"a": 1}, separators=(",", ":")) == '{"forged": true}'
        assert bound.json.dumps({"a": 1}, separators=(",", ":")) == '{"a":1}'
        assert wire.decode(bound.wire.encode({"a": [1, 2.5]}, 1 << 20), 1 << 20) == {"a": [1, 2.5]}
    finally:
        json.JSONEncoder = original
