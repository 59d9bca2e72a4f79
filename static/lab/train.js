// The Lab's training run in JavaScript: explorer/training/lab.py's run_lab, the same steps
// and the same events, on the math of this folder (no Worker yet: the caller runs it where
// it likes). A run is fixed by its settings and seed, as in Python; it is not Python's run
// (the Lab's own generator draws the weights and the batches).
//
//   await train(settings, {onEvent, signal, shouldStop, withProbe, now}) -> the summary
//   makeRun(settings) -> {settings, config, params, step() -> loss, measure(probe) -> {...}}
// Events, as lab.py's: {kind: "start" | "update", step, seconds (of training only),
// wall_s, loss_copy, loss_fresh, previous_token and induction [layer][head],
// best_induction, best_previous_token, formed_now?, formed_at_step, probe? [layer][head]
// [q][k] in whole percent}; then the summary {kind: "done", settings, steps, seconds,
// wall_s, stopped, timed_out, formed, formed_at_step, formed_at_s, best_induction,
// best_previous_token, final, chance_loss}. An update comes every update_s of training, or
// every update_every steps if that is set (then at the same steps on any device). The run
// ends at max_steps; at ``seconds`` of training only if a cap is set (then timed_out and
// stopped: a run cut short is not a result); or when ``signal`` (an AbortSignal) or
// ``shouldStop()`` says so (checked before every step; the loop yields to the event loop at
// each event, so an abort sent meanwhile lands).
import { makeAdamW } from "./adamw.js";
import { backward } from "./backward.js";
import { forward, lossWeights } from "./forward.js";
import { initParams, labConfig, labSettings, zerosLike } from "./params.js";
import { makeRng } from "./rng.js";
import { copyQueries, FORMED, inductionScores, previousTokenScores } from "./scores.js";
import { makeTape } from "./tape.js";
import { probe, repeatBatch, repeatTask } from "./task.js";

export const HELD_OUT_SEED = 10000; // held-out sequences: a generator no run's seeds use
export const HELD_OUT = 64; // held-out sequences scored at each event

const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;
const grid = (scores, H) =>
  Array.from({ length: scores.length / H }, (_, l) =>
    Array.from(scores.subarray(l * H, (l + 1) * H), (v) => round(v, 3)),
  );

function meanWhere(values, mask) {
  let sum = 0,
    count = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) {
      sum += values[i];
      count++;
    }
  }
  return count ? sum / count : NaN;
}

// the model's weights from seed 2s, its batches from 2s + 1: two streams of one seed
export function makeRun(partial) {
  const settings = labSettings(partial),
    config = labConfig(settings),
    task = repeatTask({ vocab_size: settings.vocab, n_ctx: settings.n_ctx });
  const params = initParams(config, makeRng(2 * settings.seed));
  const grads = zerosLike(params),
    opt = makeAdamW(params, { lr: settings.lr }),
    batches = makeRng(2 * settings.seed + 1),
    tape = makeTape(config, settings.batch, settings.n_ctx);
  const held = repeatBatch(task, HELD_OUT, makeRng(HELD_OUT_SEED));
  const heldTape = makeTape(config, HELD_OUT, settings.n_ctx),
    heldWeights = lossWeights(held.copy, false),
    queries = copyQueries(held.copy, HELD_OUT, settings.n_ctx);
  return {
    settings,
    config,
    params,
    task,
    step() {
      const b = repeatBatch(task, settings.batch, batches);
      const weights = lossWeights(b.copy, settings.copy_loss_only);
      const loss = forward(params, config, tape, b.tokens, weights);
      backward(params, config, tape, b.tokens, weights, grads);
      opt.step(grads);
      return loss;
    },
    measure(probeTokens) {
      forward(params, config, heldTape, held.tokens, heldWeights);
      const patterns = heldTape.layers.map((L) => L.P),
        dims = { batch: HELD_OUT, n: settings.n_ctx, n_heads: config.n_heads };
      const previous = previousTokenScores(patterns, dims),
        induction = inductionScores(patterns, dims, held.tokens, queries);
      const out = {
        loss_copy: round(meanWhere(heldTape.losses, held.copy), 4),
        loss_fresh: round(meanWhere(heldTape.losses, held.fresh), 4),
        previous_token: grid(previous, config.n_heads),
        induction: grid(induction, config.n_heads),
        best_induction: round(Math.max(...induction), 3),
        best_previous_token: round(Math.max(...previous), 3),
      };
      if (probeTokens) out.probe = probePatterns(params, config, probeTokens);
      return out;
    },
  };
}

