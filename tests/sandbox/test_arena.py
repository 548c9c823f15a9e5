"""The arguments' arena: the judge reads what a call left of its arguments in memory it owns."""
from __future__ import annotations

import mmap
import os

import numpy as np
import pytest
import torch

from judge.base import encoding as wire
from judge.runs.contract import Limits, Program
from judge.runs.calls import UNCHANGED, WRITTEN, Call, Observation
from judge.sandbox.arena import ALIGN, Arena, Mapped, layout
from judge.sandbox.runner import Sandbox


def plain(value):
    return wire.roundtrip(value)


def child_side(arena: Arena, calls: list[Call]) -> Mapped:
    """The worker's mapping of the same arena (a duplicate descriptor, as SCM_RIGHTS hands over)."""
    return Mapped(os.dup(arena.fd), calls)


def test_every_array_argument_has_an_aligned_slot_of_its_own_in_every_call() -> None:
    image = plain(torch.arange(6.0).reshape(2, 3))
    calls = [Call(args=(image, 3, plain({"w": torch.ones(5), "k": 2}))), Call(args=(image,))]
    plans, size = layout(calls)
    slots = [s for plan in plans for s in plan.slots]
    assert [(s.arg, s.key) for s in slots] == [(0, None), (2, "w"), (0, None)]
    assert all(s.offset % ALIGN == 0 for s in slots)
    assert len({s.offset for s in slots}) == 3 and size >= slots[-1].offset + slots[-1].nbytes
    assert [p.arguments for p in plans] == [3, 1]


def test_the_calls_receive_views_on_the_arena_and_the_judge_reads_what_they_did() -> None:
    x, params = plain(torch.arange(4.0)), plain({"w": torch.ones(2), "b": np.zeros(3)})
    calls = [Call(args=(x, params))]
    arena = Arena(calls)
    try:
        args = child_side(arena, calls).arguments(0, calls[0].args)
        assert isinstance(args[0], torch.Tensor) and isinstance(args[1]["b"], np.ndarray)
        args[0].mul_(3)
        args[1]["b"][1] = 7.0
        # The child claims nothing changed; the judge's own reading says otherwise.
        claimed = Observation(value=1.0, inputs_after=(UNCHANGED, UNCHANGED))
        after = arena.measured(0, claimed).inputs_after
        assert after[0].data.tolist() == [0.0, 3.0, 6.0, 9.0]
        assert after[1]["b"].data.tolist() == [0.0, 7.0, 0.0] and after[1]["w"] == UNCHANGED
    finally:
        arena.close()


def test_what_memory_cannot_show_stays_as_the_child_said_it() -> None:
    """A transpose in place changes no byte: the child's account of the new shape stands; an in-place write
    of equal values (WRITTEN) too; a missing account is rebuilt from the arena alone."""
    x = plain(torch.arange(4.0).reshape(2, 2))
    calls = [Call(args=(x,))]
    arena = Arena(calls)
    try:
        transposed = plain(torch.arange(4.0).reshape(2, 2).t())
        assert arena.measured(0, Observation(inputs_after=(transposed,))).inputs_after == (transposed,)
        assert arena.measured(0, Observation(inputs_after=(WRITTEN,))).inputs_after == (WRITTEN,)
        assert arena.measured(0, Observation(inputs_after=None)).inputs_after == (UNCHANGED,)
        child_side(arena, calls).arguments(0, calls[0].args)[0].zero_()
        assert arena.measured(0, Observation(inputs_after=None)).inputs_after[0].data.tolist() == [[0, 0], [0, 0]]
    finally:
        arena.close()


def test_bfloat16_arguments_are_views_too() -> None:
    sent = torch.tensor([1.5, -2.0, 3.25], dtype=torch.bfloat16)
    calls = [Call(args=(plain(sent),))]
    arena = Arena(calls)
    try:
        view = child_side(arena, calls).arguments(0, calls[0].args)[0]
        assert view.dtype == torch.bfloat16 and torch.equal(view, sent)
        view.add_(1)
        after = arena.measured(0, Observation(inputs_after=(UNCHANGED,))).inputs_after[0]
        assert after.dtype == "bfloat16" and after.data.tolist() == [2.5, -1.0, 4.25]
    finally:
        arena.close()


def test_a_child_cannot_resize_the_arena_under_the_judge() -> None:
    arena = Arena([Call(args=(plain(torch.ones(1000)),))])
    try:
        fd = os.dup(arena.fd)
        for size in (0, arena.size * 4):
            with pytest.raises(PermissionError):
                os.ftruncate(fd, size)
        os.close(fd)
        with pytest.raises(TypeError):  # the judge's own view is read-only
            arena._view[0] = 1
    finally:
        arena.close()


def test_a_submission_that_hides_its_mutation_from_its_own_report_is_seen_in_the_arena() -> None:
    """Through the sandbox: the submission makes the child's account of its arguments say UNCHANGED."""
    source = ("import sys\n"
              "sys.modules['judge.runs.calls']._inputs_after = lambda args, sent, versions: tuple('=' for _ in args)\n"
              "def f(x):\n    x.mul_(2)\n    return x.sum()\n")
    x = plain(torch.arange(4.0))
    with Sandbox(preload=("numpy", "torch")) as sandbox:
        result = sandbox.run(Program(source, "f.py", "f", framework="torch"), [Call(args=(x,))] * 2, Limits())
    for outcome in result.outcomes:
        assert outcome.observation.inputs_after[0].data.tolist() == [0.0, 2.0, 4.0, 6.0]


