// Take it home's page side (explorer/ui/take_home_tab.py): the page's own address, which view
// a share link opens, a link's &tab=, and the pictures saved through Plotly.js.
let openView = null; // the last view opened other than Take it home, by id

// The page's address without its query: the share link's base.
export const pageAddress = () => window.location.origin + window.location.pathname;

// The view the link made on Take it home opens (the one the student came from).
export const linkedView = () => openView || "explore";

// The page's load: data = {views: {id: title}, self: Take it home's id, aliases: {old id: id}}.
// A click on a tab button (the bar's or the "more tabs" menu's) records which view is open,
// except Take it home itself. A link's &tab= (an old id through aliases) opens its view once
// the page has drawn (only an id of this page's views: nothing else runs).
export function trackViews(_args, { views, self, aliases = {} }) {
  const byTitle = Object.fromEntries(Object.entries(views).map(([id, t]) => [t, id]));
  const tabButtons = () => [
    ...document.querySelectorAll('#tabs button[role="tab"], #tabs .overflow-dropdown button'),
  ];
  document.addEventListener(
    "click",
    (e) => {
      const b = e.target.closest && e.target.closest("#tabs button");
      const id = b && byTitle[b.textContent.trim()];
      if (id && id !== self) openView = id;
    },
    true,
  );
  const asked = new URLSearchParams(window.location.search).get("tab");
  const wanted = Object.prototype.hasOwnProperty.call(aliases, asked) ? aliases[asked] : asked;
  if (!wanted || !Object.prototype.hasOwnProperty.call(views, wanted)) return;
  let tries = 120; // 30 s: a busy server draws the first view late
  const open = () => {
    const b = tabButtons().find((x) => x.textContent.trim() === views[wanted]);
    if (b && document.querySelector("#grid canvas")) {
      b.click();
      return;
    }
    if (--tries > 0) setTimeout(open, 250);
  };
  setTimeout(open, 500);
}

// A picture button: data = {elem, fmt, scale, width, name: "head" | "grid"}. Client-side
// through Plotly.js (Gradio's plot component sets window.Plotly once a plot is drawn); the
// file name is built from the layer and head numbers only. The picture is at least
// data.width px wide, its height scaled alike: drawn at a phone's width, the caption was cut
// at the edge and the squares were small.
export function downloadPicture([layer, head], { elem, fmt, scale, width, name }) {
  const gd = document.querySelector(`#${elem} .js-plotly-plot`);
  if (!gd || !window.Plotly || !gd._fullLayout) return;
  const file =
    name === "head" ? `attention-L${Number(layer)}H${Number(head)}` : "attention-all-heads";
  const w = gd._fullLayout.width,
    h = gd._fullLayout.height,
    wide = Math.max(w, width);
  window.Plotly.downloadImage(gd, {
    format: fmt,
    filename: file,
    scale,
    width: wide,
    height: Math.round((h * wide) / w),
  });
}
