// How the engine reads a file: a URL -> Promise<ArrayBuffer>. The browser's is fetch; a
// caller without one (Node's unit tests, tests/js/) passes its own reader instead
// (engine.configure({read}), tokenizer.load(url, read)), so nothing here needs a page.
// A server that is busy (HTTP 429 or 503: the app's /ae-engine/ caps the files in flight
// to one address) is asked again after its Retry-After (1 s when it names none, at most
// 10 s), up to TRIES times; any other failure is said at once.

export const TRIES = 6;
const BUSY = new Set([429, 503]);

/** Seconds to wait before asking again, from a Retry-After header (seconds only). */
export function retryAfter(header) {
  const s = Number(header);
  return Number.isFinite(s) && s > 0 ? Math.min(s, 10) : 1;
}

export async function fetchBytes(url, { get = fetch, sleep } = {}) {
  const pause = sleep || ((s) => new Promise((done) => setTimeout(done, s * 1000)));
  for (let tried = 1; ; tried++) {
    const answer = await get(url);
    if (answer.ok) return answer.arrayBuffer();
    if (!BUSY.has(answer.status) || tried >= TRIES) {
      throw new Error(`could not load ${url} (${answer.status})`);
    }
    await pause(retryAfter(answer.headers.get("retry-after")));
  }
}

const utf8 = new TextDecoder();

/** The JSON a reader's bytes hold. */
export async function readJSON(url, read = fetchBytes) {
  return JSON.parse(utf8.decode(await read(url)));
}
