"""The Lab's chart and the class's table at the screens where issue 42 (item 12, and item 10's
Lab) found them, in real Chromium on the whole app:

* at a projector, during Start here's Lab step, once a run has ended and its long status
  has left the chart little height: the loss panel ends above the lower panel's title,
  the legend sits below the step numbers, every legend entry has its own colour or dash
  (two shared one blue, two one grey dash), and the class's table breaks no word;
* the class's table keeps updating after a student's own run has ended: another
  student's run appears on the first page with nothing pressed there;
* on a phone, Predict and Train come before the Lab's eight settings."""

from __future__ import annotations

from tests.server import GRID_DRAWN, wait_stable

PROJECTOR = dict(viewport={"width": 853, "height": 480}, device_scale_factor=1.5)
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
             is_mobile=True)
WAIT = 120000  # ms: a worker process starts (imports torch) on a busy 2-core box
STATUS = "() => document.querySelector('#lab-status').innerText"
DONE = f"() => /Step 30 /.test(({STATUS})()) && !({STATUS})().includes('⏳')"

# The drawn chart: its traces' (colour, dash), the loss panel's bottom and the lower title's
# top, the legend's top and the tick labels' bottom (CSS px on the page).
CHART = """() => {
  const gd = document.querySelector('#lab-chart .js-plotly-plot');
  if (!gd || !gd._fullLayout || !gd._fullData) return null;
  const L = gd._fullLayout, top = gd.getBoundingClientRect().top;
  const title = [...gd.querySelectorAll('.annotation-text')]
    .find((e) => e.textContent.startsWith("Best head"));
  const ticks = [...gd.querySelectorAll('.xtick text')].map((e) => e.getBoundingClientRect());
  const legend = gd.querySelector('.legend');
  return {
    lines: gd._fullData.filter((t) => t.showlegend !== false)
      .map((t) => [t.name, t.line.color, t.line.dash]),
    height: L.height, lossBottom: top + L.yaxis._offset + L.yaxis._length,
    titleTop: title && title.getBoundingClientRect().top,
    ticksBottom: Math.max(...ticks.map((r) => r.bottom)),
    legendTop: legend && legend.getBoundingClientRect().top,
  };
}"""
# Words of the class's table that a line break splits (each word: one box on one line).
SPLIT_WORDS = """() => {
  const out = [];
  document.querySelectorAll('#lab-table td, #lab-table th').forEach((cell) => {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  });
  return out;
}"""
ROWS = "() => document.querySelectorAll('#lab-table tbody tr').length"


def train(page, seed: int, steps: int = 30) -> None:
    page.locator("#lab-seed input").fill(str(seed))
    page.locator("#lab-seed input").press("Tab")
    box = page.locator("#lab-steps input[type=number]")
    box.fill(str(steps))
    box.press("Enter")
    page.click("#lab-train")
    page.wait_for_function(DONE, timeout=WAIT)


def test_the_lab_step_at_a_projector_and_the_class_table_that_keeps_updating(
        browser, app_url):  # noqa: F811
    projector = browser.new_context(**PROJECTOR)
    phone = browser.new_context(**PHONE)
    try:
        page = projector.new_page()
        page.goto(app_url + "?projector=1&step=9")
        page.wait_for_function(GRID_DRAWN, timeout=WAIT)
        page.locator("#start-setup").click()
        page.locator("#lab-train").wait_for(state="visible", timeout=WAIT)
        train(page, seed=4242)
        chart = wait_stable(page, CHART)  # the chart's last redraw and its fit to the step
        assert chart is not None
        # every legend entry its own colour or dash
        styles = [(colour, dash) for _, colour, dash in chart["lines"]]
        assert len(chart["lines"]) == 6 and len(set(styles)) == 6, chart["lines"]
        assert len({c for c, d in styles if d == "solid"}) == 4, chart["lines"]
        # the loss panel ends above the lower panel's title; the legend below the steps
        assert chart["titleTop"] >= chart["lossBottom"] - 0.5, chart
        assert chart["legendTop"] >= chart["ticksBottom"] - 0.5, chart
        rows = page.evaluate(ROWS)
        assert rows >= 1 and page.evaluate(SPLIT_WORDS) == []

        # another student, on a phone: Predict and Train before the eight settings
        other = phone.new_page()
        other.goto(app_url)
        other.wait_for_function(GRID_DRAWN, timeout=WAIT)
        other.locator('#tabs button[role="tab"][data-tab-id="lab"]').click()
        other.locator("#lab-train").wait_for(state="visible", timeout=WAIT)
        order = other.evaluate("""() => ['#lab-predict', '#lab-train', '#lab-layers',
            '#lab-steps'].map((s) => document.querySelector(s).getBoundingClientRect().top)""")
        assert order[0] < order[2] and order[1] < order[2] and order[1] < order[3], order
        train(other, seed=4243)
        # ... whose run reaches the first page's table, where nothing was pressed since
        page.wait_for_function(f"() => ({ROWS})() > {rows}", timeout=20000)
    finally:
        projector.close()
        phone.close()
