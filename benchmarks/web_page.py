"""The web page's times in Chromium: loading patchify's page, and Submit to the last result <= 1.5x the
warm `judge run` (issues 15, 26). Submit is timed in the page, from the click to the summary that
follows the last result; the page loads are timed from Python through Playwright.

Baselines measured in the same run: loading a static page of the same size
class from Python's http.server in the same browser, and the warm `judge run`
of the same file through the same warm judge, which serves the page too
(`judge serve --background`: the judging both faces share).
Needs the e2e extra and /usr/bin/chromium.

Usage: python benchmarks/web_page.py   (BENCH_RUNS=N for more runs; default 7)
"""
from __future__ import annotations

import functools
import http.server
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from _timing import REPO, RUNS, isolated_env, judge_command, report, scratch, wall

SUBMISSION = REPO / "submissions/patchify/accepted/reshape_permute.py"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


def start_server(env: dict[str, str]) -> str:
    """The page of the warm judge `judge run` uses (`judge serve --background`): one process for both."""
    started = subprocess.run(judge_command() + ["serve", "--background"], env=env, cwd=REPO, capture_output=True,
                             text=True, timeout=300)
    line = started.stdout.strip()
    if started.returncode != 0 or not line.startswith("http://127.0.0.1:"):
        raise SystemExit(f"judge serve --background did not start (is the web extra installed?): {started.stderr}")
    return line


# In the page: click Submit, resolve once the summary says accepted or failed (the last event).
SUBMIT_TIMED = """() => new Promise((resolve) => {
  const summary = document.getElementById("summary");
  summary.className = "summary";
  const observer = new MutationObserver(() => {
    if (summary.classList.contains("accepted") || summary.classList.contains("failed")) {
      observer.disconnect();
      resolve(performance.now() - started);
    }
  });
  observer.observe(summary, { attributes: true, attributeFilter: ["class"] });
  const started = performance.now();
  document.getElementById("submit").click();
})"""


def static_baseline() -> tuple[http.server.ThreadingHTTPServer, str]:
    """A plain page with a script and a stylesheet, served by the standard library."""
    root = scratch("judge-bench-static-")
    (root / "index.html").write_text('<!doctype html><link rel="stylesheet" href="s.css"><script src="s.js"></script>'
                                     "<p>baseline</p>")
    (root / "s.css").write_text("p { color: #123; }\n")
    (root / "s.js").write_text("document.title = 'baseline';\n")
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/index.html"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> int:
    env = isolated_env()
    runtime = scratch("judge-bench-run-")
    os.chmod(runtime, 0o700)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    # Every problem's expected values cached first, as in warm_cli.py: the server's background
    # preparation then only reads them, and does not compete with what is timed.
    subprocess.run(judge_command() + ["prepare"], env=env, cwd=REPO, check=True, capture_output=True)
    url = start_server(env)
    static, static_url = static_baseline()
    base = url.split("/?", 1)[0]
    source = SUBMISSION.read_text()
    times: dict[str, list[float]] = {k: [] for k in ("static page", "problem page", "judge run (warm)", "Submit")}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            page = browser.new_page()
            page.set_default_timeout(120_000)
            page.goto(url)

            def load_problem():
                page.goto(base + "/problem/patchify")
                page.wait_for_selector("#editor .cm-content")

            def submit() -> float:
                """Click to the verdict, timed in the page itself (performance.now from the click to
                the summary showing it), without Playwright's round trips and actionability waits."""
                return page.evaluate(SUBMIT_TIMED) / 1000

            load_problem()
            page.evaluate("s => window.judgeEditor.dispatch({changes: {from: 0, to: window.judgeEditor.state.doc.length,"
                          " insert: s}})", source)
            submit()  # warm-up: fills the expected-value cache
            for _ in range(RUNS):
                times["static page"].append(timed(lambda: page.goto(static_url)))
                times["problem page"].append(timed(load_problem))
                times["Submit"].append(submit())
                if "accepted" not in page.inner_text("#summary"):
                    raise SystemExit(f"Submit was not accepted: {page.inner_text('#summary')}")
                times["judge run (warm)"].append(wall(judge_command() + ["run", "patchify", str(SUBMISSION)], env))
            browser.close()
    finally:
        static.shutdown()
        subprocess.run(judge_command() + ["serve", "--stop"], env=env, cwd=REPO, capture_output=True, timeout=120)
    medians = {k: statistics.median(v) for k, v in times.items()}
    print(f"medians of {RUNS} runs: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in medians.items())
          + f" (load {os.getloadavg()[0]:.2f})")
    print(f"problem page / static page: {medians['problem page'] / medians['static page']:.1f}x")
    return 0 if report("Submit to last result / warm judge run", medians["Submit"] / medians["judge run (warm)"],
                       1.5) else 1


if __name__ == "__main__":
    sys.exit(main())
