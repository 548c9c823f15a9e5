"""The attack suite: malicious submissions against the sandbox's promises (issue 3).

Each attack in tests/attacks/ is judged on a copied fixture problem set; the
test asserts its verdict and that nothing leaked (no `PWNED` in its output)
and nothing changed: no file outside the scratch directory, no process left
behind, no connection made, the problem set byte for byte the same. The
second half switches the other layers off (JUDGE_SANDBOX_DISABLE) to show
that each layer on its own stops the attack it exists for.
"""
from __future__ import annotations

import hashlib
import ctypes
import json
import math
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import unicodedata
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from judge.render import render_text
from judge.sandbox import namespaces
from judge.sandbox.isolation import DISABLE_ENV, probe_all
from judge.judging.session import Judge
from judge.base.outcomes import Verdict

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"

AC, WA, RTE = Verdict.ACCEPTED, Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR
TLE, MLE, OLE = Verdict.TIME_LIMIT_EXCEEDED, Verdict.MEMORY_LIMIT_EXCEEDED, Verdict.OUTPUT_LIMIT_EXCEEDED
SV = Verdict.SECURITY_VIOLATION

# attack file -> verdicts it may get with every layer on
EXPECTED = {
    # A path outside the child's own root does not exist there: FileNotFoundError, a runtime error; a
    # refusal (Landlock, a read-only mount) is a security violation.
    "read_hidden_direct": {SV, RTE},
    "read_known_submissions": {SV, RTE},
    "read_expected_cache": {SV, RTE},
    "glob_hidden": {WA},
    "proc_judge_root": {WA},
    "import_hidden_module": {RTE, SV},
    "memory_scan": {WA},
    "memory_scan_in_call": {WA},
    "monkeypatch_comparators": {WA, RTE},
    "lying_object": {WA},
    "tensor_subclass": {WA},
    "pickle_payload": {WA},
    "fake_verdict_output": {WA},
    "forge_result_channel": {WA, SV},
    "sys_exit_at_import": {RTE},
    "os_exit_in_call": {RTE},
    "infinite_loop": {TLE},
    "sleep_forever": {TLE},
    "ignore_signals": {TLE},
    "memory_bomb": {MLE},
    "fork_bomb": {SV},
    "kill_the_judge": {AC},
    "network": {SV},
    "exec_program": {SV},
    "write_outside_scratch": {SV, RTE},
    "write_library": {SV},
    "symlink_planting": {AC},
    "output_flood": {OLE},
    "disk_fill": {OLE},
    "huge_return": {OLE, MLE},
    "segfault": {RTE},
    # Python 3.11 recursion does not use the C stack: it grows until memory or time runs out.
    "unbounded_recursion": {RTE, TLE, MLE},
    "leftover_threads": {AC},
    "environment_secrets": {WA},
    "umount_hidden": {SV, RTE},
    "inherited_fds": {AC},
    # Issue 10: verdicts that cannot be forged (attacks on the `rows` fixture where named in PROBLEM).
    "fake_value_error": {WA},
    "fake_memory_error": {RTE},
    "claimed_memory_error": {RTE},       # the builtin itself, with no memory measured at its limit
    "lying_class_memory_error": {RTE},   # a __class__ property saying MemoryError
    "forge_gradients": {WA},
    "hide_mutation": {WA},               # the arguments are read in the judge's arena
    "numpy_comparison_rebound": {WA},    # the child's account lies; the arena does not
    "spot_the_probe": {WA},
    "memo_by_shape": {WA},
    "ready_keepalive": {SV},
    "done_early": {SV},
    "wrong_json_frame": {SV},
    "nan_times": {AC},
    "hide_isolation_warning": {SV},
    "many_tiny_arrays": {OLE},
    "extra_keys": {WA},
    "escape_sequences": {RTE},
    "hostile_text": {RTE},               # issue 32: bidi, a lone surrogate and bytes that are not UTF-8
    "memory_error_in_raises": {MLE},
    # MLE when it was stopped for time while taking memory fast (judge.runs.decisions, tested there); on a
    # virtual machine whose host backs freed guest pages lazily, the first touch of 500 MiB can stall
    # for more than the 1 s limit before a quarter of it is in, and then it is stopped for time.
    "memory_hog_slow": {MLE, TLE},

    "ipc_channel": {AC},                 # ctypes is the submission's own; the IPC namespace and seccomp hold
    # Issue 21, class 1: runs that would never end.
    "hold_stdout_after_done": {AC},      # every result was in; what it does after DONE changes nothing
    "close_channel_and_sleep": {TLE},
    # Class 2: a lease or a lock visible outside the run.
    "lease_and_lock": {AC},
    # A file's metadata (mode, owner, times, xattrs, inode flags) and inotify watches: seccomp denies them.
    "metadata_change": {AC},
    "inotify_watch": {AC},
    "raw_metadata_syscalls": {AC},
    # Class 3: memory and tasks outside the limits (a memory cgroup ends memfd_hoard as MLE; without
    # one, memfd_create is denied).
    "memfd_hoard": {MLE, SV},
    "inode_flood": {AC},
    "thread_bomb": {AC},
    # Reaching into the interpreter's or the judge's internals from the submission's own process: allowed,
    # flagged (TAMPERED below), and no verdict moves: values are compared in the judge, arguments read in its
    # arena, memory measured by the monitor. A forged claim (which exception, gradients) is never easier than
    # behaving and is flagged.
    "harness_frame": {WA},
    "traceback_frame": {WA},
    "generator_frame": {WA},
    "gc_scan": {WA},
    "trace_calls": {WA},
    "ctypes_poke": {WA},
    "patch_judge_class": {AC},           # the child's records changed; the value is right
    "import_judge": {RTE},               # importing the judge is harmless; the hidden tests are not there
    "rebind_judge_modules": {SV},        # its encoder rebound: the bytes it sends are no result frame
    "array_interface_read": {AC},        # its own memory: nothing of the judge's is in it
    "raw_memory_forgery": {AC},          # a forged claim (the exception's class), flagged (see the tests below)
    "torch_function_mode": {WA},
    "torch_dispatch_mode": {WA},
    "legit_introspection": {AC},
    "forged_frame_caller": {WA},
    "borrowed_code": {WA},
    "poisoned_traceback": {RTE},
    "logging_frames": {WA},
    "read_classmate": {AC},
    "read_problem_set_git": {AC},
    # Claims honest: a raises test is decided on the exception's real type (type(exc)'s own MRO).
    "forged_raises_class": {WA},         # a __class__ property saying ValueError fools isinstance
    "forged_raises_class_hidden": {WA},  # the same, built by exec from bytes: not flagged, still wrong
    "forged_raises_mro": {WA},           # a metaclass __mro__ property: type(exc).__mro__ lies
    "forged_raises_rebinding": {AC},     # the judge's own reader rebound in the child: a claim, forged and flagged
    "silenced_watch": {AC},              # the watch's class rebound; its trace function is reported all the same
    # Arguments watched to the end: every call's arguments are read in the judge's arena again whenever a
    # later result arrives and when the run is over, so a change made at any time fails the mutation test.
    "late_mutation": {WA},               # a kept input zeroed at the start of the next call
    "mutation_after_last_result": {WA},  # zeroed after DONE, from the flush that closes the channel
    "mutation_at_exit": {WA},            # zeroed in os._exit, rebound, after the channel closed
    "version_counter_reset": {WA},       # zeroed late, torch's version counter set back: the bytes decide
    # The child's own world: host files beyond what it imports do not exist for it, what it imports is
    # mounted read-only, and (under a root judge) its id owns no host file. Each attack catches its refusals.
    "host_metadata": {AC},
    "stat_hidden": {AC},
    "xattr_channel": {AC},
    "scratch_root_mode": {AC},
}

