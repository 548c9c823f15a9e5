"""`judge serve` as a process: one URL line, loopback only, a taken port is a one-line error, and
`--background` (the warm judge serving the page) returns at once and leaves after its idle timeout."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import serving

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install -e '.[web]')")


@pytest.fixture
def env(tmp_path):
    return serving.environment(tmp_path / "home", tmp_path / "xdg")


@pytest.fixture
def root(tmp_path):
    return serving.problem_set(tmp_path / "problems")


def get(url: str, token: str = "") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"X-Judge-Token": token} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_serve_prints_one_url_line_and_listens_on_loopback_only(root, env):
    server = serving.start(root, env)
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{40,}", server.url)
        assert get(server.base + "/")[0] == 403
        status, body = get(f"{server.base}/problem/patchify", server.token)
        assert status == 200 and "Patchify a Batch of Images" in body
        outside = [a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
                   if not a[4][0].startswith("127.")]
        for address in outside[:1]:  # the machine's own non-loopback address, when it has one
            with socket.socket() as probe:
                probe.settimeout(2)
                assert probe.connect_ex((address, server.port)) != 0
    finally:
        server.stop()
    assert server.process.returncode == 0
    assert server.process.stdout.read() == b""  # nothing after the URL line
    assert not env_socket(env).exists()  # the warm socket is removed on the way out


def env_socket(env: dict) -> Path:
    """The one warm socket a test's server made (each key has its own name)."""
    where = Path(env["XDG_RUNTIME_DIR"]) / f"tensor-judge-{os.geteuid()}"
    found = sorted(where.glob("warm-*.sock"))
    assert len(found) <= 1, found
    return found[0] if found else where / "warm-none.sock"


def test_a_port_in_use_is_a_one_line_error(root, env):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(root), "serve", "--port", str(port)],
                                env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and f"--port {port}: cannot listen on 127.0.0.1:{port}" in result.stderr


def test_background_returns_and_leaves_when_idle(root, env):
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(root), "serve", "--background",
                             "--idle-timeout", "3"], env=env, capture_output=True, text=True, timeout=300, cwd=root)
    assert result.returncode == 0, result.stderr
    url = result.stdout.strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=\S+", url)
    assert get(url.split("/?")[0] + "/", url.split("token=")[1])[0] == 200
    assert env_socket(env).exists()
    deadline = time.monotonic() + 120
    while env_socket(env).exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not env_socket(env).exists(), "the background server did not leave after its idle timeout"
    assert time.monotonic() - started > 3


def judge_cli(root, env, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(root), *args],
                          env=env, capture_output=True, text=True, timeout=300, cwd=root)


def test_status_and_stop_of_a_background_server(root, env):
    none = judge_cli(root, env, "serve", "--status")
    assert none.returncode == 1 and none.stdout.startswith("no judge serve is running; `judge run` starts a warm")
    started = judge_cli(root, env, "serve", "--background", "--idle-timeout", "600")
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip()
    try:
        status = judge_cli(root, env, "serve", "--status")
        assert status.returncode == 0, status.stderr
        first, second = status.stdout.splitlines()
        assert first.startswith("warm judge (pid ") and first.endswith(f" for `judge run`, page at {url}")
        assert f"problems {root.resolve()}" in second and "leaves after 10 min idle" in second
        pid = int(first.split("pid ", 1)[1].split(")", 1)[0])
        stopped = judge_cli(root, env, "serve", "--stop")
        assert stopped.returncode == 0, stopped.stderr
        assert stopped.stdout.strip() == f"stopped the warm judge (pid {pid}) and its page at {url.split('/?')[0]}"
        deadline = time.monotonic() + 30
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:  # gone, not a zombie's parent's
            time.sleep(0.2)
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
        assert not env_socket(env).exists()
        assert not list(env_socket(env).parent.glob("serve-*.json"))  # its file left with it
        after = judge_cli(root, env, "serve", "--status")
        assert after.returncode == 1
        assert judge_cli(root, env, "serve", "--stop").stdout.startswith("no judge serve is running")
    finally:
        base, token = url.split("/?")[0], url.split("token=")[1]
        try:  # never leave a server behind, whatever failed above
            urllib.request.urlopen(urllib.request.Request(base + "/api/stop", data=b"", headers={"X-Judge-Token": token}),
                                   timeout=5)
        except OSError:
            pass


