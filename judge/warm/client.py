"""`judge run` through a warm `judge serve`, when one is running for this user.

Standard library only (plus judge.terminal's colour and width rules): the point is to
print a verdict in a few tens of milliseconds, so neither numpy, torch nor
click is imported on this path, nor json or the judge's submission rules: the
file's bytes travel as they are, and the server decodes them as `judge run`
would (judge.submission). Anything unusual (another command, an option this
parser does not know, a file it cannot read or the server cannot decode, no
server, a server of another judge version or context, a broken connection)
returns None and the caller judges the normal way, which also gives the usual
error messages. `JUDGE_NO_WARM=1` turns the warm path off.
"""
from __future__ import annotations

import _socket  # not `socket`: see protocol.py
import os
import stat
import sys
from collections import namedtuple

from judge.warm import protocol

CONNECT_TIMEOUT_S = 2.0


# A namedtuple, not a dataclass: importing dataclasses (and typing) would cost ~10 ms of a ~50 ms run.
RunArgs = namedtuple("RunArgs", "problems_dir problem file as_json verbose examples_only",
                     defaults=(False, False, False))


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
    for arg in argv[i + 1:]:
        if arg in flags:
            options[flags[arg]] = True
        elif arg.startswith("-"):
            return None  # --help, combined flags, `--`: click's business
        else:
            positional.append(arg)
    if len(positional) != 2:
        return None
    return RunArgs(problems_dir, positional[0], positional[1], **options)


def try_run(argv: list[str]) -> int | None:
    """Judge through the warm server and print its report; the exit code, or None to judge here."""
    if os.environ.get("JUDGE_NO_WARM", "") not in ("", "0"):
        return None
    args = parse(argv)
    if args is None or protocol.private_dir(create=False) is None:
        return None
    path = protocol.socket_path()
    if not protocol.owned_socket(path):
        return None
    data = _read(args.file)
    if data is None:
        return None
    from judge.terminal import terminal_width, use_colour

    request = {"fingerprint": protocol.fingerprint(), "context": protocol.context(args.problems_dir, os.getcwd()),
               "problem": args.problem, "data": data, "label": args.file,
               "origin": os.path.realpath(args.file), "examples_only": args.examples_only,
               "json": args.as_json, "verbose": args.verbose, "colour": use_colour(sys.stdout),
               "width": terminal_width()}
    try:
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            sock.settimeout(CONNECT_TIMEOUT_S)
            sock.connect(str(path))
            sock.settimeout(None)  # judging takes as long as the problem's limits allow
            protocol.send(sock, request)
            response = protocol.receive(sock)
        finally:
            sock.close()
    except (OSError, ValueError):
        return None
    code = response.get("code")
    if "fallback" in response or not isinstance(code, int):
        return None
    sys.stderr.write(str(response.get("stderr", "")))
    sys.stdout.write(str(response.get("stdout", "")))
    return code


# Larger files are left to the normal path, which says they are over the source limit.
MAX_FILE_BYTES = protocol.MAX_MESSAGE - (64 << 10)


def _read(path: str) -> bytes | None:
    """The file's bytes; None (judge here, with its error) when it is not a readable file of a sendable size."""
    try:
        with open(path, "rb") as file:
            info = os.fstat(file.fileno())  # the file opened, not a path looked up again
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
                return None
            return file.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
