// How the engine reads a file: a URL -> Promise<ArrayBuffer>. The browser's is fetch; a
// caller without one (Node's unit tests, tests/js/) passes its own reader instead
// (engine.configure({read}), tokenizer.load(url, read)), so nothing here needs a page.

export async function fetchBytes(url) {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`could not load ${url} (${answer.status})`);
  return answer.arrayBuffer();
}

const utf8 = new TextDecoder();

/** The JSON a reader's bytes hold. */
export async function readJSON(url, read = fetchBytes) {
  return JSON.parse(utf8.decode(await read(url)));
}
