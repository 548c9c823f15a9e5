"""judge/checks/invariance.py: declared input transforms, output relations, messages, and
declaration errors; plus the check at work on the seed problems that declare it."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from judge import checks

from judge.model import problem as problem

from judge.base import encoding as wire
from judge.model.cases import Case, Drawn, call_name, with_calls
from judge.checks import invariance
from judge.base.errors import ConfigError
from judge.runs.calls import Observation, restore_unchanged, run_call
from judge.model.problem import CheckSpec, Tolerance
from judge.base.outcomes import Verdict
from judge.base.submission import Submission

TOL = Tolerance(rtol=1e-5, atol=1e-6)
CALL = call_name("invariance", invariance.CALL)


def make_case(args: dict[str, Any], params: dict, tolerance: Tolerance = TOL) -> Case:
    """A case selecting the invariance check with `params`, with its calls (as build_case makes them)."""
    test = problem.TestSpec(name="t", group="check", inputs={}, checks=(CheckSpec("invariance", params),),
                            tolerance=tolerance, source="tests.yaml:7")
    plain = tuple(wire.roundtrip(v) for v in args.values())
    return with_calls(Drawn(test=test, arg_names=tuple(args), args=plain, tolerance=tolerance))


def observe(fn: Callable, case: Case) -> dict[str, Observation]:
    return {name: restore_unchanged(Observation.from_plain(wire.roundtrip(run_call(fn, call, None).to_plain())), call)
            for name, call in case.calls.items()}


def run(args: dict, params: dict, reference: Callable, submission: Callable, tolerance: Tolerance = TOL):
    case = make_case(args, params, tolerance)
    expected, actual = observe(reference, case), observe(submission, case)
    return checks.get("invariance").check(case, case.view("invariance", expected), case.view("invariance", actual),
                                          **params)


def transformed(case: Case, name: str) -> np.ndarray:
    return case.calls[CALL].args[case.arg_index(name)].data


def clip(image, text, temperature):
    s = F.normalize(image, dim=1) @ F.normalize(text, dim=1).T / temperature
    labels = torch.arange(len(s))
    return {"loss": (F.cross_entropy(s, labels) + F.cross_entropy(s.T, labels)) / 2, "similarities": s,
            "i2t": (s.argmax(1) == labels).double().mean().item(), "t2i": (s.argmax(0) == labels).double().mean().item()}


def one_direction(image, text, temperature):
    out = clip(image, text, temperature)
    out["loss"] = F.cross_entropy(out["similarities"], torch.arange(len(image)))
    return out


PAIR = {"image": torch.randn(6, 4, generator=torch.Generator().manual_seed(0)),
        "text": torch.randn(6, 4, generator=torch.Generator().manual_seed(1)), "temperature": 0.5}
SWAP = {"transform": "swap_args", "args": ["image", "text"],
        "keys": {"loss": "same", "similarities": "transposed", "i2t": {"from": "t2i"}, "t2i": {"from": "i2t"}}}
PERMUTE = {"transform": "permute_rows", "args": ["image", "text"],
           "keys": {"loss": "same", "similarities": {"permuted": [0, 1]}, "i2t": "same"}}


# ---------------------------------------------------------------- transforms

def test_permute_rows_is_one_shared_non_identity_permutation() -> None:
    case = make_case(PAIR, PERMUTE)
    perm = invariance.row_permutation(case, ["image", "text"], 1)
    assert sorted(perm) == list(range(6)) and not np.array_equal(perm, np.arange(6))
    assert np.array_equal(transformed(case, "image"), PAIR["image"].numpy()[perm])
    assert np.array_equal(transformed(case, "text"), PAIR["text"].numpy()[perm])
    assert case.calls[CALL].args[2] == 0.5


def test_permute_rows_in_blocks_keeps_pairs_together() -> None:
    x = np.arange(8.0)[:, None] * np.ones((1, 3))
    case = make_case({"x": x, "t": 1.0}, {"transform": "permute_rows", "args": ["x"], "block": 2})
    rows = transformed(case, "x")[:, 0].astype(int)
    assert sorted(rows) == list(range(8)) and not np.array_equal(rows, np.arange(8))
    assert all(rows[2 * i] // 2 == rows[2 * i + 1] // 2 and rows[2 * i] % 2 == 0 for i in range(4))


def test_reverse_blocks_swaps_inside_each_pair() -> None:
    case = make_case({"x": np.arange(6.0)[:, None], "t": 1.0}, {"transform": "reverse_blocks", "args": ["x"], "block": 2})
    assert transformed(case, "x")[:, 0].tolist() == [1, 0, 3, 2, 5, 4]


def test_scale_rows_multiplies_each_row_by_a_positive_factor_in_range() -> None:
    x = np.ones((50, 3))
    case = make_case({"x": x, "t": 1.0}, {"transform": "scale_rows", "args": ["x"], "low": 0.5, "high": 4.0})
    new = transformed(case, "x")
    assert new.dtype == x.dtype and np.all(new == new[:, :1])             # one factor per row
    assert new.min() >= 0.5 and new.max() <= 4.0 and len(np.unique(new[:, 0])) == 50


def test_swap_args_exchanges_the_two_arguments() -> None:
    case = make_case(PAIR, SWAP)
    assert np.array_equal(transformed(case, "image"), PAIR["text"].numpy())
    assert np.array_equal(transformed(case, "text"), PAIR["image"].numpy())


def test_transformed_torch_input_stays_a_torch_tensor_of_its_dtype() -> None:
    case = make_case({"x": torch.ones(4, 2, dtype=torch.float64), "t": 1.0}, {"transform": "scale_rows", "args": ["x"]})
    value = case.calls[CALL].args[0]
    assert value.library == "torch" and value.dtype == "float64"


def test_axis_permutes_the_tokens_of_every_sample_alike() -> None:
    x = np.arange(2 * 5 * 3.0).reshape(2, 5, 3)
    case = make_case({"x": x}, {"transform": "permute_rows", "args": ["x"], "axis": 1})
    perm = invariance.row_permutation(case, ["x"], 1, axis=1)
    assert len(perm) == 5 and not np.array_equal(perm, np.arange(5))
    assert np.array_equal(transformed(case, "x"), x[:, perm])                # batch axis untouched


def test_axis_applies_to_reverse_blocks_and_scale_rows() -> None:
    x = np.arange(8.0).reshape(2, 4)
    case = make_case({"x": x}, {"transform": "reverse_blocks", "args": ["x"], "block": 2, "axis": 1})
    assert transformed(case, "x").tolist() == [[1, 0, 3, 2], [5, 4, 7, 6]]
    case = make_case({"x": np.ones((3, 6))}, {"transform": "scale_rows", "args": ["x"], "axis": 1})
    new = transformed(case, "x")
    assert np.all(new == new[:1]) and len(np.unique(new[0])) == 6          # one factor per column


def attention(x, w):
    weights = torch.softmax(x @ w @ x.transpose(1, 2) / 2, dim=-1)
    return {"output": weights @ x, "weights": weights}


def attention_with_positions(x, w):
    return attention(x + torch.arange(x.shape[1], dtype=x.dtype)[:, None], w)


TOKENS = {"x": torch.randn(2, 5, 3, generator=torch.Generator().manual_seed(2)),
          "w": torch.randn(3, 3, generator=torch.Generator().manual_seed(3))}
EQUIVARIANT = {"transform": "permute_rows", "args": ["x"], "axis": 1,
               "keys": {"output": {"permuted": [1]}, "weights": {"permuted": [1, 2]}}}


def right_only_on(args: dict, right: Callable, wrong: Callable) -> Callable:
    """A submission right on the test's own inputs `args` and `wrong` on any other: its property
    breaks while its values on the test's inputs are right."""
    def submission(*given):
        same = all(np.array_equal(np.asarray(g), np.asarray(a)) for g, a in zip(given, args.values()))
        return (right if same else wrong)(*given)
    return submission


