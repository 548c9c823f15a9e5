// The page's behaviour: maths, list filters, the editor, Run/Submit with streamed results,
// hints, history and unit questions. Every request carries the server's token.
import katex from "katex";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { indentUnit, syntaxHighlighting, defaultHighlightStyle, bracketMatching } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

const token = document.querySelector('meta[name="judge-token"]')?.content ?? "";

function api(path, options = {}) {
  const headers = { "X-Judge-Token": token, ...(options.headers || {}) };
  return fetch(path, { ...options, headers, credentials: "same-origin" });
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

// ------------------------------------------------------------ problem page
function setupProblem() {
  const host = document.getElementById("editor");
  if (!host) return;
  const problem = host.dataset.problem;
  const draftKey = `tensor-judge:draft:${problem}`;
  const starter = JSON.parse(document.getElementById("starter").textContent);
  const saved = localStorage.getItem(draftKey);
  const status = document.getElementById("draft-status");

  let running = false;
  const run = (examplesOnly) => {
    if (!running) judge(view.state.doc.toString(), examplesOnly);
    return true;
  };
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc: saved ?? starter,
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(),
        indentUnit.of("    "), python(), syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([
          { key: "Mod-Enter", run: () => run(true) },
          { key: "Shift-Mod-Enter", run: () => run(false) },
          indentWithTab, ...defaultKeymap, ...historyKeymap,
        ]),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          localStorage.setItem(draftKey, update.state.doc.toString());
          status.textContent = "draft saved";
        }),
      ],
    }),
  });
  window.judgeEditor = view; // the end-to-end tests type through the real editor, and read it back
  if (saved !== null) status.textContent = "draft restored";

  const setSource = (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  document.getElementById("reset-starter").addEventListener("click", () => setSource(starter));
  document.getElementById("run").addEventListener("click", () => run(true));
  document.getElementById("submit").addEventListener("click", () => run(false));

  const results = document.getElementById("results");
  const diagnoses = new Set(); // a known mistake is named once per run, then referred to
  const summary = document.getElementById("summary");
  const buttons = [document.getElementById("run"), document.getElementById("submit")];

  async function judge(source, examplesOnly) {
    running = true;
    buttons.forEach((b) => (b.disabled = true));
    results.replaceChildren();
    diagnoses.clear();
    summary.className = "summary pending";
    summary.textContent = examplesOnly ? "running the public examples…" : "judging every test…";
    try {
      const response = await api(`/api/run/${problem}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ source, examples_only: examplesOnly }),
      });
      if (!response.ok) throw new Error(await errorText(response));
      await readEvents(response, (event, data) => {
        if (event === "test") results.append(testRow(data, examplesOnly));
        else if (event === "done") showSummary(data);
        else if (event === "error") throw new Error(data.message);
      });
    } catch (error) {
      summary.className = "summary failed";
      summary.textContent = `error: ${error.message}`;
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
    summary.textContent = `${ok ? "✓" : "✗"} ${report.verdict}: ${report.passed}/${report.total} tests passed ` +
      `in ${(report.time_ms / 1000).toFixed(2)} s${report.examples_only ? " (public examples only)" : ""}`;
    for (const warning of report.warnings) summary.append(el("div", { class: "warning" }, `warning: ${warning}`));
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
    const response = await api(`/api/hint/${problem}/${level + 1}`);
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
    const response = await api(`/api/history/${problem}`);
    if (!response.ok) return;
    const attempts = await response.json();
    historyList.replaceChildren(...(attempts.length ? attempts.map(attemptRow) : [el("li", { class: "empty" }, "no attempts yet")]));
  }
  function attemptRow(attempt) {
    const ok = attempt.verdict === "accepted";
    const show = async (restore) => {
      const response = await api(`/api/attempt/${attempt.id}/source`);
      if (!response.ok) { viewer.hidden = false; viewer.textContent = "this attempt's source was not kept"; return; }
      const { source } = await response.json();
      if (restore) { setSource(source); status.textContent = `restored the attempt of ${attempt.when}`; }
      else { viewer.hidden = false; viewer.textContent = source; }
    };
    return el("li", { class: `attempt ${ok ? "ok" : "bad"}`, "data-id": String(attempt.id) },
      el("span", { class: "when" }, attempt.when),
      el("span", { class: "verdict" }, `${attempt.verdict.replaceAll("_", " ")} ${attempt.passed}/${attempt.total}`),
      el("span", { class: "mode" }, attempt.examples_only ? "run" : "submit"),
      el("button", { class: "link view", onclick: () => show(false) }, "view"),
      el("button", { class: "link restore", onclick: () => show(true) }, "restore"));
  }
  loadHistory();
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
      const response = await api(`/api/answer/${form.dataset.unit}/${form.dataset.question}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ answer: String(answer) }),
      });
      const out = form.querySelector(".feedback");
      if (!response.ok) { out.className = "feedback bad"; out.textContent = await errorText(response); return; }
      const result = await response.json();
      out.className = `feedback ${result.right ? "ok" : "bad"}`;
      out.replaceChildren(el("strong", {}, result.right ? "✓ right" : `✗ not quite: you answered ${result.answer}; ` +
        `the answer is ${result.expected}`), result.explanation ? el("div", { class: "explanation" }, result.explanation) : null);
      const standing = document.getElementById("unit-standing");
      if (standing && result.standing) standing.textContent = result.standing;
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  renderMath(document.body);
  setupList();
  setupProblem();
  setupUnit();
});
