"""The `judge` program's entry point (`judge`, `python -m judge`): the warm path for `judge run`, else the click CLI.

Kept apart from judge.cli so that a `judge run` answered by a running
`judge serve` imports only the standard library (judge.warm.client).
"""
from __future__ import annotations

import os
import sys


def entry() -> None:
    from judge.warm.client import try_run

    try:
        code = try_run(sys.argv[1:])
    except KeyboardInterrupt:  # Ctrl+C while the warm judge judges: as the CLI says it, no traceback
        sys.stderr.write("interrupted\n")
        leave(130)
    if code is None:
        from judge.cli.index import try_list

        code = try_list(sys.argv[1:])
    if code is None:
        from judge.cli.commands import entry as cli_entry

        code = cli_entry()
    leave(code)


def leave(code: int) -> None:
    """Flush the output and exit without the interpreter's teardown (why: judge.cli.commands.entry)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # e.g. a closed pipe: nothing more can be said
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    entry()
