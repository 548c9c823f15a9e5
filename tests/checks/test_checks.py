"""Every check in judge/checks: one passing and one failing case each, and what the
failure message says (examples may show values; hidden tests never do)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
import torch

from judge import checks

from judge.base import encoding as wire
from judge.model.cases import Case, Drawn, call_name, with_calls
from judge.checks import experiment, gradient, leakage, mutation
from judge.checks.observed import Observed
from judge.runs.calls import Observation, restore_unchanged, run_call
from judge.model import problem as problem
from judge.model.problem import CheckSpec, Tolerance
from judge.base.outcomes import Verdict

EXACT = Tolerance(rtol=0.0, atol=0.0)


def make_case(args: dict[str, Any], check: str, params: dict | None = None, *, public: bool = False,
              tolerance: Tolerance = EXACT) -> Case:
    """A case on `args` selecting one check, with the calls that check asks for (as build_case makes them)."""
    params = params or {}
    test = problem.TestSpec(name="t", group="example" if public else "hidden", inputs={},
                    checks=(CheckSpec(check, params),), tolerance=tolerance, source="tests.yaml:1")
    plain_args = tuple(wire.roundtrip(v) for v in args.values())
    return with_calls(Drawn(test=test, arg_names=tuple(args), args=plain_args, tolerance=tolerance))


def observe(fn: Callable, case: Case) -> dict[str, Observation]:
    """Run `fn` on every call of `case`, as observations look after crossing the boundary."""
    return {name: restore_unchanged(Observation.from_plain(wire.roundtrip(run_call(fn, call, None).to_plain())), call)
            for name, call in case.calls.items()}


def run_check(check: str, args: dict, reference: Callable, submission: Callable, params: dict | None = None,
              **case_options):
    case = make_case(args, check, params, **case_options)
    return judged(check, case, observe(reference, case), observe(submission, case), **(params or {}))


def judged(check: str, case: Case, expected: dict[str, Observation], actual: dict[str, Observation], **params):
    """`check` on observations keyed by call name, each side seen as grading shows it to the check."""
    return checks.get(check).check(case, case.view(check, expected), case.view(check, actual), **params)


def text_of(result) -> str:
    return "\n".join([result.message, *result.lines])


def test_every_check_module_is_registered_and_documented() -> None:
    assert set(checks.names()) >= {"compare", "structure", "shape", "dtype", "finite", "allclose", "raises",
                                   "mutation", "gradient", "leakage"}
    for name in checks.names():
        assert checks.get(name).doc, f"judge/checks/{name}.py needs a docstring"


def test_every_check_is_tested_here() -> None:
    tested = {"compare", "structure", "shape", "dtype", "finite", "allclose", "raises", "mutation", "gradient",
              "leakage", "invariance", "experiment"}
    assert set(checks.names()) <= tested, "add a passing and a failing case for the new check"


X = {"x": torch.arange(6.0).reshape(2, 3)}


# ---------------------------------------------------------------- structure

def test_structure_lists_at_most_a_few_keys_then_a_count() -> None:
    """9,000 extra keys once made a message of megabytes (issue 10, class 5)."""
    extra = {f"key_{i:05d}_{'x' * 80}": 0 for i in range(9_000)}
    result = run_check("structure", X, lambda x: {"a": x}, lambda x: {"a": x, **extra})
    assert not result.passed and len(text_of(result)) < 2000
    assert "... and 8992 more}" in result.message


def test_structure_passes_for_the_same_keys_and_kinds() -> None:
    result = run_check("structure", X, lambda x: {"a": x, "b": [1, 2.0]}, lambda x: {"b": [3, 4.0], "a": x + 1})
    assert result.passed


def test_structure_missing_key() -> None:
    result = run_check("structure", X, lambda x: {"tokens": x, "coordinates": x}, lambda x: {"tokens": x})
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert "missing key(s) {'coordinates'}" in result.message
    assert "expected exactly the keys {'tokens', 'coordinates'}" in result.message


def test_structure_extra_key() -> None:
    result = run_check("structure", X, lambda x: {"loss": x}, lambda x: {"loss": x, "debug": 1})
    assert not result.passed and "unexpected key(s) {'debug'}" in result.message


def test_structure_dict_expected() -> None:
    result = run_check("structure", X, lambda x: {"tokens": x}, lambda x: x)
    assert not result.passed
    assert "the returned value is a torch.Tensor; expected a dict with keys {'tokens'}" in result.message


def test_structure_tensor_vs_ndarray() -> None:
    result = run_check("structure", X, lambda x: {"y": x}, lambda x: {"y": x.numpy()})
    assert not result.passed
    assert "`y` is a numpy.ndarray; expected a torch.Tensor" in result.message


def test_structure_list_length() -> None:
    result = run_check("structure", X, lambda x: [x, x], lambda x: [x])
    assert not result.passed and "has 1 items; expected 2" in result.message


def test_structure_float_accepts_a_zero_dim_tensor() -> None:
    """A Python float where a number is expected may also come back as a 0-dim tensor or numpy scalar."""
    assert run_check("structure", X, lambda x: {"acc": 0.5}, lambda x: {"acc": torch.tensor(0.5)}).passed
    assert run_check("structure", X, lambda x: {"acc": 0.5}, lambda x: {"acc": np.float64(0.5)}).passed


def test_structure_float_rejects_a_vector() -> None:
    result = run_check("structure", X, lambda x: {"acc": 0.5}, lambda x: {"acc": torch.tensor([0.5])})
    assert not result.passed
    assert "`acc` is a torch.Tensor of shape (1,); expected a single number" in result.message


def test_structure_zero_dim_tensor_rejects_a_float() -> None:
    """A loss that must be a (differentiable) 0-dim tensor may not come back as a float."""
    result = run_check("structure", X, lambda x: {"loss": x.sum()}, lambda x: {"loss": float(x.sum())})
    assert not result.passed and "`loss` is a float; expected a torch.Tensor" in result.message


# ---------------------------------------------------------------- shape, dtype, finite

def test_shape() -> None:
    assert run_check("shape", X, lambda x: {"t": x}, lambda x: {"t": x * 2}).passed
    result = run_check("shape", X, lambda x: {"t": x}, lambda x: {"t": x.T})
    assert not result.passed and result.message == "`t` has shape (3, 2); expected (2, 3)"


def test_dtype() -> None:
    assert run_check("dtype", X, lambda x: x, lambda x: x + 1).passed
    result = run_check("dtype", X, lambda x: x, lambda x: x.double())
    assert not result.passed and result.message == "the returned value has dtype float64; expected float32"
    result = run_check("dtype", X, lambda x: {"c": torch.arange(2)}, lambda x: {"c": torch.arange(2).int()})
    assert not result.passed and "`c` has dtype int32; expected int64" in result.message


@pytest.mark.parametrize("count, kind", [(196.0, "float"), (True, "bool"), (np.int64(196), "numpy.int64")])
def test_dtype_holds_python_ints_to_python_ints(count: Any, kind: str) -> None:
    assert run_check("dtype", X, lambda x: {"n": 196}, lambda x: {"n": 196}).passed
    result = run_check("dtype", X, lambda x: {"n": 196}, lambda x: {"n": count})
    assert not result.passed and result.message == f"`n` is a {kind}; expected a Python int"


def test_dtype_lets_an_int_stand_for_a_float() -> None:
    assert run_check("dtype", X, lambda x: 2.0, lambda x: 2).passed


def test_dtype_no_float_stands_for_a_numpy_integer() -> None:
    assert run_check("dtype", X, lambda x: np.int64(3), lambda x: 3).passed
    result = run_check("dtype", X, lambda x: np.int64(3), lambda x: 3.0)
    assert not result.passed and result.message == "the returned value is a float; expected an integer"


def test_finite() -> None:
    assert run_check("finite", X, lambda x: x, lambda x: x * 3).passed
    result = run_check("finite", X, lambda x: x, lambda x: x / (x - 4))  # x == 4 at (1, 1)
    assert not result.passed
    assert "contains inf" in result.message and "1 of 6 entries, first at (1, 1)" in result.message
    result = run_check("finite", X, lambda x: x.sum(), lambda x: x.sum() * float("nan"))
    assert not result.passed and "contains NaN" in result.message


def test_finite_allows_expected_non_finite_values() -> None:
    assert run_check("finite", X, lambda x: x / 0, lambda x: x / 0).passed


# ---------------------------------------------------------------- allclose

VALUES = {"x": torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])}


def _off(x):
    y = x.clone()
    y[1, 2] = 123.456
    y[1, 0] = 7.25
    return y


def test_allclose_within_tolerance_passes() -> None:
    tolerance = Tolerance(rtol=1e-3, atol=0.0)
    assert run_check("allclose", VALUES, lambda x: x, lambda x: x * (1 + 5e-4), tolerance=tolerance).passed
    assert not run_check("allclose", VALUES, lambda x: x, lambda x: x * (1 + 5e-3), tolerance=tolerance).passed


def test_allclose_non_finite_expected_matches_only_itself() -> None:
    """issue 12: with e = inf the band atol + rtol * |e| is inf, and any finite value used to pass."""
    loose = Tolerance(rtol=1e-3, atol=1e-3)
    inf = {"x": torch.tensor([float("inf"), -float("inf"), float("nan"), 1.0])}
    assert run_check("allclose", inf, lambda x: x, lambda x: x.clone(), tolerance=loose).passed
    for wrong in (lambda x: torch.tensor([5.0, -float("inf"), float("nan"), 1.0]),
                  lambda x: torch.tensor([float("inf"), float("inf"), float("nan"), 1.0]),
                  lambda x: torch.tensor([float("inf"), -5.0, float("nan"), 1.0]),
                  lambda x: torch.tensor([float("inf"), -float("inf"), 0.0, 1.0])):
        assert not run_check("allclose", inf, lambda x: x, wrong, tolerance=loose).passed
    scalar = {"x": torch.tensor(0.0)}
    assert not run_check("allclose", scalar, lambda x: float("-inf"), lambda x: 3.0, tolerance=loose).passed


def test_structure_names_kinds_as_a_person_would() -> None:
    result = run_check("structure", X, lambda x: {"a": x}, lambda x: 3)
    assert "is an int;" in result.message
    result = run_check("structure", X, lambda x: {"a": x}, lambda x: None)
    assert "is None;" in result.message


def test_allclose_an_infinite_expected_value_is_matched_only_by_the_same_infinity() -> None:
    # with rtol > 0 the bound atol + rtol * |inf| is infinite: any finite value used to pass
    tolerance = Tolerance(rtol=1e-5, atol=1e-6)
    infinite = lambda x: x.sum() + float("inf")  # noqa: E731
    assert run_check("allclose", VALUES, infinite, infinite, tolerance=tolerance).passed
    assert not run_check("allclose", VALUES, infinite, lambda x: x.sum(), tolerance=tolerance).passed
    assert not run_check("allclose", VALUES, infinite, lambda x: -infinite(x), tolerance=tolerance).passed


def test_allclose_gives_no_meaningless_figures() -> None:
    mask = lambda x: (x > 3).float()                          # noqa: E731 - a 0/1 mask
    flipped = lambda x: (x <= 3).float()                       # noqa: E731
    result = run_check("allclose", VALUES, mask, flipped, public=True)
    assert "6 of 6 values differ, first at index (0, 0)" in result.message
    assert "error" not in result.message and "inf" not in result.message
    zeros = lambda x: x * 0                                    # noqa: E731 - expected all 0: rel error is infinite
    result = run_check("allclose", VALUES, zeros, lambda x: x * 0 + 0.5, public=True)
    assert "max abs error 0.5" in result.message and "rel error" not in result.message


def test_allclose_example_shows_index_values_and_errors() -> None:
    result = run_check("allclose", VALUES, lambda x: x, _off, public=True)
    assert not result.passed and result.diagnose
    assert "2 of 6 values differ, first at index (1, 0)" in result.message
    assert "max abs error 117" in result.message and "max rel error 19.6" in result.message
    assert "rtol=0, atol=0" in result.message
    table = "\n".join(result.lines)
    assert "7.25" in table and "4" in table and "123.456" in table and "6" in table  # obtained and expected


def test_allclose_hidden_test_reveals_no_values() -> None:
    def reference(x):
        return x * 0.0123457

    def submission(x):
        return x * 0.0654321

    result = run_check("allclose", VALUES, reference, submission)
    assert not result.passed
    assert "first at index (0, 0)" in result.message and "max abs error" in result.message
    shown = text_of(result)
    for secret in ("0.0123457", "0.0654321", "0.0246914", "0.130864", "obtained", "Obtained"):
        assert secret not in shown, f"hidden test leaks {secret!r}: {shown}"


def test_allclose_scalar_example_and_hidden() -> None:
    result = run_check("allclose", VALUES, lambda x: {"loss": 0.5}, lambda x: {"loss": 0.75}, public=True)
    assert not result.passed and "`loss` is 0.75; expected 0.5" in result.message
    result = run_check("allclose", VALUES, lambda x: {"loss": 0.3}, lambda x: {"loss": 0.75})
    assert not result.passed and "`loss` is wrong: off by more than 100%" in result.message
    assert "0.75" not in result.message and "0.3" not in result.message
    # No exact error either: with their own 0.75 in hand, a learner would solve for the hidden value.
    assert "0.45" not in result.message and "1.5" not in result.message


def test_allclose_hidden_single_wrong_entry_gives_only_a_band() -> None:
    def submission(x):
        y = x.clone()
        y[0, 1] = y[0, 1] * 1.05
        return y

    result = run_check("allclose", VALUES, lambda x: x, submission)
    assert not result.passed
    assert "1 of 6 values differs, at index (0, 1): off by less than 10%" in result.message
    assert "abs error" not in result.message


def test_allclose_per_key_tolerance() -> None:
    tolerance = Tolerance(rtol=0.0, atol=0.0, keys=(("loose", Tolerance(rtol=0.0, atol=0.1)),))
    submission = lambda x: {"loose": x + 0.05, "strict": x}  # noqa: E731
    assert run_check("allclose", VALUES, lambda x: {"loose": x, "strict": x}, submission, tolerance=tolerance).passed
    result = run_check("allclose", VALUES, lambda x: {"loose": x, "strict": x},
                       lambda x: {"loose": x, "strict": x + 0.05}, tolerance=tolerance)
    assert not result.passed and "`strict`" in result.message


# ---------------------------------------------------------------- compare (the default)

def test_compare_passes_for_equal_outputs() -> None:
    assert run_check("compare", X, lambda x: {"t": x, "n": 3}, lambda x: {"t": x.clone(), "n": 3}).passed


def test_compare_reports_structure_before_values() -> None:
    result = run_check("compare", X, lambda x: {"t": x}, lambda x: {"t": x * 2, "extra": 1})
    assert not result.passed and "unexpected key(s) {'extra'}" in result.message


def test_compare_reports_shape_before_values() -> None:
    result = run_check("compare", X, lambda x: x, lambda x: x.reshape(3, 2) * 2)
    assert not result.passed and "has shape (3, 2); expected (2, 3)" in result.message


def test_compare_reports_values_last() -> None:
    result = run_check("compare", X, lambda x: x, lambda x: x + 1)
    assert not result.passed and "6 of 6 values differ" in result.message


# ---------------------------------------------------------------- raises

def _raise(kind):
    def fn(x):
        raise kind("bad input")
    return fn


def test_raises_accepts_the_type_and_subclasses() -> None:
    params = {"type": "ValueError"}
    assert run_check("raises", X, _raise(ValueError), _raise(ValueError), params).passed
    assert run_check("raises", X, _raise(ValueError), _raise(UnicodeError), params).passed  # a ValueError


def test_raises_fails_when_a_value_is_returned() -> None:
    result = run_check("raises", X, _raise(ValueError), lambda x: x, {"type": "ValueError"})
    assert not result.passed and result.message == "returned a value instead of raising ValueError"


def test_raises_fails_for_another_exception() -> None:
    result = run_check("raises", X, _raise(ValueError), _raise(TypeError), {"type": "ValueError"})
    assert not result.passed
    assert "raised TypeError: bad input; expected ValueError" in result.message


# ---------------------------------------------------------------- mutation

def test_mutation_passes_when_inputs_are_untouched() -> None:
    assert run_check("mutation", X, lambda x: x * 2, lambda x: x.mul(2)).passed


def test_mutation_passes_a_wrong_value_when_inputs_are_untouched() -> None:
    # Only its own property: a wrong value is the value tests' failure, never "the input was modified".
    result = run_check("mutation", X, lambda x: x * 2, lambda x: x * 3)
    assert result.passed


def test_a_finite_failure_says_what_is_seen_not_a_cure() -> None:
    # The same NaN comes from a plain exp and from a log-sum-exp over a row whose every entry is masked: the
    # message says what was seen; the test's hint or a named mistake says which (never "use log-sum-exp" here).
    result = run_check("compare", X, lambda x: x * 2, lambda x: x * float("nan"))
    assert not result.passed and "NaN" in result.message and "log-sum-exp" not in result.message


def test_mutation_detects_in_place_changes() -> None:
    def submission(x):
        x[0] += 1
        return x

    result = run_check("mutation", X, lambda x: x + 0, submission)
    assert not result.passed
    assert "the input `x` was modified in place (3 of 6 entries changed)" in result.message


def test_mutation_detects_numpy_inputs_and_resizing() -> None:
    def normalise(e):
        e /= np.linalg.norm(e, axis=1, keepdims=True)
        return e

    args = {"e": np.array([[3.0, 4.0], [1.0, 0.0]])}
    result = run_check("mutation", args, lambda e: e / 5, normalise)
    assert not result.passed and "`e` was modified in place (2 of 4 entries changed)" in result.message
    result = run_check("mutation", X, lambda x: x, lambda x: x.resize_(6))
    assert not result.passed and "`x` was reshaped or transposed in place: its shape went from (2, 3) to (6,)" in result.message


PARAMS = {"x": torch.ones(2, 3), "params": {"w": torch.arange(3.0), "b": torch.zeros(3), "heads": 2}}


def affine(x, params):
    return x * params["w"] + params["b"]


def test_mutation_looks_inside_dict_arguments() -> None:
    assert run_check("mutation", PARAMS, affine, affine).passed

    def scales_in_place(x, params):
        params["w"].mul_(2)
        return affine(x, params)

    def rebinds_entry(x, params):
        params["b"] = params["b"] + 1
        return x * params["w"] + params["b"]

    def pops_entry(x, params):
        return x * params.pop("w") + params["b"]

    result = run_check("mutation", PARAMS, affine, scales_in_place)
    assert not result.passed and 'the input `params["w"]` was modified in place (2 of 3 entries changed)' in result.message
    result = run_check("mutation", PARAMS, affine, rebinds_entry)
    assert not result.passed and '`params["b"]` was modified in place' in result.message
    result = run_check("mutation", PARAMS, affine, pops_entry)
    assert not result.passed and 'the input `params["w"]` was replaced in place' in result.message


def test_mutation_fails_when_the_inputs_do_not_come_back() -> None:
    case = make_case(X, "mutation")
    forged = {name: Observation(value=1.0) for name in case.calls}   # no inputs_after
    result = judged("mutation", case, forged, forged)
    assert not result.passed and "could not be read back" in result.message


# ---------------------------------------------------------------- gradient

GRAD = {"wrt": ["x"], "outputs": ["y"]}
BACKWARD = call_name("gradient", gradient.CALL)


def test_gradient_passes_for_the_same_gradients() -> None:
    result = run_check("gradient", X, lambda x: {"y": x * 2, "k": 1}, lambda x: {"y": x + x, "k": 1}, GRAD)
    assert result.passed


def test_gradient_of_a_wrong_value_fails_as_the_value() -> None:
    # The gradient of a wrong value is wrong too: said as the value's failure, never as a broken backward pass
    # (a `hint_when: [gradient]` hint is not shown for it).
    result = run_check("gradient", X, lambda x: {"y": x * 2}, lambda x: {"y": x * 3}, GRAD)
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert result.kind == "values" and result.diagnose
    assert result.message.startswith("on the gradient test's inputs: `y`") and "the gradient w.r.t." not in result.message


def test_gradient_wrong_values() -> None:
    # The right value through a wrong backward pass: half the value detached, so half the gradient comes back.
    result = run_check("gradient", X, lambda x: {"y": x * 2}, lambda x: {"y": x + x.detach()}, GRAD)
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert "the gradient w.r.t. `x`" in result.message and "6 of 6 values differ" in result.message


def test_gradient_detached_output() -> None:
    result = run_check("gradient", X, lambda x: {"y": x * 2}, lambda x: {"y": x.detach() * 2}, GRAD)
    assert not result.passed
    assert "no gradient reaches `x`" in result.message
    assert "`y`" in result.message and "not connected to the autograd graph" in result.message


def test_gradient_detached_tensor_output_is_named_in_words() -> None:
    result = run_check("gradient", X, lambda x: x * 2, lambda x: x.detach() * 2, {"wrt": ["x"]})
    assert not result.passed
    assert "no gradient reaches `x`: the returned value: the output is not connected" in result.message


def test_gradient_through_numpy() -> None:
    result = run_check("gradient", X, lambda x: {"y": x * 2},
                       lambda x: {"y": torch.from_numpy(x.detach().numpy() * 2)}, GRAD)
    assert not result.passed and "numpy" in result.message


def test_gradient_where_the_reference_passes_none_must_stay_none() -> None:
    """A stop-gradient: the reference detaches `x`, so a gradient reaching it is wrong; zeros are fine."""
    pair = {"x": torch.arange(6.0).reshape(2, 3), "t": torch.ones(2, 3)}
    wrt = {"wrt": ["t"], "outputs": ["y"]}
    detached = lambda x, t: {"y": x * t.detach()}  # noqa: E731
    assert run_check("gradient", pair, detached, detached, wrt).passed
    assert run_check("gradient", pair, detached, lambda x, t: {"y": x * t + 0 * t}, wrt).passed is False
    assert run_check("gradient", pair, detached, lambda x, t: {"y": x * t.detach() + 0 * t}, wrt).passed
    result = run_check("gradient", pair, detached, lambda x, t: {"y": x * t}, wrt)
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert "a gradient reaches `t`, but none may" in result.message and ".detach()" in result.message


def test_gradient_failing_backward_is_a_runtime_error() -> None:
    class Broken(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            raise RuntimeError("backward exploded")

    result = run_check("gradient", X, lambda x: {"y": x * 2}, lambda x: {"y": Broken.apply(x)}, GRAD)
    assert not result.passed and result.verdict is Verdict.RUNTIME_ERROR
    assert "backward pass failed: RuntimeError: backward exploded" in result.message


PARAMS_GRAD = {"wrt": ["x", "params"]}


def test_gradient_wrt_a_dict_argument_covers_each_tensor() -> None:
    assert run_check("gradient", PARAMS, affine, lambda x, p: p["b"] + p["w"] * x, PARAMS_GRAD).passed

    def bias_detached(x, params):
        return x * params["w"] + params["b"].detach()

    result = run_check("gradient", PARAMS, affine, bias_detached, PARAMS_GRAD)
    assert not result.passed and 'no gradient reaches `params["b"]`' in result.message
    doubled = lambda x, p: x * (2 * p["w"] - p["w"].detach()) + p["b"]     # same values, twice the w-gradient
    result = run_check("gradient", PARAMS, affine, doubled, PARAMS_GRAD)
    assert not result.passed and 'the gradient w.r.t. `params["w"]`' in result.message


def test_gradient_of_a_dict_argument_is_taken_before_the_submission_edits_it() -> None:
    def pops_bias(x, params):
        return x * params["w"] + params.pop("b")          # the judge still holds the original b

    assert run_check("gradient", PARAMS, affine, pops_bias, PARAMS_GRAD).passed


def test_gradient_fails_when_no_gradients_come_back() -> None:
    case = make_case(X, "gradient", GRAD)
    expected = observe(lambda x: {"y": x * 2}, case)
    forged = {name: Observation(value=obs.value) for name, obs in expected.items()}   # grads dropped
    result = judged("gradient", case, expected, forged, **GRAD)
    assert not result.passed and "no gradient reaches `x`" in result.message


# ---------------------------------------------------------------- leakage

BATCH = {"x": torch.arange(12.0).reshape(3, 4)}
LEAK = {"arg": "x", "sample": 1}


def test_leakage_passes_for_independent_samples() -> None:
    assert run_check("leakage", BATCH, lambda x: x * 2,
                     lambda x: x * 2 + x.mean(1, keepdim=True) * 0, LEAK).passed


def test_leakage_compares_the_perturbed_call_with_the_reference() -> None:
    """A cache keyed by shape answers the perturbed batch with the first call's output (issue 10, class 3)."""
    cache = {}
    result = run_check("leakage", BATCH, lambda x: x * 2, lambda x: cache.setdefault(tuple(x.shape), x * 2), LEAK)
    assert not result.passed and result.message.startswith("with sample 1 redrawn: ")


