// Class mode, the teacher's hold on the pace and the answer (issue 49 item 2), a part of the
// teacher's panel (static/class_teacher.js): "Let students explore" (#class-release: the
// students' pages offer Next step, All steps and Reveal; pressed again, "Hold the class"
// brings every student back to following), "Hide counts until the reveal"
// (#class-hide-counts) and "Reset votes" (#class-reset: the shown step's predictions
// forgotten, the students offered the choices afresh). The server keeps the flags
// (explorer/views/class_state.py pace); each answers poll brings them back (sync), so a
// reloaded teacher's page shows them as they are. And who answered the step (#class-who:
// nicknames or "student 7", text: a nickname is never markup).
import { el } from "./class_page.js";

const RELEASE = "Let students explore";
const HOLD = "Hold the class";

// the panel's part; step(): the step shown (1-based) or null. -> {box, sync(got), who(got)}
export function paceControls(client, code, token, step) {
  const release = el("button", { id: "class-release", type: "button" }, RELEASE);
  release.setAttribute("aria-pressed", "false");
  const hide = el("input", { id: "class-hide-counts", type: "checkbox" });
  const hideLabel = el("label", { class: "ae-class-check" }, hide, " Hide counts until the reveal");
  const reset = el("button", { id: "class-reset", type: "button" }, "Reset votes");
  const said = el("span", { class: "ae-class-said", "aria-live": "polite" });
  const sync = (flags) => {
    if (!flags) return;
    release.setAttribute("aria-pressed", String(!!flags.released));
    release.textContent = flags.released ? HOLD : RELEASE;
    hide.checked = !!(flags.hideCounts ?? flags.hide_counts);
  };
  release.addEventListener("click", async () => {
    const on = release.getAttribute("aria-pressed") !== "true";
    sync(await client.pace(code, token, { released: on }));
  });
  hide.addEventListener("change", async () => {
    sync(await client.pace(code, token, { hide_counts: hide.checked }));
  });
  reset.addEventListener("click", async () => {
    const n = step();
    if (!n) return;
    said.textContent = (await client.reset(code, token, n))
      ? `Step ${n}'s votes were reset.`
      : "Could not reset the votes.";
  });
  const box = el(
    "div",
    { id: "class-pace", class: "ae-class-pace" },
    release,
    reset,
    hideLabel,
    said,
  );
  return { box, sync };
}

// Who answered (got: static/class_client.js answers): a line of names, text only.
export function whoAnswered(got) {
  if (!got.who.length) return el("p", { id: "class-who", class: "ae-class-names" }, "");
  return el("p", { id: "class-who", class: "ae-class-names" }, "Answered: " + got.who.join(" · "));
}