// every head's pattern on the probe sequence: [layer][head][q][k] in whole percent
function probePatterns(params, config, tokens) {
  const n = tokens.length,
    H = config.n_heads,
    tape = makeTape(config, 1, n);
  forward(params, config, tape, tokens, new Float64Array(n - 1));
  return tape.layers.map((L) =>
    Array.from({ length: H }, (_, h) =>
      Array.from({ length: n }, (_, q) =>
        Array.from({ length: n }, (_, k) => Math.round(L.P[(h * n + q) * n + k] * 100)),
      ),
    ),
  );
}

function summary(run, state, formed, best, last, wallS) {
  const keys = ["loss_copy", "loss_fresh", "best_induction", "best_previous_token"];
  return {
    kind: "done",
    settings: run.settings,
    steps: state.step,
    seconds: round(state.seconds, 3),
    wall_s: round(wallS, 3),
    stopped: state.stopped || state.timed_out, // a time cap's cut is no result either
    timed_out: state.timed_out,
    formed: formed !== null,
    formed_at_step: formed && formed.step,
    formed_at_s: formed && round(formed.seconds, 3),
    best_induction: round(best.induction, 3),
    best_previous_token: round(best.previous_token, 3),
    final: Object.fromEntries([...keys, "induction", "previous_token"].map((k) => [k, last[k]])),
    chance_loss: round(Math.log(run.settings.vocab - 1), 4),
  };
}

export async function train(partial, options = {}) {
  const { onEvent = () => {}, signal = null, shouldStop = null, withProbe = false } = options;
  const now = options.now || (() => performance.now() / 1000);
  const run = makeRun(partial),
    s = run.settings,
    started = now();
  const probeTokens = withProbe ? probe(run.task, makeRng(0)) : null;
  const state = { step: 0, seconds: 0, stopped: false, timed_out: false };
  const best = { induction: 0, previous_token: 0 };
  let formed = null,
    last = {},
    nextUpdate = 0;
  const update = (kind) => {
    const event = { kind, step: state.step, seconds: round(state.seconds, 3) };
    event.wall_s = round(now() - started, 3);
    Object.assign(event, run.measure(probeTokens));
    best.induction = Math.max(best.induction, event.best_induction);
    best.previous_token = Math.max(best.previous_token, event.best_previous_token);
    if (formed === null && event.best_induction >= FORMED) {
      formed = { step: state.step, seconds: state.seconds };
      event.formed_now = true;
    }
    event.formed_at_step = formed && formed.step;
    onEvent((last = event));
  };
  update("start");
  while (state.step < s.max_steps) {
    if (s.seconds && state.seconds >= s.seconds) {
      state.timed_out = true; // a run cut short by its time cap is not a result
      break;
    }
    if ((signal && signal.aborted) || (shouldStop && shouldStop())) {
      state.stopped = true;
      break;
    }
    const t0 = now();
    run.step();
    state.seconds += now() - t0;
    state.step += 1;
    const due = s.update_every ? state.step % s.update_every === 0 : state.seconds >= nextUpdate;
    if (due) {
      update("update");
      nextUpdate = state.seconds + s.update_s;
      await new Promise((resolve) => setTimeout(resolve, 0)); // let an abort land
    }
  }
  if (last.step !== state.step) update("update");
  const done = summary(run, state, formed, best, last, now() - started);
  onEvent(done);
  return done;
}
