"""Installed like any Python tool: the wheel carries the course, judging never writes into it, packs add problems.

Everything is built from this checkout with the setuptools already in this
environment (`--no-build-isolation`) and installed with `--no-deps --no-index
--target`: offline and bounded. The installed judge runs with this
interpreter's torch and numpy, from an empty directory.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.problemsets import REPO

COURSE = ("problems", "hidden_tests", "submissions", "units")
SOURCES = ("judge", "judge_course", *COURSE, "setup.py", "pyproject.toml", "README.md")
ACCEPTED = "submissions/patchify/accepted/reshape_permute.py"


@dataclass(frozen=True)
class Installed:
    wheel: Path
    sdist: Path
    site: Path          # the --target directory: the judge and its course, nothing from the checkout
    scratch: Path       # an empty working directory

    @property
    def course(self) -> Path:
        return self.site / "judge_course"


def _pip(*args, cwd: Path | None = None) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    work = tmp_path_factory.mktemp("installed")
    source = work / "source"   # a copy: building writes build/ and *.egg-info where it builds
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(path, source / name)
    _pip("wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", work / "dist", source)
    done = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                           "print(build_meta.build_sdist(sys.argv[1]))", work / "dist"], cwd=source,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    [wheel] = (work / "dist").glob("tensor_judge-*.whl")
    [sdist] = (work / "dist").glob("tensor_judge-*.tar.gz")
    # --no-compile: any __pycache__/ in the course would then come from judging (pip writes none).
    _pip("install", "--no-deps", "--no-index", "--no-compile", "--target", work / "site", wheel)
    (work / "scratch").mkdir()
    return Installed(wheel, sdist, work / "site", work / "scratch")


def _judge(installed: Installed, *args, extra_path: tuple[Path, ...] = (), timeout: float = 600):
    """`judge ARGS` as installed: from the scratch directory, with bytecode writing as Python's default."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "JUDGE_PROBLEMS_DIR")}
    env.update(PYTHONPATH=os.pathsep.join(map(str, (installed.site, *extra_path))), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "judge", *map(str, args)], cwd=installed.scratch, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _course_files() -> set[str]:
    return {str(p.relative_to(REPO)) for top in COURSE for p in (REPO / top).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".yaml")}


def _fingerprint(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_the_wheel_and_the_sdist_carry_the_course(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert {f"judge_course/{f}" for f in _course_files()} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    judge_files = {str(p.relative_to(REPO)) for p in (REPO / "judge").rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert judge_files <= names, sorted(judge_files - names)   # code, templates, scripts, fonts
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "judge_course/setup"))]
    import tarfile
    with tarfile.open(installed.sdist) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert _course_files() <= members


