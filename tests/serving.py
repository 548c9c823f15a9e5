"""A `judge serve` process for tests: started in its own JUDGE_HOME and socket directory, stopped after."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from problemsets import copy_problems

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 180  # the fork server imports torch before the URL is printed: slow under load

UNIT = '''id: "1.0"
title: Tokens
summary: "Cutting images into tokens: $N = (H / p)(W / p)$ patches."
problems: [patchify]
extras: [unpatchify]
questions:
  - id: patches
    prompt: "A $224 \\\\times 224$ image with $16 \\\\times 16$ patches: how many patches?"
    numeric: {answer: 196}
    explanation: "14 * 14 = 196."
  - id: why
    prompt: "Why do tokens need positions?"
    choice: {options: ["no reason", "attention is permutation-equivariant"], answer: b}
    explanation: "Attention sees a set."
completion: {problems: all, questions: all}
'''


def problem_set(target: Path) -> Path:
    """patchify and unpatchify with their hidden tests, and one unit over them."""
    copy_problems(target, "patchify", "unpatchify")
    (target / "units").mkdir()
    (target / "units" / "1.0.yaml").write_text(UNIT)
    return target


@dataclass
class Served:
    url: str            # as printed: http://127.0.0.1:PORT/?token=...
    process: subprocess.Popen
    env: dict

    @property
    def base(self) -> str:
        return self.url.split("/?", 1)[0]

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1]

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def environment(home: Path, runtime: Path) -> dict:
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    env = dict(os.environ, JUDGE_HOME=str(home), XDG_RUNTIME_DIR=str(runtime),
               JUDGE_CACHE_DIR=str(home / "expected-cache"))
    env.pop("JUDGE_NO_WARM", None)
    return env


def start(root: Path, env: dict, *extra: str) -> Served:
    process = subprocess.Popen([sys.executable, "-m", "judge", "--problems-dir", str(root), "serve", *extra],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               cwd=root)
    deadline = time.monotonic() + START_TIMEOUT_S
    line = b""
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready or process.poll() is not None:
            process.kill()
            raise RuntimeError(f"judge serve did not print its URL: {process.stderr.read().decode(errors='replace')}")
        line += process.stdout.read1(4096)
    return Served(line.decode().strip(), process, env)
