"""A student's own Lab model in the page's views: opened per session, bounded, dropped.

After a Lab run (:mod:`explorer.training.lab`) the student presses **Open my model**: its
``model.safetensors`` (safetensors only) is loaded into :class:`LabModels`, one model per
session, and the Model knob offers "my Lab model" (:data:`LAB_OBJECTIVE`) to that session.
A view's handler then asks :func:`source` which (zoo, tokenizer) serve the request: the
shared zoo and its tokenizer, or, for "my Lab model", a zoo of that session's model alone
and the :class:`~explorer.models.lab_tokenizer.LabTokenizer`, which reads sentences of the
Lab's 63 words. So the views run unchanged on the student's model; a session sees only
its own (the registry is keyed by the session and answers only that key).

Bounds: at most ``max_sessions`` models and ``max_bytes`` of weights (a Lab model is 45k to 160k
parameters: 0.2-0.6 MB); past either, the least recently used model is closed. A model goes with
its session: the page's unload, the session sweep (``explorer/server/sessions.py``) and
:meth:`LabModels.keep_only`. One registry per served app, made by ``explorer/ui/`` (no module-level
per-user state here); every method is thread-safe.

The keystroke grid's requests of a whole class wait in one line and run in batches
(``explorer/server/keystroke_queue.py``); :func:`route_keystroke` gives each request its (zoo,
tokenizer) before it waits, and :func:`grid_payloads_by_model` batches only the requests
that share a model. No gradio.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from explorer.models.checkpoint import CheckpointError, load_model
from explorer.models.lab_tokenizer import LabTokenizer, unknown_words_message
from explorer.models.transformer import Transformer
from explorer.models.zoo import LAB_MODEL_NAME, Zoo
from explorer.views.controls import LAB_OBJECTIVE, BadControl, Controls, plural
from explorer.views.grid_payload import Keystroke, grid_payloads, read_request
from explorer.views.model_choice import KnobFit

__all__ = ["LAB_OBJECTIVE", "LAB_TOKENIZER", "LabModels", "OpenedModel", "grid_payloads_by_model",
           "lab_knobs", "model_key", "route_keystroke", "source"]

MAX_SESSIONS = 300  # sessions with an opened model (a class of 30-60, reloads, many tabs)
MAX_BYTES = 64 * 2**20  # weights of every opened model together
LAB_TOKENIZER = LabTokenizer()  # read-only, shared: the words are the same for every model
NOT_OPEN = ("No Lab model is open for this page. Train one in the Lab tab and press Open my "
            "model there. An opened model is closed when its page is closed, after 2 hours "
            "unused, or when the server needs the room for other students' models.")
CANNOT_OPEN = "Your model could not be opened (its file is gone or damaged): please train it again."


@dataclass(frozen=True)
class OpenedModel:
    """One session's Lab model and what the views need around it."""

    zoo: Zoo  # this model alone, under LAB_MODEL_NAME
    summary: dict  # the run's summary (settings, steps, whether an induction head formed)
    nbytes: int

    @property
    def model(self) -> Transformer:
        return self.zoo.models[LAB_MODEL_NAME]

    def describe(self) -> str:
        """'2 layers × 2 heads, learned positions, attention only, no LayerNorm; 1,000
        training steps, an induction head formed at step 450' (no user text)."""
        c = self.model.config
        parts = [f"{plural(c.n_layers, 'layer')} × {plural(c.n_heads, 'head')}",
                 f"{c.pos_encoding} positions",
                 "with MLP" if c.mlp else "attention only",
                 "LayerNorm" if c.norm != "none" else "no LayerNorm"]
        text = ", ".join(parts)
        steps = self.summary.get("steps")
        if isinstance(steps, int):
            text += f"; {steps:,} training steps"
            formed = self.summary.get("formed_at_step")
            text += (f", an induction head formed at step {formed:,}" if isinstance(formed, int)
                     else ", no induction head formed")
        return text


