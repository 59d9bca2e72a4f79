// The box a student types a class code in (issue 49 item 3): ?join opens it at the top of the
// page, and it comes back, with a message that says why, for a mistyped, unknown or ended code
// (static/class.js decides when; static/class_join.js says what a code is and asks the server).
// A form #class-code-form: the label, the field #class-code-input, "Join" (#class-code-join)
// and the message #class-code-message. What was typed is only ever text, never markup.
import { el } from "./class_page.js";
import { MAX_TYPED, tryCode } from "./class_join.js";

// call: the class client's; shown: {value, message}; onCode(code): a code the server knows
// (the box is gone by then).
export function askCode(call, shown, onCode) {
  const { value = "", message = "" } = shown;
  const input = el("input", {
    id: "class-code-input",
    type: "text",
    maxLength: MAX_TYPED,
    value,
    placeholder: "K7PX2M",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: false,
    enterKeyHint: "go",
  });
  const label = el("label", { for: "class-code-input" }, "Class code");
  const join = el("button", { id: "class-code-join", type: "submit" }, "Join");
  const said = el("p", { id: "class-code-message", role: "status" }, message);
  said.hidden = !message;
  const row = el("div", { class: "ae-class-join-row" }, label, input, join);
  const attrs = { id: "class-code-form", class: "ae-class-join-box", "aria-label": "Join a class" };
  const form = el("form", attrs, row, said);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (join.disabled) return;
    join.disabled = true;
    join.textContent = "Joining…";
    const got = await tryCode(input.value, call);
    join.disabled = false;
    join.textContent = "Join";
    if (got.code) {
      form.remove();
      onCode(got.code);
      return;
    }
    said.textContent = got.message;
    said.hidden = false;
    input.focus();
    input.select();
  });
  document.body.prepend(form);
  input.focus();
  return form;
}
