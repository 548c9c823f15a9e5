"""Input generators: YAML specs parse into small objects that draw the same values
from the same seed, in the requested shape, dtype and library; bad parameters are
reported with the YAML field that holds them."""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
import torch

from judge.model import generators
from judge.model.compose import References
from judge.base.errors import ConfigError
from judge.model.problem import load_composable
from judge.base.yamlfile import Errors, Fields, load_yaml
from problemsets import copy_problems


def parse(tmp_path: Path, value: str):
    """Parse `value` as the YAML of an argument `x`; returns (spec, error lines)."""
    path = tmp_path / "spec.yaml"
    path.write_text(f"x: {value}\n")
    errors = Errors(path)
    top = Fields(load_yaml(path), "", errors, 1)
    spec = generators.parse_input(top.raw("x"), top, "x")
    return spec, [str(e) for e in errors.items]


def draw(spec, seed: int = 0, drawn: dict | None = None, library: str = "torch", context=None):
    return spec.draw(np.random.default_rng(seed), drawn or {}, library, context=context)


def as_array(value) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        return value.float().numpy() if value.dtype == torch.bfloat16 else value.numpy()
    return np.asarray(value)


# Every generator with a spec and what its drawn values must satisfy.
CASES = {
    "normal": ("{normal: {shape: [400], mean: 5, std: 0.5}}", (400,), "float32",
               lambda a: abs(a.mean() - 5) < 0.2 and 0.3 < a.std() < 0.7),
    "uniform": ("{uniform: {shape: [3, 50], low: 2, high: 3}}", (3, 50), "float32",
                lambda a: a.min() >= 2 and a.max() < 3),
    "randint": ("{randint: {shape: [200], low: -2, high: 3}}", (200,), "int64",
                lambda a: set(np.unique(a)) == {-2, -1, 0, 1, 2}),
    "arange": ("{arange: [2, 3, 4]}", (2, 3, 4), "float32",
               lambda a: np.array_equal(a, np.arange(24).reshape(2, 3, 4))),
    "full": ("{full: {shape: [2, 2], value: 7.5}}", (2, 2), "float32", lambda a: np.all(a == 7.5)),
    "literal": ("{literal: [[1, 0], [0, 1], [1, 1]]}", (3, 2), "int64",
                lambda a: np.array_equal(a, [[1, 0], [0, 1], [1, 1]])),
    "repeat": ("{repeat: {row: [5], times: 3}}", (3, 5), "float32",
               lambda a: np.array_equal(a[0], a[1]) and np.array_equal(a[0], a[2]) and a[0].std() > 0),
    "repeat_rows": ("{repeat_rows: {shape: [2, 4], times: 2}}", (4, 4), "float32",
                    lambda a: np.array_equal(a[0], a[1]) and np.array_equal(a[2], a[3])
                    and not np.array_equal(a[0], a[2])),
}
# Generators that draw from other inputs or the problem set, tested on their own below.
SPECIAL = {"like", "output_of", "mapping"}


def test_every_generator_is_tested() -> None:
    assert set(generators.generator_names()) == set(CASES) | SPECIAL


@pytest.mark.parametrize("kind", sorted(CASES))
def test_generator_shape_dtype_and_values(tmp_path: Path, kind: str) -> None:
    text, shape, dtype, valid = CASES[kind]
    spec, errors = parse(tmp_path, text)
    assert errors == []
    assert isinstance(spec, generators.Spec) and spec.kind == kind
    value = draw(spec)
    assert isinstance(value, torch.Tensor)
    assert tuple(value.shape) == shape
    assert str(value.dtype) == f"torch.{dtype}"
    assert valid(as_array(value)), f"{kind} drew {value}"


@pytest.mark.parametrize("kind", sorted(CASES))
def test_generator_is_deterministic(tmp_path: Path, kind: str) -> None:
    spec, _ = parse(tmp_path, CASES[kind][0])
    first, again = as_array(draw(spec, seed=11)), as_array(draw(spec, seed=11))
    assert first.tobytes() == again.tobytes()


