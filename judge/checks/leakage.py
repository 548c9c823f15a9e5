"""leakage: samples of a batch are independent: changing sample j changes no other sample's output.

    leakage: {arg: images, sample: 1, outputs: [tokens]}

The judge runs the submission twice, the second time with sample `sample` of
`arg` redrawn, and compares every other sample of the listed outputs (default:
every output whose first dimension is the batch size). Both calls' outputs
(of the listed outputs) must also equal the reference's: a submission that
remembers an earlier call and answers the perturbed batch from it fails.
"""
from __future__ import annotations

import numpy as np

from judge.checks.compare import matches_reference
from judge.checks.result import CheckResult, Param, fail, ok, params
from judge.checks.values import leaves
from judge.execute import Call
from judge.wire import Array

PARAMS = params(Param("arg", str, required=True, what="the name of the batched argument"),
                Param("sample", int, default=-1, what="the index of the sample to change"),
                Param("outputs", list, default=None, what="a list of output keys"))


def calls(case, *, arg: str, sample: int = -1, outputs=None) -> dict[str, Call]:
    index = case.arg_index(arg)
    original = case.args[index]
    data = original.data.copy()
    rng = np.random.default_rng(case.seed("leakage"))
    data[sample] = rng.standard_normal(data[sample].shape).astype(data.dtype) * 3 + 1
    args = list(case.args)
    args[index] = Array(data=data, library=original.library, dtype=original.dtype)
    return {"perturbed": Call(args=tuple(args))}


def check(case, expected, actual, *, arg: str, sample: int = -1, outputs=None) -> CheckResult:
    batch = case.args[case.arg_index(arg)].data.shape[0]
    changed = sample % batch
    base, perturbed = actual["main"].value, actual["leakage.perturbed"].value
    for path, a, b in leaves(base, perturbed):
        if outputs is not None and path.split(".")[0] not in outputs:
            continue
        if not (isinstance(a, Array) and isinstance(b, Array) and a.shape == b.shape
                and a.data.ndim >= 1 and a.shape[0] == batch):
            continue
        others = [i for i in range(batch) if i != changed]
        moved = [i for i in others if not np.array_equal(a.data[i], b.data[i], equal_nan=True)]
        if moved:
            where = f"`{path}`" if path else "the output"
            return fail(f"changing sample {changed} of `{arg}` changed {where} of sample(s) "
                        f"{', '.join(map(str, moved[:5]))}: samples are mixed across the batch "
                        "(a reshape or sum over the batch dimension?)")
    for name, what in (("main", "on the test's inputs"), ("leakage.perturbed", f"with sample {changed} redrawn")):
        same = matches_reference(case, expected[name], actual[name], what, outputs)
        if not same.passed:
            return same
    return ok()
