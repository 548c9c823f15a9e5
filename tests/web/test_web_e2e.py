"""The web page in a real browser: Debian's Chromium driven by Playwright for Python.

A learner's path through `judge serve`: the problem list, patchify's page,
a correct solution typed into the editor, Run, Submit with every row
accepted, a wrong solution and its diagnosis, hints, the history restoring
an old attempt and comparing two, the solution once solved, the failing
line marked in the editor, a unit's question; the page at 390 px (tabs, no
horizontal scrolling); a server stopped while a Submit streams and before
the next Run; and a page on another origin that tries to post code to the
judge is refused. Screenshots of the main pages go to the test's output
folder (printed at the end of the module), or to $JUDGE_E2E_SHOTS when set.
"""
from __future__ import annotations

import http.server
import json
import os
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
# Correct but one second per call (the limit is 2 s per test): a Submit that streams for half a minute.
SLOW = CORRECT.replace("def patchify(", "import time as _time\n\n\ndef _patchify(", 1) + (
    "\n\ndef patchify(*args, **kwargs):\n    _time.sleep(1.0)\n    return _patchify(*args, **kwargs)\n")
# Fails on line 5 of the editor's text, inside the function.
FAILING_LINE = ("import torch\n\n\ndef patchify(images, patch_height, patch_width):\n"
                "    return images.reshape(-1, 7, 3)\n")
NARROW = {"width": 390, "height": 844}  # a phone
TIMEOUT_MS = 120_000  # a Submit under a loaded CI machine


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    wanted = os.environ.get("JUDGE_E2E_SHOTS")
    directory = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    directory.mkdir(parents=True, exist_ok=True)
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
    assert page.inner_text("#summary .next") == "solved: next problem Unpatchify Tokens Back into Images"
    page.screenshot(path=str(shots / "problem_submit.png"), full_page=True)

    # once solved, the solution is one click away, as `judge solution` prints it
    assert page.inner_text("#solution-note").startswith("You solved it")
    page.click("#show-solution")
    page.wait_for_selector("#solution-body pre.reference")
    assert "def patchify(" in page.inner_text("#solution-body pre.reference")
    assert page.locator("#solution-body h3", has_text="The idea").count() == 1

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
    # the newest attempt against the one before it: what changed, line by line
    page.locator("#history .attempt").first.locator("button.diff").click()
    page.wait_for_selector("#attempt-source[data-showing=diff] .removed")
    removed = "\n".join(page.locator("#attempt-source .removed").all_inner_texts())
    added = "\n".join(page.locator("#attempt-source .added").all_inner_texts())
    changed = [line for line in WRONG.splitlines() if line not in CORRECT.splitlines()]
    assert changed and all(line in added for line in changed)
    assert any(line in removed for line in CORRECT.splitlines() if line not in WRONG.splitlines())
    accepted = page.locator("#history .attempt.ok").first
    accepted.locator("button.view").click()
    page.wait_for_selector("#attempt-source[data-showing=source]")  # not the diff shown before
    assert page.inner_text("#attempt-source").strip() == CORRECT.strip()
    set_source(page, "# something else\n")
    accepted.locator("button.restore").click()
    page.wait_for_function("document.getElementById('draft-status').textContent.startsWith('restored')")
    assert editor_text(page) == CORRECT
    assert page.inner_text("#draft-status").startswith("restored the attempt of")
    page.screenshot(path=str(shots / "problem_history.png"), full_page=True)