# Attacks whose report must list tampering (what the source or the child shows of reaching into internals).
TAMPERED = {"harness_frame", "traceback_frame", "generator_frame", "gc_scan", "trace_calls", "ctypes_poke",
            "patch_judge_class", "import_judge", "rebind_judge_modules", "array_interface_read", "raw_memory_forgery",
            "torch_function_mode", "torch_dispatch_mode", "forged_frame_caller", "borrowed_code",
            "poisoned_traceback", "logging_frames", "hide_mutation", "forge_gradients", "numpy_comparison_rebound",
            "lying_class_memory_error", "forged_raises_class", "forged_raises_rebinding", "silenced_watch",
            "mutation_at_exit"}
# ...and attacks whose code is what honest learners write: nothing flagged.
UNFLAGGED = {"legit_introspection", "claimed_memory_error", "infinite_loop", "memory_bomb"}

# attack file -> the fixture problem it attacks (default: double). `rows` has a raises
# test and gradient, mutation and leakage checks.
PROBLEM = {name: "rows" for name in ("fake_value_error", "forge_gradients", "hide_mutation", "numpy_comparison_rebound",
                                     "spot_the_probe",
                                     "memo_by_shape", "memory_error_in_raises", "raw_memory_forgery",
                                     "forged_raises_class", "forged_raises_class_hidden", "forged_raises_mro",
                                     "forged_raises_rebinding",
                                     "late_mutation", "mutation_after_last_result", "mutation_at_exit",
                                     "version_counter_reset")}

