// The live loop's scheduler (static/live_loop.js) on a fake clock: collapse of changes while
// a request runs, backoff 250 ms doubling to 2 s and back to the start after an answer, the
// last keystroke winning after a refusal, the settled figures after a pause, a change during
// a backoff ending it. Handlers are fakes whose answers the test gives by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BACKOFF_MS, createLoop } from "../../static/live_loop.js";
import { fakeClock, settled } from "./fake_clock.mjs";

const CONFIG = {
  knobs: ["text", "heads", "layer"],
  sliders: ["layer"],
  settle: { text: 500, slider: 150, other: 0 },
  views: {
    explore: { watch: null, title: "Explore" },
    inside: { watch: ["text"], title: "Inside one head" },
  },
  first: "explore",
};
const values = (text, heads = 4, layer = 0) => [text, heads, layer];

// A handler whose every call waits until the test answers it.
function handler() {
  const calls = [];
  const fn = (ctx) => new Promise((resolve) => calls.push({ ctx, resolve }));
  return {
    fn,
    calls,
    async answer(value = true) {
      calls.at(-1).resolve(value);
      await settled();
    },
  };
}

async function setup({ view = "explore", withSettle = false } = {}) {
  const clock = fakeClock();
  const warnings = [];
  const loop = createLoop({ config: () => CONFIG, timers: clock, warn: (m) => warnings.push(m) });
  const update = handler(),
    settle = handler();
  loop.register(
    view,
    withSettle ? { update: update.fn, settle: settle.fn } : { update: update.fn },
  );
  loop.start(values("The cat"));
  if (view !== CONFIG.first) loop.open(view);
  await settled();
  return { clock, loop, update, settle, warnings };
}

test("opening the page updates the open view once, with the values by name", async () => {
  const { update, loop } = await setup();
  assert.equal(update.calls.length, 1);
  assert.deepEqual(update.calls[0].ctx.knobs, { text: "The cat", heads: 4, layer: 0 });
  assert.equal(loop.current(), "explore");
  assert.equal(loop.state().views.explore.running, true);
});

test("changes while a request runs collapse into one more update, with the last values", async () => {
  const { update, loop } = await setup();
  loop.controls(values("The cat s"));
  loop.controls(values("The cat sa"));
  loop.controls(values("The cat sat"));
  await settled();
  assert.equal(update.calls.length, 1, "one request at a time");
  await update.answer(true);
  assert.equal(update.calls.length, 2, "exactly one more");
  assert.equal(update.calls[1].ctx.knobs.text, "The cat sat");
  assert.deepEqual(update.calls[1].ctx.changed, ["text"]);
  await update.answer(true);
  assert.equal(update.calls.length, 2, "nothing new: nothing more");
  assert.equal(loop.state().views.explore.running, false);
});

test("fresh() says whether the values changed since the request was made", async () => {
  const { update, loop } = await setup();
  const ctx = update.calls[0].ctx;
  assert.equal(ctx.fresh(), true);
  loop.controls(values("The dog"));
  assert.equal(ctx.fresh(), false);
});

test("a failure backs off 250 ms, doubling to 2 s, and an answer starts it over", async () => {
  const { update, clock, loop } = await setup();
  assert.deepEqual(BACKOFF_MS, [250, 500, 1000, 2000]);
  const waits = [];
  for (let i = 0; i < 5; i++) {
    const before = update.calls.length;
    await update.answer(false);
    assert.equal(loop.state().views.explore.failing, i + 1);
    const wait = clock.waiting()[0];
    await clock.advance(wait - 1);
    assert.equal(update.calls.length, before, "not asked again before the backoff ends");
    await clock.advance(1);
    assert.equal(update.calls.length, before + 1, "asked again when it ends");
    waits.push(wait);
  }
  assert.deepEqual(waits, [250, 500, 1000, 2000, 2000]);
  assert.equal(loop.state().views.explore.retries, 5);
  await update.answer(true); // an answer: the next failure waits the shortest pause again
  assert.equal(loop.state().views.explore.failing, 0);
  loop.controls(values("The dog"));
  await settled();
  await update.answer(false);
  assert.deepEqual(clock.waiting(), [250]);
});

test("a throwing handler is a failure, retried, and said once as a warning", async () => {
  const clock = fakeClock();
  const warnings = [];
  let n = 0;
  const loop = createLoop({ config: () => CONFIG, timers: clock, warn: (m) => warnings.push(m) });
  loop.register("explore", {
    update: () => {
      n += 1;
      if (n === 1) throw new Error("busy");
      return true;
    },
  });
  loop.start(values("a"));
  await settled();
  assert.equal(n, 1);
  assert.equal(warnings.length, 1);
  await clock.advance(250);
  assert.equal(n, 2);
  assert.equal(loop.state().views.explore.failing, 0);
});

test("a change during the backoff ends it at once: the last keystroke wins", async () => {
  const { update, clock, loop } = await setup();
  await update.answer(false); // refused: a backoff of 250 ms starts
  assert.deepEqual(clock.waiting(), [250]);
  loop.controls(values("The cat sat on"));
  await settled();
  assert.equal(update.calls.length, 2, "asked again without waiting out the backoff");
  assert.equal(clock.now(), 0);
  assert.equal(update.calls[1].ctx.knobs.text, "The cat sat on");
  // what failed is still to be shown (the first load: everything), with what changed meanwhile
  const changed = new Set(update.calls[1].ctx.changed);
  assert.deepEqual(changed, new Set(["*", "mount", "text", "heads", "layer"]));
});

