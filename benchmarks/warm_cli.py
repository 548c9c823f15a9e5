"""`judge run patchify <correct>` through a warm `judge serve` vs `python -c pass`: target <= 2x (issues 15, 26).

Also shows, measured in the same run: `python -c "import torch"` and the cold
`judge run` (JUDGE_NO_WARM=1), the path taken when no server is running.
Needs the web extra (`pip install -e '.[web]'`), for `judge serve`.

Usage: python benchmarks/warm_cli.py   (BENCH_RUNS=N for more runs; default 7)
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from _timing import REPO, RUNS, isolated_env, judge_command, medians, python, report, scratch

SUBMISSION = "submissions/patchify/accepted/reshape_permute.py"


def start_server(env: dict[str, str]) -> subprocess.Popen:
    server = subprocess.Popen(judge_command() + ["serve"], env=env, cwd=REPO, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    ready, _, _ = select.select([server.stdout], [], [], 300)
    if not ready or not server.stdout.readline().startswith(b"http://127.0.0.1:"):
        server.kill()
        raise SystemExit("judge serve did not start (is the web extra installed?)")
    return server


def main() -> int:
    env = isolated_env()
    runtime = scratch("judge-bench-run-")
    os.chmod(runtime, 0o700)
    env["XDG_RUNTIME_DIR"] = str(runtime)  # the benchmark's own server socket, not the user's
    env.pop("JUDGE_NO_WARM", None)
    # Every problem's expected values cached first: the server prepares every problem in the
    # background when it starts (issue 22.9), which would otherwise compete with the runs timed here.
    subprocess.run(judge_command() + ["prepare"], env=env, cwd=REPO, check=True, capture_output=True)
    server = start_server(env)
    try:
        run = judge_command() + ["run", "patchify", SUBMISSION]
        # After a run the server makes the next one ready (its child's set-up, 15-20 ms of CPU): each
        # command starts once that is done, so python -c pass is not timed against it.
        times = medians({"python -c pass": python("pass"), "judge run (warm)": run}, env, settle_s=0.3)
        cold_env = {**env, "JUDGE_NO_WARM": "1"}
        heavy = medians({"import torch": python("import torch"), "judge run (cold)": run}, cold_env,
                        runs=max(3, RUNS // 2))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    times.update(heavy)
    print(f"medians: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in times.items())
          + f" (load {os.getloadavg()[0]:.2f})")
    print(f"judge run (warm) / import torch: {times['judge run (warm)'] / times['import torch']:.3f}x; "
          f"judge run (cold) / import torch: {times['judge run (cold)'] / times['import torch']:.2f}x; "
          f"cold / warm: {times['judge run (cold)'] / times['judge run (warm)']:.1f}x")
    return 0 if report("judge run (warm) / python -c pass", times["judge run (warm)"] / times["python -c pass"],
                       2.0) else 1


if __name__ == "__main__":
    sys.exit(main())
