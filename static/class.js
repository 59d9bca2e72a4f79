// Class mode (issue 43): the teacher leads, the students follow. Inert unless the page's
// address says ?teach=1 (open a class), ?class=CODE (a student) or ?class=CODE&lead=1 (the
// teacher's page reopened: the token is in this tab's sessionStorage, never in a URL).
// The server's side: explorer/server/class_route.py; the talk with it: static/class_client.js;
// the page read and driven as a person would: static/class_page.js.
//
//   teacher  static/class_teacher.js: the class code, the join link and QR code, the
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
  const page = await client.begin(params, (q) => history.replaceState(null, "", q));
  if (!page) return;
  if (page.role === "teacher") return teach(client, cfg, timings, page.code, page.token);
  const tools = { el, setUpStep, shownStep, mark };
  return follower(client, cfg, tools, page.code, classMode);
}

// The page's load (static/app.js): class mode only where the address asks for it.
export function startClassMode() {
  const params = new URLSearchParams(window.location.search);
  if (params.get("teach") === "1" || params.has("class")) start(params);
}
