"""Memory exhaustion as the run's monitor measures it: the verdict never rests on the exception a child raises."""
from __future__ import annotations

import pytest
import torch

from judge.runs import decisions as verdicts

from judge.base import encoding as wire
from judge.runs.contract import Limits, Program
from judge.runs.calls import Call
from judge.sandbox import memory
from judge.sandbox.isolation import probe_all
from judge.sandbox.runner import Sandbox
from judge.base.outcomes import Verdict

PROGRAMS = {
    # a single request far over the limit (numpy's MemoryError; torch's allocator's RuntimeError)
    "numpy_at_once": ("import numpy as np\ndef f(x):\n    np.empty(1 << 40, dtype=np.uint8)\n", True),
    "torch_at_once": ("import torch\ndef f(x):\n    return torch.empty(1 << 38)\n", True),
    # small steps until the address space is full: the peak is at the limit
    "in_steps": ("import numpy as np\nkeep = []\ndef f(x):\n    for _ in range(4096):\n"
                 "        keep.append(np.ones(1 << 20))\n", True),
    # the exception alone, and the real class at that
    "claimed": ("def f(x):\n    raise MemoryError('out of memory (not really)')\n", False),
    "claimed_by_torch": ("def f(x):\n    raise RuntimeError(\"DefaultCPUAllocator: can't allocate memory\")\n", False),
}


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(preload=("numpy", "torch")) as server:
        yield server


@pytest.fixture(scope="module", autouse=True)
def measured_here():
    status = {s.name: s for s in probe_all()}["memory measurement"]
    if not status.active:
        pytest.skip(f"this machine has no memory measurement: {status.detail}")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_memory_limit_exceeded_is_what_the_monitor_measured(sandbox, name):
    source, exhausted = PROGRAMS[name]
    # The subject is memory, not time: touching 512 MiB page by page took 1.9 s of CPU on a busy CI machine, past
    # the default 2 s a call has, so the call gets room enough to reach its memory limit on any machine.
    limits = Limits(memory_mb=512, time_s=30.0)
    result = sandbox.run(Program(source, "f.py", "f", framework="torch"), [Call(args=(wire.roundtrip(torch.ones(2)),))],
                         limits)
    outcome = result.outcomes[0]
    assert "memory measurement" in result.isolation.active
    assert bool(outcome.out_of_memory) is exhausted, outcome.out_of_memory
    decision = verdicts.of_error(outcome.observation.error, outcome.refusal, error_expected=False,
                                 out_of_memory=outcome.out_of_memory)
    assert decision.verdict is (Verdict.MEMORY_LIMIT_EXCEEDED if exhausted else Verdict.RUNTIME_ERROR)
    if exhausted:
        assert "MiB" in decision.message


def test_a_call_that_recovers_from_a_refused_allocation_is_judged_on_its_value(sandbox):
    """The measurement is a fact about the call; only a call that fails with it is memory_limit_exceeded."""
    source = ("import numpy as np\ndef f(x):\n    try:\n        np.empty(1 << 40, dtype=np.uint8)\n"
              "    except MemoryError:\n        pass\n    return 7\n")
    outcome = sandbox.run(Program(source, "f.py", "f"), [Call(args=(1,))], Limits(memory_mb=512)).outcomes[0]
    assert outcome.observation.value == 7 and outcome.observation.error is None


def test_a_worker_asking_to_be_measured_again_and_again_gets_an_answer_each_time_and_a_bounded_say():
    """Each MEASURE is answered (the worker never waits forever); the records a monitor sends are capped."""
    import os
    import socket

    from judge.sandbox import channel

    measure, worker_end = socket.socketpair()
    ctl, judge_end = socket.socketpair()
    monitor = memory.Monitor(os.getpid(), measure, ctl)
    asks = b"".join(memory.MEASURE + memory.INDEX.pack(i) for i in range(5))
    for piece in (asks[:3], asks[3:12], asks[12:]):  # a stream: a request may come in pieces
        worker_end.sendall(piece)
        monitor.on_readable([measure])
    assert worker_end.recv(16) == memory.ACK * 5
    for _ in range(memory.MAX_RECORDS + 50):
        monitor._tell({"exhausted": True, "detail": "x"})
    ctl.close()
    frames = channel.FrameReader(1 << 16).feed(b"".join(iter(lambda: judge_end.recv(1 << 16), b"")))
    assert len(frames) == memory.MAX_RECORDS and all(kind == channel.MEMORY for kind, _ in frames)
    monitor.close()
    worker_end.close()


def test_each_call_that_runs_out_is_measured_however_late_the_judge_reads(sandbox, monkeypatch):
    """Records and results travel on two channels: a judge that reads them late, and both at once,
    still pairs each call's record with its own result (the record names the call)."""
    import time

    from judge.sandbox import channel

    wait = channel.wait_readable

    def late(*args, **kwargs):
        time.sleep(0.2)  # a loaded machine: everything the worker sent meanwhile is read in one go
        return wait(*args, **kwargs)

    monkeypatch.setattr(channel, "wait_readable", late)
    source = ("import numpy as np\nkeep = []\ndef f(x):\n    if x % 2:\n        return x\n"
              "    np.empty(1 << 40, dtype=np.uint8)\n")
    outcomes = sandbox.run(Program(source, "f.py", "f"), [Call(args=(i,)) for i in range(5)],
                           Limits(memory_mb=512)).outcomes
    assert [bool(o.out_of_memory) for o in outcomes] == [True, False, True, False, True]
    assert [o.observation.value for o in outcomes[1::2]] == [1, 3]


def test_the_filter_sends_only_large_requests_to_the_monitor():
    code = memory.program("x86_64")
    assert len(code) % 8 == 0 and len(code) // 8 < 40
    assert memory.LARGE.to_bytes(4, "little") in code
