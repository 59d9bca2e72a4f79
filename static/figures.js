// The page's Plotly figures (static/page.js hooks each one as Gradio draws it): each gets
// role="figure" and a name (its title and what it shows), its size (static/fit.js), and the
// head view answers a tap or the arrow keys on a word (only that word's lines are drawn).
// Presentation only. What this module keeps per figure is in WeakMaps, not on the nodes.
import { fit } from "./fit.js";

const allLines = new WeakMap(); // a head view's line trace -> its segments as sent {x, y}
const queries = new WeakMap(); // head view -> the word shown alone (its index), or null
const picked = new WeakMap(); // head view -> when a word was last tapped (ms)
const hooked = new WeakSet(); // head views listened to
const pageHooked = new WeakSet(); // figures listened to

// The word a head view (or the one a selector names) shows alone (null: every line;
// undefined: none chosen yet), for tests.
export const headViewQuery = (gd) =>
  queries.get(typeof gd === "string" ? document.querySelector(gd) : gd);

// Each Plotly figure gets role="figure" and a name: its title and what it shows.
const DESCRIBE = {
  "head-large":
    "Heatmap of one head: each row is a token, each column a token it may " +
    "look at; brighter means more attention.",
  "head-view":
    "Lines from each token on the left to the tokens it looks at on the right, " +
    "one colour per head. Tap or click a word on the left to show only its lines; " +
    "from the keyboard, the up and down arrow keys pick a word and Escape shows all.",
  predictions: "Bar chart of the model's top guesses and their probabilities.",
};

function title(gd) {
  const anns = (gd.layout && gd.layout.annotations) || [];
  const top = anns.find((a) => a && a.yref === "paper" && Number(a.y) >= 1 && a.text);
  const t = top ? top.text : (gd.layout && gd.layout.title && gd.layout.title.text) || "";
  return String(t)
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function nameFigure(gd) {
  const host = gd.closest('[data-testid="plotly"]') || gd;
  const block = gd.closest("[id]");
  const named = block && block.querySelector('[data-testid="block-label"]');
  const what = (block && DESCRIBE[block.id]) || (named && named.textContent.trim()) || "";
  const label = [title(gd), what].filter(Boolean).join(". ") || "Figure";
  // role="figure", not "img": a figure may hold interactive parts (Plotly's legend)
  host.setAttribute("role", "figure");
  if (host.getAttribute("aria-label") !== label) host.setAttribute("aria-label", label);
}

// The head view: tap or click a word on the left (a query) to keep only its lines;
// the same word again, or a tap on the background, shows every line again.
function focusHeadView(gd, query) {
  if (!window.Plotly) return;
  const lines = [],
    xs = [],
    ys = [];
  gd.data.forEach((tr, i) => {
    if (tr.mode !== "lines" || tr.showlegend) return; // line buckets only
    if (!allLines.has(tr)) {
      // as sent: base64 typed arrays, which Plotly decodes in _fullData
      const full = (gd._fullData || []).find((f) => f.index === i) || tr;
      allLines.set(tr, { x: Array.from(full.x || []), y: Array.from(full.y || []) });
    }
    const all = allLines.get(tr),
      x = [],
      y = [];
    for (let s = 0; s < all.y.length; s += 3) {
      // x, y of a segment: 3 points
      if (query === null || all.y[s] === query) {
        x.push(all.x[s], all.x[s + 1], all.x[s + 2]);
        y.push(all.y[s], all.y[s + 1], NaN);
      }
    }
    lines.push(i);
    xs.push(x);
    ys.push(y);
  });
  queries.set(gd, query);
  if (lines.length) window.Plotly.restyle(gd, { x: xs, y: ys }, lines);
  const tokens = gd.data.find((tr) => tr.name === "query");
  const word = query === null || !tokens ? "" : String(tokens.text[query] ?? query);
  let note = gd.closest("#head-view")?.querySelector(".ae-focus-note");
  const block = gd.closest("#head-view");
  if (block && !note) {
    note = document.createElement("p");
    note.className = "ae-focus-note";
    note.setAttribute("aria-live", "polite");
    block.appendChild(note);
  }
  if (note) {
    note.textContent =
      query === null
        ? ""
        : "Showing where “" +
          word +
          "” (token " +
          query +
          ") looks. " +
          "Tap it again, tap the background or press Escape to show every line.";
  }
}

// The number of words (queries) on the head view's left.
const queryCount = (gd) =>
  ((gd._fullData || []).find((tr) => tr.name === "query") || { y: [] }).y.length;

function hookHeadView(gd) {
  if (hooked.has(gd) || !gd.on) return;
  hooked.add(gd);
  // From the keyboard: the figure takes focus (Tab); the arrow keys step through the
  // words on the left, Escape shows every line again.
  const host = gd.closest('[data-testid="plotly"]') || gd;
  host.tabIndex = 0;
  host.addEventListener("keydown", (ev) => {
    const n = queryCount(gd),
      q = queries.get(gd);
    if (!n) return;
    const down = ev.key === "ArrowDown" || ev.key === "ArrowRight";
    const up = ev.key === "ArrowUp" || ev.key === "ArrowLeft";
    let next;
    if (down) next = q == null ? 0 : Math.min(n - 1, q + 1);
    else if (up) next = q == null ? n - 1 : Math.max(0, q - 1);
    else if (ev.key === "Escape" && q != null) next = null;
    else return;
    ev.preventDefault(); // the arrows would scroll the page
    focusHeadView(gd, next);
  });
  gd.on("plotly_click", (ev) => {
    const pt = ev && ev.points && ev.points[0];
    if (!pt || !pt.data || pt.data.name !== "query") return;
    const q = Math.round(pt.y);
    picked.set(gd, Date.now());
    focusHeadView(gd, queries.get(gd) === q ? null : q);
  });
  gd.addEventListener("click", () => {
    // a click on the background: no plotly_click came with it (that one comes first)
    setTimeout(() => {
      if (queries.get(gd) != null && Date.now() - (picked.get(gd) || 0) > 300) {
        focusHeadView(gd, null);
      }
    }, 50);
  });
}

// A new figure from the server (Plotly.react replaces gd.data): keep the chosen word.
function onFigure(gd) {
  nameFigure(gd);
  fit.figure(gd); // its size and, on a big screen, its text (fit.js)
  const block = gd.closest("#head-view");
  if (!block) return;
  hookHeadView(gd);
  const fresh = gd.data && gd.data.length && !gd.data.some((tr) => allLines.has(tr));
  const q = queries.get(gd);
  if (fresh && q != null) {
    focusHeadView(gd, q < queryCount(gd) ? q : null);
  }
}

export function hookFigure(gd) {
  if (pageHooked.has(gd) || !gd.on) return;
  pageHooked.add(gd);
  gd.on("plotly_afterplot", () => onFigure(gd));
  onFigure(gd);
}
