"""The sandbox's mechanics: outcomes per call, the facts of deaths (and the verdicts made of them), limits, layers."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from judge.runs import decisions as verdicts

from judge.base import encoding as wire
from judge.runs.contract import Kill, Limits, Program, Refusal
from judge.runs.calls import Call
from judge.sandbox import Sandbox
from judge.sandbox import seccomp
from judge.sandbox import namespaces
from judge.sandbox.isolation import LAYERS, disabled_from_env, exposure, probe_all, readable_paths
from judge.base.outcomes import Verdict

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


def _decided(result, limits=Limits(time_s=1.0)):
    """Each outcome's (verdict, message) as judge.runs.decisions decides it; None for an observation."""
    decisions = [verdicts.of_call(o, limits) for o in result.outcomes]
    return [None if d is None else (d.verdict, d.message) for d in decisions]


def _calls(*modes):
    return [Call(args=(mode,)) for mode in modes]


MODES = """
import os, sys, time
import numpy as np
class _Null:  # address 8: a crash through numpy (ctypes ends the run at the audit hook first)
    __array_interface__ = {"shape": (1,), "typestr": "|u1", "data": (8, True), "version": 3}
def f(mode):
    if mode == "ok":
        return {"value": 1.5, "items": [1, 2]}
    if mode == "sleep":
        time.sleep(30)
    if mode == "exit":
        os._exit(0)
    if mode == "segv":
        print(np.asarray(_Null())[0])
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


def test_each_death_is_reported_as_facts_and_later_calls_still_run(sandbox):
    result = _run(sandbox, MODES, _calls("ok", "sleep", "ok", "exit", "ok", "segv", "ok", "raise"))
    deaths = [o.death for o in result.outcomes]
    assert [d is None for d in deaths] == [True, False, True, False, True, False, True, True]
    # a sleeping call uses no CPU time: the judge killed it (SIGKILL) at the wall-clock backstop
    assert (deaths[1].kill, deaths[1].signal) == (Kill.CALL_WALL, 9)
    assert (deaths[3].kill, deaths[3].exit_code, deaths[3].signal) == (None, 0, None)
    assert (deaths[5].kill, deaths[5].exit_code, deaths[5].signal) == (None, None, 11)
    assert all(d.cpu_s > 0 for d in deaths if d is not None)
    decided = _decided(result)
    assert [d and d[0] for d in decided] == [None, Verdict.TIME_LIMIT_EXCEEDED, None, Verdict.RUNTIME_ERROR, None,
                                             Verdict.RUNTIME_ERROR, None, None]
    assert "ran 4 s by the wall clock (4 x its time limit) and used only 0.0" in decided[1][1]
    # the time the judge measured until it stopped the call (the child sleeps 30 s; its own clock is not asked)
    assert 4000 <= result.outcomes[1].time_ms < 30000
    assert "sys.exit() or os._exit()" in decided[3][1]
    assert "SIGSEGV" in decided[5][1]
    assert result.outcomes[7].observation.error.headline() == "ValueError: bad input"
    assert result.outcomes[0].observation.value == {"value": 1.5, "items": [1, 2]}
    assert result.workers == 4  # a fresh worker after each death


BUSY = """
import time
def f(seconds):
    end = time.process_time() + seconds  # this thread's own CPU time, whatever the machine is doing
    n = 0
    while time.process_time() < end:
        n += 1
    return n > 0
"""


def test_a_call_is_limited_by_its_cpu_time_and_says_so(sandbox):
    result = _run(sandbox, BUSY, _calls(5.0), time_s=0.5)
    death = result.outcomes[0].death
    assert death.kill is Kill.CALL_TIME
    assert result.outcomes[0].cpu_ms >= 500
    assert _decided(result, Limits(time_s=0.5))[0] == (
        Verdict.TIME_LIMIT_EXCEEDED, "this test took longer than the time limit of 0.5 s of CPU time")


def _hogs(count: int, seconds: float) -> list[subprocess.Popen]:
    """`count` processes that keep a core busy for at most `seconds` (bounded: they end by themselves). Each
    is a session of its own, as the worker is: where the kernel shares the cores among sessions
    (sched_autogroup), hogs in one session would take no more than the worker's own session gets."""
    code = f"import time\nend = time.time() + {seconds}\nwhile time.time() < end:\n    pass\n"
    return [subprocess.Popen([sys.executable, "-c", code], start_new_session=True) for _ in range(count)]