def test_token_permutation_equivariance_of_attention() -> None:
    assert run(TOKENS, EQUIVARIANT, attention, attention).passed
    result = run(TOKENS, EQUIVARIANT, attention, right_only_on(TOKENS, attention, attention_with_positions))
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert result.message.startswith("the rows of `x` along axis 1 were reordered, so `output` should be "
                                     "reordered by the same permutation (along axis 1);")


def test_a_property_is_not_judged_where_the_values_are_wrong_already() -> None:
    """Positions added inside attention break equivariance, but they change the values on the test's own
    inputs first: the failure is a value failure (diagnosed as one), and the property is not mentioned."""
    result = run(TOKENS, EQUIVARIANT, attention, attention_with_positions)
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert result.message.startswith("on the test's own inputs, before any change: `output`: 30 of 30 values differ")
    assert "reordered" not in result.message
    assert result.diagnose and result.kind == "values" and result.key == "output"
    # An equivariant submission with wrong values is a value failure too, never "the rows were reordered".
    doubled = lambda x, w: {k: v * 2 for k, v in attention(x, w).items()}
    assert run(TOKENS, EQUIVARIANT, attention, doubled).message.startswith("on the test's own inputs")


# ---------------------------------------------------------------- verdicts and messages

def test_passes_when_every_declared_relation_holds() -> None:
    assert run(PAIR, SWAP, clip, clip).passed
    assert run(PAIR, PERMUTE, clip, clip).passed


