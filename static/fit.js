// How large each Plotly figure is drawn, for the screen it is on (static/app.js starts it
// in the page's <head>; static/figures.js calls figure(gd) each time a figure has drawn, and
// all() when Big screen is switched). Its interface, `fit` (window.AttentionExplorer.fit).
//
// The server sends each figure sized for a laptop. Here, in the browser, which knows the
// screen:
//  * one head's square heatmap is no taller than its column is wide (a phone's column
//    made it a tall strip with the colour bar stretched over empty space);
//  * every head as subplots (layout.grid) is shortened until each panel is square;
//  * in projector mode ("Big screen") Explore's large head is as tall as the screen and its
//    token labels as big as its rows allow, and every figure's text is at least MIN_FONT
//    CSS px (18 px projected at 150 %; 10-11 px read as 15 px from the back row);
//  * a figure a Start-here step is about fits on the screen under the step's bar
//    (static/steps.js room()).
// A figure from the server comes with a new layout object (window.Plotly.react): what was sent
// is remembered per layout object, and relayout edits the one it has.
//
// Every fit converges (one that never settled froze the page for good: issue 39). A pass runs
// on each plotly_afterplot, and its relayout redraws, which ends in plotly_afterplot
// again, all in promise callbacks that never give the page back. So:
//  * a pass that finds nothing to change changes nothing (it compares before it calls
//    relayout), so the redraw it caused ends the chain;
//  * no decision flips back and forth: what toggles has hysteresis (the grid's labels come
//    back only with MIN_ROW + LABEL_BACK px rows: hiding them widens the panels, and at
//    11 tokens on a laptop the rows then grew from 9.6 to 10.0 px, labels on, rows 9.6,
//    off, ... without end), heights move only by more than a few px;
//  * each figure gets at most MAX_PASSES passes that change something, per new figure
//    (new layout or data from the server) and per real change of its box's width
//    (WIDER px; a scrollbar coming and going is less) or a refit the page asks for
//    (all()). Then it stays as it is.
import { screen } from "./screen.js";

const root = document.documentElement;
const projector = () => root.classList.contains("ae-projector");

const MIN_FONT = 12; // CSS px of any figure text on a big screen
const MIN_HEIGHT = 220; // a step's figure is never squeezed below this to fit the screen
const ROOMY_ROW = MIN_FONT + 2; // CSS px a projected heatmap row needs for its label
// What this module keeps per figure (what it last sent, its passes, its own width...): in
// a WeakMap, not on the node.
const marks = new WeakMap();
const own = (gd) => marks.get(gd) || marks.set(gd, {}).get(gd);

const MAX_PASSES = 4; // passes that change a figure, per new figure or new width
const WIDER = 24; // CSS px a box's width must move by to earn a figure new passes
const NUDGE = 2; // CSS px a square head's height is left off by (4 for other figures)
// One head's square heatmap in each of these; only Explore's large head grows on a
// big screen.
const SQUARE_HEADS = [
  "head-large",
  "cmp-left",
  "cmp-right",
  "cmp-diff",
  "training-head",
  "pe-shuffle-original",
  "pe-shuffle-shuffled",
  "pe-shuffle-difference",
  "export-head",
];
const SQUARE = SQUARE_HEADS.map((id) => "#" + id).join(", ");

function sent(gd) {
  const lay = gd.layout;
  if (own(gd).layout !== lay) {
    own(gd).layout = lay;
    own(gd).sent = {
      height: lay.height ?? null,
      x: lay.xaxis?.tickfont?.size ?? null,
      y: lay.yaxis?.tickfont?.size ?? null,
    };
  }
  return own(gd).sent;
}

// The height and tick label sizes one head's square heatmap should have here.
function square(gd, room) {
  const lay = gd.layout;
  let want = sent(gd);
  if (projector() && gd.closest("#head-large")) {
    const tokens = (lay.yaxis && lay.yaxis.ticktext) || [];
    // from its top (below the one-row tab bar) to the bottom of the screen, or the room
    // a step's bar leaves
    const top = gd.getBoundingClientRect().top + window.scrollY;
    const height = room ?? Math.max(320, Math.round(window.innerHeight - Math.min(top, 140) - 8));
    stackIfCramped(gd, height, tokens.length);
    // about 110 px go to the title and the rotated key labels below the squares, 150
    // to the query labels and the colour bar beside them; a label as tall as its row
    const side = Math.min(height - 110, gd.clientWidth - 150);
    const cell = side / Math.max(tokens.length, 1);
    const font = Math.max(MIN_FONT, Math.min(20, Math.floor(cell)));
    return { height, x: font, y: font };
  }
  if (want.height && gd.clientWidth) {
    // the square's side is about the width less 150 px of labels and colour bar; the
    // title and key labels take about 130 px more
    want = { ...want, height: Math.min(want.height, Math.max(300, gd.clientWidth - 20)) };
  }
  if (projector()) {
    want = {
      ...want,
      x: Math.max(want.x ?? MIN_FONT, MIN_FONT),
      y: Math.max(want.y ?? MIN_FONT, MIN_FONT),
    };
  }
  return want;
}

