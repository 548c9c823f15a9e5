"""The library API's own decisions: here, what no submission may read."""
from __future__ import annotations

from judge.progress import home as progress_home
from judge.session import Judge


def test_protected_paths_cover_the_whole_problem_set_and_the_graded_directory(repo, tmp_path):
    judge = Judge(repo, record=False)  # starts no sandbox
    paths = judge.protected_paths(tmp_path)
    assert repo.resolve() in paths  # the whole root: .git and everything else, not three subfolders
    assert tmp_path.resolve() in paths
    assert progress_home().resolve() in paths
    assert judge.cache.directory is None or judge.cache.directory.resolve() in paths
    assert judge.protected_paths() == tuple(p for p in paths if p != tmp_path.resolve())