def test_a_busy_machine_does_not_refuse_a_call_within_its_cpu_time(sandbox):
    """Four processes keep the cores busy: a call that needs 0.6 s of CPU time under a 1 s limit takes longer
    than 1 s by the wall clock, and is still within its limit (a wall-clock limit refused it)."""
    hogs = _hogs(max(4, 2 * (os.cpu_count() or 1)), 30.0)
    try:
        time.sleep(0.3)
        result = _run(sandbox, BUSY, _calls(0.6, 0.6, 0.6), time_s=1.0)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert [o.death for o in result.outcomes] == [None, None, None]
    assert all(o.observation.value is True for o in result.outcomes)
    assert max(o.time_ms for o in result.outcomes) > 1000  # the wall clock alone would have ended one
    assert all(550 <= o.cpu_ms < 1000 for o in result.outcomes)


def test_output_flood_is_cut_and_reported(sandbox):
    result = _run(sandbox, MODES, _calls("flood", "ok"), output_bytes=64 * 1024)
    assert result.outcomes[0].death.kill is Kill.OUTPUT_FLOOD
    assert _decided(result, Limits(time_s=1.0, output_bytes=64 * 1024))[0] == (
        Verdict.OUTPUT_LIMIT_EXCEEDED, "printed more than 64 KiB to stdout/stderr")
    assert result.outcomes[1].observation is not None
    assert result.output_bytes > 64 * 1024
    assert len(result.output) < 20 * 1024  # only the head is kept


def test_a_flood_is_charged_to_its_call_never_to_loading(sandbox):
    """The next worker starts over the output budget: its first call's output is that call's flood, not
    a load failure (it once was when the pipe was read before the waiting LOADED frame: the whole report
    then said the file failed to load)."""
    source = "def f(x):\n    while True:\n        print('x' * 4096)\n"  # loads at once: LOADED right after READY
    for _ in range(5):  # the order of the pipe and the frames is a race: one run could pass by chance
        result = _run(sandbox, source, _calls(1, 2))
        assert result.load_error is None
        assert [o.death.kill for o in result.outcomes] == [Kill.OUTPUT_FLOOD, Kill.OUTPUT_FLOOD]


def test_a_submission_that_hangs_everywhere_stops_at_the_budget(sandbox):
    result = _run(sandbox, MODES, _calls(*["sleep"] * 6), total_time_s=2.5)
    assert result.outcomes[0].death.kill is Kill.CALL_WALL and result.outcomes[-1].skipped
    decided = _decided(result, Limits(time_s=1.0, total_time_s=2.5))
    assert all(verdict is Verdict.TIME_LIMIT_EXCEEDED for verdict, _ in decided)
    assert decided[-1][1] == "not run: earlier tests used up this submission's time budget of 2.5 s"
    assert result.workers <= 4


@pytest.mark.parametrize("source, verdict, words", [
    ("def f(:\n    pass\n", Verdict.COMPILE_ERROR, "invalid syntax"),
    ("def g(x):\n    return x\n", Verdict.COMPILE_ERROR, "does not define a function named `f`; it defines g"),
    ("f = 3\n", Verdict.COMPILE_ERROR, "is an int, not a function"),
    ("raise RuntimeError('at import')\nf = len\n", Verdict.RUNTIME_ERROR, "at import"),
])
def test_load_errors(sandbox, source, verdict, words):
    result = _run(sandbox, source)
    assert result.load_error is not None and result.load_error.death is None
    decision = verdicts.of_load(result.load_error, Limits(time_s=1.0))
    assert decision.verdict is verdict
    assert words in decision.message


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
    assert result.isolation.failed == () and result.isolation.exposure == ""
    assert result.isolation.active == tuple(layer.name for layer in LAYERS)


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
    assert result.outcomes[1].observation is None
    assert (result.outcomes[1].refusal, result.outcomes[1].items_allowed) == (Refusal.TOO_MANY_ITEMS, 50)
    decision = verdicts.of_call(result.outcomes[1], Limits(time_s=1.0))
    assert decision.verdict is Verdict.WRONG_ANSWER and "cannot match" in decision.message


def test_the_harness_says_why_it_refused_a_value(sandbox):
    """Too large is output_limit_exceeded, not returnable is wrong_answer: decided from the refusal, not its text."""
    source = ("import numpy as np\n"
              "def f(mode):\n"
              "    return np.zeros(1 << 20) if mode == 'big' else object() if mode == 'odd' else 1\n")
    limits = Limits(time_s=1.0, result_bytes=1 << 20)
    result = sandbox.run(Program(source, "solution.py", "f"), _calls("big", "odd", "ok"), limits)
    big, odd, ok = result.outcomes
    assert (big.refusal, big.observation.error.where) == (Refusal.TOO_LARGE, "return")
    assert (odd.refusal, odd.observation.error.where) == (Refusal.NOT_RETURNABLE, "return")
    assert (ok.refusal, ok.observation.value) == (None, 1)
    decided = [verdicts.of_error(o.observation.error, o.refusal, error_expected=False).verdict for o in (big, odd)]
    assert decided == [Verdict.OUTPUT_LIMIT_EXCEEDED, Verdict.WRONG_ANSWER]


