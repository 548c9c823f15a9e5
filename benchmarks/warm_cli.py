"""`judge run patchify <correct>` as a learner's shell runs it, with nothing started by hand.

- the first run, which starts the warm judge and is its first client, against `python -c "import torch"`:
  target <= import torch + 1 s;
- every later run, answered by the warm judge, against `python -c pass`: target <= 2x, and <= 60 ms;
- for reference, the cold run (JUDGE_NO_WARM=1: judged in the command's own process).

All measured in the same run, alternating with their baselines, with Python's bytecode cache on as a
learner's shell has it; every problem's expected values are cached first (`judge prepare`), so no run
pays for computing them. Each first run starts from no warm judge (`judge serve --stop` before it).

Usage: python benchmarks/warm_cli.py   (BENCH_RUNS=N for more runs; default 7)
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from _timing import REPO, RUNS, isolated_env, judge_command, medians, python, report, scratch, wall

SUBMISSION = "submissions/patchify/accepted/reshape_permute.py"


def stop(env: dict[str, str]) -> None:
    subprocess.run(judge_command() + ["serve", "--stop"], env=env, cwd=REPO, capture_output=True, check=True)


def first_runs(run: list[str], env: dict[str, str], runs: int) -> dict[str, float]:
    """Medians of `import torch` and of a first run from no warm judge, alternating."""
    times: dict[str, list[float]] = {"import torch": [], "judge run (first)": []}
    for _ in range(runs):
        stop(env)
        time.sleep(0.5)  # the stopped judge's processes gone
        times["import torch"].append(wall(python("import torch"), env))
        time.sleep(0.5)
        times["judge run (first)"].append(wall(run, env))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> int:
    env = isolated_env()
    runtime = scratch("judge-bench-run-")
    os.chmod(runtime, 0o700)
    env["XDG_RUNTIME_DIR"] = str(runtime)  # the benchmark's own warm judges, not the user's
    env.pop("JUDGE_NO_WARM", None)
    subprocess.run(judge_command() + ["prepare"], env=env, cwd=REPO, check=True, capture_output=True)
    run = judge_command() + ["run", "patchify", SUBMISSION]
    try:
        times = first_runs(run, env, max(3, RUNS // 2))
        wall(run, env)  # the warm judge of the last first run is up: these are the later runs
        # After a run the warm judge makes the next one ready (its child's set-up, 15-20 ms of CPU): each
        # command starts once that is done, as a learner's next run does, so python -c pass is not timed against it.
        times.update(medians({"python -c pass": python("pass"), "judge run (later)": run}, env, settle_s=0.3))
        times.update(medians({"judge run (cold)": run}, {**env, "JUDGE_NO_WARM": "1"}, runs=max(3, RUNS // 2)))
    finally:
        stop(env)
    print("medians: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in times.items())
          + f" (load {os.getloadavg()[0]:.2f})")
    first, torch_s = times["judge run (first)"], times["import torch"]
    later, baseline = times["judge run (later)"], times["python -c pass"]
    print(f"first - import torch: {(first - torch_s) * 1000:+.0f} ms; cold - import torch: "
          f"{(times['judge run (cold)'] - torch_s) * 1000:+.0f} ms; cold / later: {times['judge run (cold)'] / later:.1f}x")
    ok = report("judge run (first) - import torch", first - torch_s, 1.0, "s")
    ok = report("judge run (later) / python -c pass", later / baseline, 2.0) and ok
    ok = report("judge run (later)", later, 0.060, "s") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
