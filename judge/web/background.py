"""`judge serve --background`: the page served by the warm judge of this key, started if none runs.

The warm judge (judge.warm.daemon) is the one `judge run` starts and uses:
asked through its socket, it serves the page too and says its URL, so the
page and the terminal share one process, one fork server and one idle
timeout (the one asked for here, else $JUDGE_WARM_IDLE, else 15 minutes). A
server of another judge installation or problem set is never asked.
"""
from __future__ import annotations

import os

from judge.base.errors import ConfigError
from judge.warm import protocol, spawn

START_TIMEOUT_S = 120.0  # the first start imports torch in the fork server: slow under load


def start_background(problems_dir: str | None, port: int, idle_timeout_s: float | None) -> str:
    """The page's URL (with its token), once the warm judge serves it."""
    if protocol.private_dir(create=True) is None:
        raise ConfigError(f"{protocol.socket_dir()}: not a directory private to this user; "
                          "use `judge serve` in the foreground")
    cwd = os.getcwd()
    key = protocol.judge_key(problems_dir, cwd)
    request = {"op": "page", "fingerprint": protocol.fingerprint(), "context": protocol.context(problems_dir, cwd),
               "idle_timeout_s": idle_timeout_s, "port": port}  # None: the judge keeps its own
    for _ in range(2):  # a second time when an older version of this judge just gave up its socket
        answer = protocol.exchange(protocol.socket_path(key), request)
        if answer is None or answer.get("fallback") == "stale":
            if not spawn.start(problems_dir, key, idle_timeout_s=idle_timeout_s) or \
                    not spawn.wait_ready(key, START_TIMEOUT_S):
                break
            answer = protocol.exchange(protocol.socket_path(key), request)
        if answer is not None and isinstance(answer.get("url"), str):
            return answer["url"]
        if answer is not None and isinstance(answer.get("error"), str):
            raise ConfigError(answer["error"])
        if answer is not None and answer.get("fallback") not in (None, "stale"):
            raise ConfigError(f"the warm judge on {protocol.socket_path(key)} cannot serve this page "
                              f"({answer['fallback']}); use `judge serve` in the foreground")
    raise ConfigError(f"the warm judge did not start; see {protocol.log_path(key)}")
