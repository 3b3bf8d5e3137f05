// Small helpers of the grading page, shared by its scripts (classic scripts: their top-level
// names are one global scope, loaded in the order index.html gives): elements made with their
// text escaped, the browser's storage, and numbers written as the spec writes them.
"use strict";

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

function store(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (e) { /* storage full or disabled: the page still works, it only forgets */ }
}

function recall(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}

// ---------------------------------------------------------------- numbers as the spec writes them

// A number as Python prints it: a float keeps its ".0" (1.0, not 1) when ``isFloat``.
function numberText(v, isFloat) {
  if (typeof v !== "number") return JSON.stringify(v);
  if (isFloat && Number.isInteger(v)) return Object.is(v, -0) ? "-0.0" : v.toFixed(1);
  return String(v);
}

// JSON on one line with the text report's spacing: {"values": [0.5, 1.5], "grads": [1.0, 0.0]}.
// ``isFloat(key)`` says whether the numbers under a top-level key are floats.
function compact(value, isFloat, key) {
  const floatHere = typeof isFloat === "function" ? isFloat(key) : Boolean(isFloat);
  if (Array.isArray(value)) return "[" + value.map((v) => compact(v, floatHere)).join(", ") + "]";
  if (value !== null && typeof value === "object") {
    return "{" + Object.entries(value).map(([k, v]) =>
      JSON.stringify(k) + ": " + compact(v, typeof isFloat === "function" ? isFloat : floatHere, k)).join(", ") + "}";
  }
  if (typeof value === "number") return numberText(value, floatHere);
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}
