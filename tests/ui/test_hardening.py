"""Hardening, input and errors: what a hand-made request can send to ``/explore`` and what it
gets back. Requests go over raw HTTP (``/gradio_api/call/explore``, JSON encoded by hand so
that NUL and lone surrogates reach the server) or gradio_client: the browser's ``max_length``
is no defence, the server must bound and escape everything itself.

Plotly output is checked as parsed JSON, never by grepping the raw text (plotly's ``to_json``
writes ``<`` as ``\\u003c``, so a grep for ``<a`` would pass vacuously).
"""

from __future__ import annotations

import html
import json
import logging
import re
import sys
import unicodedata
from collections import Counter

import gradio as gr
import httpx
import numpy as np
import pytest

import explorer.ui.controls
from explorer import app
from explorer.analysis.run import MAX_CHARS, prepare
from explorer.figures.labels import EMPTY, SPACE, axis_labels
from explorer.paths import STATIC
from explorer.views.controls import BOX_CHARS, EMPTY_STATE, Controls
from explorer.views.explore import explore
from tests.plotdata import decode_array, figure_json, heatmaps
from tests.server import call_outcome, local_client, serve

CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]
N_CTX = 128
GENERIC = "Something went wrong"
HARDENING_QUEUE = dict(default_concurrency_limit=2, max_size=8)


@pytest.fixture(scope="module")
def base(app_url):  # noqa: F811
    return app_url.rstrip("/") + "/gradio_api"


@pytest.fixture(scope="module")
def client(app_url):  # noqa: F811
    return local_client(app_url)


def raw_call(base: str, data: list, timeout: float = 60) -> tuple[str, object]:
    """POST /call/explore, then read its SSE stream. JSON is written with ensure_ascii, so
    NUL and lone surrogates travel as ``\\u0000``/``\\ud800`` escapes, as any client may send.
    Returns (event, payload): ("complete", [6 outputs]) or ("error", ...)."""
    body = json.dumps({"data": data}, ensure_ascii=True)
    http = dict(timeout=timeout, verify=False)  # plain HTTP: skip loading CA certificates
    r = httpx.post(f"{base}/call/explore", content=body,
                   headers={"content-type": "application/json"}, **http)
    r.raise_for_status()
    return call_outcome(httpx.get(f"{base}/call/explore/{r.json()['event_id']}", **http).text)


def explore_raw(base: str, text, **changes) -> list:
    controls = dict(zip(["objective", "heads", "pos", "mask", "scaling", "temperature",
                         "layer", "head", "theme"], CONTROLS, strict=True))
    controls.update(changes)
    event, outputs = raw_call(base, [text, *controls.values()])
    assert event == "complete", (event, outputs)
    return outputs


def strings(node, path=""):
    """Every (path, string) in a parsed Plotly figure: ticktext, text, hover and text
    templates, customdata strings, names, titles, annotations, legend..."""
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from strings(value, f"{path}.{key}")
    elif isinstance(node, list):
        for value in node:
            yield from strings(value, f"{path}[]")


def axes(fig: dict) -> list[dict]:
    """Axis dicts with tick text, from the layout and from its template (the grid keeps the
    shared tick labels in ``layout.template.layout.xaxis``)."""
    layouts = [fig["layout"], fig["layout"].get("template", {}).get("layout", {})]
    return [v for lay in layouts for k, v in lay.items()
            if re.fullmatch(r"[xy]axis\d*", k) and isinstance(v, dict) and "ticktext" in v]


def tick_labels(fig: dict, axis: str = "xaxis") -> list[str]:
    return fig["layout"][axis]["ticktext"]


# --- input bounds ----------------------------------------------------------------------------

def test_100k_characters_over_raw_http_are_cut_with_messages_then_all_is_normal(
        base, client, resources):
    text = ("The cat sat on the mat. " * 5000)[:100_000]
    grid, big, lines, preds, status, _ = explore_raw(base, text)
    # Cut twice (characters, then tokens), said once: what was kept.
    assert status.count("⚠️") == 1, status
    assert f"The model reads at most {N_CTX} tokens" in status and "The rest was left out" \
        in status
    assert heatmaps(figure_json(grid))[0].shape == (N_CTX, N_CTX)
    assert len(tick_labels(figure_json(big))) == N_CTX

    # The next request (another client) is untouched by the previous one.
    grid, *_, status, _ = client.predict("The cat sat.", *CONTROLS, api_name="/explore")
    assert "⚠️" not in status and "characters" not in status
    n = len(prepare(resources[0], "The cat sat.", N_CTX, masked_word=False).ids)
    assert heatmaps(figure_json(grid))[0].shape == (n, n) and f"{n} tokens" in status


