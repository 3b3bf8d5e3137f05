// The grading page: asks the service's JSON API (/api/v1/...) with the token the user gives, and
// shows problems and verdicts. Everything the server sends (statements, messages, a submission's
// outputs) reaches the page only through textContent or form values, never as HTML: a report is
// written by a hostile program and must stay text.
"use strict";

const TOKEN_KEY = "judge-service-token";
const POLL_MS = 1000;          // first wait between two looks at a submission
const POLL_MAX_MS = 5000;      // the wait grows up to this while the submission is queued
const MAX_DIFF_ROWS = 20;      // differing entries listed per example

const $ = (id) => document.getElementById(id);

// One element with text: el("p", "hello", "note") is <p class="note">hello</p>, the text escaped.
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function say(node, text, isError) {
  node.textContent = text || "";
  node.classList.toggle("error", Boolean(isError));
}

// JSON on one line with the text report's spacing: {"values": [0.5, 1.5], "grads": [1, 0]}.
function compact(value) {
  if (Array.isArray(value)) return "[" + value.map(compact).join(", ") + "]";
  if (value !== null && typeof value === "object") {
    return "{" + Object.entries(value).map(([k, v]) => JSON.stringify(k) + ": " + compact(v)).join(", ") + "}";
  }
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// What the server said went wrong, as one line (FastAPI puts it in "detail").
function errorText(status, data) {
  let text = "";
  if (data && typeof data === "object") {
    const d = data.detail !== undefined ? data.detail : (data.error !== undefined ? data.error : data.message);
    if (typeof d === "string") text = d;
    else if (Array.isArray(d)) text = d.map((e) => (e && e.msg) ? String(e.msg) : compact(e)).join("; ");
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
    showTokenState("The service refused this token (HTTP 401). Enter it again.", true);
    throw new ApiError(401, errorText(401, data));
  }
  if (!response.ok) throw new ApiError(response.status, errorText(response.status, data));
  return data;
}

// ---------------------------------------------------------------- token

function showTokenState(text, isError) {
  say($("token-state"), text, isError);
  const have = Boolean(sessionStorage.getItem(TOKEN_KEY));
  $("problem-box").hidden = !have;
  $("submit-box").hidden = !have;
}

async function useToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  showTokenState("Checking the token...", false);
  try {
    await loadProblems();
    showTokenState("Token accepted (kept in this tab only).", false);
  } catch (e) {
    if (e.status !== 401) showTokenState("Could not list the problems: " + e.message, true);
  }
}

// ---------------------------------------------------------------- problems

// The list may come as [...] or {"problems": [...]}, each problem an id or {"id", "title", ...}.
function problemEntries(data) {
  const list = Array.isArray(data) ? data : (data && Array.isArray(data.problems) ? data.problems : []);
  return list.map((p) => (typeof p === "string" ? { id: p } : p)).filter((p) => p && p.id !== undefined);
}

async function loadProblems() {
  const select = $("problem");
  const previous = select.value;
  const problems = problemEntries(await api("GET", "/api/v1/problems"));
  clear(select);
  for (const p of problems) {
    const option = el("option", p.title ? `${p.id}: ${p.title}` : p.id);
    option.value = String(p.id);
    select.appendChild(option);
  }
  if (problems.some((p) => String(p.id) === previous)) select.value = previous;
  if (select.value) await showProblem(select.value);
}

// A value of an example: an array or number as JSON, or {"value": ..., "dtype": ...} with its dtype.
function valueText(v) {
  if (v && typeof v === "object" && !Array.isArray(v) && "value" in v) {
    return compact(v.value) + (v.dtype ? ` (${v.dtype})` : "");
  }
  return typeof v === "string" ? v : compact(v);
}

function keyValues(title, obj, prefix) {
  const lines = [];
  if (obj && typeof obj === "object" && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) lines.push(`${prefix}${k} = ${valueText(v)}`);
  } else if (obj !== undefined && obj !== null) {
    lines.push(`${prefix}${valueText(obj)}`);
  }
  return lines;
}

function renderExample(ex, i) {
  const box = el("div", null, "example");
  box.appendChild(el("h5", ex.name ? ex.name : `example ${i}`));
  const lines = [
    ...keyValues("inputs", ex.inputs, "  "),
    ...keyValues("probe", ex.probe || ex.probe_inputs, "  probe: "),
    ...keyValues("expected", ex.expected, "  -> "),
  ];
  if (lines.length) box.appendChild(el("pre", lines.join("\n")));
  const text = ex.text || ex.explanation || ex.description;
  if (text) box.appendChild(el("p", text));
  return box;
}

