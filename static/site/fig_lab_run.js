// The Lab's run in a Web Worker, for step 9's figure (static/site/fig_lab.js) and for anyone
// embedding the page: the trainer (static/lab/, bundled as lab_worker.js beside index.html by
// explorer/site/build.py) runs off the page's thread, so the page stays responsive, and is
// fetched only when a run starts. One Worker per run, ended with the run.
//
//   train(settings, {onEvent, signal, withProbe}) -> Promise of the summary
//     settings: the command line's names (layers, heads, pos, mlp, norm, lr, seed, steps);
//               a missing one takes the Lab's default (static/lab/params.js checks them)
//     onEvent:  each event of static/lab/train.js as it arrives ({kind: "start" | "update"},
//               then the summary {kind: "done"})
//     signal:   an AbortSignal: the run stops before its next step, and its summary says
//               stopped
//   Events come every UPDATE_EVERY steps, on any device. The summary is train.js's, with the interface's short names beside its own (issue 50):
//   {formed, formed_step, best_induction, best_previous, steps, seconds, stopped, ...}.
//
// Also window.AttentionExplorer.lab = {train} (the page's one global).
import { AE } from "../engine/index.js";

export const WORKER_URL = "lab_worker.js";
// the command line's names -> the trainer's (static/lab/params.js LAB_DEFAULTS)
const NAMES = { steps: "max_steps" };
const ALLOWED = ["layers", "heads", "pos", "mlp", "norm", "lr", "seed", "steps", "max_steps"];
// an event every this many steps (not every 0.4 s of training): the step a head is seen to
// form, and so the answer, is the same on a fast device and a slow one
export const UPDATE_EVERY = 5;

/** The trainer's settings from the interface's names (an unknown name is refused). */
export function trainerSettings(settings = {}) {
  const out = { update_every: UPDATE_EVERY };
  for (const [k, v] of Object.entries(settings)) {
    if (!ALLOWED.includes(k)) throw new Error(`the Lab has no setting "${k}"`);
    out[NAMES[k] || k] = v;
  }
  return out;
}

function withShortNames(summary) {
  return {
    ...summary,
    formed_step: summary.formed_at_step,
    best_previous: summary.best_previous_token,
  };
}

export function train(settings, { onEvent = () => {}, signal = null, withProbe = false } = {}) {
  return new Promise((resolve, reject) => {
    let worker, asked;
    try {
      asked = trainerSettings(settings);
      worker = new Worker(WORKER_URL);
    } catch (err) {
      reject(err);
      return;
    }
    const stop = () => worker.postMessage({ kind: "stop" });
    const end = () => {
      worker.terminate();
      if (signal) signal.removeEventListener("abort", stop);
    };
    worker.onmessage = ({ data }) => {
      if (data.kind === "error") {
        end();
        reject(new Error(data.message));
        return;
      }
      const event = data.kind === "done" ? withShortNames(data) : data;
      try {
        onEvent(event);
      } finally {
        if (data.kind === "done") {
          end();
          resolve(event);
        }
      }
    };
    worker.onerror = (e) => {
      end();
      reject(new Error(e.message || "the Lab's trainer could not start"));
    };
    if (signal) signal.addEventListener("abort", stop);
    worker.postMessage({ kind: "train", settings: asked, withProbe });
    if (signal && signal.aborted) stop();
  });
}

AE.lab = { train };
