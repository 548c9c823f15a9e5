"""The repeat_rows generator (judge/model/generators.py): each/whole order, noise, and YAML errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from judge.model import generators
from judge.base.yamlfile import Errors, Fields, load_yaml


def parse(tmp_path: Path, value: str):
    path = tmp_path / "spec.yaml"
    path.write_text(f"x: {value}\n")
    errors = Errors(path)
    spec = generators.parse_input(Fields(load_yaml(path), "", errors, 1).raw("x"),
                                  Fields(load_yaml(path), "", errors, 1), "x")
    return spec, [str(e) for e in errors.items]


def draw(spec) -> np.ndarray:
    return np.asarray(spec.draw(np.random.default_rng(3), {}, "numpy"))


def test_each_order_gives_consecutive_copies(tmp_path: Path) -> None:
    spec, errors = parse(tmp_path, "{repeat_rows: {shape: [3, 4], times: 2}, dtype: float64}")
    a = draw(spec)
    assert not errors and a.shape == (6, 4) and a.dtype == np.float64
    assert all(np.array_equal(a[2 * i], a[2 * i + 1]) for i in range(3))
    assert not np.array_equal(a[0], a[2])


def test_whole_order_repeats_the_block(tmp_path: Path) -> None:
    spec, _ = parse(tmp_path, "{repeat_rows: {shape: [2, 3], times: 3, order: whole}}")
    a = draw(spec)
    assert a.shape == (6, 3)
    assert np.array_equal(a[0], a[2]) and np.array_equal(a[1], a[5]) and not np.array_equal(a[0], a[1])


def test_noise_makes_copies_near_but_not_equal(tmp_path: Path) -> None:
    spec, _ = parse(tmp_path, "{repeat_rows: {shape: [2, 16], times: 2, noise: 0.001}, dtype: float64}")
    a = draw(spec)
    assert 0 < np.abs(a[0] - a[1]).max() < 0.01


def test_bad_parameters_name_the_field(tmp_path: Path) -> None:
    _, errors = parse(tmp_path, "{repeat_rows: {shape: [2, 3], times: 0, order: sideways}}")
    assert any("x.repeat_rows.times" in e and ">= 1" in e for e in errors)
    assert any("x.repeat_rows.order" in e and "expected each" in e for e in errors)
