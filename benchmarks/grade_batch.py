"""`judge grade patchify DIR` on 50 submissions vs 1.5 x `import torch` + 50 x 0.15 s (issue 6).

The 50 files cycle through the repository's accepted and wrong-answer
patchify submissions (a class that mostly runs to completion). Default 5
runs; BENCH_RUNS=N for more.
"""
from __future__ import annotations

import itertools
import os
import shutil
import sys
import tempfile
from pathlib import Path

from _timing import REPO, isolated_env, judge_command, medians, python, report

COUNT = 50
PER_SUBMISSION_S = 0.15


def classroom() -> Path:
    sources = sorted((REPO / "submissions" / "patchify" / "accepted").glob("*.py")) + \
        sorted((REPO / "submissions" / "patchify" / "wrong_answer").glob("*.py"))
    directory = Path(tempfile.mkdtemp(prefix="judge-bench-class-"))
    for i, source in zip(range(COUNT), itertools.cycle(sources)):
        shutil.copy(source, directory / f"student_{i:02d}_{source.name}")
    return directory


def main() -> int:
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    directory = classroom()
    env = isolated_env()
    times = medians({"import torch": python("import torch"),
                     "judge grade": judge_command() + ["grade", "patchify", str(directory), "--json"]},
                    env, runs=runs)
    budget = 1.5 * times["import torch"] + COUNT * PER_SUBMISSION_S
    print(f"medians of {runs} runs: import torch {times['import torch']:.3f} s, "
          f"judge grade ({COUNT} files) {times['judge grade']:.3f} s, "
          f"{times['judge grade'] / COUNT * 1000:.0f} ms per submission")
    print(f"budget 1.5 x import torch + {COUNT} x {PER_SUBMISSION_S} s = {budget:.2f} s")
    ok = report("judge grade / budget", times["judge grade"] / budget, 1.0)
    shutil.rmtree(directory, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
