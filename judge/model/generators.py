"""Input generators: small declarative specs that draw a test input from a seed.

In YAML an argument is either a plain value (`patch_height: 16`, passed as is)
or a mapping with exactly one generator key and optional common options:

    images: {normal: [2, 3, 32, 48], dtype: float64}
    tokens: {arange: [1, 4, 6], library: torch}
    temperature: 0.07
    embeddings: {literal: [[1, 0], [1, 0], [0, 1], [0, 1]]}
    tokens: {output_of: {problem: patchify, output: tokens,
                         inputs: {images: {normal: [2, 3, 8, 8]}, patch_height: 4, patch_width: 4}}}
    params: {mapping: {weight: {normal: [4, 3]}, bias: {full: {shape: [4], value: 0}}}, dtype: float64}

Each spec parses into a small object with `draw(rng, args)` and a `repr` that
reads like its YAML (in the spirit of Hypothesis' strategies). Hidden inputs
are never stored: they are drawn from seeds, so the same case always yields
the same bytes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from judge.base.encoding import Array
from judge.base.yamlfile import Fields, Mapping, plain, type_name

DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32",
          "int64", "uint8", "bool")
LIBRARIES = ("torch", "numpy")
COMMON_OPTIONS = ("dtype", "library", "seed", "scale")


@dataclass(frozen=True)
class Spec:
    """A generator plus the options every generator shares."""

    kind: str
    params: dict
    dtype: str | None = None
    library: str | None = None
    seed: int | None = None
    scale: float | None = None

    def __repr__(self) -> str:
        parts = [f"{self.kind}: {_yamlish(self.params.get('_short', self.params))}"]
        for name in ("dtype", "library", "seed", "scale"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}: {value}")
        return "{" + ", ".join(parts) + "}"

    def nbytes(self, inputs: dict[str, Any] | None = None, _depth: int = 0) -> int | None:
        """How many bytes the drawn value holds, known before drawing it (None: it cannot be told).

        `inputs` are the test's other inputs, for a generator that copies one (`like`)."""
        itemsize = self._itemsize()
        params = self.params
        if self.kind in ("normal", "uniform", "randint", "arange", "full"):
            return math.prod(params["shape"]) * itemsize
        if self.kind == "literal":
            return int(np.asarray(params["value"]).size) * itemsize
        if self.kind == "repeat":
            return math.prod(params["row"]) * max(params["times"], 0) * itemsize
        if self.kind == "repeat_rows":
            return math.prod(params["shape"]) * max(params["times"], 0) * itemsize
        if self.kind == "like":
            base = (inputs or {}).get(params["of"])
            if isinstance(base, Spec) and _depth < 8:
                size = base.nbytes(inputs, _depth + 1)
                return None if size is None else size // (base._itemsize() or 1) * itemsize
            return None
        if self.kind == "output_of":   # another reference's output: about the size of what it is given
            inner = [v.nbytes(params["inputs"], _depth + 1) for v in params["inputs"].values() if isinstance(v, Spec)]
            return sum(n for n in inner if n is not None)
        return None

    def _itemsize(self) -> int:
        if self.dtype in ("float16", "bfloat16"):
            return 2
        return np.dtype(self.dtype).itemsize if self.dtype else 8 if self.kind == "randint" else 4

    def draw(self, rng: np.random.Generator, drawn: dict[str, Any], default_library: str,
             context: Any = None) -> Any:
        """The input as a numpy array or torch tensor; `drawn` holds earlier arguments.

        `context` is a `judge.model.compose.References` for generators that run another
        problem's reference (`output_of`); the others ignore it.
        """
        generator = _GENERATORS[self.kind]
        if generator.composes:
            if context is None:
                raise ValueError(f"{self.kind} needs the problem set (it runs another problem's reference)")
            array = generator.draw(self.params, rng, drawn, context)
        else:
            array = generator.draw(self.params, rng, drawn)
        if self.scale is not None:
            array = array * self.scale
        # A composed value keeps the dtype the other reference returned.
        dtype = self.dtype or (array.dtype.name if generator.composes and array.dtype.name in DTYPES
                               else _default_dtype(array))
        library = self.library or default_library
        return to_library(array, dtype, library)

    def draw_plain(self, rng: np.random.Generator, drawn: dict[str, Any], default_library: str,
                   context: Any = None) -> Any:
        """The input as it crosses the boundary (a `wire.Array` or ndarray), drawn like `draw`.

        Torch inputs are built from the same numpy bytes torch would hold, so
        drawing needs no torch import (`judge show`, cached runs); only
        bfloat16, whose rounding is torch's, goes through torch.
        """
        library = self.library or default_library
        if library != "torch" or self.dtype == "bfloat16" or _GENERATORS[self.kind].composes:
            return self.draw(rng, drawn, default_library, context)
        array = _GENERATORS[self.kind].draw(self.params, rng, drawn)
        if self.scale is not None:
            array = array * self.scale
        dtype = self.dtype or _default_dtype(array)
        return Array(data=_contiguous(np.asarray(array).astype(dtype)), library="torch", dtype=dtype)


