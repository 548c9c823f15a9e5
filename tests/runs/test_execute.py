"""Calling a solution: its value, its error (with only the solution's own frames),
gradients for a seeded upstream gradient, and its inputs after the call."""
from __future__ import annotations


import numpy as np
import pytest
import torch

from judge.base import encoding as wire
from judge.runs.calls import (UNCHANGED, WRITTEN, Call, ErrorInfo, Observation, describe_error, register_source, restore_unchanged,
                            run_call)

SOLUTION = "/submissions/my_solution.py"


def load(source: str, name: str = "f", filename: str = SOLUTION):
    """Compile `source` as the file `filename` (as the sandbox does) and return `name`."""
    register_source(filename, source)
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def plain(value):
    return wire.roundtrip(value)


def test_value_is_returned_and_args_are_revived() -> None:
    seen = {}

    def f(x, k):
        seen["types"] = (type(x), type(k))
        return {"y": x * k, "k": k}

    observation = run_call(f, Call(args=(plain(torch.arange(3.0)), 2)), SOLUTION)
    assert observation.error is None
    assert seen["types"] == (torch.Tensor, int)  # a plain Array becomes a real tensor again
    assert torch.equal(observation.value["y"], torch.tensor([0.0, 2.0, 4.0]))
    assert observation.value["k"] == 2 and observation.time_ms >= 0
    assert observation.grads is None
    # Every call reads its inputs back; an array it left as sent comes back as the marker.
    assert observation.inputs_after == (UNCHANGED, 2)


def test_error_keeps_only_the_solutions_frames() -> None:
    f = load("import json\n\n\ndef helper(text):\n    return json.loads(text)\n\n\n"
             "def f(x):\n    return helper('{broken')\n")
    observation = run_call(f, Call(args=(1,)), SOLUTION)
    error = observation.error
    assert error is not None and observation.value is None
    assert error.type == "JSONDecodeError"
    assert error.is_a("ValueError") and not error.is_a("TypeError")  # builtin bases, for `raises: ValueError`
    assert error.headline().startswith("JSONDecodeError: Expecting property name")
    assert len(error.frames) == 2
    assert all(SOLUTION in frame for frame in error.frames)  # json's own frames are dropped
    assert "line 9, in f" in error.frames[0] and "return helper('{broken')" in error.frames[0]
    assert "line 5, in helper" in error.frames[1] and "json.loads(text)" in error.frames[1]
    assert error.where == "call"


def test_error_in_the_judges_call_path_has_no_frames_of_other_files() -> None:
    observation = run_call(lambda x: x @ torch.zeros(3), Call(args=(plain(torch.zeros(2)),)), SOLUTION)
    assert observation.error.type == "RuntimeError" and observation.error.frames == ()


def test_unprintable_exception_message() -> None:
    class Hostile(Exception):
        def __str__(self):
            raise RuntimeError("no")

    def f():
        raise Hostile()

    error = run_call(f, Call(args=()), SOLUTION).error
    assert error.type == "Hostile" and error.message == "<unprintable message>"
    assert error.is_a("Exception")


def test_syntax_error_frame_shows_the_line() -> None:
    try:
        compile("def f(:\n    pass\n", SOLUTION, "exec")
    except SyntaxError as exc:
        error = describe_error(exc, SOLUTION)
    assert error.type == "SyntaxError"
    assert any("line 1" in frame and "def f(:" in frame for frame in error.frames)


def _upstream(shape, seed: int, dtype=torch.float32) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=generator, dtype=torch.float64).to(dtype)


def test_gradient_for_a_seeded_upstream_gradient() -> None:
    x = plain(torch.arange(6.0).reshape(2, 3))
    f = lambda x, k: {"y": x * k, "z": x.sum() * 100, "count": 3}  # noqa: E731
    call = Call(args=(x, 3), grad_wrt=(0,), grad_outputs=("y",), grad_seed=7)
    observation = run_call(f, call, SOLUTION)
    assert observation.grad_error is None
    (grad,) = observation.grads
    # only `y` is backpropagated: d/dx sum(3x * g) = 3g, for the seeded g
    assert torch.allclose(grad, 3 * _upstream((2, 3), 7))
    again = run_call(f, call, SOLUTION).grads[0]
    assert torch.equal(grad, again)
    other = run_call(f, Call(args=(x, 3), grad_wrt=(0,), grad_outputs=("y",), grad_seed=8), SOLUTION).grads[0]
    assert not torch.equal(grad, other)


def test_gradient_of_every_output_by_default() -> None:
    x = plain(torch.ones(2))
    observation = run_call(lambda x: (x * 2).sum(), Call(args=(x,), grad_wrt=(0,), grad_seed=1), SOLUTION)
    assert torch.allclose(observation.grads[0], 2 * _upstream((), 1).expand(2))


