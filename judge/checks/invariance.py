"""invariance: the output keeps a declared relation when the inputs are transformed.

    invariance: {transform: permute_rows, args: [image_embeddings, text_embeddings],
                 keys: {loss: same, similarities: {permuted: [0, 1]}}}
    invariance: {transform: swap_args, args: [image_embeddings, text_embeddings],
                 keys: {loss: same, similarities: transposed,
                        image_to_text_accuracy: {from: text_to_image_accuracy}}}
    invariance: {transform: scale_rows, args: [embeddings], low: 0.01, high: 100}
    invariance: {transform: permute_rows, args: [embeddings], block: 2}   # whole pairs move
    invariance: {transform: reverse_blocks, args: [embeddings], block: 2} # swap inside each pair
    invariance: {transform: permute_rows, args: [x], axis: 1,            # reorder the tokens of
                 keys: {output: {permuted: [1]}, weights: {permuted: [1, 2]}}}  # (B, N, D)

The judge calls the submission a second time on transformed inputs and checks
that the transformed call's output relates to the original call's output as
declared. Input transforms (applied to every argument listed in `args`):

- `permute_rows`: one seeded, non-identity permutation of the leading axis,
  shared by all listed arguments; with `block: k` whole blocks of k
  consecutive rows move together.
- `reverse_blocks`: the rows inside every block of `block` consecutive rows
  are put in reverse order (`block: 2` swaps the two rows of each pair).
- `swap_args`: the two listed arguments trade places.
- `scale_rows`: every row (slice of the leading axis) is multiplied by its own
  positive factor, drawn log-uniformly from [low, high].

`axis: k` (default 0) makes the "rows" of `permute_rows`, `reverse_blocks` and
`scale_rows` the slices along input axis k instead: `axis: 1` on (B, N, D)
tokens reorders the tokens of every sample alike (equivariance over a
sequence), leaving the batch axis alone.

Relations, for the whole value (`relation:`) or per key of a dict output
(`keys:`; unlisted keys are not compared): `same`, `transposed` (last two
axes swapped), or a mapping `{from: key, permuted: [axes], transposed: bool}`:
the transformed call's value equals the original call's `from` key (default:
the same key), transposed and/or with the input permutation applied along
`axes` (for `permute_rows` only). Comparison uses the test's tolerance (per
key where declared). The reference must satisfy the relation too; if it does
not, the declaration is wrong and the test is a judge error. The property is
judged only where the values on the test's own inputs are right; a value
already wrong there fails as a value, and nothing is said of the property.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from judge.runs import decisions as verdicts
from judge.checks.compare import matches_reference, values_first
from judge.checks.result import KEYS, REDRAWN_PROBES, VALUE, CheckResult, Param, Traits, fail, failed, ok, params
from judge.base.errors import ConfigError
from judge.runs.calls import Call
from judge.base.numerics import errors, within
from judge.base.leaves import label, numeric
from judge.base.encoding import Array

TRANSFORMS = ("permute_rows", "reverse_blocks", "swap_args", "scale_rows")
CALL = "transformed"

PARAMS = params(
    Param("transform", str, required=True, what=f"one of {', '.join(TRANSFORMS)}"),
    Param("args", list, required=True, what="a list of argument names"),
    Param("keys", dict, default=None, what="a mapping of output key -> relation"),
    Param("relation", (str, dict), default=None, what="same, transposed or {from, permuted, transposed}"),
    Param("block", int, default=1, what="a positive number of rows"),
    Param("low", float, default=0.01, what="the smallest scale factor (> 0)"),
    Param("high", float, default=100.0, what="the largest scale factor"),
    Param("axis", int, default=0, what="the input axis whose slices are the rows (>= 0)"),
)
# A wrong value on the test's own inputs fails as a value (compare.values_first), diagnosed as one.
# Its parameters may name rows or sizes of the test's inputs: only probes of the same shapes keep it.
TRAITS = Traits(licenses=("invariance",), observes=KEYS, key_param="keys", diagnoses=VALUE, says_mistake=True,
                on_probes=REDRAWN_PROBES)


@dataclass(frozen=True)
class Relation:
    """How the transformed call's value derives from the original call's value."""

    source: str | None = None          # key of the original output (None: same key / whole value)
    permuted: tuple[int, ...] = ()     # output axes that follow the input permutation
    transposed: bool = False

    def describe(self, target: str) -> str:
        parts = []
        if self.source is not None and self.source != target:
            parts.append(f"equal the original `{self.source}`")
        if self.permuted:
            axes = ", ".join(map(str, self.permuted))
            parts.append(f"be reordered by the same permutation (along axis {axes})")
        if self.transposed:
            parts.append("be transposed")
        return " and ".join(parts) if parts else "stay the same"


# ---------------------------------------------------------------- declaration

def _error(case, field: str, message: str) -> ConfigError:
    return ConfigError(message, file=case.test.source, field=f"invariance.{field}")


def _relation(case, field: str, raw: Any, transform: str) -> Relation:
    if raw is None or raw == "same":
        return Relation()
    if raw == "transposed":
        return Relation(transposed=True)
    if not isinstance(raw, dict):
        raise _error(case, field, f"expected same, transposed or a mapping {{from, permuted, transposed}}, "
                                  f"got {raw!r}")
    unknown = set(raw) - {"from", "permuted", "transposed"}
    if unknown:
        raise _error(case, field, f"unknown field(s) {', '.join(sorted(map(str, unknown)))} "
                                  "(known fields: from, permuted, transposed)")
    source = raw.get("from")
    permuted = raw.get("permuted", [])
    transposed = raw.get("transposed", False)
    if source is not None and not isinstance(source, str):
        raise _error(case, f"{field}.from", f"expected an output key, got {source!r}")
    if not isinstance(permuted, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in permuted):
        raise _error(case, f"{field}.permuted", f"expected a list of axes, got {permuted!r}")
    if permuted and transform != "permute_rows":
        raise _error(case, f"{field}.permuted", f"only permute_rows permutes; transform is {transform}")
    if not isinstance(transposed, bool):
        raise _error(case, f"{field}.transposed", f"expected true or false, got {transposed!r}")
    return Relation(source=source, permuted=tuple(permuted), transposed=transposed)


def relations(case, transform: str, keys: dict | None, relation: Any) -> dict[str | None, Relation]:
    """Output key (None: the whole value) -> relation, validated."""
    if keys is not None and relation is not None:
        raise _error(case, "keys", "give either `keys` (per output key) or `relation` (whole value), not both")
    if keys is None:
        return {None: _relation(case, "relation", relation, transform)}
    if not keys:
        raise _error(case, "keys", "expected at least one output key")
    return {str(k): _relation(case, f"keys.{k}", v, transform) for k, v in keys.items()}


def _indices(case, transform: str, args: list[str], block: int, axis: int) -> list[int]:
    if not args:
        raise _error(case, "args", "expected at least one argument name")
    indices = []
    for name in args:
        if name not in case.arg_names:
            raise _error(case, "args", f"unknown argument {name!r}; arguments are {', '.join(case.arg_names)}")
        index = case.arg_index(name)
        if transform != "swap_args" and not (isinstance(case.args[index], Array) and case.args[index].data.ndim > axis):
            where = f" along axis {axis}" if axis else ""
            raise _error(case, "args", f"`{name}` is not an array or tensor with rows{where}")
        indices.append(index)
    if transform == "swap_args" and len(indices) != 2:
        raise _error(case, "args", f"swap_args needs exactly two argument names, got {len(indices)}")
    if transform in ("permute_rows", "reverse_blocks"):
        rows = {case.args[i].data.shape[axis] for i in indices}
        if len(rows) != 1:
            raise _error(case, "args", "the listed arguments must have the same number of rows to move together")
        if block < 1 or rows.pop() % block:
            raise _error(case, "block", f"expected a positive divisor of the number of rows, got {block}")
    return indices


# ---------------------------------------------------------------- the transformed call

def row_permutation(case, args: list[str], block: int, axis: int = 0) -> np.ndarray:
    """The seeded row order of `permute_rows`: new row i is old row perm[i] (rows along `axis`)."""
    rows = case.args[case.arg_index(args[0])].data.shape[axis]
    blocks = rows // block
    rng = np.random.default_rng(case.seed("invariance"))
    order = np.arange(blocks)
    if blocks > 1:
        while np.array_equal(order, np.arange(blocks)):  # an identity permutation would test nothing
            order = rng.permutation(blocks)
    return (order[:, None] * block + np.arange(block)[None, :]).reshape(-1)


def _along(value: Array, axis: int, change) -> np.ndarray:
    """`change` applied to the data with `axis` moved first (so it sees rows), moved back."""
    return np.moveaxis(change(np.moveaxis(value.data, axis, 0)), 0, axis)


def _with_data(value: Array, data: np.ndarray) -> Array:
    return Array(data=np.ascontiguousarray(data.astype(value.data.dtype)), library=value.library, dtype=value.dtype)


def calls(case, *, transform: str, args: list[str], keys: dict | None = None, relation: Any = None,
          block: int = 1, low: float = 0.01, high: float = 100.0, axis: int = 0) -> dict[str, Call]:
    if transform not in TRANSFORMS:
        raise _error(case, "transform", f"expected one of {', '.join(TRANSFORMS)}, got {transform!r}")
    if transform == "scale_rows" and not 0 < low <= high:
        raise _error(case, "low", f"expected 0 < low <= high, got low={low:g}, high={high:g}")
    if axis < 0:
        raise _error(case, "axis", f"expected an input axis >= 0, got {axis}")
    if axis and transform == "swap_args":
        raise _error(case, "axis", "swap_args moves whole arguments; it takes no axis")
    relations(case, transform, keys, relation)
    indices = _indices(case, transform, args, block, axis)
    new = list(case.args)
    if transform == "swap_args":
        new[indices[0]], new[indices[1]] = case.args[indices[1]], case.args[indices[0]]
    elif transform == "permute_rows":
        perm = row_permutation(case, args, block, axis)
        for i in indices:
            new[i] = _with_data(case.args[i], _along(case.args[i], axis, lambda rows: rows[perm]))
    elif transform == "reverse_blocks":
        def reverse(rows: np.ndarray) -> np.ndarray:
            return rows.reshape(-1, block, *rows.shape[1:])[:, ::-1].reshape(rows.shape)
        for i in indices:
            new[i] = _with_data(case.args[i], _along(case.args[i], axis, reverse))
    else:  # scale_rows
        rng = np.random.default_rng(case.seed("invariance"))
        for i in indices:
            factors = np.exp(rng.uniform(np.log(low), np.log(high), case.args[i].data.shape[axis]))
            new[i] = _with_data(case.args[i], _along(
                case.args[i], axis, lambda rows: rows * factors.reshape(-1, *[1] * (rows.ndim - 1))))
    return {CALL: Call(args=tuple(new))}


# ---------------------------------------------------------------- checking

def describe_transform(transform: str, args: list[str], block: int, low: float, high: float,
                       axis: int = 0) -> str:
    names = " and ".join(f"`{a}`" for a in args)
    if axis:  # rows along another axis: name the axis so "rows" is not read as samples
        names += f" along axis {axis}"
    if transform == "swap_args":
        return f"{names} were swapped"
    if transform == "scale_rows":
        return f"every row of {names} was multiplied by its own positive factor (between {low:g} and {high:g})"
    if transform == "reverse_blocks":
        if block == 2:
            return f"the two rows of every consecutive pair (rows 2i and 2i+1) of {names} were swapped"
        return f"the rows inside every block of {block} consecutive rows of {names} were put in reverse order"
    shared = " by one shared permutation" if len(args) > 1 else ""
    if block == 1:
        return f"the rows of {names} were reordered{shared}"
    whole = "pairs" if block == 2 else f"blocks of {block} consecutive rows"
    return f"whole {whole} of rows of {names} were reordered{shared} (each kept together)"


def _apply(relation: Relation, value: np.ndarray, perm: np.ndarray | None) -> np.ndarray:
    for axis in relation.permuted:
        value = np.take(value, perm, axis=axis)
    if relation.transposed:
        value = np.swapaxes(value, -1, -2)
    return value


def _pick(output: Any, key: str | None) -> tuple[Any, str | None]:
    """The value at `key` (None: the whole output), or why it is missing."""
    if key is None:
        return output, None
    if not isinstance(output, dict):
        return None, f"the output is not a dict with the key {key!r}"
    if key not in output:
        return None, f"the output has no key {key!r}"
    return output[key], None


def _mismatch(original: np.ndarray, transformed: np.ndarray, relation: Relation, perm, tol) -> str | None:
    """Why `transformed` breaks the relation to `original`, or None when it holds."""
    try:
        want = _apply(relation, original, perm)
    except (IndexError, ValueError) as exc:  # numpy's AxisError is both
        return f"its shape {original.shape} does not allow that ({exc})"
    if want.size == 1 and transformed.size == 1:
        want, transformed = want.reshape(()), transformed.reshape(())
    if want.shape != transformed.shape:
        return f"its shape became {transformed.shape}; expected {want.shape}"
    close = within(want, transformed, tol.rtol, tol.atol)
    if close.all():
        return None
    bad = ~close
    max_abs = errors(want, transformed, bad).max_abs
    tol_text = f"rtol={tol.rtol:g}, atol={tol.atol:g}"
    if want.ndim == 0:
        return f"it moved by {max_abs:.3g} ({tol_text})"
    return f"{int(bad.sum())} of {bad.size} values differ, max abs difference {max_abs:.3g} ({tol_text})"


def violations(case, before: Any, after: Any, rels: dict[str | None, Relation], perm) -> list[str]:
    """One line per output key whose transformed value breaks its relation."""
    found = []
    for key, relation in rels.items():
        name = label(key or "")
        new, missing = _pick(after, key)
        old, missing_old = _pick(before, relation.source if relation.source is not None else key)
        if missing or missing_old:
            found.append(f"{name}: {missing or missing_old}")
            continue
        n_old, n_new = numeric(old), numeric(new)
        if n_old is None or n_new is None:
            if old != new:
                found.append(f"{name} should {relation.describe(key or '')}; it changed")
            continue
        why = _mismatch(n_old, n_new, relation, perm, case.tolerance.for_key(key))
        if why:
            found.append(f"{name} should {relation.describe(key or '')}; {why}")
    return found


def check(case, expected, actual, *, transform: str, args: list[str], keys: dict | None = None,
          relation: Any = None, block: int = 1, low: float = 0.01, high: float = 100.0,
          axis: int = 0) -> CheckResult:
    rels = relations(case, transform, keys, relation)
    perm = row_permutation(case, args, block, axis) if transform == "permute_rows" else None
    what = describe_transform(transform, args, block, low, high, axis)
    broken = violations(case, expected.main.value, expected[CALL].value, rels, perm)
    if broken:  # the declaration, not the submission, is wrong
        return failed(verdicts.judge_failed(f"the reference breaks this declared invariance ({what}): {broken[0]}; "
                                            f"fix the test at {case.test.source}"))
    keys = None if None in rels else sorted({k for k in rels} | {r.source for r in rels.values() if r.source})
    wrong = values_first(case, expected.main, actual.main, keys)
    if wrong is not None:
        return wrong
    broken = violations(case, actual.main.value, actual[CALL].value, rels, perm)
    if broken:
        return fail(f"{what}, so {broken[0]}", lines=broken[1:])
    same = matches_reference(case, expected[CALL], actual[CALL],
                             f"when {what}", keys)
    if not same.passed:
        return same
    return ok()
