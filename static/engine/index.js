// The browser engine's one entry (scripts/build_js.mjs bundles it into static/build/engine.js,
// which the app's /ae-engine/ route serves; the static edition's site.js imports it). It adds
// to window.AttentionExplorer, merged with what is there, the engine's public interface,
// for the page's scripts, the tests and anyone embedding the engine:
//
//   AttentionExplorer.tokenizer    {fromJSON(obj), load(url), MAX_CHARS, Tokenizer}
//                                  (static/engine/tokenizer.js)
//   AttentionExplorer.model        {parseSafetensors(buffer), Transformer, alibiSlopes}
//                                  (static/engine/model.js, safetensors.js)
//   AttentionExplorer.engine       {configure, load, loaded, run, runTyped, loss, rank,
//                                  patch, ablate, shuffle, snapshot} (engine.js; the same
//                                  knobs for all; knobs.snapshot: a training snapshot instead):
//     configure({base, urls, simd, read, hashes}): hashes is file name ("causal-h4-rotary.
//        safetensors", "tokenizer.json") -> sha256 hex; a file with a known hash is refused,
//        in plain words ("The model file … is damaged …"), when its bytes do not match
//     await run(text, knobs) -> {tokens, ids, patterns [layer][head][query][key], guesses}
//     await run(text, {...knobs, layer, head, detail: true}) -> also detail: {layer, head
//        (clamped to the model), stages: {x, q, k, v, rot_q, rot_k (rotary only), scores,
//        scaled, masked, pattern, z, concat, out}}, each stage {key, step, title, formula,
//        hook, captured, capturedDims, values [row][col], shape, dims, shapeText, square,
//        blocked [query][key] (masked, pattern), headColumns (concat)}: Inside one head
//        (explorer.analysis.stages; masked holds -Infinity where blocked). Without detail
//        a run does nothing more than before (stages.js)
//     await loss(text, knobs) -> {loss, positions, how}: explorer.analysis.losses' loss
//        (next-word mean cross-entropy; masked-word: each word hidden in turn, at most 16),
//        heads_off switched off; loss null, positions 0 and ``how`` the reason when none
//     await rank(text, knobs) -> {base, positions, how, heads: [{layer, head, loss, delta}]}:
//        every head switched off alone (knobs' heads_off ignored), the largest loss rise
//        (delta) first, ties by layer then head: the Ablate view's ranking (losses.js)
//     await patch(clean, corrupt, {...knobs, patchHead: {layer, head}}) -> {answer, wrong
//        (token ids), answerToken, wrongToken, ld_clean, ld_corrupt, sameGuess, heads
//        [layer][head], positions [layer][pos] (shares restored; null when the logit
//        differences are under MIN_GAP = 1 apart), patched {layer, head, ld, guess} (the
//        head patchHead names, else the best), guesses [{token, corrupted, patched}] (the
//        Patch view's rows; null with heads), tokens, corruptTokens}:
//        explorer.analysis.patching.patch on a next-word model (patching.js); a
//        masked-word model, or sentences of different token counts, are refused (Error)
//     await ablate(text, knobs) -> {tokens, predictAt, headsOff, guesses [{token, on, off}]
//        (the union of both top-8: probability with every head on, and with heads_off off),
//        top {was, wasOn, wasOff, now, nowOff} | null, lossOn, lossOff, positions, how}:
//        explorer.views.ablate.ablate and its guess_change's numbers (ablation.js)
//     await shuffle(text, {...knobs, layer, head, seed}) -> {tokens, shuffledTokens, perm
//        (null: one word), layer, head, original, shuffled, restored [query][key],
//        maxDiffHead, maxDiffAll, topChanged}: the Positional encodings view's word-shuffle
//        test (explorer.analysis.positional_views.shuffle_from_ids), mask off, the words
//        shuffled as numpy's default_rng(seed) shuffles them (shuffle.js, numpy_random.js)
//     await snapshot(text, {...knobs, model, snapshot: "step_00059.safetensors"}) -> {previous
//        {layer, head, share}, baseline, copy {layer, head, score} | null, prevShare
//        [layer][head], copyScores [layer][head] | null, tokens, n}: the Through training
//        view's numbers on that training snapshot of the model (its file snapshots/<model>/
//        <snapshot>, hash keyed so): explorer.analysis.snapshots (snapshots.js). With
//        knobs.snapshot, run and runTyped run the snapshot too
//   AttentionExplorer.payload      {setTexts, configure, texts, displayToken, plainLabel,
//                                  knobsOf} (payload.js)
//   AttentionExplorer.gridPayload  (text, controls, opts) -> payload | null (payload.js)
//   AttentionExplorer.engineReady  a promise, settled once all of the above is there and
//                                  configured; also the event "ae-engine-ready" on window
//   AttentionExplorer.gridInBrowser  true where a page's configuration asked the engine to
//                                  compute the Explore grid (static/explore_grid.js reads it)
//
// A page configures the engine with JSON, not code: an element
// <script type="application/json" id="ae-engine-config">{"urls": {name: url}, "hashes":
// {file name: sha256}, "texts": url, "model": name}</script> placed before this script
// (explorer/server/engine_route.py writes it into Gradio's head, whose elements are added in
// order). With it, the engine takes its files from those URLs, checked against those
// hashes, and once the page is idle fetches the default model, the tokenizer and the
// caption's texts; other models on first use. Without it (the static edition, tests) the
// caller configures the engine itself (static/site/site.js: base and hashes).
import { createEngine } from "./engine.js";
import { alibiSlopes, Transformer } from "./model.js";
import { createPayload } from "./payload.js";
import { parseSafetensors } from "./safetensors.js";
import * as tokenizer from "./tokenizer.js";

export const CONFIG_ID = "ae-engine-config";
export const READY_EVENT = "ae-engine-ready";

function attach() {
  const AE = (globalThis.AttentionExplorer = globalThis.AttentionExplorer || {});
  if (AE.engine) return AE; // loaded twice: the first copy keeps its models in memory
  const engine = createEngine();
  const payload = createPayload(engine);
  const { gridPayload, ...payloadApi } = payload;
  return Object.assign(AE, {
    tokenizer: {
      fromJSON: tokenizer.fromJSON,
      load: tokenizer.load,
      MAX_CHARS: tokenizer.MAX_CHARS,
      Tokenizer: tokenizer.Tokenizer,
    },
    model: { parseSafetensors, Transformer, alibiSlopes },
    engine,
    payload: payloadApi,
    gridPayload,
  });
}

// The page's JSON configuration (see the header), if it has one.
function configureFromPage(AE) {
  const element = globalThis.document && document.getElementById(CONFIG_ID);
  if (!element) return;
  const config = JSON.parse(element.textContent);
  AE.engine.configure({ urls: config.urls, hashes: config.hashes });
  AE.payload.configure({ textsUrl: config.texts });
  AE.gridInBrowser = true;
  const idle = globalThis.requestIdleCallback || ((f) => setTimeout(f, 200));
  idle(() => {
    AE.engine.runTyped("", { model: config.model }).catch(() => {}); // model + tokenizer
    AE.payload.texts().catch(() => {});
  });
}

export const AE = attach();
if (!AE.engineReady) {
  configureFromPage(AE);
  AE.engineReady = Promise.resolve(AE);
  if (globalThis.dispatchEvent) globalThis.dispatchEvent(new Event(READY_EVENT));
}
export const { engine, payload, gridPayload } = AE;
