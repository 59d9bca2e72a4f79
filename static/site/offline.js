// Offline for the whole lesson, the page's side (the worker is sw.js, beside index.html).
// Once the first figure is drawn, saveForOffline() registers the worker, whose install saves
// the page, the tokenizer and every model the nine steps use in the background; the line
// #offline then says, in plain words, how much is saved, and again after each model the
// worker saves later (any model opened while connected). A page opened as a file, or in a
// browser (or an insecure http:// address) without service workers, says nothing: it works
// as before, online.
//
//   saveForOffline()            once; later calls do nothing
//   notSaved(name) -> Promise<boolean>   the page is served by the worker and that model's
//                               file is not in its cache (a failed download is then "not
//                               saved for offline use", loop.js)
//   offlineState() -> {state: "off" | "saving" | "saved" | "failed", models, bytes}
//                               (AttentionExplorer.offline.state(), read by the tests)
import { $, CONFIG, FROM_FILE } from "./page_config.js";

const now = { state: "off", models: [], bytes: 0 };
let started = false;

export function offlineState() {
  return { ...now, models: [...now.models] };
}

function say(text) {
  $("offline").textContent = text;
  $("offline").hidden = !text;
}

function megabytes(bytes) {
  return (bytes / (1024 * 1024)).toFixed(1) + " MB";
}

// "Saved for offline use (31.5 MB): the page, 10 training snapshots and the 2 models the
// nine steps use, and causal-h1-rotary. ..." (the worker installs with all of the lesson's,
// or none)
function saidSaved(s) {
  const lesson = CONFIG.lessonModels;
  const more = s.models.filter((m) => !lesson.includes(m));
  const snapshots = CONFIG.snapshots.list.length;
  const training = snapshots ? `, ${snapshots} training snapshots and` : " and";
  return (
    `Saved for offline use (${megabytes(s.bytes)}): the page${training} the ${lesson.length} models ` +
    "the nine steps use" +
    (more.length ? ", and " + more.join(", ") : "") +
    ". Any other model is saved once you open it while connected."
  );
}

// the active worker's count of what it saved
function ask(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => resolve(e.data);
    worker.postMessage({ type: "status" }, [channel.port2]);
  });
}

async function refresh() {
  const reg = await navigator.serviceWorker.ready;
  const s = await ask(reg.active);
  Object.assign(now, { state: "saved", models: s.models, bytes: s.bytes });
  say(saidSaved(now));
}

// an install that stopped (the network cut mid-way): said, and tried again on the next visit
function watch(worker) {
  if (!worker) return;
  worker.addEventListener("statechange", () => {
    if (worker.state !== "redundant" || now.state !== "saving") return;
    now.state = "failed";
    say(
      "Not saved for offline use yet: the download stopped. Open the page again while connected.",
    );
  });
}

export function saveForOffline() {
  if (started) return;
  started = true;
  if (FROM_FILE || !window.isSecureContext || !("serviceWorker" in navigator)) return;
  now.state = "saving";
  say("⏳ Saving the nine steps for offline use…");
  const again = () => refresh().catch(() => {});
  navigator.serviceWorker.addEventListener("message", (e) => {
    if (e.data && e.data.type === "saved") again();
  });
  navigator.serviceWorker.addEventListener("controllerchange", again); // a newer build's
  navigator.serviceWorker
    .register("sw.js")
    .then((reg) => {
      watch(reg.installing);
      return refresh();
    })
    .catch(() => {
      now.state = "failed";
      say("");
    });
}

export async function notSaved(name) {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return false;
  const saved = await caches.match("models/" + name + ".safetensors").catch(() => null);
  return !saved;
}
