"""Running untrusted submissions: a warm fork server, isolated children, limits.

The boundary: the judge sends inputs and receives plain observations; it never
sends expected values. The sandbox implements the run contract (`judge.runs.contract`:
it takes a program and limits, reports facts); the judge decides every verdict
from them (`judge.runs.decisions`). `SandboxBackend` is the backend that runs here.

Names load on first use, so `judge.sandbox.launch` can start the server
before numpy is imported in the judge.
"""
from __future__ import annotations

from judge.base.lazy import attributes

DISABLE_ENV = "JUDGE_SANDBOX_DISABLE"  # comma-separated isolation layers to switch off (tests, debugging)

_LAZY = {
    "Sandbox": "judge.sandbox.runner",
    "SandboxBackend": "judge.sandbox.backend",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = attributes("judge.sandbox", _LAZY)
del attributes  # the loader, not a name this package offers
