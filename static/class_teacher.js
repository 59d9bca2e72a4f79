// Class mode, the teacher's page (static/class.js starts it): a panel (#class-panel) with
// the class code (#class-code), the join link (#class-link) and its QR code, the class's
// predictions for the shown step as bars that fill live (#class-answers; hidden until the
// reveal if the teacher says so) and who answered, the hold on the pace (static/class_pace.js:
// let the students explore, hide the counts, reset the votes), how many joined and their
// nicknames, the class's Lab runs on one chart (static/class_lab.js) and "End class". What
// the page shows (step, revealed, view, sentence, knobs) is read every TICK_MS and sent as
// one lead when it changed: no request per keystroke beyond one push. The projector's join
// screen (static/class_join_screen.js) opens with a new class; the panel's button and the J
// key bring it back.
import { classLab } from "./class_lab.js";
import { paceControls, whoAnswered } from "./class_pace.js";
import { $, el, shownStep, sleep, snapshot } from "./class_page.js";
import { joinScreen } from "./class_join_screen.js";

const TICK_MS = 300;

// The join link and QR code (the class scans it), folded away by the first step.
function joinBox(code, join) {
  return el(
    "details",
    { id: "class-join", open: true },
    el("summary", {}, "Join: link and QR code"),
    el(
      "p",
      {},
      "Students open ",
      el("a", { id: "class-link", href: join, target: "_blank" }, join),
    ),
    el("p", { id: "class-link-note", class: "ae-class-private" }),
    el("img", { id: "class-qr", alt: "QR code of the class link", width: 160, height: 160 }),
    el(
      "p",
      { class: "ae-class-private" },
      "This page leads the class. After a reload, ",
      el(
        "a",
        { id: "class-teacher-link", href: "?class=" + code + "&lead=1" },
        "reopen as the teacher",
      ),
      " (this tab only).",
    ),
  );
}

async function showAnswers(client, cfg, code, token, bars, pace) {
  const shown = shownStep();
  if (!shown) {
    bars.textContent = "Set up a step: the class's predictions appear here.";
    return;
  }
  const n = shown[1];
  const got = await client.answers(code, token, n, cfg.steps[n - 1]);
  if (!got) return;
  pace.sync(got);
  const rows = got.rows.map(({ choice, count, share }) =>
    el(
      "div",
      { class: "ae-class-row" },
      el("span", { class: "ae-class-choice" }, choice),
      el("span", { class: "ae-class-bar", style: `width:${Math.round(share * 100)}%` }),
      el("span", { class: "ae-class-count" }, String(count)),
    ),
  );
  const hidden = got.hidden
    ? [el("p", { id: "class-hidden" }, "Counts hidden until the reveal")]
    : [];
  bars.replaceChildren(
    el("p", {}, `Step ${n}: ${got.answered} of ${got.students} answered`),
    ...hidden,
    ...rows,
    whoAnswered(got),
  );
}

// how many joined and their nicknames (plain text: a nickname is never markup)
async function showRoster(client, code, token, box) {
  const r = await client.call("GET", code + "/roster", undefined, token);
  if (r.status !== 200) return;
  const { students = 0, nicknames = [] } = r.data;
  const joined = students === 1 ? "1 student joined" : `${students} students joined`;
  const head = el("p", { id: "class-joined" }, joined);
  if (!nicknames.length) {
    box.replaceChildren(head);
    return;
  }
  const names = el("p", { id: "class-nicknames", class: "ae-class-names" }, nicknames.join(" · "));
  box.replaceChildren(head, names);
}

// The class's QR code and join link, from the server (drawn once a class), on the panel and
// the join screen. The SVG is shown as a picture (an <img> runs nothing in it), not as markup.
function showQr(client, code, screen) {
  client.call("GET", `${code}/qr`).then(
    (r) => {
      if (!r.data.svg) return;
      const src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(r.data.svg);
      $("#class-qr").src = src;
      screen.setQr(src);
      screen.setLink(r.data.link, r.data.note);
      const link = $("#class-link");
      if (r.data.link) link.href = link.textContent = r.data.link; // an address students reach
      $("#class-link-note").textContent = r.data.note || "";
    },
    () => {},
  );
}

// client: static/class_client.js's; cfg: {views, steps}; timings: the page's record;
// fresh: the class was just opened (the join screen shows at once).
export async function teach(client, cfg, timings, code, token, fresh = false) {
  const join = window.location.origin + window.location.pathname + "?class=" + code;
  const screen = joinScreen(code, join);
  const showScreen = el("button", { id: "class-join-show", type: "button" }, "Join screen (J)");
  showScreen.title = "Show the class code and QR code full screen for the projector (key J)";
  showScreen.addEventListener("click", () => screen.show());
  const bars = el("div", { id: "class-answers", "aria-live": "polite" });
  const roster = el("div", { id: "class-roster" }, "No student has joined yet.");
  const lab = classLab.panel(client.call, code, token);
  const pace = paceControls(client, code, token, () => (shownStep() || [])[1] || null);
  const box = joinBox(code, join);
  const end = el("button", { id: "class-end", type: "button" }, "End class");
  const summary = el("summary", {}, "Class ", el("strong", { id: "class-code" }, code));
  const attrs = { id: "class-panel", class: "ae-class-panel", open: true };
  const parts = [summary, showScreen, box, pace.box, roster, bars, lab.box, end];
  document.body.append(el("details", attrs, ...parts));
  showQr(client, code, screen);
  if (fresh) screen.show();
  let ended = false;
  const stop = (message) => {
    ended = true;
    bars.textContent = message;
  };
  end.addEventListener("click", async () => {
    await client.call("POST", code + "/end", {}, token);
    stop("The class has ended.");
  });
  const leader = client.leader(code, token);
  const lead = async () => {
    const at = performance.timeOrigin + performance.now();
    const sent = await leader.push(snapshot(cfg.views));
    if (sent.sent !== undefined) timings.push({ kind: "lead", version: sent.sent, at });
    else if (sent.ended) stop(sent.ended);
  };
  let folded = false;
  for (let tick = 0; !ended; tick++) {
    if (!folded && shownStep()) {
      box.open = false;
      folded = true;
    }
    try {
      await lead();
      if (tick % 4 === 0) await showAnswers(client, cfg, code, token, bars, pace);
      if (tick % 4 === 2) await lab.update(); // at most about once a second (1.2 s)
      if (tick % 16 === 8) await showRoster(client, code, token, roster);
    } catch {
      /* the server is away for a moment: the next tick tries again */
    }
    await sleep(TICK_MS);
  }
}