// A step's large head beside the guesses (static/steps.js: data-ae-step-together) gets
// two thirds of the row; where that leaves its rows less than ROOMY_ROW px (step 2's 25
// tokens on a projector: 9 px rows under 12 px labels), the row stacks (static/css/30-projector.css)
// and the head takes the whole width, the guesses below it. Decided from the row's
// width, which stacking does not change, so it cannot flip back and forth.
function stackIfCramped(gd, height, n) {
  const row = gd.closest("[data-ae-step-together]");
  if (!row || !row.contains(document.getElementById("head-large"))) return;
  const beside = Math.min(height - 110, (row.clientWidth * 2) / 3 - 150) / Math.max(n, 1);
  const stacked = row.hasAttribute("data-ae-step-stack");
  // (stacked, the head goes back beside the guesses only with a px to spare)
  const stack = stacked ? beside < ROOMY_ROW + 1 : beside < ROOMY_ROW;
  if (stacked !== stack) {
    row.toggleAttribute("data-ae-step-stack", stack);
    // the head's box is now wider (or narrower) than the figure drawn in it, and Plotly
    // does not refit a figure whose layout has a width and a height (fit.js set one)
    own(gd).ownWidth = true; // from now on figure() keeps its width to its box's
    requestAnimationFrame(() => figure(gd));
  }
}

// Every head as subplots: the height at which each panel is square, never taller than
// sent (the panels' heights are fixed shares of the plotting area, so they scale with it).
function gridHeight(gd) {
  const lay = gd.layout,
    full = gd._fullLayout,
    wanted = sent(gd).height;
  const wide = full?.xaxis?._length,
    high = full?.yaxis?._length;
  if (!wanted || !lay.height || !wide || !high || !full._size) return lay.height;
  const plot = full._size.h;
  return Math.min(wanted, Math.round(lay.height - plot + (plot * wide) / high));
}

// A grid drawn shorter here than sent (a phone, a projector, a step's room): the server
// labelled each panel's rows (y) only where a row was at least MIN_ROW px tall at the
// height it sent; where the rows are now shorter, the labels run into each other (the ␣
// of one on the next), so they go (hover still names each token) and come back with room:
// LABEL_BACK px more than they went at, since without them the panels are wider, so
// taller, so their rows are too (by under 1 px at 11 tokens on a laptop).
const MIN_ROW = 10,
  LABEL_BACK = 2;
function gridLabels(gd, height, update) {
  const lay = gd.layout,
    full = gd._fullLayout,
    was = sent(gd);
  // (the grid's axes take their tick text from its template: read the drawn axis)
  const plot = full?._size?.h,
    n = (full?.yaxis?.ticktext || []).length;
  if (!plot || !n || !full.yaxis?._length || !lay.height) return;
  const row = (full.yaxis._length * (height - (lay.height - plot))) / plot / n;
  if (!was.labels) {
    // which y axes the server labelled
    was.labels = Object.keys(lay).filter(
      (k) => /^yaxis\d*$/.test(k) && lay[k]?.showticklabels !== false,
    );
  }
  const shown = was.labels.some((k) => lay[k]?.showticklabels !== false);
  const show = row >= MIN_ROW + (shown ? 0 : LABEL_BACK);
  was.labels.forEach((k) => {
    if ((lay[k]?.showticklabels !== false) !== show) update[k + ".showticklabels"] = show;
  });
}

// A square head drawn small on a big screen (step 6's two heads side by side: ~100 px
// for 21 tokens) cannot fit its token labels, at least MIN_FONT tall, one to a row: they
// run into each other. They go (hover still names each token) and come back with
// LABEL_BACK px more than they went at (without them the square grows a little).
function squareLabels(gd, update) {
  const lay = gd.layout,
    n = (lay.yaxis?.ticktext || []).length;
  const side = gd._fullLayout?.yaxis?._length;
  if (!n || !side) return;
  const shown = lay.yaxis?.showticklabels !== false;
  const show = side / n >= MIN_FONT + (shown ? 0 : LABEL_BACK);
  if (shown !== show) {
    update["xaxis.showticklabels"] = show;
    update["yaxis.showticklabels"] = show;
  }
}

