"""The library API's own decisions: what no submission may read, prepared problems shared by threads."""
from __future__ import annotations

import threading
import time

import pytest

from judge.learner.progress import home as progress_home
from judge.judging.session import Judge
from problemsets import copy_problems


def test_protected_paths_cover_the_whole_problem_set_and_the_graded_directory(repo, tmp_path):
    judge = Judge(repo, record=False)  # starts no sandbox
    paths = judge.protected_paths(tmp_path)
    assert repo.resolve() in paths  # the whole root: .git and everything else, not three subfolders
    assert tmp_path.resolve() in paths
    assert progress_home().resolve() in paths
    assert judge.cache.directory is None or judge.cache.directory.resolve() in paths
    assert judge.protected_paths() == tuple(p for p in paths if p != tmp_path.resolve())


# ---------------------------------------------------------------- prepared problems, shared by threads

class _NoRun:
    """A backend that must not be reached (preparing never runs a submission)."""

    def run(self, *args, **kwargs):
        raise AssertionError("preparing a problem ran something")

    def warm(self, frameworks) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def reference_runs(monkeypatch) -> list[str]:
    import judge.judging.prepared as prepared_mod

    runs: list[str] = []
    real = prepared_mod._reference_outputs

    def counting(problem, reference_path, cases):
        runs.append(problem.id)
        time.sleep(0.2)  # long enough for the other threads to arrive while this one prepares
        return real(problem, reference_path, cases)

    monkeypatch.setattr(prepared_mod, "_reference_outputs", counting)
    return runs


def test_threads_asking_for_one_problem_prepare_it_once(tmp_path, reference_runs):
    from judge.model.cache import ExpectedCache

    judge = Judge(copy_problems(tmp_path / "set", "patchify"), backend=_NoRun(), cache=ExpectedCache(None), record=False)
    got: list = []
    threads = [threading.Thread(target=lambda: got.append(judge.prepared("patchify"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert reference_runs == ["patchify"] and len(got) == 4
    assert all(p.cases is got[0].cases and p.expected is got[0].expected for p in got)


def test_an_edited_problem_is_prepared_again(tmp_path, reference_runs):
    from judge.model.cache import ExpectedCache

    root = copy_problems(tmp_path / "set", "patchify")
    judge = Judge(root, backend=_NoRun(), cache=ExpectedCache(None), record=False)
    first = judge.prepared("patchify")
    assert judge.prepared("patchify").cases is first.cases       # kept while nothing changed
    tests = root / "hidden_tests" / "patchify" / "tests.yaml"
    tests.write_text(tests.read_text() + "\n# edited\n")
    assert judge.prepared("patchify").cases is not first.cases
    assert reference_runs == ["patchify", "patchify"]


def test_a_prepared_problem_judges_and_the_judges_tutor_records(tmp_path):
    from judge.model.cache import ExpectedCache
    from judge.learner.progress import ProgressStore
    from judge.base.submission import Submission
    from inprocess import InProcessBackend

    store = ProgressStore(tmp_path / "p.sqlite3")
    root = copy_problems(tmp_path / "set", "patchify")
    judge = Judge(root, backend=InProcessBackend(), cache=ExpectedCache(None), record=True, progress=store)
    assert judge.tutor.store is store and judge.record
    from problemsets import REPO

    source = (REPO / "submissions/patchify/accepted/reshape_permute.py").read_text()
    mine = Submission.from_text(source, "mine.py", origin="/somewhere/mine.py")
    judge.prepared("patchify", examples_only=True).judge(mine)
    assert store.attempts() == []                                   # judging alone records nothing
    judge.submit("patchify", mine, examples_only=True)
    judge.submit("patchify", mine, examples_only=True, record=False)
    [attempt] = store.attempts()
    assert (attempt.submission, attempt.examples_only, attempt.source) == ("/somewhere/mine.py", True, source)

