"""Values of Deep-ML tests: printed text read as numbers, tolerances from rounding, values as YAML inputs.

Deep-ML judges by comparing printed text. Here text is only ever read as the values it shows: the
numbers in it (with True, False, None, nan and inf), in order, each standing for any value that
rounds to it (`0.5445` for anything within half a unit of its last decimal). Two printings of one
value agree whatever their containers' spelling (`[1 2]`, `[1, 2]`, `array([1, 2])`, `tensor([1., 2.])`).

A value the setup made becomes a YAML input (`input_spec`) only when the judge can draw it back
exactly as it was: numbers, strings, None, lists of those, dicts with string keys, numpy arrays and
torch tensors of the judge's dtypes. Anything else (a tuple, a function, a tensor that requires
grad) is not data the YAML can hold; the caller keeps the code that makes it in the call instead.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from judge.model.generators import DTYPES

MAX_ELEMENTS = 200_000        # an array input larger than this is not written into YAML
DEFAULT_RTOL = 1e-5           # where the test rounds nothing: float32 arithmetic in another order
DEFAULT_ATOL = 1e-8


@dataclass(frozen=True)
class Precision:
    """The rounding a test applied to a printed value: decimal places, or significant digits."""

    decimals: int | None = None
    digits: int | None = None

    def tolerance(self) -> tuple[float, float]:
        """(rtol, atol): half a unit of the last place kept (what rounding to it may take off), and the
        default's float32 noise besides."""
        atol = DEFAULT_ATOL
        rtol = DEFAULT_RTOL
        if self.decimals is not None:
            atol = max(atol, float(f"5e-{self.decimals + 1}"))
        if self.digits is not None:
            rtol = max(rtol, float(f"5e-{self.digits}"))
        return rtol, atol


# ---------------------------------------------------------------- reading printed text

_WRAPPERS = re.compile(r"\b(?:np|numpy|torch)\.\w+\(|\b(?:array|tensor|Parameter)\(|"
                       r",?\s*(?:dtype|device|grad_fn|requires_grad)=(?:<[^>]*>|[\w.']+)")
_TOKEN = re.compile(r"(?<![\w.])(?:[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan|True|False|None)(?![\w])")


@dataclass(frozen=True)
class Token:
    """One value read from text: a number with the half-unit it was rounded to, or None."""

    value: float | None
    half_unit: float = 0.0


def tokens(text: str) -> list[Token]:
    """The values `text` shows, in order (containers' spelling and dtype notes dropped)."""
    cleaned = _WRAPPERS.sub(" ", text)
    found = []
    for match in _TOKEN.finditer(cleaned):
        word = match.group(0)
        if word == "None":
            found.append(Token(None))
        elif word in ("True", "False"):
            found.append(Token(1.0 if word == "True" else 0.0))
        else:
            found.append(Token(float(word), _half_unit(word)))
    return found


def _half_unit(word: str) -> float:
    """Half a unit of the last decimal `word` shows: what rounding to it may have taken off. A number
    with no decimals (`5`, numpy's `1.`) is taken as exact: integers print so, and so does numpy's
    every whole float."""
    mantissa, _, exponent = word.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    if mantissa.lstrip("+-") in ("inf", "nan") or places == 0:
        return 0.0
    return 0.5 * 10.0 ** (-places + (int(exponent) if exponent else 0))


def value_tokens(value: Any) -> list[Token]:
    """The values a canonical value holds, in the order printing it shows them (exact: no rounding)."""
    found: list[Token] = []

    def walk(v: Any) -> None:
        if v is None:
            found.append(Token(None))
        elif isinstance(v, (bool, int, float, np.number, np.bool_)):
            found.append(Token(float(v)))
        elif isinstance(v, complex):
            found.extend((Token(v.real), Token(v.imag)))
        elif isinstance(v, str):
            found.extend(t for t in tokens(v))
        elif isinstance(v, np.ndarray):
            flat = v.ravel()
            if np.iscomplexobj(flat):
                for x in flat:
                    found.extend((Token(float(x.real)), Token(float(x.imag))))
            else:
                found.extend(Token(float(x)) for x in flat)
        elif isinstance(v, dict):
            for k, item in v.items():
                found.extend(tokens(str(k)))
                walk(item)
        elif isinstance(v, (list, tuple)):
            for item in v:
                walk(item)
        else:
            found.extend(tokens(str(v)))

    walk(value)
    return found