def test_the_arena_is_mapped_shared_not_copied_into_the_child() -> None:
    """The same pages: a write through the child's view is in the judge's mapping at once."""
    calls = [Call(args=(plain(np.zeros(8)),))]
    arena = Arena(calls)
    try:
        view = child_side(arena, calls).arguments(0, calls[0].args)[0]
        view[3] = 1.0
        slot = arena.plans[0].slots[0]
        assert arena.changed(slot).tolist() == [0, 0, 0, 1.0, 0, 0, 0, 0]
        assert mmap.PAGESIZE > 0
    finally:
        arena.close()


def test_a_change_after_the_call_is_seen_when_the_judge_looks_again() -> None:
    """A kept argument changed later (in the next call, after the last result) is that call's change: `moved`
    names the measured calls whose bytes changed since the judge read them, and measuring again keeps every
    change seen, even one undone since. Nothing new: no call named, and the same observation back."""
    x, params = plain(torch.arange(4.0)), plain({"w": torch.ones(2)})
    calls = [Call(args=(x, params)), Call(args=(x, params))]
    arena = Arena(calls)
    try:
        child = child_side(arena, calls)
        kept = child.arguments(0, calls[0].args)
        measured = arena.measured(0, Observation(value=1.0, inputs_after=(UNCHANGED, UNCHANGED)))
        assert arena.moved() == [] and arena.measured(0, measured) is measured
        kept[0].zero_()                                    # during the next call
        kept[1]["w"].mul_(3)
        child.arguments(1, calls[1].args)[0].add_(1)       # the next call's own argument: its own result says it
        assert arena.moved() == [0]
        again = arena.measured(0, measured)
        assert again.inputs_after[0].data.tolist() == [0.0, 0.0, 0.0, 0.0]
        assert again.inputs_after[1]["w"].data.tolist() == [3.0, 3.0]
        assert arena.moved() == []                         # read: nothing new since
        kept[0].copy_(torch.arange(4.0))                   # undone: the caller's data was changed all the same
        kept[1]["w"].fill_(1.0)
        assert arena.moved() == [0] and arena.measured(0, again) is again
        assert arena.moved() == []
    finally:
        arena.close()


def test_the_arena_is_sealed_against_writing_only_once_no_process_maps_it_writable() -> None:
    """The judge's last look comes after the seal: refused while the worker's mapping is there (whatever
    views of it the submission holds), granted once it is gone; a write after it is refused by the kernel."""
    calls = [Call(args=(plain(np.zeros(8)),))]
    arena = Arena(calls)
    try:
        child = child_side(arena, calls)
        assert not arena.unwritable()
        child._memory.close()
        assert arena.unwritable() and arena.unwritable()  # granted, and it stays so
        with pytest.raises(PermissionError):
            os.pwrite(arena.fd, b"\1", 0)
    finally:
        arena.close()


@pytest.mark.parametrize("when", ["next call", "after the last result", "as it exits"])
def test_an_argument_kept_and_changed_later_is_read_in_the_arena_until_the_worker_ends(when) -> None:
    """Through the sandbox: a submission keeps its arguments and zeroes them later, in the next call, in the
    flush after DONE, or in a rebound os._exit after its channel closed. The runner reads every call's
    arguments again on each later result and once the worker has ended."""
    # Each waits 50 ms first: the judge has read every result sent before then (a judge that read a call's
    # arguments only when its result arrived would see nothing).
    zero = "    time.sleep(0.05)\n    for k in kept:\n        k[:] = 0\n"
    hooks = {
        "next call": "",
        "after the last result": ("import sys\nclass Out:\n    def __init__(self, s):\n        self.s, self.calls = s, 0\n"
                                  "    def write(self, t):\n        return self.s.write(t)\n"
                                  "    def flush(self):\n        if kept and self.calls == len(kept):\n"
                                  "            zero()\n        self.calls = len(kept)\n        return self.s.flush()\n"
                                  "sys.stdout = Out(sys.stdout)\n"),
        "as it exits": "import os\nexit_ = os._exit\nos._exit = lambda code: (zero(), exit_(code))\n",
    }
    source = ("import time\nkept = []\ndef zero():\n" + zero + hooks[when] +
              "def f(x):\n" + ("    if kept:\n        zero()\n" if when == "next call" else "") +
              "    kept.append(x)\n    return float(x.sum())\n")
    x = plain(np.arange(4.0))
    with Sandbox(preload=("numpy",)) as sandbox:
        result = sandbox.run(Program(source, "f.py", "f", framework="numpy"), [Call(args=(x,))] * 3, Limits())
    after = [outcome.observation.inputs_after[0] for outcome in result.outcomes]
    zeroed = after[:-1] if when == "next call" else after  # the last call has no next call
    assert all(isinstance(a, wire.Array) and a.data.tolist() == [0.0] * 4 for a in zeroed), after
    assert [o.observation.value for o in result.outcomes] == [6.0, 6.0, 6.0]
