"""Similarity among a course's submissions: a copy in any disguise (renamed, commented, documented, spaced,
joined onto one line, split, reordered, all at once, and the hand disguises: statements reordered, a helper
extracted, loops as comprehensions, dead code) still matches its original, independent solutions do not, a
class lists its copies and not a problem's natural solution, the starter code does not count, pairs add up
across a course's problems, the shared lines are found, and only instructors get the report, a page at a time."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import disguises
from judge.model.problem import load_problem
from judge.service.classnorm import UNUSUAL
from judge.service.similarity import course_pairs, fingerprint, shared_regions, similar_found, similar_pairs, similarity
from judge.service.source_tokens import tokens

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


def _score(a: str, b: str, starter: str = "") -> float:
    pairs = similar_pairs([Sub("a", "alice", a), Sub("b", "bob", b)], 0.0, boilerplate=starter)
    return pairs[0].similarity if pairs else 0.0


def _starter(name: str) -> str:
    return load_problem(REPO, name.split("/")[0]).starter


@pytest.mark.parametrize("how", [*disguises.DISGUISES, "combined"])
def test_a_copy_in_disguise_scores_as_the_original(how):
    found = [c for c in disguises.copies() if c.disguise == how]
    assert found, how
    for copy in found:
        assert copy.source != disguises.original(copy.original)        # the disguise changed the text
        score = _score(disguises.original(copy.original), copy.source, _starter(copy.original))
        assert score >= 0.95, (copy.original, how, score)


@pytest.mark.parametrize("copy", disguises.hand_copies(), ids=lambda c: f"{c.original}.{c.disguise}")
def test_a_hand_disguise_scores_as_the_original(copy):
    score = _score(disguises.hand_original(copy.original), copy.source, _starter(copy.original))
    assert score >= 0.95, (copy.original, copy.disguise, score)


@pytest.mark.parametrize("copy", disguises.hand_copies(), ids=lambda c: f"{c.original}.{c.disguise}")
def test_a_class_lists_a_hand_disguised_copy_and_not_its_independent_solutions(copy):
    problem, file = copy.original.split("/")
    accepted = sorted((REPO / "submissions" / problem / "accepted").glob("*.py"))
    # Each accepted solution is one learner's (written independently); `copycat` hands in the disguise.
    subs = [Sub(f"s-{path.stem}", path.stem, path.read_text()) for path in accepted if path.stem != file]
    subs += [Sub("s-original", file, disguises.hand_original(copy.original)), Sub("s-copy", "copycat", copy.source)]
    found = similar_found(subs, 0.8, _starter(copy.original), unusual=UNUSUAL)
    assert [(p.a, p.b) for p in found.pairs] == [tuple(sorted(("copycat", copy.original.split("/")[1])))]
    (pair,) = found.pairs
    assert pair.z is not None and pair.z >= UNUSUAL and pair.percentile >= 80
    assert pair.to_json()["z"] == round(pair.z, 2)


def test_a_problem_with_one_natural_solution_lists_nobody():
    """Six learners who all write the short problem's one natural solution (in their own names and layout):
    every pair scores high, none is unusual in the class, so none is listed, and the report says how many."""
    subs = [Sub(f"s{i}", f"learner{i}", disguises.disguise(ORIGINAL, how, "patchify"))
            for i, how in enumerate(("rename", "comments", "docstrings", "blank_lines", "one_line", "split"))]
    found = similar_found(subs, 0.8, unusual=UNUSUAL)
    assert found.pairs == [] and found.common == 15
    assert len(similar_found(subs, 0.8, unusual=0).pairs) == 15      # the threshold alone lists them all


def test_independent_solutions_stay_apart():
    scores = sorted(_score(a, b, _starter(name_a)) for name_a, a, _, b in disguises.honest_pairs())
    assert len(scores) > 50
    assert scores[-1] < 0.6, scores[-5:]              # well below the default threshold of 0.8
    assert scores[len(scores) // 2] < 0.15            # and most share next to nothing


def test_a_one_line_if_is_the_if_on_two_lines():
    split_if = "def f(c, x):\n    if c:\n        raise ValueError('no')\n    return x + 1\n"
    joined = "def f(c, x):\n    if c: raise ValueError('no')\n    return x + 1\n"
    semicolons = "def f(c, x):\n    if c: raise ValueError('no')\n    y = x; return y + 1\n"
    assert tokens(split_if) == tokens(joined)
    assert tokens(semicolons) == tokens("def f(c, x):\n    if c:\n        raise ValueError('no')\n"
                                        "    y = x\n    return y + 1\n")
    assert tokens("if a:\n    x = 1\nelse:\n    if b:\n        x = 2\n") == \
        tokens("if a:\n    x = 1\nelif b:\n    x = 2\n")


def test_code_still_counts():
    # Canonical is not blind: another operator, another constant, another call are other tokens.
    assert tokens("x = a + b\n") != tokens("x = a - b\n")
    assert tokens("x = f(a, 1)\n") != tokens("x = f(a, 2)\n")
    assert tokens("x = a.sum()\n") != tokens("x = a.mean()\n")
    # A string that is a statement says nothing; a string a program uses is a string.
    assert tokens("'note'\nx = 1\n") == tokens("x = 1\n")
    assert tokens("x = 'a'\n") == ["V", "=", "S"]


def test_the_lines_two_submissions_share_are_found():
    helper = "\n\ndef unrelated(values):\n    total = 0\n    for v in values:\n        total += v * v\n" \
             "    return total\n"
    longer = DISGUISED + helper
    ours, theirs = shared_regions(ORIGINAL, longer)
    assert ours == [(4, len(ORIGINAL.splitlines()))]      # every statement of patchify's body
    marked = {n for first, last in theirs for n in range(first, last + 1)}
    lines = longer.splitlines()
    body = [n for n, line in enumerate(lines, 1) if "raise ValueError('bad size')" in line or "return {" in line]
    assert set(body) <= marked
    assert not marked & set(range(lines.index("def unrelated(values):") + 1, len(lines) + 1))   # the helper: not
    # The starter's lines are nobody's copy.
    starter = "import torch\n\n\ndef patchify(images, patch_height, patch_width):\n    raise NotImplementedError\n"
    assert shared_regions(starter, starter, boilerplate=starter) == ([], [])


def test_pairs_add_up_across_a_courses_problems():
    copy = disguises.disguise(disguises.original("self_attention/einsum_max_subtracted"), "combined",
                              "self_attention")
    by_problem = {
        "patchify": [Sub("a1", "alice", ORIGINAL), Sub("b1", "bob", DISGUISED), Sub("c1", "carol", DIFFERENT),
                     Sub("d1", "dora", LOOPS)],
        "self_attention": [Sub("a2", "alice", disguises.original("self_attention/einsum_max_subtracted")),
                           Sub("b2", "bob", copy),
                           Sub("c2", "carol", (REPO / "submissions/self_attention/accepted/matmul_softmax.py")
                               .read_text()),
                           Sub("d2", "dora", (REPO / "submissions/self_attention/accepted/"
                                                      "per_sample_log_softmax.py").read_text())],
    }
    pairs = course_pairs(by_problem, 0.8, starters={"patchify": "import torch\n"})
    assert [(p.a, p.b) for p in pairs] == [("alice", "bob")]
    (pair,) = pairs
    assert pair.flagged == 2 and [p.problem for p in pair.problems] == ["patchify", "self_attention"]
    assert {(p.a_submission, p.b_submission) for p in pair.problems} == {("a1", "b1"), ("a2", "b2")}
    assert pair.to_json()["shared"] == 2 and pair.to_json()["mean"] >= 0.95
    # Alike on one problem only: listed, with the other problem's low score beside it.
    by_problem["self_attention"][1] = Sub("b2", "bob", by_problem["self_attention"][2].source)
    (pair,) = [p for p in course_pairs(by_problem, 0.8) if (p.a, p.b) == ("alice", "bob")]
    assert pair.flagged == 1 and pair.problems[0].problem == "patchify" and pair.problems[1].similarity < 0.5
    # Two learners alike on two problems come before two alike on one.
    by_problem["self_attention"].append(Sub("e2", "eve", by_problem["self_attention"][2].source))
    by_problem["patchify"].append(Sub("e1", "eve", DIFFERENT))
    ranked = [(p.a, p.b, p.flagged) for p in course_pairs(by_problem, 0.8)]
    assert ranked[0] == ("carol", "eve", 2) and ("alice", "bob", 1) in ranked


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


def test_sources_built_to_make_the_normal_form_grow_cost_a_bounded_time():
    """Mutual recursion, a helper called hundreds of times, a long chain of temporaries, deep nesting: the
    rewrites stop at their bounds (judge.service.canonical), so each source costs well under a second."""
    import time

    sources = [
        "def a(x):\n    return b(x) + b(x)\n\ndef b(x):\n    return a(x) * a(x)\n\ndef f(x):\n    return a(x)\n",
        "def h(x):\n    y = x + 1\n    return y * 2\n\ndef f(x):\n" + "".join(f"    v{i} = h(x)\n" for i in range(400)),
        "def f(x):\n" + "".join(f"    v{i} = x + v{i - 1 if i else 0}\n" for i in range(290)) + "    return v1\n",
        "def f(x):\n" + "".join("    " * (i + 1) + f"if x > {i}:\n" for i in range(90)) + "    " * 91 + "return x\n",
        "".join(f"def h{i}(x):\n    return h{i + 1}(x) + h{i + 1}(x)\n\n" for i in range(30)) + "def h30(x):\n    return x\n",
    ]
    started = time.perf_counter()
    for source in sources:
        assert isinstance(fingerprint(source), frozenset)
    assert time.perf_counter() - started < 30          # a loose bound: only a rewrite without its limits comes near it


def test_the_api_and_cli_give_instructors_the_report(tmp_path, repo):
    pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
    pytest.importorskip("fastapi")
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from judge.cli.commands import main
    from judge.service.accounts import add_user
    from judge.service.api import create_app
    from judge.service.config import ServiceConfig
    from judge.service.storage import Store
    from judge.judging.session import Judge

    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo),
                           allowed_hosts=("testserver",))
    store = Store(config.database_url)
    tokens_ = {}
    for name, course, source in (("alice", "ml101", ORIGINAL), ("bob", "ml101", DISGUISED),
                                 ("carol", "ml101", DIFFERENT), ("mallory", "other", ORIGINAL)):
        account = add_user(store, name, course=course,
                           full_name="Alice Ó Súilleabháin" if name == "alice" else None)
        tokens_[name] = account.token
        store.create(account.user, [("patchify", source)])
    teach = add_user(store, "teach", "instructor", "ml101").token
    with Judge(repo, record=False) as judge, TestClient(create_app(config, store, None, judge)) as client:
        report = client.get("/api/v1/similarity?problem=patchify",
                            headers={"Authorization": f"Bearer {teach}"}).json()
        assert report["submissions"] == 3 and report["threshold"] == 0.8
        assert [(p["a"], p["b"]) for p in report["pairs"]] == [("alice", "bob")]   # mallory is not in ml101
        assert (report["total"], report["offset"], report["limit"]) == (1, 0, 50)
        assert report["pairs"][0]["a_name"] == "Alice Ó Súilleabháin"
        assert report["pairs"][0]["z"] is None              # three learners: too few pairs to compare with
        paged = client.get("/api/v1/similarity?limit=1&offset=1", headers={"Authorization": f"Bearer {teach}"})
        assert paged.json()["total"] == 1 and paged.json()["pairs"] == []
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
