"""The Lab's trainer as the page will run it (issue 50): static/build/lab_worker.js (the
bundle of static/lab/worker.js) in a real Web Worker in Chromium, for a short run (60 steps,
seed 0, the default model). Checked: the events arrive in order ("start", "update"s, then
"done"), each update carries the measures the Lab draws, the summary has its shape, and the
run is the one Node computes with the same code and seed (static/lab/train.js: the batches,
the weights and the WebAssembly kernel are the same, so the held-out measures at step 60
agree to their printed digits). ~10-20 s."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
SETTINGS = {"seed": 0, "layers": 2, "max_steps": 60}
NODE_RUN = """
import { train } from "./static/lab/train.js";
const done = await train(JSON.parse(process.argv[1]), {});
console.log(JSON.stringify(done));
"""
IN_WORKER = """async ({url, settings}) => {
  const worker = new Worker(url);
  const events = [];
  const done = new Promise((resolve, reject) => {
    worker.onmessage = ({data}) => {
      events.push(data);
      if (data.kind === "done") resolve();
      if (data.kind === "error") reject(new Error(data.message));
    };
    worker.onerror = (e) => reject(new Error(e.message || "worker error"));
  });
  worker.postMessage({kind: "train", settings});
  await done;
  worker.terminate();
  return events;
}"""


def _node_summary() -> dict:
    if NODE is None:
        pytest.skip("node is not installed (CI has it)")
    out = subprocess.run([NODE, "--input-type=module", "-e", NODE_RUN, json.dumps(SETTINGS)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_short_run_in_a_web_worker_matches_node(browser, repo_http):
    expected = _node_summary()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{repo_http}/blank.html")
        events = page.evaluate(IN_WORKER, {"url": f"{repo_http}/static/build/lab_worker.js",
                                           "settings": SETTINGS})
    finally:
        context.close()
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "start" and kinds[-1] == "done"
    assert set(kinds[1:-1]) == {"update"}, kinds
    steps = [e["step"] for e in events[:-1]]
    assert steps[0] == 0 and steps[-1] == 60 and steps == sorted(steps)
    for e in events[:-1]:
        assert len(e["induction"]) == 2 and all(len(row) == 2 for row in e["induction"])
        assert len(e["previous_token"]) == 2
        assert e["loss_copy"] > 0 and e["loss_fresh"] > 0
    done = events[-1]
    assert set(done) == set(expected)
    assert done["steps"] == 60 and not done["stopped"] and not done["timed_out"]
    assert done["settings"] == expected["settings"]
    assert done["final"] == expected["final"]  # the same run, the same measures at step 60
    assert done["chance_loss"] == expected["chance_loss"]
    assert done["formed"] is False  # 60 steps are far too few (the head forms near step 400)
    # (best_*: the best over the events, which fall every update_s of training: timing's)
    assert done["best_induction"] >= done["final"]["best_induction"]
