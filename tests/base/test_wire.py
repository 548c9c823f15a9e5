"""The wire format: plain values round-trip exactly; anything else is refused by
name; malformed payloads are rejected without ever unpickling anything."""
from __future__ import annotations

import json
import math
import pickle
import struct

import numpy as np
import pytest
import torch

from judge.base import encoding as wire
from judge.base.encoding import Array, WireError

LIMIT = 1 << 20


def roundtrip(value):
    return wire.decode(wire.encode(value, LIMIT), LIMIT)


def payload(header: dict | list, data: bytes = b"") -> bytes:
    head = json.dumps(header).encode()
    return struct.pack("<I", len(head)) + head + data


# ---------------------------------------------------------------- round trips

def test_nested_plain_values_round_trip() -> None:
    value = {"a": [1, 2.5, None, True, "text"], "b": (3, ("x", [])), "c": {}, "big": 2**70, "neg": -(2**70)}
    assert roundtrip(value) == value
    assert type(roundtrip(value)["b"]) is tuple


def test_non_finite_floats_round_trip() -> None:
    out = roundtrip([math.inf, -math.inf, math.nan])
    assert out[0] == math.inf and out[1] == -math.inf and math.isnan(out[2])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int64, torch.int32,
                                   torch.uint8, torch.bool])
def test_tensors_round_trip(dtype: torch.dtype) -> None:
    tensor = (torch.arange(12).reshape(3, 4) % 3).to(dtype)
    out = roundtrip({"t": tensor})["t"]
    assert isinstance(out, Array) and out.library == "torch"
    assert out.dtype == str(dtype).replace("torch.", "") and out.shape == (3, 4)
    revived = wire.revive(out)
    assert type(revived) is torch.Tensor and revived.dtype == dtype and torch.equal(revived, tensor)


def test_bfloat16_keeps_its_dtype_and_values() -> None:
    tensor = torch.tensor([1.0, -2.5, 3.140625, 1e30]).to(torch.bfloat16)
    out = roundtrip(tensor)
    assert out.dtype == "bfloat16" and out.data.dtype == np.float32
    revived = wire.revive(out)
    assert revived.dtype == torch.bfloat16 and torch.equal(revived, tensor)


def test_autograd_state_is_recorded_not_kept() -> None:
    leaf = torch.ones(2, requires_grad=True)
    out = roundtrip({"leaf": leaf, "made": leaf * 2, "plain": torch.ones(2)})
    assert (out["leaf"].requires_grad, out["leaf"].has_grad_fn) == (True, False)
    assert (out["made"].requires_grad, out["made"].has_grad_fn) == (True, True)
    assert (out["plain"].requires_grad, out["plain"].has_grad_fn) == (False, False)
    assert wire.revive(out["made"]).requires_grad is False


def test_parameter_is_allowed() -> None:
    out = roundtrip(torch.nn.Parameter(torch.zeros(3)))
    assert out.library == "torch" and out.requires_grad


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64", "uint8", "bool", "complex64"])
def test_numpy_arrays_round_trip(dtype: str) -> None:
    array = (np.arange(-6, 6) % 4).astype(dtype).reshape(2, 2, 3)
    out = roundtrip(array)
    assert out.library == "numpy" and out.dtype == dtype and not out.scalar
    revived = wire.revive(out)
    assert type(revived) is np.ndarray and revived.dtype == array.dtype and np.array_equal(revived, array)


def test_non_contiguous_and_big_endian_arrays_round_trip() -> None:
    array = np.arange(24, dtype=np.float64).reshape(4, 6)[::2, ::3]
    assert np.array_equal(roundtrip(array).data, array)
    swapped = np.arange(5, dtype=">i4")
    out = roundtrip(swapped)
    assert np.array_equal(out.data, [0, 1, 2, 3, 4])


def test_zero_dim_and_empty_values() -> None:
    assert roundtrip(torch.tensor(2.5)).shape == ()
    assert wire.revive(roundtrip(torch.tensor(2.5))).item() == 2.5
    assert roundtrip(np.zeros((0, 3))).shape == (0, 3)


@pytest.mark.parametrize("scalar", [np.float64(0.5), np.float32(1.25), np.int64(-3), np.bool_(True)])
def test_numpy_scalars_stay_scalars(scalar) -> None:
    out = roundtrip(scalar)
    assert out.scalar and out.shape == ()
    assert "scalar" in out.describe()
    revived = wire.revive(out)
    assert type(revived) is type(scalar) and revived == scalar


