// Step 4's figure (an Explore step that turns a knob away from training, static/site/
// figures.js): the sentence's loss as trained, with the knobs now, and with the large head
// switched off too, as the app's guesses legend gives the first two (engine.loss:
// explorer.analysis.losses' loss). Lower = easier to guess.
//
//   <div class="ae-figure" id="losses-figure">
//     <p> what the numbers are   <ol id="losses"> three rows: what, the loss
import { engine } from "../engine/index.js";
import { CONFIG, el, warning } from "./page_config.js";

// the knobs as the models were trained (the page's defaults)
const { mask, scaling, temperature } = CONFIG.defaults;
const AS_TRAINED = { mask, scaling, temperature };

export function make(holder, { engineKnobs, record }) {
  const intro = el("p", {});
  const list = el("ol", { id: "losses", className: "ae-losses" });
  const element = el("div", { className: "ae-figure", id: "losses-figure" }, intro, list);
  holder.appendChild(element);

  function row(what, loss) {
    return el("li", {}, what + ": ", el("strong", {}, loss == null ? "–" : loss.toFixed(2)));
  }

  async function update(ctx) {
    try {
      const now = await engineKnobs(ctx, { headsOff: ctx.headsOff });
      const trainedCtx = { ...ctx, knobs: { ...ctx.knobs, ...AS_TRAINED } };
      const trained = await engineKnobs(trainedCtx);
      const large = [now.layer, now.head];
      const text = ctx.knobs.text;
      const [a, b, c] = [
        await engine.loss(text, trained),
        await engine.loss(text, now),
        await engine.loss(text, { ...now, heads_off: [...now.heads_off, large] }),
      ];
      if (!ctx.fresh()) return;
      intro.textContent =
        a.loss == null
          ? warning(a.how)
          : `This sentence's loss (${a.how}; lower = easier to guess):`;
      list.replaceChildren(
        row("as trained", a.loss),
        row(`with the knobs now (causal mask: ${ctx.knobs.mask})`, b.loss),
        row(`and the large head, L${large[0]} H${large[1]}, off too`, c.loss),
      );
      record({ ok: true, trained: a.loss, now: b.loss, largeOff: c.loss, large });
    } catch (e) {
      if (!ctx.fresh()) return;
      intro.textContent = warning(e.message);
      list.replaceChildren();
      record({ ok: false, error: e.message });
    }
  }
  return { element, update };
}