function fact(list, name, value) {
  if (value === undefined || value === null || value === "" ||
      (Array.isArray(value) && value.length === 0)) return;
  list.appendChild(el("dt", name));
  list.appendChild(el("dd", Array.isArray(value) ? value.join(", ") : valueText(value)));
}

function renderSignature(p) {
  const box = $("signature");
  clear(box);
  let text = "";
  if (Array.isArray(p.parameters)) {
    const names = p.parameters.map((q) => q.name);
    text = `${p.entry_point || p.id}(${names.join(", ")})\n` + p.parameters.map((q) => {
      let kind = q.kind || "";
      if (Array.isArray(q.dtypes) && q.dtypes.length) kind += " " + q.dtypes.join("/");
      if (Array.isArray(q.shape)) kind += ` of shape (${q.shape.join(", ")}${q.shape.length === 1 ? "," : ""})`;
      const traced = q.traced === undefined ? "" : (q.traced ? ", traced" : ", static Python value");
      return `  ${q.name}: ${kind}${traced}`;
    }).join("\n");
  } else if (p.signature || p.entry_point) {
    text = String(p.signature || p.entry_point);
  }
  if (text) {
    box.appendChild(el("h4", "Signature"));
    box.appendChild(el("pre", text));
  }
}

function renderRules(p) {
  const box = $("rules");
  clear(box);
  const rules = Array.isArray(p.rules) ? p.rules : [];
  if (!rules.length) return;
  box.appendChild(el("h4", "Rules (checked on the traced program)"));
  const list = el("ul");
  for (const r of rules) {
    if (typeof r === "string") { list.appendChild(el("li", r)); continue; }
    const text = r.description || r.text || r.describe;
    list.appendChild(el("li", r.id ? `${r.id}: ${text || compact(r)}` : (text || compact(r))));
  }
  box.appendChild(list);
}

// Example names by problem id: a report names only the examples that failed.
const exampleNames = new Map();

async function showProblem(id) {
  const p = await api("GET", "/api/v1/problems/" + encodeURIComponent(id));
  exampleNames.set(String(p.id || id), (Array.isArray(p.examples) ? p.examples : []).map((ex) => ex && ex.name));
  if ($("problem").value !== String(id)) return;  // another problem was picked meanwhile
  $("problem-heading").textContent = p.title ? `${p.title} (${p.id})` : String(p.id || id);
  const facts = $("problem-facts");
  clear(facts);
  fact(facts, "Difficulty", p.difficulty);
  fact(facts, "Tags", p.tags);
  fact(facts, "Related", p.related);
  $("statement").textContent = p.statement || p.text || "";
  renderSignature(p);
  renderRules(p);
  const examples = $("examples");
  clear(examples);
  (Array.isArray(p.examples) ? p.examples : []).forEach((ex, i) => examples.appendChild(renderExample(ex, i)));
  const hidden = typeof p.hidden === "number" ? p.hidden
    : (Array.isArray(p.hidden) ? p.hidden.length : (p.hidden_cases !== undefined ? p.hidden_cases : p.hidden_count));
  const limit = p.time_limit_s !== undefined ? p.time_limit_s
    : (p.limits && p.limits.time_per_case_s !== undefined ? p.limits.time_per_case_s : undefined);
  const more = [];
  if (hidden !== undefined) more.push(`${hidden} hidden case${hidden === 1 ? "" : "s"}`);
  if (limit !== undefined) more.push(`time limit ${limit} s per case`);
  const hints = Array.isArray(p.hints) ? p.hints.length : (typeof p.hints === "number" ? p.hints : undefined);
  if (hints) more.push(`${hints} hint${hints === 1 ? "" : "s"}`);
  $("problem-more").textContent = more.join("; ");
}

// ---------------------------------------------------------------- submitting

let pollGeneration = 0;

async function submit(event) {
  event.preventDefault();
  const state = $("submit-state");
  const problem = $("problem").value;
  const source = $("source").value;
  if (!problem) { say(state, "Pick a problem first.", true); return; }
  if (!source.trim()) { say(state, "Paste or upload a solution first.", true); return; }
  $("submit").disabled = true;
  say(state, "Sending...", false);
  try {
    const answer = await api("POST", "/api/v1/submissions", { problem, source });
    say(state, "Submitted.", false);
    watch(String(answer.id));
  } catch (e) {
    say(state, "Not submitted: " + e.message, true);
  } finally {
    $("submit").disabled = false;
  }
}

