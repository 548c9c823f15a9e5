"""Per-token rate limits: a token bucket per account, refilled continuously."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass
class RateLimiter:
    per_minute: float
    burst: int
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)   # key -> (tokens, last time)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, key: str, now: float | None = None) -> float:
        """0 when a request may go ahead (and is counted), else the seconds until one may."""
        now = time.monotonic() if now is None else now
        rate = self.per_minute / 60.0
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / rate if rate > 0 else float("inf")

    def wait(self, key: str, now: float | None = None) -> float:
        """What `take` would answer, without counting anything."""
        now = time.monotonic() if now is None else now
        rate = self.per_minute / 60.0
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * rate)
        return 0.0 if tokens >= 1.0 else ((1.0 - tokens) / rate if rate > 0 else float("inf"))
