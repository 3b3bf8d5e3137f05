// The grading page: asks the service's JSON API (/api/v1/...) with the access key (token) the
// user gives, and shows problems, an editor, verdicts and the user's submissions. The page's
// other scripts: util.js (helpers), statement.js (the statement's Markdown and math) and
// report.js (a result), loaded before this one.
//
// Everything a submission produces (messages, outputs) and every value the server sends reaches
// the page only through textContent or form values, never as HTML: a report is written by a
// hostile program and must stay text. The one exception is the problem's statement, written by
// the problem's author in Markdown (statement.js).
//
// Kept in the browser: the token in this tab only (sessionStorage); in localStorage, the chosen
// problem, a draft per problem, the hints revealed and the last submission per problem. The
// problem shown is in the address too (#problem=ID), so a link opens it.
//
// By keyboard: every control is reached with Tab; in the editor Tab indents, and Esc then Tab
// (or Shift-Tab) leaves it. On a narrow screen the problem and the code are two panes, one
// shown at a time (the Problem and Code buttons, kept at the top).
"use strict";

const TOKEN_KEY = "judge-service-token";
const PROBLEM_KEY = "judge-problem";
const DRAFT_PREFIX = "judge-draft:";
const HINTS_PREFIX = "judge-hints:";
const LAST_PREFIX = "judge-last:";
const POLL_MS = 1000;          // first wait between two looks at a submission
const POLL_MAX_MS = 5000;      // the wait grows up to this while the submission is queued
const HISTORY_PAGE = 10;       // submissions listed at a time

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// What the server said went wrong, as one line.
function errorText(status, data) {
  let text = "";
  if (data && typeof data === "object") {
    const d = data.error !== undefined ? data.error : (data.detail !== undefined ? data.detail : data.message);
    if (typeof d === "string") text = d;
    else if (d !== undefined) text = compact(d);
  } else if (typeof data === "string") {
    text = data.slice(0, 500);
  }
  return `HTTP ${status}` + (text ? `: ${text}` : "");
}

async function api(method, path, body) {
  const headers = { "Authorization": "Bearer " + (sessionStorage.getItem(TOKEN_KEY) || "") };
  const init = { method, headers, cache: "no-store", credentials: "omit" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const raw = await response.text();
  let data = raw;
  try { data = raw ? JSON.parse(raw) : null; } catch (e) { /* not JSON: keep the text */ }
  if (response.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    showTokenState("This access key was not accepted (HTTP 401). Check it and sign in again.", true);
    throw new ApiError(401, errorText(401, data));
  }
  if (!response.ok) throw new ApiError(response.status, errorText(response.status, data));
  return data;
}

// ---------------------------------------------------------------- signing in

function showTokenState(text, isError) {
  say($("token-state"), text, isError);
  const have = Boolean(sessionStorage.getItem(TOKEN_KEY));
  $("workspace").hidden = !have;
  $("who").hidden = !have;
  $("token-box").hidden = have;
  if (have && editor) editor.refresh();  // CodeMirror measures itself once visible
}

async function useToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  say($("token-state"), "Checking the key...", false);
  try {
    await loadProblems();
    showTokenState("", false);
  } catch (e) {
    if (e.status !== 401) {
      showTokenState("", false);
      say($("problem-more"), "Could not list the problems: " + e.message, true);
    }
  }
}

// ---------------------------------------------------------------- the editor

let editor = null;           // CodeMirror, or null where it did not load (the plain text area)
let draftProblem = null;     // the problem the editor's text is the draft of
let draftTimer = null;

function code() { return editor ? editor.getValue() : $("source").value; }

function setCode(text) {
  if (editor) {
    editor.setValue(text);
    editor.clearHistory();
  } else {
    $("source").value = text;
  }
}

