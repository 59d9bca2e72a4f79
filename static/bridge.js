// The one way Gradio's events reach the page's modules. Gradio wants JavaScript as a string
// per event (js=, js_on_load=); explorer/ui/bridge.py writes every such string in one form,
//
//   js=          (...args) => window.AttentionExplorer.handle("NAME", DATA, ...args)
//   js_on_load=  window.AttentionExplorer.mount("NAME", {element, trigger, props, server,
//                upload, watch}, DATA);
//
// DATA: JSON the Python side binds (a tab id, labels; null when none). The modules register
// a function under each NAME (static/handlers.js lists them all, the one table both sides are
// checked against: tests/ui/test_bridge.py). A handler gets (args, data) and returns what
// the Gradio event's outputs take; a mount gets (scope, data).
const handlers = new Map();
const mounts = new Map();

export function register(table) {
  for (const [name, fn] of Object.entries(table.handlers || {})) handlers.set(name, fn);
  for (const [name, fn] of Object.entries(table.mounts || {})) mounts.set(name, fn);
}

export function handle(name, data, ...args) {
  const fn = handlers.get(name);
  if (!fn) throw new Error(`Attention Explorer: no handler named ${name}`);
  return fn(args, data);
}

export function mountOn(name, scope, data) {
  const fn = mounts.get(name);
  if (!fn) throw new Error(`Attention Explorer: nothing to mount named ${name}`);
  return fn(scope, data);
}

// The registered names, for tests: {handlers: [...], mounts: [...]}.
export function names() {
  return { handlers: [...handlers.keys()].sort(), mounts: [...mounts.keys()].sort() };
}
