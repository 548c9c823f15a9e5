"""Class analytics from real reports: learners per named mistake (ever, and still: no accepted submission yet),
named, the tests most failed, in the API (instructors only) and the CLI."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from click.testing import CliRunner  # noqa: E402

from judge.cli.commands import main  # noqa: E402
from judge.service.accounts import add_user  # noqa: E402
from judge.service.analytics import analytics  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.worker import JUDGED, Processor  # noqa: E402


def _source(repo, name):
    return (repo / "submissions/patchify" / name).read_text()


@pytest.fixture
def judged(store, judge, repo):
    """Four learners' judged submissions to patchify, as the workers store them."""
    processor = Processor(ServiceConfig(database_url="unused", problems_dir=str(repo)), store, judge)
    users = {name: add_user(store, name, course="ml101", full_name="Bob Łukasz" if name == "bob" else None).user
             for name in ("alice", "bob", "carol", "dora", "erin")}
    add_user(store, "mallory", course="other")
    # alice is past it (accepted), though her latest submission makes the mistake again.
    plan = [("alice", "wrong_answer/column_major.py"), ("alice", "accepted/unfold.py"),
            ("alice", "wrong_answer/column_major.py"),
            ("bob", "wrong_answer/column_major.py"), ("bob", "wrong_answer/column_major.py"),  # still
            ("carol", "wrong_answer/swapped_patch_sizes.py"), ("dora", "accepted/reshape_permute.py")]
    for learner, name in plan:
        store.create(users[learner], [("patchify", _source(repo, name))])
    while processor.process("turn") == JUDGED:
        pass
    store.set_disabled("erin", True)           # left out, as in the gradebook
    return store


def test_each_named_mistake_counts_its_learners_ever_and_still(judged):
    [p] = analytics(judged, "ml101")
    assert (p.problem, p.learners, p.accepted, p.judged) == ("patchify", 4, 2, 7)
    mistakes = {m.name: m for m in p.mistakes}
    assert set(mistakes) == {"column_major", "swapped_patch_sizes_tokens_only"}
    column = mistakes["column_major"]
    assert (column.learners, column.still, column.submissions) == (2, 1, 4)
    assert (column.who, column.still_who) == (("alice", "Bob Łukasz"), ("Bob Łukasz",))
    assert "column-major" in column.message
    assert p.mistakes[0].name == "column_major"                          # most learners first
    failed = {t.name: t for t in p.failed_tests}
    # rectangular_patches fails for both mistakes: three learners, two of them still.
    assert (failed["rectangular_patches"].learners, failed["rectangular_patches"].still) == (3, 2)
    assert failed["rectangular_patches"].group == "example"
    assert p.failed_tests[0].learners == 3 and len(p.failed_tests) <= 10
    assert analytics(judged, "ml101", "clip_loss") == []


def test_the_api_and_cli_give_it_to_instructors(judged, repo, tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from judge.service.api import create_app
    from judge.judging.session import Judge

    teach = add_user(judged, "teach", "instructor", "ml101").token
    alice = add_user(judged, "alice2", course="ml101").token
    config = ServiceConfig(database_url="unused", problems_dir=str(repo), allowed_hosts=("testserver",))
    with Judge(repo, record=False) as judge, TestClient(create_app(config, judged, None, judge)) as client:
        body = client.get("/api/v1/analytics", headers={"Authorization": f"Bearer {teach}"}).json()
        assert body["course"] == "ml101"
        [problem] = body["problems"]
        assert problem["mistakes"][0] == {"name": "column_major", "message": problem["mistakes"][0]["message"],
                                          "learners": 2, "still": 1, "submissions": 4,
                                          "who": ["alice", "Bob Łukasz"], "still_who": ["Bob Łukasz"]}
        one = client.get("/api/v1/analytics?problem=patchify", headers={"Authorization": f"Bearer {teach}"})
        assert one.json() == body
        assert client.get("/api/v1/analytics", headers={"Authorization": f"Bearer {alice}"}).status_code == 403
    url = judged.engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(main, ["service", "--database", url, "analytics", "--course", "ml101"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "patchify: 4 learner(s) submitted, 2 accepted, 7 judged submission(s)"
    assert lines[1] == ("  named mistakes (learners who made it / still: none of their submissions accepted yet "
                        "/ submissions):")
    assert lines[2].split()[:4] == ["2", "1", "4", "column_major:"]
    assert lines[3] == "      made it: alice; Bob Łukasz; still: Bob Łukasz"
    as_json = CliRunner().invoke(main, ["service", "--database", url, "analytics", "--course", "ml101", "--json"])
    assert json.loads(as_json.output)["problems"][0]["mistakes"][0]["learners"] == 2