function startEditor() {
  if (typeof window.CodeMirror !== "function") return;  // the plain text area still works
  editor = window.CodeMirror.fromTextArea($("source"), {
    mode: "python", lineNumbers: true, indentUnit: 4, tabSize: 4, indentWithTabs: false,
    matchBrackets: true, autoCloseBrackets: true,
    // as tall as the code, long lines wrapped: no region of its own to scroll, which a
    // keyboard could not reach (the pane around it scrolls)
    viewportMargin: Infinity, lineWrapping: true,
    extraKeys: {
      Tab: (cm) => (cm.somethingSelected() ? cm.indentSelection("add")
        : cm.replaceSelection(" ".repeat(cm.getOption("indentUnit")), "end")),
      "Shift-Tab": (cm) => cm.indentSelection("subtract"),
      "Ctrl-Enter": () => send("submit"),
      "Cmd-Enter": () => send("submit"),
    },
  });
  editor.getWrapperElement().setAttribute("aria-label", "Code editor (Python)");
  const input = editor.getInputField();
  input.setAttribute("aria-label", "Code editor (Python)");
  input.setAttribute("aria-describedby", "editor-keys");
  // Esc, then Tab or Shift-Tab, moves the focus out as the browser would (Tab alone indents)
  let leaving = false;
  editor.on("keydown", (cm, e) => {
    if (e.key === "Escape") { leaving = true; return; }
    if (e.key === "Tab" && leaving) { e.codemirrorIgnore = true; leaving = false; return; }
    if (e.key !== "Shift") leaving = false;
  });
  editor.on("blur", () => { leaving = false; });
  editor.on("change", saveDraftSoon);
  window.judgeEditor = editor;  // for tests and for the browser's console
}

function saveDraftSoon() {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(saveDraft, 300);
}

function saveDraft() {
  clearTimeout(draftTimer);
  if (draftProblem) store(DRAFT_PREFIX + draftProblem, code());
}

// The starting text: the problem's signature, ready to fill in.
function starter(p) {
  const params = Array.isArray(p.parameters) ? p.parameters.map((q) => q.name).join(", ") : "";
  return `import jax\nimport jax.numpy as jnp\n\n\ndef ${p.entry_point || "solution"}(${params}):\n    ...\n`;
}

// ---------------------------------------------------------------- problems

const problems = new Map();     // id -> the list's entry
const details = new Map();      // id -> the problem's detail, once loaded
const progress = new Map();     // id -> "solved" or "attempted", this user's (GET /api/v1/progress)
const editorials = new Map();   // id -> the author's write-up, once this user solved it

async function loadProblems() {
  const select = $("problem");
  const data = await api("GET", "/api/v1/problems");
  const list = data && Array.isArray(data.problems) ? data.problems : [];
  clear(select);
  problems.clear();
  for (const p of list) {
    problems.set(String(p.id), p);
    const option = el("option", p.title ? `${p.title} (${p.id})` : p.id);
    option.value = String(p.id);
    select.appendChild(option);
  }
  await loadProgress();
  const wanted = hashProblem() || recall(PROBLEM_KEY);
  if (wanted && problems.has(wanted)) select.value = wanted;
  showTokenState("", false);  // the key is good: the workspace, while the problem loads
  if (select.value) await showProblem(select.value);
}

// ---------------------------------------------------------------- the list of problems, solved or not

async function loadProgress() {
  try {
    const data = await api("GET", "/api/v1/progress");
    progress.clear();
    for (const [id, state] of Object.entries(data && data.problems ? data.problems : {})) progress.set(id, String(state));
  } catch (e) {
    if (e.status === 401) throw e;  // the list still shows, without the states
  }
  renderCatalogue();
}

function stateText(id) {
  const state = progress.get(id);
  return state === "solved" ? "solved" : (state === "attempted" ? "attempted" : "not tried");
}

