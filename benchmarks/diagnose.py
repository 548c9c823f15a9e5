"""The cost of generic diagnoses beside the comparison that triggers them.

Every failing value check now also runs judge.judging.diagnose.generic on the first
differing output. Its worst case is an output related to nothing (every
diagnosis is tried); it is timed on ViT-sized patch tokens (1 x 196 x 768)
and a 64 x 64 similarity matrix, with the allclose comparison of the same
arrays, timed alternately in the same run, as the baseline.
"""
from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from _timing import REPO, RUNS

sys.path.insert(0, str(REPO))

from judge.model import problem as model  # noqa: E402
from judge.model.cases import Case  # noqa: E402
from judge.checks.allclose import compare_values  # noqa: E402
from judge.judging.diagnose import generic  # noqa: E402
from judge.model.problem import Tolerance  # noqa: E402
from judge.base.encoding import Array  # noqa: E402


def _case(args: dict, tolerance: Tolerance) -> Case:
    test = model.TestSpec(name="bench", group="hidden", inputs={}, checks=(), tolerance=tolerance)
    return Case(test=test, arg_names=tuple(args), args=tuple(args.values()), tolerance=tolerance)


def _array(data: np.ndarray) -> Array:
    return Array(data=data.astype(np.float32), library="torch", dtype="float32")


def main() -> int:
    rng = np.random.default_rng(0)
    cases = {
        "tokens 1x196x768, unrelated": (rng.normal(size=(1, 196, 768)), rng.normal(size=(1, 196, 768)),
                                        Tolerance(0, 0)),
        "tokens 1x196x768, column-major": None,
        "similarities 64x64, unrelated": (rng.normal(size=(64, 64)), rng.normal(size=(64, 64)),
                                          Tolerance(1e-4, 1e-4)),
    }
    tokens = rng.normal(size=(1, 196, 768))
    cases["tokens 1x196x768, column-major"] = (tokens, tokens[:, np.arange(196).reshape(14, 14).T.reshape(-1)],
                                              Tolerance(0, 0))
    print(f"medians of {RUNS} runs (baseline: allclose on the same arrays)")
    for name, (expected, actual, tolerance) in cases.items():
        e, a = {"tokens": _array(expected)}, {"tokens": _array(actual)}
        case = _case({"images": _array(rng.normal(size=(1, 3, 224, 224))), "temperature": 0.07}, tolerance)
        base, diag = [], []
        for _ in range(RUNS):
            started = time.perf_counter()
            compare_values(e, a, tolerance, False)
            base.append(time.perf_counter() - started)
            started = time.perf_counter()
            found = generic(case, e, a)
            diag.append(time.perf_counter() - started)
        b, d = statistics.median(base), statistics.median(diag)
        said = found.message if found else "nothing named"
        print(f"  {name}: generic {d * 1000:.1f} ms, allclose {b * 1000:.2f} ms ({d / b:.0f}x): {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
