// Class mode (issue 43): the teacher leads, the students follow. Inert unless the page's
// address says ?teach=1 (open a class), ?class=CODE (a student), ?class=CODE&lead=1 (the
// teacher's page reopened: the token is in this tab's sessionStorage, never in a URL) or
// ?join (a box to type the code in: static/class_join_box.js; it comes back, saying why, for
// a malformed, unknown or ended code: static/class_join.js).
// The server's side: explorer/server/class_route.py; the talk with it: static/class_client.js;
// the page read and driven as a person would: static/class_page.js.
//
//   teacher  static/class_teacher.js: the class code, the join link and QR code (and the
//            projector's join screen: static/class_join_screen.js), the
//            class's predictions live and who answered, the hold on the pace
//            (static/class_pace.js: let the students explore, hide the counts until the
//            reveal, reset the votes), the roster, the class's Lab runs, "End class".
//   student  a bar (#class-follow): "Following the teacher", the step's choices to predict
//            with, "Explore on my own" / "Follow again", an optional nickname. A long poll
//            brings each lead; the page then shows the same step (Set up), view, sentence
//            and knobs, and opens the answer when the teacher reveals it (until the teacher
//            lets the class explore: no Reveal, Next step, All steps or step list). Its Lab runs
//            carry its class (classMode.labTag, read by explorer/ui/lab_tab.py's Train).
//
// The page's tab titles and the steps' choices come from explorer/ui/class_mode.py: JSON in
// the content of <meta name="ae-class-config"> in the page's head.
import { createClassClient } from "./class_client.js";
import { el, setUpStep, shownStep, sleep, snapshot } from "./class_page.js";
import { teach } from "./class_teacher.js";
import { follower } from "./class_student.js";
import { entry, probe } from "./class_join.js";
import { askCode } from "./class_join_box.js";

// when leads were sent, received and shown (ms since the epoch; the last 50): read by
// benchmarks/class_follow_browser.py and the browser test, never sent anywhere
const timings = [];
const mark = (kind, version) => {
  timings.push({ kind, version, at: performance.timeOrigin + performance.now() });
  if (timings.length > 50) timings.shift();
};

function readConfig() {
  const meta = document.querySelector('meta[name="ae-class-config"]');
  const fallback = { views: {}, steps: [], base: "ae-class/" };
  try {
    return meta ? { ...fallback, ...JSON.parse(meta.content) } : fallback;
  } catch {
    return fallback;
  }
}

// The page's public class mode (window.AttentionExplorer.classMode): labTag() is set once a
// student's page follows a class.
export const classMode = {
  snapshot: () => snapshot(readConfig().views),
  timings,
  labTag: () => "",
};

async function start(params) {
  const found = () => document.querySelector("#tabs button[role='tab']");
  for (let t = 0; t < 300 && !(found() && document.querySelector("#sentence textarea")); t++) {
    await sleep(100);
  }
  // (read now: the page's head is filled in after this bundle runs)
  const cfg = readConfig();
  const client = createClassClient({
    fetch: (...a) => window.fetch(...a),
    storage: window.sessionStorage,
    sleep,
    base: cfg.base,
  });
  const tools = { el, setUpStep, shownStep, mark };
  // a student's code: followed once the server knows the class, else the box, saying why
  // (the box asks the server itself before it hands a code on)
  const student = async (code) => {
    const refused = await probe(client.call, code);
    if (refused) return askCode(client.call, { value: code, message: refused }, follow);
    return follow(code);
  };
  const follow = (code) => {
    const here = new URLSearchParams(window.location.search);
    if (here.get("class") !== code) {
      here.delete("join");
      here.set("class", code);
      history.replaceState(null, "", "?" + here); // a reload follows the same class
    }
    return follower(client, cfg, tools, code, classMode);
  };
  const wants = entry(params);
  if (wants.ask) return askCode(client.call, wants.ask, follow);
  const page = await client.begin(wants.params, (q) => history.replaceState(null, "", q));
  if (!page) return;
  if (page.role === "teacher") {
    const fresh = params.get("teach") === "1";
    return teach(client, cfg, timings, page.code, page.token, fresh);
  }
  return student(page.code);
}

// The page's load (static/app.js): class mode only where the address asks for it.
export function startClassMode() {
  const params = new URLSearchParams(window.location.search);
  if (params.get("teach") === "1" || params.has("class") || params.has("join")) start(params);
}
