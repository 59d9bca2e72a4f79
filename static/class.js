// Class mode (issue 43): the teacher leads, the students follow. Inert unless the page's
// address says ?teach=1 (open a class), ?class=CODE (a student) or ?class=CODE&lead=1 (the
// teacher's page reopened: the token is in this tab's sessionStorage, never in a URL).
// It talks to explorer/server/class_route.py (/ae-class/...) and drives the page as a person would:
// Start here's step radio and "Set up this step", the tab bar, the sentence box, the knobs.
//
//   teacher  a panel (#class-panel): the class code (#class-code), the join link
//            (#class-link) and its QR code, the class's predictions for the shown step as
//            bars that fill live (#class-answers), "End class". What the teacher's page
//            shows (step, revealed, view, sentence, knobs) is read every 300 ms and sent
//            as one lead when it changed: no request per keystroke beyond one push.
//   student  a bar (#class-follow): "Following the teacher", the step's choices to predict
//            with, "Explore on my own" / "Follow again", an optional nickname. A long poll
//            brings each lead; the page then shows the same step (Set up), view, sentence
//            and knobs, and opens the answer when the teacher reveals it. Its Lab runs
//            carry its class (labTag, read by explorer/ui/lab_tab.py's Train).
//   teacher, also: how many joined and their nicknames (text), and the class's Lab runs
//            on one chart (static/class_lab.js).
//
// Shapes: a lead's state {step: 1-based or null, revealed, view: tab id, text, knobs:
// {objective, heads, pos, mask, scaling, temperature, layer, head}}. The page's tab titles
// and the steps' choices come from explorer/ui/class_mode.py (AE.classConfig).
(() => {
  const AE = (window.AttentionExplorer = window.AttentionExplorer || {});
  if (AE.classMode) return;
  const CFG = AE.classConfig || { views: {}, steps: [], base: "ae-class/" };
  const params = new URLSearchParams(window.location.search);
  const CODE = /^[A-Z2-9]{6}$/;
  const RADIOS = ["objective", "heads", "pos", "mask", "scaling"];
  const NUMBERS = ["temperature", "layer", "head"];
  const $ = (sel) => document.querySelector(sel);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const store = window.sessionStorage;
  // when leads were sent, received and shown (ms since the epoch; the last 50): read by
  // benchmarks/class_follow_browser.py and the browser test, never sent anywhere
  const timings = [];
  const mark = (kind, version) => {
    timings.push({ kind, version, at: performance.timeOrigin + performance.now() });
    if (timings.length > 50) timings.shift();
  };

  async function call(method, path, body, teacher) {
    const headers = { "Content-Type": "application/json" };
    if (teacher) headers["X-AE-Teacher"] = teacher;
    const r = await fetch(CFG.base + path, { method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body) });
    let data = {};
    try { data = await r.json(); } catch (e) { /* an HTML error page: no JSON */ }
    return { status: r.status, data };
  }

  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "class") node.className = v; else if (k in node) node[k] = v;
      else node.setAttribute(k, v);
    }
    node.append(...children); // strings become text nodes: nothing here is markup
    return node;
  }

  // ------------------------------------------------------------- the page as it is
  function openTitle() {
    const b = [...document.querySelectorAll('#tabs button[role="tab"]')]
      .find((x) => x.getAttribute("aria-selected") === "true");
    return b ? b.textContent.trim() : null;
  }
  function clickTab(title) { // static/steps.js finds the button (the bar or "More tabs")
    if (openTitle() !== title) AE.steps.clickTab(title);
  }
  function shownStep() { // the step bar on screen: [section, 1-based number] or null
    for (const s of document.querySelectorAll(".ae-step-bar .ae-step[data-step]")) {
      if (s.offsetParent !== null) return [s, Number(s.dataset.step)];
    }
    return null;
  }
  function knobs() {
    const out = {};
    for (const k of RADIOS) {
      const r = $(`#${k} input:checked`);
      if (r) out[k] = r.value;
    }
    for (const k of NUMBERS) {
      const n = $(`#${k} input[type=number]`);
      if (n) out[k] = Number(n.value);
    }
    return out;
  }
  function snapshot() {
    const shown = shownStep(), box = $("#sentence textarea");
    const title = openTitle();
    const view = Object.keys(CFG.views).find((id) => CFG.views[id] === title) || "explore";
    return { step: shown ? shown[1] : null, revealed: !!(shown && shown[0].querySelector("details[open]")),
      view, text: box ? box.value : "", knobs: knobs() };
  }

  // ------------------------------------------------------------- following a state
  function setText(value) {
    const box = $("#sentence textarea");
    if (!box || box.value === value) return;
    box.value = value;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }
  function setKnobs(want) {
    for (const k of RADIOS) {
      const r = want[k] != null && [...document.querySelectorAll(`#${k} input`)]
        .find((x) => x.value === String(want[k]));
      if (r && !r.checked) r.click();
    }
    for (const k of NUMBERS) {
      const n = $(`#${k} input[type=number]`);
      if (n && want[k] != null && Number(n.value) !== Number(want[k])) {
        n.value = String(want[k]);
        n.dispatchEvent(new Event("input", { bubbles: true }));
        n.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
  }
  // (not steps.js's waitFor: a follower's page may sit in a background tab, where
  // animation frames stop and timers go on)
  async function waitFor(find, ms) {
    const until = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found || Date.now() > until) return found || null;
      await sleep(100);
    }
  }
  // Start here's step n, set up as a student would: the tab, the step's radio, Set up
  async function setUpStep(n) {
    clickTab(CFG.views.start);
    const radio = await waitFor(() => document.querySelectorAll("#start-step input")[n - 1], 10000);
    if (!radio) return false;
    if (!radio.checked) radio.click();
    if (!await waitFor(() => radio.checked && $("#start-setup"), 5000)) return false;
    await sleep(150); // the step's text follows its radio (a queue-less event)
    $("#start-setup").click();
    return !!await waitFor(() => { const s = shownStep(); return s && s[1] === n; }, 20000);
  }

  // ------------------------------------------------------------- the teacher
  async function teach(code, token) {
    store.setItem("ae-class-" + code, token);
    const join = window.location.origin + window.location.pathname + "?class=" + code;
    const bars = el("div", { id: "class-answers", "aria-live": "polite" });
    const roster = el("div", { id: "class-roster" }, "No student has joined yet.");
    const lab = AE.classLab.panel(call, code, token);
    // the join link and QR code first (the class scans it), folded away by the first step
    const joinBox = el("details", { id: "class-join", open: true },
      el("summary", {}, "Join: link and QR code"),
      el("p", {}, "Students open ", el("a", { id: "class-link", href: join, target: "_blank" }, join)),
      el("img", { id: "class-qr", alt: "QR code of the class link", width: 160, height: 160 }),
      el("p", { class: "ae-class-private" }, "This page leads the class. After a reload, ",
        el("a", { id: "class-teacher-link", href: "?class=" + code + "&lead=1" }, "reopen as the teacher"),
        " (this tab only)."));
    const panel = el("details", { id: "class-panel", class: "ae-class-panel", open: true },
      el("summary", {}, "Class ", el("strong", { id: "class-code" }, code)),
      joinBox, roster, bars, lab.box, el("button", { id: "class-end", type: "button" }, "End class"));
    document.body.append(panel);
    // the QR code's SVG shown as a picture (an <img> runs nothing in it), not as markup
    call("GET", `${code}/qr?link=${encodeURIComponent(join)}`).then((r) => {
      if (r.data.svg) $("#class-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(r.data.svg);
    }, () => {});
    let last = "", ended = false;
    $("#class-end").addEventListener("click", async () => {
      await call("POST", code + "/end", {}, token);
      ended = true; bars.textContent = "The class has ended.";
    });
    const lead = async () => {
      const s = JSON.stringify(snapshot());
      if (s === last) return;
      const at = performance.timeOrigin + performance.now();
      const r = await call("POST", code + "/lead", { state: JSON.parse(s) }, token);
      if (r.status === 200) {
        last = s;
        timings.push({ kind: "lead", version: r.data.version, at });
      }
      else if (r.data.ended) { ended = true; bars.textContent = r.data.message || "The class has ended."; }
    };
    let tick = 0, folded = false;
    while (!ended) {
      if (!folded && shownStep()) { joinBox.open = false; folded = true; }
      try {
        await lead();
        if (tick % 4 === 0) await showAnswers(code, token, bars);
        if (tick % 4 === 2) await lab.update(); // at most about once a second (1.2 s)
        if (tick % 16 === 8) await showRoster(code, token, roster);
        tick++;
      } catch (e) { /* the server is away for a moment: the next tick tries again */ }
      await sleep(300);
    }
  }

  async function showAnswers(code, token, bars) {
    const shown = shownStep();
    if (!shown) { bars.textContent = "Set up a step: the class's predictions appear here."; return; }
    const n = shown[1], step = CFG.steps[n - 1];
    const r = await call("GET", `${code}/answers?step=${n}`, undefined, token);
    if (r.status !== 200 || !step) return;
    const { answered = 0, students = 0, counts = {} } = r.data;
    const rows = step.choices.map((c) => {
      const k = counts[c] || 0, share = answered ? k / answered : 0;
      return el("div", { class: "ae-class-row" }, el("span", { class: "ae-class-choice" }, c),
        el("span", { class: "ae-class-bar", style: `width:${Math.round(share * 100)}%` }),
        el("span", { class: "ae-class-count" }, String(k)));
    });
    bars.replaceChildren(el("p", {}, `Step ${n}: ${answered} of ${students} answered`), ...rows);
  }

  // how many joined and their nicknames (plain text: a nickname is never markup)
  async function showRoster(code, token, box) {
    const r = await call("GET", code + "/roster", undefined, token);
    if (r.status !== 200) return;
    const { students = 0, nicknames = [] } = r.data;
    const head = el("p", { id: "class-joined" }, students === 1 ? "1 student joined" : `${students} students joined`);
    if (!nicknames.length) { box.replaceChildren(head); return; }
    box.replaceChildren(head, el("p", { id: "class-nicknames", class: "ae-class-names" }, nicknames.join(" · ")));
  }

  // ------------------------------------------------------------- a student
  // an optional nickname (the server cleans and bounds it: explorer/views/class_state.py)
  function nicknameBox(code, student) {
    const input = el("input", { id: "class-nickname", type: "text", maxLength: 24,
      placeholder: "Nickname (optional)", "aria-label": "Nickname (optional)",
      value: store.getItem("ae-nick-" + code) || "" });
    const save = el("button", { id: "class-nickname-set", type: "button" }, "Set");
    const send = async () => {
      const r = await call("POST", code + "/nickname", { student, nickname: input.value });
      if (r.status !== 200) return;
      input.value = r.data.nickname;
      store.setItem("ae-nick-" + code, r.data.nickname);
      save.textContent = "Saved";
    };
    save.addEventListener("click", send);
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
    input.addEventListener("input", () => { save.textContent = "Set"; });
    return el("span", { class: "ae-class-nick" }, input, save);
  }

  async function follow(code) {
    let student = store.getItem("ae-student-" + code);
    if (!student) {
      const r = await call("POST", code + "/join", {});
      if (r.status !== 200) return ended(r.data.message || "Could not join this class.");
      student = r.data.student;
      store.setItem("ae-student-" + code, student);
    }
    const status = el("span", { id: "class-status" }, "Following the teacher");
    const choices = el("span", { id: "class-choices" });
    const toggle = el("button", { id: "class-toggle", type: "button" }, "Explore on my own");
    const bar = el("div", { id: "class-follow", class: "ae-class-follow", role: "region",
      "aria-label": "Class" }, status, choices, toggle, nicknameBox(code, student));
    // a press of Train in the Lab carries this (explorer/ui/lab_tab.py): the run joins
    // the class's chart on the teacher's page
    AE.classMode.labTag = () => (toggle.hidden ? "" : code + " " + student);
    document.body.prepend(bar);
    const root = document.documentElement;
    root.classList.add("ae-in-class");
    // the bar sticks to the top: what steps.js and page.js keep below the top of the screen
    // (a step's bar, the large head) goes below the bar too, and so does a phone's sentence
    const fit = () => root.style.setProperty("--ae-class-bar", bar.offsetHeight + "px");
    new ResizeObserver(fit).observe(bar);
    fit();
    const below = AE.sentenceBottom;
    AE.sentenceBottom = () => bar.offsetHeight + (below ? below() : 0);
    let following = true, state = null, version = 0, busy = false;
    toggle.addEventListener("click", () => {
      following = !following;
      toggle.textContent = following ? "Explore on my own" : "Follow again";
      status.textContent = following ? "Following the teacher" : "Exploring on your own";
      if (following && state) apply();
    });
    function ended(message) {
      status.textContent = message; choices.replaceChildren();
      toggle.hidden = true; following = false;
    }
    function offer(n, revealed) {
      const step = CFG.steps[n - 1];
      if (!step || revealed) { choices.replaceChildren(); return; }
      if (choices.dataset.step === String(n)) return;
      choices.dataset.step = String(n);
      choices.replaceChildren("Your prediction: ", ...step.choices.map((c) => {
        const b = el("button", { type: "button", class: "ae-class-pick", "aria-pressed": "false" }, c);
        b.addEventListener("click", async () => {
          const r = await call("POST", code + "/answer", { student, step: n, choice: c });
          if (r.status !== 200) return;
          for (const x of choices.querySelectorAll("button")) x.setAttribute("aria-pressed", String(x === b));
        });
        return b;
      }));
    }
    async function apply() {
      if (busy || !following || !state) return;
      busy = true;
      try {
        const s = state, shown = shownStep();
        if (s.step && (!shown || shown[1] !== s.step)) await setUpStep(s.step);
        if (!s.step) {
          clickTab(CFG.views[s.view] || CFG.views.explore);
          setKnobs(s.knobs || {});
          setText(s.text || "");
        }
        const now = shownStep();
        if (now && s.revealed) now[0].querySelector("details").open = true;
        mark("shown", s.version);
        if (s.step) offer(s.step, s.revealed); else { choices.replaceChildren(); choices.dataset.step = ""; }
        if (state !== s) setTimeout(apply, 0); // a newer lead came while this one was shown
      } finally {
        busy = false;
      }
    }
    for (;;) {
      let r;
      try { r = await call("GET", `${code}/follow?since=${version}`); } catch (e) { await sleep(2000); continue; }
      if (r.data.ended) return ended(r.data.message || "This class has ended.");
      if (r.status !== 200) { await sleep(2000); continue; }
      if (r.data.state && r.data.version !== version) {
        version = r.data.version; state = { ...r.data.state, version };
        mark("got", version);
        apply();
      }
    }
  }

  // ------------------------------------------------------------- start
  async function start() {
    await waitFor(() => $("#tabs button[role='tab']") && $("#sentence textarea"), 30000);
    const code = (params.get("class") || "").toUpperCase();
    if (params.get("teach") === "1") {
      const r = await call("POST", "open", {});
      if (r.status === 200) {
        history.replaceState(null, "", "?class=" + r.data.code + "&lead=1");
        return teach(r.data.code, r.data.teacher);
      }
      return;
    }
    if (!CODE.test(code)) return;
    const token = params.get("lead") === "1" && store.getItem("ae-class-" + code);
    return token ? teach(code, token) : follow(code);
  }
  AE.classMode = { snapshot, timings };
  if (params.get("teach") === "1" || params.has("class")) start();
})();