def right_only_on(args: dict, right: Callable, wrong: Callable) -> Callable:
    """A submission right on the test's own inputs `args` and `wrong` on any other (a property check
    judges the property only where the values on the test's own inputs are right)."""
    def submission(*given):
        same = all(np.array_equal(np.asarray(g), np.asarray(a)) for g, a in zip(given, args.values()))
        return (right if same else wrong)(*given)
    return submission


def test_leakage_detects_mixing_across_the_batch() -> None:
    result = run_check("leakage", BATCH, lambda x: x * 2, right_only_on(BATCH, lambda x: x * 2, lambda x: x - x.mean(0)),
                       LEAK)
    assert not result.passed
    assert "changing sample 1 of `x` changed the output of sample(s) 0, 2" in result.message
    assert "mixed across the batch" in result.message


def test_leakage_only_looks_at_the_listed_outputs() -> None:
    params = {"arg": "x", "sample": 0, "outputs": ["tokens"]}
    submission = lambda x: {"tokens": x * 2, "stats": x - x.mean(0)}  # noqa: E731
    assert run_check("leakage", BATCH, lambda x: {"tokens": x * 2, "stats": x}, submission, params).passed
    result = run_check("leakage", BATCH, lambda x: {"tokens": x},
                       right_only_on(BATCH, lambda x: {"tokens": x}, lambda x: {"tokens": x.roll(1, 0)}), params)
    assert not result.passed and "`tokens` of sample(s) 1" in result.message


