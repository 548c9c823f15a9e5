"""The service under load and faults, scaled down for CI: benchmarks/service_load.py with fewer submissions.

Through the HTTP API, 2 worker processes, a worker killed with SIGKILL and
Redis restarted empty mid-run: every submission ends with exactly one stored
result, the right verdict, no judging that disagreed with it, nothing leaked;
`judge grade` on the same files gives the same verdicts.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("dramatiq")
pytest.importorskip("httpx")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import service_load  # noqa: E402


def test_nothing_is_lost_or_judged_twice_differently_through_a_killed_worker_and_a_redis_restart(redis):
    # (`redis` only checks that redis-server exists here; the run starts its own.)
    outcome = service_load.run(n=24, processes=2, faults=True, timeout_s=240, lease_s=25, log=print)
    assert outcome.killed_worker is not None and outcome.redis_restarted
    assert outcome.lost == [] and outcome.done == 24
    assert outcome.wrong_verdicts == [] and outcome.leaked == []
    assert outcome.conflicting_judgings == 0
    assert outcome.grade_disagreements == []
    assert outcome.ok