# Whatever an attack does, the report stays small and plain: strict JSON (no NaN), bounded in
# size, and its text free of terminal control sequences.
MAX_REPORT_BYTES = 256 << 10


# Attacks whose expected verdict relies on a layer that some machines lack (a normal user without
# user namespaces): there they are stopped all the same, by Landlock and seccomp, with another verdict,
# or (disk_fill) not at all. They skip, naming the missing layer, where the machine lacks it.
NEEDS = {
    "disk_fill": "scratch size limit",
    "proc_judge_root": "pid namespace",
    "read_expected_cache": "mount namespace",
    "inode_flood": "scratch size limit",
    "thread_bomb": "task limit",
}


def _skip_unless_offered(layer: str) -> None:
    offered = {status.name: status for status in probe_all()}
    if not offered[layer].active:
        pytest.skip(f"this machine has no {layer}: {offered[layer].detail}")


@dataclass
class Arena:
    """A copied problem set, a canary directory, a listener and the placeholders."""

    root: Path
    canary: Path
    listener: socket.socket
    marker: str
    secret: str           # in the judge's environment: must not reach the child at all
    kept_secret: str      # in a variable the fork server keeps (OMP_*): the child's scrub removes it
    work: Path
    ipc_key: int          # names the System V and POSIX IPC objects of ipc_channel
    classmate_secret: str  # in work/alice.py: another student's submission next to the attack

    def fill(self, text: str) -> str:
        for key, value in (("@ROOT@", str(self.root)), ("@CANARY@", str(self.canary)),
                           ("@PORT@", str(self.listener.getsockname()[1])), ("@JUDGE_PID@", str(os.getpid())),
                           ("@SECRET@", self.secret), ("@MARKER@", self.marker),
                           ("@KEPT_SECRET@", self.kept_secret), ("@IPC_KEY@", str(self.ipc_key)),
                           ("@WORK@", str(self.work)), ("@CLASSMATE_SECRET@", self.classmate_secret),
                           ("@CACHE@", os.environ["JUDGE_CACHE_DIR"]), ("@JUDGE_HOME@", os.environ["JUDGE_HOME"]),
                           # halves, for attacks that must not hold a whole needle in memory themselves
                           ("@MARKER_A@", self.marker[:16]), ("@MARKER_B@", self.marker[16:]),
                           ("@SECRET_A@", self.secret[:16]), ("@SECRET_B@", self.secret[16:])):
            text = text.replace(key, value)
        return text

    def submission(self, name: str) -> Path:
        path = self.work / f"{name}.py"
        path.write_text(self.fill((ATTACKS / f"{name}.py").read_text()))
        return path

    def fingerprint(self) -> str:
        digest = hashlib.sha256()
        for path in sorted(self.root.rglob("*")):
            digest.update(str(path.relative_to(self.root)).encode())
            if path.is_file():
                digest.update(path.read_bytes())
        return digest.hexdigest()


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    base = tmp_path_factory.mktemp("attacks")
    marker, secret, kept = (f"{kind}{uuid.uuid4().hex}" for kind in ("HIDDEN", "SECRET", "KEPTSECRET"))
    root = base / "problem_set"
    shutil.copytree(ATTACKS / "problem_set", root)
    for path in root.rglob("*"):
        if path.is_file():
            path.write_text(path.read_text().replace("@MARKER@", marker))
    (root / ".git").mkdir()  # a problem set under version control: history holds hidden tests too
    (root / ".git" / "config").write_text(f"[core]\n# {marker}\n")
    canary = base / "canary"
    (canary / "precious").mkdir(parents=True)
    (canary / "precious" / "keep.txt").write_text("precious")
    work = base / "submissions"
    work.mkdir()
    classmate_secret = f"CLASSMATE{uuid.uuid4().hex}"
    (work / "alice.py").write_text(f"# {classmate_secret}\ndef double(x):\n    return x * 2\n")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    with pytest.MonkeyPatch.context() as patch:
        # Secrets in the judge's environment: a plain one, and one that the fork
        # server keeps (OMP_ prefix) so that only the child's own scrub removes it.
        patch.setenv("JUDGE_ATTACK_SECRET", secret)
        patch.setenv("OMP_ATTACK_SECRET", kept)
        arena = Arena(root, canary, listener, marker, secret, kept, work, ipc_key=random.randrange(1 << 20, 1 << 30),
                      classmate_secret=classmate_secret)
        yield arena
    listener.close()
    _remove_host_ipc(arena.ipc_key)  # what a regression planted must not outlive the tests either