def test_a_refusal_cannot_be_claimed_for_a_value(sandbox):
    """A forged RESULT that calls a plain value refused breaks the protocol: the fact is not the child's to invent."""
    source = ("import os, stat, struct\n"
              "from judge.base import encoding as wire\n"
              "def f(mode):\n"
              "    body = wire.encode({'value': 1, 'error': None, 'time_ms': 0.0, 'grads': None,\n"
              "                        'inputs_after': None, 'grad_error': None}, 1 << 20)\n"
              "    payload = b'{\"index\": 0, \"refusal\": \"too_large\"}\\n' + body\n"
              "    fd = next(fd for fd in range(3, 64) if os.path.exists(f'/proc/self/fd/{fd}')\n"
              "              and stat.S_ISSOCK(os.fstat(fd).st_mode))\n"
              "    os.write(fd, b'O' + struct.pack('<Q', len(payload)) + payload)\n"
              "    return 2\n")
    result = sandbox.run(Program(source, "solution.py", "f"), _calls("forge"), Limits(time_s=1.0))
    death = result.outcomes[0].death
    assert death.kill is Kill.MALFORMED_FRAME and "refused value" in death.detail
    assert verdicts.of_call(result.outcomes[0], Limits(time_s=1.0)).verdict is Verdict.SECURITY_VIOLATION


def test_a_slow_call_is_not_kept_alive_by_frames_and_times_are_the_judges(sandbox):
    """A thread re-sending READY while the call sleeps breaks the protocol at once (class 4)."""
    source = ("import os, stat, struct, threading, time\n"
              "def f(mode):\n"
              "    if mode == 'keepalive':\n"
              "        for fd in range(3, 64):  # every socket: the result channel is one of them\n"
              "            if os.path.exists(f'/proc/self/fd/{fd}') and stat.S_ISSOCK(os.fstat(fd).st_mode):\n"
              "                os.write(fd, b'R' + struct.pack('<Q', 2) + b'{}')\n"
              "        time.sleep(3)\n"
              "    time.sleep(0.2)\n"
              "    return 1\n")
    result = sandbox.run(Program(source, "solution.py", "f"), [Call(args=("slow",)), Call(args=("keepalive",))],
                         Limits(time_s=1.0))
    assert 150 <= result.outcomes[0].time_ms < 1000
    assert result.outcomes[1].death.kill is Kill.MALFORMED_FRAME
    assert "READY" in result.outcomes[1].death.detail
    assert verdicts.of_call(result.outcomes[1], Limits(time_s=1.0)).verdict is Verdict.SECURITY_VIOLATION

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


def test_weaker_isolation_says_only_what_is_really_lost():
    no_namespaces = [f"{name}: refused" for name in ("user namespace", "pid namespace", "network namespace",
                                                     "ipc namespace", "mount namespace", "scratch size limit")]
    line = exposure(no_namespaces)
    assert line.count("\n") == 0 and "mount namespace" in line
    assert "could fill the disk;" in line  # seccomp and Landlock still stop sockets, IPC and reads
    assert "read and write any file" in exposure(["landlock: off", "mount namespace: off"])


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None  # gone while we looked


