"""The web page in a real browser: Debian's Chromium driven by Playwright for Python.

A learner's path through `judge serve`: the problem list, patchify's page,
a correct solution typed into the editor, Run, Submit with every row
accepted, a wrong solution and its diagnosis, hints, the history restoring
an old attempt, a unit's question; and a page on another origin that tries
to post code to the judge is refused. Screenshots of the main pages go to
the test's output folder (printed at the end of the module).
"""
from __future__ import annotations

import http.server
import json
import shutil
import threading
from pathlib import Path

import pytest

import serving

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[e2e]')")
pytest.importorskip("fastapi", reason="the web extra is not installed (pip install -e '.[web]')")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium (apt-get install chromium)")

CORRECT = (serving.REPO / "submissions/patchify/accepted/reshape_permute.py").read_text()
WRONG = (serving.REPO / "submissions/patchify/wrong_answer/column_major.py").read_text()
TIMEOUT_MS = 120_000  # a Submit under a loaded CI machine


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("screenshots")
    yield directory
    print(f"\nscreenshots: {directory}")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = serving.problem_set(tmp_path_factory.mktemp("problem_set"))
    env = serving.environment(tmp_path_factory.mktemp("home"), tmp_path_factory.mktemp("run") / "xdg")
    server = serving.start(root, env)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, served):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(served.url)  # the printed URL: its token becomes a cookie
    yield page
    context.close()