@pytest.fixture(autouse=True)
def no_ipc_left_for_the_next_test(arena):
    """A failing IPC test must not leave its objects to fail the tests after it."""
    yield
    _remove_host_ipc(arena.ipc_key)


@pytest.fixture(scope="module")
def attack_judge(arena):
    # The submissions' directory is on the judge's sys.path, as under `PYTHONPATH=class/ judge run`:
    # the fork server inherits it, and no child may read it.
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(arena.work))
        with Judge(arena.root, record=False) as judge:
            yield judge


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], list(children.get(pid, []))
    while todo:
        child = todo.pop()
        found.append(child)
        todo.extend(children.get(child, []))
    return found


@dataclass(frozen=True)
class _Idle:
    """The run the fork server forked ahead: a monitor, its worker waiting for a request, a scratch directory."""

    sandbox: Any     # the fork server (judge.sandbox.runner.Sandbox) the run goes to
    pids: frozenset[int]
    scratch: frozenset[Path]


def _idle_run(judge: Judge, problem_id: str) -> _Idle:
    """Start the judge's fork server for `problem_id` if need be and wait for its run forked ahead.

    Between runs the server holds exactly that and nothing else: the next run takes it.
    """
    sandbox = judge.backend.server(judge.problem(problem_id).framework)  # a torch one serves numpy too
    server, root = sandbox._process.pid, sandbox.scratch_root
    deadline = time.monotonic() + 120  # the first start imports the framework
    while time.monotonic() < deadline:
        pids, scratch = _descendants(server), list(root.iterdir())
        if len(pids) == 2 and len(scratch) == 1:
            return _Idle(sandbox, frozenset(pids), frozenset(scratch))
        time.sleep(0.05)
    raise AssertionError(f"the fork server holds {pids} and {scratch}, not one run forked ahead")


def _no_leftovers(before: _Idle) -> None:
    """Every process the run started is gone, and so is its scratch directory.

    The run took the run forked ahead (`before`): those processes and that directory must be
    gone, and the server must hold nothing but a new run forked ahead, two processes and
    one directory that are not the old ones.
    """
    server, root = before.sandbox._process.pid, before.sandbox.scratch_root
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        pids, scratch = set(_descendants(server)), set(root.iterdir())
        if not pids & before.pids and not scratch & before.scratch and len(pids) == 2 and len(scratch) == 1:
            break
        time.sleep(0.05)
    assert not pids & before.pids, "processes of the run outlived it"
    assert len(pids) == 2, f"processes of the run outlived it: the server holds {sorted(pids)}"
    assert not scratch & before.scratch and len(scratch) == 1, f"scratch directories left behind: {scratch}"


_libc = ctypes.CDLL(None, use_errno=True)


def _host_ipc(key: int) -> list[str]:
    """The IPC objects named by `key` that exist in the host's (the judge's) IPC namespace."""
    found = []
    for kind in ("shm", "msg", "sem"):
        for line in Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]:
            if int(line.split()[0]) == key:
                found.append(f"System V {kind} {key}")
    mqd = _libc.mq_open(f"/judge-attack-{key}".encode(), os.O_RDONLY)
    if mqd >= 0:
        _libc.mq_close(mqd)
        found.append(f"POSIX message queue /judge-attack-{key}")
    return found


def _remove_host_ipc(key: int) -> None:
    ipc_rmid = 0
    for get, ctl in ((_libc.shmget, _libc.shmctl), (_libc.msgget, _libc.msgctl)):
        ident = get(key, 0, 0)
        if ident >= 0:
            ctl(ident, ipc_rmid, None)
    _libc.mq_unlink(f"/judge-attack-{key}".encode())


def _intact(arena: Arena, fingerprint: str) -> None:
    assert arena.fingerprint() == fingerprint, "the problem set changed"
    assert sorted(p.name for p in arena.canary.iterdir()) == ["precious"], "files appeared outside the sandbox"
    assert (arena.canary / "precious" / "keep.txt").read_text() == "precious"
    assert not Path("/tmp/judge-attack-written").exists()
    with pytest.raises(BlockingIOError):
        arena.listener.accept()
    left = _host_ipc(arena.ipc_key)
    _remove_host_ipc(arena.ipc_key)
    assert not left, f"IPC objects outlived the run: {left}"


