"""The arguments' shared mapping: every array a call receives lives in memory the judge reads itself.

For each run the judge writes the array arguments of every call (each call its
own copy, each entry of a dict argument too) into a sealed memfd, an arena,
and hands the descriptor to the worker with its request. The worker maps it
and gives the submission views on it, not copies: an in-place change a call
makes to an argument lands in the arena, where the judge reads it when that
call's result arrives. Whatever the child then says of its arguments (the
observation's `inputs_after`, a claim), a change of their values is seen by
the judge's own eyes; the child's report can only add what memory cannot show
(a shape changed by `.t_()`, a dict entry rebound, an in-place operation that
kept the values: torch's version counter).

The memfd is sealed against shrinking and growing before any worker sees it,
so no child can make the judge's mapping fault; the judge maps it read-only.
Each array starts on a 64-byte boundary, as an allocator's would. bfloat16
travels on the wire as float32 (numpy has no bfloat16); in the arena it is
stored as bfloat16, so the tensor the call receives is a view like any other.
"""
from __future__ import annotations

import fcntl
import mmap
import os
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from judge.base import encoding as wire
from judge.runs.calls import UNCHANGED, Call, Observation

ALIGN = 64


@dataclass(frozen=True)
class Slot:
    """Where one array argument of one call lies in the arena."""

    arg: int                 # the argument's position
    key: str | None          # the dict argument's entry, or None for an array argument
    offset: int
    nbytes: int
    sent: wire.Array         # what the judge sent: the arena holds its bytes until the call changes them


@dataclass(frozen=True)
class Plan:
    """One call's place in the arena: how many arguments it has, and its array arguments' slots."""

    arguments: int
    slots: tuple[Slot, ...]


