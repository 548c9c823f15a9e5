"""Sandbox start-up cost per submission: all isolation layers vs none vs a bare subprocess.

Measures, in one run on this machine, the wall time of judging a trivial
submission with one trivial call through a warm fork server (spawn, isolate,
load, call, report, clean up):

- `all layers`: every isolation layer the machine supports;
- `problem set covered`: the same, hiding this repository (the judge package and, when
  the venv lives here, site-packages are bound back inside the cover), as `judge run` does;
- `no root of its own`: every layer but the mount namespace (the child's own root of
  read-only binds, and its tmpfs working directory), the cost that root adds;
- `no own identity`: every layer but the child's own id (a root judge's child keeps uid 0
  in a user namespace instead), the cost of the change of id;
- `no layers`: the same fork server with every optional layer switched off;
- `bare subprocess`: `python -c pass` (what any out-of-process design pays at least);
- `fresh torch process`: `python -c "import torch"` (what a process per submission pays).

Prints medians (ms) of --runs runs and ratios to `all layers`. Target:
all layers <= 30 ms median.

    python benchmarks/sandbox_startup.py [--runs 30]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.runs.contract import Limits, Program  # noqa: E402
from judge.runs.calls import Call  # noqa: E402
from judge.sandbox import Sandbox  # noqa: E402
from judge.sandbox.isolation import LAYERS  # noqa: E402

PROGRAM = Program("def solve():\n    return 1\n", "solve.py", "solve")
OPTIONAL = tuple(layer.name for layer in LAYERS if layer.name != "process group")


def _sandbox_runs(disable: tuple[str, ...], runs: int, preload: tuple[str, ...],
                  protect: tuple[Path, ...] = ()) -> list[float]:
    with Sandbox(disable=disable, preload=preload, protect=protect) as sandbox:
        sandbox.run(PROGRAM, [Call(args=())], Limits())  # wait for the server, warm caches
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            result = sandbox.run(PROGRAM, [Call(args=())], Limits())
            times.append((time.perf_counter() - start) * 1000)
            assert result.outcomes[0].observation is not None, result
        return times


def _process_runs(code: str, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--preload", default="numpy,torch", help="modules the fork server imports")
    args = parser.parse_args()
    preload = tuple(m for m in args.preload.split(",") if m)
    rows = [
        ("all layers", _sandbox_runs((), args.runs, preload)),
        ("problem set covered", _sandbox_runs((), args.runs, preload, (Path(__file__).resolve().parent.parent,))),
        ("no root of its own", _sandbox_runs(("mount namespace", "scratch size limit"), args.runs, preload)),
        ("no own identity", _sandbox_runs(("own identity",), args.runs, preload)),
        ("no layers", _sandbox_runs(OPTIONAL, args.runs, preload)),
        ("bare subprocess", _process_runs("pass", args.runs)),
        ("fresh torch process", _process_runs("import torch", max(5, args.runs // 6))),
    ]
    base = statistics.median(rows[0][1])
    print(f"sandbox start-up per submission, median of runs (preload: {', '.join(preload)})")
    print(f"{'':22} {'median ms':>10} {'p90 ms':>8} {'runs':>5} {'x all layers':>13}")
    for name, times in rows:
        median = statistics.median(times)
        p90 = sorted(times)[int(0.9 * (len(times) - 1))]
        print(f"{name:22} {median:10.1f} {p90:8.1f} {len(times):5d} {median / base:13.2f}")
    print(f"target: all layers <= 30 ms median -> {'met' if base <= 30 else 'NOT met'} ({base:.1f} ms)")


if __name__ == "__main__":
    main()
