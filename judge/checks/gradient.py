"""gradient: autograd flows to the listed inputs and gives the reference's gradients.

    gradient: {wrt: [images], outputs: [tokens]}

The judge backpropagates sum(output * g) for a seeded random upstream
gradient g, through the reference and through the submission, and compares
the input gradients with the test's tolerance. A dict argument (a model's
parameters) in `wrt` stands for each of its float tensors, named `params["key"]`
in messages. Where the reference passes no gradient (a stop-gradient), a
nonzero gradient from the submission fails. A gradient that is missing or
malformed (not an array of the input's shape and dtype), or an output that
has no autograd history where the reference's has one, fails. A gradient
call whose output differs from the reference's fails as a wrong value (its
kind is the value's, never `gradient`): the gradient of a wrong value says
nothing of the backward pass.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

import numpy as np

from judge.runs import decisions as verdicts
from judge.checks.allclose import compare_values
from judge.checks.compare import ON_OWN_INPUTS, values_first
from judge.checks.result import EVERY_PROBE, KEYS, CheckResult, Param, Traits, fail, failed, ok, params
from judge.runs.calls import Call
from judge.base.leaves import label, leaves
from judge.base.encoding import Array

PARAMS = params(Param("wrt", list, required=True, what="a list of argument names"),
                Param("outputs", list, default=None, what="a list of output keys"))
CALL = "backward"  # the extra call: the test's inputs, backpropagated
_FLOATS = ("float16", "bfloat16", "float32", "float64")
_DETACHED = ("the output is not connected to the autograd graph: .detach(), .data, .numpy(), "
             "torch.tensor(...) or a round trip through numpy breaks it")


def backpropagated(output: dict) -> list[str]:
    """The keys of a dict output that carry an autograd graph: what is backpropagated when `outputs` is not given."""
    return [str(k) for k, v in output.items() if isinstance(v, Array) and v.has_grad_fn]


def applies_to(names: tuple[str, ...], args: tuple, **params) -> bool:
    """Whether a gradient can flow back on these inputs: every `wrt` argument a float torch tensor (of a
    dict argument, each of its tensors)."""
    for name in params.get("wrt", []):
        value = args[names.index(name)] if name in names else None
        values = list(value.values()) if isinstance(value, dict) else [value]
        if not values or not all(isinstance(v, Array) and v.dtype in _FLOATS and v.library == "torch" for v in values
                                 if not isinstance(value, dict) or isinstance(v, Array)):
            return False
    return True


TRAITS = Traits(licenses=("gradient",), observes=KEYS, key_param="outputs", default_keys=backpropagated,
                says_mistake=True, on_probes=EVERY_PROBE, applies_to=applies_to)


def calls(case, *, wrt: list[str], outputs: list[str] | None = None) -> dict[str, Call]:
    return {CALL: Call(args=case.args, grad_wrt=tuple(case.arg_index(n) for n in wrt),
                             grad_outputs=None if outputs is None else tuple(outputs),
                             grad_seed=case.seed("gradient"))}


def named_grads(wrt: list[str], expected: tuple | None, actual: tuple | None) -> Iterator[tuple[str, Any, Any]]:
    """(input name, expected grad, actual grad) per input, one per entry of a dict input.

    Whatever the reference has a gradient for must come back from the
    submission; a missing or malformed actual gradient is given as None.
    """
    expected, actual = expected or (), actual or ()
    for i, (name, e_grad) in enumerate(zip(wrt, expected)):
        a_grad = actual[i] if i < len(actual) else None
        if isinstance(e_grad, dict):
            for key, e in e_grad.items():
                yield f'{name}["{key}"]', e, a_grad.get(key) if isinstance(a_grad, dict) else None
        else:
            yield name, e_grad, None if isinstance(a_grad, dict) else a_grad


def check(case, expected, actual, *, wrt: list[str], outputs: list[str] | None = None) -> CheckResult:
    exp, act = expected[CALL], actual[CALL]
    if act.grad_error is not None:
        return failed(verdicts.of_backward(act.grad_error), lines=act.grad_error.frames)
    detached = [p for p, e, a in leaves(exp.value, act.value)
                if isinstance(e, Array) and e.has_grad_fn and not (isinstance(a, Array) and a.has_grad_fn)
                and (outputs is None or p.split(".")[0] in outputs)]
    reached = next((n for n, e, _ in named_grads(wrt, exp.grads, act.grads) if e is not None), wrt[0])
    if detached:
        return fail(f"no gradient reaches `{reached}`: {label(detached[0])}: {_DETACHED}")
    if type(act.grads) is not tuple or len(act.grads) != len(wrt):
        return fail(f"no gradient reaches `{reached}`: the gradients did not come back from the sandbox, "
                    "so they cannot be shown to be right")
    grads = list(named_grads(wrt, exp.grads, act.grads))
    for name, e_grad, a_grad in grads:
        if e_grad is None:
            # The reference passes no gradient to `name` (a stop-gradient, or an input the output does
            # not depend on): a nonzero one from the submission flows where the statement says none does.
            if a_grad is not None and not _all_zero(a_grad):
                return fail(f"a gradient reaches `{name}`, but none may: it must be treated as a constant "
                            "(stop-gradient, `.detach()`) as the statement says")
            continue
        if a_grad is None:
            return fail(f"no gradient reaches `{name}`: the output does not depend on it through autograd")
        if not isinstance(a_grad, Array) or a_grad.shape != e_grad.shape or a_grad.dtype != e_grad.dtype:
            return fail(f"the gradient w.r.t. `{name}` came back malformed (not an array of the input's "
                        "shape and dtype)")
    # The gradient of a wrong value is wrong too: that is a value failure (said as one, diagnosed like one),
    # never a gradient that would send the learner after a broken backward pass.
    wrong = values_first(case, exp, act, outputs)
    if wrong is not None:
        return replace(wrong, message=wrong.message.replace(ON_OWN_INPUTS, "on the gradient test's inputs", 1))
    for name, e_grad, a_grad in grads:
        if e_grad is None:
            continue
        result = compare_values(e_grad, a_grad, case.tolerance, case.public,
                                what=f"the gradient w.r.t. `{name}`")
        if not result.passed:
            return fail(result.message, lines=result.lines)
    return ok()


def _all_zero(grad) -> bool:
    return isinstance(grad, Array) and not np.any(grad.data)