@dataclass(frozen=True, repr=False)
class MappingSpec(Spec):
    """A dict argument (a model's parameters): each entry a generator or a plain value.

    `dtype`, `library` and `scale` given on the mapping apply to every generated
    entry that does not set its own; entries draw from the mapping's stream in
    order, unless an entry fixes its own `seed`.
    """

    def _entry(self, spec: Spec) -> Spec:
        return replace(spec, dtype=spec.dtype or self.dtype, library=spec.library or self.library,
                       scale=spec.scale if spec.scale is not None else self.scale)

    def _draw_all(self, rng: np.random.Generator, how: Callable[..., Any]) -> dict[str, Any]:
        out = {}
        for name, spec in self.params["entries"].items():
            if isinstance(spec, Spec):
                stream = rng if spec.seed is None else np.random.default_rng(spec.seed)
                out[name] = how(self._entry(spec), stream)
            else:
                out[name] = spec
        return out

    def draw(self, rng: np.random.Generator, drawn: dict[str, Any], default_library: str,
             context: Any = None) -> dict[str, Any]:
        return self._draw_all(rng, lambda spec, stream: spec.draw(stream, drawn, default_library, context))

    def draw_plain(self, rng: np.random.Generator, drawn: dict[str, Any], default_library: str,
                   context: Any = None) -> dict[str, Any]:
        return self._draw_all(rng, lambda spec, stream: spec.draw_plain(stream, drawn, default_library, context))

    def nbytes(self, inputs: dict[str, Any] | None = None, _depth: int = 0) -> int | None:
        sizes = [self._entry(spec).nbytes(inputs, _depth + 1) for spec in self.params["entries"].values()
                 if isinstance(spec, Spec)]
        return sum(n for n in sizes if n is not None)


def _default_dtype(array: np.ndarray) -> str:
    if array.dtype == np.bool_:
        return "bool"
    if np.issubdtype(array.dtype, np.integer):
        return "int64"
    return "float32"


def _contiguous(array: np.ndarray) -> np.ndarray:
    """A C-contiguous copy that keeps 0-dim values 0-dim (np.ascontiguousarray makes them 1-D)."""
    return np.array(array, order="C", copy=True)


def to_library(array: np.ndarray, dtype: str, library: str) -> Any:
    """Convert a numpy array to the target library and dtype (bfloat16 via torch)."""
    if library == "numpy":
        if dtype == "bfloat16":
            raise ValueError("bfloat16 exists only in torch")
        return _contiguous(np.asarray(array).astype(dtype))
    import torch

    if dtype == "bfloat16":
        return torch.from_numpy(_contiguous(np.asarray(array, dtype=np.float32))).to(torch.bfloat16)
    return torch.from_numpy(_contiguous(np.asarray(array).astype(dtype)))


@dataclass(frozen=True)
class _Generator:
    """How one generator key reads its parameters and draws values."""

    name: str
    doc: str
    parse: Callable[[Any, Fields, str], dict | None]
    draw: Callable[..., np.ndarray]
    composes: bool = False   # draw(params, rng, drawn, context): runs another problem's reference


def _shape_of(value: Any) -> str | None:
    if not isinstance(value, list) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in value):
        return f"expected a shape (a list of non-negative integers), got {type_name(value)} {value!r}"
    return None


def _parse_shaped(extra: dict[str, type]) -> Callable[[Any, Fields, str], dict | None]:
    """Parameters given as a bare shape `[2, 3]` or as `{shape: [2, 3], ...extra}`."""

    def parse(value: Any, owner: Fields, key: str) -> dict | None:
        if isinstance(value, list):
            problem = _shape_of(value)
            if problem:
                owner.error(key, problem)
                return None
            return {"shape": list(value), "_short": list(value)}
        sub = Fields(value, owner.field(key), owner.errors, owner.line(key))
        shape = sub.get("shape", list, check=_shape_of, what="a shape (a list of non-negative integers)")
        params = {"shape": shape}
        for name, kind in extra.items():
            got = sub.get(name, kind, default=None)
            if got is not None:
                params[name] = got
        sub.unknown({"shape", *extra})
        return params if shape is not None else None

    return parse