def test_leakage_is_not_judged_where_the_values_are_wrong_already() -> None:
    """Mixing across the batch changes the values on the test's own inputs: that is the failure (a value
    failure, diagnosed as one), and the property is not mentioned."""
    result = run_check("leakage", BATCH, lambda x: x * 2, lambda x: x - x.mean(0), LEAK)
    assert not result.passed and result.diagnose and result.kind == "values"
    assert result.message.startswith("on the test's own inputs, before any change: ") and "leakage" not in result.message


PROBE = {"features": np.arange(12.0).reshape(6, 2), "labels": np.array([0, 2, 1, 2, 0, 1])}


def _standardised(features, labels):
    return {"scores": (features - features.mean(0)) / features.std(0)}


def test_leakage_redraws_the_listed_rows_and_watches_the_others() -> None:
    params = {"arg": "features", "rows": [3, 4, 5], "outputs": ["scores"],
              "message": "standardise with the training statistics only"}
    own_rows = lambda features, labels: {"scores": features * 2}  # noqa: E731
    assert run_check("leakage", PROBE, own_rows, own_rows, params).passed
    result = run_check("leakage", PROBE, own_rows, right_only_on(PROBE, own_rows, _standardised), params)
    assert not result.passed
    assert result.message == ("leakage: changing rows 3, 4, 5 of `features` changed `scores` of sample(s) 0, 1, 2: "
                              "standardise with the training statistics only")


