// A submission's result on the page: the verdict in words, the score and its groups, each
// example (inputs, expected, got and the entries outside the tolerance; a passing one with the
// problem's own values), the hidden cases as counts only, and a failure of the whole program
// shown once, and what each example printed (stdout, stderr; a print of a traced value gets one
// note pointing to jax.debug.print). Every string of a report (a hostile program wrote some of them) is put on the page
// as text. Reads ``details`` (app.js): the problem's examples and dtypes.
"use strict";

const MAX_DIFF_ROWS = 20;      // differing entries listed per example

const VERDICT_WORDS = {
  AC: "Accepted", WA: "Wrong answer", RJ: "A rule of the problem is broken",
  RTE: "Run-time error", CE: "Compile error", TLE: "Time limit exceeded",
  MLE: "Memory limit exceeded", OLE: "Output limit exceeded", IE: "The judge failed (not your fault)",
};

function clearResult() {
  for (const id of ["verdict", "verdict-words", "reason", "time", "message", "hint", "score", "counts", "hidden-counts", "whole-note"]) $(id).textContent = "";
  clear($("groups"));
  $("verdict").className = "verdict";
  $("hint").hidden = true;
  $("whole-note").hidden = true;
  $("gate-off").hidden = true;
  $("print-note").hidden = true;
  clear($("cases"));
}

function countText(cases) {
  const counts = new Map();
  for (const c of cases) counts.set(c.verdict, (counts.get(c.verdict) || 0) + 1);
  return [...counts.keys()].sort().map((v) => `${counts.get(v)} ${v}`).join(", ");
}

// Which output fields hold floats, from the problem's first example (its dtypes); a probe's
// result (vjp, jvp) is a float when every field is.
function floatFields(problem) {
  const p = details.get(String(problem));
  const first = p && Array.isArray(p.examples) && p.examples[0] ? p.examples[0].expected || {} : {};
  const kinds = new Map();
  for (const [k, v] of Object.entries(first)) {
    kinds.set(k, Boolean(v && typeof v === "object" && /float/.test(String(v.dtype || ""))));
  }
  const all = kinds.size > 0 && [...kinds.values()].every(Boolean);
  const single = kinds.size === 1 ? [...kinds.values()][0] : all;
  return (key) => (key === undefined ? single : (kinds.has(key) ? kinds.get(key) : all));
}

// A failing example's ``differences`` (the judge's own list: entries outside the tolerance).
function judgedDifferences(c, isFloat) {
  if (!Array.isArray(c.differences)) return [];
  return c.differences.filter((d) => d && typeof d === "object").map((d) => {
    const index = Array.isArray(d.index) && d.index.length ? `[${d.index.map(String).join(",")}]` : "";
    const field = String(d.field ?? "output");
    const f = isFloat(field === "output" ? undefined : field);
    return [`${field}${index}`, compact(d.got, f), compact(d.expected, f)];
  });
}

function diffTable(rows) {
  const wrap = el("div", null, "scroll-x");
  const table = el("table", null, "diff-table");
  const head = el("tr");
  for (const h of ["entry", "got", "expected"]) head.appendChild(el("th", h));
  table.appendChild(head);
  for (const row of rows.slice(0, MAX_DIFF_ROWS)) {
    const tr = el("tr");
    for (const cell of row) tr.appendChild(el("td", cell));
    table.appendChild(tr);
  }
  wrap.appendChild(table);
  return wrap;
}

// A value of a report (the array itself for an array output, a dict of fields otherwise).
function outputText(value, isFloat) {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return compact(value, isFloat);
  return compact(value, isFloat(undefined));
}

// What an example printed (the report carries it for examples only, never hidden cases).
function printedBlock(c) {
  const streams = ["stdout", "stderr"].filter((k) => typeof c[k] === "string" && c[k]);
  if (!streams.length) return null;
  const box = el("div", null, "printed");
  for (const stream of streams) {
    box.appendChild(el("p", stream === "stdout" ? "Printed (stdout):" : "Printed (stderr):", "printed-title"));
    box.appendChild(el("pre", c[stream], "printed-text " + stream));
  }
  return box;
}

function renderCase(c, problem, isFloat, reference) {
  const pass = c.verdict === "AC";
  const box = el("div", null, "case " + (pass ? "pass" : "fail"));
  box.dataset.verdict = String(c.verdict);
  const number = c.number !== undefined ? c.number : c.index;
  const p = details.get(String(problem));
  const example = p && Array.isArray(p.examples) ? p.examples[number] : undefined;
  const name = c.name || (example && example.name);
  const title = el("h4");
  title.appendChild(el("span", c.verdict, "verdict " + (pass ? "verdict-AC" : "verdict-other")));
  title.appendChild(document.createTextNode(` example ${number}` + (name ? ` (${name})` : "")
    + (c.time_s !== null && c.time_s !== undefined ? ` in ${c.time_s} s` : "")));
  box.appendChild(title);
  if (c.reason && c.reason !== "ok") box.appendChild(el("p", `[${c.reason}] ${c.message || ""}`, "message case-message"));
  const lines = [];
  if (pass && reference) {
    // a run on the student's input: the inputs and the reference's output, which got matched
    lines.push("inputs:    " + compact(reference.inputs, (k) => inputIsFloat(p, k)));
    lines.push("reference: " + outputText(reference.expected, isFloat));
    lines.push("yours:     the reference's output, within the tolerance");
  } else if (pass) {
    // the report lists no values for a passing example: the problem's own, and got matched them
    for (const line of example && Array.isArray(example.lines) ? example.lines : []) lines.push(String(line).replace(/^  /, ""));
    if (lines.length) lines.push("got: the expected output, within the tolerance");
  } else {
    if (c.inputs !== undefined && c.inputs !== null) lines.push("inputs:   " + compact(c.inputs, (k) => inputIsFloat(p, k)));
    if (c.probe) lines.push("probe:    " + compact(c.probe, true));
    if (c.expected !== undefined && c.expected !== null) lines.push("expected: " + outputText(c.expected, isFloat));
    if (c.got !== undefined && c.got !== null) lines.push("got:      " + outputText(c.got, isFloat));
  }
  if (lines.length) box.appendChild(el("pre", lines.join("\n"), "case-data"));
  if (!pass) {
    const judged = judgedDifferences(c, isFloat);
    if (judged.length) {
      box.appendChild(el("p", "Entries outside the tolerance" + (judged.length > 1 ? " (the first ones; the message gives the count)" : "") + ":"));
      box.appendChild(diffTable(judged));
    }
  }
  const printed = printedBlock(c);
  if (printed) box.appendChild(printed);
  return box;
}