def test_every_attack_file_has_an_expectation():
    names = {p.stem for p in ATTACKS.glob("*.py")}
    assert names == set(EXPECTED)
    assert len(names) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_attack(name, arena, attack_judge):
    if name in NEEDS:
        _skip_unless_offered(NEEDS[name])
    fingerprint = arena.fingerprint()
    before = _idle_run(attack_judge, PROBLEM.get(name, "double"))
    report = attack_judge.run(PROBLEM.get(name, "double"), arena.submission(name))
    failing = [(t.name, t.verdict.value, t.message) for t in report.tests if t.verdict is not AC]
    assert report.verdict in EXPECTED[name], failing
    assert "PWNED" not in report.output, report.output[-2000:]
    assert arena.secret not in report.output and arena.marker not in report.output
    for test in report.tests:  # hidden inputs and expected values never reach a message
        assert arena.marker not in test.text
    if name in TAMPERED:
        assert report.tampering, "reaching into internals was not flagged"
    if name in UNFLAGGED:
        assert not report.tampering, report.tampering
    _plain_report(report)
    _no_leftovers(before)
    _intact(arena, fingerprint)


def _plain_report(report) -> None:
    """Strict JSON of bounded size in valid UTF-8; rendered text without control, bidi or other format
    characters (newlines apart) and without lone surrogates."""
    shown = report.shown_json()
    text = json.dumps(shown, allow_nan=False)               # raises on NaN or inf
    json.dumps(shown, ensure_ascii=False).encode("utf-8")   # raises on a lone surrogate
    assert len(text) < MAX_REPORT_BYTES, f"a report of {len(text)} bytes"
    rendered = render_text(report, verbose=True, values=True)
    assert len(rendered) < 4 * MAX_REPORT_BYTES, f"{len(rendered)} characters of text"
    controls = sorted({c for c in rendered if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")})
    assert not controls, f"control characters reach the terminal: {controls}"


METADATA_ATTACKS = ("host_metadata", "xattr_channel", "scratch_root_mode")


def _metadata(paths: list[Path], judge_writes: tuple[Path, ...]) -> dict[str, tuple]:
    """Mode, owner, times and extended attributes: what a change of metadata (not of content) moves. In the
    directories the judge itself writes (its cache, its home) times move with its own work: not compared."""
    seen = {}
    for path in paths:
        for item in [path, *(path.rglob("*") if path.is_dir() else ())]:
            st = item.lstat()
            try:
                attributes = tuple(sorted(os.listxattr(item, follow_symlinks=False)))
            except OSError:
                attributes = ()
            ours = any(item == d or d in item.parents for d in judge_writes)
            seen[str(item)] = (st.st_mode, st.st_uid, st.st_gid, None if ours else st.st_mtime_ns, attributes)
    return seen


@pytest.mark.parametrize("name", METADATA_ATTACKS)
def test_no_host_file_changes_its_mode_times_or_attributes(name, arena, attack_judge):
    import numpy
    judge_writes = (Path(os.environ["JUDGE_CACHE_DIR"]), Path(os.environ["JUDGE_HOME"]))
    paths = [arena.root, arena.canary, *judge_writes, Path(numpy.__file__), Path(os.__file__),
             Path(os.__file__).parent / "json"]
    before = _metadata(paths, judge_writes)
    report = attack_judge.run("double", arena.submission(name))
    assert "PWNED" not in report.output, report.output[-2000:]
    after = _metadata(paths, judge_writes)
    assert {path: (before[path], after.get(path)) for path in before if after.get(path) != before[path]} == {}


def test_blocked_operations_are_explained(arena, attack_judge):
    report = attack_judge.run("double", arena.submission("write_library"))
    assert "outside the working directory is not allowed" in report.first_failure.message
    report = attack_judge.run("double", arena.submission("exec_program"))
    assert "starting programs" in report.first_failure.message


def test_leftover_thread_never_writes(arena, attack_judge):
    attack_judge.run("double", arena.submission("leftover_threads"))
    time.sleep(3.5)  # the thread would have written by now had it survived
    assert not (arena.canary / "thread_wrote").exists()


def _judge_json(arena: Arena, attack: str) -> subprocess.CompletedProcess:
    """`judge run double ATTACK --json` as a user would type it."""
    return subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(arena.root), "run", "double",
                           str(arena.submission(attack)), "--json"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "JUDGE_NO_RECORD": "1"})

def test_ipc_objects_of_a_run_never_reach_the_next(arena):
    """Class 6: a run that plants System V / POSIX IPC objects (through ctypes) finds none of the previous run's."""
    fingerprint = arena.fingerprint()
    with Judge(arena.root, record=False) as judge:
        for _ in range(2):
            report = judge.run("double", arena.submission("ipc_channel"))
            assert report.verdict is AC and "PWNED" not in report.output, report.output[-2000:]
            _intact(arena, fingerprint)


