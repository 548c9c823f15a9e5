"""The warm judge that starts itself: the first `judge run` starts it and is its first client, later
runs are answered by it, it never holds the caller's output open, one starts however many runs race,
it is listed and stopped by `judge serve --status/--stop`, serves the page when asked, leaves when
idle, and gives its socket up to a newer version of its own installation only."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import serving
from judge.warm import protocol

CORRECT = serving.REPO / "submissions/patchify/accepted/reshape_permute.py"
WRONG = serving.REPO / "submissions/patchify/wrong_answer/column_major.py"
IDLE_S = "120"  # a judge a failed test leaves behind still leaves by itself
STARTED = ("note: started the warm judge in the background (it keeps torch imported, so later runs are fast); "
           "it stops by itself after 2 minutes idle, or now with `judge serve --stop`\n")


@pytest.fixture
def root(tmp_path):
    return serving.problem_set(tmp_path / "problems")


@pytest.fixture
def env(tmp_path):
    environment = serving.environment(tmp_path / "home", tmp_path / "xdg")
    environment["JUDGE_WARM_IDLE"] = IDLE_S
    environment["NO_COLOR"] = "1"
    yield environment
    subprocess.run([sys.executable, "-m", "judge", "serve", "--stop"], env=environment, capture_output=True,
                   timeout=120)


def judge(root: Path, env: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(root), *args], env=env, cwd=root,
                          capture_output=True, text=True, timeout=timeout)


def warm_answers(root: Path, env: dict, solution: Path = CORRECT) -> int | None:
    """The exit code when the warm judge answered this run; None when the run would be judged cold."""
    probe = ("import sys; from judge.warm.client import try_run; "
             f"code = try_run(['--problems-dir', {str(root)!r}, 'run', 'patchify', {str(solution)!r}]); "
             "print('CODE', code, 'CLICK' if 'click' in sys.modules else '')")
    result = subprocess.run([sys.executable, "-c", probe], env=env, cwd=root, capture_output=True, text=True,
                            timeout=300)
    code = result.stdout.strip().splitlines()[-1].split()
    assert code[0] == "CODE" and len(code) == 2, result.stdout + result.stderr  # and click never imported
    return None if code[1] == "None" else int(code[1])


def without_times(text: str) -> str:
    return re.sub(r" *\d+\.\d+ (ms|s)\b", " T", text)  # time columns are right-aligned


def key(root: Path, env: dict) -> str:
    probe = f"from judge.warm import protocol; print(protocol.judge_key({str(root)!r}, {str(root)!r}))"
    return subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def runtime(env: dict) -> Path:
    return Path(env["XDG_RUNTIME_DIR"]) / f"tensor-judge-{os.geteuid()}"


def warm_pids(env: dict) -> list[int]:
    return sorted(json.loads(p.read_text())["pid"] for p in runtime(env).glob("serve-*.json"))


def gone(pid: int, within_s: float = 30) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists() or Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
            return True
        time.sleep(0.1)
    return False


def test_the_first_run_starts_the_warm_judge_and_later_runs_are_answered_by_it(root, env):
    first = judge(root, env, "run", "patchify", str(CORRECT))  # captured: returns although a judge lives on
    assert first.returncode == 0 and "accepted" in first.stdout, first.stderr
    assert first.stderr == STARTED  # the one line that says what keeps running, and how to stop it
    [pid] = warm_pids(env)
    assert warm_answers(root, env) == 0
    assert warm_answers(root, env, WRONG) == 1
    cold = judge(root, {**env, "JUDGE_NO_WARM": "1"}, "run", "patchify", str(WRONG), "-v")
    warm = judge(root, env, "run", "patchify", str(WRONG), "-v")
    assert (warm.returncode, warm.stderr) == (cold.returncode, cold.stderr)
    assert without_times(warm.stdout) == without_times(cold.stdout)
    assert warm_pids(env) == [pid]  # still the one judge
    status = judge(root, env, "serve", "--status")
    assert status.returncode == 0
    head, detail = status.stdout.splitlines()
    assert head == f"warm judge (pid {pid}) for `judge run`, no page (`judge serve --background` serves one)"
    assert f"problems {root.resolve()}" in detail and "leaves after 2 min idle" in detail
    # Nothing of the caller's: its standard streams are /dev/null and its log (the pipes of this run are
    # not), in a session of its own, a child of no process of ours.
    streams = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in (0, 1, 2)]
    assert streams == ["/dev/null", "/dev/null", str(runtime(env) / f"warm-{key(root, env)}.log")]
    assert os.getsid(pid) != os.getsid(0) and Path(f"/proc/{pid}/stat").read_text().split()[3] != str(os.getpid())
    stopped = judge(root, env, "serve", "--stop")
    assert stopped.stdout.strip() == f"stopped the warm judge (pid {pid})"
    assert gone(pid)
    assert not protocol_socket(env, root).exists()


def protocol_socket(env: dict, root: Path) -> Path:
    return runtime(env) / f"warm-{key(root, env)}.sock"


def test_only_the_run_that_starts_the_warm_judge_says_so_and_json_stays_on_stdout(root, env):
    first = judge(root, env, "run", "patchify", str(WRONG), "--json")
    assert first.returncode == 1 and first.stderr == STARTED
    assert json.loads(first.stdout)["verdict"] == "wrong_answer"  # the note is on stderr only
    [pid] = warm_pids(env)
    later = judge(root, env, "run", "patchify", str(WRONG), "--json")
    assert later.returncode == 1 and later.stderr == ""
    assert json.loads(later.stdout)["verdict"] == "wrong_answer"
    assert judge(root, env, "run", "patchify", str(CORRECT)).stderr == ""
    assert warm_pids(env) == [pid]  # answered by the one it started
    # A run the warm path leaves to the command line (its own input) starts it afterwards, and says so too.
    assert judge(root, env, "serve", "--stop").returncode == 0 and gone(pid)
    example = root / "input.yaml"
    assert judge(root, env, "start", "patchify", "--input", str(example)).returncode == 0
    mine = judge(root, env, "run", "patchify", str(CORRECT), "--input", str(example))
    assert mine.returncode == 0 and mine.stderr.endswith(STARTED), mine.stderr
    assert warm_answers(root, env) == 0 and len(warm_pids(env)) == 1  # the one it started, once it listens


def test_a_piped_run_ends_with_the_run(root, env):
    """`judge run | cat`: the reader sees the end of the output when the run ends, not when the judge leaves."""
    shell = f"{sys.executable} -m judge --problems-dir {root} run patchify {CORRECT} | cat"
    started = time.monotonic()
    result = subprocess.run(["bash", "-c", shell], env=env, cwd=root, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "accepted" in result.stdout
    assert time.monotonic() - started < int(IDLE_S)  # not held until the judge's idle timeout
    assert len(warm_pids(env)) == 1


def test_runs_that_race_start_one_judge(root, env):
    results = [None, None, None]

    def run(i: int) -> None:
        results[i] = judge(root, env, "run", "patchify", str(CORRECT), "--examples")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.returncode for r in results] == [0, 0, 0], [r.stderr for r in results]
    assert len(warm_pids(env)) == 1
    assert len([p for p in runtime(env).glob("warm-*.sock")]) == 1


def test_switched_off_nothing_starts_and_it_leaves_when_idle(root, env):
    off = judge(root, {**env, "JUDGE_NO_WARM": "1"}, "run", "patchify", str(CORRECT))
    assert off.returncode == 0 and off.stderr == ""  # nothing started, nothing said
    assert warm_pids(env) == [] and not list(runtime(env).glob("warm-*.sock"))
    assert judge(root, {**env, "JUDGE_WARM_IDLE": "3"}, "run", "patchify", str(CORRECT)).returncode == 0
    [pid] = warm_pids(env)
    assert gone(pid, within_s=90)  # 3 s idle, then it closes its fork server and leaves
    assert not list(runtime(env).glob("warm-*.sock")) and warm_pids(env) == []
    # Its lock went with it: the next run starts a new one.
    assert judge(root, env, "run", "patchify", str(CORRECT)).returncode == 0
    assert len(warm_pids(env)) == 1 and warm_pids(env) != [pid]


def test_the_page_is_served_by_the_warm_judge(root, env):
    assert judge(root, env, "run", "patchify", str(CORRECT)).returncode == 0
    [pid] = warm_pids(env)
    started = judge(root, env, "serve", "--background", "--idle-timeout", "300")
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip()
    assert url.startswith("http://127.0.0.1:") and "token=" in url
    assert warm_pids(env) == [pid]  # the same process: one fork server for the page and the terminal
    again = judge(root, env, "serve", "--background")
    assert again.stdout.strip() == url
    head, detail = judge(root, env, "serve", "--status").stdout.splitlines()
    assert head == f"warm judge (pid {pid}) for `judge run`, page at {url}"
    assert "leaves after 5 min idle" in detail
    import urllib.request

    base, token = url.split("/?")[0], url.split("token=")[1]
    request = urllib.request.Request(f"{base}/problem/patchify", headers={"X-Judge-Token": token})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
    assert warm_answers(root, env) == 0
    stopped = judge(root, env, "serve", "--stop")
    assert stopped.stdout.strip() == f"stopped the warm judge (pid {pid}) and its page at {base}"
    assert gone(pid)


def test_another_version_of_this_installation_takes_the_socket_over(root, env):
    """A changed judge (same installation, new code) asks the old warm judge: it gives the socket and its
    lock up and leaves, and the next run starts the new version's."""
    assert judge(root, env, "run", "patchify", str(CORRECT)).returncode == 0
    [pid] = warm_pids(env)
    path = protocol_socket(env, root)
    stale = {"fingerprint": "another version", "context": {"problems_dir": str(root), "cwd": str(root), "env": {
        name: env.get(name) for name in protocol.CONTEXT_ENV}}, "problem": "patchify", "data": b"", "label": "x"}
    assert protocol.exchange(path, stale) == {"fallback": "stale"}
    assert gone(pid)
    assert judge(root, env, "run", "patchify", str(CORRECT)).returncode == 0
    assert len(warm_pids(env)) == 1 and warm_pids(env) != [pid]