def test_a_foreground_server_and_the_warm_judge_are_listed_apart(root, env):
    """`judge serve` in the foreground beside a warm judge: the page is its own, the socket stays the
    warm judge's, and both are listed and stopped."""
    assert judge_cli(root, {**env, "JUDGE_WARM_IDLE": "300"}, "run", "patchify",
                     str(serving.REPO / "submissions/patchify/accepted/reshape_permute.py")).returncode == 0
    server = serving.start(root, env)
    try:
        lines = judge_cli(root, env, "serve", "--status").stdout.splitlines()
        heads = sorted(line for line in lines if not line.startswith("  "))
        assert len(heads) == 2
        assert heads[0].startswith(f"judge serve (foreground, pid {server.process.pid}) at {server.url}")
        assert heads[1].startswith("warm judge (pid ") and heads[1].endswith("no page (`judge serve --background` serves one)")
        stopped = judge_cli(root, env, "serve", "--stop").stdout.splitlines()
        assert len(stopped) == 2 and all(line.startswith("stopped ") for line in stopped)
        server.process.wait(timeout=30)
        assert not env_socket(env).exists()
    finally:
        server.stop()


def test_status_ignores_a_stale_file_and_a_server_that_does_not_know_the_token(root, env):
    where = env_socket(env).parent
    where.mkdir(mode=0o700, parents=True, exist_ok=True)
    stale = where / "serve-999999.json"  # a server killed without cleaning up
    stale.write_text('{"url": "http://127.0.0.1:9/?token=x", "pid": 999999, "root": "/r", "started": 0,'
                     ' "background": true, "idle_timeout_s": null}')
    (where / "serve-999998.json").write_text('{"url": null, "pid": 999998, "root": "/r", "started": 0, "kind": "warm",'
                                             f' "idle_timeout_s": 900, "socket": "{where}/warm-0.sock"}}')
    (where / "serve-1.json").write_text("not json")
    result = judge_cli(root, env, "serve", "--status")
    assert result.returncode == 1 and result.stdout.startswith("no judge serve is running")
    assert not list(where.glob("serve-*.json"))


def test_ctrl_c_during_a_streamed_submit_is_quiet(root, env):
    """Ctrl+C with a Submit still streaming: one line, `stopped`, not uvicorn's CancelledError traceback."""
    import json
    import signal
    import threading

    correct = (serving.REPO / "submissions/patchify/accepted/reshape_permute.py").read_text()
    slow = correct.replace("def patchify(", "import time as _time\n\n\ndef _patchify(", 1) + (
        "\n\ndef patchify(*args, **kwargs):\n    _time.sleep(1.0)\n    return _patchify(*args, **kwargs)\n")
    server = serving.start(root, env)
    streaming = threading.Event()

    def submit() -> None:
        request = urllib.request.Request(server.base + "/api/run/patchify", method="POST",
                                         data=json.dumps({"source": slow, "examples_only": False}).encode(),
                                         headers={"X-Judge-Token": server.token, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                for line in response:
                    if line.startswith(b"event: test"):
                        streaming.set()
        except OSError:
            pass  # cut short by the stop: what is tested is the server's terminal

    client = threading.Thread(target=submit)
    client.start()
    try:
        assert streaming.wait(120), "no result streamed"
        server.process.send_signal(signal.SIGINT)
        _, err = server.process.communicate(timeout=60)
    finally:
        server.stop()
        client.join(timeout=60)
    text = err.decode()
    assert "Traceback" not in text and "CancelledError" not in text, text
    assert text.splitlines()[-1] == "stopped" and len(text.splitlines()) <= 3, text


def test_the_grace_running_out_on_a_submit_is_not_an_error_on_the_terminal():
    """A Submit still streaming when the grace ends is cancelled by uvicorn with one ERROR line: that is the
    server's own stop (the page says so), so the terminal shows only `stopped`; other errors still show."""
    import logging

    from judge.web.server import _QuietCancel

    quiet = _QuietCancel()

    def record(msg: str, *args) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, msg, args, None)

    assert not quiet.filter(record("Cancel %s running task(s), timeout graceful shutdown exceeded", 1))
    assert quiet.filter(record("Exception in ASGI application"))
    assert quiet.filter(record("[Errno %s] error while attempting to bind", 98))
