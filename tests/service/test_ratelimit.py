"""Token buckets: a burst goes through, then requests are paced at the rate, per key."""
import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from judge.service.ratelimit import RateLimiter


def test_a_burst_then_the_rate():
    limiter = RateLimiter(per_minute=60, burst=3)
    assert [limiter.take("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("a", now=0.0) == 1.0           # one per second: wait a second
    assert limiter.take("a", now=0.5) == 0.5
    assert limiter.take("a", now=1.0) == 0.0
    assert limiter.take("b", now=1.0) == 0.0            # another token has its own bucket


def test_an_idle_bucket_refills_only_to_the_burst():
    limiter = RateLimiter(per_minute=60, burst=2)
    limiter.take("a", now=0.0)
    assert [limiter.take("a", now=1000.0) for _ in range(3)][:2] == [0.0, 0.0]
    assert limiter.take("a", now=1000.0) > 0