def _parse_literal(value: Any, owner: Fields, key: str) -> dict | None:
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        array = None
    if array is None or array.dtype == object or not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
        owner.error(key, "expected a number or a rectangular nested list of numbers")
        return None
    return {"value": value}


def _parse_derived(value: Any, owner: Fields, key: str) -> dict | None:
    sub = Fields(value, owner.field(key), owner.errors, owner.line(key))
    params = {"of": sub.get("of", str, what="the name of an earlier argument"),
              "noise": sub.get("noise", float, default=0.0),
              "scale": sub.get("scale", float, default=1.0)}
    sub.unknown({"of", "noise", "scale"})
    return params if params["of"] else None


def _parse_repeat(value: Any, owner: Fields, key: str) -> dict | None:
    sub = Fields(value, owner.field(key), owner.errors, owner.line(key))
    params = {"row": sub.get("row", list, check=_shape_of, what="the shape of one row, e.g. [8]"),
              "times": sub.get("times", int),
              "noise": sub.get("noise", float, default=0.0)}
    sub.unknown({"row", "times", "noise"})
    return params if params["row"] is not None and params["times"] is not None else None


def _parse_output_of(value: Any, owner: Fields, key: str) -> dict | None:
    sub = Fields(value, owner.field(key), owner.errors, owner.line(key))
    problem = sub.get("problem", str, what="the id of the problem whose reference makes this input")
    inner = sub.sub("inputs", required=True)
    inputs = {str(name): parse_input(inner.raw(name), inner, str(name)) for name in inner.data}
    output = sub.get("output", str, default=None, what="a key of the dict the other reference returns")
    sub.unknown({"problem", "inputs", "output"})
    return {"problem": problem, "inputs": inputs, "output": output} if problem else None


def _parse_mapping(value: Any, owner: Fields, key: str) -> dict | None:
    if not isinstance(value, Mapping):  # empty is a dict argument too (a call with no inputs of its own)
        owner.error(key, f"expected a mapping of key -> input (a generator or a plain value), got {type_name(value)}")
        return None
    sub = Fields(value, owner.field(key), owner.errors, owner.line(key))
    entries = {str(name): parse_input(sub.raw(name), sub, str(name)) for name in sub.data}
    return {"entries": entries, "_short": entries}


def _unreachable(*_: Any) -> np.ndarray:
    raise AssertionError("mapping inputs are drawn by MappingSpec")


def _draw_output_of(p: dict, rng: np.random.Generator, drawn: dict, context: Any) -> np.ndarray:
    from judge.model.compose import to_numpy

    return to_numpy(context.output(p["problem"], p["inputs"], rng), p["output"])


def _parse_repeat_rows(value: Any, owner: Fields, key: str) -> dict | None:
    sub = Fields(value, owner.field(key), owner.errors, owner.line(key))
    params = {"shape": sub.get("shape", list, check=_shape_of, what="the shape of the distinct rows, e.g. [4, 8]"),
              "times": sub.get("times", int, check=lambda v: None if v >= 1 else f"expected an integer >= 1, got {v}"),
              "order": sub.get("order", str, default="each", check=lambda v: None if v in ("each", "whole")
                               else f"expected each (a, a, b, b) or whole (a, b, a, b), got {v!r}"),
              "noise": sub.get("noise", float, default=0.0)}
    sub.unknown({"shape", "times", "order", "noise"})
    return params if params["shape"] and params["times"] is not None else None


def _draw_repeat_rows(p: dict, rng: np.random.Generator, drawn: dict) -> np.ndarray:
    rows = rng.standard_normal(p["shape"])
    out = np.repeat(rows, p["times"], axis=0) if p["order"] == "each" else np.concatenate([rows] * p["times"])
    return out + p["noise"] * rng.standard_normal(out.shape)


def _draw_derived(p: dict, rng: np.random.Generator, drawn: dict) -> np.ndarray:
    if p["of"] not in drawn:
        raise KeyError(p["of"])
    base = _as_numpy(drawn[p["of"]]).astype(np.float64)
    return base * p["scale"] + p["noise"] * rng.standard_normal(base.shape)


def _draw_repeat(p: dict, rng: np.random.Generator, drawn: dict) -> np.ndarray:
    row = rng.standard_normal(p["row"])
    out = np.stack([row] * p["times"])
    return out + p["noise"] * rng.standard_normal(out.shape)


