// Class mode's client (static/class_client.js) against a scripted server: what a page is
// from its address, joining, a student's long poll (following, new leads only, retries, the
// end of the class), the teacher's leads and the class's answers. fetch, storage and sleep
// are fakes: no network, no waiting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RETRY_MS, createClassClient, gates, paced } from "../../static/class_client.js";

// A server that answers each request with the next of `script` ({status, data} or an Error
// to throw), recording what was asked.
function server(script) {
  const asked = [];
  const fetch = async (url, init) => {
    asked.push({
      url,
      method: init.method,
      headers: init.headers,
      body: init.body && JSON.parse(init.body),
    });
    const next = script.shift();
    if (!next) throw new Error("no answer scripted for " + url);
    if (next instanceof Error) throw next;
    return {
      status: next.status ?? 200,
      json: async () => {
        if (next.data === undefined) throw new SyntaxError("not JSON");
        return next.data;
      },
    };
  };
  return { fetch, asked };
}

function storage(entries = {}) {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, v),
    map,
  };
}

function client(script, store = storage()) {
  const s = server(script);
  const slept = [];
  const c = createClassClient({
    fetch: s.fetch,
    storage: store,
    sleep: async (ms) => slept.push(ms),
    base: "ae-class/",
  });
  return { c, asked: s.asked, slept, store };
}

const params = (q) => new URLSearchParams(q);

test("?teach=1 opens a class: the teacher's token stays in this tab, the address says lead", async () => {
  const { c, asked, store } = client([{ data: { code: "ABC234", teacher: "secret" } }]);
  let address = null;
  const page = await c.begin(params("?teach=1"), (q) => (address = q));
  assert.deepEqual(page, { role: "teacher", code: "ABC234", token: "secret" });
  assert.equal(address, "?class=ABC234&lead=1");
  assert.equal(store.getItem("ae-class-ABC234"), "secret");
  assert.deepEqual([asked[0].method, asked[0].url], ["POST", "ae-class/open"]);
});

test("a refused ?teach=1 leaves the page alone", async () => {
  const { c } = client([{ status: 429, data: { ok: false, message: "Too many classes" } }]);
  assert.equal(await c.begin(params("?teach=1")), null);
});

test("?class=CODE is a student; with lead=1 the teacher again, only with this tab's token", async () => {
  const { c, asked } = client([], storage({ "ae-class-ABC234": "secret" }));
  assert.deepEqual(await c.begin(params("?class=abc234")), { role: "student", code: "ABC234" });
  assert.deepEqual(await c.begin(params("?class=ABC234&lead=1")), {
    role: "teacher",
    code: "ABC234",
    token: "secret",
  });
  assert.deepEqual(await c.begin(params("?class=XYZ789&lead=1")), {
    role: "student",
    code: "XYZ789",
  });
  assert.equal(await c.begin(params("?class=not-a-code")), null);
  assert.equal(await c.begin(params("?other=1")), null);
  assert.equal(asked.length, 0, "none of these asks the server");
});

test("joining: a new student is kept for the tab; a reload follows as the same one", async () => {
  const { c, asked, store } = client([{ data: { ok: true, student: "s-1" } }]);
  assert.deepEqual(await c.join("ABC234"), { student: "s-1" });
  assert.equal(store.getItem("ae-student-ABC234"), "s-1");
  assert.deepEqual(await c.join("ABC234"), { student: "s-1" });
  assert.equal(asked.length, 1, "the second join asks nothing");
});

test("joining an unknown or ended class says why", async () => {
  const { c } = client([{ status: 404, data: { ok: false, message: "No class ABC234." } }]);
  assert.deepEqual(await c.join("ABC234"), { ended: "No class ABC234." });
  const other = client([{ status: 502 }]); // an HTML error page: no JSON
  assert.deepEqual(await other.c.join("ABC234"), { ended: "Could not join this class." });
});

test("following: each new lead once, retries after failures, ends with the class", async () => {
  const lead = (version, step) => ({ data: { ok: true, version, state: { step, view: "start" } } });
  const { c, asked, slept } = client([
    new TypeError("network down"),
    { status: 503, data: { ok: false, message: "busy" } },
    lead(1, 2),
    lead(1, 2), // the long poll timed out with nothing new
    { data: { ok: true, version: 1 } }, // no state yet
    lead(3, 4),
    { status: 410, data: { ok: false, ended: true, message: "The class has ended." } },
  ]);
  const got = [];
  const message = await c.follow("ABC234", (s) => got.push(s));
  assert.equal(message, "The class has ended.");
  assert.deepEqual(got, [
    { step: 2, view: "start", version: 1 },
    { step: 4, view: "start", version: 3 },
  ]);
  assert.deepEqual(slept, [RETRY_MS, RETRY_MS]);
  const since = asked.map((a) => new URL(a.url, "http://x/").searchParams.get("since"));
  assert.deepEqual(since, ["0", "0", "0", "1", "1", "1", "3"]);
});

test("following an unknown class (a server restarted) stops with its words", async () => {
  const { c } = client([{ status: 404, data: { ok: false, ended: true } }]);
  assert.equal(await c.follow("ABC234", () => assert.fail("no lead")), "This class has ended.");
});

