"""The web page's routes over a real Judge: pages, the streamed results, hints, history, answers,
and the refusals every route shares. (The browser's view of the same is tests/web/test_web_e2e.py.)"""
from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path

import pytest

import serving

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx drives FastAPI's TestClient (pip install -e '.[e2e]')")

from fastapi.testclient import TestClient  # noqa: E402

from judge.judging.session import Judge  # noqa: E402
from judge.web.app import create_app  # noqa: E402
from judge.web.guard import Guard  # noqa: E402

PORT = 8765
TOKEN = "test-token-0123456789"
CORRECT = (serving.REPO / "submissions/patchify/accepted/reshape_permute.py").read_text()
WRONG = (serving.REPO / "submissions/patchify/wrong_answer/column_major.py").read_text()


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("web_home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_HOME", str(home))
        yield home


@pytest.fixture(scope="module")
def client(tmp_path_factory, home):
    root = serving.problem_set(tmp_path_factory.mktemp("web_problems"))
    with Judge(root) as judge:
        app = create_app(judge, Guard(TOKEN, PORT))
        with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", headers={"X-Judge-Token": TOKEN}) as c:
            yield c


def events(response) -> list[tuple[str, dict]]:
    assert response.headers["content-type"].startswith("text/event-stream")
    parsed = []
    for block in response.text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n"))
        parsed.append((lines["event"], json.loads(lines["data"])))
    return parsed


def run(client, source: str, examples_only: bool) -> list[tuple[str, dict]]:
    response = client.post("/api/run/patchify", json={"source": source, "examples_only": examples_only})
    assert response.status_code == 200, response.text
    return events(response)