def test_the_solution_before_solving_is_asked_for_and_the_last_problem_has_no_next(page, served):
    page.goto(served.base + "/problem/unpatchify")
    assert page.locator("#next-problem").count() == 0  # the last problem of the course
    assert "Not solved yet" in page.inner_text("#solution-note")
    assert page.locator("#solution-body").is_hidden()
    # After the editor in the Tab order, not before it.
    assert page.evaluate("!!(document.getElementById('editor').compareDocumentPosition("
                         "document.getElementById('show-solution')) & Node.DOCUMENT_POSITION_FOLLOWING)")
    page.click("#show-solution")  # "Show it anyway…": asks first, as `judge solution` does
    assert page.locator("#solution-confirm").is_visible()
    assert "You have not solved unpatchify yet" in page.inner_text("#solution-confirm")
    assert page.evaluate("document.activeElement.id") == "cancel-solution"  # Enter keeps it hidden
    page.keyboard.press("Enter")
    assert page.locator("#solution-confirm").is_hidden() and page.locator("#solution-body").is_hidden()
    assert page.locator("#show-solution").is_visible()
    page.click("#show-solution")
    page.click("#confirm-solution")  # recorded as seen before solving
    page.wait_for_selector("#solution-body pre.reference")
    assert "def unpatchify(" in page.inner_text("#solution-body pre.reference")


def test_rules_are_shown_without_their_ids(page, served):
    page.goto(served.base + "/problem/patchify")
    rules = page.inner_text(".rules")
    assert "row-major grid order" in rules
    assert "row_major_grid" not in page.content() and "output_keys" not in page.content()


def test_a_traceback_marks_the_failing_line_in_the_editor(page, served, shots):
    page.goto(served.base + "/problem/patchify")
    set_source(page, FAILING_LINE)
    summary = judge_and_wait(page, "#run")
    assert summary.startswith("✗ runtime_error")
    assert "your code failed on line 5" in summary
    marked = page.locator("#editor .cm-line.cm-failing-line")
    assert marked.count() == 1
    assert marked.inner_text() == "    return images.reshape(-1, 7, 3)"
    page.screenshot(path=str(shots / "problem_failing_line.png"), full_page=True)
    set_source(page, CORRECT)  # new text: the old mark goes
    assert page.locator("#editor .cm-failing-line").count() == 0


def test_a_wrong_value_marks_no_line_even_where_a_must_raise_test_raised_the_wrong_error(page, served):
    """Only a runtime error's traceback points at the bug: this file's wrong value is in its loops, and its
    line 7 (a TypeError where ValueError is due) only fails a must-raise test, which is no place to send it."""
    page.goto(served.base + "/problem/patchify")
    set_source(page, WRONG.replace('raise ValueError("images must be a 4-D tensor")',
                                   'raise TypeError("images must be a 4-D tensor")'))
    summary = judge_and_wait(page, "#submit")
    assert summary.startswith("✗ wrong_answer")
    assert "failed on line" not in summary
    assert page.locator("#editor .cm-failing-line").count() == 0


def no_horizontal_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"the page is {width} px wide at {NARROW['width']} px"


def test_a_narrow_screen_shows_one_part_at_a_time(browser, served, shots):
    context = browser.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(served.url)
        no_horizontal_overflow(page)
        page.screenshot(path=str(shots / "narrow_list.png"), full_page=True)
        page.goto(served.base + "/unit/1.0")
        no_horizontal_overflow(page)
        page.goto(served.base + "/problem/patchify")
        page.wait_for_selector("#editor .cm-content", state="attached")
        assert page.locator("#tabs").is_visible()
        assert page.locator("h1").is_visible() and page.locator("#editor").is_hidden()
        no_horizontal_overflow(page)
        page.screenshot(path=str(shots / "narrow_statement.png"), full_page=True)
        page.screenshot(path=str(shots / "narrow_statement_top.png"))

        page.click("#tabs [data-tab=code]")  # one tap to the editor, at the top of the screen
        editor = page.locator("#editor").bounding_box()
        assert editor is not None and editor["y"] < 120 and editor["width"] <= NARROW["width"]
        assert page.locator("h1").is_hidden()
        assert page.locator("#run").is_visible() and page.locator("#submit").is_visible()
        no_horizontal_overflow(page)
        page.screenshot(path=str(shots / "narrow_code.png"))

        set_source(page, WRONG)
        summary = judge_and_wait(page, "#submit")  # the results tab comes forward by itself
        assert summary.startswith("✗ wrong_answer")
        assert page.get_attribute("#tabs [data-tab=results]", "aria-pressed") == "true"
        assert page.locator("#results .test").first.is_visible() and page.locator("#editor").is_hidden()
        # Failures first, as the terminal groups them; the passing tests folded after them.
        verdicts = page.locator("#results .test").evaluate_all("rows => rows.map(r => r.dataset.verdict)")
        failed = [v for v in verdicts if v != "accepted"]
        assert failed and verdicts[:len(failed)] == failed and "accepted" in verdicts
        assert page.locator("#results .passed-tests").get_attribute("open") is None
        assert page.inner_text("#results .passed-tests > summary") == f"✓ {len(verdicts) - len(failed)} passed"
        assert page.locator('#results .test[data-verdict="accepted"]').first.is_hidden()
        assert page.inner_text("#tab-verdict") == "✗"
        no_horizontal_overflow(page)
        page.screenshot(path=str(shots / "narrow_results.png"), full_page=True)
        page.screenshot(path=str(shots / "narrow_results_top.png"))
    finally:
        context.close()