def test_fails_naming_the_transform_and_the_broken_key() -> None:
    result = run(PAIR, SWAP, clip, right_only_on(PAIR, clip, one_direction))
    assert not result.passed and result.verdict is Verdict.WRONG_ANSWER
    assert result.message.startswith("`image` and `text` were swapped, so `loss` should stay the same; it moved by")
    assert "rtol=1e-05, atol=1e-06" in result.message


def test_array_relation_failure_counts_differing_values() -> None:
    params = {"transform": "permute_rows", "args": ["x"], "relation": {"permuted": [0]}}
    x = {"x": np.arange(12.0).reshape(4, 3)}
    result = run(x, params, lambda x: x * 2, right_only_on(x, lambda x: x * 2, lambda x: np.cumsum(x, axis=0)))
    assert not result.passed
    assert result.message.startswith("the rows of `x` were reordered, so the returned value should be reordered "
                                     "by the same permutation (along axis 0);")
    assert "values differ, max abs difference" in result.message


def test_scale_invariance_catches_a_missing_normalisation() -> None:
    params = {"transform": "scale_rows", "args": ["x"]}
    x = {"x": np.random.default_rng(0).standard_normal((4, 3))}
    normalised = lambda x: float(np.sum(x / np.linalg.norm(x, axis=1, keepdims=True)))
    assert run(x, params, normalised, normalised).passed
    result = run(x, params, normalised, right_only_on(x, normalised, lambda x: float(np.sum(x))))
    assert not result.passed and "multiplied by its own positive factor" in result.message


def test_per_key_tolerance_applies() -> None:
    params = {"transform": "swap_args", "args": ["a", "b"], "keys": {"v": "same"}}
    loose = Tolerance(rtol=0, atol=0, keys=(("v", Tolerance(0, 0.5)),))
    wobbly = lambda a, b: {"v": float(a.sum() - b.sum()) * 1e-2}      # moves by < 0.5 when swapped
    args = {"a": np.ones(3), "b": np.zeros(3)}
    assert run(args, params, lambda a, b: {"v": 0.0}, wobbly, tolerance=loose).passed
    assert not run(args, params, lambda a, b: {"v": 0.0}, wobbly, tolerance=Tolerance(0, 0)).passed


def test_missing_key_in_the_transformed_output_fails() -> None:
    params = {"transform": "swap_args", "args": ["a", "b"], "keys": {"v": "same"}}
    flaky = lambda a, b: {"v": 1.0} if a.sum() else {"w": 1.0}
    result = run({"a": np.ones(2), "b": np.zeros(2)}, params, lambda a, b: {"v": 1.0}, flaky)
    assert not result.passed and "the output has no key 'v'" in result.message


