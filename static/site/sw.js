// The static edition's service worker: why it exists is a class that loses the network
// after the first load and still has every step of Start here. explorer/site/build.py copies
// this file, unbundled, to the site's root (so its scope is the whole page) and fills BUILD:
// the build's version (a hash of the page, its script and its models' sha256, so a new build
// is a new worker and a new cache) and the lesson's files (the page, its script and style,
// the tokenizer and every model the nine steps' knobs name). static/site/offline.js
// registers it once the first figure is drawn.
//
//   install   the lesson's files into this build's cache (all or nothing: a download that
//             stops leaves no worker, and the next visit tries again)
//   activate  the older builds' caches of this page deleted; the open pages served from now
//   fetch     a file of the site from the cache first; any other (another model) from the
//             network, and saved once it arrived whole (200 only: no failed answer is kept);
//             the page with any ?step=N is the one page
//   message   {type: "status"} -> {models: [names saved], bytes}, on the port sent with it;
//             every file saved later tells the open pages {type: "saved"}
// Nothing of another host passes through it. A model the network cannot bring and the cache
// does not hold fails as a download (the page says it is not saved for offline use).

const BUILD = /*BUILD*/ { version: "dev", lesson: [] };
const PREFIX = "attention-explorer " + self.registration.scope + " ";
const CACHE = PREFIX + BUILD.version;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // revalidated: a file an older build left in the browser's HTTP cache is not reused
      .then((cache) => cache.addAll(BUILD.lesson.map((f) => new Request(f, { cache: "no-cache" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => names.filter((n) => n.startsWith(PREFIX) && n !== CACHE))
      .then((old) => Promise.all(old.map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// the cache's key for a request: the page itself (index.html, any ?step=N) is the scope's URL
function keyOf(request) {
  const url = new URL(request.url);
  const page = url.origin + url.pathname;
  const scope = self.registration.scope;
  const isPage = request.mode === "navigate" && (page === scope || page === scope + "index.html");
  return isPage ? scope : request;
}

async function answer(event) {
  const key = keyOf(event.request);
  const cache = await caches.open(CACHE);
  const saved = await cache.match(key);
  if (saved) return saved;
  const response = await fetch(event.request);
  if (response.status === 200 && response.type === "basic") {
    event.waitUntil(cache.put(key, response.clone()).then(tellPages, () => {}));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  event.respondWith(answer(event));
});

async function tellPages() {
  for (const page of await self.clients.matchAll()) page.postMessage({ type: "saved" });
}

// what this build's cache holds: the models by name, and every file's bytes
async function holdings() {
  const cache = await caches.open(CACHE);
  const models = [];
  let bytes = 0;
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const length = Number(response.headers.get("content-length"));
    bytes += length > 0 ? length : (await response.blob()).size;
    const model = new URL(request.url).pathname.match(/\/models\/([^/]+)\.safetensors$/);
    if (model) models.push(decodeURIComponent(model[1]));
  }
  return { type: "status", models: models.sort(), bytes };
}

self.addEventListener("message", (event) => {
  const port = event.ports && event.ports[0];
  if (!port || !event.data || event.data.type !== "status") return;
  event.waitUntil(holdings().then((s) => port.postMessage(s)));
});
