// Joining a class (issue 49 item 3), the words and decisions with no DOM: what a typed code
// is, what the page's address asks for (?join: the box to type a code in; ?class=CODE: follow;
// a malformed code: the box again, with a message), whether the server knows the class (404:
// no class has that code; 410: it has ended), and the short address a projector shows. The
// box itself: static/class_join_box.js; the projector's join screen: static/class_join_screen.js.
//
//   normalCode(text) -> "K7PX2M" | null   a code as typed: any case, spaces and dashes
//        anywhere (the server's normal_code strips and uppercases: this is that and more),
//        at most MAX_TYPED characters
//   typed(text) -> {code} | {message}     what the box does with what was typed
//   refusal(status, data, code) -> message | null   the server's answer about a class, in
//        words that say which: unknown (404) or ended (410)
//   probe(call, code) -> message | null   asks the server (a follow that answers at once);
//        null also when the server cannot be asked (the follower's own retries take over)
//   tryCode(text, call) -> {code} | {message}   typed, then probed
//   entry(params) -> {ask: {value, message}} | {params}   what the address asks for (?join=X:
//        the box with X in it)
//   shortAddress(link) -> "host/path?join"   the join address to read off a projector
//
// Every message is plain text (the page puts it in a text node): a typed code is never markup.
import { CODE } from "./class_client.js";

export const MAX_TYPED = 40; // characters of a typed code looked at (a code is 6)
const EXAMPLE = "K7PX2M";

export function normalCode(text) {
  if (typeof text !== "string" || text.length > MAX_TYPED) return null;
  const code = text.replace(/[\s-]+/g, "").toUpperCase();
  return CODE.test(code) ? code : null;
}

// what a person typed, shown back in a message: trimmed and bounded
const echo = (text) => {
  const t = String(text).trim();
  return t.length > 12 ? t.slice(0, 12) + "…" : t;
};

export function typed(text) {
  const t = typeof text === "string" ? text : "";
  if (!t.trim()) return { message: "Type the class code your teacher shows." };
  const code = normalCode(t);
  if (code) return { code };
  return {
    message: `“${echo(t)}” is not a class code: a code is 6 letters and digits, like ${EXAMPLE}.`,
  };
}

export function refusal(status, data, code) {
  if (status === 410) return `This class (${code}) has ended: ask your teacher for the new code.`;
  // (a 404 without "ended" is a route the server does not have, not an unknown class)
  if (status === 404 && data && data.ended) {
    return `No class has the code ${code}: check it with your teacher.`;
  }
  return null;
}

export async function probe(call, code) {
  try {
    const r = await call("GET", `${code}/follow?since=-1`);
    return refusal(r.status, r.data, code);
  } catch {
    return null;
  }
}

export async function tryCode(text, call) {
  const t = typed(text);
  if (!t.code) return t;
  const message = await probe(call, t.code);
  return message ? { message } : { code: t.code };
}

export function entry(params) {
  if (params.get("teach") === "1") return { params };
  if (params.has("class")) {
    const raw = params.get("class") || "";
    const code = normalCode(raw);
    if (!code) return { ask: { value: raw.slice(0, MAX_TYPED), message: typed(raw).message } };
    const next = new URLSearchParams(params);
    next.set("class", code);
    return { params: next };
  }
  return { ask: { value: (params.get("join") || "").slice(0, MAX_TYPED), message: "" } };
}

export function shortAddress(link) {
  try {
    const u = new URL(link);
    return u.host + u.pathname + "?join";
  } catch {
    return "?join";
  }
}
