"""Length-prefixed messages over a socket between the judge and a sandbox child.

A frame is `kind` (one byte) + length (8 bytes) + payload. The judge reads
frames without ever blocking past a deadline and refuses frames above a cap,
so a child that floods, stalls or writes garbage cannot hang the judge.
"""
from __future__ import annotations

import os
import select
import socket
import struct
import time

HEADER = struct.Struct("<cQ")

# Frame kinds, child -> judge, in this order (judge.sandbox.frames holds their schema):
READY = b"R"        # once, before the submission loads: JSON {"active": [layer, ...], "failed": ["layer: why", ...]}
LOAD_ERROR = b"L"   # instead of LOADED: JSON {"kind": "compile"|"runtime", "error": ErrorInfo}
LOADED = b"G"       # once, empty: the submission is loaded; the first call starts
RESULT = b"O"       # one per call, in order: JSON {"index": i} line + wire bytes of the observation
DONE = b"D"         # once, empty, after the last RESULT
# judge -> child
ARENA = b"A"        # first, one byte carrying the arguments' memfd (SCM_RIGHTS; judge.sandbox.arena)
REQUEST = b"Q"      # payload: JSON header line (limits, protect) + wire bytes of the calls, in any order
PROGRAM = b"P"      # after READY: JSON {"source", "filename", "entry_point", "order": [[index, call], ...]}
# judge -> fork server, once
CONFIG = b"C"       # payload: JSON {"scratch_root", "protected", "disabled", "preload"}
# monitor -> judge
WORKER = b"W"       # once, first: JSON {"pid"}: the worker's process id, whose CPU time the judge reads
MEMORY = b"M"       # any number, each before the result it concerns: JSON {"index", "exhausted": true, "detail"} (judge.sandbox.memory)
EXIT = b"X"         # once: JSON exit record of the worker

# Single bytes between the judge, the fork server and a run's monitor.
SPAWN = b"S"          # judge -> server: fork a run
SERVER_READY = b"Z"   # server -> judge, once: the framework is imported
SERVER_FAILED = b"E"  # server -> judge, instead of READY: followed by the reason
KILL = b"k"           # judge -> monitor


class ChannelError(Exception):
    """The peer closed the channel or broke the framing."""


def send_frame(sock: socket.socket, kind: bytes, payload: bytes = b"") -> None:
    sock.sendall(HEADER.pack(kind, len(payload)) + payload)


def recv_exact(sock: socket.socket, n: int) -> bytes:
    """Blocking read of exactly n bytes (used by the child, which trusts its judge)."""
    chunks = bytearray()
    while len(chunks) < n:
        chunk = sock.recv(min(n - len(chunks), 1 << 20))
        if not chunk:
            raise ChannelError("channel closed")
        chunks += chunk
    return bytes(chunks)


def recv_frame(sock: socket.socket) -> tuple[bytes, bytes]:
    kind, length = HEADER.unpack(recv_exact(sock, HEADER.size))
    return kind, recv_exact(sock, length)


class FrameReader:
    """Incremental, non-blocking frame parser for the judge's side."""

    def __init__(self, max_frame: int):
        self.buffer = bytearray()
        self.max_frame = max_frame

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        self.buffer += data
        frames = []
        start, size = 0, len(self.buffer)
        # Frames are cut at an offset and the buffer shortened once: cutting each off its front
        # moved the rest of a read (up to 4 MiB) once a frame, and slicing copied twice.
        with memoryview(self.buffer) as view:
            while size - start >= HEADER.size:
                kind, length = HEADER.unpack_from(view, start)
                if length > self.max_frame:
                    raise ChannelError(f"a message of {length} bytes is over the limit of {self.max_frame}")
                end = start + HEADER.size + length
                if size < end:
                    break
                frames.append((kind, bytes(view[start + HEADER.size:end])))
                start = end
        del self.buffer[:start]
        return frames


def wait_readable(fds: list[int], deadline: float) -> list[int]:
    """The fds of `fds` that are readable before `deadline` (monotonic seconds)."""
    timeout = max(0.0, deadline - time.monotonic())
    readable, _, _ = select.select(fds, [], [], timeout)
    return readable


def read_some(fd: int, limit: int = 1 << 20) -> bytes:
    try:
        return os.read(fd, limit)
    except (BlockingIOError, InterruptedError):
        return b""
    except ConnectionResetError:
        return b""