def test_leakage_can_watch_every_row_while_all_labels_change() -> None:
    params = {"arg": "labels", "rows": "all", "watch": "all", "message": "labels are only for scoring"}
    case = make_case(PROBE, "leakage", params)
    before, after = case.args[1].data, case.calls.of("leakage")[leakage.CALL].args[1].data
    # every label moved, to another label of the range the argument spans
    assert after.dtype == before.dtype and np.all(after != before) and set(after) <= {0, 1, 2}
    independent = lambda features, labels: {"predictions": np.argmax(features, 1)}  # noqa: E731
    assert run_check("leakage", PROBE, independent, independent, params).passed
    uses_labels = lambda features, labels: {"predictions": np.argmax(features, 1) + labels}  # noqa: E731
    result = run_check("leakage", PROBE, independent, right_only_on(PROBE, independent, uses_labels), params)
    assert not result.passed
    assert result.message.startswith("leakage: changing every row of `labels` changed `predictions` of sample(s) ")
    assert result.message.endswith(": labels are only for scoring")


def test_leakage_fails_when_no_watched_output_comes_back() -> None:
    params = {"arg": "features", "rows": [0], "outputs": ["scores"]}
    result = run_check("leakage", PROBE, _standardised,
                       right_only_on(PROBE, _standardised, lambda features, labels: {"scores": 1.0}), params)
    assert not result.passed and "nothing could be compared" in result.message


