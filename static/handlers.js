// Every name the Python side's bridge may call (explorer/ui/bridge.py), and what it runs.
// One table, so that both sides can be checked against it: tests/ui/test_bridge.py reads
// the names of this file (one a line, as "name": in HANDLERS and MOUNTS) and asserts every
// js= and js_on_load= of the app's Gradio config names one of them.
//   HANDLERS  a Gradio event's js: (args, data) -> what the event's outputs take
//   MOUNTS    a gr.HTML's js_on_load: ({element, trigger, props, server, upload, watch}, data)
import { live, mountAnchor } from "./live.js";
import { steps } from "./steps.js";
import { mountExploreGrid } from "./explore_grid.js";
import { readPick } from "./head_pick.js";
import { listenForPlotClicks, pickCell, pickLensCell, toggleHead } from "./plot_clicks.js";
import { labClassTag, mountLabGrid } from "./lab.js";
import { classMode } from "./class.js";
import { downloadPicture, linkedView, pageAddress, trackViews } from "./share.js";
import { openOnLink, stepLink } from "./start_link.js";
import { constant, maskSwitch, mountNewcomer, pageTheme } from "./small_wiring.js";

export const HANDLERS = {
  "live.controls": (values) => live.controls(values),
  "live.start": (values) => live.start(values),
  "live.open": (_args, view) => live.open(view),
  "live.refresh": (_args, view) => live.refresh(view),
  "steps.open": ([where]) => steps.open(where),
  "steps.back": (_args, where) => steps.back(where),
  "steps.ask": () => steps.asked(),
  "steps.fill": ([reply]) => steps.answered(reply),
  "explore.pick": readPick,
  "plots.listen": () => listenForPlotClicks(),
  "ablate.toggle": toggleHead,
  "patch.pick": pickCell,
  "patch.lens": pickLensCell,
  "model.switch": maskSwitch,
  "lab.class": (args, data) => labClassTag(args, data, classMode.labTag),
  "start.link": stepLink,
  "start.open_on_link": openOnLink,
  "share.address": () => pageAddress(),
  "share.track_views": trackViews,
  "share.linked_view": () => linkedView(),
  "share.picture": downloadPicture,
  "page.theme": () => pageTheme(),
  "page.constant": constant,
};

export const MOUNTS = {
  "live.anchor": mountAnchor,
  "explore.grid": mountExploreGrid,
  "explore.newcomer": mountNewcomer,
  "lab.grid": mountLabGrid,
};
