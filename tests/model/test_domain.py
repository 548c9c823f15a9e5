"""judge/model/domain.py: a problem's input domain, read from `domain:` or the signature, and what it admits."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from judge.base.encoding import Array
from judge.base.errors import ConfigError
from judge.model.domain import DomainSyntaxError, from_signature, parse_type
from judge.model.problem import load_problem
from problemsets import copy_problems

ERROR_LINE = re.compile(r"^(?P<file>[^:]+\.yaml):(?P<line>\d+): (?P<field>[\w.\[\]() ]+): (?P<message>.+)$")


def tensor(shape=(2, 3), dtype="float32") -> Array:
    return Array(np.zeros(shape, dtype=dtype), library="torch", dtype=dtype)


def array(shape=(2, 3), dtype="float64") -> Array:
    return Array(np.zeros(shape, dtype=dtype), library="numpy", dtype=dtype)


def test_an_int_is_never_a_bool_nor_a_float() -> None:
    size = parse_type("int")
    assert size.admits(4) and not size.admits(True) and not size.admits(4.0) and not size.admits("4")


def test_a_float_takes_an_int_but_not_a_bool() -> None:
    scale = parse_type("float")
    assert scale.admits(0.5) and scale.admits(2) and not scale.admits(False) and not scale.admits(tensor(()))


def test_arrays_by_library_dtype_kind_and_name() -> None:
    floats = parse_type("tensor[float32, float64]")
    assert floats.admits(tensor()) and floats.admits(tensor(dtype="float64"))
    assert not floats.admits(tensor(dtype="int64")) and not floats.admits(array(dtype="float32"))
    labels = parse_type("array[int]")
    assert labels.admits(array(dtype="int64")) and labels.admits(array(dtype="int32"))
    assert not labels.admits(array(dtype="float64")) and not labels.admits([0, 1])   # a list where an array is due
    assert parse_type("tensor").admits(tensor(dtype="bool"))


def test_sequences_dicts_unions_and_none() -> None:
    grid = parse_type("int | seq[int]")
    assert grid.admits(14) and grid.admits([14, 14]) and grid.admits((2, 3, 4)) and grid.admits([])
    assert not grid.admits([14, 14.0]) and not grid.admits([True, 2]) and not grid.admits("14")
    params = parse_type("dict[tensor[float]]")
    assert params.admits({"w": tensor(), "b": tensor(dtype="float64")}) and not params.admits({"w": 1.0})
    assert parse_type("tensor | None").admits(None) and not parse_type("tensor").admits(None)


def test_an_unreadable_type_says_what_was_expected() -> None:
    for text, said in (("integer", "unknown type 'integer'"), ("tensor[floaty]", "unknown dtype 'floaty'"),
                       ("seq", "needs its items' type"), ("int |", "ends where a type is expected"),
                       ("", "an empty type")):
        with pytest.raises(DomainSyntaxError, match=re.escape(said)):
            parse_type(text)


def test_the_signature_gives_a_domain_where_the_yaml_says_nothing() -> None:
    found = from_signature("def f(x: torch.Tensor, k: int, grid: tuple[int, int], size: int | tuple[int, int], "
                           "bias: torch.Tensor | None, params: dict, mode, flag: bool = False) -> dict")
    assert {name: union.text() for name, union in found.items()} == {
        "x": "tensor", "k": "int", "grid": "seq[int]", "size": "int | seq[int]", "bias": "tensor | None",
        "params": "dict[any]", "flag": "bool"}


def test_a_problem_reads_its_domain_and_ranks(tmp_path: Path) -> None:
    root = copy_problems(tmp_path, "siglip_loss", "patchify")
    siglip = load_problem(root, "siglip_loss").domain.of("t_prime")
    assert siglip.text() == "float | tensor[float32, float64] of rank 0" and siglip.declared
    assert siglip.outside(2.3) is None and siglip.outside(tensor(())) is None
    assert siglip.outside(tensor((1,))) == "t_prime has 1 axes, not 0"
    assert siglip.words() == "a `float` or a 0-D `torch.Tensor` of dtype float32 or float64"
    patchify = load_problem(root, "patchify").domain
    assert patchify.outside(("images", "patch_height", "patch_width"), (tensor((1, 1, 4, 4)), 2, 2)) is None
    assert patchify.outside(("images", "patch_height", "patch_width"),
                            (tensor((1, 1, 4, 4)), 2.0, 2)) == "patch_height is a float (2.0), not int"
    assert patchify.of("patch_width").words() == "an `int`"
    assert patchify.of("images").words() == "a `torch.Tensor` of dtype float32 or float64"


@pytest.mark.parametrize("entry, field, said", [
    ("  patch_height: integer\n", "domain.patch_height", "unknown type 'integer'"),
    ("  patch_size: int\n", "domain.patch_size", "not an argument; the arguments are images, patch_height"),
    ("  images: {type: tensor, rank: -1}\n", "domain.images.rank", "expected a rank"),
    ("  images: {rank: 4}\n", "domain.images.type", "missing, expected a type expression"),
    ("  images: [tensor]\n", "domain.images", "expected a type expression"),
])
def test_a_bad_domain_is_one_line_naming_file_and_field(tmp_path: Path, entry: str, field: str, said: str) -> None:
    root = copy_problems(tmp_path, "patchify")
    public = root / "problems" / "patchify.yaml"
    text = public.read_text()
    start = text.index("domain:\n") + len("domain:\n")
    public.write_text(text[:start] + entry + text[start:].replace("  images: tensor[float32, float64]\n", "", 1)
                      .replace("  patch_height: int\n", "", 1 if "patch_height" in entry else 0))
    with pytest.raises(ConfigError) as exc:
        load_problem(root, "patchify")
    message = str(exc.value)
    assert "\n" not in message, message
    match = ERROR_LINE.match(message)
    assert match and match["file"].endswith("problems/patchify.yaml"), message
    assert match["field"] == field and said in match["message"], message
