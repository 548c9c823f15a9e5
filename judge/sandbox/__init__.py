"""Running untrusted submissions: a warm fork server, isolated children, limits.

The boundary: the judge sends inputs and receives plain observations; it never
sends expected values, and it decides every verdict itself.
"""
from judge.sandbox.limits import Limits
from judge.sandbox.runner import CallOutcome, LoadError, Program, RunResult, Sandbox

__all__ = ["CallOutcome", "Limits", "LoadError", "Program", "RunResult", "Sandbox"]
