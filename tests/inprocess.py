"""A backend without a sandbox, for tests that drive the library in this process (trusted code only)."""
from __future__ import annotations

import builtins

from judge.base import encoding as wire
from judge.runs.calls import Observation, register_source, run_call
from judge.runs.contract import CallOutcome, Program, RunResult


class InProcessBackend:
    """Runs trusted code in this process: what a test needs to drive the library without a sandbox.

    Values cross as they would from a child: each observation goes through the wire format.
    """

    def __init__(self) -> None:
        self.programs: list[Program] = []

    def run(self, program, calls, limits, *, on_progress=None, node_limits=None):
        self.programs.append(program)
        register_source(program.filename, program.source)
        module = {"__name__": "submission", "__file__": program.filename, "__builtins__": builtins}
        exec(compile(program.source, program.filename, "exec", dont_inherit=True), module)
        fn = module[program.entry_point]
        observations = [Observation.from_plain(wire.roundtrip(run_call(fn, c, program.filename).to_plain()))
                        for c in calls]
        outcomes = [CallOutcome(observation=o, time_ms=o.time_ms) for o in observations]
        result = RunResult(outcomes=outcomes)
        if on_progress is not None:
            on_progress(result, len(calls))
        return result

    def warm(self, frameworks) -> None:
        pass  # nothing to start

    def close(self) -> None:
        pass
