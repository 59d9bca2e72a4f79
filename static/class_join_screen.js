// The projector's join screen (issue 49 item 3): over the whole window, the class's QR code
// (at least 40 % of the screen's height), the short address to type and the class code in
// letters the back row reads (static/class.css: #class-join-screen). The teacher's page shows
// it when the class opens (static/class_teacher.js); "Start the class", Esc or a click
// anywhere closes it, and the J key (focus not in a text field) or the panel's button brings it
// back.
import { el } from "./class_page.js";
import { shortAddress } from "./class_join.js";

const KEY = "j";

// whether a key press belongs to what has focus (typing a sentence, a number, a nickname)
function typing(target) {
  return !!(
    target &&
    target.closest &&
    target.closest("input, textarea, select, [contenteditable]")
  );
}

// code: the class's; link: its join link (updated by setLink once the server says).
export function joinScreen(code, link) {
  const qr = el("img", { id: "class-join-qr", alt: "QR code: the class's join link" });
  const address = el("p", { id: "class-join-address" }, shortAddress(link));
  // the server's word on the link (explorer/server/class_qr.py reachable): a loopback
  // address no student can open, or this machine's network address put in its place
  const note = el("p", { id: "class-join-note", class: "ae-class-screen-hint" });
  note.hidden = true;
  const start = el("button", { id: "class-join-start", type: "button" }, "Start the class");
  const words = el(
    "div",
    { class: "ae-class-screen-words" },
    el("p", { class: "ae-class-screen-say" }, "Scan the code, or open"),
    address,
    note,
    el("p", { class: "ae-class-screen-say" }, "and type the class code"),
    el("p", { id: "class-join-code" }, code),
    start,
    el("p", { class: "ae-class-screen-hint" }, "Esc or a click closes this; J shows it again."),
  );
  const attrs = { id: "class-join-screen", class: "ae-class-screen", role: "dialog" };
  const screen = el("div", { ...attrs, "aria-label": "Join the class " + code }, qr, words);
  screen.hidden = true;
  document.body.append(screen);
  const api = {
    shown: () => !screen.hidden,
    show() {
      screen.hidden = false;
      start.focus();
    },
    hide() {
      screen.hidden = true;
    },
    setQr(src) {
      qr.src = src;
    },
    setLink(next, said) {
      if (next) address.textContent = shortAddress(next);
      note.textContent = said || "";
      note.hidden = !said;
    },
  };
  screen.addEventListener("click", () => api.hide());
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape" && api.shown()) api.hide();
    else if (String(e.key || "").toLowerCase() === KEY && !api.shown() && !typing(e.target))
      api.show();
  });
  return api;
}