def _processes_under(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            children.setdefault(_parent(int(entry)), []).append(int(entry))
    found, todo = [], list(children.get(pid, []))
    while todo:
        found.append(todo.pop())
        todo.extend(children.get(found[-1], []))
    return found


def _foreign_pidfds(pids: list[int]) -> list[str]:
    """Pidfds these processes hold on processes other than their own children (a monitor watches
    its worker through one)."""
    held = []
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") != "anon_inode:[pidfd]":
                    continue
                info = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/fdinfo/{fd}").read_text().splitlines())
                target = int(info["Pid"])  # -1 once that process has ended: a handle on nothing
                if target > 0 and _parent(target) != pid:
                    held.append(f"{pid} holds a pidfd on {target}")
        except OSError:
            continue  # a process that ended meanwhile
    return held


def test_runs_forked_ahead_or_while_another_runs_hold_no_handle_on_other_runs():
    """The zygote keeps a pidfd on the monitor of the run it handed over last; a run forked ahead,
    or forked at once because another still runs (a batch's threads), must not inherit it."""
    with Sandbox(preload=("numpy",)) as box:
        assert _run(box, MODES, _calls("ok")).outcomes[0].observation is not None  # the server is up
        slow = threading.Thread(target=_run, args=(box, MODES, _calls("sleep")), kwargs={"time_s": 3.0})
        slow.start()
        try:
            # The slow run took the run forked ahead; this one is forked while it runs.
            result = _run(box, MODES.replace('if mode == "ok":', 'if mode == "ok":\n        time.sleep(1)'),
                          _calls("ok"), time_s=3.0)
            assert result.outcomes[0].observation is not None
            zygote = box._process.pid
            processes = _processes_under(zygote)
            assert processes  # the slow run, at least
            assert _foreign_pidfds(processes) == []
        finally:
            slow.join()


def test_the_fork_server_is_single_threaded_after_its_warm_up(sandbox):
    """It ran torch once (forward, backward, to numpy) before READY: no thread may exist at a fork
    (a child of a multi-threaded process can hang in a lock another thread held)."""
    assert _run(sandbox, MODES, _calls("ok")).outcomes[0].observation is not None  # READY was said
    assert len(os.listdir(f"/proc/{sandbox._process.pid}/task")) == 1


# ---------------------------------------------------------------- runs kept ready (issue 26)

DOUBLE = "def f(x):\n    return x * 2\n"


def _ready_runs(box, count: int = 1, timeout_s: float = 20.0) -> list:
    """The runs the sandbox keeps ready, once `count` are (they are made in its preparing thread)."""
    deadline = time.monotonic() + timeout_s
    while len(box._ready_runs) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return list(box._ready_runs)


def _arange_calls(n: int = 4) -> list[Call]:
    return [Call(args=(wire.roundtrip(np.arange(3.0) + 10 * i),)) for i in range(n)]


def test_a_run_kept_ready_serves_the_same_calls_in_another_order():
    """The next run on the same calls takes the worker that was sent them ahead, and each result is
    still its own call's, in the order this run drew, with every layer the worker reported."""
    calls = _arange_calls()
    with Sandbox(preload=("numpy",), ahead=True) as box:
        first = box.run(Program(DOUBLE, "solution.py", "f"), calls, Limits(time_s=1.0))
        ready = _ready_runs(box)
        assert len(ready) == 1
        time.sleep(0.3)  # its monitor has said which process the worker is: a record that says it lives
        discarded = []
        ready[0].discard = lambda: discarded.append(True)
        shuffled = [calls[2], calls[0], calls[3], calls[1]]
        result = box.run(Program(DOUBLE, "solution.py", "f"), shuffled, Limits(time_s=1.0))
        assert ready[0] not in box._ready_runs  # taken (a new one is being made for the run after)...
        assert not discarded  # ...and used, not let go for a fresh one
        assert [o.observation.value.data.tolist() for o in result.outcomes] == \
            [(2 * c.args[0].data).tolist() for c in shuffled]
        assert result.workers == 1
        assert result.isolation.active == first.isolation.active and not result.isolation.failed


def test_a_run_kept_ready_is_not_taken_for_other_limits_or_calls():
    calls = _arange_calls()
    with Sandbox(preload=("numpy",), ahead=True) as box:
        box.run(Program(DOUBLE, "solution.py", "f"), calls, Limits(time_s=1.0))
        ready = _ready_runs(box)
        other_limits = box.run(Program(DOUBLE, "solution.py", "f"), calls, Limits(time_s=1.5))
        other_calls = box.run(Program(DOUBLE, "solution.py", "f"), _arange_calls(), Limits(time_s=1.0))
        assert ready[0] in box._ready_runs  # still waiting for a run like the first
        for result in (other_limits, other_calls):
            assert [o.observation.value.data.tolist() for o in result.outcomes] == \
                [(2 * np.arange(3.0) + 20 * i).tolist() for i in range(4)]


def test_a_run_kept_ready_that_died_is_replaced_by_a_fresh_one():
    calls = _arange_calls()
    with Sandbox(preload=("numpy",), ahead=True) as box:
        box.run(Program(DOUBLE, "solution.py", "f"), calls, Limits(time_s=1.0))
        assert _ready_runs(box)
        held = _processes_under(box._process.pid)  # the ready run's monitor and worker
        for pid in held:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while any(_exists(pid) for pid in held) and time.monotonic() < deadline:
            time.sleep(0.02)
        result = box.run(Program(DOUBLE, "solution.py", "f"), calls, Limits(time_s=1.0))
        assert result.load_error is None
        assert [o.observation.value.data.tolist() for o in result.outcomes] == \
            [(2 * np.arange(3.0) + 20 * i).tolist() for i in range(4)]


def test_closing_the_sandbox_ends_the_runs_it_kept_ready():
    with Sandbox(preload=("numpy",), ahead=True) as box:
        box.run(Program(DOUBLE, "solution.py", "f"), _arange_calls(), Limits(time_s=1.0))
        assert _ready_runs(box)
        zygote = box._process.pid
        held = _processes_under(zygote)
        assert held
    deadline = time.monotonic() + 10
    while any(_exists(pid) for pid in held) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in held if _exists(pid)]


