"""The child's own world: a root that holds only what it imports, read-only, and an id that owns no host file.

Each test runs a real sandboxed child and asks it what it sees; the assertions are about what a
submission can reach on this machine (files that do not exist for it, mounts it cannot write,
metadata it cannot change), as root and as a normal user.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

import judge
from judge.base import encoding as wire
from judge.runs.contract import Limits, Program
from judge.runs.calls import Call
from judge.sandbox import Sandbox, namespaces
from judge.sandbox.isolation import probe_all

OFFERED = {s.name: s for s in probe_all()}
NEEDS_ROOT_OF_ITS_OWN = pytest.mark.skipif(not OFFERED["mount namespace"].active,
                                           reason=f"no mount namespace here: {OFFERED['mount namespace'].detail}")

LOOK = r'''
import json, os
def f(x):
    seen = {"uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(), "cwd": os.getcwd(),
            "root": sorted(os.listdir("/")), "dev": sorted(os.listdir("/dev")),
            "mounts": open("/proc/self/mountinfo").read().splitlines(), "exists": {}}
    for path in PATHS:
        seen["exists"][path] = os.path.lexists(path)
    with open("written", "w") as out:  # the working directory is the child's own
        out.write("ok")
    seen["wrote"] = open("written").read()
    return json.dumps(seen)
'''


def _look(tmp_path: Path, paths: list[str], disable: tuple[str, ...] = ("landlock",)) -> dict:
    """What a child sees (Landlock off: it would refuse the listing itself; the root is the subject here)."""
    source = f"PATHS = {paths!r}\n" + LOOK
    with Sandbox(protect=(tmp_path,), disable=disable) as box:
        result = box.run(Program(source, "look.py", "f"), [Call(args=(wire.roundtrip(np.arange(3.0)),))],
                         Limits(time_s=5.0))
    observation = result.outcomes[0].observation
    assert observation.error is None, observation.error
    return json.loads(observation.value)


@NEEDS_ROOT_OF_ITS_OWN
def test_the_root_holds_what_the_child_imports_and_nothing_else_of_the_host(tmp_path):
    (tmp_path / "hidden_tests").mkdir()
    (tmp_path / "hidden_tests" / "tests.yaml").write_text("secret")
    home = Path(os.path.expanduser("~"))
    paths = [str(tmp_path / "hidden_tests" / "tests.yaml"), str(tmp_path), "/etc/passwd", "/etc/shadow",
             "/var", "/dev/shm", "/dev/sda", "/sys/fs/cgroup", str(home / ".bashrc"), str(home / ".profile"),
             sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
             str(Path(judge.__file__).resolve().parent), "/dev/null", "/dev/urandom", "/proc/self/status"]
    seen = _look(tmp_path, paths)
    exists = seen["exists"]
    for absent in paths[:10]:
        assert not exists[absent], f"{absent} is visible in the child's root"
    for present in paths[10:]:
        assert exists[present], f"{present} is missing from the child's root"
    assert seen["wrote"] == "ok"
    assert not {"var", "opt", "srv", "mnt", "boot", "bin", "sbin"} & set(seen["root"])
    assert set(seen["dev"]) <= {"null", "zero", "urandom", "random", "full", "fd", "stdin", "stdout", "stderr"}


@NEEDS_ROOT_OF_ITS_OWN
def test_every_mount_but_the_working_directory_proc_and_devices_is_read_only(tmp_path):
    seen = _look(tmp_path, [])
    writable = []
    for line in seen["mounts"]:
        fields = line.split()
        mount_point, options = fields[4], fields[5].split(",")
        if "rw" in options and mount_point not in (seen["cwd"], "/proc"):
            writable.append(mount_point)
    assert writable == []
    assert any(line.split()[4] == "/" and "ro" in line.split()[5].split(",") for line in seen["mounts"])


@pytest.mark.skipif(not namespaces.privileged(), reason="a normal user's judge has no other id to give its child")
def test_a_root_judge_runs_the_child_as_an_id_that_owns_no_file(tmp_path):
    seen = _look(tmp_path, [])
    assert (seen["uid"], seen["gid"], seen["groups"]) == (namespaces.CHILD_ID, namespaces.CHILD_ID, [])


CHANGE = r'''
import os
def f(x):
    changed = []
    for path in PATHS:
        for name, change in (("chmod", lambda: os.chmod(path, 0o777)), ("utime", lambda: os.utime(path, (0, 0))),
                             ("xattr", lambda: os.setxattr(path, "user.judge", b"x"))):
            try:
                change()
            except OSError:
                continue
            changed.append(f"{name} {path}")
    return ", ".join(changed)
'''


@NEEDS_ROOT_OF_ITS_OWN
def test_no_metadata_of_what_the_child_sees_is_its_to_change_even_without_seccomp(tmp_path):
    targets = [os.__file__, np.__file__, judge.__file__, "/dev/null", "/", "/usr/lib"]
    before = {t: (os.stat(t).st_mode, os.stat(t).st_mtime_ns) for t in targets}
    source = f"PATHS = {targets!r}\n" + CHANGE
    with Sandbox(protect=(tmp_path,), disable=("seccomp", "landlock")) as box:
        result = box.run(Program(source, "change.py", "f"), [Call(args=(0,))], Limits(time_s=5.0))
    observation = result.outcomes[0].observation
    assert observation.error is None, observation.error
    assert observation.value == ""
    assert {t: (os.stat(t).st_mode, os.stat(t).st_mtime_ns) for t in targets} == before


@NEEDS_ROOT_OF_ITS_OWN
def test_a_working_directory_reached_through_a_symbolic_link_is_the_childs(tmp_path, monkeypatch):
    """$TMPDIR through a link (as macOS's /tmp, or a home directory moved): the child's root has the link too."""
    import tempfile
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "link"))
    monkeypatch.setattr(tempfile, "tempdir", None)
    seen = _look(tmp_path / "real", [])
    assert seen["wrote"] == "ok"
