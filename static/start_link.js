// Start here's links (explorer/ui/start_here_tab.py): the link to a step (the page's own
// address plus ?step=N, made in the browser, which knows it) and, on a page opened by such a
// link, opening the tab and bringing the chosen step's question and "Set up this step" onto
// the screen (on a phone they were 1,040-1,230 px down, under the list of steps): the step's
// name at the top where that leaves them on the screen, else "Set up" at its bottom. Again a
// moment later (the step's text arrives after its radio), unless the student scrolled or
// touched.

// [title] -> the link to that step; data: the steps' titles in order.
export function stepLink([title], names) {
  const n = Math.max(0, names.indexOf(title)) + 1;
  return window.location.origin + window.location.pathname + "?step=" + n;
}

// Bring the chosen step's radio and "Set up" into view; true once done (or not to do).
function showStep(raw, moved) {
  const radios = [...document.querySelectorAll("#start-step input")];
  const n = parseInt(raw.slice(0, 3), 10);
  const chosen = radios[Math.min(Math.max(Number.isNaN(n) ? 1 : n, 1), radios.length) - 1];
  const setup = document.querySelector("#start-setup");
  if (!chosen || !chosen.checked || !setup || setup.offsetParent === null) return false;
  const bottom = setup.getBoundingClientRect().bottom;
  if (moved() || (window.scrollY === 0 && bottom <= window.innerHeight)) return true;
  const label = chosen.closest("label") || chosen;
  const top = Math.min(label.getBoundingClientRect().top - 8, bottom - window.innerHeight + 16);
  window.scrollTo({ top: window.scrollY + top, behavior: "instant" });
  return true;
}

// The page's load; data: Start here's tab title.
export function openOnLink(_args, title) {
  const raw = new URLSearchParams(window.location.search).get("step");
  if (raw === null) return;
  let tries = 120; // 30 s: a busy server draws the first grid late
  let moved = false;
  for (const t of ["wheel", "touchmove", "keydown", "pointerdown"]) {
    const stop = () => (moved = true);
    window.addEventListener(t, stop, { capture: true, passive: true, once: true });
  }
  const show = () => showStep(raw, () => moved);
  const follow = (left) => {
    if (show()) {
      setTimeout(show, 800);
      return;
    }
    if (left > 0) setTimeout(() => follow(left - 1), 250);
  };
  const open = () => {
    const b = [...document.querySelectorAll('#tabs button[role="tab"]')].find(
      (x) => x.textContent.trim() === title,
    );
    if (b && document.querySelector("#grid canvas")) {
      b.click();
      follow(120);
      return;
    }
    if (--tries > 0) setTimeout(open, 250);
  };
  setTimeout(open, 500);
}