def test_installed_the_judge_uses_its_course_from_any_directory(installed):
    doctor = _judge(installed, "doctor")
    assert doctor.returncode == 0, doctor.stderr
    assert doctor.stdout.splitlines()[0] == f"problem set: installed course: {installed.course.resolve()}"
    listed = _judge(installed, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert {"patchify", "unpatchify", "info_nce"} <= {item["id"] for item in json.loads(listed.stdout)}
    probe = subprocess.run([sys.executable, "-c", "import importlib.util; print(importlib.util.find_spec('judge').origin)"],
                           cwd=installed.scratch, env={**os.environ, "PYTHONPATH": str(installed.site)},
                           capture_output=True, text=True, timeout=60)
    assert probe.stdout.strip().startswith(str(installed.site)), probe.stdout + probe.stderr


def test_judging_and_validating_never_write_into_an_installed_read_only_course(installed):
    """Issue 22.1 and 27.3: bytecode writing on (PYTHONDONTWRITEBYTECODE unset), the course read-only."""
    course = installed.course
    before = _fingerprint(course)
    modes = {p: p.stat().st_mode for p in [course, *course.rglob("*")]}
    for path in modes:
        path.chmod(stat.S_IMODE(modes[path]) & ~0o222)
    try:
        run = _judge(installed, "run", "patchify", course / ACCEPTED)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert "accepted" in run.stdout
        validated = _judge(installed, "validate", "unpatchify")
        assert validated.returncode == 0, validated.stdout[-3000:] + validated.stderr[-2000:]
    finally:
        for path, mode in modes.items():
            path.chmod(stat.S_IMODE(mode))
    assert _fingerprint(course) == before
    assert not list(course.rglob("__pycache__")) and os.listdir(installed.scratch) == []


def test_a_pack_package_adds_its_problems_and_a_clash_names_both(installed, tmp_path):
    made = _judge(installed, "new", "scale_rows", "--pack", tmp_path / "my-pack")
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "my-pack" / "pyproject.toml").is_file()
    _pip("wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", tmp_path / "dist", tmp_path / "my-pack")
    [pack_wheel] = (tmp_path / "dist").glob("my_pack-*.whl")
    _pip("install", "--no-deps", "--no-index", "--target", tmp_path / "packs", pack_wheel)
    packs = (tmp_path / "packs",)

    listed = _judge(installed, "list", "--json", extra_path=packs)
    assert listed.returncode == 0, listed.stderr
    by_id = {item["id"]: item for item in json.loads(listed.stdout)}
    assert by_id["scale_rows"]["pack"] == "my-pack" and by_id["patchify"]["pack"] == ""
    table = _judge(installed, "list", extra_path=packs)
    assert any(line.split()[1:2] == ["scale_rows"] and "my-pack" in line for line in table.stdout.splitlines())
    accepted = tmp_path / "packs" / "my_pack" / "submissions" / "scale_rows" / "accepted" / "placeholder.py"
    run = _judge(installed, "run", "scale_rows", accepted, extra_path=packs)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]

    # A problem added, built, then deleted: the next build ships it no more (nothing is left in build/).
    assert _judge(installed, "new", "drop_me", "--pack", tmp_path / "my-pack").returncode == 0
    for round_, expected in ((1, True), (2, False)):
        if round_ == 2:
            for folder in ("problems", "hidden_tests", "submissions"):
                for found in (tmp_path / "my-pack" / "my_pack" / folder).glob("drop_me*"):
                    shutil.rmtree(found) if found.is_dir() else found.unlink()
        out = tmp_path / f"dist{round_}"
        _pip("wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", out, tmp_path / "my-pack")
        [built] = out.glob("my_pack-*.whl")
        with zipfile.ZipFile(built) as wheel:
            assert any("drop_me" in name for name in wheel.namelist()) is expected, round_
        assert not (tmp_path / "my-pack" / "build").exists()

    # A second pack with a problem id the first has: one clear line naming both.
    shutil.copytree(tmp_path / "packs" / "my_pack", tmp_path / "other" / "other_pack")
    info = tmp_path / "other" / "other_pack-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: other-pack\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tensor_judge.problem_sets]\nother-pack = other_pack\n")
    clash = _judge(installed, "list", extra_path=(*packs, tmp_path / "other"))
    assert clash.returncode == 2
    assert clash.stderr.startswith("error: problem id 'scale_rows' is in two problem sets: pack my-pack: ")
    assert "and pack other-pack: " in clash.stderr and len(clash.stderr.splitlines()) == 1


def test_the_readme_installs_only_extras_that_exist_and_says_how_to_get_jupyter_and_a_small_tool() -> None:
    """Every `pip install` of the README names extras pyproject.toml defines; Jupyter is the `notebook`
    extra; the tool's install takes the pinned CPU build first and says what the other route costs."""
    import re
    import tomllib

    readme = (REPO / "README.md").read_text()
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    named = {e for group in re.findall(r"\[([a-z0-9,]+)\]'", readme) for e in group.split(",")}
    assert named and named <= set(extras), named - set(extras)
    assert any(d.startswith("jupyterlab") for d in extras["notebook"])
    assert "pip install -e '.[notebook]'" in readme and "jupyter lab" in readme
    tool = readme.split("### As a tool, without a clone", 1)[1].split("\n## ", 1)[0]
    assert "~/tj/bin/pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in tool
    assert "5.5 GB" in tool and "1 GB" in tool  # what each route makes


def test_an_installed_judge_and_a_clone_each_have_their_own_warm_judge(installed, tmp_path):
    """The installed tool's `judge run` neither uses nor stops the clone's warm judge serving its page
    (it stopped it, as another version, and the learner lost the page): each starts and keeps its own."""
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "JUDGE_PROBLEMS_DIR",
                                                              "JUDGE_NO_WARM")}
    env.update(XDG_RUNTIME_DIR=str(runtime), JUDGE_WARM_IDLE="120", NO_COLOR="1", JUDGE_HOME=str(tmp_path / "home"))
    clone = {**env, "PYTHONPATH": str(REPO)}
    tool = {**env, "PYTHONPATH": str(installed.site)}

    def judge(environ: dict, *args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "judge", *args], cwd=cwd, env=environ, capture_output=True,
                              text=True, timeout=600)

    try:
        page = judge(clone, "serve", "--background", cwd=REPO)
        assert page.returncode == 0, page.stderr
        url = page.stdout.strip()
        ran = judge(tool, "run", "patchify", str(installed.course / ACCEPTED), cwd=installed.scratch)
        assert ran.returncode == 0, ran.stderr
        status = judge(clone, "serve", "--status", cwd=REPO).stdout
        heads = [line for line in status.splitlines() if line.startswith("warm judge")]
        assert len(heads) == 2, status
        assert any(line.endswith(f"page at {url}") for line in heads)  # the clone's, still serving its page
        assert f"judge {installed.site / 'judge'}" in status  # the tool's, named by its installation
    finally:
        judge(clone, "serve", "--stop", cwd=REPO)