function watch(id) {
  const generation = ++pollGeneration;
  $("result-box").hidden = false;
  $("submission-id").textContent = id;
  $("status").textContent = "sent";
  $("status").classList.remove("error");
  clearResult();
  let wait = POLL_MS;
  const look = async () => {
    if (generation !== pollGeneration) return;  // a newer submission took over
    try {
      const s = await api("GET", "/api/v1/submissions/" + encodeURIComponent(id));
      if (generation !== pollGeneration) return;
      $("status").textContent = String(s.status);
      if (s.status === "done") { showResult(s.result); return; }
    } catch (e) {
      if (generation !== pollGeneration) return;
      if (e.status !== 429) { say($("status"), "cannot follow it: " + e.message, true); return; }
      $("status").textContent = "waiting (rate limited)";
    }
    setTimeout(look, wait);
    wait = Math.min(POLL_MAX_MS, Math.round(wait * 1.3));
  };
  look();
}

function readFile() {
  const file = $("file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("source").value = String(reader.result); say($("submit-state"), `Read ${file.name}.`, false); };
  reader.onerror = () => say($("submit-state"), `Could not read ${file.name}.`, true);
  reader.readAsText(file);
}

// ---------------------------------------------------------------- the report

function clearResult() {
  for (const id of ["verdict", "reason", "time", "message", "hint", "score", "counts", "hidden-counts"]) $(id).textContent = "";
  clear($("groups"));
  $("verdict").className = "verdict";
  $("hint").hidden = true;
  $("gate-off").hidden = true;
  clear($("cases"));
}

function countText(cases) {
  const counts = new Map();
  for (const c of cases) counts.set(c.verdict, (counts.get(c.verdict) || 0) + 1);
  return [...counts.keys()].sort().map((v) => `${counts.get(v)} ${v}`).join(", ");
}

function leafEqual(a, b) {
  if (typeof a === "number" && typeof b === "number") return a === b || (a === 0 && b === 0);
  return a === b;
}

// The entries of ``got`` that are not exactly those of ``expected``: [label, got, expected].
// The judge compares with the problem's tolerance; the case's message says what it decided.
function differences(got, expected, label, out) {
  if (Array.isArray(got) && Array.isArray(expected)) {
    if (got.length !== expected.length) {
      out.push([label, `${got.length} items`, `${expected.length} items`]);
      return out;
    }
    const base = label || "output";
    got.forEach((g, i) => differences(g, expected[i], base.endsWith("]") ? base.slice(0, -1) + `,${i}]` : `${base}[${i}]`, out));
    return out;
  }
  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObj(got) && isObj(expected)) {
    for (const k of new Set([...Object.keys(expected), ...Object.keys(got)])) {
      const sub = label ? `${label}.${k}` : k;
      if (!(k in got)) out.push([sub, "(missing)", compact(expected[k])]);
      else if (!(k in expected)) out.push([sub, compact(got[k]), "(no such key)"]);
      else differences(got[k], expected[k], sub, out);
    }
    return out;
  }
  if (!leafEqual(got, expected)) out.push([label || "output", compact(got), compact(expected)]);
  return out;
}

// A failing example's ``differences`` as table rows: [field[index], got, expected].
function judgedDifferences(c) {
  if (!Array.isArray(c.differences)) return [];
  return c.differences.filter((d) => d && typeof d === "object").map((d) => {
    const index = Array.isArray(d.index) && d.index.length ? `[${d.index.map(String).join(",")}]` : "";
    return [`${String(d.field ?? "output")}${index}`, d.got, d.expected];
  });
}

function diffTable(rows) {
  const table = el("table", null, "diff-table");
  const head = el("tr");
  for (const h of ["entry", "got", "expected"]) head.appendChild(el("th", h));
  table.appendChild(head);
  for (const row of rows.slice(0, MAX_DIFF_ROWS)) {
    const tr = el("tr");
    for (const cell of row) tr.appendChild(el("td", typeof cell === "string" ? cell : compact(cell)));
    table.appendChild(tr);
  }
  return table;
}