def test_decoded_arrays_are_fresh_and_writable() -> None:
    out = roundtrip(np.arange(4.0))
    out.data[0] = 42.0  # not a read-only view of the payload
    assert out.data[0] == 42.0


def test_kind_of_names_types_for_users() -> None:
    assert wire.kind_of(roundtrip(torch.zeros(1))) == "torch.Tensor"
    assert wire.kind_of(roundtrip(np.zeros(1))) == "numpy.ndarray"
    assert wire.kind_of(roundtrip(np.float64(1))) == "numpy.float64"
    assert wire.kind_of(1.0) == "float" and wire.kind_of(None) == "None"


# ---------------------------------------------------------------- refusals

class SneakyTensor(torch.Tensor):
    pass


class Thing:
    pass


class SneakyInt(int):
    def __eq__(self, other):
        return True


@pytest.mark.parametrize("value, phrase", [
    ({"tokens": torch.zeros(2).as_subclass(SneakyTensor)}, "result['tokens']: cannot return a value of type"),
    ([1, Thing()], "result[1]: cannot return a value of type"),
    (SneakyInt(3), "cannot return a value of type"),
    ({1: "a"}, "dict keys must be strings"),
    (np.array([object()], dtype=object), "dtype object"),
    (torch.zeros(2).to_sparse(), "sparse"),
    (lambda: 0, "cannot return a value of type"),
])
def test_refused_values_are_named(value, phrase: str) -> None:
    with pytest.raises(WireError) as exc:
        wire.encode(value, LIMIT)
    assert phrase in str(exc.value)
    assert not isinstance(exc.value, wire.TooLarge)  # a value that cannot cross is not one over a limit


def test_oversize_values_are_refused() -> None:
    with pytest.raises(wire.TooLarge, match="too large"):
        wire.encode({"x": np.zeros(1000)}, 4000)
    with pytest.raises(wire.TooLarge, match="too large"):
        wire.encode("a" * 5000, 4000)
    assert wire.decode(wire.encode(np.zeros(100), 4000), 8000).shape == (100,)


def test_too_deep_nesting_is_refused() -> None:
    value: list = []
    for _ in range(wire.MAX_DEPTH + 5):
        value = [value]
    with pytest.raises(WireError, match="nested"):
        wire.encode(value, LIMIT)


# ---------------------------------------------------------------- decoding rejects bad payloads

@pytest.fixture
def no_unpickling(monkeypatch):
    """Fail the test if decoding ever reaches an unpickler or torch.load."""
    def forbidden(*args, **kwargs):
        raise AssertionError("decode must never unpickle")

    monkeypatch.setattr(pickle, "loads", forbidden)
    monkeypatch.setattr(pickle, "load", forbidden)
    monkeypatch.setattr(pickle, "Unpickler", forbidden)
    monkeypatch.setattr(torch, "load", forbidden)
    monkeypatch.setattr(np, "load", forbidden)


def test_valid_payload_decodes_without_pickle(no_unpickling) -> None:
    data = wire.encode({"t": torch.arange(3.0), "n": np.int64(2)}, LIMIT)
    out = wire.decode(data, LIMIT)
    assert out["t"].data.tolist() == [0.0, 1.0, 2.0]


def test_truncated_payloads_are_rejected(no_unpickling) -> None:
    data = wire.encode({"t": torch.arange(10.0)}, LIMIT)
    for cut in (0, 3, 10, len(data) - 1):
        with pytest.raises(WireError):
            wire.decode(data[:cut], LIMIT)


@pytest.mark.parametrize("data", [
    pickle.dumps({"a": 1}),
    pickle.dumps(torch.zeros(2)),
    b"\x00\x00\x00\x00",
    b"\xff\xff\xff\xff garbage",
    struct.pack("<I", 5) + b"{not json",
    bytes(range(256)),
])
def test_garbage_is_rejected(no_unpickling, data: bytes) -> None:
    with pytest.raises(WireError):
        wire.decode(data, LIMIT)


def test_oversized_payload_is_rejected_before_parsing(no_unpickling) -> None:
    data = wire.encode(np.zeros(1000), LIMIT)
    with pytest.raises(WireError, match="over the limit"):
        wire.decode(data, len(data) - 1)