def set_source(page, source: str) -> None:
    """Type into the real editor: select everything, then insert the text as typing would."""
    page.click("#editor .cm-content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(source)


def editor_text(page) -> str:
    return page.evaluate("window.judgeEditor.state.doc.toString()")


def judge_and_wait(page, button: str | None = None, keys: str | None = None) -> str:
    """Run or Submit by a button or the editor's keyboard shortcut; the summary once judged."""
    page.evaluate("document.getElementById('summary').className = 'summary'")  # forget the last verdict
    if button:
        page.click(button)
    else:
        page.click("#editor .cm-content")
        page.keyboard.press(keys)
    page.wait_for_selector("#summary.accepted, #summary.failed")
    return page.inner_text("#summary")


def test_the_list_shows_problems_units_and_filters(page, served, shots):
    assert page.url == served.base + "/"  # the token left the address bar
    rows = page.locator("#problem-table tbody tr")
    assert rows.count() == 2
    page.fill("#search", "unpatch")
    assert page.locator("#problem-table tbody tr:not([hidden])").count() == 1
    assert page.inner_text("#shown-count") == "1 of 2"
    page.fill("#search", "")
    assert "1.0 · Tokens" in page.inner_text(".units")
    page.screenshot(path=str(shots / "list.png"), full_page=True)


def test_solve_patchify_run_then_submit(page, served, shots):
    page.click("text=Patchify a Batch of Images")
    page.wait_for_selector("#editor .cm-content")
    assert "raise NotImplementedError" in editor_text(page)  # the starter
    assert page.locator(".rules strong", has_text="row-major grid order").count() == 1  # a rule, listed after the prose

    set_source(page, CORRECT)
    summary = judge_and_wait(page, keys="Control+Enter")  # the keyboard's Run
    assert summary.startswith("✓ accepted: 3/3 tests passed")
    assert "(public examples only)" in summary
    assert page.locator(".test-wrap .values").count() == 3  # inputs, expected and yours, side by side
    page.screenshot(path=str(shots / "problem_run.png"), full_page=True)

    summary = judge_and_wait(page, keys="Shift+Control+Enter")  # the keyboard's Submit
    rows = page.locator(".test")
    total = rows.count()
    assert summary.startswith(f"✓ accepted: {total}/{total} tests passed"), summary
    assert total > 10
    assert page.locator('.test[data-verdict="accepted"]').count() == total
    groups = set(page.locator(".test .group").all_inner_texts())
    assert groups == {"example", "hidden", "check"}
    assert page.inner_text("h1 + .meta .status") == "solved"
    page.screenshot(path=str(shots / "problem_submit.png"), full_page=True)

    page.reload()  # the draft is kept as typed
    page.wait_for_selector("#editor .cm-content")
    assert editor_text(page) == CORRECT
    assert page.inner_text("#draft-status") == "draft restored"


def test_a_wrong_solution_names_its_mistake(page, served, shots):
    page.goto(served.base + "/problem/patchify")
    set_source(page, WRONG)
    summary = judge_and_wait(page, "#submit")
    assert summary.startswith("✗ wrong_answer")
    first_bad = page.locator('.test-wrap:has(.test[data-verdict="wrong_answer"])').first
    assert "column-major" in first_bad.locator(".diagnosis").inner_text()
    assert page.locator(".test[data-verdict='accepted']").count() > 0  # the rows that pass still say so
    page.screenshot(path=str(shots / "problem_wrong.png"), full_page=True)


def test_hints_one_level_at_a_time(page, served):
    page.goto(served.base + "/problem/patchify")
    page.click("#hint")
    page.wait_for_selector(".hint")
    assert page.locator(".hint").count() == 1
    assert page.inner_text(".hint").startswith("Hint 1 of 4:")
    page.click("#hint")
    page.wait_for_selector(".hint >> nth=1")
    assert page.locator(".hint").nth(1).inner_text().startswith("Hint 2 of 4:")


def test_history_restores_an_old_attempt(page, served, shots):
    page.goto(served.base + "/problem/patchify")
    set_source(page, CORRECT)
    judge_and_wait(page, "#run")
    set_source(page, WRONG)
    judge_and_wait(page, "#run")
    # The list reloads after the verdict: wait for the newest row (an older test left a bad attempt too).
    page.wait_for_selector("#history .attempt:first-child.bad")
    assert page.locator("#history .attempt").first.get_attribute("class") == "attempt bad"  # newest first
    accepted = page.locator("#history .attempt.ok").first
    accepted.locator("button.view").click()
    page.wait_for_selector("#attempt-source:not([hidden])")
    assert page.inner_text("#attempt-source").strip() == CORRECT.strip()
    set_source(page, "# something else\n")
    accepted.locator("button.restore").click()
    page.wait_for_function("document.getElementById('draft-status').textContent.startsWith('restored')")
    assert editor_text(page) == CORRECT
    assert page.inner_text("#draft-status").startswith("restored the attempt of")
    page.screenshot(path=str(shots / "problem_history.png"), full_page=True)


def test_a_unit_page_takes_answers(page, served, shots):
    page.goto(served.base + "/unit/1.0")
    assert page.locator(".katex").count() >= 2  # the summary's and the question's maths, by KaTeX
    form = page.locator('form.question[data-question="patches"]')
    form.locator("input[name=answer]").fill("196")
    form.locator("button").click()
    form.locator(".feedback.ok").wait_for()
    assert "right" in form.locator(".feedback").inner_text()
    other = page.locator('form.question[data-question="why"]')
    other.locator("input[value=a]").check()
    other.locator("button").click()
    other.locator(".feedback.bad").wait_for()
    assert "not quite: you answered a; the answer is b) attention is permutation-equivariant" in \
        other.locator(".feedback").inner_text()
    page.screenshot(path=str(shots / "unit.png"), full_page=True)


class _Evil(http.server.BaseHTTPRequestHandler):
    """A page on another origin that posts code to the judge, as any site the learner visits could."""

    target = ""

    def do_GET(self):
        body = f"""<!doctype html><script>
        window.done = fetch("{self.target}/api/run/patchify", {{method: "POST", mode: "no-cors", credentials: "include",
          headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify({{source: "def patchify(*a):\\n    return 1\\n"}})}})
          .then(() => "sent", (e) => "blocked: " + e);
        </script>""".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_foreign_page_cannot_post_code(browser, served, page):
    def attempts() -> int:
        return len(json.loads(page.evaluate(
            "fetch('/api/history/patchify', {headers: {'X-Judge-Token': document.querySelector('meta[name=judge-token]').content}})"
            ".then(r => r.text())")))

    before = attempts()
    _Evil.target = served.base
    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        context = browser.new_context()
        visitor = context.new_page()
        # The learner's browser holds the judge's cookie: same site (127.0.0.1), another port.
        context.add_cookies([{"name": f"judge_token_{served.port}", "value": served.token,
                              "url": served.base + "/"}])
        visitor.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        visitor.evaluate("window.done")
        context.close()
    finally:
        evil.shutdown()
    assert attempts() == before  # nothing was judged or recorded