// Big screen: the smallest text of the layout (tick labels but a grid's, which has no
// room for bigger ones; annotations, legend, the default font) raised to MIN_FONT.
function layoutFonts(gd, update) {
  const lay = gd.layout;
  const raise = (key, size) => {
    // (a size this pass already chose stands)
    if (size != null && size < MIN_FONT && !(key in update)) update[key] = MIN_FONT;
  };
  raise("font.size", lay.font?.size ?? MIN_FONT);
  raise("legend.font.size", lay.legend?.font?.size);
  (lay.annotations || []).forEach((a, i) => raise(`annotations[${i}].font.size`, a?.font?.size));
  if (lay.grid) return;
  for (const key of Object.keys(lay)) {
    if (/^[xy]axis\d*$/.test(key)) raise(key + ".tickfont.size", lay[key]?.tickfont?.size);
  }
}

// Big screen: the traces' own text (the numbers on bars: Plotly also shrinks them to a
// thin bar's thickness unless told not to) and colour bars' labels. What to restyle, as
// [[update, trace indices], ...]; empty when all is as it should be.
function traceFonts(gd) {
  const text = [],
    bar = [];
  (gd.data || []).forEach((tr, i) => {
    const shrinks = tr.type === "bar" && tr.texttemplate && tr.constraintext !== "none";
    if ((tr.textfont?.size ?? MIN_FONT) < MIN_FONT || shrinks) text.push(i);
    if ((tr.colorbar?.tickfont?.size ?? MIN_FONT) < MIN_FONT) bar.push(i);
  });
  const out = [];
  if (text.length) out.push([{ "textfont.size": MIN_FONT, constraintext: "none" }, text]);
  if (bar.length) out.push([{ "colorbar.tickfont.size": MIN_FONT }, bar]);
  return out;
}

// The passes a figure has left: MAX_PASSES again for a new figure (window.Plotly.react gives it
// a new layout object, or new data), a box WIDER px wider or narrower than when they
// were counted, or a refit the page asks for (all(): a step shown, Big screen switched).
function passes(gd, fresh) {
  const w = gd.clientWidth;
  let p = own(gd).passes;
  if (
    fresh ||
    !p ||
    p.layout !== gd.layout ||
    p.data !== gd.data ||
    Math.abs(w - p.width) >= WIDER
  ) {
    p = own(gd).passes = { layout: gd.layout, data: gd.data, width: w, left: MAX_PASSES };
  }
  return p;
}

// A figure drawn while its view was hidden (a step or the live loop redraws views in the
// background) was fitted to no width: fit it again once it has one, and whenever its
// width changes (its height follows its width; a change of height alone is ours).
const widths = new ResizeObserver((entries) => {
  for (const e of entries) {
    const gd = e.target,
      w = Math.round(e.contentRect.width);
    if (w && w !== own(gd).fitWidth) {
      own(gd).fitWidth = w;
      figure(gd);
    }
  }
});

// One pass: what is off, changed in one relayout (and restyles on a big screen); nothing
// when nothing is off or the figure's passes are spent.
function figure(gd, fresh = false) {
  if (!own(gd).watched) {
    own(gd).watched = true;
    widths.observe(gd);
  }
  if (!window.Plotly || !gd.layout || !gd.data || !gd.data.length) return;
  const budget = passes(gd, fresh);
  if (budget.left <= 0) return;
  const lay = gd.layout;
  const room = screen.room(gd);
  const fit = (h) => (room == null || !h ? h : Math.max(MIN_HEIGHT, Math.min(h, room)));
  const update = {};
  if (own(gd).ownWidth && gd.clientWidth && Math.abs((lay.width || 0) - gd.clientWidth) > 4) {
    update.width = gd.clientWidth;
  }
  if (gd.closest(SQUARE)) {
    const want = square(gd, room),
      h = fit(want.height);
    if (h !== lay.height && (h == null || lay.height == null || Math.abs(h - lay.height) >= NUDGE))
      update.height = h;
    if ((lay.xaxis?.tickfont?.size ?? null) !== want.x) update["xaxis.tickfont.size"] = want.x;
    if ((lay.yaxis?.tickfont?.size ?? null) !== want.y) update["yaxis.tickfont.size"] = want.y;
    if (projector() && !gd.closest("#head-large")) squareLabels(gd, update);
  } else {
    const h = fit(lay.grid ? gridHeight(gd) : sent(gd).height);
    if (h && lay.height && Math.abs(h - lay.height) >= 4) update.height = h;
    if (lay.grid) gridLabels(gd, h || lay.height, update);
  }
  if (projector()) layoutFonts(gd, update);
  const restyles = projector() ? traceFonts(gd) : [];
  const relayout = Object.keys(update).length > 0;
  if (!relayout && !restyles.length) return; // nothing off: the chain of redraws ends
  budget.left -= 1;
  if (relayout) window.Plotly.relayout(gd, update);
  restyles.forEach(([change, traces]) => window.Plotly.restyle(gd, change, traces));
}

function all() {
  document.querySelectorAll(".js-plotly-plot").forEach((gd) => figure(gd, true));
}

export const fit = { figure, all };
