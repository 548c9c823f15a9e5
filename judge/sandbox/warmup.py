"""The judge's own code run ahead of a submission, so that its first calls do not pay for first use.

Two kinds of first use cost a submission time that is not its own:

- lazy set-up, once per process tree: torch builds an operator's dispatch entry, a first backward
  pass, a first conversion to numpy on first use. The zygote does it once, before it forks
  (`in_zygote`), so every worker inherits it;
- first writes, once per worker: a worker is a fork of the zygote, so every page that the judge's
  code or torch writes in the first calls is first copied, and every buffer over malloc's mmap
  threshold (128 KiB at first) is fresh memory, mapped and faulted in page by page, then unmapped
  again (a patchify call of 4x3x96x96 took 0.75 ms as a worker's first call and 0.15 ms after).
  The worker does that before it says READY (`in_worker`): a run kept ready does it while it waits
  for its submission. It frees one HEAP_BYTES buffer, which raises malloc's threshold past it, then
  writes a second of that size on the heap, where it stays for the calls' results (a patchify run's
  page faults: 470 before, 150 after).

Nothing of a submission is involved: the function called is the judge's own (`course_operators`,
or one that returns its first argument), it draws no random numbers (a submission's random
stream is what it would be without this), and everything it makes is freed before the
submission loads. The worker's warm-up is bounded in time and skips calls with large inputs, so
its memory is small beside any limit (the arguments themselves are the arena's, not copies).
"""
from __future__ import annotations

import sys
import time
from typing import Any, Sequence

import numpy as np

from judge.base import encoding as wire
from judge.runs import calls as execute

# The most a worker spends warming up, and the largest arguments (in bytes, per call) it warms up on.
WORKER_BUDGET_S = 0.02
WORKER_MAX_BYTES = 1 << 20
HEAP_BYTES = 4 << 20   # under the memory monitor's LARGE (judge.sandbox.memory): no request it is shown


def in_zygote() -> None:
    """torch's lazy set-up, through one call of the judge's own function with a backward pass and the
    result encoded (a call's whole path: revive, call, backpropagate, read back, encode)."""
    if sys.modules.get("torch") is not None:
        _call_course_operators()


def in_worker(calls: Sequence[execute.Call], arguments: Any, result_bytes: int) -> None:
    """The course's operators, malloc's heap, then each call's path once with its own arguments
    (`arguments(i, args)`: the arena's views) and a function that returns its first argument; the calls
    for at most WORKER_BUDGET_S."""
    deadline = time.monotonic() + WORKER_BUDGET_S
    if sys.modules.get("torch") is not None:
        _call_course_operators()
    mapped = np.empty(HEAP_BYTES, dtype=np.uint8)
    del mapped
    on_heap = np.ones(HEAP_BYTES, dtype=np.uint8)
    del on_heap
    for number, call in enumerate(calls):
        if time.monotonic() > deadline:
            return
        if call.experiment is not None or _sent_bytes(call.args) > WORKER_MAX_BYTES:
            continue
        observation = execute.run_call(_first, call, None, arguments(number, call.args))
        try:
            execute.observing(lambda: wire.encode(execute.observation_plain(observation), result_bytes,
                                                  wire.MAX_NODES))
        except wire.WireError:  # an input over the result size: its refusal is not worth warming
            pass


def _first(*args: Any) -> Any:
    return args[0] if args else None


def _sent_bytes(args: tuple[Any, ...]) -> int:
    total = 0
    for arg in args:
        for value in (arg.values() if isinstance(arg, dict) else (arg,)):
            if isinstance(value, wire.Array):
                total += value.data.nbytes
    return total


def _call_course_operators() -> None:
    image = wire.Array(data=np.arange(2 * 3 * 8 * 8, dtype=np.float32).reshape(2, 3, 8, 8), library="torch",
                       dtype="float32")
    call = execute.Call(args=(image,), grad_wrt=(0,))
    observation = execute.run_call(course_operators, call, None)
    wire.encode(execute.observation_plain(observation), 1 << 20, wire.MAX_NODES)


def course_operators(images):
    """The operators the course's solutions use most, on a tiny batch: patches, positions, similarities,
    a cross-entropy over them."""
    import torch
    import torch.nn.functional as F

    patches = images.reshape(2, 3, 2, 4, 2, 4).permute(0, 2, 4, 1, 3, 5).reshape(2, 4, 48)
    rows, cols = torch.meshgrid(torch.arange(2), torch.arange(2), indexing="ij")
    positions = torch.stack([rows.flatten(), cols.flatten()], dim=1)
    tokens = torch.cat([patches.mean(dim=1, keepdim=True), patches], dim=1)
    unit = F.normalize(tokens, dim=-1)
    logits = unit @ unit.transpose(-1, -2) / 0.07
    loss = F.cross_entropy(logits.flatten(0, 1), torch.arange(5).repeat(2)) + logits.log_softmax(-1).exp().sum()
    return {"tokens": tokens * 2.0, "sums": patches.sum(dim=-1), "positions": positions, "loss": loss}
