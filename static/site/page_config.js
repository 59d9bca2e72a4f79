// The static page's configuration and its few page-wide facts, read once (every module of
// static/site/ imports them from here). CONFIG: the JSON explorer/site/config.py inlines into
// index.html (<script id="ae-config">): the knobs' choices, the steps in the static edition's
// words, the models there are and their sha256, the colours, the grid's markup and CSS.
// $ and el(): our own markup, built with textContent only (user text never becomes HTML).

export const CONFIG = JSON.parse(document.getElementById("ae-config").textContent);
export const $ = (id) => document.getElementById(id);

const dark = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
export const theme = dark ? "dark" : "light";
export const colors = CONFIG.colors[theme];

// Opened as a file (file:///…/index.html, from a USB stick): such a page may read no file
// beside it, so no model can load. Said at once, with how to serve the folder instead.
export const FROM_FILE = location.protocol === "file:";
export const SERVE_FOLDER =
  "⚠️ This page was opened as a file, and a browser does not let such a page read the " +
  "models beside it. Serve its folder instead: in a terminal in this folder run " +
  "python -m http.server -d . 8000 then open http://localhost:8000/";

/** A new element: el("p", {className: "x", id: "y"}, "text", otherNode, ...). Strings become
    text nodes; attrs are element properties, or attributes for names with a dash. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.includes("-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...children.filter((c) => c != null));
  return e;
}

/** A new SVG element: svgEl("line", {x1: 0, style: {stroke: "red"}}, "text"). attrs are
    attributes (a `style` object sets style properties); text, if any, is its text. */
export function svgEl(tag, attrs = {}, text = null) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "style") Object.assign(e.style, v);
    else e.setAttribute(k, String(v));
  }
  if (text != null) e.textContent = text;
  return e;
}

/** A message in plain words, with one warning sign in front (a message that starts with
    its own sign, as the empty sentence's ✏️, keeps it). */
export function warning(message) {
  const m = String(message || "Something went wrong.").replace(/^⚠️\s*/, "");
  return /^(✏️|ℹ️|⏳)/u.test(m) ? m : "⚠️ " + m;
}