test("after a refusal the retry carries the values as they are then", async () => {
  const { update, clock, loop } = await setup({ view: "inside" });
  assert.equal(update.calls.length, 1);
  await update.answer(false);
  loop.controls(values("The cat", 8)); // a knob Inside does not watch: no wake
  await settled();
  assert.equal(update.calls.length, 1);
  await clock.advance(250);
  assert.equal(update.calls.length, 2);
  assert.equal(update.calls[1].ctx.knobs.heads, 8);
});

test("the settled figures follow once typing pauses, not before", async () => {
  const { update, settle, clock, loop } = await setup({ withSettle: true });
  await update.answer(true);
  assert.equal(settle.calls.length, 0);
  await clock.advance(100);
  loop.controls(values("The cat s")); // typing goes on: the pause starts again
  await settled();
  await update.answer(true);
  await clock.advance(CONFIG.settle.text - 1);
  assert.equal(settle.calls.length, 0, "not before the pause");
  await clock.advance(1);
  assert.equal(settle.calls.length, 1);
  assert.equal(settle.calls[0].ctx.knobs.text, "The cat s");
  await settle.answer(true);
  assert.equal(loop.state().views.explore.running, false);
  // a slider's pause is shorter
  loop.controls(values("The cat s", 4, 2));
  await settled();
  await update.answer(true);
  await clock.advance(CONFIG.settle.slider);
  assert.equal(settle.calls.length, 2);
});

test("a failed settle is asked again after its backoff", async () => {
  const { update, settle, clock } = await setup({ withSettle: true });
  await update.answer(true);
  await clock.advance(CONFIG.settle.text); // the first values count as typing
  assert.equal(settle.calls.length, 1);
  await settle.answer(false);
  await clock.advance(249);
  assert.equal(settle.calls.length, 1);
  await clock.advance(1);
  assert.equal(settle.calls.length, 2);
  assert.equal(update.calls.length, 1, "the fast part is not asked again");
});

test("only the open view works; another catches up when it is opened", async () => {
  const clock = fakeClock();
  const loop = createLoop({ config: () => CONFIG, timers: clock });
  const explore = handler(),
    inside = handler();
  loop.register("explore", { update: explore.fn });
  loop.register("inside", { update: inside.fn });
  loop.start(values("a"));
  await settled();
  await explore.answer(true);
  loop.controls(values("ab"));
  loop.controls(values("ab", 2)); // Inside does not watch heads
  await settled();
  assert.equal(inside.calls.length, 0, "a closed view is not worked on");
  assert.deepEqual(loop.state().views.inside.dirty.sort(), ["*", "mount", "text"]);
  await explore.answer(true); // "ab" shown; the heads change follows, collapsed
  await explore.answer(true);
  assert.equal(explore.calls.length, 3);
  loop.open("inside");
  await settled();
  assert.equal(inside.calls.length, 1);
  assert.equal(inside.calls[0].ctx.knobs.text, "ab");
  await inside.answer(true);
  loop.open("explore"); // nothing Explore watches changed since its last update
  await settled();
  assert.equal(explore.calls.length, 3);
});

test("a view's own control refreshes it; a weak handler never replaces a strong one", async () => {
  const { update, loop } = await setup();
  await update.answer(true);
  loop.register("explore", { update: () => true }, true); // an anchor mounting late
  loop.refresh("explore");
  await settled();
  assert.equal(update.calls.length, 2, "the strong handler was kept");
  assert.deepEqual(update.calls[1].ctx.changed, ["own"]);
});

test("nothing runs before the page's values are known", async () => {
  const clock = fakeClock();
  const loop = createLoop({ config: () => CONFIG, timers: clock });
  const update = handler();
  loop.register("explore", { update: update.fn });
  loop.open("explore");
  await settled();
  assert.equal(update.calls.length, 0);
  loop.controls(values("a"));
  await settled();
  assert.equal(update.calls.length, 1);
});

test("a change the view does not watch still restarts the pause before its settled figures", async () => {
  const { update, settle, clock, loop } = await setup({ view: "inside", withSettle: true });
  await update.answer(true);
  await clock.advance(300);
  loop.controls(values("The cat", 4, 2)); // the Layer slider: Inside does not watch it
  await clock.advance(200); // the first pause is over, but something changed meanwhile
  assert.equal(settle.calls.length, 0);
  await clock.advance(CONFIG.settle.slider);
  assert.equal(settle.calls.length, 1);
  assert.equal(settle.calls[0].ctx.knobs.layer, 2);
});

test("an answer in the middle of a run of failures starts the backoff over", async () => {
  const { update, clock, loop } = await setup();
  await update.answer(false);
  await clock.advance(250);
  await update.answer(false);
  await clock.advance(500);
  loop.controls(values("The cat sat")); // waits for the request under way
  await update.answer(true); // answered: the worker goes on with the change
  assert.equal(update.calls.length, 4);
  await update.answer(false);
  assert.deepEqual(clock.waiting(), [250]);
});
