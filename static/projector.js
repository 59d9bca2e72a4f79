// Projector mode ("Big screen"), shared by the app's page (static/page.js) and the static
// edition (static/site/big_screen.js): which screen gets it, the class on <html> that the
// pages' CSS lays out (the app: static/css/30-projector.css; the static edition:
// static/site/site.css), the address that remembers it, and the switches' words.
//
//   projectorMode(onChange) -> {on(), set(on), sync()}
//     ?projector=1 (or the "Big screen" button) puts the class ae-projector on <html>. A
//     short, wide screen gets it by itself at load: a projector at 1280x720 with the
//     browser at 150 % is 853x480 CSS px, where the normal layout shows no heatmap on the
//     first screen. ?projector=0 (or "Normal screen") keeps the normal layout there.
//     set(on) switches, keeps the address's ?projector in step (replaceState), updates
//     every .ae-projector-switch (sync) and calls onChange(on).
const YES = ["1", "true", "yes", "on"];
const NO = ["0", "false", "no", "off"];

export function projectorMode(onChange = () => {}) {
  const root = document.documentElement;
  const asked = (new URLSearchParams(window.location.search).get("projector") || "").toLowerCase();
  const shortWide = window.innerHeight <= 560 && window.innerWidth >= 760;
  if (YES.includes(asked) || (shortWide && !NO.includes(asked))) {
    root.classList.add("ae-projector");
  }
  const on = () => root.classList.contains("ae-projector");

  function sync() {
    document.querySelectorAll(".ae-projector-switch").forEach((b) => {
      b.setAttribute("aria-pressed", String(on()));
      b.textContent = on() ? "Normal screen" : "Big screen";
    });
  }

  function set(value) {
    root.classList.toggle("ae-projector", value);
    const url = new URL(window.location.href);
    // the link says what differs from what this screen would get by itself
    if (value) url.searchParams.set("projector", "1");
    else if (shortWide) url.searchParams.set("projector", "0");
    else url.searchParams.delete("projector");
    window.history.replaceState(window.history.state, "", url);
    sync();
    onChange(value);
  }

  return { on, set, sync };
}
