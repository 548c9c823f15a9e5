"""The review pages: sign-in by token into a scoped cookie, instructors of the course only, a pair side by side
with the shared lines marked, histories and reports, hostile sources shown inert. (Chromium drives them
against the whole stack in test_term.py.)"""
from __future__ import annotations

import re

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("fastapi")
pytest.importorskip("jinja2")
from fastapi.testclient import TestClient  # noqa: E402

import disguises  # noqa: E402
from judge.base.report import Report, TestResult as Result  # noqa: E402
from judge.service.accounts import add_user, revoke  # noqa: E402
from judge.service.api import create_app  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.storage import Store  # noqa: E402
from judge.judging.session import Judge  # noqa: E402
from judge.base.outcomes import Verdict  # noqa: E402

ORIGINAL = disguises.original("patchify/reshape_permute")
COPY = disguises.disguise(ORIGINAL, "combined", "patchify")
HOSTILE = "def patchify(images, ph, pw):\n    return '</td><script>alert(1)</script>'  # \u202e evil\n"


def _finish(store, sid, verdict, passed=1, total=2, message="off by one"):
    store.claim(sid, "w", 60)
    tests = [Result("t1", "hidden", Verdict.ACCEPTED)] + (
        [] if verdict == "accepted" else [Result("t2", "hidden", Verdict(verdict), message=message)])
    store.finish(sid, Report("patchify", f"{sid}.py", tests).to_json())


@pytest.fixture
def site(tmp_path, repo):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo),
                           allowed_hosts=("testserver",))
    store = Store(config.database_url)
    users = {name: add_user(store, name, course=course) for name, course in
             (("alice", "ml101"), ("bob", "ml101"), ("carol", "ml101"), ("mallory", "other"))}
    teach = add_user(store, "teach", "instructor", "ml101")
    ids = {}
    [ids["alice_first"]] = store.create(users["alice"].user, [("patchify", "def patchify(images, ph, pw):\n    pass\n")])
    _finish(store, ids["alice_first"], "wrong_answer", message="returned None")
    [ids["alice"]] = store.create(users["alice"].user, [("patchify", ORIGINAL)])
    _finish(store, ids["alice"], "accepted")
    [ids["bob"]] = store.create(users["bob"].user, [("patchify", COPY)])
    _finish(store, ids["bob"], "accepted")
    [ids["carol"]] = store.create(users["carol"].user, [("patchify", HOSTILE)])
    _finish(store, ids["carol"], "wrong_answer", message="<b>bold</b> \u202e reversed")
    [ids["mallory"]] = store.create(users["mallory"].user, [("patchify", ORIGINAL)])
    with Judge(repo, record=False) as judge, TestClient(create_app(config, store, None, judge)) as client:
        yield client, store, users, teach, ids
    store.close()


def _sign_in(client, token):
    return client.post("/review/login", data={"token": token}, follow_redirects=False)


def test_signing_in_keeps_the_token_in_a_scoped_cookie_and_learners_are_refused(site):
    client, store, users, teach, _ = site
    assert client.get("/review", follow_redirects=False).headers["location"] == "/review/login"
    bad = _sign_in(client, "tj_nope")
    assert bad.status_code == 401 and "unknown, revoked, expired or disabled token" in bad.text
    learner = _sign_in(client, users["alice"].token)
    assert learner.status_code == 403 and "learner" in learner.text
    same = client.post("/review/login", data={"token": teach.token}, headers={"Origin": "http://testserver"},
                       follow_redirects=False)
    assert same.status_code == 303 and "Referrer-Policy" in same.headers
    ok = _sign_in(client, teach.token)
    assert ok.status_code == 303 and ok.headers["location"] == "/review"
    cookie = ok.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/review" in cookie
    page = client.get("/review")
    assert page.status_code == 200 and "Course ml101" in page.text
    assert "script-src" not in page.headers["content-security-policy"]          # default-src 'none': no script
    assert page.headers["x-frame-options"] == "DENY" and page.headers["cache-control"] == "no-store"
    revoke(store, "teach")                                                       # a revoked token is signed out
    assert client.get("/review", follow_redirects=False).headers["location"] == "/review/login"
    # A sign-in posted from another site is refused.
    client.cookies.clear()
    foreign = client.post("/review/login", data={"token": teach.token}, headers={"Origin": "http://evil.example"},
                          follow_redirects=False)
    assert foreign.status_code == 403 and "set-cookie" not in foreign.headers


def test_the_course_page_lists_the_copied_pair_and_the_pair_page_marks_the_shared_lines(site):
    client, _, _, teach, ids = site
    _sign_in(client, teach.token)
    page = client.get("/review").text
    links = re.findall(r'href="(/review/pair\?[^"]+)"', page)
    assert [link.replace("&amp;", "&") for link in links] == [f"/review/pair?a={ids['alice']}&b={ids['bob']}"]
    assert "alice · bob" in page and "mallory" not in page
    pair = client.get(links[0].replace("&amp;", "&")).text
    assert "alice and bob on patchify: 100% alike" in pair
    sides = pair.split('<section class="side"')[1:]
    assert len(sides) == 2
    marked = [re.findall(r'<tr class="shared"><td class="n">(\d+)</td>', side) for side in sides]
    assert len(marked[0]) >= len(ORIGINAL.splitlines()) - 3 and len(marked[1]) > len(marked[0])
    # Alice's history lists both her submissions, the one shown marked as shown, the other linked.
    assert f'href="/review/submission/{ids["alice_first"]}"' in sides[0] and "shown" in sides[0]
    assert sides[0].count("<tr class=\"current\">") == 1
    assert "returned None" not in sides[0]                 # the report shown is this submission's
    one = client.get(f"/review/submission/{ids['alice_first']}").text
    assert "returned None" in one and "wrong_answer" in one
    assert client.get(f"/review/submission/{ids['mallory']}").status_code == 404        # another course
    wide = client.get("/review/gradebook.csv?wide=1")
    assert wide.headers["content-type"].startswith("text/csv")
    assert wide.text.splitlines()[0] == "Student,ID,SIS User ID,SIS Login ID,Section,patchify,Total"


def test_a_hostile_source_and_report_are_shown_as_text(site):
    client, _, _, teach, ids = site
    _sign_in(client, teach.token)
    page = client.get(f"/review/submission/{ids['carol']}").text
    assert "<script>" not in page and "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\u202e" not in page and "\\u202e evil" in page and "\\u202e reversed" in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