@pytest.mark.parametrize("params, problem", [
    ({"arg": "features", "rows": [6]}, "leakage.rows: row 6 is out of range for 6 rows"),
    ({"arg": "features", "rows": "some"}, "leakage.rows: expected a list of row indices or all"),
    ({"arg": "features", "watch": [True]}, "leakage.watch: expected a list of row indices or all"),
])
def test_leakage_rejects_rows_that_do_not_fit(params: dict, problem: str) -> None:
    from judge.base.errors import ConfigError

    with pytest.raises(ConfigError, match=problem.replace(".", r"\.")):
        make_case(PROBE, "leakage", params)


def test_leakage_refuses_to_redraw_a_constant_integer_argument() -> None:
    from judge.base.errors import ConfigError

    with pytest.raises(ConfigError, match="all equal"):
        make_case({"labels": np.zeros(4, dtype=np.int64)}, "leakage", {"arg": "labels", "rows": "all"})


# ---------------------------------------------------------------- invariance

PAIR = {"a": torch.tensor([[1.0, 2.0], [3.0, 4.0]]), "b": torch.tensor([[0.5, 0.0], [1.0, 2.0]])}
SWAP = {"transform": "swap_args", "args": ["a", "b"], "relation": "same"}


def test_invariance_passes_when_the_relation_holds() -> None:
    assert run_check("invariance", PAIR, lambda a, b: a + b, lambda a, b: b + a, SWAP).passed