def _as_numpy(value: Any) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, Array):
        return value.data
    return value.detach().to(dtype=_torch_float(value)).cpu().numpy()


def _torch_float(tensor: Any) -> Any:
    import torch

    return torch.float64 if tensor.is_floating_point() else tensor.dtype


_GENERATORS: dict[str, _Generator] = {g.name: g for g in [
    _Generator("normal", "Gaussian values: `normal: [shape]` or `{shape, mean, std}`",
               _parse_shaped({"mean": float, "std": float}),
               lambda p, rng, _: rng.normal(p.get("mean", 0.0), p.get("std", 1.0), p["shape"])),
    _Generator("uniform", "uniform values in [low, high): `{shape, low, high}`",
               _parse_shaped({"low": float, "high": float}),
               lambda p, rng, _: rng.uniform(p.get("low", 0.0), p.get("high", 1.0), p["shape"])),
    _Generator("randint", "integers in [low, high): `{shape, low, high}`",
               _parse_shaped({"low": int, "high": int}),
               lambda p, rng, _: rng.integers(p.get("low", 0), p.get("high", 10), p["shape"])),
    _Generator("arange", "0, 1, 2, ... in row-major order: each entry equals its flat index",
               _parse_shaped({"start": float, "step": float}),
               lambda p, rng, _: (p.get("start", 0.0) + p.get("step", 1.0)
                                  * np.arange(math.prod(p["shape"]))).reshape(p["shape"])),
    _Generator("full", "every entry equal to `value`: `{shape, value}`",
               _parse_shaped({"value": float}),
               lambda p, rng, _: np.full(p["shape"], p.get("value", 0.0))),
    _Generator("literal", "exactly these numbers: `literal: [[1, 0], [0, 1]]`",
               _parse_literal, lambda p, rng, _: np.asarray(p["value"])),
    _Generator("like", "an earlier argument scaled and perturbed: `{of: name, noise: 0.01, scale: 1}`",
               _parse_derived, _draw_derived),
    _Generator("repeat", "one random row repeated: `{row: [D], times: N, noise: 0}` (collapsed inputs)",
               _parse_repeat, _draw_repeat),
    _Generator("repeat_rows", "random rows, each repeated: `{shape: [n, D], times: 2, order: each, noise: 0}` "
               "gives a, a, b, b, ... (order: whole gives a, b, a, b); positive pairs, duplicates",
               _parse_repeat_rows, _draw_repeat_rows),
    _Generator("output_of", "another problem's reference output on inputs given like a test's: "
               "`{problem: patchify, inputs: {images: ..., patch_height: 4, patch_width: 4}, output: tokens}`",
               _parse_output_of, _draw_output_of, composes=True),
    _Generator("mapping", "a dict of named inputs, e.g. a model's parameters: "
               "`{mapping: {weight: {normal: [4, 3]}, bias: {full: {shape: [4], value: 0}}}, dtype: float64}`",
               _parse_mapping, _unreachable),
]}


def generator_names() -> list[str]:
    return sorted(_GENERATORS)


def parse_input(value: Any, owner: Fields, key: str) -> Spec | Any:
    """A generator `Spec` when `value` is a generator mapping, else the plain value."""
    if not isinstance(value, Mapping):
        return plain(value)  # nested lists too: a literal tensor is lists of lists
    kinds = [k for k in value if k in _GENERATORS]
    if len(kinds) != 1:
        found = f"found {kinds}" if kinds else f"found keys {sorted(map(str, value))}"
        owner.error(key, f"expected exactly one generator ({', '.join(generator_names())}), {found}")
        return None
    kind = kinds[0]
    sub = Fields(value, owner.field(key), owner.errors, owner.line(key))
    params = _GENERATORS[kind].parse(sub.raw(kind), sub, kind)
    dtype = sub.get("dtype", str, default=None,
                    check=lambda v: None if v in DTYPES else f"unknown dtype {v!r}; expected one of {', '.join(DTYPES)}")
    library = sub.get("library", str, default=None,
                      check=lambda v: None if v in LIBRARIES else f"expected torch or numpy, got {v!r}")
    seed = sub.get("seed", int, default=None)
    scale = sub.get("scale", float, default=None)
    sub.unknown({kind, *COMMON_OPTIONS})
    if params is None:
        return None
    made = MappingSpec if kind == "mapping" else Spec
    return made(kind, params, dtype=dtype, library=library, seed=seed, scale=scale)


def _yamlish(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yamlish(v)}" for k, v in value.items() if k != "_short") + "}"
    return repr(value) if isinstance(value, str) else str(value)
