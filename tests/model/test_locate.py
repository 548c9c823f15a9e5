"""Which problem set the judge uses: flag, environment, the set the cwd is inside, the course; packs."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.model import locate
from judge.base.errors import ConfigError
from judge.model.problemset import ProblemSet
from judge.learner.progress import ProgressStore
from tests.problemsets import REPO, copy_problems


def _pack(site: Path, name: str, package: str, *problem_ids: str) -> Path:
    """An installed pack as pip leaves one: the package's files and a dist-info naming its entry point."""
    copy_problems(site / package, *problem_ids)
    (site / package / "__init__.py").write_text("")
    info = site / f"{package}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{locate.GROUP}]\n{name} = {package}\n")
    return site / package


@pytest.fixture()
def site(tmp_path, monkeypatch):
    directory = tmp_path / "site-packages"
    directory.mkdir()
    monkeypatch.syspath_prepend(str(directory))
    return directory


def test_order_flag_then_environment_then_the_set_the_cwd_is_inside_then_the_course(tmp_path):
    flag, env, inside = (copy_problems(tmp_path / n, "patchify") for n in ("flag", "env", "inside"))
    deep = inside / "problems" / "some" / "where"
    deep.mkdir(parents=True)
    environ = {"JUDGE_PROBLEMS_DIR": str(env)}
    assert locate.primary(flag, cwd=deep, environ=environ) == locate.Source("", flag, "--problems-dir")
    assert locate.primary(None, cwd=deep, environ=environ) == locate.Source("", env, "JUDGE_PROBLEMS_DIR")
    assert locate.primary(None, cwd=deep, environ={}) == locate.Source("", inside, "working directory")
    empty = tmp_path / "empty"
    empty.mkdir()
    course = locate.primary(None, cwd=empty, environ={})
    # In this checkout the course is the checkout itself; an installed wheel's is judge_course's data
    # (tests/test_packaging.py).
    assert (course.root, course.origin) == (REPO, "checkout")


def test_a_named_set_without_problems_is_an_error_naming_it(tmp_path):
    with pytest.raises(ConfigError, match="--problems-dir: no problems/ directory in"):
        locate.primary(tmp_path, cwd=tmp_path, environ={})


def test_packs_join_the_set_in_use_with_their_name(tmp_path, site):
    _pack(site, "extra", "extra_pack", "unpatchify")
    here = copy_problems(tmp_path / "here", "patchify")
    problems = ProblemSet.find(here)   # named explicitly: that set alone
    assert problems.ids() == ["patchify"] and problems.packs == ()
    problems = _found_from(here)
    assert problems.ids() == ["patchify", "unpatchify"]
    listing = problems.listing(ProgressStore(tmp_path / "progress.sqlite3"))
    assert [(e.problem.id, e.pack) for e in listing.entries] == [("patchify", ""), ("unpatchify", "extra")]
    assert problems.get("unpatchify").root == site / "extra_pack"
    assert [s.describe() for s in problems.sources()] == [f"working directory: {here}",
                                                          f"pack extra: {site / 'extra_pack'}"]


def test_a_pack_that_is_the_set_in_use_is_not_counted_twice(site, monkeypatch):
    root = _pack(site, "extra", "extra_pack", "unpatchify")
    monkeypatch.chdir(root / "problems")
    problems = ProblemSet.find()
    assert problems.root == root and problems.packs == () and problems.ids() == ["unpatchify"]


def test_an_id_in_two_packs_is_an_error_naming_both(tmp_path, site):
    _pack(site, "first", "first_pack", "unpatchify")
    _pack(site, "second", "second_pack", "unpatchify")
    problems = _found_from(copy_problems(tmp_path / "here", "patchify"))
    with pytest.raises(ConfigError) as caught:
        problems.ids()
    assert str(caught.value) == (f"problem id 'unpatchify' is in two problem sets: pack first: {site / 'first_pack'} "
                                 f"and pack second: {site / 'second_pack'}; uninstall one pack, or pass "
                                 "--problems-dir to use one set alone")


