"""The "Take it home" view: the picked head and every head, stamped with what they show,
the share link and its QR code, and the files to download.

:func:`take_home_view` returns the two figures with a caption saying the model, the
sentence and any experiment (:func:`explorer.views.export.stamp`), so a picture pasted into
slides still says what it is; :func:`prepare_files` writes the CSV, NPZ and JSON files of
one capture (:func:`explorer.views.export.write_files`). :func:`notebook_code` is the
notebook cell that draws the same view (``explorer.notebook.show``) and
:func:`notebook_file` writes that view as one self-contained HTML file
(:mod:`explorer.views.notebook_view`), the same file the cell's ``.save()`` writes.
"""

from __future__ import annotations

from explorer.analysis.run import plural
from explorer.analysis.stages import Picked, pick
from explorer.figures.attention import attention_grid, head_heatmap
from explorer.models.checkpoint import save_model
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import LAB_MODEL_NAME, Zoo
from explorer.views.controls import (
    EMPTY_STATE,
    OBJECTIVES,
    SCALE_CHOICES,
    BadControl,
    Controls,
    parse_controls,
)
from explorer.views.export import describe, export_capture, fresh_dir, stamp, write_files
from explorer.views.grid_payload import grid_payload
from explorer.views.notebook_view import AttentionView
from explorer.views.share import qr_image, share_link

HEADING_CHARS = 300  # of the sentence, in a saved page's heading (the grid shows it all)
NO_QR = ("No QR code: the link is too long for one (shorten the sentence, or use the link "
         "itself).")
NO_LAB_LINK = ("No link for your Lab model: it lives only in this page's session, and a link "
               "opens the app afresh. Pick next word or masked word as the Model for a link; "
               "to keep your model, download it below (*Your Lab model as safetensors*).")


def take_home_view(zoo: Zoo, tok: Tokenizer, text: str, controls: list, base: str,
                   tab: str | None = None, corrupt: str | None = None):
    """(status, head figure, grid figure, share link, QR code picture) for one request;
    ``tab``: the view the link opens; ``corrupt``: Patch's corrupted copy (in the link if
    it opens Patch)."""
    try:
        c = parse_controls(*controls)
    except BadControl as exc:
        return f"⚠️ {exc}", None, None, "", None
    if c.lab:  # a session's own model: no link can open it (explorer/views/lab_models.py)
        link, qr, no_qr = "", None, [NO_LAB_LINK]
    else:
        link = share_link(base, text or "", c, tab, corrupt)
        qr = qr_image(link)
        no_qr = [NO_QR] if qr is None and link.startswith("http") else []
    picked = pick(zoo, c)
    if picked.model is None:
        return "⚠️ " + picked.missing, None, None, link, qr
    if not (text or "").strip():
        return "\n\n".join([EMPTY_STATE, *no_qr]), None, None, link, qr
    capture = export_capture(picked.model, tok, text, picked.name, c.settings(), describe(c))
    if capture.empty:
        return EMPTY_STATE, None, None, link, qr
    layer, head = picked.layer, picked.head
    big = head_heatmap(capture.patterns[layer, head], capture.tokens, theme=c.theme,
                       title=f"Layer {layer}, head {head}")
    grid = attention_grid(capture.patterns, capture.tokens, theme=c.theme,
                          selected=(layer, head))
    stamp(big, capture)
    stamp(grid, capture)
    model = zoo.title(picked.name)
    lines = [f"{model} · {plural(len(capture.tokens), 'token')} · "
             f"picked head **L{layer} H{head}**"]
    interventions = capture.settings.get("interventions") or []
    if interventions:
        lines.append("🧪 **Experiment on the trained model:** " + "; ".join(interventions) + ".")
    lines += [f"⚠️ {note}" for note in (*picked.notes, *capture.settings.get("notices", []))]
    lines += no_qr
    return "\n\n".join(lines), big, grid, link, qr


def prepare_files(zoo: Zoo, tok: Tokenizer, text: str, controls: list):
    """Paths of (head CSV, grid CSV, NPZ, JSON), or None for each when nothing to export."""
    c = parse_controls(*controls)
    picked = pick(zoo, c)
    if picked.model is None or not (text or "").strip():
        return None, None, None, None
    capture = export_capture(picked.model, tok, text, picked.name, c.settings(), describe(c))
    if capture.empty:
        return None, None, None, None
    files = write_files(capture, picked.layer, picked.head)
    return str(files.head_csv), str(files.grid_csv), str(files.npz), str(files.json)


