"""Where the warm socket lives and who may use it; what identifies a judge; message framing."""
from __future__ import annotations

import marshal
import os
import socket
import threading

import pytest

from judge.warm import protocol


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    return tmp_path


def test_the_socket_lives_in_a_directory_private_to_this_user(runtime):
    assert protocol.socket_path("0123abcd") == runtime / f"tensor-judge-{os.geteuid()}" / "warm-0123abcd.sock"
    assert protocol.lock_path("0123abcd").parent == protocol.log_path("0123abcd").parent == protocol.socket_dir()
    assert protocol.private_dir(create=False) is None  # not there yet
    directory = protocol.private_dir(create=True)
    assert directory == protocol.socket_dir()
    assert directory.stat().st_mode & 0o777 == 0o700


def test_without_a_runtime_directory_the_socket_lives_under_tmpdir_else_tmp(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert protocol.socket_dir() == tmp_path / f"tensor-judge-{os.geteuid()}"
    monkeypatch.setenv("TMPDIR", "relative/dir")  # only absolute paths count, as for XDG_RUNTIME_DIR
    assert str(protocol.socket_dir()) == f"/tmp/tensor-judge-{os.geteuid()}"
    monkeypatch.delenv("TMPDIR")
    assert str(protocol.socket_dir()) == f"/tmp/tensor-judge-{os.geteuid()}"


def test_a_directory_open_to_others_or_a_symlink_is_refused(runtime, tmp_path_factory):
    directory = protocol.socket_dir()
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)
    assert protocol.private_dir(create=True) is None
    directory.rmdir()
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    elsewhere.chmod(0o700)
    directory.symlink_to(elsewhere)  # someone pointing our socket directory at theirs
    assert protocol.private_dir(create=False) is None


def test_only_a_socket_of_ours_closed_to_others_counts(tmp_path):
    path = tmp_path / "s.sock"
    assert not protocol.owned_socket(path)
    path.write_text("not a socket")
    assert not protocol.owned_socket(path)
    path.unlink()
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        path.chmod(0o666)
        assert not protocol.owned_socket(path)
        path.chmod(0o600)
        assert protocol.owned_socket(path)


def test_the_fingerprint_follows_the_judge_code(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("x = 1\n")
    monkeypatch.setattr(protocol, "_JUDGE_DIR", tmp_path)
    before = protocol.fingerprint()
    assert protocol.fingerprint() == before
    (tmp_path / "a.py").write_text("x = 22\n")  # another size
    assert protocol.fingerprint() != before


def test_the_context_holds_the_environment_that_changes_a_run(monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", "/somewhere")
    context = protocol.context("probs", "/cwd")
    assert context["problems_dir"] == "probs" and context["cwd"] == "/cwd"
    assert context["env"]["JUDGE_HOME"] == "/somewhere"
    assert set(context["env"]) == set(protocol.CONTEXT_ENV)


def test_messages_are_whole_dicts_of_bounded_size():
    a, b = socket.socketpair()
    with a, b:
        protocol.send(a, {"x": [1, 2], "data": b"\xe9\x00", "flag": None})
        assert protocol.receive(b) == {"x": [1, 2], "data": b"\xe9\x00", "flag": None}
    for payload in (marshal.dumps([1, 2]), b"{not marshal", b"", marshal.dumps({"x": 1})[:-1],
                    b" " * (protocol.MAX_MESSAGE + 1)):
        a, b = socket.socketpair()
        with a, b:
            sender = threading.Thread(target=_send_raw, args=(a, payload))
            sender.start()
            with pytest.raises(ValueError):
                protocol.receive(b)
            b.close()
            sender.join()


def _send_raw(sock: socket.socket, payload: bytes) -> None:
    try:
        sock.sendall(payload)
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the reader stopped at its limit and closed


def test_a_server_answers_a_run_then_its_refinement_and_a_client_reads_them_as_they_come(tmp_path):
    # The report goes out first (the terminal prints it at once); the diagnosis' refinement follows on the same
    # connection when it comes, and the conversation ends when the server closes.
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    refined = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            request = protocol.receive(conn)
            protocol.reply(conn, {"code": 1, "stdout": f"judged {request['file']}\n", "refining": True})
            refined.wait(10)
            protocol.reply(conn, {"stdout": "what explains it\n"})

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        replies = protocol.conversation(path, {"file": "mine.py"})
        assert next(replies) == {"code": 1, "stdout": "judged mine.py\n", "refining": True}
        refined.set()   # the second answer is sent only once the first was read
        assert list(replies) == [{"stdout": "what explains it\n"}]
    finally:
        thread.join()
        server.close()
    assert protocol.conversation(tmp_path / "none.sock", {}) is None   # no server: the client judges itself
