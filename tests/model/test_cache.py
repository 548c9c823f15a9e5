"""judge/model/cache.py: expected observations cached on disk, invalidated and rebuilt (issue 6)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import judge.judging.prepared as prepared_mod
from judge.model import cache as cache_mod
from judge.model import problem as problems
from judge.base import encoding as wire
from judge.model.cache import FORMAT, ExpectedCache, cache_key, default_directory
from judge.judging.prepared import expected_of
from judge.judging.session import Judge
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
    first = j.examples(problem)
    second = j.examples(problem)
    assert reference_calls == [PROBLEM]
    assert encoded([e.expected for e in first]) == encoded([e.expected for e in second])


_PROBE = """
import sys
from judge.cli.commands import main
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
    """Execution, the wire format, the reference's and the traps' runs, grading and the experiments'
    training (an experiment call's value is the weights it trains): editing any of them must not
    leave stale expectations behind."""
    judge_dir = Path(cache_mod.__file__).resolve().parents[1]
    covered = {p.relative_to(judge_dir).as_posix() for p in cache_mod.observing_files()}
    experiments = {f"experiments/{p.name}" for p in (judge_dir / "experiments").glob("*.py")}
    assert {"runs/calls.py", "base/encoding.py", "judging/expected.py", "judging/traps.py",
            "judging/grading.py"} | experiments <= covered


# ---------------------------------------------------------------- trap outputs (issue 26)
# Diagnosing a wrong answer runs the problem's traps on every case; their outputs are kept in a
# second entry kind beside the expected values (<id>-<key>.traps), read on the first need of one.

CHEAP = "info_nce"  # numpy traps that run in milliseconds: for the tests that only need an entry


class _Runs:
    """Counts the functions grading runs in the judge's process from now on: the traps
    (judge.judging.traps), once the problem is prepared (the reference runs too, through
    judge.judging.expected, while preparing)."""

    def __init__(self, monkeypatch) -> None:
        from judge.judging import expected, traps

        self.names: list[str] = []
        real = traps.run_call

        def counting(fn, call, filename):
            self.names.append(fn.__name__)
            return real(fn, call, filename)

        for module in (traps, expected):
            monkeypatch.setattr(module, "run_call", counting)


def _in_process():
    from inprocess import InProcessBackend

    return InProcessBackend()


def _judge(root: Path, directory: Path | None) -> Judge:
    return Judge(root, backend=_in_process(), cache=ExpectedCache(directory), record=False)


def _read(report) -> list[dict]:
    """What a learner reads of a report: every test's JSON less its time."""
    return [{**t.to_json(), "time_ms": None, "cpu_ms": None} for t in report.tests]


def _wrong_answers(repo: Path, problem_id: str) -> list[Path]:
    return sorted((repo / "submissions" / problem_id / "wrong_answer").glob("*.py"))


def traps_entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.traps"))


def test_a_traps_hit_gives_the_reports_that_running_the_traps_gives(problem_set, tmp_path, repo, monkeypatch):
    from judge.base.submission import Submission

    store = tmp_path / "cache"
    files = _wrong_answers(repo, PROBLEM)
    with _judge(problem_set, None) as uncached:  # no cache at all: each trap runs when a failure needs it
        computed = [_read(uncached.submit(PROBLEM, Submission.from_file(f), record=False)) for f in files]
    with _judge(problem_set, store) as first:  # a miss: every trap on every case, written
        assert [_read(first.submit(PROBLEM, Submission.from_file(f), record=False)) for f in files] == computed
    assert len(traps_entries(store)) == 1
    with _judge(problem_set, store) as second:  # a hit: the traps' outputs come from the entry
        second.prepared(PROBLEM)
        runs = _Runs(monkeypatch)
        hit = [_read(second.submit(PROBLEM, Submission.from_file(f), record=False)) for f in files]
        outputs = second.prepared(PROBLEM).traps.outputs
    assert hit == computed
    assert any(r["mistake"] for report in hit for r in report), "the wrong answers' mistakes are named"
    # Only outputs too large to keep were made again, for a submission whose shapes matched theirs.
    large = {function for (_, function), o in outputs.items() if o.shapes is not None and o.made is None}
    assert set(runs.names) <= large


