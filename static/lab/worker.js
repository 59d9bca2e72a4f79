// The Lab's trainer as a Web Worker (scripts/build_js.mjs bundles this entry into
// static/build/lab_worker.js, a classic worker script): the page sends
//   {kind: "train", settings, withProbe}   train one run (train.js), posting every event
//   {kind: "stop"}                         end the run before its next step
// and gets each event of train.js back as a message ({kind: "start" | "update" | "done"}),
// or {kind: "error", message} if the settings are refused or the run fails.
import { train } from "./train.js";

let controller = null;

self.onmessage = async ({ data }) => {
  if (data.kind === "stop") {
    if (controller) controller.abort();
    return;
  }
  if (data.kind !== "train") return;
  if (controller) controller.abort(); // one run at a time: a new one ends the last
  const mine = (controller = new AbortController());
  try {
    await train(data.settings || {}, {
      onEvent: (event) => self.postMessage(event),
      signal: mine.signal,
      withProbe: !!data.withProbe,
    });
  } catch (err) {
    self.postMessage({ kind: "error", message: String((err && err.message) || err) });
  } finally {
    if (controller === mine) controller = null;
  }
};