test("leading: a state is sent once, with the teacher's token; a failure is sent again", async () => {
  const { c, asked } = client([
    { data: { ok: true, version: 1 } },
    { status: 500, data: { ok: false, message: "oops" } },
    { data: { ok: true, version: 2 } },
    { status: 410, data: { ok: false, ended: true, message: "Ended by the teacher." } },
  ]);
  const leader = c.leader("ABC234", "secret");
  const a = { step: 1, view: "start", text: "", knobs: {} };
  const b = { ...a, step: 2 };
  assert.deepEqual(await leader.push(a), { sent: 1 });
  assert.equal(await leader.push(a), "same");
  assert.equal(await leader.push(b), "failed");
  assert.deepEqual(await leader.push(b), { sent: 2 }, "not taken: sent again");
  assert.deepEqual(await leader.push(a), { ended: "Ended by the teacher." });
  assert.equal(asked.length, 4);
  assert.equal(asked[0].headers["X-AE-Teacher"], "secret");
  assert.deepEqual(asked[0].body, { state: a });
  assert.equal(asked[0].url, "ae-class/ABC234/lead");
});

test("the class's answers: counts and shares per choice, in the step's order", async () => {
  const { c, asked } = client([
    { data: { ok: true, answered: 4, students: 5, counts: { yes: 3, no: 1 } } },
    { status: 403, data: { ok: false } },
  ]);
  const step = { choices: ["no", "yes", "maybe"] };
  assert.deepEqual(await c.answers("ABC234", "secret", 2, step), {
    answered: 4,
    students: 5,
    rows: [
      { choice: "no", count: 1, share: 0.25 },
      { choice: "yes", count: 3, share: 0.75 },
      { choice: "maybe", count: 0, share: 0 },
    ],
    who: [],
    hidden: false,
    released: false,
    hideCounts: false,
  });
  assert.equal(asked[0].url, "ae-class/ABC234/answers?step=2");
  assert.equal(await c.answers("ABC234", "wrong", 2, step), null);
});

test("a student's prediction: true once the server took it", async () => {
  const { c, asked } = client([{ data: { ok: true } }, { status: 400, data: { ok: false } }]);
  assert.equal(await c.answer("ABC234", "s-1", 3, "yes"), true);
  assert.deepEqual(asked[0].body, { student: "s-1", step: 3, choice: "yes" });
  assert.equal(await c.answer("ABC234", "s-1", 3, "nonsense"), false);
});

// ------------------------------------------------ the teacher holds the pace and the answer

test("hidden counts: who answered and how many, no rows; the class's flags come along", async () => {
  const { c } = client([
    {
      data: {
        answered: 2,
        students: 3,
        counts: {},
        who: ["<b>Ann</b>", "student 2"],
        hidden: true,
        released: true,
        hide_counts: true,
      },
    },
  ]);
  const got = await c.answers("ABC234", "secret", 2, { choices: ["no", "yes"] });
  assert.deepEqual(got, {
    answered: 2,
    students: 3,
    rows: [],
    who: ["<b>Ann</b>", "student 2"],
    hidden: true,
    released: true,
    hideCounts: true,
  });
});

test("the teacher's pace and reset: sent with the token, the server's flags back", async () => {
  const { c, asked } = client([
    { data: { released: true, hide_counts: false } },
    { status: 403, data: { ok: false } },
    { data: { ok: true } },
    { status: 400, data: { ok: false } },
  ]);
  assert.deepEqual(await c.pace("ABC234", "secret", { released: true }), {
    released: true,
    hide_counts: false,
  });
  assert.equal(asked[0].url, "ae-class/ABC234/pace");
  assert.equal(asked[0].method, "POST");
  assert.equal(asked[0].headers["X-AE-Teacher"], "secret");
  assert.deepEqual(asked[0].body, { released: true });
  assert.equal(await c.pace("ABC234", "wrong", { hide_counts: true }), null);
  assert.equal(await c.reset("ABC234", "secret", 3), true);
  assert.deepEqual(asked[2].body, { step: 3 });
  assert.equal(asked[2].url, "ae-class/ABC234/reset");
  assert.equal(await c.reset("ABC234", "secret", 99), false);
});

test("a held class: no Reveal, no Next; choices until the teacher's reveal opens the answer", () => {
  const asked = { step: 2, revealed: false, released: false, resets: 0 };
  assert.deepEqual(gates(asked, true), {
    held: true,
    revealed: false,
    choices: true,
    round: "2/0",
  });
  const revealed = gates({ ...asked, revealed: true }, true);
  assert.equal(revealed.held, true);
  assert.equal(revealed.revealed, true);
  assert.equal(revealed.choices, false);
  // exploring on one's own: still held, and the teacher's reveal does not open it
  assert.deepEqual(gates({ ...asked, revealed: true }, false), {
    held: true,
    revealed: false,
    choices: false,
    round: "",
  });
  // no step yet (or no lead at all): nothing to predict, still held
  assert.deepEqual(gates(null, true), { held: true, revealed: false, choices: false, round: "" });
  // a reset of the votes is a new round: the choices are offered afresh
  assert.notEqual(gates({ ...asked, resets: 1 }, true).round, gates(asked, true).round);
  assert.equal(gates({ ...asked, released: true }, true).held, false);
});

test("a release lets every student go; holding the class again brings them all back", () => {
  let now = { following: true, released: false };
  const lead = (s) => (now = paced(now, { step: 2, revealed: false, resets: 0, ...s }));
  assert.deepEqual(lead({ released: false }), { following: true, released: false });
  assert.deepEqual(lead({ released: true }), { following: false, released: true });
  // "Follow again" while released: the next lead keeps the student following
  now = { ...now, following: true };
  assert.deepEqual(lead({ released: true, step: 3 }), { following: true, released: true });
  now = { ...now, following: false };
  assert.deepEqual(lead({ released: true, step: 4 }), { following: false, released: true });
  assert.deepEqual(lead({ released: false }), { following: true, released: false });
  // a student exploring on their own in a held class stays where they chose
  now = { following: false, released: false };
  assert.deepEqual(lead({ released: false, step: 5 }), { following: false, released: false });
});
