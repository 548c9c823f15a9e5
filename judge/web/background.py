"""`judge serve --background`: start a detached server, wait for its URL line, return it.

The server is the same program (`judge serve --detached`) in a new session,
its standard input closed and its remarks appended to `serve.log` in the
judge's data directory; it leaves after its idle timeout, or when a newer
judge asks it to run something.
"""
from __future__ import annotations

import select
import subprocess
import sys
import time

from judge.errors import ConfigError
from judge.progress import home

START_TIMEOUT_S = 120.0  # the first start imports torch in the fork server: seconds under load


def start_background(problems_dir: str | None, port: int, idle_timeout_s: float, open_browser: bool) -> str:
    log = home() / "serve.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "judge"]
    if problems_dir:
        command += ["--problems-dir", problems_dir]
    command += ["serve", "--detached", "--port", str(port), "--idle-timeout", f"{idle_timeout_s:g}"]
    if open_browser:
        command.append("--open")
    with open(log, "ab") as log_file:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log_file,
                                   start_new_session=True)
    assert process.stdout is not None
    deadline = time.monotonic() + START_TIMEOUT_S
    line = b""
    while not line.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = process.stdout.read1(4096)
        if not chunk:
            break
        line += chunk
    process.stdout.close()
    url = line.decode(errors="replace").strip()
    if not url.startswith("http://127.0.0.1:"):
        if process.poll() is None:
            process.kill()
        raise ConfigError(f"the background server did not start; see {log}")
    return url