def _exists(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_large_last_result_is_read_even_when_the_exit_record_comes_first(sandbox):
    """A channel holds megabytes: a worker can write its last result (here 4.8 MB), DONE, and be
    gone, its exit reported, before the judge has read the result. It must still count (it read
    as 'exited before returning a result' when the pump stopped at the exit record). The judge is
    held up after the first result, as a busy judge is, so the worker is gone before it reads on."""
    source = "import numpy as np\ndef f(n):\n    return np.zeros((n, 6))\n"
    calls = [Call(args=(1,)), Call(args=(100_000,))]

    def busy(_result, done):
        if done == 1:
            time.sleep(0.5)

    result = sandbox.run(Program(source, "solution.py", "f"), calls, Limits(time_s=2.0), on_progress=busy)
    assert [o.death for o in result.outcomes] == [None, None]
    assert result.outcomes[1].observation.value.data.shape == (100_000, 6)


def test_the_child_says_what_it_saw_of_tampering_and_nothing_for_honest_code(sandbox):
    """A trace function and a torch mode left set, a name of the judge's module rebound: each said once,
    as a claim in the run's tampering list; printing tensors, type hints and vmap say nothing."""
    import torch

    from judge.base import encoding as wire

    x = wire.roundtrip(torch.arange(4.0))
    reaching = ("import sys\nfrom torch.overrides import TorchFunctionMode\n"
                "sys.modules['judge.runs.calls'].describe_error = sys.modules['judge.runs.calls'].describe_error\n"
                "sys.modules['judge.base.encoding'].revive = lambda value: value\n"
                "def f(x):\n    sys.settrace(lambda *a: None)\n    TorchFunctionMode().__enter__()\n    return x * 2\n")
    honest = ("import torch\nfrom typing import Tuple\nprint(torch.ones(2), f'{torch.zeros(1)}')\n"
              "def f(x: torch.Tensor) -> torch.Tensor:\n"
              "    return torch.func.vmap(lambda r: r * 2)(x.reshape(2, 2)).reshape(-1)\n")
    seen = sandbox.run(Program(reaching, "f.py", "f", framework="torch"), [Call(args=(x,))] * 3, Limits()).tampering
    assert len(seen) == 3, seen
    assert any("trace" in s for s in seen) and any("mode" in s for s in seen)
    assert any("judge.base.encoding" in s and "revive" in s for s in seen)
    assert sandbox.run(Program(honest, "f.py", "f", framework="torch"), [Call(args=(x,))] * 3, Limits()).tampering == []


def test_torch_features_run_in_the_child_as_they_do_outside(sandbox):
    """torch.jit.trace, checkpoint, an optimiser step (they import torch._dynamo), torch.library, vmap,
    assert_close and torch.compile (run as written: compiling would start compiler processes) all run."""
    source = ("import torch\nfrom torch.utils.checkpoint import checkpoint\n"
              "class M(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n"
              "traced = torch.jit.trace(M(), torch.ones(3))\n"
              "library = torch.library.Library('learner_ops', 'DEF')\n"
              "compiled = torch.compile(lambda x: x * 2)\n"
              "def f(x):\n"
              "    p = torch.nn.Parameter(torch.ones(1))\n    opt = torch.optim.SGD([p], lr=0.1)\n"
              "    (p * 2).sum().backward()\n    opt.step()\n"
              "    torch.testing.assert_close(traced(x), compiled(x))\n"
              "    y = torch.func.vmap(lambda r: r * 2)(x)\n"
              "    return checkpoint(lambda v: v * 2, y, use_reentrant=False).sum().item()\n")
    x = wire.roundtrip(__import__("torch").ones(3))
    result = sandbox.run(Program(source, "solution.py", "f", framework="torch"), [Call(args=(x,))],
                         Limits(time_s=10.0))
    outcome = result.outcomes[0]
    assert outcome.observation is not None and outcome.observation.error is None, outcome
    assert outcome.observation.value == 12.0