function renderCatalogue() {
  const rows = $("catalogue-rows");
  clear(rows);
  for (const [id, p] of problems) {
    const tr = el("tr");
    tr.dataset.id = id;
    tr.dataset.state = progress.get(id) || "new";
    const name = el("td");
    const link = el("a", p.title || id);
    link.href = "#problem=" + encodeURIComponent(id);
    name.appendChild(link);
    name.appendChild(document.createTextNode(" "));
    name.appendChild(el("code", id));
    tr.appendChild(name);
    tr.appendChild(el("td", p.difficulty || ""));
    tr.appendChild(el("td", (Array.isArray(p.tags) ? p.tags : []).join(", ")));
    tr.appendChild(el("td", stateText(id), "state-" + (progress.get(id) || "new")));
    rows.appendChild(tr);
  }
  const solved = [...progress.values()].filter((v) => v === "solved").length;
  const tried = [...progress.values()].filter((v) => v === "attempted").length;
  $("catalogue-title").textContent = `All problems (${problems.size}): ${solved} solved, ${tried} attempted`;
  for (const option of $("problem").options) {
    const p = problems.get(option.value);
    if (!p) continue;
    const base = p.title ? `${p.title} (${option.value})` : option.value;
    option.textContent = progress.get(option.value) === "solved" ? `${base}, solved` : base;
  }
}

// The author's write-up, below the result, once this user solved the problem.
async function showEditorial(id) {
  const box = $("editorial-box");
  if (progress.get(id) !== "solved") { box.hidden = true; return; }
  if (!editorials.has(id)) {
    try {
      const data = await api("GET", "/api/v1/problems/" + encodeURIComponent(id) + "/editorial");
      editorials.set(id, String(data.editorial || ""));
    } catch (e) {
      if (e.status === 404) editorials.set(id, "");  // the author wrote none
      else return;
    }
  }
  if ($("problem").value !== id) return;
  const text = editorials.get(id);
  box.hidden = !text;
  if (text) renderMarkdown(text, $("editorial"));
}

// ---------------------------------------------------------------- panes and the address

// On a narrow screen one pane at a time: "problem" or "code" (a wide screen shows both).
function setPane(name) {
  $("workspace").dataset.pane = name;
  $("tab-problem").setAttribute("aria-pressed", String(name === "problem"));
  $("tab-code").setAttribute("aria-pressed", String(name === "code"));
  if (name === "code" && editor) editor.refresh();
}

function hashProblem() {
  const m = /^#problem=([A-Za-z0-9_-]+)$/.exec(location.hash);
  return m ? m[1] : null;
}

function pre(id, lines) {
  $(id).textContent = (Array.isArray(lines) ? lines : []).map((l) => String(l).replace(/^  /, "")).join("\n");
}

function renderBadges(p) {
  const box = $("problem-badges");
  clear(box);
  if (p.difficulty) box.appendChild(el("span", p.difficulty, "badge difficulty-" + String(p.difficulty)));
  for (const tag of Array.isArray(p.tags) ? p.tags : []) box.appendChild(el("span", tag, "badge"));
}

function renderExample(ex, i, p) {
  const box = el("div", null, "example");
  box.appendChild(el("h4", `Example ${i}` + (ex.name ? `: ${ex.name}` : "")));
  if (Array.isArray(ex.lines) && ex.lines.length) {
    box.appendChild(el("pre", ex.lines.map((l) => String(l).replace(/^  /, "")).join("\n")));
  }
  if (ex.text) box.appendChild(el("p", ex.text));
  const open = el("button", "Try your code on this input", "quiet try-input");
  open.type = "button";
  open.setAttribute("aria-expanded", "false");
  open.addEventListener("click", () => {
    let form = box.querySelector("form.input-form");
    if (!form) { form = inputForm(p, ex, i); box.appendChild(form); }
    form.hidden = !form.hidden;
    open.setAttribute("aria-expanded", String(!form.hidden));
    if (!form.hidden) form.querySelector("textarea").focus();
  });
  box.appendChild(open);
  return box;
}

// ---------------------------------------------------------------- run on my input

// An example's input as the student edits it: the values (nested lists, mappings for a tree),
// and where an array is not in its parameter's first dtype, that dtype.
function editable(v) {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    if ("value" in v && "dtype" in v && "shape" in v) return v.value;
    const out = {};
    for (const [k, item] of Object.entries(v)) out[k] = editable(item);
    return out;
  }
  return v;
}