def test_invariance_fails_when_the_relation_breaks() -> None:
    result = run_check("invariance", PAIR, lambda a, b: a + b, right_only_on(PAIR, lambda a, b: a + b, lambda a, b: a - b),
                       SWAP)
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert "`a` and `b` were swapped" in result.message and "should stay the same" in result.message


def test_invariance_blames_a_wrong_declaration_not_the_submission() -> None:
    result = run_check("invariance", PAIR, lambda a, b: a - b, lambda a, b: a - b, SWAP)
    assert not result.passed and result.verdict is Verdict.JUDGE_ERROR
    assert "the reference breaks this declared invariance" in result.message


# ---------------------------------------------------------------- forged observations (issue 10, class 2)

def test_gradient_fails_when_the_gradients_are_missing_or_malformed() -> None:
    from dataclasses import replace

    case = make_case(X, "gradient", {"wrt": ["x"]})
    expected = observe(lambda x: x * 2, case)
    actual = observe(lambda x: x * 2, case)
    assert judged("gradient", case, expected, actual, wrt=["x"]).passed
    good = actual[BACKWARD]
    for forged in (None, (), (good.grads[0], good.grads[0]),
                   (wire.Array(data=good.grads[0].data[:1], library="torch", dtype="float32"),)):
        actual[BACKWARD] = replace(good, grads=forged)
        assert not judged("gradient", case, expected, actual, wrt=["x"]).passed, forged


