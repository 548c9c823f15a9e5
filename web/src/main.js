// The page's behaviour: maths (a cue where an equation scrolls), list filters, the editor (opening
// the newest of the draft and the last attempt, told when another tab changes the draft),
// Run/Submit with streamed results (failures first), hints, history (view, diff, restore), the
// solution (asked for before it is solved), unit questions, the narrow-screen tabs, and noticing a
// stopped server. Every request carries the server's token.
import katex from "katex";
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import { EditorView, Decoration, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { indentUnit, syntaxHighlighting, defaultHighlightStyle, bracketMatching } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

const token = document.querySelector('meta[name="judge-token"]')?.content ?? "";

function api(path, options = {}) {
  const headers = { "X-Judge-Token": token, ...(options.headers || {}) };
  return fetch(path, { ...options, headers, credentials: "same-origin" });
}

// ------------------------------------------------------------ a stopped server
// A fetch that fails without an HTTP answer (or a stream cut short) may mean the server stopped
// (Ctrl+C, `judge serve --stop`, a background server's idle timeout). The page asks it once more;
// when nothing answers it says so, and how to start one, instead of a bare "Failed to fetch".
// A 403 there is a new server on the same port (`--port N`): this page's token is the old one's.
const STOPPED = "The judge server has stopped, so nothing more can be judged here. Start it again in a terminal " +
  "with `judge serve` (or `judge serve --background`) and open the address it prints: it has a new token.";

async function serverAnswers() {
  try {
    const response = await api("/api/status", { cache: "no-store" });
    return response.ok;
  } catch {
    return false;
  }
}

function showStopped() {
  const banner = document.getElementById("server-banner");
  if (!banner) return;
  banner.hidden = false;
  banner.textContent = STOPPED;
}

function hideStopped() {
  const banner = document.getElementById("server-banner");
  if (banner) banner.hidden = true;
}

// While the page is visible, notice a server that went away even when nothing is clicked.
// /api/status keeps no server alive: a background server still leaves when idle.
function watchServer() {
  setInterval(async () => {
    if (document.visibilityState !== "visible") return;
    if (await serverAnswers()) hideStopped(); else showStopped();
  }, 15000);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// ------------------------------------------------------------ maths
function renderMath(root) {
  for (const node of root.querySelectorAll(".math")) {
    katex.render(node.textContent, node, { displayMode: node.classList.contains("block"), throwOnError: false });
  }
  markWideMaths(root);
  // KaTeX's fonts arrive after this and widen the equations; the window may be resized.
  document.fonts?.ready.then(() => markWideMaths(root));
  window.addEventListener("load", () => markWideMaths(root));
  window.addEventListener("resize", () => markWideMaths(root));
}

// An equation wider than its column scrolls sideways; nothing in a scrollbar-less browser (a phone,
// macOS) says so. Each one that overflows gets a cue under it, and shadows at the edges it continues past.
function markWideMaths(root) {
  for (const display of root.querySelectorAll(".katex-display")) {
    const wide = display.scrollWidth > display.clientWidth + 1;
    display.classList.toggle("scrolls", wide);
    let cue = display.nextElementSibling?.classList.contains("scroll-cue") ? display.nextElementSibling : null;
    if (wide && !cue) {
      cue = el("div", { class: "scroll-cue", "aria-hidden": "true" }, "⇆ this equation is wider than the page: scroll it sideways");
      display.after(cue);
      display.addEventListener("scroll", () => edges(display));
    }
    if (cue) cue.hidden = !wide;
    edges(display);
  }
}

function edges(display) {
  display.classList.toggle("more-left", display.scrollLeft > 1);
  display.classList.toggle("more-right", display.scrollLeft + display.clientWidth < display.scrollWidth - 1);
}

// ------------------------------------------------------------ problem list
function setupList() {
  const table = document.getElementById("problem-table");
  if (!table) return;
  const search = document.getElementById("search");
  const selects = [...document.querySelectorAll("select[data-filter]")];
  const apply = () => {
    const text = search.value.trim().toLowerCase();
    let shown = 0;
    for (const row of table.tBodies[0].rows) {
      const matches = (!text || row.dataset.search.includes(text)) &&
        selects.every((s) => !s.value || (row.dataset[s.dataset.filter] || "").split(" ").includes(s.value));
      row.hidden = !matches;
      shown += matches ? 1 : 0;
    }
    document.getElementById("shown-count").textContent = `${shown} of ${table.tBodies[0].rows.length}`;
  };
  search.addEventListener("input", apply);
  selects.forEach((s) => s.addEventListener("change", apply));
  apply();
}

// ------------------------------------------------------------ narrow screens: tabs
// Below 760 px the problem page shows one part at a time: the statement, the editor, the results
// (CSS hides the other panes); on wider screens the tabs are hidden and everything shows.
const narrow = window.matchMedia("(max-width: 760px)");

function showTab(name) {
  const problem = document.getElementById("problem");
  if (!problem) return;
  problem.dataset.tab = name;
  for (const button of document.querySelectorAll("#tabs [data-tab]")) {
    button.setAttribute("aria-pressed", String(button.dataset.tab === name));
  }
  if (narrow.matches) window.scrollTo(0, 0);
}

function setupTabs() {
  for (const button of document.querySelectorAll("#tabs [data-tab]")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
}

// ------------------------------------------------------------ the failing line in the editor
const markLine = StateEffect.define();
const failingLine = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    marks = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(markLine)) {
        marks = effect.value === null ? Decoration.none : Decoration.set([
          Decoration.line({ class: "cm-failing-line", attributes: { title: "the line your code failed on" } })
            .range(effect.value)]);
      }
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// The line of the editor's file a traceback or syntax error names (its last frame in editor.py).
function editorLine(test) {
  const text = [test.message, ...test.details].join("\n");
  const frames = [...text.matchAll(/File "editor\.py", line (\d+)/g)];
  if (frames.length) return Number(frames[frames.length - 1][1]);
  const at = text.match(/editor\.py(?:, line |:)(\d+)/);
  return at ? Number(at[1]) : null;
}

// ------------------------------------------------------------ problem page
function setupProblem() {
  const host = document.getElementById("editor");
  if (!host) return;
  const problem = host.dataset.problem;
  const draftKey = `tensor-judge:draft:${problem}`;
  const starter = JSON.parse(document.getElementById("starter").textContent);
  const lastAttempt = JSON.parse(document.getElementById("last-attempt").textContent);
  const saved = readDraft(localStorage.getItem(draftKey));
  let ownDraft = localStorage.getItem(draftKey); // what this tab last saved (the storage event's own echo)
  const status = document.getElementById("draft-status");
  // The editor opens the newer of this browser's draft and the last attempt (judged from any face).
  const opened = saved && (!lastAttempt || saved.at >= lastAttempt.at * 1000) ? saved.text
    : lastAttempt ? lastAttempt.source : starter;

  let running = false;
  const run = (examplesOnly) => {
    if (!running) judge(view.state.doc.toString(), examplesOnly);
    return true;
  };
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc: opened,
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(),
        indentUnit.of("    "), python(), syntaxHighlighting(defaultHighlightStyle, { fallback: true }), failingLine,
        keymap.of([
          { key: "Mod-Enter", run: () => run(true) },
          { key: "Shift-Mod-Enter", run: () => run(false) },
          indentWithTab, ...defaultKeymap, ...historyKeymap,
        ]),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          ownDraft = JSON.stringify({ text: update.state.doc.toString(), at: Date.now() });
          localStorage.setItem(draftKey, ownDraft);
          status.textContent = "draft saved";
        }),
      ],
    }),
  });
  window.judgeEditor = view; // the end-to-end tests type through the real editor, and read it back
  if (opened === saved?.text) status.textContent = "draft restored";
  else if (lastAttempt && opened === lastAttempt.source) status.textContent = `your last attempt (${lastAttempt.when})`;

  // Another tab (or window) of this problem saved its draft: say so here rather than let the next
  // keystroke silently overwrite it; the learner picks which version to keep.
  const elsewhere = document.getElementById("draft-elsewhere");
  window.addEventListener("storage", (event) => {
    if (event.key !== draftKey || event.newValue === ownDraft) return;
    const other = readDraft(event.newValue);
    elsewhere.hidden = !other || other.text === view.state.doc.toString();
  });
  document.getElementById("load-other-draft").addEventListener("click", () => {
    const other = readDraft(localStorage.getItem(draftKey));
    elsewhere.hidden = true;
    if (other) { setSource(other.text); status.textContent = "loaded the other tab's draft"; }
  });
  document.getElementById("keep-this-draft").addEventListener("click", () => {
    elsewhere.hidden = true;
    ownDraft = JSON.stringify({ text: view.state.doc.toString(), at: Date.now() });
    localStorage.setItem(draftKey, ownDraft);
    status.textContent = "kept this draft";
  });

  const setSource = (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text },
    effects: markLine.of(null) });
  let marked = null; // the line marked by this run (the first failing test's)
  const mark = (number) => {
    if (number === null || number < 1 || number > view.state.doc.lines) return false;
    const line = view.state.doc.line(number);
    view.dispatch({ effects: [markLine.of(line.from), EditorView.scrollIntoView(line.from, { y: "center" })] });
    return true;
  };
  document.getElementById("reset-starter").addEventListener("click", () => setSource(starter));
  document.getElementById("run").addEventListener("click", () => run(true));
  document.getElementById("submit").addEventListener("click", () => run(false));

  const results = document.getElementById("results");
  // Failures first, as the terminal groups them: on a phone the first screen shows what went wrong;
  // the passing tests follow in a list of their own (folded on a narrow screen).
  const failedTests = el("div", { class: "failed-tests" });
  const passedList = el("div", { class: "passed-list" });
  const passedLabel = el("summary", {});
  const passedTests = el("details", { class: "passed-tests" }, passedLabel, passedList);
  let passedCount = 0;
  const diagnoses = new Set(); // a known mistake is named once per run, then referred to
  const summary = document.getElementById("summary");
  const buttons = [document.getElementById("run"), document.getElementById("submit")];

  const tabVerdict = document.getElementById("tab-verdict");
  async function judge(source, examplesOnly) {
    running = true;
    buttons.forEach((b) => (b.disabled = true));
    failedTests.replaceChildren();
    passedList.replaceChildren();
    passedCount = 0;
    passedTests.hidden = true;
    passedTests.open = !narrow.matches;
    results.replaceChildren(failedTests, passedTests);
    diagnoses.clear();
    marked = null;
    view.dispatch({ effects: markLine.of(null) });
    summary.className = "summary pending";
    summary.textContent = examplesOnly ? "running the public examples…" : "judging every test…";
    tabVerdict.textContent = "…";
    if (narrow.matches) showTab("results");
    let ended = false; // a `done` or `error` event arrived: anything else is a stream cut short
    let received = 0;
    try {
      let response;
      try {
        response = await api(`/api/run/${problem}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ source, examples_only: examplesOnly }),
        });
      } catch {
        throw new Unanswered();
      }
      if (response.status === 403) throw new Unanswered(); // refused: the token of a server that is gone
      if (!response.ok) { ended = true; throw new Error(await errorText(response)); }
      try {
        await readEvents(response, (event, data) => {
          if (event === "test") {
            received += 1;
            if (data.verdict === "accepted") {
              passedCount += 1;
              passedList.append(testRow(data, examplesOnly));
              passedLabel.textContent = `✓ ${passedCount} passed`;
              passedTests.hidden = false;
            } else {
              failedTests.append(testRow(data, examplesOnly));
            }
            // Only a test that raised (or a file that does not compile) points at a line: a wrong value's
            // bug is wherever the value goes wrong, and a frame in its details (a must-raise test's
            // exception) is not that place.
            if (marked === null && (data.verdict === "runtime_error" || data.verdict === "compile_error")) {
              const number = editorLine(data);
              if (number !== null && mark(number)) marked = number;
            }
          } else if (event === "done") {
            // A wrong value's mistakes are named once every test is judged: the failures again, named.
            // When the diagnosis goes on after the verdict, `refined` follows (the stream is not over yet).
            ended = !data.refining;
            diagnoses.clear();
            failedTests.replaceChildren(...data.failed.map((test) => testRow(test, examplesOnly)));
            showSummary(data);
            if (data.refining) summary.append(el("div", { class: "refining" }, "looking further for the mistake that explains it…"));
          } else if (event === "refined") {
            ended = true;
            summary.querySelector(".refining")?.remove();
            if (!data.nothing) {
              diagnoses.clear();
              failedTests.replaceChildren(...data.failed.map((test) => testRow(test, examplesOnly)));
            }
          }
          else if (event === "error") { ended = true; throw new Error(data.message); }
        });
      } catch (error) {
        if (ended) throw error;
        throw new Unanswered();
      }
      if (!ended) throw new Unanswered();
    } catch (error) {
      summary.className = "summary failed";
      tabVerdict.textContent = "✗";
      if (error instanceof Unanswered && !(await serverAnswers())) {
        summary.className = "summary failed stopped";
        summary.textContent = (received ? `The server stopped while judging (${received} result(s) arrived, above). ` : "") + STOPPED;
        showStopped();
      } else if (error instanceof Unanswered) {
        summary.textContent = "error: the connection to the judge ended before a verdict; press Run or Submit again";
      } else {
        summary.textContent = `error: ${error.message}`;
      }
    } finally {
      running = false;
      buttons.forEach((b) => (b.disabled = false));
      loadHistory();
    }
  }

  function showSummary(report) {
    const ok = report.verdict === "accepted";
    const badge = document.querySelector("h1 + .meta .status");
    if (badge && ok && !report.examples_only) { badge.className = "status solved"; badge.textContent = "solved"; }
    else if (badge && badge.textContent === "new" && !report.not_attempted) { badge.className = "status attempted"; badge.textContent = "attempted"; }
    summary.className = `summary ${ok ? "accepted" : "failed"}`;
    tabVerdict.textContent = ok ? "✓" : "✗";
    summary.textContent = `${ok ? "✓" : "✗"} ${report.verdict}: ${report.passed}/${report.total} tests passed ` +
      `in ${(report.time_ms / 1000).toFixed(2)} s${report.examples_only ? " (public examples only)" : ""}`;
    if (marked !== null) {
      summary.append(el("div", { class: "failing-line" }, `your code failed on line ${marked} (marked in the editor) `,
        el("button", { class: "link", type: "button", onclick: () => { showTab("code"); mark(marked); view.focus(); } }, "go to line")));
    }
    if (ok && !report.examples_only) {
      solvedNow();
      const next = document.getElementById("next-problem");
      if (next) summary.append(el("div", { class: "next" }, "solved: next problem ", el("a", { href: next.href }, next.textContent)));
    }
    for (const warning of report.warnings) summary.append(el("div", { class: "warning" }, `warning: ${warning}`));
    if (report.tampering_line) summary.append(el("div", { class: "tampering" }, report.tampering_line));
    if (report.output) summary.append(el("details", {}, el("summary", {}, "your printed output"), el("pre", {}, report.output)));
  }

  function testRow(test, examplesOnly) {
    const ok = test.verdict === "accepted";
    const row = el("div", { class: `test ${ok ? "ok" : "bad"}`, "data-verdict": test.verdict, "data-name": test.name },
      el("span", { class: "mark" }, ok ? "✓" : "✗"),
      el("span", { class: "name" }, test.name),
      el("span", { class: "group" }, test.group),
      el("span", { class: "verdict" }, test.verdict.replaceAll("_", " ")),
      el("span", { class: "time" }, `${test.time_ms.toFixed(1)} ms`));
    const body = el("div", { class: "test-body" });
    if (test.message) body.append(el("pre", { class: "message" }, test.message));
    if (test.diagnosis && diagnoses.has(test.diagnosis)) {
      body.append(el("div", { class: "diagnosis again" }, "the same known mistake as above"));
    } else if (test.diagnosis) {
      diagnoses.add(test.diagnosis);
      body.append(el("div", { class: "diagnosis" }, `known mistake: ${test.diagnosis}`));
    }
    if (test.hint) body.append(el("div", { class: "test-hint" }, `hint: ${test.hint}`));
    if (test.smallest) {
      body.append(el("div", { class: "smallest" }, test.smallest.title), el("pre", { class: "values" }, test.smallest.values));
    }
    if (test.values) {
      const values = el("pre", { class: "values" }, test.values);
      body.append(ok && !examplesOnly ? el("details", {}, el("summary", {}, "inputs, expected and yours"), values) : values);
    }
    if (test.details.length) body.append(el("details", {}, el("summary", {}, "details"), el("pre", {}, test.details.join("\n"))));
    return el("div", { class: "test-wrap" }, row, body.childNodes.length ? body : null);
  }

  // hints, one level at a time
  const hintButton = document.getElementById("hint");
  const hints = document.getElementById("hints");
  let level = Number(hintButton?.dataset.reached ?? 0); // hints already seen are shown by the server
  hintButton?.addEventListener("click", async () => {
    let response;
    try { response = await api(`/api/hint/${problem}/${level + 1}`); } catch { if (!(await serverAnswers())) showStopped(); return; }
    if (!response.ok) return;
    const hint = await response.json();
    level = hint.level;
    hints.append(el("li", { class: hint.last ? "hint last" : "hint" },
      el("strong", {}, `Hint ${hint.level} of ${hint.levels}${hint.last ? " (the key idea)" : ""}: `), hint.text));
    if (hint.last) { hintButton.disabled = true; hintButton.textContent = "no more hints"; }
    else hintButton.textContent = `Hint ${hint.level + 1} of ${hint.levels}`;
  });

  // attempt history with each attempt's source
  const historyList = document.getElementById("history");
  const viewer = document.getElementById("attempt-source");
  async function loadHistory() {
    let response;
    try { response = await api(`/api/history/${problem}`); } catch { if (!(await serverAnswers())) showStopped(); return; }
    if (!response.ok) return;
    const attempts = await response.json();
    historyList.replaceChildren(...(attempts.length ? attempts.map((a, i) => attemptRow(a, attempts[i + 1]))
      : [el("li", { class: "empty" }, "no attempts yet")]));
  }
  async function showDiff(older, attempt) {
    const response = await api(`/api/diff/${problem}/${older.id}/${attempt.id}`);
    viewer.hidden = false;
    if (!response.ok) { viewer.textContent = await errorText(response); return; }
    const { lines } = await response.json();
    viewer.replaceChildren(...lines.map((line) => el("span", {
      class: line.startsWith("+") && !line.startsWith("+++") ? "added" : line.startsWith("-") && !line.startsWith("---") ? "removed"
        : line.startsWith("@@") ? "hunk" : "same" }, `${line}\n`)));
    viewer.dataset.showing = "diff";
  }
  function attemptRow(attempt, older) {
    const ok = attempt.verdict === "accepted";
    const show = async (restore) => {
      const response = await api(`/api/attempt/${attempt.id}/source`);
      if (!response.ok) { viewer.hidden = false; viewer.textContent = "this attempt's source was not kept"; return; }
      const { source } = await response.json();
      if (restore) { setSource(source); status.textContent = `restored the attempt of ${attempt.when}`; }
      else { viewer.hidden = false; viewer.textContent = source; viewer.dataset.showing = "source"; }
    };
    return el("li", { class: `attempt ${ok ? "ok" : "bad"}`, "data-id": String(attempt.id) },
      el("span", { class: "when" }, attempt.when),
      el("span", { class: "verdict" }, `${attempt.verdict.replaceAll("_", " ")} ${attempt.passed}/${attempt.total}`),
      el("span", { class: "mode" }, attempt.examples_only ? "run" : "submit"),
      el("button", { class: "link view", onclick: () => show(false) }, "view"),
      older ? el("button", { class: "link diff", title: "what changed since the attempt before it",
        onclick: () => showDiff(older, attempt) }, "diff") : null,
      el("button", { class: "link restore", onclick: () => show(true) }, "restore"));
  }
  loadHistory();

  // the solution: once solved, or before that when asked (recorded as seen before solving)
  const panel = document.getElementById("solution");
  const showButton = document.getElementById("show-solution");
  function solvedNow() {
    if (!panel || panel.dataset.solved === "yes") return;
    panel.dataset.solved = "yes";
    document.getElementById("solution-note").textContent = "You solved it: the reference and its editorial are yours to read.";
    if (!showButton.hidden) showButton.textContent = "Show the solution";
  }
  const confirmBox = document.getElementById("solution-confirm");
  // Before it is solved the solution is asked for twice (as `judge solution` asks): seeing it is recorded.
  showButton?.addEventListener("click", () => {
    if (panel.dataset.solved === "yes") { showSolution(""); return; }
    confirmBox.hidden = false;
    showButton.hidden = true;
    document.getElementById("cancel-solution").focus();
  });
  document.getElementById("confirm-solution")?.addEventListener("click", () => {
    confirmBox.hidden = true;
    showSolution("?confirmed=1");
  });
  document.getElementById("cancel-solution")?.addEventListener("click", () => {
    confirmBox.hidden = true;
    showButton.hidden = false;
    showButton.focus();
  });
  async function showSolution(confirmed) {
    const body = document.getElementById("solution-body");
    const response = await api(`/api/solution/${problem}${confirmed}`);
    body.hidden = false;
    if (!response.ok) { body.replaceChildren(el("p", { class: "summary failed" }, await errorText(response))); return; }
    const shown = await response.json();
    const parts = [];
    if (shown.idea) parts.push(el("h3", {}, "The idea"), el("p", {}, shown.idea));
    if (shown.cost) parts.push(el("h3", {}, "The cost"), el("p", {}, shown.cost));
    if (shown.mistakes.length) parts.push(el("h3", {}, "Classic mistakes"), el("ul", {}, ...shown.mistakes.map((m) => el("li", {}, m))));
    parts.push(el("h3", {}, "The reference"), el("pre", { class: "reference" }, shown.reference));
    if (shown.warning) parts.push(el("p", { class: "warning" }, `warning: ${shown.warning}`));
    body.replaceChildren(...parts);
    showButton.hidden = true;
  }
}

// A saved draft: {text, at} (at: when it was saved, ms); a draft saved before drafts had times is plain text.
function readDraft(value) {
  if (value === null || value === undefined) return null;
  try {
    const draft = JSON.parse(value);
    if (draft && typeof draft.text === "string") return { text: draft.text, at: Number(draft.at) || 0 };
  } catch { /* plain text, below */ }
  return { text: value, at: 0 };
}

class Unanswered extends Error {
  constructor() { super("no answer from the judge server"); }
}

async function errorText(response) {
  try { return (await response.json()).error; } catch { return `${response.status} ${response.statusText}`; }
}

// Server-sent events over a POST response (EventSource can only GET, and the source is a body).
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length) onEvent(event, JSON.parse(data.join("\n")));
    }
  }
}

// ------------------------------------------------------------ unit questions
function setupUnit() {
  for (const form of document.querySelectorAll("form.question")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const answer = new FormData(form).get("answer") ?? "";
      const out = form.querySelector(".feedback");
      let response;
      try {
        response = await api(`/api/answer/${form.dataset.unit}/${form.dataset.question}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ answer: String(answer) }),
        });
      } catch {
        out.className = "feedback bad";
        out.textContent = (await serverAnswers()) ? "no answer from the judge; try again" : STOPPED;
        if (out.textContent === STOPPED) showStopped();
        return;
      }
      if (!response.ok) { out.className = "feedback bad"; out.textContent = await errorText(response); return; }
      const result = await response.json();
      out.className = `feedback ${result.right ? "ok" : "bad"}`;
      const verdict = result.right ? "✓ right"
        : result.reveal ? `✗ not quite: you answered ${result.answer}; the answer is ${result.expected}`
        : `✗ not quite: you answered ${result.answer}; try once more before the answer is shown`;
      out.replaceChildren(el("strong", {}, verdict));
      if (result.reveal && result.explanation) out.append(el("div", { class: "explanation" }, result.explanation));
      const standing = document.getElementById("unit-standing");
      if (standing && result.standing) standing.textContent = result.standing;
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  renderMath(document.body);
  setupTabs();
  watchServer();
  setupList();
  setupProblem();
  setupUnit();
});