function inputForm(p, ex, i) {
  const form = el("form", null, "input-form");
  form.hidden = true;
  form.appendChild(el("p", "Edit the inputs (JSON, as the example shows them) and run your code on them: "
    + "you see your output beside the reference solution's, as for an example.", "note"));
  const params = Array.isArray(p.parameters) ? p.parameters : [];
  const inputs = ex.inputs || {};
  for (const q of params) {
    const id = `input-${i}-${q.name}`;
    const given = inputs[q.name];
    const dtype = given && typeof given === "object" && given.dtype ? String(given.dtype) : "";
    const kind = q.kind === "array" ? `${dtype || (q.dtypes || [])[0] || ""} array` : q.kind;
    const label = el("label", `${q.name} (${kind})`);
    label.htmlFor = id;
    const area = el("textarea", null, "input-value");
    area.id = id;
    area.rows = 2;
    area.spellcheck = false;
    area.dataset.name = q.name;
    area.dataset.dtype = q.kind === "array" && dtype && dtype !== (q.dtypes || [])[0] ? dtype : "";
    area.value = compact(editable(given), (k) => inputIsFloat(p, k === undefined ? q.name : k));
    form.appendChild(label);
    form.appendChild(area);
  }
  const go = el("button", "Run on this input", "run-input");
  go.type = "submit";
  form.appendChild(go);
  const state = el("p", null, "state input-state");
  state.setAttribute("role", "status");
  form.appendChild(state);
  form.addEventListener("submit", (e) => { e.preventDefault(); runOnInput(p, i, form, state); });
  return form;
}

async function runOnInput(p, i, form, state) {
  const inputs = {};
  for (const area of form.querySelectorAll("textarea.input-value")) {
    let value;
    try { value = JSON.parse(area.value); } catch (e) {
      say(state, `${area.dataset.name}: not a value the page reads (JSON: numbers, [lists], {"key": ...}): ${e.message}`, true);
      area.focus();
      return;
    }
    inputs[area.dataset.name] = area.dataset.dtype ? { dtype: area.dataset.dtype, data: value } : value;
  }
  const source = code();
  if (!source.trim()) { say(state, "Write or open a solution first.", true); return; }
  saveDraft();
  const button = form.querySelector("button.run-input");
  button.disabled = true;
  say(state, "Sending your code to run on this input...", false);
  try {
    const answer = await api("POST", "/api/v1/runs", { problem: String(p.id), source, example: i, inputs });
    say(state, "Sent: the result is under your code.", false);
    store(LAST_PREFIX + p.id, String(answer.id));
    setPane("code");
    watch(String(answer.id), { mode: "input" });
    loadHistory();
  } catch (e) {
    say(state, "Not sent: " + e.message, true);
  } finally {
    button.disabled = false;
  }
}

function renderRules(p) {
  const rules = Array.isArray(p.rules) ? p.rules : [];
  $("rules-box").hidden = rules.length === 0;
  const list = $("rules");
  clear(list);
  for (const r of rules) list.appendChild(el("li", `${r.id}: ${r.description}`));
  const extra = (p.sections && Array.isArray(p.sections.rules) ? p.sections.rules : [])
    .filter((l) => !/^\s*- /.test(l));
  for (const line of extra) list.appendChild(el("li", line.trim()));
  $("rules-title").textContent = `The rules, as the judge checks them (${rules.length})`;
}

function renderHints(p) {
  const hints = Array.isArray(p.hints) ? p.hints : [];
  $("hints-box").hidden = hints.length === 0;
  const shown = Math.min(hints.length, Number(recall(HINTS_PREFIX + p.id)) || 0);
  const list = $("hint-list");
  clear(list);
  hints.slice(0, shown).forEach((h) => list.appendChild(el("li", h)));
  const button = $("hint-next");
  button.hidden = shown >= hints.length;
  button.textContent = shown === 0 ? `Show a hint (${hints.length} in all, one at a time)`
    : `Show hint ${shown + 1} of ${hints.length}`;
}

