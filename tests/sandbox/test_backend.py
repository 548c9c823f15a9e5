"""The execution backend seam (`judge.runs.contract.Backend`): the sandbox backend's servers, and the library
driven through a backend that is not the sandbox at all."""
from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from judge.base import encoding as wire
from judge.runs.contract import Limits, Program, RunResult
from judge.runs.calls import Call
from judge.sandbox.backend import SandboxBackend
from judge.judging.session import Judge
from judge.base.submission import Submission

from inprocess import InProcessBackend  # tests/inprocess.py

REPO = Path(__file__).resolve().parents[2]


KNOWN = ["patchify/accepted/reshape_permute.py", "patchify/wrong_answer/column_major.py",
         "patchify/wrong_answer/modifies_input.py", "patchify/wrong_answer/detached_numpy.py",
         "clip_loss/accepted/cross_entropy.py", "clip_loss/wrong_answer/one_direction.py",
         "unpatchify/accepted/reshape_permute.py", "vit_cost/accepted/direct.py"]


def _known(relative: str) -> tuple[str, Path]:
    return relative.split("/")[0], REPO / "submissions" / relative


def _seen(report) -> list[tuple]:
    """What a learner reads, less the times (which differ between any two runs)."""
    return [(t.name, t.group, t.verdict, t.text, t.details) for t in report.tests]


@pytest.mark.parametrize("relative", KNOWN)
def test_a_fake_backend_and_the_sandbox_give_equal_reports(judge, relative):
    problem_id, path = _known(relative)
    fake = InProcessBackend()
    with Judge(REPO, backend=fake, record=False) as through_fake:
        faked = through_fake.run(problem_id, path)
    real = judge.submit(problem_id, Submission.from_text(path.read_text(), str(path)), record=False)
    assert _seen(faked) == _seen(real)
    assert faked.verdict is real.verdict and faked.passed == real.passed
    # The learner's file is judged first; a wrong value's diagnosis (shrinking, slips, repairs) runs more after it.
    program, *diagnosis = fake.programs
    assert (program.filename, program.framework) == (path.name, judge.problem(problem_id).framework)
    assert program.hidden == (str(path.parent.resolve()),)   # the graded directory travels with the program
    assert diagnosis == [] or real.verdict.value == "wrong_answer"


class OverTheWire:
    """Another backend's requests and results as a remote worker would get and send them:
    the program and limits as JSON, the calls and the result in the wire format."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def run(self, program, calls, limits, *, on_progress=None, node_limits=None):
        program = Program.from_plain(json.loads(json.dumps(program.to_plain())))
        limits = Limits.from_plain(json.loads(json.dumps(limits.to_plain())))
        calls = [Call.from_plain(wire.roundtrip(call.to_plain())) for call in calls]
        result = self.inner.run(program, calls, limits, node_limits=node_limits)
        back = RunResult.from_plain(wire.roundtrip(result.to_plain()))
        if on_progress is not None:
            on_progress(back, len(calls))
        return back

    def warm(self, frameworks) -> None:
        self.inner.warm(frameworks)

    def close(self) -> None:
        self.inner.close()


@pytest.mark.parametrize("relative", ["patchify/wrong_answer/column_major.py", "patchify/run_time_error/typo_in_name.py",
                                      "patchify/time_limit_exceeded/counting_grid_rows.py"])
def test_requests_and_results_crossing_as_plain_data_judge_the_same(judge, relative):
    problem_id, path = _known(relative)
    with Judge(REPO, backend=OverTheWire(SandboxBackend(judge.protected_paths())), record=False) as remote:
        crossed = remote.run(problem_id, path)
    direct = judge.submit(problem_id, Submission.from_text(path.read_text(), str(path)), record=False)
    assert crossed.verdict is direct.verdict
    if crossed.verdict.value != "time_limit_exceeded":  # a timed-out test's message says how long it ran
        assert _seen(crossed) == _seen(direct)


# ---------------------------------------------------------------- the sandbox backend's servers

PROBE = Program("def probe(x):\n    return x + 1\n", "probe.py", "probe")


def test_one_server_serves_every_framework_and_stays_up_under_runs_in_threads():
    """A numpy program and a torch program, at once from two threads, run in the one fork server; a
    numpy program that imports torch runs in a process that started with torch, as every run does."""
    backend = SandboxBackend()
    try:
        server = backend.server("numpy")
        assert backend.server("torch") is server
        results: list = []
        torch_program = Program("import torch\ndef probe(x):\n    return int(torch.tensor(x) + 1)\n",
                                "probe.py", "probe", framework="torch")
        habit = Program("import sys\nstarted = 'torch' in sys.modules\nimport torch\n"
                        "def probe(x):\n    return [started, x + 1]\n", "habit.py", "probe", framework="numpy")
        threads = [threading.Thread(target=lambda: results.append(backend.run(torch_program, [Call(args=(2,))],
                                                                              Limits()))),
                   threading.Thread(target=lambda: results.append(backend.run(PROBE, [Call(args=(3,))], Limits())))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        values = sorted(r.outcomes[0].observation.value for r in results)
        assert values == [3, 4]
        assert backend.run(habit, [Call(args=(1,))], Limits()).outcomes[0].observation.value == [True, 2]
        assert server._process.poll() is None            # never closed under a run
    finally:
        backend.close()
    assert server._process is None
