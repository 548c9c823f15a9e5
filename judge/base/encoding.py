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

import functools
import json
import math
import struct
import sys
import threading
import weakref
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable, Sequence

import numpy as np

from judge.base.wording import type_name

# dtypes that may cross; bfloat16 travels as float32 bytes with its name kept.
_NUMPY_DTYPES = {"bool", "uint8", "int8", "int16", "int32", "int64", "float16",
                 "float32", "float64", "complex64", "complex128"}
_TORCH_ONLY = {"bfloat16": "float32"}
MAX_DEPTH = 32
MAX_ITEMS = 100_000
# Decoding costs memory per node (a Python object, an ndarray header), not per payload byte:
# a few MB of one-byte arrays or dict keys once took the judge from 244 MiB to 800+ MiB.
# Every node is charged NODE_COST bytes (dict keys their length too) against the byte budget,
# a value has at most MAX_NODES nodes, and its header at most MAX_HEADER bytes.
MAX_NODES = 20_000
NODE_COST = 64
MAX_HEADER = 4 << 20


class WireError(ValueError):
    """A payload that is not in the plain format, or is too large."""


class TooManyNodes(WireError):
    """A value with more nodes than its allowance: it cannot match the expected one."""


class TooLarge(WireError):
    """A value over the size limits (bytes, items or header): what the child's refusal calls too large."""


class _Refused(Exception):
    """A value whose type may not cross (raised inside encode, explained to the user)."""


class _RefusedTooLarge(_Refused):
    """A value over a size limit (raised inside encode; encode raises TooLarge for it)."""


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

def encode(value: Any, max_bytes: int, max_nodes: int | None = None) -> bytes:
    """Serialise `value` (nested dict/list/tuple/scalars/arrays/tensors) to bytes.

    Raises WireError naming the offending path when a value may not cross or
    the payload would exceed `max_bytes`, or the value has more than `max_nodes`
    nodes (None: no node limit, for the judge's own values) or a header over MAX_HEADER.
    """
    blobs: list[bytes] = []
    budget = [max_bytes, max_nodes if max_nodes is not None else 1 << 62]
    try:
        tree = _encode(value, blobs, budget, "result", 0)
    except _RefusedTooLarge as exc:
        raise TooLarge(str(exc)) from None
    except _Refused as exc:
        raise WireError(str(exc)) from None
    header = json.dumps(tree, allow_nan=True, separators=(",", ":")).encode()
    if max_nodes is not None and len(header) > MAX_HEADER:
        raise TooLarge(f"result: the value is too large to return (its structure takes over "
                       f"{MAX_HEADER >> 20} MiB; the limit is {MAX_NODES} items)")
    return struct.pack("<I", len(header)) + header + b"".join(blobs)


@dataclass(frozen=True)
class Encoded:
    """One item of a list encoded on its own: its header tree and its array bytes (`encode_list`)."""

    tree: Any
    blobs: tuple[bytes, ...]


def encode_item(value: Any, max_bytes: int, index: int = 0) -> Encoded:
    """`value` encoded as item `index` of a list is (the judge's own values: no node limit)."""
    blobs: list[bytes] = []
    try:
        tree = _encode(value, blobs, [max_bytes, 1 << 62], f"result[{index}]", 1)
    except _RefusedTooLarge as exc:
        raise TooLarge(str(exc)) from None
    except _Refused as exc:
        raise WireError(str(exc)) from None
    return Encoded(tree, tuple(blobs))


def encode_list(items: Sequence[Encoded]) -> bytes:
    """The bytes `encode` gives for the list of these items' values."""
    header = json.dumps({"t": "list", "v": [item.tree for item in items]}, allow_nan=True,
                        separators=(",", ":")).encode()
    return struct.pack("<I", len(header)) + header + b"".join(blob for item in items for blob in item.blobs)


