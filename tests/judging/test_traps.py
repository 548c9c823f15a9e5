"""judge/judging/traps.py: each trap runs once per case for a whole batch, its outputs are kept on disk for the
next process, and a trap module that does not load fails the diagnosis as it would without a cache.
"""
from __future__ import annotations


def _tripled_trap(ran: list):
    """A one-case problem with one trap (three times x) that counts its runs."""
    import numpy as np

    from judge.judging import traps as trap_module
    from judge.model.cases import Calls, Case
    from judge.runs.calls import Call
    from judge.model.problem import TestSpec, Tolerance, Trap
    from judge.base.encoding import Array

    def tripled(x):
        ran.append(1)
        return x * 3

    tolerance = Tolerance()
    x = Array(np.arange(6.0).reshape(2, 3), "numpy", "float64")
    case = Case(test=TestSpec(name="t", group="hidden", inputs={}, checks=(), tolerance=tolerance),
                arg_names=("x",), args=(x,), tolerance=tolerance, calls=Calls(Call(args=(x,))))
    return case, trap_module.TrapSet((Trap("tripled", "tripled", "three times x"),), lambda: {"tripled": tripled})


def _submitted(values) -> dict:
    import numpy as np

    from judge.model.cases import MAIN
    from judge.runs.calls import Observation
    from judge.base.encoding import Array

    return {MAIN: Observation(value=Array(np.asarray(values, dtype=np.float64), "numpy", "float64"))}


def test_a_trap_runs_and_is_encoded_once_per_case_for_a_whole_batch(monkeypatch) -> None:
    """A batch's wrong answers ask every trap about the same cases; each trap runs once per
    case, and its (small) output is encoded once."""
    import numpy as np

    from judge.judging import traps as trap_module

    ran, encoded = [], []
    real_plain = trap_module.plain
    monkeypatch.setattr(trap_module, "plain", lambda observation: encoded.append(1) or real_plain(observation))
    case, traps = _tripled_trap(ran)
    # Shapes it cannot give first (nothing to encode), then wrong values, then its own output.
    for values in (np.zeros(4), np.ones(5), [[1.0, 2, 3], [4, 5, 6]], np.zeros((2, 3))):
        assert trap_module.known_mistake(case, _submitted(values), traps) is None
    assert trap_module.known_mistake(case, _submitted(np.arange(6.0).reshape(2, 3) * 3), traps).name == "tripled"
    assert (len(ran), len(encoded)) == (1, 1)


def test_traps_run_ahead_are_not_run_again_for_a_submission() -> None:
    """A service worker runs every trap while it warms up; no submission then waits for one."""
    import numpy as np

    from judge.judging import traps as trap_module

    ran = []
    case, traps = _tripled_trap(ran)
    assert traps.run_ahead([case]) == 1 and len(ran) == 1
    assert trap_module.known_mistake(case, _submitted(np.arange(6.0).reshape(2, 3) * 3), traps).name == "tripled"
    assert len(ran) == 1


class _Entry:
    """A traps entry in memory (judge.model.cache.TrapsEntry's interface): empty until written."""

    def __init__(self) -> None:
        self.stored = None
        self.writes = 0

    def load(self):
        return self.stored

    def store(self, outputs) -> bool:
        self.stored, self.writes = outputs, self.writes + 1
        return True


def test_threads_diagnosing_at_once_run_each_trap_once_and_the_next_process_none() -> None:
    """Batch grading diagnoses from several threads; the first need of a trap output fills
    them all (from the entry, else by running the traps and writing it) while the others wait."""
    import threading
    import time

    import numpy as np

    from judge.judging import traps as trap_module

    ran = []
    case, traps = _tripled_trap(ran)
    slow = traps.load()["tripled"]

    def tripled(x):
        time.sleep(0.05)  # long enough for the other thread to ask meanwhile
        return slow(x)

    entry = _Entry()
    kept = trap_module.TrapSet(traps.traps, lambda: {"tripled": tripled}, entry, (case,))
    answer = _submitted(np.arange(6.0).reshape(2, 3) * 3)
    start, found = threading.Barrier(2), []

    def diagnose() -> None:
        start.wait()
        found.append(trap_module.known_mistake(case, answer, kept).name)

    threads = [threading.Thread(target=diagnose) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == ["tripled", "tripled"] and len(ran) == 1 and entry.writes == 1

    def never():
        raise AssertionError("the trap module was loaded although its outputs were kept")

    later = trap_module.TrapSet(traps.traps, never, entry, (case,))  # the next process: the entry is on disk
    assert trap_module.known_mistake(case, answer, later).name == "tripled"
    assert trap_module.known_mistake(case, _submitted(np.zeros((2, 3))), later) is None
    assert len(ran) == 1 and entry.writes == 1


def test_a_trap_module_that_does_not_load_fails_the_diagnosis_as_before_and_writes_no_entry() -> None:
    import numpy as np
    import pytest

    from judge.judging import traps as trap_module
    from judge.base.errors import ConfigError

    case, traps = _tripled_trap([])

    def broken():
        raise ConfigError("defines no function(s) tripled")

    entry = _Entry()
    kept = trap_module.TrapSet(traps.traps, broken, entry, (case,))
    for _ in range(2):
        with pytest.raises(ConfigError, match="defines no function"):
            trap_module.known_mistake(case, _submitted(np.zeros((2, 3))), kept)
    assert entry.writes == 0