def test_a_stopped_server_is_noticed_while_judging_and_on_the_next_run(browser, tmp_path, shots):
    root = serving.problem_set(tmp_path / "problems")
    env = serving.environment(tmp_path / "home", tmp_path / "xdg")
    server = serving.start(root, env)
    again = None
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(server.url)
        page.goto(server.base + "/problem/patchify")
        set_source(page, SLOW)
        page.click("#submit")
        page.wait_for_selector("#results .test")  # streaming has begun
        assert page.inner_text("#summary") == "judging every test…"
        server.stop()  # Ctrl+C in the server's terminal, mid-Submit
        page.wait_for_selector("#summary.stopped")
        summary = page.inner_text("#summary")
        assert summary.startswith("The server stopped while judging (")
        assert "The judge server has stopped" in summary and "`judge serve`" in summary
        assert page.locator("#server-banner").is_visible()
        assert "`judge serve`" in page.inner_text("#server-banner")
        assert not page.locator("#submit").is_disabled()
        page.screenshot(path=str(shots / "stopped_while_judging.png"), full_page=True)

        page.evaluate("document.getElementById('summary').className = 'summary'")
        page.click("#run")  # the next Run: said the same way, not "Failed to fetch"
        page.wait_for_selector("#summary.stopped")
        summary = page.inner_text("#summary")
        assert summary.startswith("The judge server has stopped") and "`judge serve`" in summary
        assert "Failed to fetch" not in summary
        page.screenshot(path=str(shots / "stopped_next_run.png"), full_page=True)
        page.set_viewport_size(NARROW)  # the same message on a phone: the results tab, no sideways scrolling
        page.click("#tabs [data-tab=results]")
        assert page.locator("#summary.stopped").is_visible() and page.locator("#server-banner").is_visible()
        no_horizontal_overflow(page)
        page.screenshot(path=str(shots / "narrow_stopped.png"))
        page.set_viewport_size({"width": 1400, "height": 1000})

        # A new server on the same port has a new token: this page's requests are refused, and
        # it says the same (its server is gone), not "403 Forbidden".
        again = serving.start(root, env, "--port", str(server.port))
        page.evaluate("document.getElementById('summary').className = 'summary'")
        page.click("#run")
        page.wait_for_selector("#summary.stopped")
        assert page.inner_text("#summary").startswith("The judge server has stopped")
    finally:
        context.close()
        server.stop()
        if again is not None:
            again.stop()


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
    first = other.locator(".feedback").inner_text()
    assert "not quite: you answered a; try once more" in first and "permutation" not in first
    other.locator("input[value=a]").check()
    other.locator("button").click()
    page.wait_for_function("document.querySelector('form.question[data-question=why] .feedback')"
                           ".textContent.includes('permutation')")
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


def test_tampering_is_one_line_under_the_verdict(page, served):
    page.goto(served.base + "/problem/patchify")
    set_source(page, CORRECT + "\n\nimport gc\n_objects = len(gc.get_objects())\n")
    summary = judge_and_wait(page, "#run")
    assert summary.startswith("✓ accepted: 3/3 tests passed")  # it changes no verdict
    assert page.locator("#summary .tampering").count() == 1
    line = page.inner_text("#summary .tampering")
    assert line.startswith("tampering: line ") and "walks the garbage collector's objects (gc.get_objects)" in line
    set_source(page, CORRECT)
    judge_and_wait(page, "#run")
    assert page.locator("#summary .tampering").count() == 0  # honest code: no line


