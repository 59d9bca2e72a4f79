// Class mode, a student's page (static/class.js starts it): a bar (#class-follow) that says
// "Following the teacher", offers the shown step's choices to predict with, "Explore on my
// own" / "Follow again" and an optional nickname. Each lead from the long poll
// (static/class_client.js follow) is shown as a person would: the same step (Set up), view,
// sentence and knobs, and the answer opened when the teacher reveals it.
//
// The teacher holds the pace and the answer (issue 49 item 2): until the teacher lets the
// class explore, .ae-class-held on <html> takes away every Reveal, "Next step", "All steps"
// and the step list (static/class.css), so the step's answer opens only with the teacher's
// reveal, and what gives it away stays covered until then (static/steps.js). A release
// lets every student go (exploring, "Follow again" to come back); a hold brings them back.
import { gates, paced } from "./class_client.js";
import { clickTab, setKnobs, setText } from "./class_page.js";
import { screen } from "./screen.js";

const store = () => window.sessionStorage;

// an optional nickname (the server cleans and bounds it: explorer/views/class_state.py)
function nicknameBox(client, el, code, student) {
  const input = el("input", {
    id: "class-nickname",
    type: "text",
    maxLength: 24,
    placeholder: "Nickname (optional)",
    "aria-label": "Nickname (optional)",
    value: store().getItem("ae-nick-" + code) || "",
  });
  const save = el("button", { id: "class-nickname-set", type: "button" }, "Set");
  const send = async () => {
    const r = await client.call("POST", code + "/nickname", { student, nickname: input.value });
    if (r.status !== 200) return;
    input.value = r.data.nickname;
    store().setItem("ae-nick-" + code, r.data.nickname);
    save.textContent = "Saved";
  };
  save.addEventListener("click", send);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") send();
  });
  input.addEventListener("input", () => {
    save.textContent = "Set";
  });
  return el("span", { class: "ae-class-nick" }, input, save);
}

// The bar, stuck to the top: what steps.js and page.js keep below the top of the screen (a
// step's bar, the large head) goes below the bar too, and so does a phone's sentence.
function showBar(bar) {
  document.body.prepend(bar);
  const root = document.documentElement;
  root.classList.add("ae-in-class");
  const fit = () => root.style.setProperty("--ae-class-bar", bar.offsetHeight + "px");
  new ResizeObserver(fit).observe(bar);
  fit();
  const below = screen.sentenceBottom;
  screen.sentenceBottom = () => bar.offsetHeight + below();
}

// The step's choices as buttons (none once the answer is revealed; offered afresh when the
// teacher resets the votes: g.round, static/class_client.js gates).
function offer(ctx, n, g) {
  const { client, cfg, el, code, student, choices } = ctx;
  const step = n && cfg.steps[n - 1];
  if (!step || !g.choices) {
    choices.replaceChildren();
    choices.dataset.round = "";
    return;
  }
  if (choices.dataset.round === g.round) return;
  choices.dataset.round = g.round;
  const pick = (c) => {
    const attrs = { type: "button", class: "ae-class-pick", "aria-pressed": "false" };
    const b = el("button", attrs, c);
    b.addEventListener("click", async () => {
      if (!(await client.answer(code, student, n, c))) return;
      for (const x of choices.querySelectorAll("button")) {
        x.setAttribute("aria-pressed", String(x === b));
      }
    });
    return b;
  };
  choices.replaceChildren("Your prediction: ", ...step.choices.map(pick));
}

// Show one lead (s: its state with its version).
async function show(ctx, s) {
  const { cfg, tools } = ctx;
  const shown = tools.shownStep();
  if (s.step && (!shown || shown[1] !== s.step)) await tools.setUpStep(s.step, cfg.views.start);
  if (!s.step) {
    clickTab(cfg.views[s.view] || cfg.views.explore);
    setKnobs(s.knobs || {});
    setText(s.text || "");
  }
  // the answer is open exactly when the teacher's is
  const g = gates(s, true);
  const now = tools.shownStep();
  const details = now && now[0].querySelector("details");
  if (details && details.open !== g.revealed) details.open = g.revealed;
  tools.mark("shown", s.version);
  offer(ctx, s.step, g);
}

// The bar's words: [its status, its toggle's], following or not, the class released or not.
const words = (following, released) =>
  following
    ? ["Following the teacher", "Explore on my own"]
    : [released ? "The teacher lets you explore" : "Exploring on your own", "Follow again"];

// tools: {el, setUpStep, shownStep, mark} (static/class.js); classMode: its labTag is set.
export async function follower(client, cfg, tools, code, classMode) {
  const { el } = tools;
  const joined = await client.join(code);
  const root = document.documentElement;
  let following = true,
    released = false,
    state = null,
    busy = false;
  root.classList.add("ae-class-held");
  const status = el("span", { id: "class-status" }, "Following the teacher");
  const choices = el("span", { id: "class-choices" });
  const toggle = el("button", { id: "class-toggle", type: "button" }, "Explore on my own");
  const ended = (message) => {
    status.textContent = message;
    choices.replaceChildren();
    toggle.hidden = true;
    following = false;
    root.classList.remove("ae-class-held"); // no class: the page is the student's own
  };
  const student = joined.student;
  const parts = [status, choices, toggle];
  if (student) parts.push(nicknameBox(client, el, code, student));
  const attrs = { id: "class-follow", class: "ae-class-follow", role: "region" };
  showBar(el("div", { ...attrs, "aria-label": "Class" }, ...parts));
  if (!student) return ended(joined.ended);
  // a press of Train in the Lab carries this (explorer/ui/lab_tab.py): the run joins
  // the class's chart on the teacher's page
  classMode.labTag = () => (toggle.hidden ? "" : code + " " + student);
  const ctx = { client, cfg, tools, el, code, student, choices };
  async function apply() {
    if (busy || !following || !state) return;
    busy = true;
    const s = state;
    try {
      await show(ctx, s);
    } finally {
      busy = false;
    }
    if (state !== s) setTimeout(apply, 0); // a newer lead came while this one was shown
  }
  const setFollowing = (on) => {
    following = on;
    [status.textContent, toggle.textContent] = words(following, released);
    if (following && state) apply();
  };
  toggle.addEventListener("click", () => setFollowing(!following));
  const message = await client.follow(code, (s) => {
    state = s;
    tools.mark("got", s.version);
    const now = paced({ following, released }, s);
    const letGo = now.released !== released;
    released = now.released;
    root.classList.toggle("ae-class-held", gates(s, following).held);
    if (letGo || now.following !== following) setFollowing(now.following);
    else apply();
  });
  if (message) ended(message);
}
