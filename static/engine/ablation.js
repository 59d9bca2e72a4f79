// Heads switched off on one sentence, in the browser: the second implementation of
// explorer/views/ablate.py's ablate (with prediction_rows and the numbers of guess_change),
// so that the static edition's step 3 shows the Ablate view's guesses before -> after and
// its loss. Parity: tests/js/shuffle.test.mjs (Node, tiny models, tiny_steps.json) and
// tests/engine/test_detail_patch_parity_browser.py (Chromium, the zoo).
//
//   sentenceAblation(tokenizer, model, text, settings) -> {
//     tokens, predictAt (null: nothing to guess: a masked-word model with no [mask]),
//     headsOff (settings.headsOff),
//     guesses: [{token, on, off}]  the union of both top-8, each with its probability with
//         every head on and with headsOff off, the likelier first (prediction_rows),
//     top: {was, wasOn, wasOff, now, nowOff} | null  the top guess with every head on (its
//         probability before and after) and the top guess with headsOff off,
//     lossOn, lossOff, positions, how}  the sentence's loss both ways (losses.js; null, 0
//         and the reason when there is none)
//
// ``settings``: the model's knobs ({causal, scale, temperature, headsOff}); "on" is the
// same without headsOff. With no head off, "off" is "on" (one pass, as Python).
import { sentenceLoss } from "./losses.js";
import { argmax, predictionRows, softmax } from "./patching.js";

// the guessed position of prepared ids (explorer.views.compare.run)
function guessedAt(tokenizer, ids, causal) {
  if (!ids.length) return null;
  if (causal) return ids.length - 1;
  const at = ids.indexOf(tokenizer.maskId);
  return at < 0 ? null : at;
}

/** The Ablate view's numbers for ``settings.headsOff`` on ``text`` (see the header). */
export function sentenceAblation(tokenizer, model, text, settings) {
  const c = model.config;
  text = text == null ? "" : String(text);
  const prep = tokenizer.prepare(text, { nCtx: c.n_ctx, maskedWord: !c.causal });
  const headsOff = settings.headsOff || [];
  const on = { ...settings, headsOff: [] };
  const at = guessedAt(tokenizer, prep.ids, c.causal);
  const out = { tokens: prep.pieces, predictAt: at, headsOff, guesses: [], top: null };
  if (at != null) {
    const pOn = softmax(model.forward(prep.ids, on, at).logits);
    const pOff = headsOff.length ? softmax(model.forward(prep.ids, settings, at).logits) : pOn;
    out.guesses = predictionRows(tokenizer, pOn, pOff).map((r) => ({
      token: r.token,
      on: r.corrupted,
      off: r.patched,
    }));
    const before = argmax(pOn),
      after = argmax(pOff);
    out.top = {
      was: tokenizer.decode([before]),
      wasOn: pOn[before],
      wasOff: pOff[before],
      now: tokenizer.decode([after]),
      nowOff: pOff[after],
    };
  }
  const lossOn = sentenceLoss(tokenizer, model, text, on);
  const lossOff = headsOff.length ? sentenceLoss(tokenizer, model, text, settings) : lossOn;
  return {
    ...out,
    lossOn: lossOn.loss,
    lossOff: lossOff.loss,
    positions: lossOn.positions,
    how: lossOn.how,
  };
}
