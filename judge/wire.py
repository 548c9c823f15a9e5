"""The plain, size-capped format in which values cross the sandbox boundary.

A submission's results come back as a JSON header plus raw array bytes: numbers,
strings, lists, dicts and arrays of a fixed set of dtypes, nothing else. No
pickle, no `torch.load`, no object the submission constructed is ever
revived in the judge: decoding builds fresh numpy arrays from bytes, so tensor
subclasses, lying `__eq__` methods and `__array__` tricks cannot survive the
trip. The same encoding carries inputs to the child and expected values
through the on-disk cache, so both sides of every comparison have one shape.
"""
from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

from judge.wording import type_name

# dtypes that may cross; bfloat16 travels as float32 bytes with its name kept.
_NUMPY_DTYPES = {"bool", "uint8", "int8", "int16", "int32", "int64", "float16",
                 "float32", "float64", "complex64", "complex128"}
_TORCH_ONLY = {"bfloat16": "float32"}
MAX_DEPTH = 32
MAX_ITEMS = 100_000


class WireError(ValueError):
    """A payload that is not in the plain format, or is too large."""


class _Refused(Exception):
    """A value whose type may not cross (raised inside encode, explained to the user)."""


@dataclass(frozen=True, eq=False)
class Array:
    """An array that crossed the boundary: numpy data plus what it was.

    `library` is "torch" or "numpy"; `dtype` is the library's dtype name
    (e.g. "float32", "bfloat16", "int64"); `requires_grad` and `has_grad_fn`
    record autograd state of a returned tensor; `scalar` marks a numpy scalar
    such as `np.float64(0.5)` (a 0-d value, not an ndarray).
    """

    data: np.ndarray
    library: str
    dtype: str
    requires_grad: bool = False
    has_grad_fn: bool = False
    scalar: bool = False

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.data.shape)

    def describe(self) -> str:
        if self.scalar:
            return f"numpy.{self.dtype} scalar"
        kind = "torch.Tensor" if self.library == "torch" else "numpy.ndarray"
        return f"{kind} of shape {self.shape} and dtype {self.dtype}"


def kind_of(value: Any) -> str:
    """A user-facing name for the type of a decoded value."""
    if isinstance(value, Array):
        if value.scalar:
            return f"numpy.{value.dtype}"
        return "torch.Tensor" if value.library == "torch" else "numpy.ndarray"
    return {type(None): "None", bool: "bool", int: "int", float: "float", str: "str",
            list: "list", tuple: "tuple", dict: "dict", complex: "complex"}.get(type(value), type(value).__name__)


# ---------------------------------------------------------------- encoding

def encode(value: Any, max_bytes: int) -> bytes:
    """Serialise `value` (nested dict/list/tuple/scalars/arrays/tensors) to bytes.

    Raises WireError naming the offending path when a value may not cross or
    the payload would exceed `max_bytes`.
    """
    blobs: list[bytes] = []
    budget = [max_bytes]
    try:
        tree = _encode(value, blobs, budget, "result", 0)
    except _Refused as exc:
        raise WireError(str(exc)) from None
    header = json.dumps(tree, allow_nan=True, separators=(",", ":")).encode()
    return struct.pack("<I", len(header)) + header + b"".join(blobs)


def _take(budget: list[int], n: int, path: str) -> None:
    budget[0] -= n
    if budget[0] < 0:
        raise _Refused(f"{path}: the value is too large to return (over the output size limit)")


