"""judge.runs.contract: programs, limits and a run's facts as plain data, and back; anything malformed is an error."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from judge.base import encoding as wire
from judge.runs.contract import CallOutcome, Death, Isolation, Kill, Limits, LoadError, LoadKind, Program, Refusal, RunResult
from judge.runs.calls import ErrorInfo, Observation


def _observation(value) -> Observation:
    """An observation as the judge holds it: decoded from the wire."""
    return Observation.from_plain(wire.roundtrip(Observation(value=value, time_ms=3.5).to_plain()))


REFUSED = Observation(error=ErrorInfo(type="ReturnValueError", bases=(), message="result: the value is too large",
                                      where="return"))


def _every_fact() -> RunResult:
    return RunResult(
        outcomes=[CallOutcome(observation=_observation({"y": wire.roundtrip(np.arange(4.0))}), time_ms=12.5,
                              output="printed\n"),
                  CallOutcome(observation=REFUSED, refusal=Refusal.TOO_LARGE, time_ms=1.0),
                  CallOutcome(refusal=Refusal.TOO_MANY_ITEMS, items_allowed=260),
                  CallOutcome(death=Death(kill=Kill.CALL_TIME, signal=9, peak_memory_kb=2048, cpu_s=1.25)),
                  CallOutcome(death=Death(exit_code=0, peak_memory_kb=0, cpu_s=0.5)),
                  CallOutcome(death=Death(kill=Kill.MALFORMED_FRAME, detail="RESULT: no header line", signal=9)),
                  CallOutcome(skipped=True),
                  CallOutcome()],
        output="printed\n", output_bytes=8, workers=3,
        isolation=Isolation(("seccomp",), ("landlock: off",), "weaker isolation (landlock missing): ..."),
        held_bytes=4096, node_limits=[300, 300, 260, 300, 300, 300, 300, 300])


def test_a_run_result_round_trips_through_the_wire():
    result = _every_fact()
    back = RunResult.from_plain(wire.roundtrip(result.to_plain()))
    # arrays compare by identity: equal encodings are equal values
    assert wire.encode(back.to_plain(), 1 << 20) == wire.encode(result.to_plain(), 1 << 20)
    assert back.outcomes[0].observation.value["y"].data.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert back.outcomes[1:] == result.outcomes[1:]  # no arrays in these: equal as dataclasses
    assert (back.output, back.workers, back.isolation, back.node_limits) == \
        (result.output, result.workers, result.isolation, result.node_limits)


def test_facts_without_values_are_json():
    """Kills, refusals and load errors are enums with string values, numbers and strings."""
    result = RunResult(outcomes=[CallOutcome(death=Death(kill=Kill.OUTPUT_FLOOD, signal=9, cpu_s=0.25))],
                       load_error=None)
    plain = json.loads(json.dumps(result.to_plain()))
    assert plain["outcomes"][0]["death"]["kill"] == "output_flood"
    assert RunResult.from_plain(plain) == result
    for load in (LoadError(kind=LoadKind.COMPILE, error=ErrorInfo(type="SyntaxError", bases=("SyntaxError",),
                                                                  message="invalid syntax", where="import")),
                 LoadError(death=Death(kill=Kill.LOAD_TIME, signal=9, peak_memory_kb=10, cpu_s=10.0))):
        run = RunResult(outcomes=[CallOutcome()], load_error=load)
        assert RunResult.from_plain(json.loads(json.dumps(run.to_plain()))) == run


def _broken(path: tuple, value) -> dict:
    plain = copy.deepcopy(wire.roundtrip(_every_fact().to_plain()))
    node = plain
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return plain


@pytest.mark.parametrize("path, value", [
    (("workers",), KeyError),                                 # a field missing
    (("extra",), 1),                                          # a field too many
    (("outcomes",), {"0": {}}),                               # not a list
    (("workers",), -1),
    (("workers",), True),                                     # a bool is not a count
    (("output",), None),
    (("node_limits",), [1, "2"]),
    (("outcomes", 3, "death", "kill"), "tired"),              # not a Kill
    (("outcomes", 3, "death", "kill"), "CALL_TIME"),          # names are not values
    (("outcomes", 3, "death", "signal"), 9.0),
    (("outcomes", 3, "death", "cpu_s"), float("nan")),
    (("outcomes", 3, "death", "cpu_s"), "1"),
    (("outcomes", 2, "refusal"), "no"),
    (("outcomes", 6, "skipped"), 1),
    (("outcomes", 0, "time_ms"), -1.0),
    (("outcomes", 0, "observation"), {"value": 1}),            # a malformed observation
    # facts that contradict each other
    (("outcomes", 6, "death"), {"kill": None, "detail": "", "exit_code": 0, "signal": None, "peak_memory_kb": 0,
                                "cpu_s": 0.0}),                # skipped and dead
    (("outcomes", 0, "refusal"), "too_large"),                 # a child's refusal without its error
    (("outcomes", 1, "refusal"), "too_many_items"),            # the judge's refusal with a value
    (("load_error",), {"kind": "compile", "error": None, "death": None}),
    (("load_error",), {"kind": None, "error": None, "death": None}),
    (("load_error",), "compile"),
    (("isolation", "exposure"), ""),                           # a layer failed, and no line says what it exposes
    (("isolation", "failed"), []),                             # a line on exposure, and no layer failed
    (("isolation", "active"), "seccomp"),
])
def test_from_plain_refuses_anything_malformed(path, value):
    with pytest.raises(wire.WireError):
        RunResult.from_plain(_broken(path, value))


# ---------------------------------------------------------------- what the judge asks for

def test_program_plain_form_round_trips_through_json():
    program = Program("def f(x):\n    return x\n", "f.py", "f", "torch", ("/tmp/class",))
    assert Program.from_plain(json.loads(json.dumps(program.to_plain()))) == program


@pytest.mark.parametrize("change", [
    {"framework": "jax"}, {"hidden": ["relative/dir"]}, {"source": b"bytes"}, {"extra": 1}, {"hidden": "/tmp"},
])
def test_a_malformed_program_is_refused(change):
    plain = {**Program("x = 1\n", "f.py", "f").to_plain(), **change}
    with pytest.raises(wire.WireError):
        Program.from_plain(plain)


def test_limits_plain_form_round_trips():
    for limits in (Limits(), Limits(time_s=0.5, memory_mb=256, threads=1, total_time_s=3)):
        assert Limits.from_plain(json.loads(json.dumps(limits.to_plain()))) == limits


@pytest.mark.parametrize("change", [
    {"time_s": 0}, {"time_s": float("inf")}, {"time_s": "2"}, {"import_time_s": -1.0}, {"memory_mb": 512.0},
    {"threads": 0}, {"threads": True}, {"open_files": None}, {"total_time_s": 0.0}, {"total_time_s": "10"},
    {"extra": 1},
])
def test_malformed_limits_are_refused(change):
    plain = {**Limits().to_plain(), **change}
    with pytest.raises(wire.WireError):
        Limits.from_plain(plain)


def test_limits_missing_a_field_are_refused_not_defaulted():
    """A lenient reader would fill a missing time limit with the default: the sender meant something else."""
    plain = Limits(time_s=0.5).to_plain()
    del plain["time_s"]
    with pytest.raises(wire.WireError):
        Limits.from_plain(plain)