def test_character_and_token_limits_each_say_what_was_cut(resources):
    tok, _ = resources
    # Characters only (a context large enough that tokens never bind).
    prep = prepare(tok, "e" * (MAX_CHARS + 234), n_ctx=10**6, masked_word=False)
    assert prep.notices == (f"Only the first {MAX_CHARS:,} characters of your text were "
                            "used; the rest was left out.",)
    assert "".join(prep.pieces) == "e" * MAX_CHARS
    # Tokens only (under the character limit): the notice says how many characters stayed.
    text = "cat " * 200
    assert len(text) < MAX_CHARS
    prep = prepare(tok, text, n_ctx=N_CTX, masked_word=False)
    kept = len("".join(prep.pieces))
    assert prep.notices == (f"The model reads at most {N_CTX} tokens, so only the beginning "
                            f"of your text was used: its first {kept} characters ({N_CTX} "
                            "tokens). The rest was left out.",)
    assert len(prep.ids) == len(prep.pieces) == N_CTX
    assert "".join(prep.pieces) == text[:kept]  # a prefix was kept
    # Masked-word markers count as tokens too and are bounded the same way.
    prep = prepare(tok, "[mask] " * 300, n_ctx=N_CTX, masked_word=True)
    assert len(prep.ids) == N_CTX and len(prep.notices) == 1  # both cuts, one notice


@pytest.mark.parametrize("text", ["", " ", "   \n\t ", "\u00a0\u3000\u2003", None])
def test_empty_or_whitespace_text_shows_the_friendly_empty_state(base, text):
    grid, big, lines, preds, status, table = explore_raw(base, text)
    assert (grid, big, lines, preds, table) == (None, None, None, None, "")
    assert status == EMPTY_STATE and GENERIC not in status


# --- any Unicode ---------------------------------------------------------------------------

UNICODE = {
    "emoji": "I ❤️ my 🐈 and 🙂!",
    "zwj_emoji": "family 👨‍👩‍👧‍👦 and coder 👩🏽‍💻 here",
    "flags": "🇫🇷 🇯🇵 🇧🇷 and 🏴󠁧󠁢󠁳󠁣󠁴󠁿",
    "combining": "cafe\u0301 n\u0303o \u0301alone Zalgo: Z\u0351\u0300\u0489a\u0300\u0301",
    "cjk": "我爱你。日本語のテキスト。한국어 문장.",
    "rtl": "مرحبا بالعالم and שלום עולם",
    "zero_width": "a\u200bb\u200cc\u200dd\ufeffe\u2060f",
    "bidi_override": "user\u202egnp.exe\u202c and \u2066isolate\u2069",
    "controls": "bell\x07 esc\x1b[31m del\x7f c1\x85 tab\tnewline\ncr\r",
    "nul": "before\x00after\x00",
    "lone_surrogates": "bad \ud800 pair \udfff end",
    "reversed_surrogates": "x\udc00\ud800y",
    "noncharacters": "\ufffe\uffff\U0010ffff \U000e0001",
    "math_and_symbols": "∑ ∞ ≠ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟘 ℵ",
}


