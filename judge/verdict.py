"""Verdicts: the fixed vocabulary of judge outcomes (see shared/spec/judge.md)."""
from __future__ import annotations

import enum


# The message prefix of a test failed only because the function still raises
# NotImplementedError (an untouched starter from `judge start`, issue 7).
NOT_ATTEMPTED = "not attempted yet"


class Verdict(str, enum.Enum):
    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    OUTPUT_LIMIT_EXCEEDED = "output_limit_exceeded"
    COMPILE_ERROR = "compile_error"
    SECURITY_VIOLATION = "security_violation"
    JUDGE_ERROR = "judge_error"

    def __str__(self) -> str:
        return self.value

    @property
    def short(self) -> str:
        """Two or three letters, as competitive judges print them."""
        return _SHORT[self]


_SHORT = {
    Verdict.ACCEPTED: "AC",
    Verdict.WRONG_ANSWER: "WA",
    Verdict.RUNTIME_ERROR: "RTE",
    Verdict.TIME_LIMIT_EXCEEDED: "TLE",
    Verdict.MEMORY_LIMIT_EXCEEDED: "MLE",
    Verdict.OUTPUT_LIMIT_EXCEEDED: "OLE",
    Verdict.COMPILE_ERROR: "CE",
    Verdict.SECURITY_VIOLATION: "SV",
    Verdict.JUDGE_ERROR: "JE",
}
