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
    monkeypatch.setattr(execute, "_inputs_after", lambda args: None)
    monkeypatch.setattr(execute, "describe_error", lambda *a, **k: None)
    observation = bound.execute.run_call(lambda x: x * 3, Call(args=(plain(torch.ones(2)),), grad_wrt=(0,),
                                                               grad_seed=1), SOLUTION)
    upstream = torch.randn(2, generator=torch.Generator().manual_seed(1), dtype=torch.float64).float()
    assert torch.allclose(observation.grads[0], 3 * upstream)
    assert observation.inputs_after[0].tolist() == [1.0, 1.0]
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