function renderCase(c, problem) {
  const pass = c.verdict === "AC";
  const box = el("div", null, "case " + (pass ? "pass" : "fail"));
  box.dataset.verdict = String(c.verdict);
  const number = c.number !== undefined ? c.number : c.index;
  const name = c.name || (exampleNames.get(String(problem)) || [])[number];
  const label = `example ${number}` + (name ? ` (${name})` : "");
  const title = el("h4");
  title.appendChild(el("span", c.verdict, "verdict " + (pass ? "verdict-AC" : "verdict-other")));
  title.appendChild(document.createTextNode(" " + label + (c.time_s !== null && c.time_s !== undefined ? ` in ${c.time_s} s` : "")));
  box.appendChild(title);
  if (c.reason && c.reason !== "ok") box.appendChild(el("p", `[${c.reason}] ${c.message || ""}`, "message case-message"));
  if (!pass) {
    const lines = [];
    if (c.inputs !== undefined && c.inputs !== null) lines.push("inputs:   " + compact(c.inputs));
    if (c.probe) lines.push("probe:    " + compact(c.probe));
    if (c.expected !== undefined && c.expected !== null) lines.push("expected: " + compact(c.expected));
    if (c.got !== undefined && c.got !== null) lines.push("got:      " + compact(c.got));
    if (lines.length) box.appendChild(el("pre", lines.join("\n"), "case-data"));
    const judged = judgedDifferences(c);
    if (judged.length) {
      // the judge's own list (report version 5 on): entries outside the problem's tolerance
      box.appendChild(el("p", "Entries outside the tolerance" + (judged.length > 1 ? " (the first ones; the message gives the count)" : "") + ":"));
      box.appendChild(diffTable(judged));
    } else if (c.got !== undefined && c.got !== null && c.expected !== undefined && c.expected !== null) {
      const rows = differences(c.got, c.expected, "", []);
      if (rows.length) {
        box.appendChild(el("p", `${rows.length} entr${rows.length === 1 ? "y differs" : "ies differ"} from the expected output`
          + (rows.length > MAX_DIFF_ROWS ? ` (first ${MAX_DIFF_ROWS} shown)` : "") + ":"));
        box.appendChild(diffTable(rows));
      }
    }
  }
  return box;
}

// The points (report version 4 on): the total, and the spec's scoring groups when it has them
// (without them every case is a group of its own, which the counts below already say).
function showScore(r, caseCount) {
  if (typeof r.score !== "number" || typeof r.max_score !== "number") return;
  $("score").textContent = `Score: ${r.score} / ${r.max_score}` + (r.zeroed_by ? ` (0: case ${r.zeroed_by.index} is ${r.zeroed_by.verdict})` : "");
  const groups = Array.isArray(r.groups) ? r.groups : [];
  if (groups.length && groups.length < caseCount) {
    for (const g of groups) $("groups").appendChild(el("li", `${g.name}: ${g.score} / ${g.max_score}`));
  }
}

function showResult(r) {
  clearResult();
  if (!r || typeof r !== "object") { say($("message"), "The service sent no report.", true); return; }
  const verdict = $("verdict");
  verdict.textContent = String(r.verdict);
  verdict.className = "verdict " + (r.verdict === "AC" ? "verdict-AC" : "verdict-other");
  $("reason").textContent = r.reason ? `[${r.reason}]` : "";
  $("time").textContent = typeof r.time_s === "number" ? `in ${r.time_s.toFixed(2)} s` : "";
  $("message").textContent = r.message || "";
  if (r.hint) { $("hint").textContent = "Hint: " + r.hint; $("hint").hidden = false; }
  if (r.source_gate === false) $("gate-off").hidden = false;
  const cases = Array.isArray(r.cases) ? r.cases : [];
  showScore(r, cases.length);
  const examples = cases.filter((c) => c.visibility === "example");
  const hidden = cases.filter((c) => c.visibility !== "example");
  if (cases.length) $("counts").textContent = "All cases: " + countText(cases);
  if (hidden.length) $("hidden-counts").textContent = `Hidden cases (${hidden.length}, shown only as counts): ` + countText(hidden);
  for (const c of examples) $("cases").appendChild(renderCase(c, r.problem));
}

// ---------------------------------------------------------------- wiring

function start() {
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token").value.trim();
    $("token").value = "";
    if (token) useToken(token);
  });
  $("token-forget").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showTokenState("Token forgotten.", false);
  });
  $("problem").addEventListener("change", () => {
    showProblem($("problem").value).catch((e) => say($("problem-more"), "Could not load the problem: " + e.message, true));
  });
  $("file").addEventListener("change", readFile);
  $("submit-form").addEventListener("submit", submit);
  if (sessionStorage.getItem(TOKEN_KEY)) useToken(sessionStorage.getItem(TOKEN_KEY));
  else showTokenState("Enter the service's token (from $JUDGE_SERVICE_TOKEN or the token file it printed at its first start).", false);
}

document.addEventListener("DOMContentLoaded", start);