LAB_CELL = """# Your Lab model lives only in this page's session: download it above
# (Your Lab model as safetensors), then, with this project installed:
import torch
from explorer.models.capture import run_with_cache
from explorer.models.checkpoint import load_model
from explorer.models.lab_tokenizer import LabTokenizer
from explorer.notebook import head_view

model, tok = load_model("my-lab-model.safetensors"), LabTokenizer()
ids = tok.encode({text})
_, cache = run_with_cache(model, torch.tensor([ids]), names="*hook_pattern")  # as trained
head_view(cache.stack("attn.hook_pattern")[:, 0], tok.decode(ids).split(),
          layer={layer}, head={head})
"""


def notebook_code(text: str, controls: Controls, layer: int, head: int) -> str:
    """A notebook cell that draws this sentence with these knobs again: ``show(...)`` with
    only the knobs that differ from its defaults (explorer/notebook.py); for a student's
    Lab model, the cell that loads its downloaded file and draws it. The text is a Python
    literal (``repr``): shown as code, never run or rendered here."""
    if controls.lab:
        return LAB_CELL.format(text=repr(text), layer=layer, head=head)
    args = [repr(text), f"heads={controls.heads}", f"pos={controls.pos!r}"]
    if OBJECTIVES[controls.objective] != "causal":
        args.append('objective="masked"')
    if controls.mask != "as trained":
        args.append(f"mask={controls.mask!r}")
    if SCALE_CHOICES[controls.scaling] != "d_head":
        args.append(f"scaling={SCALE_CHOICES[controls.scaling]!r}")
    if controls.temperature != 1.0:
        args.append(f"temperature={controls.temperature:g}")
    args += [f"layer={layer}", f"head={head}"]
    return "from explorer.notebook import show\n\nshow(" + ", ".join(args) + ")\n"


def notebook_cell(zoo: Zoo, text: str, controls: list) -> str:
    """:func:`notebook_code` for one request as the page sends it ("" for knobs the page
    never offers)."""
    try:
        c = parse_controls(*controls)
    except BadControl:
        return ""
    picked = pick(zoo, c)
    return notebook_code(text or "", c, picked.layer, picked.head)


def lab_model_file(zoo: Zoo, controls: list) -> str | None:
    """The student's own Lab model (``zoo``: the session's, explorer/views/lab_models.py)
    written as a fresh ``my-lab-model.safetensors`` to download; None when "my Lab model"
    is not chosen or not open."""
    c = parse_controls(*controls)
    model = zoo.get(LAB_MODEL_NAME) if c.lab else None
    if model is None:
        return None
    path = fresh_dir() / f"{LAB_MODEL_NAME}.safetensors"
    save_model(model, path)
    return str(path)


def notebook_file(zoo: Zoo, tok: Tokenizer, text: str, controls: list) -> tuple[str | None, str]:
    """(path of the view as one HTML file or None when there is nothing to draw, the
    notebook cell). The file follows its reader's light or dark mode ("auto")."""
    c = parse_controls(*controls)
    picked = pick(zoo, c)
    code = notebook_code(text or "", c, picked.layer, picked.head)
    if picked.model is None or not (text or "").strip():
        return None, code
    payload = grid_payload(zoo, tok, text, c)
    if not payload["ok"]:
        return None, code
    path = fresh_dir() / f"attention-{picked.name}.html"
    AttentionView(payload, "auto", f"Attention Explorer: {picked.name}",
                  heading=file_heading(zoo, picked, c, text)).save(path)
    return str(path), code


def file_heading(zoo: Zoo, picked: Picked, c: Controls, text: str) -> tuple[str, ...]:
    """What a saved page says it shows, as plain text lines: the model and its knobs, the
    experiment if any, and the sentence (cut to a few lines), as an exported picture's
    caption does (:func:`explorer.views.export.caption_lines`)."""
    model = zoo.title(picked.name).replace("**", "")
    kind = f"{c.objective}, {int(c.heads)} heads per layer, {c.pos} positions"
    if c.lab:
        kind = "the Lab's words"
    experiment = c.settings().resolve(picked.model.config).interventions
    how = ("🧪 experiment on the trained model: " + "; ".join(experiment) if experiment
           else "as trained")
    words = " ".join((text or "").split())
    if len(words) > HEADING_CHARS:
        words = words[:HEADING_CHARS - 1] + "…"
    return (f"Attention Explorer · {model} ({kind}) · {how}", f"Sentence: “{words}”")