def test_two_submissions_of_one_grade_cannot_talk_through_ipc(arena, tmp_path):
    """Class 6: two submissions judged at once by one `judge grade` share no IPC object."""
    from judge.judging import batch

    directory = tmp_path / "class"
    directory.mkdir()
    for name in ("alice", "bob"):
        (directory / f"{name}.py").write_text(arena.fill((ATTACKS / "ipc_channel.py").read_text()))
    fingerprint = arena.fingerprint()
    with Judge(arena.root, record=False, threads=1) as judge:
        result = batch.grade_directory(judge, "double", directory, workers=2)
    assert [(row.file, row.verdict) for row in result.rows] == [("alice.py", AC), ("bob.py", AC)]
    _intact(arena, fingerprint)


def test_graded_directory_is_unreadable_under_python_m(arena, tmp_path):
    """Class 7: `cd class/ && python -m judge grade double .` puts class/ on sys.path; no student reads another."""
    directory = tmp_path / "class"
    directory.mkdir()
    (directory / "alice.py").write_text(f"# {arena.classmate_secret}\ndef double(x):\n    return x * 2\n")
    attack = (ATTACKS / "read_classmate.py").read_text().replace("@WORK@", str(directory))
    (directory / "bob.py").write_text(arena.fill(attack))
    result = subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(arena.root), "grade", "double",
                             ".", "--json"], capture_output=True, text=True, timeout=300, cwd=directory,
                            env={**os.environ, "JUDGE_NO_RECORD": "1"})
    assert result.returncode == 0, result.stderr
    rows = {row["file"]: row["verdict"] for row in json.loads(result.stdout)["rows"]}
    assert rows == {"alice.py": "accepted", "bob.py": "accepted"}, result.stdout


def test_fake_verdicts_never_reach_the_json_report(arena):
    """Whatever the submission prints, stdout of `judge run --json` is the judge's one JSON object."""
    result = _judge_json(arena, "fake_verdict_output")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)  # exactly one JSON document, nothing else
    assert report["verdict"] == "wrong_answer"
    assert report["passed"] < report["total"]


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def test_times_are_the_judges_own_and_json_stays_strict(arena):
    """A submission that makes its clock return NaN changes no time in the report (issue 10, class 4)."""
    result = _judge_json(arena, "nan_times")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout, parse_constant=_reject_constant)
    assert all(math.isfinite(t["time_ms"]) and t["time_ms"] >= 0 for t in report["tests"])


def test_a_structure_too_large_is_refused_by_size(arena, attack_judge):
    report = attack_judge.run("double", arena.submission("many_tiny_arrays"))
    assert "items" in report.first_failure.message and "limit" in report.first_failure.message


# ------------------------------------------------------------------ issue 21, class 1: every run ends

# The double fixture's wall clock (import_time_s 10 + budget 10 s), the runner's bound on waiting
# for a killed worker's exit record, and room for a loaded machine.
WALL_S, REAP_S, SLACK_S = 20.0, 3.0, 10.0


def test_output_after_done_is_never_credited_and_the_run_ends(arena, attack_judge):
    """A duplicated stdout and a flush that floods and blocks after DONE: the run ends within the DONE
    grace, nothing printed after DONE reaches the report, and the results stand."""
    begun = time.monotonic()
    report = attack_judge.run("double", arena.submission("hold_stdout_after_done"))
    elapsed = time.monotonic() - begun
    assert report.verdict is AC, [(t.name, t.verdict.value, t.message) for t in report.tests]
    assert "AFTER-DONE" not in report.output and all("AFTER-DONE" not in t.text for t in report.tests)
    assert elapsed < 10, f"the run took {elapsed:.1f} s"


