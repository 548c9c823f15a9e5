"""`judge run patchify <correct>` vs `python -c "import torch"`: target <= 1.3x.

Usage: python benchmarks/run_torch.py   (BENCH_RUNS=N for more runs; default 7)
"""
from __future__ import annotations

import sys

from _timing import RUNS, isolated_env, judge_command, medians, python, report

SUBMISSION = "submissions/patchify/accepted/reshape_permute.py"


def main() -> int:
    env = isolated_env()
    times = medians({"import torch": python("import torch"),
                     "judge run patchify": judge_command() + ["run", "patchify", SUBMISSION]}, env)
    print(f"medians of {RUNS} runs: " + ", ".join(f"{k} {v:.3f} s" for k, v in times.items()))
    return 0 if report("judge run patchify / import torch", times["judge run patchify"] / times["import torch"],
                       1.3) else 1


if __name__ == "__main__":
    sys.exit(main())
