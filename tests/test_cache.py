"""judge/cache.py: expected observations cached on disk, invalidated and rebuilt (issue 6)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import judge.prepared as prepared_mod
from judge import cache as cache_mod
from judge import problem as problems
from judge import wire
from judge.cache import FORMAT, ExpectedCache, cache_key, default_directory
from judge.prepared import expected_of
from judge.session import Judge
from problemsets import copy_problems

PROBLEM = "patchify"


@pytest.fixture
def problem_set(tmp_path, repo) -> Path:
    """A private copy of the patchify problem, free to edit."""
    return copy_problems(tmp_path / "set", PROBLEM)


@pytest.fixture
def reference_calls(monkeypatch) -> list[str]:
    """Records every time the reference is actually run (a cache miss)."""
    calls: list[str] = []
    real = prepared_mod._reference_outputs

    def counting(problem, reference_path, cases):
        calls.append(problem.id)
        return real(problem, reference_path, cases)

    monkeypatch.setattr(prepared_mod, "_reference_outputs", counting)
    return calls


def prepare(root: Path, directory: Path | None):
    """Cases and expectations of the full problem, as `judge run` prepares them (no sandbox needed)."""
    j = Judge(root, cache=ExpectedCache(directory), record=False)
    problem = j.problem(PROBLEM)
    cases, expected = expected_of(problem, problems.load_hidden(problem), j.cache)
    return j, cases, expected


def encoded(expected) -> list[bytes]:
    """Expectations as bytes, without the reference's timing (which differs run to run)."""
    return [wire.encode({k: {**o.to_plain(), "time_ms": 0.0} for k, o in e.items()}, 1 << 30) for e in expected]


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.expected"))


def test_second_preparation_reads_the_cache_and_equals_a_fresh_computation(problem_set, tmp_path, reference_calls):
    store = tmp_path / "cache"
    _, _, first = prepare(problem_set, store)
    assert reference_calls == [PROBLEM] and len(entries(store)) == 1
    _, _, second = prepare(problem_set, store)
    assert reference_calls == [PROBLEM], "a hit must not run the reference"
    _, _, uncached = prepare(problem_set, None)
    assert encoded(second) == encoded(first) == encoded(uncached)


@pytest.mark.parametrize("edit", ["hidden_tests/patchify/tests.yaml", "hidden_tests/patchify/reference.py",
                                  "hidden_tests/patchify/traps.py", "problems/patchify.yaml"])
def test_a_changed_problem_file_invalidates(problem_set, tmp_path, reference_calls, edit):
    store = tmp_path / "cache"
    prepare(problem_set, store)
    with (problem_set / edit).open("a") as f:
        f.write("\n# edited\n")
    prepare(problem_set, store)
    assert reference_calls == [PROBLEM, PROBLEM]
    prepare(problem_set, store)
    assert reference_calls == [PROBLEM, PROBLEM], "the new version is cached in turn"


def test_the_key_covers_versions_and_inputs(problem_set, monkeypatch):
    j, cases, _ = prepare(problem_set, None)
    problem = j.problem(PROBLEM)
    hidden = problems.load_hidden(problem)
    key = cache_key(problem, hidden, cases)
    assert key == cache_key(problem, hidden, cases), "deterministic"
    assert key != cache_key(problem, hidden, cases[:-1])
    real = cache_mod._versions
    monkeypatch.setattr(cache_mod, "_versions", lambda: [(n, v + ".post1") for n, v in real()])
    assert key != cache_key(problem, hidden, cases)


@pytest.mark.parametrize("damage", ["flip_byte", "truncate", "empty", "garbage", "directory", "other_key"])
def test_a_damaged_entry_is_rebuilt_never_trusted(problem_set, tmp_path, reference_calls, damage):
    store = tmp_path / "cache"
    _, _, good = prepare(problem_set, store)
    (entry,) = entries(store)
    data = entry.read_bytes()
    if damage == "flip_byte":  # a flipped bit in array data would still decode: the checksum catches it
        entry.write_bytes(data[:-10] + bytes([data[-10] ^ 1]) + data[-9:])
    elif damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "garbage":
        entry.write_bytes(b"\x80\x04\x95 not a wire payload")
    elif damage == "directory":
        entry.unlink()
        entry.mkdir()
    elif damage == "other_key":  # an intact entry of another problem version, renamed into place
        c = ExpectedCache(store)
        j, cases, expected = prepare(problem_set, None)
        c.store(PROBLEM, "0" * 64, cases, expected)
        entry.unlink()
        shutil.move(str(c.path(PROBLEM, "0" * 64)), entry)
    reference_calls.clear()
    _, _, again = prepare(problem_set, store)
    assert reference_calls == [PROBLEM]
    assert encoded(again) == encoded(good)
    if damage != "directory":
        prepare(problem_set, store)
        assert reference_calls == [PROBLEM], "the rebuilt entry is used next time"


