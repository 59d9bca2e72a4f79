// Class mode's talk with the server (explorer/server/class_route.py, /ae-class/...), as a
// state machine with no DOM: what a page is (teacher, student, neither), joining, the
// student's long poll for leads, the teacher's leads, the class's answers. fetch, storage
// and sleep are injected (the page passes its own; tests/js/class.test.mjs fakes them).
// static/class.js and its parts draw what this says.
//
// createClassClient({fetch, storage, sleep, base}) -> client
//   call(method, path, body, teacher)   -> {status, data} (data {} when not JSON)
//   begin(params, replaceUrl)  what the address asks: {role: "teacher", code, token} (a new
//        class opened, ?teach=1, or ?class=CODE&lead=1 with this tab's token),
//        {role: "student", code} (?class=CODE), or null (nothing, or a code of the wrong form)
//   join(code)            -> {student} (kept in storage: a reload follows as the same
//                           student) or {ended: message}
//   follow(code, onLead, stopped)   the student's long poll: each new lead (state with its
//        version) goes to onLead; returns the server's words once the class has ended (or
//        is unknown); a failure or refusal waits RETRY_MS and asks again
//   leader(code, token)   -> {push(state)}: sends a lead when it differs from the last one
//        sent: "sent" ({version}), "same", "failed" or {ended: message}
//   answers(code, token, n, step)  -> {answered, students, rows: [{choice, count, share}],
//        who, hidden, released, hideCounts} for step n (its choices from the page's
//        config; rows empty while the counts are hidden), or null
//   answer(code, student, n, choice)  -> true when the server took the prediction
//   pace(code, token, {released?, hide_counts?})  the teacher lets the class explore (or
//        holds it again) and hides the counts until the reveal: -> {released, hide_counts}
//        as they now are, or null
//   reset(code, token, n)  the teacher forgets step n's votes -> true when done
//
// The teacher holds the pace and the answer (issue 49 item 2); two pure functions say what a
// student's page does with a lead (its state carries released and resets, never an answer):
//   paced(prev, state)  -> {following, released}: a release lets every student go (they
//        explore on their own), a hold brings every one back; otherwise as before
//   gates(state, following)  -> what the page offers: {held} (no Reveal, no Next step, no
//        All steps, no step list), {revealed} (open the answer: only the teacher's reveal,
//        while following), {choices} (the step's choices to predict with), {round} (the
//        choices offered afresh when it changes: the step and its votes' resets)
export const CODE = /^[A-Z2-9]{6}$/;
export const RETRY_MS = 2000;

export class ClassClient {
  constructor({ fetch, storage, sleep, base = "ae-class/" }) {
    Object.assign(this, { fetch, storage, sleep, base });
    this.call = this.call.bind(this); // handed on alone (static/class_lab.js)
  }

  async call(method, path, body, teacher) {
    const headers = { "Content-Type": "application/json" };
    if (teacher) headers["X-AE-Teacher"] = teacher;
    const r = await this.fetch(this.base + path, {
      method,
      headers,
      cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = {};
    try {
      data = await r.json();
    } catch {
      /* an HTML error page: no JSON */
    }
    return { status: r.status, data: data || {} };
  }

  async begin(params, replaceUrl = () => {}) {
    const code = (params.get("class") || "").toUpperCase();
    if (params.get("teach") === "1") {
      const r = await this.call("POST", "open", {});
      if (r.status !== 200) return null;
      replaceUrl("?class=" + r.data.code + "&lead=1");
      this.storage.setItem("ae-class-" + r.data.code, r.data.teacher);
      return { role: "teacher", code: r.data.code, token: r.data.teacher };
    }
    if (!CODE.test(code)) return null;
    const token = params.get("lead") === "1" && this.storage.getItem("ae-class-" + code);
    return token ? { role: "teacher", code, token } : { role: "student", code };
  }

  async join(code) {
    let student = this.storage.getItem("ae-student-" + code);
    if (student) return { student };
    const r = await this.call("POST", code + "/join", {});
    if (r.status !== 200) return { ended: r.data.message || "Could not join this class." };
    student = r.data.student;
    this.storage.setItem("ae-student-" + code, student);
    return { student };
  }

  async follow(code, onLead, stopped = () => false) {
    let version = 0;
    while (!stopped()) {
      let r;
      try {
        r = await this.call("GET", `${code}/follow?since=${version}`);
      } catch {
        await this.sleep(RETRY_MS);
        continue;
      }
      if (r.data.ended) return r.data.message || "This class has ended.";
      if (r.status !== 200) {
        await this.sleep(RETRY_MS);
        continue;
      }
      if (r.data.state && r.data.version !== version) {
        version = r.data.version;
        onLead({ ...r.data.state, version });
      }
    }
    return null;
  }

  leader(code, token) {
    let last = "";
    const call = this.call;
    return {
      async push(state) {
        const s = JSON.stringify(state);
        if (s === last) return "same";
        const r = await call("POST", code + "/lead", { state }, token);
        if (r.status === 200) {
          last = s;
          return { sent: r.data.version };
        }
        if (r.data.ended) return { ended: r.data.message || "The class has ended." };
        return "failed";
      },
    };
  }

  async answers(code, token, n, step) {
    const r = await this.call("GET", `${code}/answers?step=${n}`, undefined, token);
    if (r.status !== 200 || !step) return null;
    const { answered = 0, students = 0, counts = {}, who = [], hidden = false } = r.data;
    const rows = hidden
      ? []
      : step.choices.map((choice) => {
          const count = counts[choice] || 0;
          return { choice, count, share: answered ? count / answered : 0 };
        });
    const flags = { released: !!r.data.released, hideCounts: !!r.data.hide_counts };
    return { answered, students, rows, who, hidden: !!hidden, ...flags };
  }

  async pace(code, token, flags) {
    const r = await this.call("POST", code + "/pace", flags, token);
    return r.status === 200 ? r.data : null;
  }

  async reset(code, token, n) {
    const r = await this.call("POST", code + "/reset", { step: n }, token);
    return r.status === 200;
  }

  async answer(code, student, n, choice) {
    const r = await this.call("POST", code + "/answer", { student, step: n, choice });
    return r.status === 200;
  }
}

// A student's following after a lead: see the header.
export function paced(prev, state) {
  const released = !!(state && state.released);
  let following = prev.following;
  if (released && !prev.released) following = false; // let go: every student explores
  if (!released && prev.released) following = true; // held again: every student follows
  return { following, released };
}

// What a student's page offers for a lead's state: see the header.
export function gates(state, following) {
  const s = state || {};
  const step = following && s.step ? s.step : null;
  return {
    held: !s.released,
    revealed: !!(step && s.revealed),
    choices: !!(step && !s.revealed),
    round: step ? `${step}/${s.resets || 0}` : "",
  };
}

export const createClassClient = (options) => new ClassClient(options);
