"""What a walk through Start here's nine steps at three screens still found (issue 42, "Done
when"), pinned in real Chromium:

* steps 5 and 7 said their answers in text beside the figure before Reveal (the shuffle
  test's intro and reading: "the difference is zero", "cannot tell the two orders apart";
  the training view's intro: "first ... the previous word, then, suddenly, ... copy");
* at a phone, Reveal squeezed the step's figure under the answer to 220 px (the large head's
  labels ran together): it keeps its size, a scroll away;
* at a projector, Ablate's "Guesses: before → after" ran past its narrow figure's edge."""

from __future__ import annotations

import pytest

from tests.server import wait_stable
from tests.ui.test_start_here_browser import (
    LAPTOP,
    ON_SCREEN,
    PHONE,
    PROJECTOR,
    WAIT,
    open_step,
    wait_shown,
)

# Is each selector's element covered ("Hidden until Reveal": data-ae-hidden and the page
# not revealed), and is its text out of sight?
COVERED = """(sels) => sels.map((sel) => {
  const el = document.querySelector(sel);
  if (!el) return [sel, 'missing'];
  const cover = getComputedStyle(el, '::after').content;
  return [sel, el.hasAttribute('data-ae-hidden')
    && !document.documentElement.classList.contains('ae-revealed')
    && cover.includes('Hidden until Reveal')];
})"""


def set_up(browser, app_url, n: int, screen: dict):  # noqa: F811
    """A page on step ``n`` at ``screen``, set up, the step's figures drawn on screen."""
    page = open_step(browser, app_url, n, **screen)
    page.locator("#start-setup").click()
    wait_shown(page, n)
    page.wait_for_function(ON_SCREEN, timeout=WAIT)
    return page


def reveal(page, n: int) -> None:
    page.locator(f".ae-step-bar .ae-step[data-step='{n}'] summary").click()
    page.wait_for_function("() => document.documentElement.classList.contains('ae-revealed')",
                           timeout=WAIT)


@pytest.mark.parametrize("n, hidden", [
    (5, ["#pe-shuffle-intro", "#pe-shuffle-summary", "#pe-shuffle-difference"]),
    (7, ["#training-intro"]),
])
def test_no_text_beside_the_figure_says_the_answer_before_reveal(
        browser, app_url, n, hidden):  # noqa: F811
    page = set_up(browser, app_url, n, LAPTOP)
    try:
        assert all(ok is True for _, ok in page.evaluate(COVERED, hidden)), page.evaluate(
            COVERED, hidden)
        reveal(page, n)
        # revealed, nothing is covered: the class reads the text that explains the answer
        assert page.evaluate("(sels) => sels.every((s) => getComputedStyle("
                             "document.querySelector(s), '::after').content === 'none')",
                             hidden)
    finally:
        page.close()


# The shown step's key figure: its drawn height.
KEY_HEIGHT = """() => { const s = [...document.querySelectorAll('.ae-step-bar .ae-step')]
  .find((e) => e.offsetParent !== null);
  const gd = s && document.querySelector('#' + s.dataset.key + ' .js-plotly-plot');
  return gd && gd._fullLayout ? gd._fullLayout.height : null; }"""


def test_reveal_on_a_phone_does_not_squeeze_the_figure(browser, app_url):  # noqa: F811
    page = set_up(browser, app_url, 1, PHONE)
    try:
        before = wait_stable(page, KEY_HEIGHT)  # drawn and fitted to the screen
        reveal(page, 1)
        # the figures refit (static/steps.js refit()): wait until that is done
        after = wait_stable(page, KEY_HEIGHT)
        # was 306 -> 220 px (fit.js's floor): the answer pushed the room under it to nothing
        assert after >= before - 8, (before, after)
    finally:
        page.close()


# Ablate's guesses: the title's box against the figure's and the legend's (CSS px).
TITLE = """() => {
  const gd = document.querySelector('#ablate-predictions .js-plotly-plot');
  const t = gd && gd.querySelector('.annotation-text');
  if (!t || !t.textContent.includes('before')) return null;
  const a = t.getBoundingClientRect(), g = gd.getBoundingClientRect();
  const legend = gd.querySelector('.legend').getBoundingClientRect();
  return {left: a.left - g.left, right: g.right - a.right, bottom: a.bottom,
          legend: legend.top, lines: t.querySelectorAll('tspan.line').length};
}"""


def test_ablates_before_after_title_is_whole_at_a_projector(browser, app_url):  # noqa: F811
    page = set_up(browser, app_url, 3, PROJECTOR)
    try:
        page.locator("#ablate-heads label", has_text="L3 H2").click()
        page.wait_for_function(f"() => !!({TITLE})()", timeout=WAIT)
        for stage in ("set up", "revealed"):  # revealed, the step's column is wider
            if stage == "revealed":
                reveal(page, 3)
            got = wait_stable(page, TITLE)  # the figure's fit to its column is done
            # inside the figure (it ran 48 px past its right edge, 86 once revealed) ...
            assert got["left"] >= 0 and got["right"] >= 0, (stage, got)
            # ... on two lines, above the legend, not over it
            assert got["lines"] == 2 and got["bottom"] <= got["legend"] + 1, (stage, got)
    finally:
        page.close()


# Step 7's chart: the lower panel's title against the upper (loss) panel's tick labels.
TRAINING_TITLE = """() => {
  const gd = document.querySelector('#training-chart .js-plotly-plot');
  const note = gd && [...gd.querySelectorAll('.annotation-text')]
    .find((t) => t.textContent.includes('Best head'));
  const ticks = gd ? [...gd.querySelectorAll('g.ytick text')] : [];
  if (!note || !ticks.length) return null;
  const y = gd._fullLayout.yaxis, top = gd.getBoundingClientRect().top;
  return {top: note.getBoundingClientRect().top, height: gd._fullLayout.height,
          panel: top + y._offset + y._length,
          ticks: Math.max(...ticks.map((t) => t.getBoundingClientRect().bottom))};
}"""


def test_step_7s_chart_keeps_its_titles_apart_on_a_phone(browser, app_url):  # noqa: F811
    page = set_up(browser, app_url, 7, PHONE)
    try:
        got = wait_stable(page, TRAINING_TITLE)  # drawn, and fitted to the phone
        # squeezed to 220 px under the slider's five lines of steps, the title ran over
        # the loss panel's bottom and its lowest labels (now a gap of 6 px at least)
        assert max(got["ticks"], got["panel"]) + 6 <= got["top"], got
    finally:
        page.close()


# Each of step 6's two heads: its rows' height in px and whether its token labels show.
ROWS = """() => ['cmp-left', 'cmp-right'].map((id) => {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot'), f = gd && gd._fullLayout;
  const n = ((gd && gd.layout.yaxis && gd.layout.yaxis.ticktext) || []).length;
  return f && n ? [f.yaxis._length / n, gd.layout.yaxis.showticklabels !== false] : null; })"""


def test_step_6s_two_heads_at_a_projector_show_no_labels_on_top_of_each_other(
        browser, app_url):  # noqa: F811
    """At a projector step 6's heads are ~100 px squares for 21 tokens: labels at least
    12 px tall cannot fit one to a row, so they go (static/fit.js squareLabels)."""
    page = set_up(browser, app_url, 6, PROJECTOR)
    try:
        page.wait_for_function(f"() => ({ROWS})().every((r) => r !== null)", timeout=WAIT)
        rows = wait_stable(page, ROWS)  # fit.js's passes are done
        assert all(not shown or row >= 12 for row, shown in rows), rows
    finally:
        page.close()