def test_entries_are_plain_wire_data_with_a_checksum(problem_set, tmp_path):
    store = tmp_path / "cache"
    _, cases, _ = prepare(problem_set, store)
    data = entries(store)[0].read_bytes()
    assert data.startswith(FORMAT)
    payload = data[len(FORMAT) + cache_mod.DIGEST_BYTES:]
    plain = wire.decode(payload, len(payload))  # the wire format, not pickle
    assert [name for name, _ in plain["cases"]] == [c.name for c in cases]


def test_an_unwritable_cache_is_disabled_cleanly(problem_set, tmp_path, reference_calls):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    j, _, expected = prepare(problem_set, blocker / "cache")
    assert j.cache.disabled_reason and not j.cache.enabled
    assert len(expected) > 0 and reference_calls == [PROBLEM]
    _, _, uncached = prepare(problem_set, None)
    assert encoded(expected) == encoded(uncached)


def test_old_entries_of_a_problem_are_pruned(problem_set, tmp_path):
    store = tmp_path / "cache"
    for i in range(cache_mod.KEEP_PER_PROBLEM + 3):
        with (problem_set / "hidden_tests" / PROBLEM / "tests.yaml").open("a") as f:
            f.write(f"\n# edit {i}\n")
        prepare(problem_set, store)
    assert len(entries(store)) == cache_mod.KEEP_PER_PROBLEM


def test_cache_directory_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "mine"))
    assert default_directory() == tmp_path / "mine"
    for off in ("off", "0", ""):
        monkeypatch.setenv("JUDGE_CACHE_DIR", off)
        assert default_directory() is None
        assert not ExpectedCache.from_env().enabled
    monkeypatch.delenv("JUDGE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_directory() == tmp_path / "xdg" / "tensor-judge" / "expected"


def test_show_examples_come_from_the_cache(problem_set, tmp_path, reference_calls):
    j = Judge(problem_set, cache=ExpectedCache(tmp_path / "cache"), record=False)
    problem = j.problem(PROBLEM)
    first = j.problem_set.examples(problem)
    second = j.problem_set.examples(problem)
    assert reference_calls == [PROBLEM]
    assert encoded([e.expected for e in first]) == encoded([e.expected for e in second])


_PROBE = """
import sys
from judge.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
finally:
    print("TORCH-IMPORTED" if "torch" in sys.modules else "NO-TORCH", file=sys.stderr)
"""


def _cli(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_list_and_cached_show_do_not_import_torch(problem_set, tmp_path):
    env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache"), "JUDGE_PROBLEMS_DIR": str(problem_set)}
    listed = _cli(["list"], env)
    assert listed.returncode == 0 and "NO-TORCH" in listed.stderr, listed.stderr
    first = _cli(["show", PROBLEM], env)  # a miss runs the torch reference once
    assert first.returncode == 0, first.stderr
    second = _cli(["show", PROBLEM], env)
    assert second.returncode == 0 and "NO-TORCH" in second.stderr, second.stderr
    assert second.stdout == first.stdout


def test_a_numpy_problem_is_judged_without_torch(repo, tmp_path):
    accepted = sorted((repo / "submissions" / "info_nce" / "accepted").glob("*.py"))
    if not (repo / "problems" / "info_nce.yaml").is_file() or not accepted:
        pytest.skip("the info_nce problem is not in this checkout")
    env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # a miss, then a hit
        result = _cli(["--problems-dir", str(repo), "run", "info_nce", str(accepted[0])], env)
        assert "NO-TORCH" in result.stderr, result.stderr


def test_an_accepted_cached_torch_run_leaves_torch_to_the_sandbox(repo, tmp_path):
    """Expectations cached and traps loaded lazily: the judge's own process needs only numpy."""
    env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    submission = str(repo / "submissions" / PROBLEM / "accepted" / "reshape_permute.py")
    first = _cli(["--problems-dir", str(repo), "run", PROBLEM, submission], env)  # a miss runs the reference
    assert "TORCH-IMPORTED" in first.stderr, first.stderr
    second = _cli(["--problems-dir", str(repo), "run", PROBLEM, submission], env)
    assert "NO-TORCH" in second.stderr and "accepted" in second.stdout, second.stderr


def test_the_key_covers_the_code_that_makes_expected_values():
    """Execution, the wire format, grading and the experiments' training (an experiment call's value
    is the weights it trains): editing any of them must not leave stale expectations behind."""
    judge_dir = Path(cache_mod.__file__).resolve().parent
    covered = {p.relative_to(judge_dir).as_posix() for p in cache_mod.observing_files()}
    experiments = {f"experiments/{p.name}" for p in (judge_dir / "experiments").glob("*.py")}
    assert {"execute.py", "wire.py", "grading.py"} | experiments <= covered