def test_the_printed_url_sets_a_strict_cookie_and_leaves_the_address_bar(client):
    response = client.get(f"/?token={TOKEN}", headers={"X-Judge-Token": ""}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/"
    cookie = response.headers["set-cookie"]
    assert f"judge_token_{PORT}={TOKEN}" in cookie
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    assert client.get("/", headers={"X-Judge-Token": ""}).status_code == 200  # the cookie alone lets the page in
    client.cookies.clear()


def test_every_route_refuses_without_the_token_or_from_elsewhere(client):
    bare = {"X-Judge-Token": ""}
    for method, path in [("GET", "/"), ("GET", "/problem/patchify"), ("GET", "/static/app.js"),
                         ("GET", "/api/hint/patchify/1"), ("GET", "/api/history/patchify"), ("POST", "/api/run/patchify")]:
        response = client.request(method, path, headers=bare, json={"source": CORRECT})
        assert response.status_code == 403, path
        assert "token" in response.text
    evil = client.post("/api/run/patchify", headers={"Origin": "http://evil.example"}, json={"source": CORRECT})
    assert evil.status_code == 403
    rebound = client.get("/", headers={"Host": "evil.example:8765"})
    assert rebound.status_code == 403


def test_the_list_and_the_problem_page(client):
    index = client.get("/").text
    assert 'data-id="patchify"' in index and 'data-id="unpatchify"' in index
    assert 'href="/unit/1.0"' in index
    page = client.get("/problem/patchify").text
    assert "<strong>row-major grid order</strong>" in page  # the statement's Markdown as HTML
    assert "def patchify(images: torch.Tensor" in page
    assert 'src="/static/app.js"' in page and "cdn" not in page.lower()
    assert "tiny_index_image" in page  # the public examples, with the reference's output
    starter = page.split('<script type="application/json" id="starter">', 1)[1].split("</script>", 1)[0]
    assert "raise NotImplementedError" in json.loads(starter)


def test_statement_html_escapes_raw_html_and_marks_maths():
    from judge.render import markdown_html as to_html

    html = to_html("Tokens: $N = HW/p^2$ and <script>alert(1)</script>\n\n$$\\sum_i x_i$$")
    assert '<span class="math inline">N = HW/p^2</span>' in html
    assert '<div class="math block">' in html
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_run_streams_one_event_per_example_then_the_verdict(client):
    stream = run(client, CORRECT, examples_only=True)
    kinds = [kind for kind, _ in stream]
    assert kinds == ["test", "test", "test", "done"]
    tests = [data for _, data in stream[:-1]]
    assert [t["name"] for t in tests] == ["tiny_index_image", "worked_example_96px", "rectangular_patches"]
    assert all(t["verdict"] == "accepted" and t["group"] == "example" for t in tests)
    assert "yours" in tests[0]["values"] and "expected" in tests[0]["values"]
    done = stream[-1][1]
    assert (done["verdict"], done["passed"], done["total"], done["examples_only"]) == ("accepted", 3, 3, True)
    assert done["tampering"] == [] and done["tampering_line"] == ""  # honest code: nothing to say


def test_tampering_is_one_line_by_the_verdict_and_changes_none(client):
    source = CORRECT + "\n\nimport sys\nsys.settrace(None)\nsys.modules.get('judge.runs.calls')\n"
    stream = run(client, source, examples_only=True)
    done = stream[-1][1]
    assert done["verdict"] == "accepted"
    lines = len(source.splitlines())
    assert done["tampering"] == [f"line {lines - 1}: sets a trace or profile function (sys.settrace)",
                                 f"line {lines}: reaches into the judge (judge.runs.calls through sys.modules)"]
    assert done["tampering_line"] == f"tampering: {'; '.join(done['tampering'])} (shown to your instructor; " \
                                     "it changes no verdict)"
    script = (serving.REPO / "judge" / "web" / "static" / "app.js").read_text()
    assert "tampering_line" in script  # the page shows the line the payload carries (the bundle is rebuilt)


def test_submit_diagnoses_a_known_mistake_and_never_shows_hidden_values(client):
    stream = run(client, WRONG, examples_only=False)
    tests = [data for kind, data in stream if kind == "test"]
    [done] = [(kind, data) for kind, data in stream if kind == "done"]
    assert done[1]["verdict"] == "wrong_answer"
    assert done[1]["total"] == len(tests) > 10
    assert {t["group"] for t in tests} == {"example", "hidden", "check"}
    failing = [t for t in tests if t["verdict"] != "accepted"]
    # Mistakes are named once every test is judged: the `done` event carries the failures again, named; where
    # the diagnosis went on after the verdict (judge.judging.budget), `refined` ends the stream with them, or
    # with `nothing` when the search found no more than `done` said (the page keeps `done`'s failures).
    assert stream[-1][0] == ("refined" if done[1]["refining"] else "done")
    final = done[1] if stream[-1][1].get("nothing") else stream[-1][1]
    assert [t["name"] for t in final["failed"]] == [t["name"] for t in failing]
    assert any("column-major" in (t["diagnosis"] or "") for t in final["failed"])
    assert all(t["values"] is None for t in tests if t["group"] != "example")
    assert all("this matches a known mistake" not in t["message"] for t in tests)  # split out as `diagnosis`


def test_history_and_sources_of_attempts(client):
    run(client, CORRECT, examples_only=True)
    attempts = client.get("/api/history/patchify").json()
    assert attempts[0]["examples_only"] is True and attempts[0]["submission"] == "web editor"
    assert client.get(f"/api/attempt/{attempts[0]['id']}/source").json() == {"source": CORRECT}
    assert client.get("/api/attempt/999999/source").status_code == 404
    assert client.get("/api/attempt/..%2F..%2Fprogress.sqlite3/source").status_code in (404, 422)
    assert client.get("/api/history/no_such_problem").status_code == 404


def test_hints_level_by_level_and_the_level_reached_is_remembered(client):
    assert 'data-reached="0"' in client.get("/problem/patchify").text
    first = client.get("/api/hint/patchify/1").json()
    assert (first["level"], first["levels"], first["last"]) == (1, 4, False)
    page = client.get("/problem/patchify").text  # a later visit shows the hints already seen
    assert 'data-reached="1"' in page and "Hint 1 of 4: </strong>" in page and "Hint 2 of 4</button>" in page
    assert client.get("/api/hint/patchify/4").json()["last"] is True
    beyond = client.get("/api/hint/patchify/5")
    assert beyond.status_code == 400 and "levels 1 to 4" in beyond.json()["error"]


def test_bad_requests_get_one_line_errors(client):
    for body in (b"not json", b"[]", b'{"code": "x"}', b'{"source": 3}', b'{"source": "x", "examples_only": "yes"}'):
        response = client.post("/api/run/patchify", content=body)
        assert response.status_code == 400, body
        assert "\n" not in response.json()["error"]
    huge = client.post("/api/run/patchify", json={"source": "#" * (2 << 20)})
    assert huge.status_code == 413
    unknown = client.post("/api/run/no_such_problem", json={"source": CORRECT})
    assert unknown.status_code == 404 and "unknown problem id" in unknown.json()["error"]


def test_unit_page_and_answers_are_recorded(client, home):
    page = client.get("/unit/1.0").text
    assert 'data-question="patches"' in page and 'value="b"' in page
    right = client.post("/api/answer/1.0/patches", json={"answer": "196"}).json()
    assert right["right"] is True and right["explanation"] == "14 * 14 = 196."
    wrong = client.post("/api/answer/1.0/why", json={"answer": "a"}).json()
    assert wrong["right"] is False and wrong["answer"] == "a"
    # one more try first: neither the answer nor its explanation is in the reply yet
    assert wrong["reveal"] is False and "expected" not in wrong and "explanation" not in wrong
    again = client.post("/api/answer/1.0/why", json={"answer": "a"}).json()
    assert again["right"] is False and again["reveal"] is True
    assert again["expected"] == "b) attention is permutation-equivariant"
    unreadable = client.post("/api/answer/1.0/patches", json={"answer": "many"})
    assert unreadable.status_code == 400 and "answer with a number" in unreadable.json()["error"]
    assert "questions 1/2 right" in client.post("/api/answer/1.0/patches", json={"answer": "196"}).json()["standing"]
    assert client.get("/unit/9.9").status_code == 404


def rows_of(index: str) -> list[str]:
    return [part.split('"', 1)[0] for part in index.split('<tr data-id="')[1:]]


def test_problems_are_listed_in_course_order_and_link_to_the_next(tmp_path, home):
    # The unit puts unpatchify first: the list follows the course, not the ids.
    root = serving.problem_set(tmp_path / "problems")
    unit = root / "units" / "1.0.yaml"
    unit.write_text(unit.read_text().replace("problems: [patchify]\nextras: [unpatchify]",
                                             "problems: [unpatchify]\nextras: [patchify]"))
    with Judge(root) as judge:
        app = create_app(judge, Guard(TOKEN, PORT))
        with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", headers={"X-Judge-Token": TOKEN}) as c:
            assert rows_of(c.get("/").text) == ["unpatchify", "patchify"]
            first = c.get("/problem/unpatchify").text
            assert '<a id="next-problem" href="/problem/patchify">Patchify a Batch of Images</a>' in first
            assert 'id="next-problem"' not in c.get("/problem/patchify").text  # the last one


def test_problems_no_unit_lists_come_last_by_id(client):
    import dataclasses

    from judge.learner.units import course_order, load_units

    [unit] = load_units(serving.problem_set(Path(tempfile.mkdtemp()) / "set"))
    c_first = dataclasses.replace(unit, problems=("c",), extras=())
    a_c = dataclasses.replace(unit, problems=("a",), extras=("c",))
    assert course_order(["a", "b", "c", "d"], [c_first, a_c]) == ["c", "a", "b", "d"]
    gone = dataclasses.replace(unit, problems=("gone", "b"), extras=())  # a unit naming a missing problem
    assert course_order(["a", "b"], [gone]) == ["b", "a"]
    assert rows_of(client.get("/").text) == ["patchify", "unpatchify"]


def test_rule_ids_are_not_shown_to_learners(client):
    from judge.model.problemset import ProblemSet

    page = client.get("/problem/patchify").text
    problem = ProblemSet.find(serving.REPO).get("patchify")
    assert problem.rules and "<strong>row-major grid order</strong>" in page  # the rules' text is there
    assert "Input domain." in page and "<code>patch_height</code>: an <code>int</code>" in page   # and the domain
    assert "data-rule" not in page and "rule-id" not in page
    handles = [rule.id for rule in problem.rules if "_" in rule.id]  # ids like row_major_grid; not plain words
    assert len(handles) >= 3
    for handle in handles:
        assert handle not in page, handle


def test_the_solution_once_solved_or_when_confirmed(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    from judge.learner.progress import ProgressStore

    root = serving.problem_set(tmp_path / "problems")
    with Judge(root) as judge:
        app = create_app(judge, Guard(TOKEN, PORT))
        with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", headers={"X-Judge-Token": TOKEN}) as c:
            refused = c.get("/api/solution/patchify")
            assert refused.status_code == 409 and "not solved yet" in refused.json()["error"]
            assert ProgressStore().events(kind="solution") == []  # refused: nothing was seen
            early = c.get("/api/solution/patchify?confirmed=1").json()
            assert "def patchify(" in early["reference"] and early["earned"] is False and early["idea"]
            assert [(e[0], e[3]) for e in ProgressStore().events(kind="solution")] == [("patchify", "before")]
            assert 'id="show-solution">Show it anyway' in c.get("/problem/patchify").text
            assert [k for k, _ in run(c, CORRECT, examples_only=False)][-1] == "done"
            solved = c.get("/api/solution/patchify")
            assert solved.status_code == 200 and solved.json()["earned"] is True
            assert 'id="show-solution">Show the solution' in c.get("/problem/patchify").text
            assert c.get("/api/solution/no_such_problem").status_code == 404


def test_the_diff_between_two_attempts(client):
    run(client, CORRECT, examples_only=True)
    run(client, WRONG, examples_only=True)
    new, old = client.get("/api/history/patchify").json()[:2]
    lines = client.get(f"/api/diff/patchify/{old['id']}/{new['id']}").json()["lines"]
    assert lines[0].startswith(f"--- #{old['id']}") and lines[1].startswith(f"+++ #{new['id']}")
    added = {line[1:] for line in lines if line.startswith("+") and not line.startswith("+++")}
    assert added and added <= set(WRONG.splitlines())
    same = client.get(f"/api/diff/patchify/{old['id']}/{old['id']}").json()["lines"]
    assert same == [f"attempts #{old['id']} and #{old['id']} have the same source"]
    assert client.get(f"/api/diff/unpatchify/{old['id']}/{new['id']}").status_code == 404  # not this problem's
    assert client.get(f"/api/diff/patchify/{old['id']}/999999").status_code == 404


def test_status_and_stop_answer_only_with_the_token(tmp_path, home):
    stopped = []
    with Judge(serving.problem_set(tmp_path / "problems")) as judge:
        app = create_app(judge, Guard(TOKEN, PORT), on_stop=lambda: stopped.append(True), idle_s=lambda: 12.0)
        with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", headers={"X-Judge-Token": TOKEN}) as c:
            assert c.get("/api/status", headers={"X-Judge-Token": ""}).status_code == 403
            assert c.post("/api/stop", headers={"X-Judge-Token": ""}).status_code == 403
            assert stopped == []
            status = c.get("/api/status").json()
            assert status["pid"] == os.getpid() and status["idle_s"] == 12.0 and status["root"] == str(judge.root)
            assert c.post("/api/stop").json() == {"stopping": True} and stopped == [True]


def test_concurrent_submits_and_page_loads_each_end_with_a_verdict(client):
    # The server judges in worker threads while other requests load pages (and references);
    # every Submit's stream must end with its verdict.
    outcomes: list = []

    def submit(source: str, examples_only: bool) -> None:
        try:
            outcomes.append(next(event for event in run(client, source, examples_only) if event[0] == "done"))
        except Exception as exc:  # noqa: BLE001 - recorded, asserted below
            outcomes.append(("raised", repr(exc)))

    threads = [threading.Thread(target=submit, args=(CORRECT if i % 2 else WRONG, i % 3 == 0)) for i in range(6)]
    threads += [threading.Thread(target=lambda: outcomes.append(("page", client.get("/problem/unpatchify").status_code)))
                for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert all(not t.is_alive() for t in threads)
    verdicts = [o for o in outcomes if o[0] != "page"]
    assert len(verdicts) == 6 and all(kind == "done" for kind, _ in verdicts), verdicts
    assert {o[1] for o in outcomes if o[0] == "page"} == {200}


@pytest.mark.parametrize("failure", [AttributeError("partially initialized module 'torch' has no attribute 'nn'"),
                                     SystemExit(3)])
def test_a_judging_thread_that_fails_still_ends_the_stream(tmp_path, home, failure):
    with Judge(serving.problem_set(tmp_path / "problems")) as judge:
        def broken(*args, **kwargs):
            raise failure

        judge.prepared = broken  # the judge's own failure, whatever it is, in the worker thread
        app = create_app(judge, Guard(TOKEN, PORT))
        with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", headers={"X-Judge-Token": TOKEN}) as c:
            stream = run(c, CORRECT, examples_only=True)
    assert [kind for kind, _ in stream] == ["error"]
    message = stream[0][1]["message"]
    assert message.startswith("judge error: ")
    if isinstance(failure, AttributeError):
        assert "AttributeError: partially initialized" in message


def test_hostile_text_from_the_editor_is_shown_as_escapes(client):
    """A message with a lone surrogate, a bidi override and an OSC 52 write, and printed output
    with an isolate, reach the page as visible escapes in valid UTF-8; the source comes back untouched."""
    import unicodedata

    from markupsafe import Markup

    from judge.web.app import _visible

    source = ("print('\\u2066isolated\\u2069')\n"
              "def patchify(images, patch_height, patch_width):\n"
              "    raise ValueError('\\ud800 \\u202eKO \\x1b]52;c;SGVsbG8=\\x07')\n")
    response = client.post("/api/run/patchify", json={"source": source, "examples_only": True})
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    assert not [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    stream = events(response)
    first = stream[0][1]
    assert first["verdict"] == "runtime_error"
    assert "\\ud800 \\u202eKO \\x1b]52;c;SGVsbG8=\\x07" in first["message"]
    assert "\\u2066isolated\\u2069" in stream[-1][1]["output"]
    # The page's templates show every plain value the same way; Markup (rendered Markdown) is the page's own.
    assert _visible("a\u202eb\tc\n") == "a\\u202eb\tc\n" and _visible(Markup("<b>\u00ad</b>")) == "<b>\u00ad</b>"
