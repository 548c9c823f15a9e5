"""`judge grade patchify DIR` on 50 submissions: at most 50 ms a submission amortised.

Three parts, measured in one run:

1. End to end: `judge grade patchify DIR --json` on 50 files (the repository's
   accepted and wrong-answer patchify submissions, cycled) against `python -c
   "import torch"`, which the command pays once; the amortised time per
   submission is (grade - import torch) / 50. Each submission still gets its
   own sandboxed child with every layer: nothing is shared between them.
2. Where one submission's time goes, in-process and one at a time: the judge's
   own work per stage (exclusive times: a stage's time excludes the stages it
   calls) and the child's timeline as the judge sees its frames arrive.
3. The floor: a fork of a warm process holding torch and the function, which
   runs the 28 calls and encodes their results, then exits; no isolation, no
   judging. The amortised time is also given as a ratio to it.

Usage: python benchmarks/grade_batch.py   (BENCH_RUNS=N end-to-end runs, default 5; BENCH_SKIP_CLI=1
skips part 1)
"""
from __future__ import annotations

import itertools
import os
import shutil
import statistics
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from _timing import REPO, isolated_env, judge_command, medians, python, report, scratch

COUNT = 50
TARGET_MS = 50.0
PROBLEM = "patchify"


def classroom() -> Path:
    sources = sorted((REPO / "submissions" / PROBLEM / "accepted").glob("*.py")) + \
        sorted((REPO / "submissions" / PROBLEM / "wrong_answer").glob("*.py"))
    directory = scratch("judge-bench-class-")
    for i, source in zip(range(COUNT), itertools.cycle(sources)):
        shutil.copy(source, directory / f"student_{i:02d}_{source.name}")
    return directory


# ---------------------------------------------------------------- part 2: the breakdown

class StageClock:
    """Exclusive times per stage of the judge's thread, in CPU (`thread_time`, what the stage costs
    whatever the load) and wall seconds: entering a stage pauses the one it is in."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()  # stages entered from other threads (the sandbox's preparing one) are not timed
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self.stack: list[list] = []  # [stage, cpu started, wall started]

    def wrap(self, owner, name: str, stage: str) -> None:
        original = getattr(owner, name)
        clock = self

        def timed(*args, **kwargs):
            if threading.get_ident() != clock.thread:
                return original(*args, **kwargs)
            clock.enter(stage)
            try:
                return original(*args, **kwargs)
            finally:
                clock.leave()

        setattr(owner, name, timed)

    def clear(self) -> None:
        self.cpu.clear()
        self.wall.clear()

    def enter(self, stage: str) -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        if self.stack:
            top = self.stack[-1]
            self.cpu[top[0]] += cpu - top[1]
            self.wall[top[0]] += wall - top[2]
        self.stack.append([stage, cpu, wall])

    def leave(self) -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        stage, cpu_started, wall_started = self.stack.pop()
        self.cpu[stage] += cpu - cpu_started
        self.wall[stage] += wall - wall_started
        if self.stack:
            self.stack[-1][1], self.stack[-1][2] = cpu, wall


RECORDING = "recording: the attempt in SQLite (judge run; judge grade records nothing)"
TOTAL = "= one submission, judge grade's part (its judge thread; wall includes waiting)"
FIRST = "once a batch: prepare, start the fork server, judge the first file"
ORDER = ("spawn", "send", "wait", "results", "verdicts", "diagnosis: generic", "diagnosis: known", "other", "=",
         "child: READY", "child: LOADED", "recording", "once")


def breakdown(directory: Path) -> dict[str, tuple[float, float]]:
    """Median (judge CPU ms, wall ms) per stage over the class's files, judged one at a time in this process."""
    import torch  # noqa: F401 - the judge imports it once for a batch, as batch.py does

    from judge.judging import grading, verdict
    from judge.sandbox import channel, drive, runner
    from judge.judging.session import Judge
    from judge.base.submission import Submission

    clock = StageClock()
    arrivals: list[tuple[bytes, float]] = []
    clock.wrap(runner.Sandbox, "_spawn", "spawn: take a forked-ahead run")
    clock.wrap(drive.Drive, "_send_program", "send: the program and its order of the calls")
    clock.wrap(channel, "wait_readable", "wait: the judge idle, the child working")
    clock.wrap(drive.Drive, "_on_frame", "results: parse and decode frames")
    clock.wrap(grading, "judge_outcomes", "verdicts: checks on every test")
    clock.wrap(verdict, "known_mistake", "diagnosis: known mistakes (traps)")
    on_frame = drive.Drive._on_frame

    def noted(self, kind, payload):
        arrivals.append((kind, time.perf_counter()))
        return on_frame(self, kind, payload)

    drive.Drive._on_frame = noted
    home = scratch("judge-bench-home-")
    os.environ["JUDGE_HOME"] = str(home)  # the recorded attempts go to a private progress database
    stages: dict[str, list[float]] = defaultdict(list)
    files = sorted(directory.glob("*.py"))
    # As `judge grade`: a run is kept ready (its inputs sent and its layers applied in the sandbox's
    # preparing thread, not timed here). Records only where told (record_run below), to a private home.
    with Judge(record=True, ahead=True) as judge:
        begun = time.perf_counter()
        prepared = judge.prepared(PROBLEM)
        prepared.judge(Submission.from_file(files[0]))
        first = time.perf_counter() - begun
        for round_ in range(2):  # the first round warms caches (trap outputs per case): only the second counts
            for path in files:
                clock.clear()
                arrivals.clear()
                started = time.perf_counter()
                cpu = time.thread_time()
                clock.enter("other: reading, shuffling calls, the report")
                submission = Submission.from_file(path)
                report_ = prepared.judge(submission)
                sent = time.perf_counter()
                clock.leave()
                record_started, record_cpu = time.perf_counter(), time.thread_time()
                judge.tutor.record_run(PROBLEM, report_, submission, examples_only=False)
                recorded, recorded_cpu = time.perf_counter() - record_started, time.thread_time() - record_cpu
                if round_ == 0:
                    continue
                for stage in clock.wall:
                    stages[stage].append((clock.cpu[stage] * 1000, clock.wall[stage] * 1000))
                stages[RECORDING].append((recorded_cpu * 1000, recorded * 1000))
                stages[TOTAL].append(((time.thread_time() - cpu) * 1000 - recorded_cpu * 1000,
                                      (sent - started) * 1000))
                for label, ms in _timeline(arrivals).items():
                    stages[label].append((float("nan"), ms))
    shutil.rmtree(home, ignore_errors=True)
    medians_ = {stage: (statistics.median(c for c, _ in values), statistics.median(w for _, w in values))
                for stage, values in stages.items()}
    medians_[FIRST] = (float("nan"), first * 1000)
    return medians_


