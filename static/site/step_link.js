// A step's own link, ?step=N (1-based), read as the full app reads it (explorer/ui/
// start_here_tab.py from_link and static/start_link.js: the first three characters as an
// integer, clamped to the steps there are; an unreadable N is step 1). Pure: Node tests it
// (tests/js/site_words.test.mjs).

/** The 0-based step a page address's query names, or null when it names none. */
export function stepIndex(search, count) {
  const raw = new URLSearchParams(search).get("step");
  if (raw === null || count < 1) return null;
  const n = parseInt(raw.slice(0, 3), 10);
  return Math.min(Math.max(Number.isNaN(n) ? 1 : n, 1), count) - 1;
}

/** The query of step `index`'s link (0-based in, 1-based out), the page's others kept. */
export function stepQuery(search, index) {
  const params = new URLSearchParams(search);
  params.set("step", String(index + 1));
  return "?" + params.toString();
}