function revealHint() {
  const p = details.get($("problem").value);
  if (!p) return;
  const shown = Math.min(p.hints.length, (Number(recall(HINTS_PREFIX + p.id)) || 0) + 1);
  store(HINTS_PREFIX + p.id, String(shown));
  renderHints(p);
  const items = $("hint-list").children;
  if (items.length) items[items.length - 1].scrollIntoView({ block: "nearest" });
}

function renderRelated(p) {
  const related = (Array.isArray(p.related) ? p.related : []).filter((id) => problems.has(String(id)));
  $("related-box").hidden = related.length === 0;
  const list = $("related");
  clear(list);
  for (const id of related) {
    const item = el("li");
    const link = el("a", problems.get(String(id)).title ? `${problems.get(String(id)).title} (${id})` : id);
    link.href = "#problem=" + encodeURIComponent(id);
    item.appendChild(link);
    list.appendChild(item);
  }
}

async function showProblem(id) {
  saveDraft();
  let p = details.get(id);
  if (!p) {
    p = await api("GET", "/api/v1/problems/" + encodeURIComponent(id));
    details.set(String(p.id), p);
  }
  if ($("problem").value !== String(id)) return;  // another problem was picked meanwhile
  store(PROBLEM_KEY, id);
  if (hashProblem() !== String(p.id)) history.replaceState(null, "", "#problem=" + encodeURIComponent(p.id));
  $("problem-heading").textContent = p.title || String(p.id);
  renderBadges(p);
  renderMarkdown(p.statement || "", $("statement"));
  const s = p.sections || {};
  pre("signature", s.signature);
  pre("output", s.output);
  pre("tolerance", s.tolerance);
  pre("limits", s.limits);
  pre("scoring", s.scoring);
  renderRules(p);
  const examples = $("examples");
  clear(examples);
  (Array.isArray(p.examples) ? p.examples : []).forEach((ex, i) => examples.appendChild(renderExample(ex, i, p)));
  const hidden = typeof p.hidden === "number" ? p.hidden : 0;
  $("problem-more").textContent = `${hidden} hidden case${hidden === 1 ? "" : "s"}: a submission is graded on them too, and shown only how many passed.`;
  renderHints(p);
  renderRelated(p);
  // the editor: this problem's draft, else its signature
  draftProblem = null;
  const draft = recall(DRAFT_PREFIX + p.id);
  setCode(draft !== null ? draft : starter(p));
  draftProblem = String(p.id);
  // the result shown is this problem's last one
  pollGeneration++;
  $("result-box").hidden = true;
  say($("submit-state"), "", false);
  historyOffset = 0;
  loadHistory();
  const last = recall(LAST_PREFIX + p.id);
  if (last) watch(last, { quiet: true });
  showEditorial(String(p.id));
}

// ---------------------------------------------------------------- sending

let pollGeneration = 0;
let shownSource = "";          // the code of the submission whose result is shown

async function send(mode) {
  const state = $("submit-state");
  const problem = $("problem").value;
  const source = code();
  if (!problem) { say(state, "Pick a problem first.", true); return; }
  if (!source.trim()) { say(state, "Write or open a solution first.", true); return; }
  saveDraft();
  $("submit").disabled = $("run").disabled = true;
  say(state, mode === "examples" ? "Sending your code to run on the examples..." : "Sending your submission...", false);
  try {
    const answer = await api("POST", "/api/v1/submissions", { problem, source, mode });
    say(state, mode === "examples" ? "Sent: running the examples." : "Submitted: grading every case.", false);
    store(LAST_PREFIX + problem, String(answer.id));
    watch(String(answer.id), { mode });
    loadHistory();
  } catch (e) {
    say(state, "Not sent: " + e.message, true);
  } finally {
    $("submit").disabled = $("run").disabled = false;
  }
}

function modeText(mode) {
  return mode === "examples" ? "Run of the examples" : (mode === "input" ? "Run on your input" : "Submission");
}