// Whether input ``key`` of problem ``p`` is a float (its dtype in the first example, or a
// parameter of kind float).
function inputIsFloat(p, key) {
  if (!p) return false;
  const param = (Array.isArray(p.parameters) ? p.parameters : []).find((q) => q.name === key);
  if (param && param.kind === "float") return true;
  if (param && param.kind === "int") return false;
  const first = Array.isArray(p.examples) && p.examples[0] ? (p.examples[0].inputs || {})[key] : undefined;
  if (first && typeof first === "object" && first.dtype) return /float/.test(String(first.dtype));
  return Boolean(param && Array.isArray(param.dtypes) && param.dtypes.every((d) => /float/.test(d)));
}

// The points: the total, and the spec's scoring groups when it has them.
function showScore(r, caseCount) {
  if (typeof r.score !== "number" || typeof r.max_score !== "number") return;
  $("score").textContent = `Score: ${r.score} / ${r.max_score}` + (r.zeroed_by ? ` (0: case ${r.zeroed_by.index} is ${r.zeroed_by.verdict})` : "");
  const groups = Array.isArray(r.groups) ? r.groups : [];
  if (groups.length && groups.length < caseCount) {
    for (const g of groups) $("groups").appendChild(el("li", `${g.name}: ${g.score} / ${g.max_score}`));
  }
}

// A failure of the whole submission (a compile error, a refused construct, a rule broken or an
// exception the same way everywhere): every case failed with the same verdict and reason, every
// example with the same message (a hidden case's is masked), and none compared an output. Its
// message (without the first example's label) is shown once.
function wholeFailure(r, cases) {
  if (r.verdict === "AC" || !cases.length) return r.verdict === "CE" ? r.message || "" : null;
  const examples = cases.filter((c) => c.visibility === "example");
  const first = examples.length ? examples[0] : cases[0];
  const same = cases.every((c) => c.verdict === first.verdict && c.reason === first.reason
    && (c.got === undefined || c.got === null))
    && examples.every((c) => c.message === first.message);
  if (!same) return null;
  return first.message || r.message || "";
}

function showResult(r, mode) {
  clearResult();
  if (!r || typeof r !== "object") { say($("message"), "The service sent no report.", true); return; }
  const verdict = $("verdict");
  verdict.textContent = String(r.verdict);
  verdict.className = "verdict " + (r.verdict === "AC" ? "verdict-AC" : "verdict-other");
  $("verdict-words").textContent = VERDICT_WORDS[r.verdict] || "";
  $("reason").textContent = r.reason ? `[${r.reason}]` : "";
  $("time").textContent = typeof r.time_s === "number" ? `in ${r.time_s.toFixed(2)} s` : "";
  $("message").textContent = r.message || "";
  if (r.hint) { $("hint").textContent = "Hint: " + r.hint; $("hint").hidden = false; }
  if (r.source_gate === false) $("gate-off").hidden = false;
  const cases = Array.isArray(r.cases) ? r.cases : [];
  const examples = cases.filter((c) => c.visibility === "example");
  const hidden = cases.filter((c) => c.visibility !== "example");
  const whole = wholeFailure(r, cases);
  if (whole !== null) {
    $("message").textContent = whole;
    $("whole-note").textContent = `This is about your whole program, not one example: every case (${cases.length}) ended this way, and no output was compared.`;
    $("whole-note").hidden = false;
  }
  if (mode === "submit" || mode === undefined) showScore(r, cases.length);
  if (cases.length) $("counts").textContent = (mode === "examples" ? "Examples: " : (mode === "input" ? "Your input: " : "All cases: ")) + countText(cases);
  if (hidden.length) $("hidden-counts").textContent = `Hidden cases (${hidden.length}, shown only as counts): ` + countText(hidden);
  if (typeof r.tracer_note === "string" && r.tracer_note) {
    $("print-note").textContent = "Note: " + r.tracer_note;
    $("print-note").hidden = false;
  }
  const isFloat = floatFields(r.problem);
  const reference = r.reference && typeof r.reference === "object" ? r.reference : null;
  if (whole === null) for (const c of examples) $("cases").appendChild(renderCase(c, r.problem, isFloat, reference));
  else if (examples.length && printedBlock(examples[0])) $("cases").appendChild(printedBlock(examples[0]));
}