def test_the_editor_opens_the_last_attempt_unless_the_draft_is_newer(browser, served):
    """A learner who judged from the terminal (or another browser) finds that attempt in the editor."""
    mine = CORRECT.replace("def patchify(", "# my last attempt\ndef patchify(", 1)
    first = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = first.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(served.url)
    page.goto(served.base + "/problem/patchify")
    set_source(page, mine)
    judge_and_wait(page, "#run")  # recorded as an attempt
    first.close()
    fresh = browser.new_context(viewport={"width": 1400, "height": 1000})  # no draft here
    try:
        page = fresh.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(served.url)
        page.goto(served.base + "/problem/patchify")
        page.wait_for_selector("#editor .cm-content")
        assert editor_text(page) == mine
        assert page.inner_text("#draft-status").startswith("your last attempt (")
        set_source(page, "# a newer draft\n")
        page.reload()
        page.wait_for_selector("#editor .cm-content")
        assert editor_text(page) == "# a newer draft\n" and page.inner_text("#draft-status") == "draft restored"
    finally:
        fresh.close()


def test_a_second_tab_is_told_the_draft_changed(browser, served):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        one, two = context.new_page(), context.new_page()
        for tab in (one, two):
            tab.set_default_timeout(TIMEOUT_MS)
            tab.goto(served.url)
            tab.goto(served.base + "/problem/unpatchify")
            tab.wait_for_selector("#editor .cm-content")
        assert two.locator("#draft-elsewhere").is_hidden()
        set_source(one, "# typed in the first tab\n")
        two.wait_for_selector("#draft-elsewhere", state="visible")
        assert "changed in another tab" in two.inner_text("#draft-elsewhere")
        two.click("#load-other-draft")
        assert editor_text(two) == "# typed in the first tab\n" and two.locator("#draft-elsewhere").is_hidden()
        set_source(two, "# the second tab's own\n")
        one.wait_for_selector("#draft-elsewhere", state="visible")
        one.click("#keep-this-draft")  # the first tab's text stays, and is the draft again
        assert editor_text(one) == "# typed in the first tab\n"
        assert one.evaluate("JSON.parse(localStorage.getItem('tensor-judge:draft:unpatchify')).text") == editor_text(one)
    finally:
        context.close()


def test_the_editor_says_how_to_leave_it_and_esc_then_tab_does(page, served):
    page.goto(served.base + "/problem/patchify")
    assert page.inner_text("#editor-keys") == "In the editor Tab indents; to leave it, press Esc, then Tab."
    page.click("#editor .cm-content")
    page.keyboard.press("Tab")  # indents: the focus stays
    assert page.evaluate("document.activeElement.closest('#editor') !== null")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "run"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_wide_equation_shows_that_it_scrolls(browser, tmp_path, width):
    """simsiam_loss's display equation is wider than its column at both widths: it says so."""
    from problemsets import copy_problems

    root = copy_problems(tmp_path / "problems", "simsiam_loss")
    server = serving.start(root, serving.environment(tmp_path / "home", tmp_path / "xdg"))
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server.url)
        page.goto(server.base + "/problem/simsiam_loss")
        page.wait_for_selector(".katex-display.scrolls")
        display = page.locator(".katex-display.scrolls").first
        assert display.evaluate("d => d.scrollWidth > d.clientWidth")
        assert "more-right" in display.get_attribute("class")  # the shadow at the edge it continues past
        cue = page.locator(".katex-display.scrolls + .scroll-cue").first
        assert cue.is_visible() and "scroll it sideways" in cue.inner_text()
        display.evaluate("d => { d.scrollLeft = d.scrollWidth; d.dispatchEvent(new Event('scroll')); }")
        assert "more-left" in display.get_attribute("class") and "more-right" not in display.get_attribute("class")
    finally:
        context.close()
        server.stop()
