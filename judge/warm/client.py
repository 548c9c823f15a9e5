"""`judge run` through the warm judge of its key, started first when none runs (judge.warm.spawn).

When no warm judge answers, the client starts one in the background and waits
for it to listen, then sends it this run: the first run costs the judge's
start (about a cold run: the framework's import) and every later run a fork
and the tests. When it cannot start (its lock is released without a socket,
or it is not ready by spawn.START_WAIT_S), the run is judged here, as cold runs are.
The run that starts it says so in one line on stderr (spawn.started_note).

Standard library only (plus judge.render.terminal's colour and width rules): the point is to
print a verdict as soon as a fork and the tests allow, so neither numpy, torch nor
click is imported on this path, nor json or the judge's submission rules: the
file's bytes travel as they are, and the server decodes them as `judge run`
would (judge.base.submission). Anything unusual (another command, an option this
parser does not know, a file it cannot read or the server cannot decode, no
server, a server of another judge version or context, a broken connection)
returns None and the caller judges the normal way, which also gives the usual
error messages. `JUDGE_NO_WARM=1` turns the warm path off (and starts nothing).
"""
from __future__ import annotations

import os
import stat
import sys
from collections import namedtuple

from judge.warm import protocol

CONNECT_TIMEOUT_S = 2.0
COLOR_CHOICES = ("auto", "always", "never")


# A namedtuple, not a dataclass: importing dataclasses (and typing) is a large share of a warm run.
RunArgs = namedtuple("RunArgs", "problems_dir problem file as_json verbose examples_only color",
                     defaults=(False, False, False, "auto"))


def parse(argv: list[str]) -> RunArgs | None:
    """`[--problems-dir DIR] run ID FILE [--json] [-v] [--examples]`, or None for anything else."""
    problems_dir = None
    i = 0
    while i < len(argv) and argv[i].startswith("--problems-dir"):
        if argv[i] == "--problems-dir" and i + 1 < len(argv):
            problems_dir, i = argv[i + 1], i + 2
        elif argv[i].startswith("--problems-dir="):
            problems_dir, i = argv[i].split("=", 1)[1], i + 1
        else:
            return None
    if argv[i:i + 1] != ["run"]:
        return None
    flags = {"--json": "as_json", "-v": "verbose", "--verbose": "verbose", "--examples": "examples_only"}
    positional, options = [], {}
    rest = argv[i + 1:]
    while rest:
        arg = rest.pop(0)
        if arg in flags:
            options[flags[arg]] = True
        elif arg == "--color" and rest and rest[0] in COLOR_CHOICES:
            options["color"] = rest.pop(0)
        elif arg.startswith("--color=") and arg.split("=", 1)[1] in COLOR_CHOICES:
            options["color"] = arg.split("=", 1)[1]
        elif arg.startswith("-"):
            return None  # --help, combined flags, `--`: click's business
        else:
            positional.append(arg)
    if len(positional) != 2:
        return None
    return RunArgs(problems_dir, positional[0], positional[1], **options)


def try_run(argv: list[str]) -> int | None:
    """Judge through the warm judge (started first if none runs) and print its report; the exit code,
    or None to judge here."""
    if os.environ.get("JUDGE_NO_WARM", "") not in ("", "0"):  # spawn.off(), without importing spawn
        return None
    args = parse(argv)
    if args is None or protocol.private_dir(create=True) is None:
        return None
    data = read_file(args.file)
    if data is None:
        return None
    from judge.render.terminal import terminal_width, use_colour

    replies = _conversation(args.problems_dir, {
        "problem": args.problem, "data": data, "label": args.file, "origin": os.path.realpath(args.file),
        "examples_only": args.examples_only, "json": args.as_json, "verbose": args.verbose,
        "colour": use_colour(sys.stdout, args.color), "width": terminal_width()}, announce=True)
    response = None if replies is None else next(replies, None)
    code = None if response is None else response.get("code")
    if not isinstance(code, int):
        return None
    sys.stderr.write(str(response.get("stderr", "")))
    sys.stdout.write(str(response.get("stdout", "")))
    sys.stdout.flush()
    # The verdict is out; the diagnosis' refinement follows when the server said one is on its way.
    for more in replies if response.get("refining") else ():
        sys.stdout.write(str(more.get("stdout", "")))
    return code


def judge_source(problems_dir: str | None, problem: str, data: bytes, label: str, *, origin: str | None = None,
                 examples_only: bool = False, record: bool | None = None, announce: bool = False) -> dict | None:
    """A notebook's check (or a watch's run) through the warm judge (started first if none runs): the report
    as JSON, or None to judge in the caller's process; `announce` as `spawn.start` has it."""
    if os.environ.get("JUDGE_NO_WARM", "") not in ("", "0") or protocol.private_dir(create=True) is None:
        return None
    response = _ask(problems_dir, {"problem": problem, "data": data, "label": label, "origin": origin or label,
                                   "examples_only": examples_only, "record": record, "report": True},
                    announce=announce)
    report = None if response is None else response.get("report")
    return report if isinstance(report, dict) else None


def _ask(problems_dir: str | None, run: dict, *, announce: bool = False) -> dict | None:
    """The warm judge's (first) answer to `run`, started first when none answers; None (judge here) when it
    cannot start or sends the caller back."""
    replies = _conversation(problems_dir, run, announce=announce)
    if replies is None:
        return None
    try:
        return next(replies, None)
    finally:
        replies.close()


def _conversation(problems_dir: str | None, run: dict, *, announce: bool = False):
    """The warm judge's answers to `run` (a generator: the report, then any refinement), started first when none
    answers (said on stderr with `announce`); None (judge here) when it cannot start or sends the caller back."""
    cwd = os.getcwd()
    key = protocol.judge_key(problems_dir, cwd)
    path = protocol.socket_path(key)
    request = {"fingerprint": protocol.fingerprint(), "context": protocol.context(problems_dir, cwd), **run}
    replies = protocol.conversation(path, request, CONNECT_TIMEOUT_S)
    if replies is None:  # no warm judge: start one and let it judge this run
        from judge.warm import spawn

        if not spawn.start(problems_dir, key, announce=announce) or not spawn.wait_ready(key):
            return None
        replies = protocol.conversation(path, request, CONNECT_TIMEOUT_S)
    if replies is None:
        return None
    first = next(replies, None)
    if first is None or "fallback" in first:
        replies.close()
        return None
    return _prepend(first, replies)


def _prepend(first: dict, rest):
    yield first
    yield from rest


# Larger files are left to the normal path, which says they are over the source limit.
MAX_FILE_BYTES = protocol.MAX_MESSAGE - (64 << 10)


def read_file(path: str) -> bytes | None:
    """The file's bytes; None (judge here, with its error) when it is not a readable file of a sendable size."""
    try:
        # O_NONBLOCK: a FIFO named like a file opens at once (and is refused below) rather than wait for a writer.
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as file:
            info = os.fstat(file.fileno())  # the file opened, not a path looked up again
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
                return None
            return file.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
