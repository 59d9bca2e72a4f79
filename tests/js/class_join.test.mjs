// Joining a class (static/class_join.js): a typed code's normal form, what the box says for
// what was typed, the server's 404 (unknown) and 410 (ended) in words that say which, what the
// page's address asks for (?join, ?class=CODE, a malformed code) and the short address on the
// projector. The server is a fake `call`: no network.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  MAX_TYPED,
  entry,
  normalCode,
  probe,
  refusal,
  shortAddress,
  tryCode,
  typed,
} from "../../static/class_join.js";

const params = (q) => new URLSearchParams(q);

test("a code typed in any case, with spaces or dashes, is the class's code", () => {
  assert.equal(normalCode("k7px2m"), "K7PX2M");
  assert.equal(normalCode("  k7p x2m "), "K7PX2M");
  assert.equal(normalCode("K7P-X2M"), "K7PX2M");
  assert.equal(normalCode("k\t7p\nx2m"), "K7PX2M");
});

test("anything else is not a code: too short, too long, other characters, not text", () => {
  for (const bad of ["", "K7PX2", "K7PX2MM", "K7PX2!", "K7P<2M", "k7px0m", null, 42, undefined]) {
    assert.equal(normalCode(bad), null, String(bad));
  }
  // bounded: a long paste is not looked at, even if it would shrink to a code
  assert.equal(normalCode(" ".repeat(MAX_TYPED) + "K7PX2M"), null);
});

test("the box says what was wrong with what was typed, as text", () => {
  assert.deepEqual(typed("k7p x2m"), { code: "K7PX2M" });
  assert.match(typed("   ").message, /Type the class code/);
  const said = typed("<img src=x onerror=alert(1)>").message;
  assert.match(said, /is not a class code: a code is 6 letters and digits/);
  assert.ok(said.includes("“<img src=x o…”"), said); // echoed bounded, as plain text
  assert.ok(typed("x".repeat(5000)).message.length < 120);
});

test("the server's answer says which: unknown (404), ended (410), or nothing to say", () => {
  assert.equal(
    refusal(404, { ended: true }, "K7PX2M"),
    "No class has the code K7PX2M: check it with your teacher.",
  );
  assert.match(refusal(410, { ended: true }, "K7PX2M"), /^This class \(K7PX2M\) has ended/);
  assert.equal(refusal(404, { message: "No such class request." }, "K7PX2M"), null);
  assert.equal(refusal(200, { version: 1 }, "K7PX2M"), null);
  assert.equal(refusal(429, {}, "K7PX2M"), null); // busy: the follower's retries take over
});

function fake(answers) {
  const asked = [];
  const call = async (method, path) => {
    asked.push([method, path]);
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  };
  return { call, asked };
}

test("probing a class asks one follow that answers at once", async () => {
  const ok = fake([{ status: 200, data: { version: 0, state: {} } }]);
  assert.equal(await probe(ok.call, "K7PX2M"), null);
  assert.deepEqual(ok.asked, [["GET", "K7PX2M/follow?since=-1"]]);
  const gone = fake([{ status: 410, data: { ended: true, message: "This class has ended." } }]);
  assert.match(await probe(gone.call, "K7PX2M"), /has ended/);
  const away = fake([new TypeError("Failed to fetch")]);
  assert.equal(await probe(away.call, "K7PX2M"), null);
});

test("the box: a malformed code asks nothing; an unknown one says so; a known one goes on", async () => {
  const none = fake([]);
  assert.match((await tryCode("K7PX", none.call)).message, /not a class code/);
  assert.equal(none.asked.length, 0);
  const unknown = fake([{ status: 404, data: { ended: true } }]);
  assert.deepEqual(await tryCode("abc 234", unknown.call), {
    message: "No class has the code ABC234: check it with your teacher.",
  });
  const known = fake([{ status: 200, data: { version: 3 } }]);
  assert.deepEqual(await tryCode(" abc-234 ", known.call), { code: "ABC234" });
});

test("the address: ?join asks, ?class=CODE follows (normalised), a malformed code asks again", () => {
  assert.deepEqual(entry(params("?join")), { ask: { value: "", message: "" } });
  assert.equal(entry(params("?join=" + "k".repeat(99))).ask.value.length, MAX_TYPED);
  const follows = entry(params("?class=abc%20234&lead=1"));
  assert.equal(follows.params.get("class"), "ABC234");
  assert.equal(follows.params.get("lead"), "1");
  assert.ok(entry(params("?teach=1")).params);
  const bad = entry(params("?class=" + "<b>".repeat(30)));
  assert.equal(bad.ask.value.length, MAX_TYPED);
  assert.match(bad.ask.message, /not a class code/);
});

test("the projector's short address: host, path and ?join", () => {
  assert.equal(shortAddress("http://192.168.1.20:7860/?class=ABC234"), "192.168.1.20:7860/?join");
  assert.equal(shortAddress("https://x.org/app/?class=ABC234"), "x.org/app/?join");
  assert.equal(shortAddress("not a link"), "?join");
});
