// Step 6's figure (the Compare view's question, static/site/figures.js): the same head twice,
// side by side: on the left with the knobs as they are (as trained, unless changed), on the
// right with the step's own Scaling (none): two runs of the engine (gridPayload), each drawn
// by the grid renderer as one head, the head the knobs point at.
//
//   <div class="ae-figure" id="compare-figure">
//     <div class="ae-panels"> #cmp-left (h3: its scaling, the grid), #cmp-right (the same)
import { gridPayload } from "../engine/index.js";
import { mountGrid, oneHead } from "./grids.js";
import { colors, el, theme, warning } from "./page_config.js";

function side(id) {
  const title = el("h3", {});
  const holder = el("div", { className: "ae-panel", id }, title);
  return { title, holder, grid: mountGrid(holder, "head") };
}

export function make(holder, { engineKnobs, record, step }) {
  const left = side("cmp-left"),
    right = side("cmp-right");
  const note = el("p", { className: "ae-muted" });
  const element = el(
    "div",
    { className: "ae-figure", id: "compare-figure" },
    el("div", { className: "ae-panels ae-two" }, left.holder, right.holder),
    note,
  );
  holder.appendChild(element);

  async function draw(s, ctx) {
    const { text, ...controls } = ctx.knobs;
    const p = await gridPayload(text, controls, { colors, theme, fetch: true });
    if (!p || !p.ok) throw new Error((p && p.caption) || "The browser cannot compute this view.");
    s.pending = oneHead(p, ...p.selected);
    return p;
  }

  async function update(ctx) {
    const scaling = (step() && step().own.scaling) || "none";
    try {
      await engineKnobs(ctx);
      const mine = { ...ctx, knobs: { ...ctx.knobs, scaling } };
      const [a, b] = [await draw(left, ctx), await draw(right, mine)];
      if (!ctx.fresh()) return;
      left.title.textContent = "Scaling: " + ctx.knobs.scaling;
      right.title.textContent = "Scaling: " + scaling;
      left.grid.draw(left.pending);
      right.grid.draw(right.pending);
      note.textContent = "";
      record({
        ok: true,
        head: a.selected,
        scalings: [ctx.knobs.scaling, scaling],
        captions: [a.caption, b.caption],
      });
    } catch (e) {
      if (!ctx.fresh()) return;
      note.textContent = warning(e.message);
      record({ ok: false, error: e.message });
    }
  }
  return { element, update };
}
