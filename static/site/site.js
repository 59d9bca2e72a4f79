// The static edition's page (static/site/index.html, written by explorer/site/build.py; this
// module is its one script's entry, bundled with the others of static/site/ into
// static/build/site.js). Explore: the same grid renderer as the app (static/live_grid.js),
// fed by the browser's engine (static/engine/, imported whole: its entry puts the engine on
// window.AttentionExplorer as on the app's page) instead of a server. A click on a square
// opens that head large (a second grid fed a one-head payload), or, in step 3, switches it
// off. Start here: all nine steps, each with its figure computed in the browser
// (static/site/steps.js). Inside one head: every stage of one head (static/site/inside.js).
// The modules, one concern each:
//
//   page_config.js  the configuration (explorer/site/config.py's JSON), $, el, the theme
//   knobs.js        the sentence, the knobs and the heads switched off; model_fit.js
//                   which heads and positions the chosen model was trained with
//   loop.js         the live loop, and the engine in the place of a server
//   grids.js        the grid renderer mounted on this page's boxes
//   steps.js        Start here; step_link.js its ?step=N; figures.js and fig_*.js the
//                   steps' figures; words.js their sentences
//   inside.js       Inside one head; inside_draw.js its heatmaps
//   big_screen.js   projector mode (?projector=1, Big screen)
//   offline.js      the lesson saved for offline use (the worker sw.js), once a model drew
import { AE, engine } from "../engine/index.js";
import { grid } from "../live_grid.js";
import { bringIntoView, initBigScreen, largeSizing } from "./big_screen.js";
import { mountGrid, oneHead } from "./grids.js";
import { initInside } from "./inside.js";
import {
  fillKnobs,
  headBoxes,
  setControls,
  setText,
  state,
  toggleHead,
  wireKnobs,
} from "./knobs.js";
import { addView, engineKnobs, kick, payloadFor } from "./loop.js";
import { offlineState, saveForOffline } from "./offline.js";
import { $, CONFIG, FROM_FILE, SERVE_FOLDER } from "./page_config.js";
import { figureView, initSteps } from "./steps.js";

AE.grid = grid; // the one global's grid, as on the app's page (tests read grid.state)
AE.offline = { state: offlineState };
engine.configure({ base: "models/", hashes: CONFIG.hashes });
AE.payload.setTexts(CONFIG.engineTexts); // the caption's words, from the builder
for (const a of document.querySelectorAll("a.ae-app-link")) a.href = CONFIG.appUrl;

// a click on a square of the grid (its onOpen; the large head has none)
function openHead(l, h) {
  if (state.clickSwitches) return toggleHead(l, h); // Ablate's grid: the head off or on
  state.layer = l;
  state.head = h;
  openLarge();
  requestAnimationFrame(() => bringIntoView("large")); // not above the grid, off the screen
}

function openLarge() {
  $("large").hidden = false;
  $("large-title").textContent = "Layer " + state.layer + ", head " + state.head + ", large";
  kick();
}

fillKnobs();
wireKnobs(kick);
setControls(CONFIG.defaults);
setText(CONFIG.examples[0] || "");
if (FROM_FILE) $("where").textContent = SERVE_FOLDER;
else engine.load(CONFIG.defaultModel).catch(() => {}); // the default model first

const explore = mountGrid($("grid"), "explore", {
  onOpen: openHead,
  async data(req) {
    const p = await payloadFor(req.text, req.controls);
    state.payload = p;
    if (p && p.ok) headBoxes(p);
    return p;
  },
});
const large = mountGrid($("head-large"), "head", {
  sizing: largeSizing, // as tall as a big screen (static/site/big_screen.js)
  async data() {
    // the head the payload outlines (clamped to its model's heads)
    const p = state.payload;
    return p && p.ok ? oneHead(p, ...p.selected) : p;
  },
});
// the live loop's views, in order: the step's figure, the grid, the head drawn large,
// Inside one head
addView(figureView);
const shown = (id) => !$("explore").hidden && !$(id).hidden;
addView({ active: () => shown("grid-part"), update: (ctx) => explore.update(ctx) });
addView({ active: () => shown("large"), update: (ctx) => large.update(ctx) });
addView(initInside({ kick, engineKnobs })); // Inside one head, the third tab
// last: once a model has loaded and drawn, the lesson is saved for offline use behind it
const drewOnce = () => state.model && engine.loaded(state.model);
addView({ active: () => true, update: () => drewOnce() && saveForOffline() });
initBigScreen({ redraw: () => large.redraw(), open: openLarge }); // before a step lays out
initSteps({ kick, openLarge, engineKnobs });
kick();
