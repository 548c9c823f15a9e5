"""leakage: an output row depends only on what it may depend on.

    leakage: {arg: images, sample: 1, outputs: [tokens]}
    leakage: {arg: test_features, rows: [4, 5, 6, 7], outputs: [predictions],
              message: "standardise with the training statistics only"}
    leakage: {arg: test_labels, rows: all, watch: all, outputs: [predictions]}

The judge runs the submission twice, the second time with some rows (slices
of the leading axis) of argument `arg` redrawn, and checks that the watched
rows of the listed outputs did not change at all.

- `sample` (default -1): the one row of `arg` to redraw (samples of a batch are
  independent).
- `rows`: instead of `sample`, a list of row indices of `arg` to redraw, or
  `all` (e.g. every label, when no output may depend on any of them).
- `watch`: the rows of the outputs that must stay unchanged: a list of
  indices or `all`; by default every row that was not redrawn.
- `outputs`: the output keys to watch (default: every output whose leading
  axis has one row per row of `arg`).
- `message`: what a change means, in the learner's words; it follows the
  judge's description of what changed.

Redrawn float rows are fresh normal values (std 3, mean 1); redrawn integer
rows move each value to another value of the range [min, max] the argument
already spans, so labels stay valid labels; bool values flip.

Both calls' outputs (of the listed outputs) must also equal the reference's:
a submission that remembers an earlier call and answers the redrawn batch
from it fails. The test's own call is compared first: a
value already wrong there fails as a value, and nothing is said of leakage.
"""
from __future__ import annotations

import numpy as np

from judge.checks.compare import matches_reference, values_first
from judge.checks.result import KEYS, REDRAWN_PROBES, VALUE, CheckResult, Param, Traits, fail, ok, params
from judge.base.errors import ConfigError
from judge.runs.calls import Call
from judge.base.leaves import leaves
from judge.base.encoding import Array

PARAMS = params(Param("arg", str, required=True, what="the name of the batched argument"),
                Param("sample", int, default=-1, what="the index of the sample to change"),
                Param("rows", (list, str), default=None, what="a list of row indices, or all"),
                Param("watch", (list, str), default=None, what="a list of row indices, or all"),
                Param("outputs", list, default=None, what="a list of output keys"),
                Param("message", str, default=None, what="what a change means, for the learner"))
# A wrong value on the test's own inputs fails as a value (compare.values_first), diagnosed as one.
# Its parameters name rows of the test's inputs: only probes of the same shapes keep it.
TRAITS = Traits(licenses=("leakage",), observes=KEYS, key_param="outputs", diagnoses=VALUE, says_mistake=True,
                on_probes=REDRAWN_PROBES)

CALL = "perturbed"  # the extra call: the test's inputs with some rows of `arg` redrawn
_MIXED = "samples are mixed across the batch (a reshape or sum over the batch dimension?)"


def _indices(value, batch: int, field: str) -> list[int]:
    if value == "all":
        return list(range(batch))
    if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
        raise ConfigError(f"leakage.{field}: expected a list of row indices or all, got {value!r}")
    bad = [i for i in value if not -batch <= i < batch]
    if bad:
        raise ConfigError(f"leakage.{field}: row {bad[0]} is out of range for {batch} rows")
    return sorted({i % batch for i in value})


def _changed_rows(batch: int, sample: int, rows) -> list[int]:
    return _indices(rows, batch, "rows") if rows is not None else [sample % batch]


def _redraw(data: np.ndarray, rows: list[int], rng: np.random.Generator) -> np.ndarray:
    out = data.copy()
    if data.dtype == np.bool_:
        out[rows] = ~data[rows]
    elif np.issubdtype(data.dtype, np.integer):
        low, high = int(data.min()), int(data.max())
        if low == high:
            raise ConfigError("leakage: an integer argument whose values are all equal cannot be redrawn "
                              "within its range; give it at least two distinct values")
        span = high - low + 1
        shift = rng.integers(1, span, size=data[rows].shape)
        out[rows] = ((data[rows] - low + shift) % span + low).astype(data.dtype)
    else:
        out[rows] = (rng.standard_normal(data[rows].shape) * 3 + 1).astype(data.dtype)
    return out


def calls(case, *, arg: str, sample: int = -1, rows=None, watch=None, outputs=None,
          message: str | None = None) -> dict[str, Call]:
    index = case.arg_index(arg)
    original = case.args[index]
    if not isinstance(original, Array) or original.data.ndim < 1 or original.data.shape[0] < 1:
        raise ConfigError(f"leakage.arg: `{arg}` must be an array or tensor with at least one row")
    batch = original.data.shape[0]
    changed = _changed_rows(batch, sample, rows)
    if watch is not None:
        _indices(watch, batch, "watch")
    data = _redraw(original.data, changed, np.random.default_rng(case.seed("leakage")))
    args = list(case.args)
    args[index] = Array(data=data, library=original.library, dtype=original.dtype)
    return {CALL: Call(args=tuple(args))}


def check(case, expected, actual, *, arg: str, sample: int = -1, rows=None, watch=None, outputs=None,
          message: str | None = None) -> CheckResult:
    batch = case.args[case.arg_index(arg)].data.shape[0]
    changed = _changed_rows(batch, sample, rows)
    watched = _indices(watch, batch, "watch") if watch is not None else [i for i in range(batch) if i not in changed]
    redrawn = f"sample {changed[0]}" if len(changed) == 1 else "every row" if len(changed) == batch \
        else f"rows {_listing(changed)}"
    wrong = values_first(case, expected.main, actual.main, outputs)
    if wrong is not None:
        return wrong
    base, perturbed = actual.main.value, actual[CALL].value
    compared = False
    for path, a, b in leaves(base, perturbed):
        if outputs is not None and path.split(".")[0] not in outputs:
            continue
        if not (isinstance(a, Array) and isinstance(b, Array) and a.shape == b.shape
                and a.data.ndim >= 1 and a.shape[0] == batch):
            continue
        compared = True
        moved = [i for i in watched if not np.array_equal(a.data[i], b.data[i], equal_nan=True)]
        if moved:
            where = f"`{path}`" if path else "the output"
            return fail(f"leakage: changing {redrawn} of `{arg}` changed {where} of sample(s) "
                        f"{_listing(moved)}: {message or _MIXED}")
    if not compared and watched:
        wanted = f"`{'`, `'.join(outputs)}`" if outputs else "an output"
        return fail(f"leakage: {wanted} with one row per row of `{arg}` ({batch}) was expected in both calls; "
                    "nothing could be compared")
    return matches_reference(case, expected[CALL], actual[CALL], f"with {redrawn} redrawn", outputs)


def _listing(indices: list[int]) -> str:
    shown = ", ".join(map(str, indices[:5]))
    return shown + (f" and {len(indices) - 5} more" if len(indices) > 5 else "")