def layout(calls: Sequence[Call]) -> tuple[list[Plan], int]:
    """Each call's plan, in order, and the arena's size (both sides compute it from the same calls)."""
    plans: list[Plan] = []
    offset = 0
    for call in calls:
        own: list[Slot] = []
        for j, arg in enumerate(call.args):
            entries = arg.items() if type(arg) is dict else [(None, arg)]
            for key, value in entries:
                if isinstance(value, wire.Array) and not value.scalar:
                    size = _stored(value).nbytes
                    own.append(Slot(j, key, offset, size, value))
                    offset += -(-max(size, 1) // ALIGN) * ALIGN
        plans.append(Plan(len(call.args), tuple(own)))
    return plans, offset


def _stored(value: wire.Array) -> np.ndarray:
    """The bytes of `value` as the call's tensor or array holds them (bfloat16: the top halves of float32)."""
    data = np.ascontiguousarray(value.data)
    if value.library == "torch" and value.dtype == "bfloat16":
        return (data.view(np.uint32) >> 16).astype(np.uint16)
    return data


def _read(stored: np.ndarray, value: wire.Array) -> np.ndarray:
    """The array `_stored` wrote, back in the wire's form."""
    if value.library == "torch" and value.dtype == "bfloat16":
        return (stored.astype(np.uint32) << 16).view(np.float32).reshape(value.shape)
    return stored.reshape(value.shape)


class Arena:
    """The judge's side: the memfd, written and sealed, mapped read-only, and what each call was sent."""

    def __init__(self, calls: Sequence[Call]) -> None:
        self.plans, self.size = layout(calls)
        self.fd = os.memfd_create("judge-arguments", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            os.ftruncate(self.fd, max(self.size, 1))
            with mmap.mmap(self.fd, max(self.size, 1)) as writable:
                for slot in (s for plan in self.plans for s in plan.slots):
                    stored = _stored(slot.sent)
                    writable[slot.offset:slot.offset + slot.nbytes] = stored.tobytes()
            fcntl.fcntl(self.fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
            self._view = mmap.mmap(self.fd, max(self.size, 1), prot=mmap.PROT_READ)
        except BaseException:
            os.close(self.fd)
            raise

    def changed(self, slot: Slot) -> np.ndarray | None:
        """The slot's array as the judge reads it now, when its bytes differ from what was sent; else None."""
        now = np.frombuffer(self._view, dtype=np.uint8, count=slot.nbytes, offset=slot.offset)
        sent = _stored(slot.sent)
        if np.array_equal(now, sent.reshape(-1).view(np.uint8)):
            return None
        return _read(np.frombuffer(now.tobytes(), dtype=sent.dtype), slot.sent)

    def measured(self, call: int, observation: Observation) -> Observation:
        """`observation` with the arguments of call `call` (its index in the request) as the judge reads them.

        A value the arena shows changed replaces whatever the child said of that argument,
        unless the child's own account already shows a change of its shape, dtype or kind;
        an argument the arena shows as sent keeps the child's account (which can only say
        more: a shape changed in place, an entry rebound, an in-place write of equal values).
        A missing or malformed account is rebuilt from the arena alone.
        """
        plan = self.plans[call]
        if not plan.slots:
            return observation
        after = observation.inputs_after
        if type(after) is not tuple or len(after) != plan.arguments:
            after = _from_arena(plan)
        updated = list(after)
        for slot in plan.slots:
            now = self.changed(slot)
            if now is None:
                continue
            value = wire.Array(data=now, library=slot.sent.library, dtype=slot.sent.dtype)
            if slot.key is None:
                if not _reshaped(updated[slot.arg], slot.sent):
                    updated[slot.arg] = value
            else:
                entries = updated[slot.arg]
                # A whole dict said to be unchanged (or anything but a dict): each entry as sent, until read.
                entries = dict(entries) if type(entries) is dict else \
                    {s.key: UNCHANGED for s in plan.slots if s.arg == slot.arg}
                if not _reshaped(entries.get(slot.key, UNCHANGED), slot.sent):
                    entries[slot.key] = value
                updated[slot.arg] = entries
        return replace(observation, inputs_after=tuple(updated))

    def close(self) -> None:
        self._view.close()
        os.close(self.fd)


def _from_arena(plan: Plan) -> tuple:
    """An account of the arguments with nothing but the arena to go on: each as sent, until read."""
    after: list[Any] = [UNCHANGED] * plan.arguments
    for slot in plan.slots:
        if slot.key is not None:
            entries = after[slot.arg] if type(after[slot.arg]) is dict else {}
            entries[slot.key] = UNCHANGED
            after[slot.arg] = entries
    return tuple(after)


def _reshaped(claimed: Any, sent: wire.Array) -> bool:
    """Whether the child's account shows an array of another kind, dtype or shape than was sent."""
    return isinstance(claimed, wire.Array) and (claimed.library != sent.library or claimed.dtype != sent.dtype
                                                 or claimed.shape != sent.shape)


class Mapped:
    """The worker's side: the arena mapped writable, and each call's arguments as views on it."""

    def __init__(self, fd: int, calls: Sequence[Call]) -> None:
        self.plans, size = layout(calls)
        self._memory = mmap.mmap(fd, max(size, 1))
        os.close(fd)

    def arguments(self, call: int, args: tuple[Any, ...]) -> list[Any]:
        """Call `call`'s arguments, revived: its arrays as views on the arena, the rest as `wire.revive` makes them."""
        views = {(slot.arg, slot.key): self._view(slot) for slot in self.plans[call].slots}
        revived: list[Any] = []
        for j, arg in enumerate(args):
            if type(arg) is dict:
                revived.append({k: views[j, k] if (j, k) in views else wire.revive(v) for k, v in arg.items()})
            else:
                revived.append(views[j, None] if (j, None) in views else wire.revive(arg))
        return revived

    def _view(self, slot: Slot) -> Any:
        sent = slot.sent
        if sent.library == "torch" and sent.dtype == "bfloat16":
            import torch

            return torch.frombuffer(self._memory, dtype=torch.bfloat16, count=slot.nbytes // 2,
                                    offset=slot.offset).reshape(sent.shape)
        array = np.frombuffer(self._memory, dtype=sent.data.dtype, count=sent.data.size,
                              offset=slot.offset).reshape(sent.shape)
        if sent.library == "numpy":
            return array
        import torch

        return torch.from_numpy(array)