@pytest.mark.parametrize("kind", ["normal", "uniform", "randint", "repeat", "repeat_rows"])
def test_random_generators_depend_on_the_seed(tmp_path: Path, kind: str) -> None:
    spec, _ = parse(tmp_path, CASES[kind][0])
    assert as_array(draw(spec, seed=1)).tobytes() != as_array(draw(spec, seed=2)).tobytes()


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16", "int32", "bool"])
def test_dtype_option(tmp_path: Path, dtype: str) -> None:
    spec, errors = parse(tmp_path, f"{{normal: [3, 4], dtype: {dtype}}}")
    assert errors == []
    value = draw(spec)
    assert value.dtype == getattr(torch, dtype)


def test_library_option_and_default(tmp_path: Path) -> None:
    spec, _ = parse(tmp_path, "{normal: [3, 4], library: numpy, dtype: float64}")
    value = draw(spec, library="torch")
    assert type(value) is np.ndarray and value.dtype == np.float64 and value.shape == (3, 4)
    plain, _ = parse(tmp_path, "{normal: [3, 4]}")
    assert type(draw(plain, library="numpy")) is np.ndarray  # the problem's framework is the default
    assert type(draw(plain, library="torch")) is torch.Tensor
    # the same seed gives the same numbers in either library
    assert np.array_equal(draw(plain, seed=3, library="numpy"), draw(plain, seed=3, library="torch").numpy())


def test_bfloat16_needs_torch(tmp_path: Path) -> None:
    spec, _ = parse(tmp_path, "{normal: [2], dtype: bfloat16, library: numpy}")
    with pytest.raises(ValueError, match="bfloat16"):
        draw(spec)


def test_seed_and_scale_options(tmp_path: Path) -> None:
    spec, errors = parse(tmp_path, "{normal: [4], seed: 5, scale: 10}")
    assert errors == [] and spec.seed == 5 and spec.scale == 10
    base, _ = parse(tmp_path, "{normal: [4]}")
    assert np.allclose(as_array(draw(spec, seed=5)), 10 * as_array(draw(base, seed=5)), rtol=1e-6)


def test_repr_reads_like_yaml(tmp_path: Path) -> None:
    spec, _ = parse(tmp_path, "{normal: [2, 3], dtype: float64}")
    assert repr(spec) == "{normal: [2, 3], dtype: float64}"


@pytest.mark.parametrize("library", ["torch", "numpy"])
def test_a_scalar_literal_stays_zero_dimensional(tmp_path: Path, library: str) -> None:
    # learnable scalars (a log-temperature, a bias) are passed as 0-dim tensors
    spec, errors = parse(tmp_path, f"{{literal: 2.5, dtype: float64, library: {library}}}")
    assert not errors
    plain = spec.draw_plain(np.random.default_rng(0), {}, "torch")
    assert as_array(draw(spec)).shape == () and float(draw(spec)) == 2.5
    assert np.asarray(getattr(plain, "data", plain)).shape == ()


def test_plain_values_pass_through(tmp_path: Path) -> None:
    assert parse(tmp_path, "16") == (16, [])
    assert parse(tmp_path, "0.07") == (0.07, [])
    assert parse(tmp_path, "[1, 2]") == ([1, 2], [])


def test_like_derives_from_an_earlier_argument(tmp_path: Path) -> None:
    spec, errors = parse(tmp_path, "{like: {of: a, scale: 2, noise: 0}}")
    assert errors == []
    a = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    value = draw(spec, drawn={"a": a})
    assert torch.equal(value, 2 * a)
    with pytest.raises(KeyError):
        draw(spec, drawn={})


def test_output_of_runs_another_problems_reference(tmp_path: Path, repo: Path) -> None:
    spec, errors = parse(tmp_path, "{output_of: {problem: patchify, output: tokens, "
                                   "inputs: {images: {arange: [1, 1, 4, 4]}, patch_height: 2, patch_width: 2}}}")
    assert errors == []
    value = draw(spec, context=References(functools.partial(load_composable, repo)))
    assert tuple(value.shape) == (1, 4, 4)
    assert value[0, 1].tolist() == [2, 3, 6, 7]  # token 1 is the top-right patch
    with pytest.raises(ValueError, match="problem set"):
        draw(spec)  # without a problem set it cannot run the other reference


