"""Shared by the benchmarks: median wall times of commands, interleaved with a baseline.

Absolute times vary between machines and with load, so every benchmark
measures its baseline in the same run, alternating baseline and target runs,
and reports the ratio of the medians.
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNS = int(os.environ.get("BENCH_RUNS", "7"))


def judge_command() -> list[str]:
    """The installed `judge` script next to this interpreter (what a user runs), else the module."""
    script = Path(sys.executable).parent / "judge"
    if script.is_file():
        return [str(script)]
    found = shutil.which("judge")
    return [found] if found else [sys.executable, "-c", "import sys; from judge.cli.commands import main; sys.exit(main())"]


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def scratch(prefix: str) -> Path:
    """A private temporary directory, removed when the benchmark's process exits."""
    directory = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return directory


def isolated_env() -> dict[str, str]:
    """A private cache and progress home, so runs neither read nor pollute the user's."""
    home = scratch("judge-bench-")
    # As a learner's shell: Python caches compiled modules. Root's environment here switches that
    # off, which made every run compile the judge's changed modules afresh (1 ms each, for the warm client).
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**environ, "JUDGE_HOME": str(home / "home"), "JUDGE_CACHE_DIR": str(home / "cache")}


def wall(command: list[str], env: dict[str, str], ok_codes: tuple[int, ...] = (0,)) -> float:
    started = time.perf_counter()
    result = subprocess.run(command, env=env, cwd=REPO, capture_output=True)
    elapsed = time.perf_counter() - started
    if result.returncode not in ok_codes:
        raise SystemExit(f"{' '.join(command)} exited with {result.returncode}: {_why(result)}")
    return elapsed


def medians(commands: dict[str, list[str]], env: dict[str, str], runs: int = RUNS, warmup: int = 1,
            ok_codes: tuple[int, ...] = (0,), settle_s: float = 0.0) -> dict[str, float]:
    """Median wall seconds per named command; runs alternate between the commands, each `settle_s`
    after the last (time for a server to finish what a run left it, so no run pays for another's)."""
    for _ in range(warmup):  # fills the expectation cache and the OS page cache
        for command in commands.values():
            wall(command, env, ok_codes)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            time.sleep(settle_s)
            times[name].append(wall(command, env, ok_codes))
    return {name: statistics.median(values) for name, values in times.items()}


def report(label: str, value: float, target: float, unit: str = "x") -> bool:
    ok = value <= target
    shown = f"{value:.2f}{unit}" if unit == "x" else f"{value:.3f} {unit}"
    limit = f"{target:.2f}{unit}" if unit == "x" else f"{target:.3f} {unit}"
    print(f"{label}: {shown} (target <= {limit}) {'PASS' if ok else 'FAIL'}")
    return ok


def _why(result: subprocess.CompletedProcess) -> str:
    """stderr, or for `judge grade --json` the rows the judge failed on."""
    try:
        rows = json.loads(result.stdout)["rows"]
        return "\n".join(json.dumps(r) for r in rows if r["verdict"] == "judge_error")
    except (ValueError, KeyError, TypeError):
        return (result.stderr or result.stdout).decode(errors="replace")[-2000:]
