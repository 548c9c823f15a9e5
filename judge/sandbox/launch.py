"""Starting the fork server's process, early and cheaply (standard library only).

The server is a fresh Python process; its own imports (numpy, the sandbox
code) take about as long as the judge's. `launch` starts it at once and
returns; the judge sends the configuration (what to preload, what to hide,
where scratch directories go) when it knows the problem, so both processes
import in parallel. Importing this module imports neither numpy nor torch.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from dataclasses import dataclass

from judge.sandbox import channel

# Variables the server keeps: where libraries are and how they must be loaded. Nothing else
# of the judge's environment (tokens, keys, paths of problem sets) reaches it.
_ENV_KEEP = ("PATH", "HOME", "LANG", "LC_ALL", "LD_LIBRARY_PATH", "VIRTUAL_ENV", "TMPDIR")
_ENV_KEEP_PREFIXES = ("OPENBLAS_", "MKL_", "OMP_", "KMP_", "GOMP_")

_BOOTSTRAP = ("import sys; fd = int(sys.argv[1]); sys.path[:] = sys.argv[2:]; "
              "from judge.sandbox.zygote import main; main(fd)")


@dataclass
class Launched:
    """A server process that is importing its base modules and waits for its configuration."""

    process: subprocess.Popen
    sock: socket.socket

    def configure(self, config: dict) -> None:
        channel.send_frame(self.sock, channel.CONFIG, json.dumps(config).encode())

    def abandon(self) -> None:
        # Never configured, it holds nothing to clean up: stopped at once, not after its imports.
        self.sock.close()
        self.process.kill()
        self.process.wait()


def launch() -> Launched:
    judge_end, server_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    env = {k: v for k, v in os.environ.items() if k in _ENV_KEEP or k.startswith(_ENV_KEEP_PREFIXES)}
    path = [p for p in sys.path if p and os.path.isabs(p)]
    process = subprocess.Popen([sys.executable, "-E", "-c", _BOOTSTRAP, str(server_end.fileno()), *path],
                               pass_fds=(server_end.fileno(),), env=env, cwd="/", stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    server_end.close()
    return Launched(process, judge_end)