def test_mapping_draws_a_dict_with_shared_options(tmp_path: Path) -> None:
    spec, errors = parse(tmp_path, "{mapping: {w: {normal: [4, 3]}, b: {full: {shape: [4], value: 2}, "
                                   "dtype: float32}, heads: 2}, dtype: float64}")
    assert errors == [] and isinstance(spec, generators.MappingSpec)
    value = draw(spec, seed=3)
    assert list(value) == ["w", "b", "heads"] and value["heads"] == 2
    assert value["w"].dtype == torch.float64 and tuple(value["w"].shape) == (4, 3)   # the mapping's dtype
    assert value["b"].dtype == torch.float32 and torch.all(value["b"] == 2)         # its own dtype wins
    assert torch.equal(draw(spec, seed=3)["w"], value["w"]) and not torch.equal(draw(spec, seed=4)["w"], value["w"])
    plain = spec.draw_plain(np.random.default_rng(3), {}, "torch")
    assert np.array_equal(plain["w"].data, value["w"].numpy()) and plain["w"].library == "torch"


def test_mapping_entry_with_its_own_seed_ignores_the_mapping_stream(tmp_path: Path) -> None:
    spec, _ = parse(tmp_path, "{mapping: {a: {normal: [3], seed: 7}, b: {normal: [3]}}}")
    assert torch.equal(draw(spec, seed=1)["a"], draw(spec, seed=2)["a"])
    assert not torch.equal(draw(spec, seed=1)["b"], draw(spec, seed=2)["b"])


# ---------------------------------------------------------------- errors name the field

@pytest.mark.parametrize("text, field, phrase", [
    ("{gaussian: [2, 3]}", "x", "expected exactly one generator"),
    ("{normal: [2], uniform: [2]}", "x", "expected exactly one generator"),
    ("{normal: [2, -3]}", "x.normal", "shape"),
    ("{normal: {shape: [2], std: wide}}", "x.normal.std", "expected a number"),
    ("{normal: {shape: [2], sigma: 1}}", "x.normal.sigma", "unknown field"),
    ("{normal: {mean: 1}}", "x.normal.shape", "missing"),
    ("{normal: [2], dtype: float65}", "x.dtype", "float65"),
    ("{normal: [2], library: jax}", "x.library", "jax"),
    ("{normal: [2], seed: 1.5}", "x.seed", "expected an integer"),
    ("{normal: [2], size: 3}", "x.size", "unknown field"),
    ("{literal: [[1, 2], [3]]}", "x.literal", "rectangular"),
    ("{literal: [a, b]}", "x.literal", "numbers"),
    ("{repeat: {row: [3]}}", "x.repeat.times", "missing"),
    ("{like: {noise: 0.1}}", "x.like.of", "missing"),
    ("{randint: {shape: [2], low: 0.5}}", "x.randint.low", "expected an integer"),
    ("{mapping: [1, 2]}", "x.mapping", "expected a mapping of key -> input"),
    ("{mapping: {w: {normal: [2, -1]}}}", "x.mapping.w.normal", "shape"),
])
def test_parse_errors_name_the_field(tmp_path: Path, text: str, field: str, phrase: str) -> None:
    _, errors = parse(tmp_path, text)  # errors are collected; loading raises them together
    assert errors, f"{text} should not parse"
    head = f"{tmp_path / 'spec.yaml'}:1: {field}: "
    assert any(e.startswith(head) and phrase in e for e in errors), errors


def test_draw_errors_become_config_errors_naming_the_input(tmp_path: Path, repo: Path) -> None:
    """An input that cannot be drawn is an authoring error in the test's file, not a crash."""
    import shutil

    from judge.model.cases import draw_inputs
    from judge.model.problem import load_hidden, load_problem

    copy_problems(tmp_path, "patchify")
    tests = tmp_path / "hidden_tests" / "patchify" / "tests.yaml"
    tests.write_text(tests.read_text().replace(
        "images: {normal: [1, 3, 224, 224]}", "images: {normal: [1, 3, 224, 224], dtype: bfloat16, library: numpy}"))
    problem = load_problem(tmp_path, "patchify")
    vit = next(t for t in load_hidden(problem).tests if t.name == "vit_224")
    with pytest.raises(ConfigError) as exc:
        draw_inputs(problem, vit)
    assert "inputs.images" in str(exc.value) and "bfloat16" in str(exc.value)
    assert "tests.yaml:" in str(exc.value)
