"""Errors the judge reports to users as one line, never as a traceback.

`ConfigError` is bad input from a user or an author (unknown id, missing file,
malformed YAML, a reference that fails). Its message already names the file,
the field and what is expected; the CLI prints it and exits with code 2.
"""
from __future__ import annotations

from pathlib import Path

from judge.base.escape import escape_name


class ConfigError(Exception):
    """A usage or configuration error: one line naming file, field and fix."""

    def __init__(self, message: str, *, file: Path | str | None = None,
                 line: int | None = None, field: str | None = None):
        self.file = file
        self.line = line
        self.field = field
        self.detail = message
        where = ""
        if file is not None:  # named as every face names a file (judge.base.escape): a name is no escape sequence
            where = f"{escape_name(file)}:{line}: " if line else f"{escape_name(file)}: "
        if field:
            where += f"{field}: "
        super().__init__(where + message)


class SandboxError(RuntimeError):
    """The sandbox could not run a submission (its fork server failed): the judge's fault, never the user's."""


class NotSourceText(ConfigError):
    """A submission's bytes are not text in its encoding: Python could not compile it either, so the
    judge reports it as a compile error (`judge run` and `judge grade` alike), not as a usage error."""


class Unreadable(ConfigError):
    """A submission file the judge cannot read: gone, a broken symbolic link, not a regular file, or refused
    (permission denied). Nothing of the learner's code was looked at: `judge run` says so as a usage error,
    `judge grade` as that file's `judge_error` row (it was not judged), never as a verdict on the code."""


class ConfigErrors(ConfigError):
    """Several configuration errors found at once (schema validation)."""

    def __init__(self, errors: list[ConfigError]):
        self.errors = errors
        first = str(errors[0])
        more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
        Exception.__init__(self, first + more)
        self.file, self.line, self.field, self.detail = None, None, None, first

    def lines(self) -> list[str]:
        return [str(e) for e in self.errors]
