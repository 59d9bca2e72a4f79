// The page's own script (explorer/ui/page.py puts it in the page's <head>; it runs before Gradio
// mounts the app, so everything below waits for elements or listens on the document).
// It only changes presentation: which layout (projector mode), where focus goes (skip
// links), whether the knobs drawer is open, the phone's row of tabs, the figures'
// accessible names, and which of the head view's lines are drawn. It sends nothing to the server and clicks none of the
// live wiring's buttons (explorer/ui/controls.py, static/live_grid.js).
(() => {
  const AE = (window.AttentionExplorer = window.AttentionExplorer || {});
  const root = document.documentElement;
  const PHONE = window.matchMedia("(max-width: 720px)");

  // ------------------------------------------------------------ projector mode
  // ?projector=1 (or the "Big screen" button) puts the class on <html>; static/style.css
  // does the layout: the sentence and knobs in a column at the left, the views at the
  // right with the large heatmap first, sized to the screen (static/fit.js).
  // A short, wide screen gets it by itself at load: a projector at 1280x720 with the
  // browser at 150 % is 853x480 CSS px, where the normal layout shows no heatmap on the
  // first screen. ?projector=0 (or "Normal screen") keeps the normal layout there.
  const params = new URLSearchParams(window.location.search);
  const asked = (params.get("projector") || "").toLowerCase();
  const SHORT_WIDE = window.innerHeight <= 560 && window.innerWidth >= 760;
  const projectorAsked = ["1", "true", "yes", "on"].includes(asked);
  const normalAsked = ["0", "false", "no", "off"].includes(asked);
  if (projectorAsked || (SHORT_WIDE && !normalAsked)) root.classList.add("ae-projector");
  const projector = () => root.classList.contains("ae-projector");

  function setProjector(on) {
    root.classList.toggle("ae-projector", on);
    const url = new URL(window.location.href);
    // the link says what differs from what this screen would get by itself
    if (on) url.searchParams.set("projector", "1");
    else if (SHORT_WIDE) url.searchParams.set("projector", "0");
    else url.searchParams.delete("projector");
    window.history.replaceState(window.history.state, "", url);
    syncSwitch();
    fitDrawer();
    if (AE.fit) AE.fit.all();
    window.dispatchEvent(new Event("resize")); // Plotly figures refit their new width
  }

  function syncSwitch() {
    document.querySelectorAll(".ae-projector-switch").forEach((b) => {
      b.setAttribute("aria-pressed", String(projector()));
      b.textContent = projector() ? "Normal screen" : "Big screen";
    });
  }

  // ------------------------------------------------------------ skip links
  function focusFirst(selector) {
    const el = document.querySelector(selector);
    if (el) { el.focus(); el.scrollIntoView({ block: "nearest" }); }
    return !!el;
  }

  document.addEventListener("click", (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    if (t.closest(".ae-projector-switch")) { setProjector(!projector()); return; }
    const skip = t.closest("[data-ae-skip]");
    if (!skip) return;
    ev.preventDefault();
    if (skip.dataset.aeSkip === "views") {
      focusFirst('#tabs button[role="tab"][aria-selected="true"]')
        || focusFirst('#tabs button[role="tab"]');
    } else {
      openDrawer(true);
      focusFirst("#controls input, #controls button");
    }
  });

  // ------------------------------------------------------------ phone: a picked head
  // On a phone the large head is a screen or two below the grid: opening a head from the
  // grid (a tap on its square, or Enter: static/live_grid.js clicks #grid-select) brings
  // the large head onto the screen, under the sentence box, which stays at the top.
  // (where the sentence box ends once it sticks to the top of the screen; 0: it does not)
  const sentenceBottom = () => {
    const form = document.querySelector("#sentence")?.closest(".form") || null;
    return form && getComputedStyle(form).position === "sticky" ? form.offsetHeight : 0;
  };
  AE.sentenceBottom = sentenceBottom; // static/steps.js keeps a step's bar below it

  document.addEventListener("click", (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t || !t.closest("#grid-select") || !root.classList.contains("ae-drawer")) return;
    const big = document.querySelector("#head-large");
    if (!big) return;
    const top = big.getBoundingClientRect().top + window.scrollY - sentenceBottom() - 8;
    window.scrollTo({ top, behavior: "smooth" });
  }, true);

  // ------------------------------------------------------------ the knobs drawer
  // On a phone the knobs column is a drawer fixed to the bottom of the screen (CSS): its
  // "Knobs" bar is always in reach, closed at first so the figures have the screen.
  const drawerButton = () => document.querySelector("#controls .label-wrap");
  const drawerOpen = () => drawerButton()?.classList.contains("open");

  function openDrawer(open) {
    const b = drawerButton();
    if (b && drawerOpen() !== open) b.click();
  }

  let drawerFitted = false;
  function fitDrawer() {
    const wasDrawer = root.classList.contains("ae-drawer");
    root.classList.toggle("ae-drawer", PHONE.matches && !projector());
    const b = drawerButton();
    if (!b) return;
    // From a phone's drawer back to a column at the side (a wider window, a turned tablet,
    // Big screen): the column is open again. A closed drawer left the knobs folded away
    // on a laptop; tests saw it after a full-page screenshot briefly changed the window.
    if (wasDrawer && !root.classList.contains("ae-drawer")) openDrawer(true);
    b.setAttribute("aria-controls", "controls");
    b.setAttribute("aria-expanded", String(!!drawerOpen()));
    if (!drawerFitted) {
      drawerFitted = true;
      // once, at load: a drawer starts closed; a column at the side stays open
      if (root.classList.contains("ae-drawer")) openDrawer(false);
    }
  }

  // ------------------------------------------------------------ phone: the row of tabs
  // On a phone the tabs are one row that scrolls sideways (explorer/ui/page.py's CSS): it fades at
  // an edge past which more tabs are, and the open tab is kept in its view (a step or a
  // key press may open one that is scrolled away).
  let shownTab = null;
  function fitTabRow() {
    const row = document.querySelector('#tabs [role="tablist"].tab-container');
    if (!row) return;
    if (!root.classList.contains("ae-drawer")) { row.removeAttribute("data-ae-more"); return; }
    if (!row.__aeScroll) {
      row.__aeScroll = true;
      row.addEventListener("scroll", () => fitTabRow(), { passive: true });
    }
    const tab = row.querySelector('button[role="tab"][aria-selected="true"]');
    if (tab && tab !== shownTab) {
      shownTab = tab;
      const r = row.getBoundingClientRect(), t = tab.getBoundingClientRect();
      if (t.left < r.left || t.right > r.right) {
        row.scrollBy({ left: t.left - r.left - (r.width - t.width) / 2, behavior: "instant" });
      }
    }
    const left = row.scrollLeft > 2;
    const right = row.scrollLeft + row.clientWidth < row.scrollWidth - 2;
    const more = left && right ? "both" : left ? "left" : right ? "right" : null;
    if (more === null) row.removeAttribute("data-ae-more");
    else if (row.dataset.aeMore !== more) row.dataset.aeMore = more;
  }

  // ------------------------------------------------------------ figures
  // Each Plotly figure gets role="figure" and a name: its title and what it shows.
  const DESCRIBE = {
    "head-large": "Heatmap of one head: each row is a token, each column a token it may "
      + "look at; brighter means more attention.",
    "head-view": "Lines from each token on the left to the tokens it looks at on the right, "
      + "one colour per head. Tap or click a word on the left to show only its lines; "
      + "from the keyboard, the up and down arrow keys pick a word and Escape shows all.",
    predictions: "Bar chart of the model's top guesses and their probabilities.",
  };

  function title(gd) {
    const anns = (gd.layout && gd.layout.annotations) || [];
    const top = anns.find((a) => a && a.yref === "paper" && Number(a.y) >= 1 && a.text);
    const t = top ? top.text : (gd.layout && gd.layout.title && gd.layout.title.text) || "";
    return String(t).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  }

  function nameFigure(gd) {
    const host = gd.closest('[data-testid="plotly"]') || gd;
    const block = gd.closest("[id]");
    const named = block && block.querySelector('[data-testid="block-label"]');
    const what = (block && DESCRIBE[block.id]) || (named && named.textContent.trim()) || "";
    const label = [title(gd), what].filter(Boolean).join(". ") || "Figure";
    // role="figure", not "img": a figure may hold interactive parts (Plotly's legend)
    host.setAttribute("role", "figure");
    if (host.getAttribute("aria-label") !== label) host.setAttribute("aria-label", label);
  }

  // The head view: tap or click a word on the left (a query) to keep only its lines;
  // the same word again, or a tap on the background, shows every line again.
  function focusHeadView(gd, query) {
    if (!window.Plotly) return;
    const lines = [], xs = [], ys = [];
    gd.data.forEach((tr, i) => {
      if (tr.mode !== "lines" || tr.showlegend) return; // line buckets only
      if (!tr.__aeAll) { // as sent: base64 typed arrays, which Plotly decodes in _fullData
        const full = (gd._fullData || []).find((f) => f.index === i) || tr;
        tr.__aeAll = { x: Array.from(full.x || []), y: Array.from(full.y || []) };
      }
      const all = tr.__aeAll, x = [], y = [];
      for (let s = 0; s < all.y.length; s += 3) { // x, y of a segment: 3 points
        if (query === null || all.y[s] === query) {
          x.push(all.x[s], all.x[s + 1], all.x[s + 2]);
          y.push(all.y[s], all.y[s + 1], NaN);
        }
      }
      lines.push(i); xs.push(x); ys.push(y);
    });
    gd.__aeQuery = query;
    if (lines.length) Plotly.restyle(gd, { x: xs, y: ys }, lines);
    const tokens = gd.data.find((tr) => tr.name === "query");
    const word = query === null || !tokens ? "" : String(tokens.text[query] ?? query);
    let note = gd.closest("#head-view")?.querySelector(".ae-focus-note");
    const block = gd.closest("#head-view");
    if (block && !note) {
      note = document.createElement("p");
      note.className = "ae-focus-note";
      note.setAttribute("aria-live", "polite");
      block.appendChild(note);
    }
    if (note) {
      note.textContent = query === null ? ""
        : "Showing where “" + word + "” (token " + query + ") looks. "
          + "Tap it again, tap the background or press Escape to show every line.";
    }
  }

  // The number of words (queries) on the head view's left.
  const queryCount = (gd) =>
    ((gd._fullData || []).find((tr) => tr.name === "query") || { y: [] }).y.length;

  function hookHeadView(gd) {
    if (gd.__aeHooked || !gd.on) return;
    gd.__aeHooked = true;
    // From the keyboard: the figure takes focus (Tab); the arrow keys step through the
    // words on the left, Escape shows every line again.
    const host = gd.closest('[data-testid="plotly"]') || gd;
    host.tabIndex = 0;
    host.addEventListener("keydown", (ev) => {
      const n = queryCount(gd), q = gd.__aeQuery;
      if (!n) return;
      const down = ev.key === "ArrowDown" || ev.key === "ArrowRight";
      const up = ev.key === "ArrowUp" || ev.key === "ArrowLeft";
      let next;
      if (down) next = q == null ? 0 : Math.min(n - 1, q + 1);
      else if (up) next = q == null ? n - 1 : Math.max(0, q - 1);
      else if (ev.key === "Escape" && q != null) next = null;
      else return;
      ev.preventDefault(); // the arrows would scroll the page
      focusHeadView(gd, next);
    });
    gd.on("plotly_click", (ev) => {
      const pt = ev && ev.points && ev.points[0];
      if (!pt || !pt.data || pt.data.name !== "query") return;
      const q = Math.round(pt.y);
      gd.__aePicked = Date.now();
      focusHeadView(gd, gd.__aeQuery === q ? null : q);
    });
    gd.addEventListener("click", () => {
      // a click on the background: no plotly_click came with it (that one comes first)
      setTimeout(() => {
        if (gd.__aeQuery != null && Date.now() - (gd.__aePicked || 0) > 300) {
          focusHeadView(gd, null);
        }
      }, 50);
    });
  }

  // A new figure from the server (Plotly.react replaces gd.data): keep the chosen word.
  function onFigure(gd) {
    nameFigure(gd);
    if (AE.fit) AE.fit.figure(gd); // its size and, on a big screen, its text (fit.js)
    const block = gd.closest("#head-view");
    if (!block) return;
    hookHeadView(gd);
    const fresh = gd.data && gd.data.length && !gd.data.some((tr) => tr.__aeAll);
    if (fresh && gd.__aeQuery != null) {
      const n = queryCount(gd);
      focusHeadView(gd, gd.__aeQuery < n ? gd.__aeQuery : null);
    }
  }

  function hookFigure(gd) {
    if (gd.__aePage || !gd.on) return;
    gd.__aePage = true;
    gd.on("plotly_afterplot", () => onFigure(gd));
    onFigure(gd);
  }

  // ------------------------------------------------------------ wait for the app
  // Gradio mounts the page after this script; figures appear (and reappear) later still.
  function scan() {
    document.querySelectorAll(".js-plotly-plot").forEach(hookFigure);
    if (!drawerFitted) fitDrawer();
    else {
      const b = drawerButton();
      if (b) b.setAttribute("aria-expanded", String(!!drawerOpen()));
    }
    syncSwitch();
    fitTabRow();
  }
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; scan(); });
  }).observe(root, { childList: true, subtree: true, attributes: true,
    attributeFilter: ["class"] });
  PHONE.addEventListener("change", () => { drawerFitted = false; fitDrawer(); });
})();
