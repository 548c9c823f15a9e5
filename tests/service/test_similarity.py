"""Similarity among a course's submissions: renamed variables and reformatting still match, different
solutions do not, the starter code does not count, and only instructors get the report."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from judge.service.similarity import fingerprint, similar_pairs, similarity, tokens

REPO = Path(__file__).resolve().parents[2]
ORIGINAL = (REPO / "submissions/patchify/accepted/reshape_permute.py").read_text()
DIFFERENT = (REPO / "submissions/patchify/accepted/unfold.py").read_text()
LOOPS = (REPO / "submissions/patchify/accepted/loops.py").read_text()
# The original with every local name renamed, comments and blank lines added, a docstring, other line breaks.
DISGUISED = '''import torch


def patchify(imgs, ph,
             pw):
    """Split images into patches."""
    # check the input first
    if not isinstance(imgs, torch.Tensor) or imgs.ndim != 4:
        raise ValueError('bad input')

    for s in (ph, pw):
        if type(s) is not int or s <= 0:
            raise ValueError('bad size')
    batch, chans, height, width = imgs.shape
    if height % ph or width % pw:
        raise ValueError('not divisible')
    n_rows, n_cols = height // ph, width // pw
    out = imgs.reshape(batch, chans, n_rows, ph,
                       n_cols, pw)
    out = out.permute(0, 2, 4, 1, 3, 5).reshape(
        batch, n_rows * n_cols, chans * ph * pw)   # flatten the patches
    r, q = torch.meshgrid(torch.arange(n_rows), torch.arange(n_cols), indexing="ij")
    return {"tokens": out, "coordinates": torch.stack([r.flatten(), q.flatten()], dim=1)}
'''


@dataclass(frozen=True)
class Sub:
    id: str
    user: str
    source: str


def test_renaming_and_reformatting_do_not_change_the_tokens():
    assert tokens(ORIGINAL) == tokens(DISGUISED.replace('    """Split images into patches."""\n', ""))
    assert similarity(fingerprint(ORIGINAL), fingerprint(DISGUISED)) >= 0.9


def test_different_solutions_are_not_alike():
    original = fingerprint(ORIGINAL)
    assert similarity(original, fingerprint(DIFFERENT)) < 0.3
    assert similarity(original, fingerprint(LOOPS)) < 0.3


def test_copied_code_inside_a_longer_file_still_shows():
    longer = ORIGINAL + "\n\n" + LOOPS.replace("def patchify", "def patchify_slowly")
    assert similarity(fingerprint(ORIGINAL), fingerprint(longer)) >= 0.9


def test_pairs_above_the_threshold_between_different_learners_most_alike_first():
    subs = [Sub("a1", "alice", ORIGINAL), Sub("a2", "alice", DISGUISED),     # her own resubmission: not a pair
            Sub("b1", "bob", DISGUISED), Sub("c1", "carol", DIFFERENT), Sub("d1", "dora", LOOPS),
            Sub("e1", "eve", ORIGINAL)]
    pairs = similar_pairs(subs, threshold=0.8)
    found = {(p.a, p.b) for p in pairs}
    assert found == {("alice", "bob"), ("alice", "eve"), ("bob", "eve")}
    assert pairs[0].similarity == 1.0 and {pairs[0].a, pairs[0].b} in ({"alice", "eve"}, {"alice", "bob"})
    ae = next(p for p in pairs if (p.a, p.b) == ("alice", "eve"))
    assert (ae.a_submission, ae.b_submission) == ("a1", "e1")      # the most alike of their submissions
    assert [p.similarity for p in pairs] == sorted((p.similarity for p in pairs), reverse=True)


def test_the_starter_code_alone_makes_no_pair():
    starter = "import torch\n\n\ndef patchify(images, patch_height, patch_width):\n    raise NotImplementedError\n"
    untouched = [Sub("a", "alice", starter), Sub("b", "bob", starter + "\n# todo\n")]
    assert similar_pairs(untouched, 0.5, boilerplate=starter) == []
    assert similar_pairs(untouched, 0.5) != []        # without it, they are the same file


def test_broken_and_hostile_sources_are_fingerprinted_without_running_them():
    for source in ("def f(:\n", "x = '''unterminated", "\tif x:\n  y\n", "import os; os._exit(1)", "", "\x00",
                   "(" * 10_000):
        fingerprint(source)         # never raises, never runs anything
    assert similar_pairs([Sub("a", "alice", "def f(:\n" * 50), Sub("b", "bob", "def f(:\n" * 50)], 0.8) != []


def test_the_api_and_cli_give_instructors_the_report(tmp_path, repo):
    pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
    pytest.importorskip("fastapi")
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from judge.cli import main
    from judge.service.accounts import add_user
    from judge.service.api import create_app
    from judge.service.config import ServiceConfig
    from judge.service.storage import Store
    from judge.session import Judge

    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo),
                           allowed_hosts=("testserver",))
    store = Store(config.database_url)
    tokens_ = {}
    for name, course, source in (("alice", "ml101", ORIGINAL), ("bob", "ml101", DISGUISED),
                                 ("carol", "ml101", DIFFERENT), ("mallory", "other", ORIGINAL)):
        account = add_user(store, name, course=course)
        tokens_[name] = account.token
        store.create(account.user, [("patchify", source)])
    teach = add_user(store, "teach", "instructor", "ml101").token
    with Judge(repo, record=False) as judge, TestClient(create_app(config, store, None, judge)) as client:
        report = client.get("/api/v1/similarity?problem=patchify",
                            headers={"Authorization": f"Bearer {teach}"}).json()
        assert report["submissions"] == 3 and report["threshold"] == 0.8
        assert [(p["a"], p["b"]) for p in report["pairs"]] == [("alice", "bob")]   # mallory is not in ml101
        refused = client.get("/api/v1/similarity?problem=patchify",
                             headers={"Authorization": f"Bearer {tokens_['alice']}"})
        assert refused.status_code == 403
        missing = client.get("/api/v1/similarity?problem=nope", headers={"Authorization": f"Bearer {teach}"})
        assert missing.status_code == 404
    store.close()
    result = CliRunner().invoke(main, ["--problems-dir", str(repo), "service", "--database", config.database_url,
                                       "similarity", "--course", "ml101", "--problem", "patchify", "--json"])
    assert result.exit_code == 0, result.output
    assert [(p["a"], p["b"]) for p in json.loads(result.output)["pairs"]] == [("alice", "bob")]
