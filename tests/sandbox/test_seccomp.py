"""The seccomp filter: what it decides for each call (read by a small BPF interpreter, for both
architectures), what a process under it gets from the kernel, and that honest code still runs under it."""
from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from judge.sandbox import seccomp, syscalls

ALLOW, KILL = 0x7FFF0000, 0x80000000
EPERM, ENOSYS = 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
MACHINES = ("x86_64", "aarch64")


def decide(code: bytes, nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """Run the classic-BPF program on one seccomp_data (nr, arch, ip, args[6]), as the kernel would."""
    args = tuple(args) + (0,) * (6 - len(args))
    data = struct.pack("<iIQ6Q", nr, arch, 0, *(a & (1 << 64) - 1 for a in args))
    ops = [struct.unpack_from("<HBBI", code, i) for i in range(0, len(code), 8)]
    acc, pc = 0, 0
    while True:
        op, jt, jf, k = ops[pc]
        if op == 0x20:                     # ld [k]
            acc = struct.unpack_from("<I", data, k)[0]
        elif op == 0x06:                   # ret k
            return k
        elif op in (0x15, 0x35, 0x25, 0x45):  # jeq, jge, jgt, jset k
            taken = {0x15: acc == k, 0x35: acc >= k, 0x25: acc > k, 0x45: bool(acc & k)}[op]
            pc += jt if taken else jf
        else:
            raise AssertionError(f"unexpected instruction {op:#x}")
        pc += 1


# Calls that Python, glibc, numpy, torch, OpenMP and OpenBLAS make (or may make on a new kernel): allowed.
MUST_ALLOW = {
    "x86_64": {"read": 0, "write": 1, "close": 3, "fstat": 5, "lseek": 8, "mmap": 9, "mprotect": 10, "munmap": 11,
               "brk": 12, "rt_sigaction": 13, "rt_sigprocmask": 14, "pread64": 17, "sched_yield": 24, "mremap": 25,
               "madvise": 28, "dup": 32, "getpid": 39, "sendmsg": 46, "recvmsg": 47, "exit": 60, "wait4": 61,
               "uname": 63, "getcwd": 79, "getdents64": 217, "gettid": 186, "futex": 202,
               "sched_getaffinity": 204, "clock_gettime": 228, "exit_group": 231, "tgkill": 234,
               "openat": 257, "newfstatat": 262, "set_robust_list": 273, "pipe2": 293, "prlimit64": 302,
               "getcpu": 309, "getrandom": 318, "membarrier": 324, "statx": 332, "rseq": 334,
               "getxattr": 191, "listxattr": 194, "inotify_rm_watch": 255, "pidfd_send_signal": 424,
               "pidfd_open": 434, "close_range": 436, "openat2": 437, "faccessat2": 439, "process_madvise": 440,
               "epoll_pwait2": 441, "landlock_create_ruleset": 444, "landlock_add_rule": 445,
               "landlock_restrict_self": 446, "futex_waitv": 449, "cachestat": 451, "map_shadow_stack": 453,
               "futex_wake": 454, "futex_wait": 455, "futex_requeue": 456, "statmount": 457, "listmount": 458,
               "lsm_get_self_attr": 459, "lsm_list_modules": 461, "mseal": 462, "getxattrat": 464,
               "listxattrat": 465, "file_getattr": 468},
    "aarch64": {"getxattr": 8, "listxattr": 11, "getcwd": 17, "dup": 23, "inotify_rm_watch": 28, "openat": 56,
                "close": 57, "pipe2": 59, "getdents64": 61, "lseek": 62, "read": 63, "write": 64, "pread64": 67,
                "newfstatat": 79, "fstat": 80, "exit": 93, "exit_group": 94, "futex": 98, "set_robust_list": 99,
                "clock_gettime": 113, "sched_getaffinity": 123, "sched_yield": 124, "tgkill": 131,
                "rt_sigaction": 134, "rt_sigprocmask": 135, "uname": 160, "getpid": 172, "gettid": 178,
                "sendmsg": 211, "recvmsg": 212, "brk": 214, "munmap": 215, "mremap": 216, "mmap": 222,
                "mprotect": 226, "madvise": 233, "wait4": 260, "prlimit64": 261, "getrandom": 278,
                "membarrier": 283, "statx": 291, "rseq": 293, "pidfd_send_signal": 424, "pidfd_open": 434,
                "close_range": 436, "openat2": 437, "faccessat2": 439, "epoll_pwait2": 441,
                "landlock_create_ruleset": 444, "landlock_restrict_self": 446, "futex_waitv": 449, "cachestat": 451,
                "map_shadow_stack": 453, "futex_wake": 454, "futex_wait": 455, "futex_requeue": 456,
                "lsm_get_self_attr": 459, "mseal": 462, "getxattrat": 464, "file_getattr": 468},
}

# What this change denies, by name, on each architecture (x86_64 has the older forms too).
METADATA = {"fchmod", "fchmodat", "fchmodat2", "fchown", "fchownat", "utimensat", "setxattr", "lsetxattr",
            "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "setxattrat", "removexattrat",
            "file_setattr", "inotify_init1", "inotify_add_watch", "fanotify_mark"}
X86_ONLY = {"chmod", "chown", "lchown", "utime", "utimes", "futimesat", "inotify_init"}


@pytest.mark.parametrize("machine", MACHINES)
def test_metadata_and_watch_calls_are_denied(machine):
    names = seccomp.denied(machine)
    expected = METADATA | (X86_ONLY if machine == "x86_64" else set())
    assert expected <= set(names), expected - set(names)
    if machine == "aarch64":
        assert not X86_ONLY & set(names)  # the generic table has none of them
    code, audit = seccomp.program(machine), seccomp.audit_arch(machine)
    for name, number in names.items():
        assert decide(code, number, audit) == EPERM, name


@pytest.mark.parametrize("machine", MACHINES)
def test_what_honest_code_calls_stays_allowed(machine):
    code, audit = seccomp.program(machine), seccomp.audit_arch(machine)
    denied = [name for name, number in MUST_ALLOW[machine].items() if decide(code, number, audit) != ALLOW]
    assert not denied


@pytest.mark.parametrize("machine", MACHINES)
def test_calls_newer_than_the_tables_fail_with_enosys(machine):
    code, audit = seccomp.program(machine), seccomp.audit_arch(machine)
    assert decide(code, seccomp.HIGHEST_KNOWN, audit) == EPERM  # file_setattr, the last known, is denied
    for number in (seccomp.HIGHEST_KNOWN + 1, 471, 512, 547, 1000, 0x3FFFFFFF):
        assert decide(code, number, audit) == ENOSYS, number
    assert decide(code, 435, audit) == ENOSYS                    # clone3, so that glibc uses clone
    assert decide(code, 0x40000000 + 59, audit) == (EPERM if machine == "x86_64" else ENOSYS)  # x32
    assert decide(code, 0, 0x40000003) == KILL                   # a foreign ABI (i386)


@pytest.mark.parametrize("machine", MACHINES)
def test_ioctl_commands_that_set_inode_flags_are_denied_and_others_allowed(machine):
    code, audit = seccomp.program(machine), seccomp.audit_arch(machine)
    ioctl = {"x86_64": 16, "aarch64": 29}[machine]
    for name, command in seccomp.INODE_COMMANDS.items():
        assert decide(code, ioctl, audit, (3, command)) == EPERM, name
        assert decide(code, ioctl, audit, (3, (0xFFFFFFFF << 32) | command)) == EPERM, name  # the kernel drops the high word
    for allowed in (0x541B, 0x80086601, 0xC0502100, 0x5401, 0x40086603):  # FIONREAD, FS_IOC_GETFLAGS, ...
        assert decide(code, ioctl, audit, (3, allowed)) == ALLOW, hex(allowed)


@pytest.mark.parametrize("machine", MACHINES)
def test_fcntl_locks_and_clone_stay_as_they_were(machine):
    code, audit = seccomp.program(machine), seccomp.audit_arch(machine)
    fcntl_nr, clone = {"x86_64": (72, 56), "aarch64": (25, 220)}[machine]
    for command in seccomp.LOCK_COMMANDS.values():
        assert decide(code, fcntl_nr, audit, (3, command)) == EPERM
    assert decide(code, fcntl_nr, audit, (3, 1)) == ALLOW      # F_GETFD
    assert decide(code, clone, audit, (0x00010000 | 0x00000100,)) == ALLOW  # CLONE_THREAD | CLONE_VM
    assert decide(code, clone, audit, (17,)) == EPERM           # SIGCHLD: a new process


def _header_numbers(path: Path, prefix: str) -> dict[str, int]:
    return {m[1]: int(m[2]) for m in re.finditer(rf"#define __NR{prefix}_(\w+)\s+(\d+)\b", path.read_text())}


@pytest.mark.parametrize("machine", MACHINES)
def test_numbers_agree_with_the_system_headers(machine):
    """Every name the filter lists has the number the kernel headers here give it (where they know it)."""
    header = {"x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
              "aarch64": Path("/usr/include/asm-generic/unistd.h")}[machine]
    if not header.exists():
        pytest.skip(f"no {header}")
    numbers = _header_numbers(header, "")
    if machine == "aarch64":
        numbers |= _header_numbers(header, "3264")
    checked = 0
    for name, number in seccomp.denied(machine, deny_memfd=True).items():
        if name in numbers:
            assert numbers[name] == number, name
            checked += 1
    for name, number in MUST_ALLOW[machine].items():
        if name in numbers:
            assert numbers[name] == number, name
    assert checked > 40


# ------------------------------------------------------------------ under the filter, for real

LIVE = pytest.mark.skipif(syscalls.MACHINE not in MACHINES or not seccomp.supported()[0],
                          reason="no seccomp filter for this machine")

_CHECKS = r"""
import ctypes, errno, fcntl, json, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
x86 = os.uname().machine == "x86_64"

def raw(number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return errno.errorcode.get(ctypes.get_errno(), "OK") if result == -1 else "OK"

def outcome(fn, *args):
    try:
        fn(*args)
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return "OK"

def c_call(name, *args):
    ctypes.set_errno(0)
    return errno.errorcode.get(ctypes.get_errno(), "OK") if getattr(libc, name)(*args) == -1 else "OK"

def checks(path):
    got = {}
    got["chmod"] = outcome(os.chmod, path, 0o600)
    got["chown (no change)"] = outcome(os.chown, path, -1, -1)
    got["utime"] = outcome(os.utime, path, (1, 1))
    got["setxattr"] = outcome(os.setxattr, path, "user.judge", b"x")
    got["removexattr"] = outcome(os.removexattr, path, "user.judge")
    fd = os.open(path, os.O_RDWR)
    got["fchmod"] = outcome(os.fchmod, fd, 0o600)
    got["futime"] = outcome(os.utime, fd, (1, 1))
    flags = bytearray(8)
    got["FS_IOC_GETFLAGS"] = outcome(fcntl.ioctl, fd, 0x80086601, flags)  # so that setting them changes nothing
    got["FS_IOC_SETFLAGS"] = outcome(fcntl.ioctl, fd, 0x40086602, flags)
    got["FS_IOC32_SETFLAGS"] = outcome(fcntl.ioctl, fd, 0x40046602, flags)
    got["FS_IOC_FSSETXATTR"] = outcome(fcntl.ioctl, fd, 0x401C5820, bytearray(28))
    got["FS_IOC_SETVERSION"] = outcome(fcntl.ioctl, fd, 0x40087602, flags)
    got["FS_IOC_SETFLAGS, high word set"] = raw(16 if x86 else 29, fd, (1 << 32) | 0x40086602, ctypes.c_char_p(bytes(8)))
    got["FIONREAD"] = outcome(fcntl.ioctl, fd, 0x541B, bytearray(4))
    got["fcntl F_GETFL"] = outcome(fcntl.fcntl, fd, fcntl.F_GETFL)
    os.close(fd)
    got["inotify_init1"] = c_call("inotify_init1", 0)
    if x86:
        got["inotify_init"] = c_call("inotify_init")
    got["inotify_add_watch"] = c_call("inotify_add_watch", 0, path.encode(), 0xFFF)
    got["fanotify_mark"] = raw(301 if x86 else 263, 0, 1, ctypes.c_ulonglong(1), -100, path.encode())
    got["fchmodat2"] = raw(452, -100, path.encode(), 0o600, 0)
    got["setxattrat"] = raw(463, -100, path.encode(), 0, b"user.judge", None, 0)
    got["removexattrat"] = raw(466, -100, path.encode(), 0, b"user.judge")
    got["file_setattr"] = raw(469, -100, path.encode(), None, 0, 0)
    got["syscall 470"] = raw(470)
    got["syscall 1000"] = raw(1000)
    got["stat"] = outcome(os.stat, path)
    got["getrandom"] = outcome(os.getrandom, 8)
    with open(path + ".new", "w") as f:  # a new file of its own: written, its mode the umask's
        got["write"] = outcome(f.write, "more")
    return got
"""


def _run_forked(path: str) -> dict[str, str]:
    """`checks(path)` in a forked child that has installed the filter; its answers by name."""
    namespace: dict = {}
    exec(_CHECKS, namespace)  # noqa: S102 - the module's own text
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            seccomp.install()
            answer = json.dumps(namespace["checks"](path)).encode()
        except BaseException as exc:  # noqa: BLE001 - any failure goes back to the test
            answer = json.dumps({"error": repr(exc)}).encode()
        os.write(write, answer)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        answer = json.loads(f.read() or b'{"error": "no answer"}')
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert "error" not in answer, answer["error"]
    return answer


@LIVE
def test_a_process_under_the_filter_gets_eperm_and_enosys(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    before = target.stat()
    got = _run_forked(str(target))
    allowed = {"FIONREAD", "fcntl F_GETFL", "stat", "getrandom", "write"}
    for name, result in got.items():
        if name == "FS_IOC_GETFLAGS":
            assert result in ("OK", "ENOTTY", "EOPNOTSUPP"), result  # whatever the file system says
        elif name in allowed:
            assert result == "OK", (name, result)
        elif name.startswith("syscall "):
            assert result == "ENOSYS", (name, result)
        else:
            assert result == "EPERM", (name, result)
    after = target.stat()
    assert (after.st_mode, after.st_mtime_ns, after.st_uid) == (before.st_mode, before.st_mtime_ns, before.st_uid)
    assert "user.judge" not in os.listxattr(target)


_HONEST = r"""
import json, os, sys, threading
from judge.sandbox import seccomp
seccomp.install()
import numpy as np
import torch
import scipy.special, scipy.linalg
import sklearn.linear_model
import einops
torch.set_num_threads(2)
a = torch.randn(512, 512, dtype=torch.float64, requires_grad=True)
b = torch.randn(512, 512, dtype=torch.float64)
loss = (a @ b).square().mean()
loss.backward()
grad_ok = torch.allclose(a.grad, 2 * ((a @ b) @ b.T) / a.numel())
results = []
thread = threading.Thread(target=lambda: results.append(round(float(torch.linalg.solve(b, b).trace()))))
thread.start(); thread.join()
x = np.random.default_rng(0).normal(size=(200, 8))
y = x @ np.arange(8.0) + 1
model = sklearn.linear_model.Ridge(alpha=1e-6).fit(x, y)
patches = einops.rearrange(torch.arange(16.0).reshape(1, 1, 4, 4), "b c (h p) (w q) -> b (h w) (c p q)", p=2, q=2)
print(json.dumps({
    "threads": torch.get_num_threads(), "grad": bool(grad_ok), "solve": results,
    "numpy": float(np.linalg.svd(x, compute_uv=False)[0]) > 0,
    "scipy": float(scipy.special.logsumexp([0.0, 0.0])), "lu": scipy.linalg.lu_factor(x.T @ x)[0].shape,
    "sklearn": bool(np.allclose(model.coef_, np.arange(8.0), atol=1e-3)), "einops": list(patches.shape),
    "stat": os.stat(".").st_mode > 0,
}))
"""


@LIVE
def test_honest_code_runs_under_the_filter(tmp_path):
    """numpy, torch (two threads, matmul, autograd, a Python thread), scipy, sklearn and einops,
    imported and used after the filter is installed."""
    env = {**os.environ, "OMP_NUM_THREADS": "2"}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(_HONEST)], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got == {"threads": 2, "grad": True, "solve": [512], "numpy": True, "scipy": pytest.approx(0.6931471805599453),
                   "lu": [8, 8], "sklearn": True, "einops": [1, 4, 4], "stat": True}
