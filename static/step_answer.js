// A step's answer arrives only when it is revealed (issue 49 item 2; part of the page's
// bundle, static/app.js, used by static/steps.js). The step bar (explorer/ui/step_bar.py)
// holds an empty .ae-step-answer in its fold, so the answer is in no page before its
// reveal (a held student's devtools find none). When a fold opens (its Reveal, or the
// teacher's reveal on a follower's page, static/class_student.js), ask() clicks the hidden
// #step-answer-ask; that event's js (the bridge's "steps.ask": asked()) names the step, the
// server sends back {step, html}, and its next js ("steps.fill": fill()) puts it in every
// bar of that step. The html is the step's own text rendered by the server (escaped, then
// <strong> and <em>); it is parsed inertly and only its text, <strong> and <em> are kept.
const waiting = []; // the steps asked for (1-based, as text), oldest first

// The fold of ``section`` (a bar's .ae-step) opened: ask for its answer, unless it is in.
export function ask(section) {
  const p = section && section.querySelector(".ae-step-answer");
  if (!p || p.textContent.trim() || !section.dataset.step) return;
  waiting.push(section.dataset.step);
  document.getElementById("step-answer-ask")?.click();
}

// The hidden button's js: the step to ask for (what its Python function reads).
export const asked = () => waiting.shift() || "";

// Only text, <strong> and <em> of ``node``'s children, as new nodes.
function kept(node) {
  return [...node.childNodes].flatMap((c) => {
    if (c.nodeType === Node.TEXT_NODE) return [document.createTextNode(c.textContent)];
    if (c.nodeType !== Node.ELEMENT_NODE) return [];
    const tag = c.tagName.toLowerCase();
    if (tag !== "strong" && tag !== "em") return kept(c);
    const el = document.createElement(tag);
    el.append(...kept(c));
    return [el];
  });
}

// The reply (JSON {step, html}) into the answer of every bar of that step still empty;
// true when one was filled.
export function fill(reply) {
  let got;
  try {
    got = JSON.parse(reply || "");
  } catch (e) {
    return false;
  }
  if (!got || !got.step || typeof got.html !== "string") return false;
  const body = new DOMParser().parseFromString(`<p>${got.html}</p>`, "text/html").body;
  let filled = false;
  document
    .querySelectorAll(`.ae-step[data-step="${CSS.escape(String(got.step))}"] .ae-step-answer`)
    .forEach((p) => {
      if (p.textContent.trim()) return;
      p.replaceChildren(...kept(body));
      filled = true;
    });
  return filled;
}
