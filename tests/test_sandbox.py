"""The sandbox's mechanics: outcomes per call, deaths and their verdicts, limits, layers."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from judge import wire
from judge.execute import Call
from judge.sandbox import Limits, Program, Sandbox
from judge.sandbox import seccomp
from judge.sandbox import namespaces
from judge.sandbox.isolation import LAYERS, disabled_from_env, exposure, probe_all, readable_paths
from judge.verdict import Verdict

# Layers this machine cannot provide (no user namespaces for a normal user, an old kernel...):
# the tests that need every layer skip, naming them; a layer offered but not applied still fails.
MISSING = [f"{s.name} ({s.detail})" for s in probe_all() if not s.active]
NEEDS_ALL = pytest.mark.skipif(bool(MISSING), reason=f"this machine lacks: {'; '.join(MISSING)}")


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(preload=("numpy", "torch")) as box:
        yield box


def _run(sandbox, source, calls=None, **limits):
    calls = calls if calls is not None else [Call(args=(wire.roundtrip(np.arange(3.0)),))]
    return sandbox.run(Program(source, "solution.py", "f"), calls, Limits(**{"time_s": 1.0, **limits}))


def _calls(*modes):
    return [Call(args=(mode,)) for mode in modes]


MODES = """
import os, sys, time, ctypes
def f(mode):
    if mode == "ok":
        return {"value": 1.5, "items": [1, 2]}
    if mode == "sleep":
        time.sleep(30)
    if mode == "exit":
        os._exit(0)
    if mode == "segv":
        ctypes.string_at(0)
    if mode == "flood":
        while True:
            print("x" * 4096)
    if mode == "raise":
        raise ValueError("bad input")
"""


def test_values_come_back_in_order(sandbox):
    result = _run(sandbox, "def f(x):\n    return x * 2\n")
    observation = result.outcomes[0].observation
    assert observation.error is None
    assert observation.value.library == "numpy"
    assert observation.value.data.tolist() == [0.0, 2.0, 4.0]
    assert result.workers == 1


def test_each_death_gets_its_verdict_and_later_calls_still_run(sandbox):
    result = _run(sandbox, MODES, _calls("ok", "sleep", "ok", "exit", "ok", "segv", "ok", "raise"))
    verdicts = [o.verdict for o in result.outcomes]
    assert verdicts == [None, Verdict.TIME_LIMIT_EXCEEDED, None, Verdict.RUNTIME_ERROR, None,
                        Verdict.RUNTIME_ERROR, None, None]
    assert "time limit of 1 s" in result.outcomes[1].message
    # the time the judge measured until it stopped the call (the child sleeps 30 s; its own clock is not asked)
    assert 1000 <= result.outcomes[1].time_ms < 30000
    assert "sys.exit() or os._exit()" in result.outcomes[3].message
    assert "SIGSEGV" in result.outcomes[5].message
    assert result.outcomes[7].observation.error.headline() == "ValueError: bad input"
    assert [o.observation.value for o in result.outcomes if o.verdict is None][0] == {"value": 1.5, "items": [1, 2]}
    assert result.workers == 4  # a fresh worker after each death


def test_output_flood_is_cut_and_reported(sandbox):
    result = _run(sandbox, MODES, _calls("flood", "ok"), output_bytes=64 * 1024)
    assert result.outcomes[0].verdict is Verdict.OUTPUT_LIMIT_EXCEEDED
    assert result.outcomes[1].observation is not None
    assert result.output_bytes > 64 * 1024
    assert len(result.output) < 20 * 1024  # only the head is kept


def test_a_submission_that_hangs_everywhere_stops_at_the_budget(sandbox):
    result = _run(sandbox, MODES, _calls(*["sleep"] * 6), total_time_s=2.5)
    assert all(o.verdict is Verdict.TIME_LIMIT_EXCEEDED for o in result.outcomes)
    assert "not run" in result.outcomes[-1].message
    assert result.workers <= 4


@pytest.mark.parametrize("source, verdict, words", [
    ("def f(:\n    pass\n", Verdict.COMPILE_ERROR, "invalid syntax"),
    ("def g(x):\n    return x\n", Verdict.COMPILE_ERROR, "does not define a function named `f`; it defines g"),
    ("f = 3\n", Verdict.COMPILE_ERROR, "is an int, not a function"),
    ("raise RuntimeError('at import')\nf = len\n", Verdict.RUNTIME_ERROR, "at import"),
])
def test_load_errors(sandbox, source, verdict, words):
    result = _run(sandbox, source)
    assert result.load_error is not None
    assert result.load_error.verdict is verdict
    assert words in result.load_error.message


def test_torch_and_numpy_threads_work_inside(sandbox):
    source = """
import numpy as np, torch
def f(x):
    a = torch.randn(384, 384, dtype=torch.float64)
    b = np.random.default_rng(0).standard_normal((384, 384))
    return [torch.get_num_threads(), float((a @ a.T).diagonal().min() > 0), float((b @ b.T).trace() > 0)]