def test_a_reference_that_breaks_the_declaration_is_a_judge_error() -> None:
    params = {"transform": "swap_args", "args": ["a", "b"]}
    result = run({"a": np.ones(2), "b": np.zeros(2)}, params, lambda a, b: float(a.sum()), lambda a, b: float(a.sum()))
    assert not result.passed and result.verdict is Verdict.JUDGE_ERROR
    assert "the reference breaks this declared invariance" in result.message and "tests.yaml:7" in result.message


# ---------------------------------------------------------------- declaration errors

@pytest.mark.parametrize("params, field, text", [
    ({"transform": "shuffle", "args": ["image"]}, "invariance.transform", "expected one of permute_rows"),
    ({"transform": "swap_args", "args": ["image"]}, "invariance.args", "exactly two argument names"),
    ({"transform": "permute_rows", "args": ["images"]}, "invariance.args", "unknown argument 'images'"),
    ({"transform": "permute_rows", "args": ["temperature"]}, "invariance.args", "not an array or tensor"),
    ({"transform": "permute_rows", "args": ["image"], "block": 4}, "invariance.block", "positive divisor"),
    ({"transform": "permute_rows", "args": ["image"], "axis": 2}, "invariance.args", "with rows along axis 2"),
    ({"transform": "permute_rows", "args": ["image"], "axis": -1}, "invariance.axis", "axis >= 0"),
    ({"transform": "swap_args", "args": ["image", "text"], "axis": 1}, "invariance.axis", "takes no axis"),
    ({"transform": "scale_rows", "args": ["image"], "low": 0.0}, "invariance.low", "0 < low <= high"),
    ({"transform": "swap_args", "args": ["image", "text"], "keys": {"loss": {"permuted": [0]}}},
     "invariance.keys.loss.permuted", "only permute_rows permutes"),
    ({"transform": "swap_args", "args": ["image", "text"], "keys": {"loss": "flipped"}},
     "invariance.keys.loss", "expected same, transposed or a mapping"),
    ({"transform": "swap_args", "args": ["image", "text"], "relation": "same", "keys": {"loss": "same"}},
     "invariance.keys", "not both"),
])
def test_bad_declarations_are_config_errors_naming_the_field(params: dict, field: str, text: str) -> None:
    with pytest.raises(ConfigError) as caught:
        make_case(PAIR, params)
    assert caught.value.field == field and text in str(caught.value)
    assert str(caught.value).startswith("tests.yaml:7: ")


def test_yaml_parameters_are_validated_by_the_registry(tmp_path) -> None:
    from judge.base.yamlfile import Errors, Fields, load_yaml

    path = tmp_path / "t.yaml"
    path.write_text("invariance: {transform: swap_args, args: [a, b], colour: red}\n")
    errors = Errors(path)
    checks.parse_params("invariance", Fields(load_yaml(path), "", errors, 1), "invariance")
    assert any("colour" in str(e) and "unknown field" in str(e) for e in errors.items)


# ---------------------------------------------------------------- on the seed problems

ONE_DIRECTION = '''
import torch
import torch.nn.functional as F

def symmetric_clip_loss(image_embeddings, text_embeddings, temperature):
    s = F.normalize(image_embeddings, dim=1) @ F.normalize(text_embeddings, dim=1).T / temperature
    labels = torch.arange(len(s))
    return {"loss": F.cross_entropy(s, labels), "similarities": s,
            "image_to_text_accuracy": (s.argmax(1) == labels).float().mean(),
            "text_to_image_accuracy": (s.argmax(0) == labels).float().mean()}
'''


def test_clip_swap_symmetry_names_a_one_directional_loss_as_the_value_it_is(judge) -> None:
    """A one-directional loss is wrong on the symmetry test's own inputs: the test says so and names the
    mistake; it does not call the wrong value a broken symmetry (nor shows the symmetry's hint)."""
    report = judge.submit("clip_loss", Submission.from_text(ONE_DIRECTION, "one_direction.py"))
    result = {t.name: t for t in report.tests}["image_text_swap_symmetry"]
    assert result.verdict is Verdict.WRONG_ANSWER
    assert result.message.startswith("on the test's own inputs, before any change: `loss` is wrong")
    assert result.mistake is not None and result.mistake.name == "one_direction" and result.hint is None