def test_a_worker_without_its_channel_ends_by_the_calls_clock(arena, attack_judge):
    begun = time.monotonic()
    report = attack_judge.run("double", arena.submission("close_channel_and_sleep"))
    elapsed = time.monotonic() - begun
    assert report.verdict is TLE
    assert elapsed < WALL_S + REAP_S + SLACK_S, f"the run took {elapsed:.1f} s"


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_a_run_whose_monitor_cannot_report_is_abandoned_and_the_server_goes_on():
    """The monitor of a run is stopped (it can neither kill nor report): the judge stops waiting REAP_S
    after the call's clock, calls it judge_error, and the same fork server judges the next run."""
    import signal

    from judge.runs.calls import Call
    from judge.runs.contract import Limits, Program
    from judge.sandbox.runner import Sandbox
    from judge.runs.decisions import of_death

    limits = Limits(time_s=1.0, import_time_s=5.0, total_time_s=5.0)
    sleeper = Program("import time\ndef f():\n    time.sleep(30)\n", "f.py", "f")
    with Sandbox(preload=("numpy",)) as sandbox:
        zygote = sandbox._process.pid
        deadline = time.monotonic() + 60
        while len(_descendants(zygote)) != 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # the server's first run, forked ahead: its monitor and worker (no run has ended)
        monitor, = _children(zygote)
        worker, = _children(monitor)
        os.kill(monitor, signal.SIGSTOP)
        try:
            begun = time.monotonic()
            result = sandbox.run(sleeper, [Call(args=())], limits)
            elapsed = time.monotonic() - begun
            death = result.outcomes[0].death
            assert death is not None and death.exit_code is None and death.signal is None
            assert of_death(death, limits).verdict is Verdict.JUDGE_ERROR
            assert elapsed < limits.time_s + REAP_S + SLACK_S, f"waited {elapsed:.1f} s"
            again = sandbox.run(Program("def f():\n    return 7\n", "f.py", "f"), [Call(args=())], limits)
            assert again.outcomes[0].observation.value == 7
        finally:
            for pid, sig in ((worker, signal.SIGKILL), (monitor, signal.SIGKILL), (monitor, signal.SIGCONT)):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass  # gone already: the zygote reaps its monitors at once


def test_a_hung_run_never_holds_the_warm_server(arena):
    """Under `judge serve`, a run that would hang ends by its wall clock and the next run is answered."""
    import threading

    from judge.warm import protocol
    from judge.warm.server import WarmServer

    with Judge(arena.root, record=False) as judge:
        server = WarmServer(judge, threading.Lock())
        context = protocol.context(str(arena.root), str(arena.root))

        def request(name: str) -> dict:
            return {"fingerprint": server.fingerprint, "context": context, "problem": "double", "label": "x.py",
                    "data": arena.fill((ATTACKS / f"{name}.py").read_text()).encode()}

        answers: dict[str, tuple[dict, float]] = {}
        begun = time.monotonic()

        def answer(name: str) -> None:
            answers[name] = (server.answer(request(name)), time.monotonic() - begun)

        hung = threading.Thread(target=answer, args=("close_channel_and_sleep",))
        hung.start()
        time.sleep(1.0)
        answer("hold_stdout_after_done")
        hung.join(WALL_S + REAP_S + SLACK_S)
        assert not hung.is_alive(), "the hung run still holds the server"
        assert answers["close_channel_and_sleep"][0]["code"] == 1
        assert answers["hold_stdout_after_done"][0]["code"] == 0
        assert answers["hold_stdout_after_done"][1] < 2 * (WALL_S + REAP_S) + SLACK_S


def test_a_forged_claim_is_never_easier_than_behaving_and_is_flagged(arena, attack_judge, tmp_path):
    """Which exception a call raised is the child's claim. The shortest forgery known rewrites IndexError's
    MRO in raw memory (five lines, through numpy's array interface) so that a file without input validation
    passes its raises test: longer than the validation it replaces (one `if` and one `raise`), and flagged.
    Without those lines the same file fails its raises test, unflagged."""
    forged = arena.submission("raw_memory_forgery")
    source = forged.read_text()
    start, end = source.index("# --- the forgery"), source.index("# --- end of the forgery")
    forgery = [line for line in source[start:end].splitlines()[1:] if line.strip()]
    assert len(forgery) == 5
    honest = tmp_path / "no_validation.py"
    honest.write_text(source[:start] + source[end:])
    plain = attack_judge.run("rows", honest)
    assert plain.verdict is not AC and not plain.tampering
    report = attack_judge.run("rows", forged)
    assert report.verdict is AC and report.tampering


def test_expected_values_are_nowhere_in_the_childs_memory(arena, attack_judge):
    """The whole address space of the child, read while a call runs (its inputs all sent), holds no expected
    output, no hidden marker and no secret of the judge's environment (memory_scan_in_call prints PWNED
    with what it found; it runs the scan for real: its own output says what it read)."""
    report = attack_judge.run("double", arena.submission("memory_scan_in_call"))
    assert report.verdict is WA
    assert "PWNED" not in report.output


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigterm_to_the_judge_ends_every_process_of_the_run(arena):
    """`judge run` stopped by SIGTERM mid-run: its fork server, monitor and worker (the init of a PID
    namespace, which ignores SIGTERM itself) are all gone within seconds."""
    import signal

    process = subprocess.Popen([sys.executable, "-m", "judge", "--problems-dir", str(arena.root), "run", "double",
                                str(arena.submission("sleep_forever"))], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**os.environ, "JUDGE_NO_RECORD": "1",
                                                               "JUDGE_NO_WARM": "1"})
    try:
        deadline = time.monotonic() + 60
        tree: list[int] = []
        while time.monotonic() < deadline and len(tree) < 3:  # server, monitor, worker
            time.sleep(0.2)
            tree = _descendants(process.pid)
        assert len(tree) >= 3, f"the run did not start: {tree}"
        time.sleep(0.5)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(pid) for pid in tree):
            time.sleep(0.1)
        assert not [pid for pid in tree if _alive(pid)], "processes of the run survived the judge"
    finally:
        process.kill()
        process.wait()


