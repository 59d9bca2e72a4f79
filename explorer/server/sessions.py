"""What the server keeps per browser session, kept small and bounded in time.

Gradio 6.31 keeps one ``SessionState`` per session hash (``gradio/state_holder.py``), made
on the session's first request and kept until ``launch(state_session_capacity=...)``
newer sessions push it out (10,000 by default); nothing else ever drops it. Each one
began with ``config_values``: the page's whole config (every component's props and API
description, 290 components here) built and copied for that session, 0.44 MB and ~30 ms
of CPU, although only the "deep link" route (``/gradio_api/deep_link``, a button this app
does not have) ever reads it. A script or a class reloading pages sent memory up by that
much per page load (3,000 fresh sessions: +1.4 GB).

Here (:class:`ClassroomStateHolder`, installed by :func:`install`):

* **A session holds ~27 kB** (measured: tests/plumbing/test_sessions.py) plus its
  ``gr.State`` values: its own shallow copy of the page's component table (so that an
  update to one component, e.g. the Head slider's range, stays this user's). Gradio
  also copied every value the session sent or was shown into that config (figures too:
  hundreds of kB more once a page has run its updates); nothing here reads them, so
  they are not kept, and a component's config is built only if something asks for it
  (:class:`ConfigView`).
* **A keystroke keeps nothing**: the canvas's ``grid_data`` server function reads no
  session state, so a request to ``/gradio_api/component_server`` from a session the
  server does not know gets a throwaway session that is not stored (the client guard in
  ``explorer/server/client_guard.py`` marks such requests with :data:`TRANSIENT`). A page's own
  session, made by its load events, is used as before.
* **Sessions expire**: one unused for ``IDLE_TTL_S`` is dropped, on Gradio's own
  once-a-second sweep; the cap is Gradio's ``state_session_capacity`` (app.py).
* **What else a session holds goes with it**: each sweep hands the sessions still kept
  to every callable in the app's ``session_sweepers`` (a student's opened Lab model,
  explorer/server/lab_session.py, is dropped with its session).
"""

from __future__ import annotations

import contextvars
import datetime
import os
import time
from copy import copy

import gradio.routes
from gradio.blocks import BlocksConfig
from gradio.components import State
from gradio.state_holder import SessionState, StateHolder

# Set (by explorer/server/client_guard.py) while a request that needs no session state is handled: a
# session it names that the server does not know is made for it and not kept.
TRANSIENT: contextvars.ContextVar[bool] = contextvars.ContextVar("ae_transient",
                                                                 default=False)
# A session nobody used for this long is dropped: a lesson with its breaks fits in it,
# and a page that comes back later starts from the defaults (see README, Limits).
IDLE_TTL_S = 2 * 3600.0
SWEEP_EVERY_S = 10.0  # idle sessions are looked for this often (Gradio sweeps every 1 s)


class ConfigView:
    """``SessionState.config_values`` as a view that stores nothing: each component's
    config is built when asked for, from this session's own component. Gradio reads it
    only for deep links; what it no longer has are the last values shown (Gradio copied
    every input and output value into it, figures included, per session: hundreds of kB
    for a page that has run its updates), so a deep link would open with the defaults."""

    def __init__(self, session: SessionState, keys) -> None:
        self._session = session
        self._keys = tuple(keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def __getitem__(self, key):
        if key not in self._keys:
            raise KeyError(key)
        return BlocksConfig.config_for_block(key, [], self._session.blocks_config.blocks[key])

    def __setitem__(self, key, value) -> None:
        """Kept by nobody (see the class docstring)."""

    def get(self, key, default=None):
        return self[key] if key in self else default

    def items(self):
        return [(key, self[key]) for key in self._keys]

    def __len__(self) -> int:
        return len(self._keys)


class LeanSessionState(SessionState):
    """Gradio's ``SessionState`` without a copy of the page's config and of every value it
    showed (:class:`ConfigView`): the component table and the ``gr.State`` values only."""

    def __init__(self, blocks) -> None:  # mirrors SessionState.__init__
        self.blocks_config = copy(blocks.default_config)
        self.config_values = ConfigView(
            self, [k for k in self.blocks_config.blocks if k in blocks.blocks])
        self.state_data = {}
        self._state_ttl = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if os.getenv("GRADIO_IS_E2E_TEST", None) else 3600

    def __setitem__(self, key: int, value) -> None:
        # SessionState.__setitem__ without building the component's config
        block = self.blocks_config.blocks.get(key)
        if isinstance(block, State):
            self._state_ttl[key] = (block.time_to_live, datetime.datetime.now())
            self.state_data[key] = value
        else:
            self.blocks_config.blocks[key] = value

    def _update_config(self, key: int) -> None:
        """Nothing to update: :class:`ConfigView` builds configs when asked."""

    def _update_value_in_config(self, key: int, value) -> None:
        """Values shown are not kept (see :class:`ConfigView`)."""


class ClassroomStateHolder(StateHolder):
    """Gradio's ``StateHolder`` with lean sessions, throwaway ones for :data:`TRANSIENT`
    requests, and idle sessions dropped after ``idle_ttl_s``. The cap
    (``capacity``, from ``launch(state_session_capacity=...)``) works as in Gradio: the
    least recently used session goes first."""

    idle_ttl_s = IDLE_TTL_S

    def __init__(self) -> None:
        super().__init__()
        self._next_sweep = 0.0

    def __getitem__(self, session_id: str) -> SessionState:
        session = self.session_data.get(session_id)
        if session is None:
            if TRANSIENT.get():
                return LeanSessionState(self.blocks)  # answered, not kept
            with self.lock:
                session = self.session_data.setdefault(session_id,
                                                       LeanSessionState(self.blocks))
        self.update(session_id)
        self.time_last_used[session_id] = datetime.datetime.now()
        return session

    def delete_idle(self, now: datetime.datetime | None = None) -> int:
        """Drop every session unused for ``idle_ttl_s``; returns how many went."""
        now = now or datetime.datetime.now()
        limit = datetime.timedelta(seconds=self.idle_ttl_s)
        with self.lock:
            idle = [s for s, used in list(self.time_last_used.items()) if now - used > limit]
            for session_id in idle:
                self.session_data.pop(session_id, None)
                self.time_last_used.pop(session_id, None)
        return len(idle)

    def sweep_others(self) -> None:
        """Tell the app's ``session_sweepers`` which sessions are still kept (idle ones and
        those the cap pushed out are not), so what they hold per session goes too."""
        sweepers = getattr(getattr(self, "blocks", None), "session_sweepers", ())
        if sweepers:
            with self.lock:
                alive = frozenset(self.session_data)
            for sweep in sweepers:
                sweep(alive)

    def delete_all_expired_state(self) -> None:
        # Gradio's lifespan task calls this every second for gr.State time-to-live.
        if time.monotonic() >= self._next_sweep:
            self._next_sweep = time.monotonic() + SWEEP_EVERY_S
            self.delete_idle()
            self.sweep_others()
        super().delete_all_expired_state()


def install() -> None:
    """Make every Gradio server started from now on in this process keep its sessions in
    a :class:`ClassroomStateHolder` (Gradio makes its holder in ``gradio.routes.App``)."""
    gradio.routes.StateHolder = ClassroomStateHolder