class LabModels:
    """The opened Lab models of one served app, one per session (see the module
    docstring). ``device``: where they run (the zoo's)."""

    def __init__(self, max_sessions: int = MAX_SESSIONS, max_bytes: int = MAX_BYTES,
                 device: str = "cpu") -> None:
        self.max_sessions, self.max_bytes, self.device = max_sessions, max_bytes, device
        self._lock = threading.Lock()
        self._models: OrderedDict[str, OpenedModel] = OrderedDict()  # least recent first
        self._opened = itertools.count(1)  # each opening's number (model_key)

    def open(self, session: str, path: Path, summary: dict | None = None) -> OpenedModel:
        """Load the checkpoint at ``path`` (safetensors) as ``session``'s model, replacing
        its earlier one; :class:`BadControl` when it cannot be read or is no Lab model."""
        if not session:
            raise BadControl(CANNOT_OPEN)
        try:
            model = load_model(path, device=self.device).eval()
        except CheckpointError:
            raise BadControl(CANNOT_OPEN) from None
        if model.config.vocab_size != LAB_TOKENIZER.vocab_size or not model.config.causal:
            raise BadControl(CANNOT_OPEN)
        nbytes = sum(p.numel() * p.element_size() for p in model.parameters())
        if nbytes > self.max_bytes:
            raise BadControl(CANNOT_OPEN)
        card = {"lab": True, "opened": next(self._opened)}
        zoo = Zoo(models={LAB_MODEL_NAME: model}, cards={LAB_MODEL_NAME: card},
                  device=self.device)
        opened = OpenedModel(zoo, dict(summary or {}), nbytes)
        card["about"] = opened.describe()  # what the views' status lines say of it
        with self._lock:
            self._models.pop(session, None)
            self._models[session] = opened
            while len(self._models) > self.max_sessions or self._bytes() > self.max_bytes:
                self._models.popitem(last=False)  # the least recently used goes
        return opened

    def _bytes(self) -> int:
        return sum(m.nbytes for m in self._models.values())

    def get(self, session: str | None) -> OpenedModel | None:
        """``session``'s model (None: it has none, or it was closed)."""
        if not session:
            return None
        with self._lock:
            opened = self._models.get(session)
            if opened is not None:
                self._models.move_to_end(session)
            return opened

    def drop(self, session: str | None) -> bool:
        """Close ``session``'s model (its page was closed); True if it had one."""
        with self._lock:
            return self._models.pop(session, None) is not None

    def keep_only(self, alive: Iterable[str]) -> int:
        """Close the models of every session not in ``alive`` (the sessions the server
        still keeps); returns how many were closed."""
        alive = set(alive)
        with self._lock:
            gone = [s for s in self._models if s not in alive]
            for session in gone:
                del self._models[session]
        return len(gone)

    def __len__(self) -> int:
        with self._lock:
            return len(self._models)

    @property
    def nbytes(self) -> int:
        with self._lock:
            return self._bytes()


def source(models: LabModels | None, session: str | None, zoo: Zoo, tok,
           controls: Controls, text: str | None = "", typing: bool = False) -> tuple[Zoo, Any]:
    """The (zoo, tokenizer) that serve a request: the shared ones, or for "my Lab model"
    the session's own model and the Lab's words. :class:`BadControl` (a message for the
    student) when the session has no opened model, or ``text`` has words the Lab model
    does not know (``typing``: a word being typed at the end is let through)."""
    if not controls.lab:
        return zoo, tok
    opened = models.get(session) if models is not None else None
    if opened is None:
        raise BadControl(NOT_OPEN)
    places = LAB_TOKENIZER.unknown(str(text or ""), typing=typing)
    if places:
        raise BadControl(unknown_words_message(places))
    return opened.zoo, LAB_TOKENIZER


def model_key(zoo: Zoo, name: str) -> str:
    """``name``, and for a Lab model which opening it is: a view's cache of one model (the
    Ablate ranking) must not serve another model the session opened later."""
    opened = zoo.cards.get(name, {}).get("opened")
    return name if opened is None else f"{name}#{opened}"


def lab_knobs(opened: OpenedModel | None, heads, pos) -> KnobFit:
    """The Heads and Positional knobs while "my Lab model" is chosen: set to the model and
    switched off, with a note saying which model it is."""
    if opened is None:
        return KnobFit(int(heads) if str(heads).isdigit() else 4, str(pos), True, NOT_OPEN)
    c = opened.model.config
    return KnobFit(c.n_heads, c.pos_encoding, True,
                   f"Your Lab model ({opened.describe()}). It reads only its 63 words "
                   "(the Lab tab lists them); Heads per layer and Positional encoding are set "
                   "to it.")


def route_keystroke(models: LabModels | None, session: str | None, zoo: Zoo, tok,
                    request: Keystroke | Any) -> tuple[Zoo, Any] | dict:
    """(zoo, tokenizer) for one keystroke (read by the caller, or the page's JSON) before it
    waits in line, or the answer at once when it cannot run (no opened model, words the Lab
    model does not know). A request that cannot be read goes on with the shared ones (its
    answer says why)."""
    try:
        key = request if isinstance(request, Keystroke) else read_request(request)
    except BadControl:
        return zoo, tok
    try:
        return source(models, session, zoo, tok, key.controls, key.text, typing=True)
    except BadControl as exc:
        return key.refused(str(exc))


def grid_payloads_by_model(items: list[tuple[Any, tuple[Zoo, Any]]]) -> list[dict]:
    """:func:`~explorer.views.grid_payload.grid_payloads` of ``[(request, (zoo,
    tokenizer))]``: the requests of one model together, never two models in one batch."""
    groups: dict[int, tuple[Zoo, Any, list[int]]] = {}
    for i, (_, (zoo, tok)) in enumerate(items):
        groups.setdefault(id(zoo), (zoo, tok, []))[2].append(i)
    out: list[dict] = [{}] * len(items)
    for zoo, tok, indices in groups.values():
        answers = grid_payloads(zoo, tok, [items[i][0] for i in indices])
        for i, answer in zip(indices, answers, strict=True):
            out[i] = answer
    return out
