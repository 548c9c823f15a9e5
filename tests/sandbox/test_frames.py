"""The schema and order of the frames a sandbox child sends (issue 10, class 4)."""
from __future__ import annotations

import json

import pytest

from judge.runs.contract import Refusal
from judge.sandbox import channel
from judge.sandbox.frames import Protocol, ProtocolError, parse_load_error, parse_ready, parse_result


def test_a_well_behaved_worker_goes_through_every_state() -> None:
    protocol = Protocol(first=3, end=5)
    protocol.accept(channel.READY, b"")
    protocol.accept(channel.LOADED, b"")
    for index in (3, 4):
        protocol.accept(channel.RESULT, b"")
        protocol.check_index(index)
        protocol.advance()
    protocol.accept(channel.DONE, b"")
    assert protocol.state == "done"


@pytest.mark.parametrize("frames", [
    [channel.READY, channel.READY],                      # a second layer report (hides the warning)
    [channel.READY, channel.LOADED, channel.READY],      # READY to keep a slow call alive
    [channel.READY, channel.DONE],                       # DONE before any result
    [channel.READY, channel.LOADED, channel.DONE],       # DONE with calls left
    [channel.LOADED],                                    # LOADED before READY
    [channel.READY, channel.LOADED, channel.LOADED],
    [channel.READY, channel.RESULT],                     # a result while loading
    [channel.READY, b"?"],                               # an unknown kind
])
def test_a_frame_out_of_place_is_a_protocol_error(frames) -> None:
    protocol = Protocol(first=0, end=1)
    with pytest.raises(ProtocolError):
        for kind in frames:
            protocol.accept(kind, b"")


def test_a_result_for_another_call_is_refused() -> None:
    protocol = Protocol(first=0, end=2)
    protocol.accept(channel.READY, b"")
    protocol.accept(channel.LOADED, b"")
    with pytest.raises(ProtocolError):
        protocol.check_index(1)


@pytest.mark.parametrize("payload", [b"[1, 2]", b'{"active": [], "failed": [], "x": 1}', b'{"active": "all", "failed": []}',
                                     b'{"active": [1], "failed": []}', b"not json", b'{"active": [NaN], "failed": []}'])
def test_malformed_layer_reports_are_refused(payload) -> None:
    with pytest.raises(ProtocolError):
        parse_ready(payload)


def test_headers_must_be_exactly_their_object() -> None:
    assert parse_ready(b'{"active": ["seccomp"], "failed": []}').active == ("seccomp",)
    assert parse_result(b'{"index": 4}\nBODY') == (4, None, b"BODY", ())
    assert parse_result(b'{"index": 4, "refusal": "too_large"}\nBODY') == (4, Refusal.TOO_LARGE, b"BODY", ())
    assert parse_result(b'{"index": 4, "refusal": "not_returnable"}\n') == (4, Refusal.NOT_RETURNABLE, b"", ())
    assert parse_result(b'{"index": 4, "tampering": ["a trace function"]}\nB') == (4, None, b"B", ("a trace function",))
    for payload in (b'[1, 2]\n', b'{"index": "4"}\n', b'{"index": 4}', b'{"index": true}\n', b'{"index": 4, "x": 0}\n',
                    b'{"index": 4, "refusal": null}\n', b'{"index": 4, "refusal": "too_many_items"}\n',
                    b'{"index": 4, "refusal": ["too_large"]}\n', b'{"index": 4, "refusal": "too_large", "x": 0}\n',
                    b'{"index": 4, "tampering": "x"}\n', b'{"index": 4, "tampering": [1]}\n',
                    json.dumps({"index": 4, "tampering": ["x"] * 100}).encode() + b"\n"):
        with pytest.raises(ProtocolError):
            parse_result(payload)
    with pytest.raises(ProtocolError):
        parse_load_error(json.dumps({"kind": "judge", "error": {}}).encode())