# ------------------------------------------------------------------ one layer at a time

# (layer, attack, other layers switched off, verdicts): the layer alone must stop the attack
LAYER_PROOFS = [
    ("pid namespace", "kill_the_judge", ("landlock",), {AC}),
    ("landlock", "kill_the_judge", ("pid namespace",), {AC}),  # ABI >= 6 scopes signals
    ("network namespace", "network", ("seccomp", "landlock"), {RTE}),
    ("mount namespace", "read_hidden_direct", ("landlock",), {SV, RTE}),
    ("landlock", "read_hidden_direct", ("mount namespace",), {SV}),
    ("seccomp", "exec_program", ("landlock",), {SV}),
    ("no capabilities", "umount_hidden", ("landlock", "seccomp"), {SV, RTE}),
    ("resource limits", "memory_bomb", (), {MLE}),
    ("clean environment", "environment_secrets", (), {WA}),
    ("closed descriptors", "inherited_fds", (), {AC}),
    ("process group", "fork_bomb", ("seccomp", "pid namespace", "task limit"), {AC}),
    ("ipc namespace", "ipc_channel", ("seccomp",), {AC}),
    ("seccomp", "ipc_channel", ("ipc namespace",), {AC}),
    ("seccomp", "lease_and_lock", ("landlock",), {AC}),
    ("memory measurement", "memory_error_in_raises", (), {MLE}),
    ("memory measurement", "claimed_memory_error", (), {RTE}),
    ("mount namespace", "read_problem_set_git", ("landlock",), {AC}),
    ("landlock", "read_problem_set_git", ("mount namespace",), {AC}),
    ("mount namespace", "read_classmate", ("landlock",), {AC}),
    ("landlock", "read_classmate", ("mount namespace",), {AC}),
    ("scratch size limit", "disk_fill", (), {OLE}),
    # Metadata of host files: each of three layers alone refuses every change.
    ("mount namespace", "host_metadata", ("landlock", "seccomp", "own identity"), {AC}),
    ("own identity", "host_metadata", ("landlock", "seccomp", "mount namespace"), {AC}),
    ("seccomp", "host_metadata", ("landlock", "mount namespace", "own identity"), {AC}),
    ("mount namespace", "xattr_channel", ("landlock", "seccomp", "own identity"), {AC}),
    ("mount namespace", "stat_hidden", ("landlock",), {AC}),
]


@pytest.mark.parametrize("layer, attack, others_off, verdicts", LAYER_PROOFS,
                         ids=[f"{layer}-{attack}" for layer, attack, *_ in LAYER_PROOFS])
def test_each_layer_alone_stops_its_attack(layer, attack, others_off, verdicts, arena, monkeypatch):
    _skip_unless_offered(layer)
    if layer == "own identity" and not namespaces.privileged():
        pytest.skip("a normal user's judge has no id of its own to give the child: its own root stands in")
    monkeypatch.setenv(DISABLE_ENV, ",".join(others_off))
    fingerprint = arena.fingerprint()
    with Judge(arena.root, record=False) as judge:
        before = _idle_run(judge, PROBLEM.get(attack, "double"))
        report = judge.run(PROBLEM.get(attack, "double"), arena.submission(attack))
        assert layer in report_layers(judge), f"{layer} was not active"
        assert report.verdict in verdicts, [(t.name, t.verdict.value, t.message) for t in report.tests]
        if layer != "process group":  # there the attack may fork; what matters is that nothing survives
            assert "PWNED" not in report.output, report.output[-2000:]
        _no_leftovers(before)
    _intact(arena, fingerprint)


def report_layers(judge: Judge) -> list[str]:
    from judge.runs.contract import Limits, Program
    from judge.runs.calls import Call

    probe = judge.backend.run(Program("def probe():\n    return 1\n", "probe.py", "probe"), [Call(args=())],
                              Limits())
    return list(probe.isolation.active)
