"""Running untrusted submissions: a warm fork server, isolated children, limits.

The boundary: the judge sends inputs and receives plain observations; it never
sends expected values. The sandbox reports facts (`result`); the judge decides
every verdict from them (`judge.verdicts`).

Names load on first use, so `judge.sandbox.launch` can start the server
before numpy is imported in the judge.
"""
from __future__ import annotations

from judge.lazy import attributes

_LAZY = {
    "Limits": "judge.sandbox.limits",
    "CallOutcome": "judge.sandbox.result",
    "Death": "judge.sandbox.result",
    "Kill": "judge.sandbox.result",
    "LoadError": "judge.sandbox.result",
    "LoadKind": "judge.sandbox.result",
    "Refusal": "judge.sandbox.result",
    "RunResult": "judge.sandbox.result",
    "Program": "judge.backend",
    "Sandbox": "judge.sandbox.runner",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = attributes("judge.sandbox", _LAZY)
del attributes  # the loader, not a name this package offers