def test_gradient_of_a_dict_argument_is_a_dict_of_its_float_tensors() -> None:
    params = {"w": torch.tensor([1.0, 2.0]), "b": torch.tensor([0.5, 0.5]), "steps": torch.tensor([3])}
    fn = load("def f(x, p):\n    return x * p['w'] + p['b']\n")
    call = Call(args=(plain(torch.ones(2)), plain(params)), grad_wrt=(1,), grad_seed=4)
    observed = run_call(fn, call, SOLUTION)
    upstream = _upstream((2,), 4)
    (grads,) = observed.grads
    assert set(grads) == {"w", "b"}                      # the integer tensor takes no gradient
    assert torch.allclose(grads["w"], upstream) and torch.allclose(grads["b"], upstream)


def test_detached_output_gives_no_gradient() -> None:
    x = plain(torch.ones(3))
    observation = run_call(lambda x: {"y": x.detach() * 2}, Call(args=(x,), grad_wrt=(0,)), SOLUTION)
    assert observation.error is None and observation.grad_error is None
    assert observation.grads == (None,)


def test_output_not_depending_on_the_input_gives_no_gradient() -> None:
    x, w = plain(torch.ones(3)), plain(torch.ones(3))
    observation = run_call(lambda x, w: x * 2, Call(args=(x, w), grad_wrt=(0, 1)), SOLUTION)
    assert observation.grads[0] is not None and observation.grads[1] is None


def test_backward_failure_is_reported_with_its_frames() -> None:
    f = load("import torch\n\n\nclass Broken(torch.autograd.Function):\n"
             "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n\n"
             "    @staticmethod\n    def backward(ctx, g):\n        raise ArithmeticError('no backward')\n\n\n"
             "def f(x):\n    return Broken.apply(x)\n")
    observation = run_call(f, Call(args=(plain(torch.ones(2)),), grad_wrt=(0,)), SOLUTION)
    assert observation.error is None and observation.grads is None
    assert observation.grad_error.type == "ArithmeticError" and observation.grad_error.where == "backward"
    assert any("in backward" in frame for frame in observation.grad_error.frames)


def test_inputs_after_show_in_place_changes() -> None:
    x = plain(torch.zeros(3))
    f = lambda x: x.add_(1).sum()  # noqa: E731
    observation = run_call(f, Call(args=(x, )), SOLUTION)
    assert torch.equal(observation.inputs_after[0], torch.ones(3))
    assert x.data.tolist() == [0.0, 0.0, 0.0]  # the plain input itself is never touched


def test_inputs_after_also_when_the_call_raises() -> None:
    def f(x):
        x[0] = 5
        raise ValueError("after mutating")

    observation = run_call(f, Call(args=(plain(np.zeros(2)),)), SOLUTION)
    assert observation.error.type == "ValueError"
    assert observation.inputs_after[0].tolist() == [5.0, 0.0]


def test_inputs_after_are_detached_for_gradient_calls() -> None:
    def f(x):
        with torch.no_grad():
            x.add_(1)
        return x * 2

    observation = run_call(f, Call(args=(plain(torch.ones(2)),), grad_wrt=(0,)), SOLUTION)
    assert observation.inputs_after[0].requires_grad is False
    assert observation.inputs_after[0].tolist() == [2.0, 2.0]
    untouched = run_call(lambda x: x * 2, Call(args=(plain(torch.ones(2)),), grad_wrt=(0,)), SOLUTION)
    assert untouched.inputs_after == (UNCHANGED,)  # tracked for the gradient, and still as sent


@pytest.mark.parametrize("sent, change, marker", [
    (torch.arange(4.0), lambda x: None, UNCHANGED),                 # untouched
    (torch.arange(4.0), lambda x: x.detach().mul_(1.0), WRITTEN),   # the same bytes, written in place
    (torch.tensor([1.0, float("nan")]), lambda x: None, None),      # NaN: never claimed unchanged
    (torch.arange(4.0).reshape(2, 2), lambda x: x.t_(), None),      # transposed in place
    (torch.arange(4, dtype=torch.int32), lambda x: x.add_(1), None),
    (np.arange(3.0), lambda x: x.__setitem__(0, 9.0), None),
    ({"w": torch.ones(2), "b": torch.zeros(1)}, lambda p: p.pop("b"), None),  # a key removed
    ({"w": torch.ones(2)}, lambda p: p["w"].mul_(2), None),
    ({"w": torch.ones(2)}, lambda p: None, UNCHANGED),
])
def test_an_argument_is_marked_unchanged_only_when_it_is_exactly_as_sent(sent, change, marker) -> None:
    call = Call(args=(plain(sent),))
    observation = run_call(lambda x: change(x), call, SOLUTION)
    after = observation.inputs_after[0]
    if marker is None:
        assert not isinstance(after, str)
    else:
        assert isinstance(after, str) and after == marker
    # On the judge's side the marker UNCHANGED becomes its own copy of what was sent; anything else stays.
    restored = restore_unchanged(observation, call).inputs_after[0]
    assert restored is call.args[0] if marker == UNCHANGED else restored is observation.inputs_after[0]


