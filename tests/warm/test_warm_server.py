"""The warm judge as `judge run` meets it: same report, same exit code, same progress database as a
cold run; only this user, only the same judge and context; edited problems take effect."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time

import pytest

import serving
from judge.learner.progress import ProgressStore
from judge.judging.session import Judge
from judge.learner.tutor import Tutor
from judge.base.submission import MAX_SOURCE_BYTES
from judge.warm import protocol
from judge.warm.server import WarmServer

CORRECT = serving.REPO / "submissions/patchify/accepted/reshape_permute.py"
WRONG = serving.REPO / "submissions/patchify/wrong_answer/column_major.py"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return serving.problem_set(tmp_path_factory.mktemp("warm_problems"))


@pytest.fixture(scope="module")
def warm(tmp_path_factory, root):
    """A warm server in this process, on a socket in a private runtime directory."""
    runtime = tmp_path_factory.mktemp("warm_runtime")
    home = tmp_path_factory.mktemp("warm_home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_RUNTIME_DIR", str(runtime))
        patch.setenv("JUDGE_HOME", str(home))
        patch.delenv("JUDGE_NO_WARM", raising=False)
        with Judge(root) as judge:
            served = []
            server = WarmServer(judge, threading.Lock(), on_activity=lambda: served.append(1))
            assert server.start(protocol.socket_path(protocol.judge_key(str(root), str(root)))) is None
            server.served = served
            yield server
            server.close()


def judge_run(root, *args: str, warm_off: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    if warm_off:
        env["JUDGE_NO_WARM"] = "1"
    return subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(root), "run", *args],
                          capture_output=True, text=True, env=env, timeout=300, cwd=root)


def without_times(text: str) -> str:
    return re.sub(r" *\d+\.\d+ (ms|s)\b", " T", text)  # time columns are right-aligned


def test_the_socket_is_private_and_taken_once(warm, root):
    assert warm.path == protocol.socket_path(protocol.judge_key(None, str(root)))  # the set the run is in
    assert warm.path.stat().st_mode & 0o777 == 0o600
    assert warm.path.parent.stat().st_mode & 0o777 == 0o700
    second = WarmServer(warm.judge, threading.Lock())
    assert "already answers" in second.start(warm.path)


@pytest.mark.parametrize("solution,code", [(CORRECT, 0), (WRONG, 1)])
def test_a_warm_run_prints_what_a_cold_run_prints(warm, root, solution, code):
    before = len(warm.served)
    hot = judge_run(root, "patchify", str(solution), "-v")
    assert len(warm.served) == before + 1  # it was answered by the server
    cold = judge_run(root, "patchify", str(solution), "-v", warm_off=True)
    assert len(warm.served) == before + 1
    assert (hot.returncode, cold.returncode) == (code, code)
    assert without_times(hot.stdout) == without_times(cold.stdout)
    assert hot.stderr == cold.stderr


def test_json_reports_and_usage_errors_match_too(warm, root):
    hot, cold = judge_run(root, "patchify", str(CORRECT), "--json"), judge_run(root, "patchify", str(CORRECT), "--json", warm_off=True)
    hot_report, cold_report = json.loads(hot.stdout), json.loads(cold.stdout)
    for report in (hot_report, cold_report):
        report.pop("time_ms")
        for test in report["tests"]:
            test.pop("time_ms"), test.pop("cpu_ms")
    assert hot_report == cold_report
    hot, cold = judge_run(root, "no_such_problem", str(CORRECT)), judge_run(root, "no_such_problem", str(CORRECT), warm_off=True)
    assert hot.returncode == cold.returncode == 2
    assert hot.stderr == cold.stderr and "unknown problem id 'no_such_problem'" in hot.stderr


def recorded(count: int, problem: str = "patchify") -> list:
    """The problem's attempts once there are `count` (recording follows the reply); fails after 30 s."""
    deadline = time.monotonic() + 30
    while True:
        attempts = ProgressStore().attempts(problem)
        if len(attempts) >= count or time.monotonic() > deadline:
            return attempts
        time.sleep(0.02)


def test_warm_runs_go_to_the_same_progress_database(warm, root):
    before = len(ProgressStore().attempts("patchify"))
    judge_run(root, "patchify", str(CORRECT), "--examples")
    attempts = recorded(before + 1)
    assert len(attempts) == before + 1
    assert attempts[0].examples_only and attempts[0].submission == str(CORRECT)
    assert attempts[0].source == CORRECT.read_text()
    assert warm.record_after_reply  # recorded after the client had its answer


def test_a_run_is_recorded_after_the_reply_and_before_the_next_run(warm, root, monkeypatch):
    before = len(ProgressStore().attempts("patchify"))
    release, waiting = threading.Event(), threading.Event()
    record = Tutor.record_run

    def held(*args, **kwargs):
        waiting.set()
        assert release.wait(60)
        return record(*args, **kwargs)

    monkeypatch.setattr(Tutor, "record_run", held)
    try:
        hot = judge_run(root, "patchify", str(CORRECT))  # returns while its recording waits
        assert hot.returncode == 0 and "accepted" in hot.stdout
        assert waiting.wait(30) and len(ProgressStore().attempts("patchify")) == before
    finally:
        release.set()
    judge_run(root, "patchify", str(WRONG))
    attempts = recorded(before + 2)
    assert [a.submission for a in attempts[:2]] == [str(WRONG), str(CORRECT)]  # newest first