class EncodedCache:
    """Objects' encodings, made once and kept while the objects live.

    A prepared problem sends the same inputs (1.2 MB for patchify) to every run; encoding
    them took 7 ms a submission. Keyed by identity (inputs hold arrays, which compare by
    identity too) and dropped with the object; thread-safe.
    """

    def __init__(self, plain: Callable[[Any], Any], max_bytes: int) -> None:
        self._plain, self._max_bytes = plain, max_bytes
        self._kept: dict[int, tuple[weakref.ref, Encoded]] = {}
        self._lock = threading.Lock()

    def encode_list(self, objects: Sequence[Any]) -> bytes:
        """`encode([plain(o) for o in objects], max_bytes)`, from the kept encodings."""
        return encode_list([self._item(o) for o in objects])

    def _item(self, obj: Any) -> Encoded:
        key = id(obj)
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and kept[0]() is obj:
            return kept[1]
        item = encode_item(self._plain(obj), self._max_bytes)  # outside the lock: other runs go on
        ref = weakref.ref(obj, lambda dead, key=key: self._forget(key, dead))
        with self._lock:
            self._kept[key] = (ref, item)
        return item

    def _forget(self, key: int, dead: weakref.ref) -> None:
        with self._lock:
            if key in self._kept and self._kept[key][0] is dead:
                del self._kept[key]


def _take(budget: list[int], n: int, path: str) -> None:
    budget[0] -= n
    if budget[0] < 0:
        raise _RefusedTooLarge(f"{path}: the value is too large to return (over the output size limit)")


def _node(budget: list[int], path: str, extra: int = 0) -> None:
    budget[1] -= 1
    if budget[1] < 0:
        raise _RefusedTooLarge(f"{path}: the value is too large to return (more than the limit of {MAX_NODES} "
                               "items in all: arrays, numbers, strings, list items and dict keys)")
    _take(budget, NODE_COST + extra, path)


