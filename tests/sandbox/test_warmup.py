"""The warm-up before a submission: it leaves nothing a submission could tell from a worker without it."""
from __future__ import annotations

import os
import random

import numpy as np
import torch

from judge.base import encoding as wire
from judge.runs.calls import Call
from judge.sandbox import warmup
from judge.sandbox.arena import Arena, Mapped


def _calls() -> list[Call]:
    images = wire.roundtrip(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8))
    params = wire.roundtrip({"w": torch.ones(4, requires_grad=False), "b": np.zeros(3)})
    return [Call(args=(images, 4, 4)), Call(args=(images,), grad_wrt=(0,)), Call(args=(params, 2.0)),
            Call(args=(wire.roundtrip(np.arange(1 << 19, dtype=np.float32)),))]  # 2 MiB: over the warm-up's size


def test_the_warm_up_leaves_every_argument_in_the_arena_as_sent() -> None:
    calls = _calls()
    arena = Arena(calls)
    try:
        warmup.in_worker(calls, Mapped(os.dup(arena.fd), calls).arguments, 1 << 24)
        slots = [(number, slot) for number, plan in enumerate(arena.plans) for slot in plan.slots]
        assert len(slots) == 5
        assert all(arena.changed(slot) is None for _, slot in slots)
    finally:
        arena.close()


def test_the_warm_up_draws_no_random_number_and_changes_no_torch_setting() -> None:
    calls = _calls()
    arena = Arena(calls)
    torch_state, numpy_state, python_state = torch.get_rng_state(), np.random.get_state(), random.getstate()
    settings = (torch.get_num_threads(), torch.get_default_dtype(), torch.is_grad_enabled())
    try:
        warmup.in_worker(calls, Mapped(os.dup(arena.fd), calls).arguments, 1 << 24)
    finally:
        arena.close()
    assert torch.equal(torch.get_rng_state(), torch_state)
    after = np.random.get_state()
    assert after[0] == numpy_state[0] and np.array_equal(after[1], numpy_state[1]) and after[2:] == numpy_state[2:]
    assert random.getstate() == python_state
    assert (torch.get_num_threads(), torch.get_default_dtype(), torch.is_grad_enabled()) == settings


def test_the_course_operators_run_forward_and_backward() -> None:
    # What the zygote runs once: every operator it warms is really reached, gradients included.
    images = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8).requires_grad_()
    out = warmup.course_operators(images)
    assert out["tokens"].shape == (2, 5, 48) and out["positions"].tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]
    (out["tokens"].sum() + out["loss"]).backward()
    assert images.grad is not None and torch.isfinite(images.grad).all()