def visible_only(text: str) -> str:
    """``text`` without format characters and variation selectors (the glue of emoji)."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf"
                   and not 0xFE00 <= ord(c) <= 0xFE0F)


VISIBLE = ("emoji", "zwj_emoji", "flags", "cjk", "rtl", "math_and_symbols")


@pytest.mark.parametrize("name", list(UNICODE))
def test_any_unicode_gives_figures_labelled_as_typed(base, resources, name):
    tok, _ = resources
    text = UNICODE[name]
    grid, big, lines, preds, status, table = explore_raw(base, text)
    prep = prepare(tok, text, N_CTX, masked_word=False)
    # The only warning is prepare's own (text the model never learned), said in plain words.
    assert GENERIC not in status and status.count("⚠️") == len(prep.notices) <= 1
    assert all(notice in status for notice in prep.notices)
    n = len(prep.ids)
    assert f"{n} tokens" in status
    figs = [figure_json(f) for f in (grid, big, lines, preds)]
    assert all(z.shape == (n, n) for z in heatmaps(figs[0]))
    labels = tick_labels(figs[1])
    assert labels == axis_labels(prep.pieces)  # each token shown by the documented mapping
    for fig in figs:  # nothing that is not valid Unicode text reaches the page
        for path, s in strings(fig):
            assert not re.search("[\ud800-\udfff]", s), (path, ascii(s))
    if "surrogate" not in name:
        assert "".join(prep.pieces) == text  # the pieces are the text, nothing lost
    if name in VISIBLE:  # visible scripts: the labels read back as what was typed, except
        # that an invisible character in a token of its own (VS16, ZWJ, a flag's tag letters
        # when BPE splits them off) is named, e.g. ⟨VS16⟩, rather than drawn as nothing.
        shown = "".join(html.unescape(t) for t in labels).replace(SPACE, " ").replace(EMPTY, "")
        assert visible_only(re.sub("\u27e8[^\u27e9]*\u27e9", "", shown)) == visible_only(text)


# --- escaping for Plotly ---------------------------------------------------------------------

MARKER = "Qz7marker"
EVIL = {  # each under the 128-token limit, so every character reaches the figures
    "tags": (f'{MARKER} <a href="javascript:alert(1)">click</a> <span style="font-size:99px">'
             'big</span> <b>bold</b><br>line <sub>low</sub> <sup>up</sup> <i>it</i> '
             '<em>e</em> </extra>'),
    "scripts": ('<img src=x onerror=alert(1)> <script>alert(1)</script> '
                '<svg onload=alert(1)> <<>> <b'),
    "templates_entities": ('$x^2$ $$a$$ %{x} %{customdata[0]} %{text} &lt;b&gt; &amp; '
                           '&#60;b&#62; &quot; "q" \'s\' \\u003cb\\u003e'),
}
BENIGN = "The cat sat on the mat and looked at the dog for a long time."
RAW_TAG = re.compile(r"<\s*/?\s*(a|span|b|br|sub|sup|i|em|img|script|svg|style|extra)\b",
                     re.IGNORECASE)


def markup_strings(fig: dict) -> set[str]:
    """Strings that Plotly.js would read markup or LaTeX in."""
    return {s for _, s in strings(fig) if RAW_TAG.search(s) or "$" in s or "%{" in s}


@pytest.mark.parametrize("changes", [{}, {"mask": "off", "temperature": 2.5, "layer": 2,
                                          "head": 3, "theme": "dark"}],
                         ids=["as-trained", "experiment"])
@pytest.mark.parametrize("payload", list(EVIL))
def test_user_markup_never_reaches_plotly_unescaped(base, payload, changes):
    text = EVIL[payload]
    evil = explore_raw(base, text, **changes)
    assert "⚠️ The model reads at most" not in evil[4]  # nothing was cut
    benign = explore_raw(base, BENIGN, **changes)
    for fig_evil, fig_benign in zip(evil[:4], benign[:4], strict=True):
        fig_evil, fig_benign = figure_json(fig_evil), figure_json(fig_benign)
        # Raw tags, "$" and "%{" appear only in our own fixed templates and titles, which
        # the benign sentence produces identically: user text adds none.
        extra = markup_strings(fig_evil) - markup_strings(fig_benign)
        assert not extra, extra
        templates = {(p, s) for p, s in strings(fig_evil) if p.endswith("template")}
        assert templates == {(p, s) for p, s in strings(fig_benign) if p.endswith("template")}
    labels = tick_labels(figure_json(evil[1]))
    shown = html.unescape("".join(labels)).replace(SPACE, " ").replace(EMPTY, "")
    assert shown == text  # ...and the student still sees exactly what they typed
    assert all(RAW_TAG.search(t) is None and "$" not in t for t in labels)
    if payload == "templates_entities":
        assert any("&#36;" in t for t in labels)  # no MathJax
        assert any("&amp;lt;" in t or "&amp;" in t for t in labels)  # entities stay text
    else:
        assert any("&lt;" in t for t in labels)


def test_status_and_table_markdown_never_contain_user_text(base):
    payload = f"{MARKER} [click](javascript:alert(1)) <img src=x onerror=alert(1)> **b** `c`"
    for text, changes in [(payload, {}), (payload * 40, {}),
                          (payload, {"objective": "masked word (bidirectional)"}),
                          (payload, {"mask": "off"})]:
        *_, status, table = explore_raw(base, text, **changes)
        for markdown in (status, table):
            assert MARKER not in markdown and "javascript:" not in markdown
            assert "<img" not in markdown and "onerror" not in markdown


def test_no_component_renders_user_text_as_html_and_none_takes_files(resources):
    """No event takes a file from the student, and nothing that receives the sentence writes
    raw HTML: its outputs are Plots (labels escaped) and Markdown that gradio sanitises."""
    tok, zoo = resources
    demo = app.build_app(tok, zoo)
    uploads = (gr.File, gr.Files, gr.UploadButton, gr.Image, gr.ImageEditor, gr.Audio,
               gr.Video, gr.Model3D, gr.Gallery, gr.MultimodalTextbox, gr.ImageSlider)
    fns = list(demo.fns.values())
    sentence = [c for c in demo.blocks.values()
                if isinstance(c, gr.Textbox) and getattr(c, "max_length", None) == BOX_CHARS]
    assert sentence, "the sentence box (max_length=BOX_CHARS) was not found"
    # a paste longer than the server reads stays whole in the box, and the status says
    # what was read (a box cut at MAX_CHARS did so silently, #30)
    assert BOX_CHARS > MAX_CHARS
    taking_files = [c for fn in fns for c in fn.inputs if isinstance(c, uploads)]
    taking_files += [c for c in demo.blocks.values()
                     if isinstance(c, uploads) and getattr(c, "interactive", None) is True]
    assert not taking_files, taking_files
    fed_by_text = [fn for fn in fns if any(c in fn.inputs for c in sentence)]
    assert fed_by_text  # the live update, at least
    outputs = [c for fn in fed_by_text for c in fn.outputs]
    # The gr.HTML that gets the sentence is the Explore grid's canvas (static/live_grid.js,
    # which asks its server function for it).
    # Its value is data for the script, never HTML: its template has no placeholder for it,
    # and the script writes text only as textContent or on the canvas.
    htmls = [c for c in outputs if isinstance(c, gr.HTML)]
    grid = next(c for c in demo.blocks.values() if getattr(c, "elem_id", None) == "grid")
    htmls = [grid, *(c for c in htmls if c is not grid)]
    # The others are the live loop's hidden anchors (explorer/ui/controls.py): their only value is a
    # stamp the server makes (a number), the last output of each view's wrapped update.
    anchors = [c for c in htmls if c.elem_id != "grid"]
    assert anchors and all(c.elem_id.startswith("ae-live-") for c in anchors)
    for fn in fed_by_text:
        for c in fn.outputs:
            if c in anchors:
                stamped = explorer.ui.controls._stamped(print, 1).__code__
                assert fn.outputs[-1] is c and fn.fn.__code__ is stamped
    assert not any(mark in c.html_template for c in htmls for mark in ("${", "{{"))
    script = (STATIC / "live_grid.js").read_text()
    assert not any(sink in script for sink in ("innerHTML", "outerHTML", "insertAdjacent",
                                                "document.write", "eval("))
    markdowns = [c for c in demo.blocks.values() if isinstance(c, gr.Markdown)]
    assert markdowns and all(c.sanitize_html for c in markdowns)


def test_a_10kb_upload_is_refused(base):
    r = httpx.post(f"{base}/upload", files={"files": ("big.txt", b"x" * 10_000, "text/plain")},
                   timeout=30, verify=False)
    assert r.status_code == 413 and "maximum allowed size" in r.text


def test_hand_made_control_values_get_a_message_not_a_trace(base):
    event, payload = raw_call(base, ["hello", *CONTROLS[:6], "<img src=x onerror=alert(1)>",
                                     0, "light"])
    assert event == "error" and "Traceback" not in json.dumps(payload)
    assert "onerror" not in json.dumps(payload)
    event, outputs = raw_call(base, ["hello", *CONTROLS[:6], float("nan"), 0, "light"])
    assert event == "complete" and outputs[0] is None
    assert outputs[4].startswith("⚠️ A control value could not be read")
    grid, *_ = explore_raw(base, "hello again")  # and the next request is normal
    assert grid is not None


# --- repeated tokens -------------------------------------------------------------------------

def test_repeated_tokens_keep_their_own_positions(client, resources):
    tok, _ = resources
    text = "the cat saw the cat. the cat saw the cat. the the the"
    pieces = prepare(tok, text, N_CTX, masked_word=False).pieces
    n = len(pieces)
    assert max(Counter(pieces).values()) >= 3  # the premise: real duplicates
    grid, big, lines, preds, *_ = client.predict(text, *CONTROLS, api_name="/explore")
    for fig in (figure_json(grid), figure_json(big)):
        token_axes = axes(fig)
        assert token_axes
        for axis in token_axes:
            assert axis["tickmode"] == "array" and axis.get("type") != "category"
            assert axis["tickvals"] == list(range(n)) and len(axis["ticktext"]) == n
            assert axis["ticktext"] == axis_labels(pieces)
        for trace in fig["data"]:
            assert "x" not in trace and "y" not in trace  # positions, never token categories
        assert all(z.shape == (n, n) for z in heatmaps(fig))
    view = figure_json(lines)
    for side in ("query", "key"):
        (trace,) = [t for t in view["data"] if t.get("name") == side]
        assert trace["text"] == axis_labels(pieces)
        np.testing.assert_array_equal(decode_array(trace["y"]), np.arange(n))
    bars = figure_json(preds)
    (yaxis,) = axes(bars)
    assert yaxis["tickvals"] == list(range(len(yaxis["ticktext"])))


# --- unexpected errors -----------------------------------------------------------------------

SECRET = "secret-internal-detail /srv/app/weights"


def patch_explore(monkeypatch, replacement) -> list[str]:
    """Replace ``explorer.views.explore.explore`` wherever the UI imported it
    (``from explorer.views.explore import explore`` binds a module global: app.py once,
    explorer/ui/explore_tab.py now). The app is built afterwards, so even a closure that captured
    the
    function sees the replacement."""
    import explorer.views.explore

    original = explorer.views.explore.explore
    patched = []
    for name, module in list(sys.modules.items()):
        if name != __name__ and getattr(module, "explore", None) is original:
            monkeypatch.setattr(module, "explore", replacement)
            patched.append(name)
    assert "explorer.views.explore" in patched and len(patched) >= 2, patched  # the UI's copy too
    return patched


def test_unexpected_error_shows_a_short_generic_message_and_is_logged(
        resources, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError(SECRET)

    patch_explore(monkeypatch, broken)
    tok, zoo = resources
    with caplog.at_level(logging.ERROR), serve(app.build_app(tok, zoo), HARDENING_QUEUE) as url:
        grid, big, lines, preds, status, table = local_client(url).predict(
            "hello", *CONTROLS, api_name="/explore")
    assert (grid, big, lines, preds) == (None, None, None, None)
    assert GENERIC in status and len(status) < 120
    for leak in ("Traceback", "RuntimeError", SECRET, "File \"", "line "):
        assert leak not in status and leak not in table
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert any(SECRET in str(r.exc_info[1]) for r in logged), [r.getMessage() for r in logged]


def test_an_error_outside_the_handler_is_not_shown_to_the_client(resources, monkeypatch):
    """A failure gradio itself hits (here: an output it cannot post-process) reaches the
    client only as a bare error, because launch(show_error=False)."""
    from gradio_client.exceptions import AppError

    tok, zoo = resources

    def bad_output(zoo, tok, text, controls):
        result = explore(zoo, tok, text, controls)  # this module's own, unpatched reference
        result.grid = object()  # not a figure: gr.Plot's postprocess raises
        return result

    patch_explore(monkeypatch, bad_output)
    with serve(app.build_app(tok, zoo), HARDENING_QUEUE) as url:
        with pytest.raises(AppError) as info:
            local_client(url).predict("hello", *CONTROLS, api_name="/explore")
    message = str(info.value)
    assert "Traceback" not in message and "object" not in message and "File \"" not in message


def test_main_launches_with_the_documented_limits(resources, monkeypatch):
    """The production entry point (``python app.py``) sets the limits this file relies on."""
    from gradio.utils import _parse_file_size

    captured = {}

    def fake_launch(self, *args, **kwargs):
        captured.update(kwargs, demo=self)

    monkeypatch.setattr(app, "load_resources", lambda: resources)
    monkeypatch.setattr(gr.Blocks, "launch", fake_launch)
    app.main()
    queue = captured["demo"]._queue
    assert queue.max_size == app.QUEUE["max_size"] == 2048 and queue.default_concurrency_limit == 4
    assert _parse_file_size(captured["max_file_size"]) <= 1024
    assert captured["show_error"] is False


def test_explore_in_process_never_raises_on_odd_text(resources):
    """The same inputs straight into ``explore`` (no HTTP in between): figures, no error."""
    tok, zoo = resources
    for text in [*UNICODE.values(), *EVIL.values(), "\x00" * 2000, "\ud800" * 1500, "🏴󠁧󠁢󠁳󠁣󠁴󠁿" * 300]:
        result = explore(zoo, tok, text, Controls())
        assert result.grid is not None and result.head is not None
        json.loads(result.grid.to_json())  # serialisable (orjson refuses surrogates)