def test_a_pack_without_a_problem_set_is_an_error_naming_its_distribution(tmp_path, site):
    root = _pack(site, "broken", "broken_pack", "unpatchify")
    shutil.rmtree(root / "hidden_tests")
    with pytest.raises(ConfigError, match=r"problem pack 'broken' \(broken_pack 1.0, entry point 'broken_pack'\): "
                                          r"no problems/ and hidden_tests/ in"):
        _found_from(copy_problems(tmp_path / "here", "patchify"))


def test_doctor_says_which_set_is_in_use_and_where(tmp_path):
    here = copy_problems(tmp_path / "here", "patchify")
    done = subprocess.run([sys.executable, "-m", "judge", "doctor"], cwd=here / "problems", capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == f"problem set: working directory: {here}"


def _found_from(cwd: Path) -> ProblemSet:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        patch.delenv("JUDGE_PROBLEMS_DIR", raising=False)
        return ProblemSet.find()


def _source_folder(tmp_path: Path, package: str, *problem_ids: str) -> Path:
    """A pack author's folder as `judge new --pack` leaves it: a pyproject.toml declaring the group beside
    the package directory, laid out like a problem set; returns the package directory."""
    folder = tmp_path / package.replace("_", "-")
    copy_problems(folder / package, *problem_ids)
    (folder / "pyproject.toml").write_text(f'[project.entry-points."{locate.GROUP}"]\n{package} = "{package}"\n')
    return folder / package


def test_a_pack_source_folder_keeps_working_after_its_install_and_says_so(tmp_path, site):
    installed = _pack(site, "my_pack", "my_pack", "unpatchify")           # pip install my-pack
    working = _source_folder(tmp_path, "my_pack", "unpatchify")
    problems = _found_from(working / "problems")
    assert problems.root == working and problems.packs == () and problems.ids() == ["unpatchify"]
    assert problems.notes() == [f"using the working copy {working} instead of the installed pack my_pack "
                                f"({installed}); pip install the pack again to ship its changes"]
    # From anywhere else the installed copy is the pack, as ever.
    elsewhere = _found_from(copy_problems(tmp_path / "here", "patchify"))
    assert [s.root for s in elsewhere.packs] == [installed] and elsewhere.notes() == []
    # The CLI says so once, on stderr, and its commands work.
    done = subprocess.run([sys.executable, "-m", "judge", "list", "--json"], cwd=working, capture_output=True,
                          text=True, timeout=120, env={**__import__("os").environ, "PYTHONPATH": str(site)})
    assert done.returncode == 0, done.stderr
    assert [p["id"] for p in __import__("json").loads(done.stdout)] == ["unpatchify"]


def test_an_id_taken_by_an_installed_set_is_refused_by_new_and_validate(tmp_path, site):
    import os

    from click.testing import CliRunner

    from judge.cli.commands import main

    from judge.authoring.scaffold import scaffold

    other = _pack(site, "other", "other_pack")
    scaffold(other, "their_problem", "numpy")
    runner = CliRunner()
    env = {"JUDGE_PROBLEMS_DIR": ""}
    # The course's own id, and another pack's.
    for taken, holder in (("patchify", f"checkout: {REPO}"), ("their_problem", f"pack other: {other}")):
        refused = runner.invoke(main, ["new", taken, "--pack", str(tmp_path / "my-pack")], env=env)
        assert refused.exit_code == 2
        assert refused.output == (f"error: problem id {taken!r} is taken by {holder}: choose another id (once the "
                                  "pack is installed, an id in two sets stops every judge command)\n")
        assert not (tmp_path / "my-pack").exists()                       # nothing was made
    # A pack whose folder already holds a clashing id (copied in by hand) does not validate.
    working = _source_folder(tmp_path, "mine_pack", "patchify")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(working)
        patch.delenv("JUDGE_PROBLEMS_DIR", raising=False)
        checked = runner.invoke(main, ["validate", "patchify", "--no-mutants"])
    assert checked.exit_code == 1
    assert f"error: problem id 'patchify' is taken by checkout: {REPO}: rename the problem" in checked.output
    assert "validation failed" in checked.output
    # A set that is no pack's source (used alone or as the set in use) has no such refusal.
    plain = copy_problems(tmp_path / "plain", "patchify")
    assert ProblemSet.find(plain).clashes() == []
    assert os.environ.get("JUDGE_PROBLEMS_DIR") in (None, "")