def _encode(value: Any, blobs: list[bytes], budget: list[int], path: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise _Refused(f"{path}: nested more than {MAX_DEPTH} levels deep")
    # Exact type checks: a subclass of int/str/dict may carry overridden methods.
    t = type(value)
    if value is None or t is bool:
        return value
    if t is int:
        if abs(value) > 2**63:
            return {"t": "bigint", "v": str(value)[:4000]}
        return value
    if t is float:
        if math.isfinite(value):
            return value
        return {"t": "float", "v": repr(value)}
    if t is str:
        _take(budget, len(value), path)
        return {"t": "str", "v": value}
    if t in (list, tuple):
        if len(value) > MAX_ITEMS:
            raise _Refused(f"{path}: a {t.__name__} of {len(value)} items is too long to return")
        _take(budget, 8 * len(value), path)
        return {"t": t.__name__, "v": [_encode(v, blobs, budget, f"{path}[{i}]", depth + 1)
                                     for i, v in enumerate(value)]}
    if t is dict:
        if len(value) > MAX_ITEMS:
            raise _Refused(f"{path}: a dict of {len(value)} keys is too long to return")
        items = []
        for k, v in value.items():
            if type(k) is not str:
                raise _Refused(f"{path}: dict keys must be strings, got {type(k).__name__} {k!r:.40}")
            items.append([k, _encode(v, blobs, budget, f"{path}[{k!r}]", depth + 1)])
        return {"t": "dict", "v": items}
    if isinstance(value, np.generic) and type(value).__module__ == "numpy":
        return _encode_array(np.asarray(value), "numpy", blobs, budget, path, scalar=True)
    if t is np.ndarray:
        return _encode_array(value, "numpy", blobs, budget, path)
    if _is_plain_tensor(value):
        return _encode_tensor(value, blobs, budget, path)
    if t is Array:  # an already decoded value travelling on (inputs, cached expectations)
        node = _encode_array(value.data, value.library, blobs, budget, path, scalar=value.scalar)
        node.update({"dtype": value.dtype, "grad": value.requires_grad, "fn": value.has_grad_fn})
        return node
    raise _Refused(f"{path}: cannot return a value of type {type_name(t)}")


def _is_plain_tensor(value: Any) -> bool:
    torch = _torch_if_loaded()
    if torch is None:
        return False
    # torch.nn.Parameter is the one subclass allowed: it is what learnable inputs are.
    return type(value) in (torch.Tensor, torch.nn.Parameter)


def _torch_if_loaded() -> Any:
    import sys

    return sys.modules.get("torch")


def _encode_tensor(tensor: Any, blobs: list[bytes], budget: list[int], path: str) -> Any:
    torch = _torch_if_loaded()
    meta = {"grad": bool(tensor.requires_grad), "fn": tensor.grad_fn is not None}
    if tensor.layout != torch.strided:
        raise _Refused(f"{path}: sparse or other non-strided tensors cannot be returned; use .to_dense()")
    if tensor.is_complex() or tensor.dtype.is_floating_point or tensor.dtype in (
            torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
        pass
    else:
        raise _Refused(f"{path}: tensors of dtype {tensor.dtype} cannot be returned")
    name = str(tensor.dtype).replace("torch.", "")
    plain = tensor.detach()
    if plain.device.type != "cpu":
        plain = plain.cpu()
    if name in _TORCH_ONLY:
        array = plain.to(torch.float32).numpy()
    elif name in _NUMPY_DTYPES:
        array = plain.numpy()
    else:
        raise _Refused(f"{path}: tensors of dtype {name} cannot be returned")
    node = _encode_array(array, "torch", blobs, budget, path)
    node["dtype"] = name  # bfloat16 keeps its name while its bytes are float32
    node.update(meta)
    return node


def _encode_array(array: np.ndarray, library: str, blobs: list[bytes], budget: list[int],
                  path: str, scalar: bool = False) -> Any:
    name = array.dtype.name
    if name not in _NUMPY_DTYPES:
        raise _Refused(f"{path}: arrays of dtype {array.dtype} cannot be returned")
    _take(budget, array.nbytes, path)
    data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    blobs.append(data)
    node = {"t": "array", "lib": library, "dtype": name, "shape": list(array.shape), "n": len(data)}
    if scalar:
        node["scalar"] = True
    return node


# ---------------------------------------------------------------- decoding

def decode(payload: bytes, max_bytes: int) -> Any:
    """Rebuild a value from `encode`'s bytes; anything malformed raises WireError."""
    if len(payload) > max_bytes:
        raise WireError(f"payload of {len(payload)} bytes is over the limit of {max_bytes}")
    if len(payload) < 4:
        raise WireError("truncated payload")
    (n,) = struct.unpack_from("<I", payload)
    if n > len(payload) - 4:
        raise WireError("truncated header")
    try:
        tree = json.loads(payload[4:4 + n])
    except (ValueError, RecursionError) as exc:
        raise WireError(f"malformed header: {exc}") from None
    view = memoryview(payload)[4 + n:]
    offset = [0]
    value = _decode(tree, view, offset, 0)
    if offset[0] != len(view):
        raise WireError("trailing bytes after the last array")
    return value


def _decode(node: Any, view: memoryview, offset: list[int], depth: int) -> Any:
    if depth > MAX_DEPTH + 2:
        raise WireError("nested too deeply")
    if node is None or type(node) in (bool, int, float):
        return node
    if type(node) is not dict or "t" not in node:
        raise WireError(f"unexpected node {str(node)[:40]}")
    t = node["t"]
    if t == "str":
        return _typed(node.get("v"), str)
    if t == "float":
        return float(_typed(node.get("v"), str))
    if t == "bigint":
        return int(_typed(node.get("v"), str))
    if t in ("list", "tuple"):
        items = [_decode(v, view, offset, depth + 1) for v in _typed(node.get("v"), list)]
        return items if t == "list" else tuple(items)
    if t == "dict":
        out = {}
        for pair in _typed(node.get("v"), list):
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
                raise WireError("malformed dict entry")
            out[pair[0]] = _decode(pair[1], view, offset, depth + 1)
        return out
    if t == "array":
        return _decode_array(node, view, offset)
    raise WireError(f"unknown node type {str(t)[:20]!r}")


def _typed(value: Any, kind: type) -> Any:
    if type(value) is not kind:
        raise WireError(f"expected {kind.__name__} in payload")
    return value


def _decode_array(node: dict, view: memoryview, offset: list[int]) -> Array:
    storage = node.get("dtype")
    library = node.get("lib")
    if library not in ("torch", "numpy"):
        raise WireError("unknown array library")
    if storage in _TORCH_ONLY and library == "torch":
        np_dtype = np.dtype(_TORCH_ONLY[storage])
    elif storage in _NUMPY_DTYPES:
        np_dtype = np.dtype(storage)
    else:
        raise WireError(f"dtype {str(storage)[:20]!r} is not allowed")
    shape = node.get("shape")
    if type(shape) is not list or not all(type(d) is int and d >= 0 for d in shape) or len(shape) > 32:
        raise WireError("malformed shape")
    n = node.get("n")
    count = math.prod(shape)
    if type(n) is not int or n != count * np_dtype.itemsize:
        raise WireError("array size does not match its shape")
    start = offset[0]
    if start + n > len(view):
        raise WireError("truncated array data")
    offset[0] += n
    data = np.frombuffer(view[start:start + n], dtype=np_dtype.newbyteorder("<")).astype(np_dtype).reshape(shape)
    return Array(data=data, library=library, dtype=storage,
                 requires_grad=node.get("grad") is True, has_grad_fn=node.get("fn") is True,
                 scalar=node.get("scalar") is True)


# ---------------------------------------------------------------- back to live values

def revive(value: Any) -> Any:
    """Turn decoded values back into numpy arrays / torch tensors (for calling code)."""
    if isinstance(value, Array):
        if value.scalar:
            return value.data.reshape(()).astype(value.dtype)[()]
        if value.library == "numpy":
            return value.data.copy()
        import torch

        tensor = torch.from_numpy(value.data.copy())
        if value.dtype in _TORCH_ONLY:
            tensor = tensor.to(getattr(torch, value.dtype))
        return tensor
    if isinstance(value, dict):
        return {k: revive(v) for k, v in value.items()}
    if isinstance(value, list):
        return [revive(v) for v in value]
    if isinstance(value, tuple):
        return tuple(revive(v) for v in value)
    return value


def roundtrip(value: Any, max_bytes: int = 1 << 30) -> Any:
    """What `value` looks like after crossing the boundary (used for trusted values too)."""
    return decode(encode(value, max_bytes), max_bytes + 1024)
