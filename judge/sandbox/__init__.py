"""Running untrusted submissions: a warm fork server, isolated children, limits.

The boundary: the judge sends inputs and receives plain observations; it never
sends expected values, and it decides every verdict itself.

Names load on first use, so `judge.sandbox.launch` can start the server
before numpy is imported in the judge.
"""
from __future__ import annotations

from typing import Any

_LAZY = {
    "Limits": "judge.sandbox.limits",
    "CallOutcome": "judge.sandbox.runner",
    "LoadError": "judge.sandbox.runner",
    "Program": "judge.backend",
    "RunResult": "judge.sandbox.runner",
    "Sandbox": "judge.sandbox.runner",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'judge.sandbox' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)