def test_gradient_fails_for_an_output_without_autograd_history_where_the_reference_has_one() -> None:
    from dataclasses import replace

    case = make_case(X, "gradient", {"wrt": ["x"]})
    expected = observe(lambda x: x * 2, case)
    actual = observe(lambda x: x * 2, case)
    value = actual[BACKWARD].value
    actual[BACKWARD] = replace(actual[BACKWARD], value=replace(value, has_grad_fn=False))
    result = judged("gradient", case, expected, actual, wrt=["x"])
    assert not result.passed and "not connected to the autograd graph" in result.message


def test_mutation_fails_when_the_inputs_after_are_missing() -> None:
    from dataclasses import replace

    case = make_case(X, "mutation", {})
    expected = observe(lambda x: x * 2, case)
    actual = observe(lambda x: x * 2, case)
    assert judged("mutation", case, expected, actual).passed
    inputs = call_name("mutation", mutation.CALL)
    for forged in (None, ()):
        actual[inputs] = replace(actual[inputs], inputs_after=forged)
        result = judged("mutation", case, expected, actual)
        assert not result.passed and "did not come back" in result.message


def test_mutation_looks_at_every_call_of_the_test() -> None:
    """A submission that mutates only on the test's own call, not on the check's, is caught."""
    seen = []

    def sneaky(x):
        seen.append(1)
        out = x * 2
        if len(seen) == 1:  # observe() makes the main call first
            x.add_(1)
        return out

    result = run_check("mutation", X, lambda x: x * 2, sneaky)
    assert not result.passed and "modified in place" in result.message


# ---------------------------------------------------------------- experiment

def _simsiam(p1, p2, z1, z2, stop=True):
    def d(p, z):
        return -torch.nn.functional.cosine_similarity(p, z.detach() if stop else z, dim=1).mean()
    return d(p1, z2) / 2 + d(p2, z1) / 2


SIMSIAM = {"name": "simsiam", "seed": 1, "pass_if": {"std_ratio": 0.2, "alignment": 0.8}}
FOUR = {k: torch.ones(2, 3) for k in ("p1", "p2", "z1", "z2")}


def test_experiment_passes_a_loss_that_trains() -> None:
    assert run_check("experiment", FOUR, _simsiam, _simsiam, SIMSIAM).passed


