"""Nothing of the hidden tests reaches a face (issue 32, item 4): no hidden_tests/ path, no line of a
trap or a reference, no warning the judge's own process raised running them.

Judged on known wrong submissions of the problems whose traps and references warn (a division by
zero on a degenerate input, torch's deprecation notes), each face with a fresh cache of expected
values, so that the references and the traps really run in the judge's process: `judge run` (text
and --json), `judge grade`, the web page's responses and the notebook's results.
"""
from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from judge.model.cache import ExpectedCache
from judge.judging.session import Judge

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = ("clip_loss", "info_nce", "nt_xent", "siglip_loss", "collapse_std", "linear_probe", "zero_shot_classify")
PER_PROBLEM = 2  # the first wrong answer of a problem runs every trap on every case (judge.judging.grading.TrapSet.recall)
# A warning as Python prints it: "path:line: SomeWarning: message".
PRINTED_WARNING = re.compile(r"^\S.*:\d+: \w*Warning: ", re.MULTILINE)


def wrong(problem_id: str) -> list[Path]:
    return sorted((REPO / "submissions" / problem_id / "wrong_answer").glob("*.py"))[:PER_PROBLEM]


def hidden_lines(problem_id: str) -> set[str]:
    """The code lines of the problem's traps and reference (long enough to be telling) that no known
    submission of it writes too: a face quoting a submission's own line gives away nothing."""
    theirs = {line.strip() for p in (REPO / "submissions" / problem_id).rglob("*.py") for line in p.read_text().splitlines()}
    found = set()
    for name in ("traps.py", "reference.py"):
        path = REPO / "hidden_tests" / problem_id / name
        if not path.is_file():
            continue
        source = path.read_text()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.stmt) and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
                line = lines[node.lineno - 1].strip()
                if len(line) >= 16 and line not in theirs:
                    found.add(line)
    return found


HIDDEN = {pid: hidden_lines(pid) for pid in PROBLEMS}


def leaks(text: str, problem_id: str | None = None, *, stderr: bool = False) -> list[str]:
    """What `text` shows of the hidden tests (of `problem_id`'s, or of any of PROBLEMS'); on the
    judge's own `stderr`, any warning printed at all (a report may show one the submission raised)."""
    found = [word for word in ("hidden_tests", "traps.py", "reference.py") if word in text]
    if stderr:
        found += PRINTED_WARNING.findall(text)
    for pid in (problem_id,) if problem_id else PROBLEMS:
        found += [line for line in HIDDEN[pid] if line in text]
    return found


def test_the_hidden_lines_are_found() -> None:
    """The check above has something to look for: each problem's traps have lines of their own."""
    assert all(HIDDEN[pid] for pid in PROBLEMS)
    assert "return float(np.mean(np.log(denominator) - s[index, index ^ 1]))" in HIDDEN["info_nce"]  # the issue's


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_NO_WARM": "1", "JUDGE_NO_RECORD": "1", "JUDGE_CACHE_DIR": str(cache)}
    env.pop("JUDGE_PROBLEMS_DIR", None)
    return subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(REPO), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_command_line_shows_nothing_of_the_hidden_tests(tmp_path: Path) -> None:
    """Each command in a process of its own with a cache of its own: every process runs the traps."""
    commands = [("run", "-v", "info_nce", str(REPO / "submissions/info_nce/wrong_answer/drop_unpaired_row.py")),
                ("run", "--json", "linear_probe", str(wrong("linear_probe")[0]))]
    for pid in PROBLEMS:
        folder = tmp_path / "mine" / pid
        folder.mkdir(parents=True)
        for path in wrong(pid):
            shutil.copy(path, folder)
        commands.append(("grade", pid, str(folder)))
    # In parallel: each process imports torch and starts its own fork server, which is most of its time.
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda i: _cli(*commands[i], cache=tmp_path / f"cache{i}"), range(len(commands))))
    for command, result in zip(commands, results):
        assert result.returncode in (0, 1), (command, result.stdout, result.stderr)
        assert "wrong_answer" in result.stdout, command
        assert leaks(result.stdout) == [] and leaks(result.stderr, stderr=True) == [], (command, result.stdout, result.stderr)
    json.loads(results[1].stdout)  # --json: one object on stdout, nothing else


@pytest.fixture
def shown():
    """Every warning the process's hook is handed (what Python would print), each time it is raised.

    pytest records warnings itself during a test; a plain hook stands in for the default one of a
    fresh interpreter, which is what the judge's faces run under."""
    heard: list[str] = []

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        heard.append(warnings.formatwarning(message, category, filename, lineno, line))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        yield heard


def _fresh_judge(tmp_path: Path, name: str) -> Judge:
    return Judge(REPO, cache=ExpectedCache(tmp_path / name), record=False)


def test_the_notebook_shows_nothing_of_the_hidden_tests(tmp_path, shown, capfd) -> None:
    from judge.notebook import check

    with _fresh_judge(tmp_path, "notebook-cache") as judge:
        for pid in PROBLEMS:
            for path in wrong(pid):
                result = check(pid, path, judge=judge, record=False)
                assert not result.accepted
                for face in (result.text(), result._repr_html_(), json.dumps(result.to_json())):
                    assert leaks(face, pid) == [], (path, face)
    assert shown == []
    out, err = capfd.readouterr()
    assert leaks(out) == [] and leaks(err, stderr=True) == [], (out, err)


@pytest.fixture
def web():
    """The web app's makers, imported before `shown` listens (an import's own deprecation note is not the judge's)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed (pip install -e '.[web]')")
    pytest.importorskip("httpx", reason="httpx drives FastAPI's TestClient (pip install -e '.[e2e]')")
    from fastapi.testclient import TestClient

    from judge.web.app import create_app
    from judge.web.guard import Guard

    return TestClient, create_app, Guard


def test_the_web_page_shows_nothing_of_the_hidden_tests(tmp_path, web, shown, capfd, monkeypatch) -> None:
    TestClient, create_app, Guard = web
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    port, token = 8765, "test-token-0123456789"
    with _fresh_judge(tmp_path, "web-cache") as judge:
        app = create_app(judge, Guard(token, port))
        with TestClient(app, base_url=f"http://127.0.0.1:{port}", headers={"X-Judge-Token": token}) as client:
            for pid in PROBLEMS:
                for path in wrong(pid):
                    response = client.post(f"/api/run/{pid}", json={"source": path.read_text(),
                                                                    "examples_only": False})
                    assert response.status_code == 200 and "wrong_answer" in response.text
                    assert leaks(response.text, pid) == [], (path, response.text)
                for page in (f"/problem/{pid}", f"/api/history/{pid}"):
                    response = client.get(page)
                    assert response.status_code == 200 and leaks(response.text, pid) == [], (page, response.text)
    assert shown == []
    out, err = capfd.readouterr()
    assert leaks(out) == [] and leaks(err, stderr=True) == [], (out, err)