def _timeline(arrivals: list[tuple[bytes, float]]) -> dict[str, float]:
    """The child's stages as the judge sees them: between frame arrivals."""
    from judge.sandbox import channel

    times = {kind: at for kind, at in reversed(arrivals)}  # the first arrival of each kind
    results = [at for kind, at in arrivals if kind == channel.RESULT]
    if channel.READY not in times or channel.LOADED not in times or not results:
        return {}
    return {"child: READY to LOADED (compile, execute the file)": (times[channel.LOADED] - times[channel.READY]) * 1000,
            "child: LOADED to last RESULT (28 calls, observed, encoded)": (results[-1] - times[channel.LOADED]) * 1000}


# ---------------------------------------------------------------- part 3: the floor

def floor(runs: int = 21) -> tuple[float, float]:
    """Median (child CPU ms, wall ms): fork a process holding torch and the reference, run every call
    and encode its result, exit."""
    import torch  # noqa: F401

    from judge.runs import calls as execute

    from judge.base import encoding as wire
    from judge.judging.session import Judge
    from judge.model.solution import load_function

    with Judge(record=False) as judge:
        prepared = judge.prepared(PROBLEM)
        reference = load_function(prepared.problem.hidden_dir / "reference.py", prepared.problem.entry_point)
        calls = [call for case in prepared.cases for call in case.calls.values()]
    torch.set_num_threads(1)  # as the zygote: a fork after a multi-threaded op hangs in libgomp
    times = []
    for _ in range(runs):
        read, write = os.pipe()
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            for call in calls:
                observation = execute.run_call(reference, call, None)
                os.write(write, len(wire.encode(execute.observation_plain(observation), 1 << 30)).to_bytes(8, "little"))
            os._exit(0)
        os.close(write)
        while os.read(read, 1 << 16):
            pass
        _, _, usage = os.wait4(pid, 0)
        times.append((usage.ru_utime + usage.ru_stime, time.perf_counter() - started))
        os.close(read)
    return statistics.median(c for c, _ in times) * 1000, statistics.median(w for _, w in times) * 1000


# ---------------------------------------------------------------- main

def main() -> int:
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    directory = classroom()
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores shared: wall times vary with it)")
    ok = True
    floor_cpu, floor_wall = floor()
    if not os.environ.get("BENCH_SKIP_CLI"):
        env = isolated_env()
        times = medians({"import torch": python("import torch"),
                         "judge grade": judge_command() + ["grade", PROBLEM, str(directory), "--json"]},
                        env, runs=runs)
        amortised = (times["judge grade"] - times["import torch"]) / COUNT * 1000
        print(f"medians of {runs} runs: import torch {times['import torch']:.3f} s, "
              f"judge grade ({COUNT} files) {times['judge grade']:.3f} s (load {os.getloadavg()[0]:.2f})")
        print(f"amortised: (judge grade - import torch) / {COUNT} = {amortised:.1f} ms a submission, "
              f"{amortised / floor_wall:.2f}x the floor's wall time ({floor_wall:.1f} ms)")
        ok = report("judge grade, ms a submission amortised", amortised, TARGET_MS, unit="ms")
    print(f"\nwhere one submission's time goes (medians over {COUNT} files judged one at a time, in-process;"
          f" judge CPU is the judge thread's, load-independent; wall includes the wait for a core):")
    print(f"  {'CPU ms':>7}  {'wall ms':>7}")
    stages = breakdown(directory)
    for stage in sorted(stages, key=lambda s: next((i for i, p in enumerate(ORDER) if s.startswith(p)), 99)):
        cpu, wall = stages[stage]
        print(f"  {'' if cpu != cpu else f'{cpu:7.1f}':>7}  {wall:7.1f}  {stage}")
    print(f"  {floor_cpu:7.1f}  {floor_wall:7.1f}  floor: fork a warm process holding torch, run the 28 calls, "
          "encode the results (child CPU)")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    shutil.rmtree(directory, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