def test_experiment_says_the_representation_collapsed() -> None:
    result = run_check("experiment", FOUR, _simsiam, lambda *a: _simsiam(*a, stop=False), SIMSIAM)
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert result.message.startswith("the representation collapsed: the per-channel std of the normalised "
                                     "held-out outputs fell from 0.2")
    assert "stop-gradient" in result.message and "z.detach()" in result.message


def _weights_case():
    case = make_case(FOUR, "experiment", SIMSIAM)
    good = observe(_simsiam, case)[call_name("experiment", experiment.CALL)]
    return case, good


@pytest.mark.parametrize("forge, says", [
    (lambda w: None, "did not return the trained weights"),
    (lambda w: {**w, "std_ratio": 1.0}, "did not return the trained weights"),
    (lambda w: {k: v for k, v in w.items() if k != "enc1"}, "did not return the trained weights"),
    (lambda w: {**w, "enc1": wire.Array(w["enc1"].data, "numpy", "float32")}, "malformed weight `enc1`"),
    (lambda w: {**w, "enc1": wire.Array(w["enc1"].data.astype(np.float64), "torch", "float64")},
     "malformed weight `enc1`: expected float32 (32, 64)"),
    (lambda w: {**w, "enc2": wire.Array(w["enc2"].data[:, :8].copy(), "torch", "float32")}, "malformed weight `enc2`"),
    (lambda w: {**w, "pred2_bias": wire.Array(np.full(16, np.nan, np.float32), "torch", "float32")},
     "became NaN or inf"),
])
def test_experiment_fails_malformed_or_forged_weights(forge, says) -> None:
    """Whatever comes back is judged as weights on held-out data; anything else fails, never passes."""
    case, good = _weights_case()
    forged = Observation(value=forge(dict(good.value)))
    unused = Observation(value=None)  # the check scores the run's weights only
    result = checks.get("experiment").check(case, Observed(main=unused), Observed(main=unused, own={experiment.CALL: forged}),
                                            **SIMSIAM)
    assert not result.passed and says in result.message


def test_experiment_sends_training_data_only() -> None:
    """The child gets initial weights, the training views and the batch order: no held-out sample."""
    from judge.experiments import simsiam

    case = make_case(FOUR, "experiment", SIMSIAM)
    data = case.calls.of("experiment")[experiment.CALL].experiment["data"]
    assert set(data) == {"weights", "views", "batches"}
    _, heldout = simsiam.setup(np.random.default_rng(SIMSIAM["seed"]), simsiam.SETTINGS)
    sent = np.concatenate([v.data for v in data["views"]])
    for view in heldout["views"]:
        assert not (np.abs(sent[:, None, :] - view[None, :64, :]).sum(-1) == 0).any()


@pytest.mark.parametrize("params, says", [
    ({"name": "byol", "pass_if": {}}, "unknown experiment 'byol'"),
    ({**SIMSIAM, "settings": {"stepz": 3}}, "unknown setting 'stepz' of experiment 'simsiam'"),
    ({**SIMSIAM, "settings": {"steps": 2.5}}, "setting 'steps' of experiment 'simsiam' must be an int"),
    ({**SIMSIAM, "pass_if": {"accuracy": 0.9}}, "pass_if: unknown figure 'accuracy' of experiment 'simsiam'"),
])
def test_experiment_configuration_errors_are_one_line(params, says) -> None:
    from judge.base.errors import ConfigError

    with pytest.raises(ConfigError, match=says):
        make_case(FOUR, "experiment", params)


def test_passes_says_what_compare_says_without_its_message() -> None:
    # Known-mistake matching asks compare.passes of every trap: it must agree with compare.check.
    from judge.checks import compare

    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    as_array = lambda data, dtype="float32", library="numpy": wire.Array(np.asarray(data, dtype=dtype), library, dtype)
    pairs = [(as_array(base), as_array(base)), (as_array(base), as_array(base + 1e-3)),
             (as_array(base), as_array(base * (1 + 1e-9))), (as_array(base), as_array(base.T)),
             (as_array(base), as_array(base, "float64")), (as_array(base), as_array(base, library="torch")),
             (as_array(base), as_array(np.where(base > 5, np.nan, base))), (1.5, 1.5), (1.5, 1.6), (1.5, "1.5"),
             ({"a": as_array(base), "b": 2.0}, {"a": as_array(base), "b": 2.0}),
             ({"a": as_array(base), "b": 2.0}, {"a": as_array(base), "b": 2.5}),
             ({"a": as_array(base)}, {"a": as_array(base), "extra": 1.0}), ([1.0, 2.0], [1.0, 2.0, 3.0]),
             (as_array([3.0]), as_array(3.0)), (as_array([[3.0]]), as_array([3.0 + 1.0]))]
    for tolerance in (EXACT, Tolerance(rtol=1e-5, atol=1e-8), Tolerance(rtol=0.0, atol=2e-3)):
        case = make_case({"x": 1.0}, "compare", tolerance=tolerance)
        for want, got in pairs:
            expected, actual = Observed(main=Observation(value=want)), Observed(main=Observation(value=got))
            assert compare.passes(case, expected, actual) == compare.check(case, expected, actual).passed, (want, got)
