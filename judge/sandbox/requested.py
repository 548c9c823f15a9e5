"""A worker that was sent its calls (REQUEST) and waits for the program of whichever submission takes it.

It holds the worker's data and control channels, its output pipe, and the arena where the calls' arguments
are (and where the judge reads what each call left of them). `alive` says whether it can still run a program.
"""
from __future__ import annotations

import json as _json
import os
import select
import socket
from pathlib import Path

from judge.base import encoding as wire
from judge.runs.calls import Call
from judge.runs.contract import Limits
from judge.sandbox import channel
from judge.sandbox.arena import Arena


class Requested:
    """A spawned worker that was sent the REQUEST for `calls`: it decodes them and applies its
    isolation layers while it waits for the PROGRAM of whichever submission takes it."""

    def __init__(self, handles: tuple[socket.socket, socket.socket, int], calls: list[Call], limits: Limits,
                 hidden: tuple[Path, ...]) -> None:
        self.data, self.ctl, self.out = handles
        self.calls, self.limits, self.hidden = calls, limits, hidden
        self.arena = Arena(calls)  # the calls' arrays, where the judge reads what each call left of them
        self.early = bytearray()   # the monitor's records read before a run took this worker (`alive`)
        # Where each call object is in `calls`: the PROGRAM names calls by this index. The list
        # holds the objects, so no id here can be reused by another object while this run waits.
        self.index: dict[int, list[int]] = {}
        for i, call in enumerate(calls):
            self.index.setdefault(id(call), []).append(i)

    def send(self, inputs: wire.EncodedCache) -> None:
        """The arguments' arena (its descriptor), then the REQUEST."""
        header = {"limits": self.limits.to_plain(), "protect": [str(p) for p in self.hidden]}
        body = inputs.encode_list(self.calls)  # each call encoded once per sandbox
        self.data.settimeout(self.limits.import_time_s + 5)
        try:
            socket.send_fds(self.data, [channel.ARENA], [self.arena.fd])
            channel.send_frame(self.data, channel.REQUEST, _json.dumps(header).encode() + b"\n" + body)
        except OSError:
            pass  # the worker died before reading; its exit record explains why

    def serves(self, calls: list[Call], limits: Limits, hidden: tuple[Path, ...]) -> bool:
        return (len(calls) == len(self.calls) and limits == self.limits and hidden == self.hidden
                and len({id(c) for c in calls} & self.index.keys()) == len(self.calls))

    def order(self, calls: list[Call], start: int) -> list[list[int]]:
        """[index in the judge's list, index in this REQUEST] for each call from `start` on; a call
        object listed twice takes its places in turn (each has its own arguments in the arena)."""
        taken: dict[int, int] = {}
        pairs = []
        for i in range(start, len(calls)):
            places = self.index[id(calls[i])]
            pairs.append([i, places[taken.get(id(calls[i]), 0) % len(places)]])
            taken[id(calls[i])] = taken.get(id(calls[i]), 0) + 1
        return pairs

    def alive(self) -> bool:
        """False when the worker is known to be gone. While the worker lives its monitor says only
        which process it is (WORKER) on the control socket: an exit record, or the socket's end (the
        monitor is gone too), means it will never run a program. What is read here is kept for the run
        that takes this worker (`early`). (The data channel may still hold its READY.)"""
        while True:
            try:
                readable, _, _ = select.select([self.ctl], [], [], 0)
                if not readable:
                    return True
                data = self.ctl.recv(1 << 16, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return True
            except (OSError, ValueError):
                return False
            if not data:
                return False
            self.early += data
            if any(kind != channel.WORKER for kind, _ in channel.FrameReader(1 << 16).feed(bytes(self.early))):
                return False

    def discard(self) -> None:
        """Let it go: the monitor kills the worker when its control socket closes."""
        for closable in (self.data, self.ctl, self.arena):
            closable.close()
        try:
            os.close(self.out)
        except OSError:
            pass
