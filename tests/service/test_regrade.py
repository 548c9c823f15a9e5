"""Regrading: a changed problem's stale submissions are judged again after every fresh one, the previous
results are kept, the gradebook follows the new ones, and the flips are listed."""
from __future__ import annotations

import re
import sys

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from click.testing import CliRunner  # noqa: E402

from judge.cli.commands import main  # noqa: E402
from judge.service import regrade  # noqa: E402
from judge.service.accounts import add_user  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.gradebook import gradebook  # noqa: E402
from judge.service.storage import DONE, QUEUED, Quota  # noqa: E402
from judge.service.worker import JUDGED, SKIPPED, Processor  # noqa: E402

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from problemsets import REPO, copy_problems  # noqa: E402

SOURCES = {name: (REPO / "submissions/patchify" / name).read_text() for name in
           ("wrong_answer/silent_cropping.py", "accepted/reshape_permute.py", "wrong_answer/column_major.py")}


def drop_cropping_tests(root) -> None:
    """The author decides cropping is fine after all: the two tests that refuse it go."""
    path = root / "hidden_tests/patchify/tests.yaml"
    text = path.read_text()
    for name in ("rejects_indivisible_height", "rejects_indivisible_width"):
        text, found = re.subn(rf"  - name: {name}\n(?:    .*\n)+?(?=  [-#]|[^ ])", "", text)
        assert found == 1, f"{name} is no longer a test of patchify: choose another to drop"
    path.write_text(text)


@pytest.fixture
def course(tmp_path, store):
    from judge.judging.session import Judge

    root = copy_problems(tmp_path / "set", "patchify")
    config = ServiceConfig(database_url="unused", problems_dir=str(root), lease_s=60)
    with Judge(root, record=False) as judge:
        processor = Processor(config, store, judge)
        learners = {name: add_user(store, name, course="ml101").user for name in ("alice", "bob", "carol", "dora")}
        yield root, store, processor, learners, judge


def test_a_changed_problem_is_judged_again_after_fresh_work_and_the_flips_are_listed(course):
    root, store, processor, learners, judge = course
    ids = {}
    for learner, source in zip(("alice", "bob", "carol"), SOURCES.values()):
        [ids[learner]] = store.create(learners[learner], [("patchify", source)])
    while processor.process("turn") == JUDGED:
        pass
    assert {store.get(i)[0].verdict for i in ids.values()} == {"wrong_answer", "accepted"}
    first = regrade.start(store, None, judge.problem("patchify"))
    assert first.ids == () and len(first.version) == 64               # judged on the current files: nothing to do

    drop_cropping_tests(root)
    sent = regrade.start(store, None, judge.problem("patchify"))
    assert sent.version != first.version and sorted(sent.ids) == sorted(ids.values())
    assert {store.get(i)[0].status for i in sent.ids} == {QUEUED}
    # While queued again, each keeps its previous result, and the gradebook uses it.
    rows = {e.learner: e for e in gradebook(store, "ml101")}
    assert rows["alice"].best_verdict == "wrong_answer" and rows["alice"].judged == 1
    # A regrade is no learner's queued work: a quota of one still takes a fresh submission ...
    [fresh] = store.create(learners["dora"], [("patchify", SOURCES["accepted/reshape_permute.py"])], Quota(1, 1 << 20))
    # ... which is judged first, though it came last.
    assert processor.process("turn") == JUDGED and store.get(fresh)[0].status == DONE
    assert {store.get(i)[0].status for i in sent.ids} == {QUEUED}
    while processor.process("turn") == JUDGED:
        pass
    assert processor.process("turn") == SKIPPED
    state = regrade.progress(store, "patchify")
    assert (state.sent, state.done, state.finished) == (3, 3, True)
    flips = {f.learner: f for f in state.flips}
    assert (flips["alice"].before, flips["alice"].after) == ("wrong_answer", "accepted")
    assert flips["alice"].passed_after == flips["alice"].total_after == flips["alice"].passed_before
    assert "bob" not in flips                                          # accepted before and after
    assert {e.learner: e.best_verdict for e in gradebook(store, "ml101")}["alice"] == "accepted"
    # Nothing is stale any more; --all would judge everything again.
    assert regrade.start(store, None, judge.problem("patchify")).ids == ()
    assert len(regrade.start(store, None, judge.problem("patchify"), everything=True).ids) == 4


def test_the_cli_sends_them_and_reports_later(tmp_path, repo):
    from judge.service.storage import Store

    root = copy_problems(tmp_path / "set", "patchify")
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    alice = add_user(store, "alice", course="ml101").user
    [sid] = store.create(alice, [("patchify", SOURCES["wrong_answer/silent_cropping.py"])])
    store.claim(sid, "w", 60)
    store.finish(sid, {"verdict": "wrong_answer", "passed": 23, "total": 25}, "an-older-version")
    store.close()
    runner = CliRunner()

    def judge(*args):
        return runner.invoke(main, ["--problems-dir", str(root), "service", "--database", url, "regrade", *args])

    assert judge("patchify", "--status").output == "patchify has not been regraded\n"
    sent = judge("patchify", "--no-wait")
    assert sent.exit_code == 0, sent.output
    assert sent.stderr.startswith("sent 1 submission(s) to patchify to be judged again on version ")
    assert "the running judge service picks them up within 65 s" in sent.stderr
    assert "0 of 1 judged again, 0 changed" in sent.stdout
    store = Store(url)
    store.claim(sid, "w", 60)
    store.finish(sid, {"verdict": "accepted", "passed": 23, "total": 23}, "new")
    store.close()
    status = judge("patchify", "--status")
    assert "1 of 1 judged again, 1 changed" in status.output
    assert f"  alice  {sid}  wrong_answer (23) -> accepted (23/23)" in status.output
    unknown = judge("nosuch")
    assert unknown.exit_code == 2 and unknown.output.startswith("error: ") and "nosuch" in unknown.output
    assert judge("patchify", "--course", "nope").output == "error: no course 'nope' (courses: ml101)\n"