def test_a_dict_argument_reads_back_entry_by_entry() -> None:
    """One entry written in place with its values kept, the other untouched: each is marked for itself."""
    call = Call(args=(plain({"w": torch.ones(2), "b": torch.zeros(1)}),))
    observation = run_call(lambda p: p["w"].detach().div_(1.0), call, SOLUTION)
    assert observation.inputs_after == ({"w": WRITTEN, "b": UNCHANGED},)
    restored = restore_unchanged(observation, call).inputs_after[0]
    assert restored["w"] == WRITTEN and restored["b"] is call.args[0]["b"]


def test_a_marker_where_no_array_was_sent_is_left_for_the_mutation_check_to_fail() -> None:
    call = Call(args=(3,))
    forged = run_call(lambda k: k, call, SOLUTION)
    forged = type(forged)(value=forged.value, inputs_after=(UNCHANGED,))
    assert restore_unchanged(forged, call).inputs_after == (UNCHANGED,)


def test_observation_and_call_cross_the_boundary_as_plain_data() -> None:
    x = plain(torch.arange(3.0))
    call = Call(args=(x, 2), grad_wrt=(0,), grad_outputs=("y",), grad_seed=3)
    back = Call.from_plain(wire.roundtrip(call.to_plain()))
    assert back.grad_wrt == (0,) and back.grad_outputs == ("y",) and back.grad_seed == 3
    observation = run_call(lambda x, k: {"y": x * k}, back, SOLUTION)
    crossed = Observation.from_plain(wire.roundtrip(observation.to_plain()))
    assert isinstance(crossed.value["y"], wire.Array) and crossed.value["y"].data.tolist() == [0.0, 2.0, 4.0]
    assert isinstance(crossed.grads[0], wire.Array)
    error = ErrorInfo("ValueError", ("Exception",), "bad", ("frame",), "call")
    assert ErrorInfo.from_plain(wire.roundtrip(error.to_plain())) == error


def test_malformed_observation_is_rejected() -> None:
    with pytest.raises(wire.WireError):
        Observation.from_plain(["not", "a", "dict"])
    with pytest.raises(wire.WireError):
        ErrorInfo.from_plain("ValueError")


def test_exception_identity_is_decided_by_class_not_by_name() -> None:
    """A class named ValueError, even one claiming to live in builtins, is no ValueError (issue 10, class 1)."""
    fake = type("ValueError", (Exception,), {"__module__": "builtins"})
    info = describe_error(fake("x"), None)
    assert info.type == "ValueError" and not info.is_a("ValueError") and info.is_a("Exception")
    real = describe_error(type("Mine", (ValueError,), {})("x"), None)
    assert real.is_a("ValueError") and real.is_a("Exception")


def test_exception_identity_is_the_real_types_not_what_the_object_or_its_metaclass_says() -> None:
    """A `__class__` property saying ValueError fools `isinstance`; a metaclass's `__mro__` property fools
    `type(exc).__mro__`. Neither fools the interpreter's own test (`except ValueError`), nor the judge's."""

    class ClassSaysValueError(Exception):
        @property
        def __class__(self):
            return ValueError

    class MroProperty(type):
        @property
        def __mro__(cls):
            return (cls, ValueError, Exception, BaseException, object)

    class MroSaysValueError(Exception, metaclass=MroProperty):
        pass

    for forged in (ClassSaysValueError("x"), MroSaysValueError("x")):
        info = describe_error(forged, None)
        assert not info.is_a("ValueError") and info.is_a("Exception"), info
        with pytest.raises(Exception) as raised:  # the interpreter's own test agrees
            try:
                raise forged
            except ValueError:
                pytest.fail("`except ValueError` caught it")
        assert raised.value is forged
    assert isinstance(ClassSaysValueError("x"), ValueError)  # what a judge asking isinstance would have believed


def test_a_forged_error_record_is_refused() -> None:
    plain_error = describe_error(ValueError("x"), None).to_plain()
    for forged in ({**plain_error, "bases": ["NotABuiltin"]}, {**plain_error, "where": "judge"},
                   {k: v for k, v in plain_error.items() if k != "frames"}, {**plain_error, "message": 3}):
        with pytest.raises(wire.WireError):
            ErrorInfo.from_plain(forged)


def test_an_observation_with_a_non_finite_time_or_wrong_field_types_is_refused() -> None:
    good = Observation(value=1.0).to_plain()
    assert Observation.from_plain(good).value == 1.0
    assert Observation.from_plain({**good, "time_ms": float("nan")}).time_ms == 0.0
    for forged in ({**good, "time_ms": "1"}, {**good, "grads": "x"}, {**good, "inputs_after": 5},
                   {**good, "extra": 1}):
        with pytest.raises(wire.WireError):
            Observation.from_plain(forged)