def test_each_installation_and_problem_set_has_its_own_socket(tmp_path, monkeypatch, root):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "h"))
    here = protocol.judge_key(str(root), "/")
    assert protocol.judge_key(None, str(root / "problems")) == here  # the set the directory is in
    assert protocol.judge_key(str(root / "problems" / ".."), "/") == here
    assert protocol.judge_key(str(serving.REPO), "/") != here
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "elsewhere"))
    assert protocol.judge_key(str(root), "/") != here
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "h"))
    monkeypatch.setattr(protocol, "_JUDGE_DIR", tmp_path / "another" / "judge")  # an installed tool beside a clone
    assert protocol.judge_key(str(root), "/") != here


def test_a_notebook_checks_through_the_warm_judge_and_a_watch_too(root, env):
    """The notebook's check() and `judge run --watch` judge through the warm judge (the kernel holds no fork
    server of its own) and give the report a judge of their own gives."""
    script = ("import json\n"
              "from judge import check\n"
              "from judge.judging.session import Judge\n"
              "here = []\n"
              "submit = Judge.submit\n"
              "Judge.submit = lambda *a, **k: here.append(1) or submit(*a, **k)  # judged in this process\n"
              f"source = open({str(WRONG)!r}).read()\n"
              f"warm = check('patchify', source, problems_dir={str(root)!r}).report\n"
              "print(json.dumps({'warm': [warm.verdict.value, warm.passed, warm.total], 'kernel_sandbox': bool(here)}))\n")
    result = subprocess.run([sys.executable, "-c", script], env=env, cwd=root, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    [pid] = warm_pids(env)
    assert data["kernel_sandbox"] is False  # judged by the warm judge
    cold = subprocess.run([sys.executable, "-c", script], env={**env, "JUDGE_NO_WARM": "1"}, cwd=root,
                          capture_output=True, text=True, timeout=300)
    cold_data = json.loads(cold.stdout.strip().splitlines()[-1])
    assert cold_data["kernel_sandbox"] is True and cold_data["warm"] == data["warm"]
    assert data["warm"][0] == "wrong_answer"
    # A watch: its first run goes to the same warm judge (Ctrl+C after the first report).
    watch = subprocess.Popen([sys.executable, "-m", "judge", "--problems-dir", str(root), "run", "patchify",
                              str(CORRECT), "--watch"], env=env, cwd=root, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    lines = []
    while not any(line.startswith("watching ") for line in lines):
        line = watch.stdout.readline()
        assert line, watch.stderr.read()
        lines.append(line)
    children = Path(f"/proc/{watch.pid}/task/{watch.pid}/children").read_text().split()
    watch.send_signal(2)
    watch.wait(timeout=60)
    assert any(line.startswith("✓ accepted: ") for line in lines)
    assert children == []  # no fork server of its own: judged by the warm judge
    assert warm_pids(env) == [pid]