def test_judge_prepare_writes_the_traps_entry_so_a_wrong_answer_runs_no_trap(tmp_path, repo, monkeypatch):
    from judge.base.submission import Submission

    root = copy_problems(tmp_path / "set", CHEAP)
    env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache"), "JUDGE_PROBLEMS_DIR": str(root)}
    prepared = _cli(["prepare", CHEAP], env)
    assert prepared.returncode == 0 and f"prepared {CHEAP}" in prepared.stdout, prepared.stderr
    assert len(traps_entries(tmp_path / "cache")) == 1
    with _judge(root, tmp_path / "cache") as judge:
        judge.prepared(CHEAP)
        runs = _Runs(monkeypatch)
        report = judge.submit(CHEAP, Submission.from_file(_wrong_answers(repo, CHEAP)[0]), record=False)
        assert not judge.prepared(CHEAP).traps._functions, "the trap module was not even loaded"
    assert report.verdict.value == "wrong_answer" and runs.names == []


@pytest.mark.parametrize("damage", ["flip_byte", "truncate", "empty", "garbage", "directory", "other_key",
                                    "other_case", "value_dropped"])
def test_a_damaged_traps_entry_is_rebuilt_never_trusted(tmp_path, monkeypatch, damage):
    root = copy_problems(tmp_path / "set", CHEAP)
    store = tmp_path / "cache"
    with _judge(root, store) as judge:
        made = judge.prepared(CHEAP).run_traps_ahead()
        key = judge.prepared(CHEAP).traps.entry.key
    (entry,) = traps_entries(store)
    good = entry.read_bytes()
    data = good
    if damage == "flip_byte":  # a flipped bit in an array would still decode: the checksum catches it
        data = good[:-10] + bytes([good[-10] ^ 1]) + good[-9:]
    elif damage == "truncate":
        data = good[: len(good) // 2]
    elif damage == "empty":
        data = b""
    elif damage == "garbage":
        data = b"\x80\x04\x95 not a wire payload"
    elif damage in ("other_key", "other_case", "value_dropped"):
        payload = good[len(cache_mod.TRAPS_FORMAT) + cache_mod.DIGEST_BYTES:]
        outputs = wire.decode(payload, len(payload))["outputs"]
        if damage == "other_case":    # an intact envelope around outputs for a case this version lacks
            outputs[0][0] = "no such case"
        elif damage == "value_dropped":  # a small output without its value
            outputs = [r[:4] + [None] if r[2] is not None else r for r in outputs]
        c = ExpectedCache(store)
        c.store_traps(CHEAP, "0" * 64 if damage == "other_key" else key, outputs)
        data = c.traps_path(CHEAP, "0" * 64).read_bytes() if damage == "other_key" else entry.read_bytes()
    if damage == "directory":
        entry.unlink()
        entry.mkdir()
    else:
        entry.write_bytes(data)
    with _judge(root, store) as judge:
        prepared = judge.prepared(CHEAP)
        runs = _Runs(monkeypatch)
        assert prepared.run_traps_ahead() == made
    assert len(runs.names) == made, "every trap ran again"
    if damage != "directory":
        assert entry.read_bytes() == good, "rebuilt as it was"
        runs.names.clear()
        with _judge(root, store) as judge:
            judge.prepared(CHEAP).run_traps_ahead()
        assert runs.names == [], "the rebuilt entry is used next time"


def test_a_changed_traps_file_is_a_new_version(tmp_path, monkeypatch):
    root = copy_problems(tmp_path / "set", CHEAP)
    store = tmp_path / "cache"
    with _judge(root, store) as judge:
        made = judge.prepared(CHEAP).run_traps_ahead()
    (before,) = traps_entries(store)
    with (root / "hidden_tests" / CHEAP / "traps.py").open("a") as f:
        f.write("\n# edited\n")
    with _judge(root, store) as judge:
        prepared = judge.prepared(CHEAP)
        runs = _Runs(monkeypatch)
        prepared.run_traps_ahead()
    assert len(runs.names) == made, "the edited traps ran: no output of the old file was used"
    assert len(traps_entries(store)) == 2 and before in traps_entries(store)


def test_with_the_cache_off_traps_run_as_needed_and_nothing_is_written(tmp_path, repo, monkeypatch):
    from judge.base.submission import Submission

    monkeypatch.setenv("JUDGE_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = copy_problems(tmp_path / "set", CHEAP)
    with Judge(root, backend=_in_process(), record=False) as judge:
        prepared = judge.prepared(CHEAP)
        assert not judge.cache.enabled and prepared.traps.entry is None
        runs = _Runs(monkeypatch)
        report = judge.submit(CHEAP, Submission.from_file(_wrong_answers(repo, CHEAP)[0]), record=False)
    assert report.verdict.value == "wrong_answer" and any(t.mistake for t in report.tests)
    assert 0 < len(runs.names) < len(prepared.cases) * len(prepared.traps.traps), "only the failing tests' traps ran"
    assert not list(tmp_path.rglob("*.traps")) and not list(tmp_path.rglob("*.expected"))


def test_a_large_trap_output_is_kept_as_shapes_only_and_made_again_when_it_may_match(problem_set, tmp_path,
                                                                                     repo, monkeypatch):
    """Every output counts as large here: the entry holds no value, and a wrong answer whose shapes
    match a trap's is compared with the trap run again."""
    from judge.judging import traps
    from judge.base.submission import Submission

    monkeypatch.setattr(traps, "TRAP_KEEP_BYTES", 0)
    store = tmp_path / "cache"
    submission = repo / "submissions" / PROBLEM / "wrong_answer" / "column_major.py"
    with _judge(problem_set, None) as uncached:
        computed = _read(uncached.submit(PROBLEM, Submission.from_file(submission), record=False))
    with _judge(problem_set, store) as judge:
        judge.prepared(PROBLEM).run_traps_ahead()
    (entry,) = traps_entries(store)
    payload = entry.read_bytes()[len(cache_mod.TRAPS_FORMAT) + cache_mod.DIGEST_BYTES:]
    records = wire.decode(payload, len(payload))["outputs"]
    assert records and all(value is None for *_, value in records)
    assert entry.stat().st_size < 200_000, "shapes and flags only"
    with _judge(problem_set, store) as judge:
        judge.prepared(PROBLEM)
        runs = _Runs(monkeypatch)
        hit = _read(judge.submit(PROBLEM, Submission.from_file(submission), record=False))
    assert hit == computed and any("column-major" in r["message"] for r in hit)
    assert "column_major" in runs.names, "the matching trap was made again"


def test_pruning_keeps_or_drops_a_versions_two_entries_together(tmp_path):
    c = ExpectedCache(tmp_path / "cache")
    keys = [f"{i:064x}" for i in range(cache_mod.KEEP_PER_PROBLEM + 2)]
    for i, key in enumerate(keys):
        assert c.store_traps(PROBLEM, key, [])
        (tmp_path / "cache" / c.path(PROBLEM, key).name).write_bytes(b"")  # its expected entry, as prepared
        for path in (c.path(PROBLEM, key), c.traps_path(PROBLEM, key)):
            os.utime(path, (1000 + i, 1000 + i))
    assert c.store_traps(PROBLEM, keys[0], [])  # the oldest version is used again: it is the newest now
    left = {p.name for p in (tmp_path / "cache").iterdir()}
    kept = [keys[0], *keys[::-1][:cache_mod.KEEP_PER_PROBLEM - 1]]
    assert left == {n for k in kept for n in (c.path(PROBLEM, k).name, c.traps_path(PROBLEM, k).name)}