// Follow submission ``id`` until it is done, then show its result. ``quiet``: reopened, not just
// sent (no announcement, no scrolling while the page loads).
function watch(id, options = {}) {
  const generation = ++pollGeneration;
  const box = $("result-box");
  box.hidden = false;
  box.dataset.id = id;
  $("submission-id").textContent = id;
  $("mode").textContent = modeText(options.mode);
  $("status").textContent = "sent";
  $("status").classList.remove("error");
  $("load-source").hidden = true;
  clearResult();
  $("verdict").textContent = "...";
  $("verdict").className = "verdict verdict-pending";
  $("verdict-words").textContent = "Waiting for the judge";
  if (!options.quiet) box.scrollIntoView({ block: "nearest" });
  let wait = POLL_MS;
  const look = async () => {
    if (generation !== pollGeneration) return;  // another submission took over
    try {
      const s = await api("GET", "/api/v1/submissions/" + encodeURIComponent(id));
      if (generation !== pollGeneration) return;
      $("status").textContent = String(s.status);
      $("mode").textContent = modeText(s.mode);
      shownSource = typeof s.source === "string" ? s.source : "";
      if (s.status === "done") {
        showResult(s.result, s.mode);
        $("load-source").hidden = !shownSource || shownSource === code();
        markCurrent(id);
        if (!options.quiet) {
          setPane("code");
          box.scrollIntoView({ block: "start", behavior: "auto" });
          box.focus({ preventScroll: true });
          announce(s.result);
          loadHistory();
          const problem = String(s.problem);
          loadProgress().then(() => showEditorial(problem)).catch(() => {});
        }
        return;
      }
      $("verdict-words").textContent = s.status === "running" ? "Being graded..." : "Waiting in the queue...";
    } catch (e) {
      if (generation !== pollGeneration) return;
      if (e.status === 404) { store(LAST_PREFIX + $("problem").value, null); box.hidden = true; return; }
      if (e.status !== 429) { say($("status"), "cannot follow it: " + e.message, true); return; }
      $("status").textContent = "waiting (too many requests)";
    }
    setTimeout(look, wait);
    wait = Math.min(POLL_MAX_MS, Math.round(wait * 1.3));
  };
  look();
}

function announce(r) {
  const verdict = r && r.verdict ? String(r.verdict) : "?";
  let text = `Verdict: ${verdict}, ${VERDICT_WORDS[verdict] || verdict}.`;
  if (r && typeof r.score === "number" && typeof r.max_score === "number" && r.cases && r.cases.some((c) => c.visibility !== "example")) {
    text += ` Score ${r.score} of ${r.max_score}.`;
  }
  $("announcer").textContent = "";
  setTimeout(() => { $("announcer").textContent = text; }, 50);  // a change the reader notices
}

function readFile() {
  const file = $("file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    setCode(String(reader.result));
    saveDraft();
    say($("submit-state"), `Opened ${file.name}.`, false);
  };
  reader.onerror = () => say($("submit-state"), `Could not read ${file.name}.`, true);
  reader.readAsText(file);
}

// ---------------------------------------------------------------- my submissions

let historyOffset = 0;

// A moment as its date and time, in this browser's time zone: 2026-03-14 09:26:53.
function when(seconds) {
  if (typeof seconds !== "number") return "";
  const d = new Date(seconds * 1000);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} `
    + `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

