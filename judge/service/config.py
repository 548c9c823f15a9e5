"""The service's settings: where the database and Redis are, caps, rate limits, leases.

Read once from the environment (the CLI's options override it), so the API
process and every worker process, started separately, agree on them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from judge.base.errors import ConfigError
from judge.base.submission import MAX_SOURCE_BYTES

DATABASE_ENV = "JUDGE_SERVICE_DATABASE"
REDIS_ENV = "JUDGE_SERVICE_REDIS"
HOSTS_ENV = "JUDGE_SERVICE_ALLOWED_HOSTS"


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
    max_queued: int = 50                  # a user's unfinished (queued or running) submissions
    max_queued_bytes: int = 8 << 20       # ... and the bytes of their sources
    auth_failures_per_minute: float = 30.0  # requests with an unknown token, per client address
    auth_failures_burst: int = 10
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")   # Host headers served ("*": any)
    read_timeout_s: float = 15.0          # to send a request's headers, and then its body
    max_connections: int = 256            # open connections; more are answered 503 and closed
    db_retry_after_s: int = 5             # Retry-After of a 503 while the database does not answer
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
        for name, kind in NUMBERS:
            env = f"JUDGE_SERVICE_{name.upper()}"
            if name not in values and os.environ.get(env):
                try:
                    values[name] = kind(os.environ[env])
                except ValueError:
                    raise ConfigError(f"{env}={os.environ[env]!r}: expected a number") from None
        if "allowed_hosts" not in values and os.environ.get(HOSTS_ENV):
            values["allowed_hosts"] = parse_hosts(os.environ[HOSTS_ENV])
        return cls(**values)

    def environment(self) -> dict[str, str]:
        """The variables that give a separately started process this configuration."""
        env = {DATABASE_ENV: self.database_url}
        if self.redis_url:
            env[REDIS_ENV] = self.redis_url
        if self.problems_dir:
            env["JUDGE_PROBLEMS_DIR"] = str(Path(self.problems_dir).resolve())
        for name, _ in NUMBERS:
            if getattr(self, name) is not None:
                env[f"JUDGE_SERVICE_{name.upper()}"] = str(getattr(self, name))
        env[HOSTS_ENV] = ",".join(self.allowed_hosts)
        return env


# The settings JUDGE_SERVICE_<NAME> sets, and their types.
NUMBERS = (("lease_s", float), ("requeue_after_s", float), ("reap_every_s", float), ("rate_per_minute", float),
           ("rate_burst", int), ("sandbox_threads", int), ("max_queued", int), ("max_queued_bytes", int),
           ("auth_failures_per_minute", float), ("auth_failures_burst", int), ("read_timeout_s", float),
           ("max_connections", int))


def parse_hosts(value: str) -> tuple[str, ...]:
    hosts = tuple(h.strip().lower() for h in value.split(",") if h.strip())
    if not hosts:
        raise ConfigError(f"{HOSTS_ENV}={value!r}: expected host names separated by commas (or *)")
    return hosts


def default_database_url() -> str:
    """SQLite in a private directory (0700) of the judge's data directory, which the sandbox hides.

    The file holds every source, report and token hash, so only its owner may read it (the Store
    creates it 0600). A database an older version made at <data>/service.sqlite3 stays in use,
    made private the same way.
    """
    from judge.learner.progress import home

    legacy = home() / "service.sqlite3"
    if legacy.exists():
        for path in (legacy, legacy.with_name(legacy.name + "-wal"), legacy.with_name(legacy.name + "-shm")):
            if path.exists():
                path.chmod(0o600)
        return f"sqlite:///{legacy}"
    directory = home() / "service"
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    directory.chmod(0o700)  # mkdir's mode is masked by the umask and ignored for an existing directory
    return f"sqlite:///{directory / 'service.sqlite3'}"