def differs(shown: list[Token], other: list[Token], rtol: float = 1e-6, atol: float = 0.0) -> str | None:
    """Why two lists of values are not the same values (None when they are): each pair within both
    sides' half-units (the rounding each shows), `atol` and `rtol` of the larger."""
    if len(shown) != len(other):
        return f"{len(shown)} values against {len(other)}"
    for index, (a, b) in enumerate(zip(shown, other)):
        if (a.value is None) != (b.value is None):
            return f"value {index + 1}: {_show(a)} against {_show(b)}"
        if a.value is None or b.value is None:
            continue
        if math.isnan(a.value) or math.isnan(b.value):
            if math.isnan(a.value) and math.isnan(b.value):
                continue
            return f"value {index + 1}: {_show(a)} against {_show(b)}"
        if math.isinf(a.value) or math.isinf(b.value):
            if a.value == b.value:
                continue
            return f"value {index + 1}: {_show(a)} against {_show(b)}"
        bound = a.half_unit + b.half_unit + atol + rtol * max(abs(a.value), abs(b.value))
        if abs(a.value - b.value) > bound:
            return f"value {index + 1}: {_show(a)} against {_show(b)}"
    return None


def _show(token: Token) -> str:
    return "None" if token.value is None else f"{token.value:.10g}"


def one_line(text: str, limit: int = 160) -> str:
    """Printed text on one line, cut to `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


# ---------------------------------------------------------------- values as YAML inputs

_TORCH_DTYPES = {"torch.float16": "float16", "torch.bfloat16": "bfloat16", "torch.float32": "float32",
                 "torch.float64": "float64", "torch.int8": "int8", "torch.int16": "int16", "torch.int32": "int32",
                 "torch.int64": "int64", "torch.uint8": "uint8", "torch.bool": "bool"}


class NotData:
    """`input_spec`'s answer for a value the YAML cannot hold as it is."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"NotData({self.why!r})"


def input_spec(value: Any) -> Any:
    """The YAML input (a plain value or a generator mapping) that draws `value` back exactly, or NotData."""
    if value is None or type(value) in (bool, str):
        return value
    if type(value) is int:
        return value
    if type(value) is float:
        return value
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return value.item()
    if isinstance(value, list):
        items = [input_spec(v) for v in value]
        bad = next((i for i in items if isinstance(i, NotData)), None)
        if bad is not None:
            return bad
        if any(isinstance(i, dict) for i in items):
            return NotData("a list holding arrays or dicts")
        return items
    if isinstance(value, dict):
        if not all(type(k) is str for k in value):
            return NotData("a dict whose keys are not all strings")
        entries = {k: input_spec(v) for k, v in value.items()}
        bad = next((e for e in entries.values() if isinstance(e, NotData)), None)
        return bad if bad is not None else {"mapping": entries}
    if type(value) is np.ndarray:
        return _array_spec(value, value.dtype.name, "numpy")
    torch_dtype = _torch_dtype(value)
    if torch_dtype is not None:
        if value.requires_grad:
            return NotData("a tensor that requires grad")
        array = value.detach().cpu().float().numpy() if torch_dtype == "bfloat16" else value.detach().cpu().numpy()
        return _array_spec(array, torch_dtype, "torch")
    return NotData(f"a {type(value).__module__}.{type(value).__qualname__}"
                   if type(value).__module__ != "builtins" else f"a {type(value).__name__}")


def _torch_dtype(value: Any) -> str | None:
    module = type(value).__module__
    if not module.startswith("torch"):
        return None
    import torch

    if type(value) not in (torch.Tensor, torch.nn.Parameter):
        return None
    return _TORCH_DTYPES.get(str(value.dtype))


def _array_spec(array: np.ndarray, dtype: str, library: str) -> Any:
    if dtype not in DTYPES:
        return NotData(f"an array of dtype {dtype}")
    if array.size > MAX_ELEMENTS:
        flat = array.ravel()
        if not (flat.size and (flat == flat[0]).all()):
            return NotData(f"an array of {array.size:,} values (more than {MAX_ELEMENTS:,})")
    constant = array.size > 16 and (array == array.ravel()[0]).all() \
        and not (array.dtype.kind == "f" and np.isnan(array).any())   # a small one reads better written out
    if array.size == 0 or constant:
        value = array.ravel()[0].item() if array.size else 0
        return {"full": {"shape": list(array.shape), "value": value}, "dtype": dtype, "library": library}
    return {"literal": array.tolist(), "dtype": dtype, "library": library}
