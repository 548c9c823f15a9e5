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
kept the values: torch's version counter, which the child can also set back).

A submission may keep a reference to an argument and change it later: at the
start of the next call, or after its last result. So the judge reads every
measured call's arguments again whenever a later result arrives and once the
worker has ended (`moved`, then `measured` again for the calls whose bytes
moved): a change made at any time before the run ends is that call's change.
Looking again costs one comparison of memory per result (the arena, up to the
last measured call's arguments, against what the judge last read of it); only
when they differ is each measured call's arguments compared on its own.

The memfd is sealed against shrinking and growing before any worker sees it,
so no child can make the judge's mapping fault; the judge maps it read-only and
private (it sees every write to the shared pages, and its own mapping never
counts as a writer). When the run is over the judge seals it against writing
too (`unwritable`): the kernel grants that seal only once no process maps the
arena writable any more (the worker and everything it started have unmapped it
or are gone), so the judge's last look is after the last write there can be.
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
        written = bytearray(max(self.size, 1))
        for slot in (s for plan in self.plans for s in plan.slots):
            written[slot.offset:slot.offset + slot.nbytes] = _stored(slot.sent).tobytes()
        self._sent = bytes(written)  # what the judge wrote, before any worker saw it
        # What the judge last read of each measured call's arguments (the rest: as sent). The arena is
        # compared with it as 8-byte words: every slot starts and ends on an ALIGN boundary.
        self._last = written
        self._differ: set[int] = set()    # the slots (by offset) whose last reading differed from what was sent
        self._measured: set[int] = set()  # the calls measured so far (by their index in the request)
        self._end = 0                     # where the arguments of the measured calls end in the arena
        self.fd = os.memfd_create("judge-arguments", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            os.ftruncate(self.fd, max(self.size, 1))
            with mmap.mmap(self.fd, max(self.size, 1)) as writable:
                writable[:] = self._sent
            # Not F_SEAL_SEAL: F_SEAL_WRITE is added when the run is over. The worker closes its descriptor
            # before any submission runs, so no child can add a seal.
            fcntl.fcntl(self.fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW)
            # Private: a shared mapping of a writable memfd counts as a writer (VM_MAYWRITE) even when read-only,
            # and would keep F_SEAL_WRITE from ever being granted. Never written, its pages are the memfd's own.
            # Populated now (a run kept ready makes its arena ahead), not on the first look at each page.
            self._view = mmap.mmap(self.fd, max(self.size, 1), flags=mmap.MAP_PRIVATE | mmap.MAP_POPULATE,
                                   prot=mmap.PROT_READ)
        except BaseException:
            os.close(self.fd)
            raise

    def changed(self, slot: Slot) -> np.ndarray | None:
        """The slot's array as the judge reads it now, when its bytes differ from what was sent; else None."""
        now = self._read_slot(slot)
        return None if now is None else _read(np.frombuffer(now, dtype=_stored(slot.sent).dtype), slot.sent)

    def _read_slot(self, slot: Slot) -> bytes | None:
        """The slot's bytes now (noted as what the judge last read of it), or None when they are as sent.
        As the judge last read them (the common case: as sent, read for the first time), one comparison
        in place and no copy."""
        start, end = slot.offset, slot.offset + slot.nbytes
        if np.array_equal(np.frombuffer(self._view, np.uint8, slot.nbytes, start),
                          np.frombuffer(self._last, np.uint8, slot.nbytes, start)):
            return self._view[start:end] if start in self._differ else None
        now = self._view[start:end]
        self._last[start:end] = now
        if now == self._sent[start:end]:
            self._differ.discard(start)
            return None
        self._differ.add(start)
        return now

    def measured(self, call: int, observation: Observation) -> Observation:
        """`observation` with the arguments of call `call` (its index in the request) as the judge reads them.

        A value the arena shows changed replaces whatever the child said of that argument,
        unless the child's own account already shows a change of its shape, dtype or kind;
        an argument the arena shows as sent keeps the child's account (which can only say
        more: a shape changed in place, an entry rebound, an in-place write of equal values).
        A missing or malformed account is rebuilt from the arena alone. Measured again (after
        `moved`), an observation keeps every change seen before, even one undone since: the
        caller's data was changed all the same. The observation itself comes back when the
        arena adds nothing to it.
        """
        plan = self.plans[call]
        if not plan.slots:
            return observation
        if call not in self._measured:
            self._measured.add(call)
            last = plan.slots[-1]
            self._end = max(self._end, -(-(last.offset + last.nbytes) // ALIGN) * ALIGN)
        after = observation.inputs_after
        rebuilt = type(after) is not tuple or len(after) != plan.arguments
        if rebuilt:
            after = _from_arena(plan)
        updated = list(after)
        touched = False
        for slot in plan.slots:
            now = self.changed(slot)
            if now is None:
                continue
            value = wire.Array(data=now, library=slot.sent.library, dtype=slot.sent.dtype)
            if slot.key is None:
                if not _reshaped(updated[slot.arg], slot.sent) and not _same(updated[slot.arg], value):
                    updated[slot.arg] = value
                    touched = True
            else:
                entries = updated[slot.arg]
                # A whole dict said to be unchanged (or anything but a dict): each entry as sent, until read.
                entries = dict(entries) if type(entries) is dict else \
                    {s.key: UNCHANGED for s in plan.slots if s.arg == slot.arg}
                claimed = entries.get(slot.key, UNCHANGED)
                if not _reshaped(claimed, slot.sent) and not _same(claimed, value):
                    entries[slot.key] = value
                    updated[slot.arg] = entries
                    touched = True
        if not (rebuilt or touched):
            return observation
        return replace(observation, inputs_after=tuple(updated))

    def moved(self) -> list[int]:
        """The measured calls (by their index in the request) with an argument whose bytes changed since
        the judge last read them: a submission that kept an argument and changed it after its call."""
        if not self._end:
            return []
        words = self._end // 8
        now = np.frombuffer(self._view, dtype=np.uint64, count=words)
        last = np.frombuffer(self._last, dtype=np.uint64, count=words)
        if np.array_equal(now, last):
            return []
        return [call for call in sorted(self._measured)
                if any(self._view[s.offset:s.offset + s.nbytes] != self._last[s.offset:s.offset + s.nbytes]
                       for s in self.plans[call].slots)]

    def unwritable(self) -> bool:
        """Seal the arena against writing: True once granted, when no process maps it writable any more and
        no write can ever come; False while one still does (the worker has not unmapped it or ended yet), or
        where the seal cannot be had (then only the worker's exit record says that it has ended)."""
        try:
            fcntl.fcntl(self.fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_WRITE)
        except OSError:
            return False
        return True

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


def _same(claimed: Any, value: wire.Array) -> bool:
    """Whether the account already holds `value` (read from the arena before): nothing to add."""
    return isinstance(claimed, wire.Array) and claimed.library == value.library and claimed.dtype == value.dtype \
        and claimed.data.dtype == value.data.dtype and claimed.data.shape == value.data.shape \
        and claimed.data.tobytes() == value.data.tobytes()


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
