// Class mode, a student's page (static/class.js starts it): a bar (#class-follow) that says
// "Following the teacher", offers the shown step's choices to predict with, "Explore on my
// own" / "Follow again" and an optional nickname. Each lead from the long poll
// (static/class_client.js follow) is shown as a person would: the same step (Set up), view,
// sentence and knobs, and the answer opened when the teacher reveals it.
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

// The step's choices as buttons (none once the answer is revealed).
function offer(ctx, n, revealed) {
  const { client, cfg, el, code, student, choices } = ctx;
  const step = cfg.steps[n - 1];
  if (!step || revealed) {
    choices.replaceChildren();
    return;
  }
  if (choices.dataset.step === String(n)) return;
  choices.dataset.step = String(n);
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
  const { cfg, tools, choices } = ctx;
  const shown = tools.shownStep();
  if (s.step && (!shown || shown[1] !== s.step)) await tools.setUpStep(s.step, cfg.views.start);
  if (!s.step) {
    clickTab(cfg.views[s.view] || cfg.views.explore);
    setKnobs(s.knobs || {});
    setText(s.text || "");
  }
  const now = tools.shownStep();
  if (now && s.revealed) now[0].querySelector("details").open = true;
  tools.mark("shown", s.version);
  if (s.step) offer(ctx, s.step, s.revealed);
  else {
    choices.replaceChildren();
    choices.dataset.step = "";
  }
}

// tools: {el, setUpStep, shownStep, mark} (static/class.js); classMode: its labTag is set.
export async function follower(client, cfg, tools, code, classMode) {
  const { el } = tools;
  const joined = await client.join(code);
  let following = true,
    state = null,
    busy = false;
  const status = el("span", { id: "class-status" }, "Following the teacher");
  const choices = el("span", { id: "class-choices" });
  const toggle = el("button", { id: "class-toggle", type: "button" }, "Explore on my own");
  const ended = (message) => {
    status.textContent = message;
    choices.replaceChildren();
    toggle.hidden = true;
    following = false;
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
  toggle.addEventListener("click", () => {
    following = !following;
    toggle.textContent = following ? "Explore on my own" : "Follow again";
    status.textContent = following ? "Following the teacher" : "Exploring on your own";
    if (following && state) apply();
  });
  const message = await client.follow(code, (s) => {
    state = s;
    tools.mark("got", s.version);
    apply();
  });
  if (message) ended(message);
}
