"""The framing between the judge and a sandbox child (judge/sandbox/channel.py)."""
from __future__ import annotations

import pytest

from judge.sandbox import channel


def _frame(kind: bytes, payload: bytes) -> bytes:
    return channel.HEADER.pack(kind, len(payload)) + payload


def test_frames_come_out_whole_however_the_bytes_are_cut():
    stream = _frame(b"R", b"{}") + _frame(b"O", b"x" * 70_000) + _frame(b"D", b"") + _frame(b"O", b"tail")
    for cut in (1, 5, 9, 4096, 70_011, len(stream)):
        reader = channel.FrameReader(max_frame=1 << 20)
        frames = []
        for i in range(0, len(stream), cut):
            frames += reader.feed(stream[i:i + cut])
        assert frames == [(b"R", b"{}"), (b"O", b"x" * 70_000), (b"D", b""), (b"O", b"tail")], cut
        assert not reader.buffer


def test_a_frame_over_the_limit_is_refused_before_it_arrives():
    reader = channel.FrameReader(max_frame=10)
    assert reader.feed(_frame(b"O", b"12345")) == [(b"O", b"12345")]
    with pytest.raises(channel.ChannelError):
        reader.feed(channel.HEADER.pack(b"O", 11))
