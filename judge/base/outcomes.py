"""Verdicts: the fixed vocabulary of judge outcomes (docs/feedback.md, "The report")."""
from __future__ import annotations

import enum


# The message prefix of a test failed only because the function still raises
# NotImplementedError (an untouched starter from `judge start`).
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


# Known submissions live in submissions/<id>/<folder>/, the folder named for the verdict its files must
# get: the verdict's value, or `run_time_error`, the name shared/spec/judge.md documents for runtime_error.
FOLDER_ALIASES = {"run_time_error": Verdict.RUNTIME_ERROR}


def folder_verdict(folder: str) -> Verdict | None:
    """The verdict every submission in a folder named `folder` must get; None for any other name."""
    if folder in FOLDER_ALIASES:
        return FOLDER_ALIASES[folder]
    return next((v for v in Verdict if v.value == folder), None)


def folder_names() -> list[str]:
    """Every folder name `folder_verdict` knows: each verdict's value, then the aliases."""
    return [v.value for v in Verdict] + list(FOLDER_ALIASES)


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