@pytest.mark.parametrize("node, data, phrase", [
    ({"t": "array", "lib": "numpy", "dtype": "float64", "shape": [3], "n": 16}, b"\0" * 16, "does not match"),
    ({"t": "array", "lib": "numpy", "dtype": "float64", "shape": [3], "n": 24}, b"\0" * 16, "truncated"),
    ({"t": "array", "lib": "numpy", "dtype": "float64", "shape": [2], "n": 16}, b"\0" * 24, "trailing"),
    ({"t": "array", "lib": "numpy", "dtype": "object", "shape": [1], "n": 8}, b"\0" * 8, "not allowed"),
    ({"t": "array", "lib": "numpy", "dtype": "float64", "shape": [-1], "n": 8}, b"\0" * 8, "shape"),
    ({"t": "array", "lib": "pickle", "dtype": "float64", "shape": [1], "n": 8}, b"\0" * 8, "library"),
    ({"t": "array", "lib": "numpy", "dtype": "bfloat16", "shape": [1], "n": 4}, b"\0" * 4, "not allowed"),
    ({"t": "object", "v": "os.system"}, b"", "unknown node type"),
    ({"t": "dict", "v": [[1, 2]]}, b"", "malformed dict"),
    ({"t": "str", "v": 5}, b"", "expected str"),
    ({"no_type": 1}, b"", "unexpected node"),
])
def test_malformed_nodes_are_rejected(no_unpickling, node: dict, data: bytes, phrase: str) -> None:
    with pytest.raises(WireError) as exc:
        wire.decode(payload(node, data), LIMIT)
    assert phrase in str(exc.value)


def test_header_length_beyond_payload_is_rejected(no_unpickling) -> None:
    with pytest.raises(WireError, match="truncated"):
        wire.decode(struct.pack("<I", 1000) + b"{}", LIMIT)


def test_nodes_are_counted_alike_when_encoding_decoding_and_estimating():
    value = {"a": [1, 2.5, "x"], "b": {"c": np.zeros(3)}, "d": (None, True)}
    payload = wire.encode(value, 1 << 20, wire.MAX_NODES)
    assert wire.decode_counted(payload, 1 << 21, wire.MAX_NODES)[1] == wire.count_nodes(value) == 14
    with pytest.raises(wire.TooManyNodes):
        wire.decode(payload, 1 << 21, max_nodes=13)


def test_a_child_result_over_the_item_limit_is_refused_as_too_large():
    """Many tiny arrays cost the judge memory per item, not per byte (issue 10, class 5)."""
    tiny = np.zeros(1, dtype=np.uint8)
    with pytest.raises(wire.TooLarge, match="too large to return"):
        wire.encode([tiny] * (wire.MAX_NODES + 1), 1 << 30, wire.MAX_NODES)
    wire.encode([tiny] * (wire.MAX_NODES + 1), 1 << 30)  # the judge's own values have no item limit


def test_a_list_from_kept_encodings_is_the_bytes_encode_gives() -> None:
    # The runner sends a prepared problem's inputs from encodings kept per call (issue 26).
    import gc

    from judge.runs.calls import Call

    calls = [Call(args=(Array(np.arange(6, dtype=np.float32).reshape(2, 3), "torch", "float32"), 2.5, "text"),
                  grad_wrt=(0,)),
             Call(args=({"w": Array(np.ones(3), "numpy", "float64")}, [1, (2, None)], float("nan"))),
             Call(args=(Array(np.arange(4, dtype=np.int64), "numpy", "int64"),), experiment={"name": "x"})]
    cache = wire.EncodedCache(Call.to_plain, 1 << 30)
    for chosen in (calls, calls[1:], calls[::-1], calls):
        assert cache.encode_list(chosen) == wire.encode([c.to_plain() for c in chosen], 1 << 30)
    gone = Call(args=(1.0,))
    cache.encode_list([gone])
    kept = len(cache._kept)
    del gone
    gc.collect()
    assert len(cache._kept) == kept - 1  # an encoding lives as long as its object


RACE = r'''
import sys, threading
from judge.base import encoding as wire
assert "torch" not in sys.modules
errors, apis = [], []

def look() -> None:
    while "torch" not in sys.modules:  # start the moment another thread's import has begun
        pass
    try:
        apis.append(wire.torch_api())
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")

lookers = [threading.Thread(target=look) for _ in range(4)]
for t in lookers:
    t.start()
importer = threading.Thread(target=lambda: __import__("torch"))
importer.start()
for t in [importer, *lookers]:
    t.join(120)
print(errors or "ok", len(apis))
'''


def test_torch_api_waits_for_an_import_under_way_in_another_thread() -> None:
    # `judge serve` judges in worker threads while another thread may be importing torch (a
    # reference loading): a half-imported torch must not be read ("has no attribute 'nn'").
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["ok", "4"], result.stdout