async function loadHistory(more) {
  const problem = $("problem").value;
  if (!problem) return;
  const offset = more ? historyOffset : 0;
  try {
    const data = await api("GET", `/api/v1/submissions?problem=${encodeURIComponent(problem)}&limit=${HISTORY_PAGE}&offset=${offset}`);
    if ($("problem").value !== problem) return;
    const rows = $("history-rows");
    if (!more) clear(rows);
    for (const s of data.submissions) {
      const tr = el("tr");
      tr.dataset.id = s.id;
      const sent = el("td");
      const time = el("time", when(s.created));
      if (typeof s.created === "number") time.dateTime = new Date(s.created * 1000).toISOString();
      sent.appendChild(time);
      tr.appendChild(sent);
      tr.appendChild(el("td", s.mode === "examples" ? "examples" : (s.mode === "input" ? "your input" : "submission")));
      const v = el("td");
      if (s.verdict) v.appendChild(el("span", s.verdict, "verdict " + (s.verdict === "AC" ? "verdict-AC" : "verdict-other")));
      else v.textContent = s.status;
      tr.appendChild(v);
      tr.appendChild(el("td", typeof s.score === "number" && s.mode !== "examples" ? `${s.score} / ${s.max_score}` : ""));
      const open = el("td");
      const button = el("button", "Open", "quiet open");
      button.type = "button";
      button.setAttribute("aria-label", `Open the ${s.mode === "submit" ? "submission" : "run"} sent ${when(s.created)}`);
      button.addEventListener("click", () => reopen(s.id, s.mode));
      open.appendChild(button);
      tr.appendChild(open);
      rows.appendChild(tr);
    }
    historyOffset = offset + data.submissions.length;
    $("history-more").hidden = historyOffset >= data.total;
    $("history").hidden = data.total === 0;
    say($("history-state"), data.total ? `${data.total} in all.` : "None yet: run the examples or submit, and they are listed here.", false);
    markCurrent($("result-box").hidden ? null : $("result-box").dataset.id);
  } catch (e) {
    if (e.status !== 401) say($("history-state"), "Could not list your submissions: " + e.message, true);
  }
}

function markCurrent(id) {
  for (const tr of $("history-rows").children) tr.classList.toggle("current", tr.dataset.id === id);
}

function reopen(id, mode) {
  store(LAST_PREFIX + $("problem").value, id);
  watch(id, { mode, quiet: false });
}

// ---------------------------------------------------------------- wiring

function start() {
  startEditor();
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token").value.trim();
    $("token").value = "";
    if (token) useToken(token);
  });
  $("token-forget").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showTokenState("Signed out. Your drafts stay in this browser.", false);
  });
  $("problem").addEventListener("change", () => {
    const id = $("problem").value;
    history.pushState(null, "", "#problem=" + encodeURIComponent(id));
    showProblem(id).catch((e) => say($("problem-more"), "Could not load the problem: " + e.message, true));
  });
  window.addEventListener("hashchange", () => {
    const id = hashProblem();
    if (id && problems.has(id) && id !== $("problem").value) {
      $("problem").value = id;
      setPane("problem");
      showProblem(id).then(() => window.scrollTo(0, 0))
        .catch((e) => say($("problem-more"), "Could not load the problem: " + e.message, true));
    }
  });
  $("hint-next").addEventListener("click", revealHint);
  $("tab-problem").addEventListener("click", () => setPane("problem"));
  $("tab-code").addEventListener("click", () => setPane("code"));
  setPane("problem");
  $("file").addEventListener("change", readFile);
  $("reset").addEventListener("click", () => {
    const p = details.get($("problem").value);
    if (p) { setCode(starter(p)); saveDraft(); }
  });
  $("submit-form").addEventListener("submit", (e) => { e.preventDefault(); send("submit"); });
  $("run").addEventListener("click", () => send("examples"));
  $("history-more").addEventListener("click", () => loadHistory(true));
  $("load-source").addEventListener("click", () => {
    setCode(shownSource);
    saveDraft();
    $("load-source").hidden = true;
  });
  if (!editor) $("source").addEventListener("input", saveDraftSoon);
  window.addEventListener("beforeunload", saveDraft);
  if (sessionStorage.getItem(TOKEN_KEY)) useToken(sessionStorage.getItem(TOKEN_KEY));
  else showTokenState("", false);
  showSandbox();
}

// A service told to grade without its sandbox (--sandbox none) says so on its page.
async function showSandbox() {
  try {
    const response = await fetch("/api/v1/health", { cache: "no-store", credentials: "omit" });
    const data = await response.json();
    $("unsandboxed").hidden = !(data && data.sandbox === "none");
  } catch (e) { /* no answer: the other requests say so */ }
}

document.addEventListener("DOMContentLoaded", start);