def test_a_recording_that_fails_after_the_reply_is_said_and_later_runs_warn_as_cold_runs(warm, root, tmp_path,
                                                                                        monkeypatch):
    blocked = tmp_path / "not_a_directory"
    blocked.write_text("")
    notes = []
    monkeypatch.setattr(warm.judge.tutor, "store", ProgressStore(blocked / "progress.db"))
    monkeypatch.setattr(warm, "on_note", notes.append)
    try:
        first = judge_run(root, "patchify", str(CORRECT))
        deadline = time.monotonic() + 30
        while not notes and time.monotonic() < deadline:
            time.sleep(0.02)
        assert first.returncode == 0 and "not_a_directory" not in first.stdout + first.stderr
        assert len(notes) == 1 and "answered but not recorded" in notes[0] and str(CORRECT) in notes[0]
        assert not warm.record_after_reply
        second = judge_run(root, "patchify", str(CORRECT))
        assert second.returncode == 0
        assert "not_a_directory" in second.stdout + second.stderr  # the cold path's warning
    finally:
        warm.record_after_reply = True


def test_the_client_imports_neither_numpy_nor_torch_nor_slow_standard_modules(warm, root):
    probe = ("import sys; from judge.warm.client import try_run; "
             f"code = try_run(['--problems-dir', {str(root)!r}, 'run', 'patchify', {str(CORRECT)!r}]); "
             "print(code, sorted(m for m in ('numpy', 'torch', 'click', 'yaml', 'judge.judging.session', 'socket', 'hashlib', "
             "'shutil', 'tempfile', 'json', 'judge.base.submission', 'judge.base.errors') if m in sys.modules), "
             "file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, cwd=root)
    assert result.stderr.strip() == "0 []"
    assert "accepted" in result.stdout


def test_another_judge_or_context_is_sent_back(warm, root, monkeypatch):
    stale = []
    warm.on_stale = stale.append
    request = {"fingerprint": warm.fingerprint, "context": protocol.context(str(root), str(root)),
               "problem": "patchify", "data": CORRECT.read_bytes(), "label": "x.py"}
    assert warm.answer({**request, "fingerprint": "0" * 32}) == {"fallback": "stale"}
    assert stale  # a background server leaves on this
    other_home = {**request["context"], "env": {**request["context"]["env"], "JUDGE_HOME": "/elsewhere"}}
    assert warm.answer({**request, "context": other_home}) == {"fallback": "JUDGE_HOME differs"}
    other_set = {**request["context"], "problems_dir": str(serving.REPO)}
    assert warm.answer({**request, "context": other_set}) == {"fallback": "another problem set"}
    relative = {**request["context"], "problems_dir": ".", "cwd": str(root)}
    assert warm.answer({**request, "context": relative})["code"] == 0  # the same set, named relatively
    for broken in ({**request, "context": None}, {**request, "data": "text, not bytes"}, {**request, "problem": None}):
        assert "fallback" in warm.answer(broken)
    # Bytes `judge run` would not take as source go back, and the client's own run says why.
    for unreadable in (b"# caf\xe9\n", b"#" * (MAX_SOURCE_BYTES + 1)):
        assert warm.answer({**request, "data": unreadable}) == {"fallback": "error"}


def test_a_pack_that_clashes_or_any_install_sends_the_run_back(warm, root, monkeypatch, tmp_path):
    """Every other command refuses a problem id held by two sets; so does the warm judge (the client's own run
    then says which), and a pack installed after it started (site-packages changed) makes it leave."""
    import shutil

    from judge.warm import server as warm_server
    from judge.model.locate import Source

    request = {"fingerprint": warm.fingerprint, "context": protocol.context(str(root), str(root)),
               "problem": "patchify", "data": CORRECT.read_bytes(), "label": "x.py"}
    clashing = tmp_path / "pack"
    shutil.copytree(root / "problems", clashing / "problems")
    monkeypatch.setattr(warm.judge.problem_set, "packs", (Source("clashing", clashing, "pack"),))
    assert warm.answer(request) == {"fallback": "error"}
    monkeypatch.setattr(warm.judge.problem_set, "packs", ())
    assert warm.answer(request)["code"] == 0
    stale = []
    warm.on_stale = stale.append
    monkeypatch.setattr(warm_server, "_list_installed", lambda: (("/site-packages", 1),))
    assert warm.answer(request) == {"fallback": "stale"} and stale


def test_edited_problem_files_take_effect_without_a_restart(warm, root):
    before = json.loads(judge_run(root, "patchify", str(CORRECT), "--json").stdout)["total"]
    tests = root / "hidden_tests" / "patchify" / "tests.yaml"
    original = tests.read_text()
    try:
        tests.write_text(original.replace("tests:\n", "tests:\n  - name: added_while_serving\n"
                                          "    inputs: {images: {normal: [1, 1, 4, 4]}, patch_height: 2, patch_width: 2}\n", 1))
        after = json.loads(judge_run(root, "patchify", str(CORRECT), "--json").stdout)
    finally:
        tests.write_text(original)
    assert after["total"] == before + 1
    assert "added_while_serving" in [t["name"] for t in after["tests"]]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")
def test_another_user_cannot_connect(warm):
    pid = os.fork()
    if pid == 0:  # the child becomes nobody and tries the socket
        import socket

        code = 0
        try:
            os.setgid(65534)
            os.setuid(65534)
            with socket.socket(socket.AF_UNIX) as sock:
                sock.connect(str(warm.path))
        except PermissionError:
            code = 7
        except BaseException:  # noqa: BLE001 - any other outcome is reported by its exit code
            code = 9
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 7
