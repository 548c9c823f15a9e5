"""The warm fork server and the per-run monitor.

`start_zygote` forks a small server from the warm judge right after the
framework is imported and before anything hidden is loaded: its memory holds
no test, expected value or reference. For each run it forks a monitor, which
forks the sandboxed worker, waits for it, kills its whole process group when
the judge says so (or when the judge goes away), removes the scratch
directory and reports the exit status. The judge gets the run's three
descriptors (data socket, control socket, output pipe) over SCM_RIGHTS, so the
zygote never sees inputs or results.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
from pathlib import Path

from judge.sandbox import namespaces, worker

SPAWN = b"S"
PID = b"P"     # monitor -> judge: worker pid
EXIT = b"X"    # monitor -> judge: JSON exit record
KILL = b"k"    # judge -> monitor


def start_zygote(protected: tuple[Path, ...] = (), disabled: tuple[str, ...] = ()) -> tuple[int, socket.socket]:
    """Fork the zygote; return its pid and the judge's end of its socket.

    `protected` are the judge's data directories that every child must not see.
    """
    judge_end, zygote_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        judge_end.close()
        code = 0
        try:
            _serve(zygote_end, protected, disabled)
        except BaseException:  # never unwind into the judge's code in a forked copy
            code = 70
        os._exit(code)
    zygote_end.close()
    return pid, judge_end


def _serve(sock: socket.socket, protected: tuple[Path, ...], disabled: tuple[str, ...]) -> None:
    # Ctrl-C on the terminal must stop the judge, which then closes our socket.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # monitors are reaped automatically
    os.setpgid(0, 0)
    scratch_root = Path(tempfile.gettempdir())
    while True:
        request = sock.recv(1)
        if request != SPAWN:
            return  # judge closed the socket or spoke nonsense
        data_judge, data_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ctl_judge, ctl_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        out_read, out_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                for s in (sock, data_judge, ctl_judge):
                    s.close()
                os.close(out_read)
                _monitor(data_child, ctl_child, out_write, scratch_root, protected, disabled)
            except BaseException:
                code = 70
            os._exit(code)
        data_child.close()
        ctl_child.close()
        os.close(out_write)
        socket.send_fds(sock, [b"F"], [data_judge.fileno(), ctl_judge.fileno(), out_read])
        data_judge.close()
        ctl_judge.close()
        os.close(out_read)


def _monitor(data: socket.socket, ctl: socket.socket, out_write: int, scratch_root: Path,
             protected: tuple[Path, ...], disabled: tuple[str, ...]) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    scratch = Path(tempfile.mkdtemp(prefix="judge-run-", dir=scratch_root))
    if namespaces.available()[0] and "pid namespace" not in disabled:
        try:
            namespaces.enter_pid_namespace()
        except OSError:
            pass  # the child notices it is not PID 1 and reports the layer as missing
    pid = os.fork()
    if pid == 0:
        ctl.close()
        os.setsid()
        worker.main(data.detach(), out_write, scratch, protected, disabled)  # never returns
    data.close()
    os.close(out_write)
    ctl.sendall(PID + pid.to_bytes(8, "little"))
    pidfd = os.pidfd_open(pid)
    killed = False
    while True:
        readable, _, _ = select.select([pidfd, ctl], [], [])
        if pidfd in readable:
            break
        if ctl in readable and not killed:
            message = ctl.recv(1)
            if message == KILL or not message:  # the judge asked, or the judge is gone
                _kill_all(pid)
                killed = True
    _, status, usage = os.wait4(pid, 0)
    _kill_all(pid)  # whatever it left behind in its process group
    shutil.rmtree(scratch, ignore_errors=True)  # rmtree does not follow planted symlinks
    record = {"status": status, "maxrss_kb": usage.ru_maxrss, "cpu_s": usage.ru_utime + usage.ru_stime,
              "killed": killed}
    payload = json.dumps(record).encode()
    try:
        ctl.sendall(EXIT + len(payload).to_bytes(4, "little") + payload)
    except OSError:
        pass


def _kill_all(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
