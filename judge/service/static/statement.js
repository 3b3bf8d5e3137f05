// The problem's statement: its author's Markdown rendered by marked, then rebuilt element by
// element from a short list of allowed tags (no attribute but a link's http(s) or in-page
// address), and its math ($...$, $$...$$) typeset by KaTeX into DOM nodes. Nothing marked
// writes is inserted as HTML: it is parsed by DOMParser (which runs nothing) and copied.
"use strict";

const ALLOWED = new Set(["P", "EM", "STRONG", "CODE", "PRE", "UL", "OL", "LI", "BLOCKQUOTE",
  "H1", "H2", "H3", "H4", "H5", "H6", "BR", "HR", "TABLE", "THEAD", "TBODY", "TR", "TH", "TD",
  "DEL", "A", "SPAN", "DIV"]);
const DROPPED = new Set(["SCRIPT", "STYLE", "IFRAME", "OBJECT", "EMBED", "TEMPLATE", "SVG", "MATH"]);

// Math spans, written by marked as <span class="math" data-tex="..."> before the rebuild.
const mathExtension = {
  extensions: [{
    name: "math", level: "inline",
    start(src) { const i = src.indexOf("$"); return i < 0 ? undefined : i; },
    tokenizer(src) {
      const m = /^\$\$([^$]+?)\$\$/.exec(src) || /^\$([^$\n]+?)\$/.exec(src);
      if (m) return { type: "math", raw: m[0], tex: m[1].trim(), display: m[0].startsWith("$$") };
      return undefined;
    },
    renderer(token) {
      const tex = token.tex.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
      return `<span class="math${token.display ? " display" : ""}" data-tex="${tex}"></span>`;
    },
  }],
};
let markedReady = false;

// ``source`` (a DOM node parsed from marked's HTML) copied into ``target`` with only the allowed
// elements, no attributes but an http(s) or in-page link and a math span's TeX.
function rebuild(source, target) {
  for (const node of source.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) { target.appendChild(document.createTextNode(node.nodeValue)); continue; }
    if (node.nodeType !== Node.ELEMENT_NODE || DROPPED.has(node.tagName)) continue;
    if (!ALLOWED.has(node.tagName)) { rebuild(node, target); continue; }
    const tag = /^H[1-6]$/.test(node.tagName) ? "H" + Math.min(6, Number(node.tagName[1]) + 2) : node.tagName;
    const copy = document.createElement(tag);
    if (node.tagName === "A") {
      const href = node.getAttribute("href") || "";
      if (/^(https?:|#)/i.test(href)) { copy.href = href; copy.rel = "noopener noreferrer"; }
    }
    if (node.tagName === "SPAN" && node.classList.contains("math")) {
      copy.className = node.classList.contains("display") ? "math display" : "math";
      copy.dataset.tex = node.getAttribute("data-tex") || "";
      target.appendChild(copy);
      continue;
    }
    rebuild(node, copy);
    target.appendChild(copy);
  }
}

function renderMarkdown(text, target) {
  clear(target);
  if (!window.marked || typeof window.marked.parse !== "function") {
    target.appendChild(el("pre", text));
    return;
  }
  if (!markedReady) { window.marked.use(mathExtension); markedReady = true; }
  const html = window.marked.parse(text, { gfm: true, breaks: false });
  const doc = new DOMParser().parseFromString(html, "text/html");  // parsed, never run
  rebuild(doc.body, target);
  for (const span of target.querySelectorAll("span.math")) {
    const tex = span.dataset.tex || "";
    if (window.katex) {
      try {
        window.katex.render(tex, span, { displayMode: span.classList.contains("display"), throwOnError: false });
        continue;
      } catch (e) { /* shown as its TeX below */ }
    }
    span.textContent = tex;
  }
}