"""
    result = _run(sandbox, source, threads=2)
    assert result.outcomes[0].observation.value == [2, 1.0, 1.0]


@NEEDS_ALL
def test_every_layer_is_active_here(sandbox):
    result = _run(sandbox, "def f(x):\n    return 1\n")
    assert result.isolation_failed == []
    assert result.isolation_active == [layer.name for layer in LAYERS]


def test_unknown_disabled_layer_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown layer"):
        disabled_from_env({"JUDGE_SANDBOX_DISABLE": "landlock,firewall"})
    assert disabled_from_env({"JUDGE_SANDBOX_DISABLE": "landlock, seccomp"}) == ("landlock", "seccomp")


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_seccomp_program_is_well_formed(machine):
    code = seccomp.program(machine)
    assert len(code) % 8 == 0 and 10 < len(code) // 8 < 4096


@NEEDS_ALL
def test_doctor_lists_every_layer(repo):
    result = subprocess.run([sys.executable, "-m", "judge", "doctor"], capture_output=True, text=True, timeout=120,
                            cwd=repo)
    assert result.returncode == 0, result.stderr
    for layer in LAYERS:
        assert layer.name in result.stdout
    assert "full isolation" in result.stdout


def test_weaker_isolation_is_said_once_and_judging_goes_on(repo):
    env = {**os.environ, "JUDGE_SANDBOX_DISABLE": "landlock,seccomp", "JUDGE_NO_RECORD": "1"}
    result = subprocess.run([sys.executable, "-m", "judge", "run", "patchify",
                             "submissions/patchify/accepted/reshape_permute.py", "--json"],
                            capture_output=True, text=True, timeout=120, cwd=repo, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["verdict"] == "accepted"
    warnings = [line for line in result.stderr.splitlines() if "weaker isolation" in line]
    assert len(warnings) == 1
    assert "landlock" in warnings[0] and "seccomp" in warnings[0]


def test_a_result_with_far_more_items_than_allowed_is_wrong_before_it_is_decoded(sandbox):
    """The judge knows the expected structure: 1,000 items where ~10 are expected cannot match (class 5)."""
    source = "def f(n):\n    return list(range(n))\n"
    result = sandbox.run(Program(source, "solution.py", "f"), [Call(args=(3,)), Call(args=(1000,))],
                         Limits(time_s=1.0), node_limits=[50, 50])
    assert result.outcomes[0].observation.value == [0, 1, 2]
    assert result.outcomes[1].observation is None and result.outcomes[1].verdict is Verdict.WRONG_ANSWER
    assert "cannot match" in result.outcomes[1].message


def test_a_slow_call_is_not_kept_alive_by_frames_and_times_are_the_judges(sandbox):
    """A thread re-sending READY while the call sleeps breaks the protocol at once (class 4)."""
    source = ("import os, stat, struct, threading, time\n"
              "def f(mode):\n"
              "    if mode == 'keepalive':\n"
              "        fd = next(fd for fd in range(3, 64) if os.path.exists(f'/proc/self/fd/{fd}')\n"
              "                  and stat.S_ISSOCK(os.fstat(fd).st_mode))\n"
              "        os.write(fd, b'R' + struct.pack('<Q', 2) + b'{}')\n"
              "        time.sleep(3)\n"
              "    time.sleep(0.2)\n"
              "    return 1\n")
    result = sandbox.run(Program(source, "solution.py", "f"), [Call(args=("slow",)), Call(args=("keepalive",))],
                         Limits(time_s=1.0))
    assert 150 <= result.outcomes[0].time_ms < 1000
    assert result.outcomes[1].verdict is Verdict.SECURITY_VIOLATION

def test_the_child_reads_only_stdlib_site_packages_and_the_judge(tmp_path, monkeypatch):
    """Class 7: a directory on the judge's sys.path ($PYTHONPATH, the cwd under `python -m`) is not readable."""
    import sysconfig

    import judge

    classroom = tmp_path / "class"
    classroom.mkdir()
    monkeypatch.syspath_prepend(str(classroom))
    readable = readable_paths(())
    assert not any(classroom == p or classroom.is_relative_to(p) for p in readable)
    for needed in (sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
                   Path(judge.__file__).resolve().parent):
        assert Path(needed) in readable
    # a tree holding protected data is never readable as a whole
    assert Path(sysconfig.get_paths()["purelib"]) not in readable_paths((Path(sysconfig.get_paths()["purelib"]) / "x",))


def test_covered_directories_are_outermost_and_never_the_system(tmp_path):
    (tmp_path / "set" / "hidden_tests").mkdir(parents=True)
    (tmp_path / "graded").mkdir()
    chosen = namespaces.covered((tmp_path / "set" / "hidden_tests", tmp_path / "set", tmp_path / "graded",
                                 tmp_path / "missing", Path("/"), Path("/usr")))
    assert chosen == [tmp_path / "set", tmp_path / "graded"] or chosen == [tmp_path / "graded", tmp_path / "set"]


def test_weaker_isolation_says_only_what_is_really_lost():
    no_namespaces = [f"{name}: refused" for name in ("user namespace", "pid namespace", "network namespace",
                                                     "ipc namespace", "mount namespace", "scratch size limit")]
    line = exposure(no_namespaces)
    assert line.count("\n") == 0 and "mount namespace" in line
    assert "could fill the disk;" in line  # seccomp and Landlock still stop sockets, IPC and reads
    assert "read and write any file" in exposure(["landlock: off", "mount namespace: off"])