def _encode(value: Any, blobs: list[bytes], budget: list[int], path: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise _Refused(f"{path}: nested more than {MAX_DEPTH} levels deep")
    _node(budget, path)
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
            _node(budget, path, len(k))
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
    torch = torch_api()
    if torch is None:
        return False
    # torch.nn.Parameter is the one subclass allowed: it is what learnable inputs are.
    return type(value) in (torch.Tensor, torch.Parameter)


def torch_api() -> SimpleNamespace | None:
    """The torch entry points observing a call uses, taken from torch's C types; None without torch.

    `torch.Tensor`'s Python class and the `torch.autograd` module are what honest code
    patches (and a submission may); the methods of `torch._C.TensorBase` and the autograd
    engine are what observing means to call. Found once torch is imported, then kept.
    """
    if "torch" not in sys.modules:
        return None
    return _torch_api()


@functools.cache
def _torch_api() -> SimpleNamespace:
    # Not sys.modules["torch"]: while another thread imports torch (a reference loading in
    # `judge serve`), that is a half-initialised module; the import statement waits on the
    # module's import lock until the other thread's import has finished.
    import torch

    base = torch._C.TensorBase
    # Torch's Python-level overrides, which a submission may leave installed: function modes
    # (torch.overrides.TorchFunctionMode) and subclasses' __torch_function__, off under
    # DisableTorchFunction; dispatch modes and __torch_dispatch__ subclasses, which run through the
    # Python dispatch key, off while that key is excluded.
    python_keys = torch._C.DispatchKeySet(torch._C.DispatchKey.Python) \
        | torch._C.DispatchKeySet(torch._C.DispatchKey.PythonTLSSnapshot)
    return SimpleNamespace(no_function=torch._C.DisableTorchFunction, no_dispatch=torch._C._ExcludeDispatchKeyGuard,
                           python_keys=python_keys, Tensor=torch.Tensor, Parameter=torch.nn.Parameter, base=base,
                           detach=base.detach, requires_grad_=base.requires_grad_,
                           is_floating_point=base.is_floating_point, mul=base.mul, sum=base.sum, to=base.to,
                           numpy=base.numpy, cpu=base.cpu, randn=torch.randn, Generator=torch._C.Generator,
                           ones_like=torch.ones_like, float64=torch.float64, float32=torch.float32,
                           strided=torch.strided, version=vars(base)["_version"].__get__,
                           requires_grad=vars(base)["requires_grad"].__get__,
                           grad_fn=vars(base)["grad_fn"].__get__,
                           run_backward=torch.autograd.variable.Variable._execution_engine.run_backward)


def _encode_tensor(tensor: Any, blobs: list[bytes], budget: list[int], path: str) -> Any:
    torch = torch_api()
    meta = {"grad": bool(torch.requires_grad(tensor)), "fn": torch.grad_fn(tensor) is not None}
    if tensor.layout != torch.strided:
        raise _Refused(f"{path}: sparse or other non-strided tensors cannot be returned; use .to_dense()")
    name = str(tensor.dtype).replace("torch.", "")
    if name not in _NUMPY_DTYPES and name not in _TORCH_ONLY:
        raise _Refused(f"{path}: tensors of dtype {tensor.dtype} cannot be returned")
    plain = torch.detach(tensor)
    if plain.device.type != "cpu":
        plain = torch.cpu(plain)
    if name in _TORCH_ONLY:
        array = torch.numpy(torch.to(plain, torch.float32))
    elif name in _NUMPY_DTYPES:
        array = torch.numpy(plain)
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

def count_nodes(value: Any) -> int:
    """How many nodes `encode` would write for a plain or decoded value (each dict key counts one)."""
    if type(value) is dict:
        return 1 + sum(1 + count_nodes(v) for v in value.values())
    if type(value) in (list, tuple):
        return 1 + sum(count_nodes(v) for v in value)
    return 1


def decode(payload: bytes, max_bytes: int, max_nodes: int | None = None) -> Any:
    """Rebuild a value from `encode`'s bytes; anything malformed raises WireError."""
    return decode_counted(payload, max_bytes, max_nodes)[0]


def decode_counted(payload: bytes, max_bytes: int, max_nodes: int | None = None) -> tuple[Any, int]:
    """`decode`, also returning the number of nodes decoded (what the value costs beyond its bytes).

    With `max_nodes` (a child's result), the header is refused above MAX_HEADER bytes
    before it is parsed and decoding stops after `max_nodes` nodes.
    """
    if len(payload) > max_bytes:
        raise WireError(f"payload of {len(payload)} bytes is over the limit of {max_bytes}")
    if len(payload) < 4:
        raise WireError("truncated payload")
    (n,) = struct.unpack_from("<I", payload)
    if n > len(payload) - 4:
        raise WireError("truncated header")
    if max_nodes is not None and n > MAX_HEADER:
        raise WireError(f"a header of {n} bytes is over the limit of {MAX_HEADER}")
    try:
        tree = json.loads(payload[4:4 + n])
    except (ValueError, RecursionError) as exc:
        raise WireError(f"malformed header: {exc}") from None
    view = memoryview(payload)[4 + n:]
    offset = [0]
    limit = max_nodes if max_nodes is not None else 1 << 62
    nodes = [limit]
    value = _decode(tree, view, offset, 0, nodes)
    if offset[0] != len(view):
        raise WireError("trailing bytes after the last array")
    return value, limit - nodes[0]


def _decode(node: Any, view: memoryview, offset: list[int], depth: int, nodes: list[int]) -> Any:
    if depth > MAX_DEPTH + 2:
        raise WireError("nested too deeply")
    nodes[0] -= 1
    if nodes[0] < 0:
        raise TooManyNodes("more nodes than the limit")
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
        items = [_decode(v, view, offset, depth + 1, nodes) for v in _typed(node.get("v"), list)]
        return items if t == "list" else tuple(items)
    if t == "dict":
        out = {}
        for pair in _typed(node.get("v"), list):
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
                raise WireError("malformed dict entry")
            nodes[0] -= 1
            out[pair[0]] = _decode(pair[1], view, offset, depth + 1, nodes)
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
