"""The service's settings: where the database and Redis are, caps, rate limits, leases.

Read once from the environment (the CLI's options override it), so the API
process and every worker process, started separately, agree on them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from judge.errors import ConfigError
from judge.submission import MAX_SOURCE_BYTES

DATABASE_ENV = "JUDGE_SERVICE_DATABASE"
REDIS_ENV = "JUDGE_SERVICE_REDIS"


@dataclass(frozen=True)
class ServiceConfig:
    """Everything the API, the workers and the reaper need to agree on."""

    database_url: str
    redis_url: str | None = None          # None: the in-process worker pool
    problems_dir: str | None = None
    max_request_bytes: int = 4 << 20      # a whole HTTP body, batch included
    max_source_bytes: int = MAX_SOURCE_BYTES  # one submission's source (as `judge run` allows)
    max_batch: int = 100                  # submissions in one batch request
    rate_per_minute: float = 600.0        # requests per token, refilled continuously
    rate_burst: int = 120                 # requests a token may make at once
    lease_s: float = 120.0                # a claimed submission not finished by then is judged again
    requeue_after_s: float = 60.0         # a queued submission nobody claimed by then is enqueued again
    reap_every_s: float = 5.0
    max_attempts: int = 3                 # claims before a submission is closed as judge_error
    sandbox_threads: int | None = None    # torch/BLAS threads per judged submission (None: the Judge's default)

    @classmethod
    def from_env(cls, **overrides) -> "ServiceConfig":
        values = {k: v for k, v in overrides.items() if v is not None}
        values.setdefault("database_url", os.environ.get(DATABASE_ENV) or default_database_url())
        values.setdefault("redis_url", os.environ.get(REDIS_ENV) or None)
        values.setdefault("problems_dir", os.environ.get("JUDGE_PROBLEMS_DIR") or None)
        for name, kind in (("lease_s", float), ("requeue_after_s", float), ("reap_every_s", float),
                           ("rate_per_minute", float), ("rate_burst", int), ("sandbox_threads", int)):
            env = f"JUDGE_SERVICE_{name.upper()}"
            if name not in values and os.environ.get(env):
                try:
                    values[name] = kind(os.environ[env])
                except ValueError:
                    raise ConfigError(f"{env}={os.environ[env]!r}: expected a number") from None
        return cls(**values)

    def environment(self) -> dict[str, str]:
        """The variables that give a separately started process this configuration."""
        env = {DATABASE_ENV: self.database_url}
        if self.redis_url:
            env[REDIS_ENV] = self.redis_url
        if self.problems_dir:
            env["JUDGE_PROBLEMS_DIR"] = str(Path(self.problems_dir).resolve())
        for name in ("lease_s", "requeue_after_s", "reap_every_s", "rate_per_minute", "rate_burst", "sandbox_threads"):
            if getattr(self, name) is not None:
                env[f"JUDGE_SERVICE_{name.upper()}"] = str(getattr(self, name))
        return env


def default_database_url() -> str:
    """SQLite in the judge's data directory, which the sandbox already hides from submissions."""
    from judge.progress import home

    path = home() / "service.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"
